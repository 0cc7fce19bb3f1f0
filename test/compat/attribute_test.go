package compat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAttribute: compiler and vet diagnostics are named by the consumer's
// declaration they are in.
func TestAttribute(t *testing.T) {
	dir := t.TempDir()
	src := `package consumer

func useFine() {}

func useBroken() {
	_ = missing
}

type FooInformerOf struct{}

func (f FooInformerOf) Lister() {
	_ = alsoMissing
}
`
	if err := os.MkdirAll(filepath.Join(dir, "consumer"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "consumer", "consumer.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := `# example.dev/compat/consumer
consumer/consumer.go:6:6: undefined: missing
vet: consumer/consumer.go:12:6: undefined: alsoMissing
generated/listers/compat/v1/foo.go:10:2: undefined: x
`
	got := attribute(dir, out)
	for _, want := range []string{
		"useBroken (consumer/consumer.go:6): undefined: missing",
		"FooInformerOf.Lister (consumer/consumer.go:12): undefined: alsoMissing",
		"generated or scratch code generated/listers/compat/v1/foo.go:10: undefined: x",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("attribute output lacks %q:\n%s", want, got)
		}
	}
}
