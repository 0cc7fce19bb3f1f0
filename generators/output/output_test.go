package output

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func goFile(pkg, body string) []byte {
	return []byte(Header + "\n\npackage " + pkg + "\n\n" + body + "\n")
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Compare names every missing, changed and stale file; files without the
// header are never stale (they are the user's).
func TestCompareReportsDrift(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a/same.go":      string(goFile("a", "var X = 1")),
		"a/changed.go":   string(goFile("a", "var Y = 1")),
		"b/old.go":       string(goFile("b", "var Z = 1")),
		"b/handmade.go":  "package b\n",
		"b/notes.txt":    Header + "\n",
		"c/late_head.go": "package c\n\n" + Header + "\n",
		"other/x.go":     string(goFile("x", "var V = 1")),
	})
	f := New("a", "b", "c")
	for rel, content := range map[string][]byte{
		"a/same.go":    goFile("a", "var X = 1"),
		"a/changed.go": goFile("a", "var Y = 2"),
		"a/new.go":     goFile("a", "var W = 1"),
	} {
		if err := f.Add(rel, content); err != nil {
			t.Fatal(err)
		}
	}
	d, err := f.Compare(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Missing, []string{"a/new.go"}) || !slices.Equal(d.Changed, []string{"a/changed.go"}) || !slices.Equal(d.Stale, []string{"b/old.go"}) {
		t.Fatalf("drift = %+v", d)
	}
	msg := d.Error()
	for _, want := range []string{"missing: a/new.go", "differs: a/changed.go", "stale: b/old.go"} {
		if !strings.Contains(msg, want) {
			t.Errorf("drift message %q lacks %q", msg, want)
		}
	}
}

// Write applies the drift and leaves the tree equal to the files plus the
// user's own files; a second Compare finds nothing.
func TestWriteBringsTheTreeInLine(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a/changed.go":  string(goFile("a", "var Y = 1")),
		"b/old.go":      string(goFile("b", "var Z = 1")),
		"b/handmade.go": "package b\n",
		"d/x/y/old.go":  string(goFile("y", "var Z = 1")),
	})
	f := New("a", "b", "d")
	_ = f.Add("a/changed.go", goFile("a", "var Y = 2"))
	_ = f.Add("d/e/new.go", goFile("e", "var W = 1"))
	if _, err := f.Write(dir); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a/changed.go":  string(goFile("a", "var Y = 2")),
		"d/e/new.go":    string(goFile("e", "var W = 1")),
		"b/handmade.go": "package b\n",
	}
	got := readTree(t, dir)
	if len(got) != len(want) {
		t.Fatalf("tree = %v, want %v", got, want)
	}
	for rel, content := range want {
		if got[rel] != content {
			t.Errorf("%s = %q, want %q", rel, got[rel], content)
		}
	}
	if d, err := f.Compare(dir); err != nil || !d.Empty() {
		t.Fatalf("after Write: drift %+v, %v", d, err)
	}
	// The directories a stale file leaves empty go too; the others stay.
	if _, err := os.Stat(filepath.Join(dir, "d", "x")); !os.IsNotExist(err) {
		t.Errorf("d/x, emptied by the removal of d/x/y/old.go: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "d", "e")); err != nil {
		t.Errorf("d/e: %v", err)
	}
}

// A missing output directory is all drift, not an error.
func TestCompareWithMissingDirectory(t *testing.T) {
	f := New()
	_ = f.Add("x.go", goFile("x", ""))
	d, err := f.Compare(filepath.Join(t.TempDir(), "nowhere"))
	if err != nil || !slices.Equal(d.Missing, []string{"x.go"}) {
		t.Fatalf("drift = %+v, %v", d, err)
	}
}

func TestAddRejectsBadPaths(t *testing.T) {
	f := New()
	for _, rel := range []string{"../x.go", "/abs.go", "."} {
		if err := f.Add(rel, nil); err == nil {
			t.Errorf("Add(%q): no error", rel)
		}
	}
	_ = f.Add("a.go", nil)
	if err := f.Add("./a.go", nil); err == nil {
		t.Error("Add of a duplicate: no error")
	}
}

func TestFormatGoSortsImportsAndFormats(t *testing.T) {
	src := "package p\nimport (\n\"strings\"\n\"fmt\"\n)\nfunc F( ) string { return fmt.Sprint(strings.ToUpper(\"x\")) }\n"
	got, err := FormatGo("p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := "package p\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\nfunc F() string { return fmt.Sprint(strings.ToUpper(\"x\")) }\n"
	if string(got) != want {
		t.Errorf("FormatGo =\n%s\nwant\n%s", got, want)
	}
	if _, err := FormatGo("bad.go", []byte("package p\nfunc {")); err == nil || !strings.Contains(err.Error(), "   2 func {") {
		t.Errorf("FormatGo of bad source: %v, want an error quoting numbered lines", err)
	}
}
