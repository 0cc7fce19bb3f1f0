package generators

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/informer-gen-plus/informer-gen-plus/generators/output"
)

// matchGoldenSubset compares the generated files that pick selects (rel is
// the file's path below dir) with the golden files in dir, byte for byte,
// and checks that dir holds no other file; with -update it writes them
// instead. It returns the selected paths relative to dir, sorted.
func matchGoldenSubset(t *testing.T, files *output.Files, dir string, pick func(path string) (rel string, ok bool)) []string {
	t.Helper()
	const hint = "(run go test ./generators/ -update after checking the change)"
	var got []string
	for _, p := range files.Paths() {
		rel, ok := pick(p)
		if !ok {
			continue
		}
		got = append(got, rel)
		content, _ := files.Content(p)
		golden := filepath.Join(dir, filepath.FromSlash(rel))
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, content, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%s: %v %s", golden, err, hint)
			continue
		}
		if string(want) != string(content) {
			t.Errorf("%s differs from the generated file %s", golden, hint)
		}
	}
	var have []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			have = append(have, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(have)
	slices.Sort(got)
	if !slices.Equal(have, got) {
		t.Errorf("golden files %v, generated %v %s", have, got, hint)
	}
	return got
}
