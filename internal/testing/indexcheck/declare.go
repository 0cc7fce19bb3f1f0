package indexcheck

import (
	"testing"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// Declarer declares run-time indexes from specs in
// fieldpath.ParseIndexSpec's form: the informers of runtime/dynamicinformer
// and runtime/metadatainformer.
type Declarer interface {
	AddIndex(name, spec string) error
}

// Declare declares specs (index name to spec) on d, failing t on any error,
// and returns them parsed, for Disagreements.
func Declare(t testing.TB, d Declarer, specs map[string]string) map[string]fieldpath.IndexSpec {
	t.Helper()
	parsed := make(map[string]fieldpath.IndexSpec, len(specs))
	for name, spec := range specs {
		if err := d.AddIndex(name, spec); err != nil {
			t.Fatal(err)
		}
		s, err := fieldpath.ParseIndexSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		parsed[name] = s
	}
	return parsed
}
