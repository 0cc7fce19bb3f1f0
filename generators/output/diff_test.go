package output

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	for _, tc := range []struct {
		name       string
		have, want string
		diff       string
	}{{
		name: "equal",
		have: "a\nb\n",
		want: "a\nb\n",
		diff: "",
	}, {
		name: "one line changed",
		have: "1\n2\n3\n4\n5\n6\n7\n8\n9\n",
		want: "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
		diff: "--- x (on disk)\n+++ x (generated)\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n",
	}, {
		name: "missing file: all added",
		have: "",
		want: "a\nb\n",
		diff: "--- x (on disk)\n+++ x (generated)\n@@ -0,0 +1,2 @@\n+a\n+b\n",
	}, {
		name: "removed file: all removed",
		have: "a\n",
		want: "",
		diff: "--- x (on disk)\n+++ x (generated)\n@@ -1 +0,0 @@\n-a\n",
	}, {
		name: "no newline at the end",
		have: "a\nb",
		want: "a\nc",
		diff: "--- x (on disk)\n+++ x (generated)\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := UnifiedDiff("x (on disk)", "x (generated)", []byte(tc.have), []byte(tc.want))
			if got != tc.diff {
				t.Errorf("UnifiedDiff =\n%s\nwant\n%s", got, tc.diff)
			}
		})
	}
}

func TestDriftDiff(t *testing.T) {
	dir := t.TempDir()
	f := New(".")
	if err := f.Add("a/changed.go", []byte(Header+"\n\npackage a\n\nvar X = 2\n")); err != nil {
		t.Fatal(err)
	}
	if err := f.Add("a/missing.go", []byte(Header+"\n\npackage a\n")); err != nil {
		t.Fatal(err)
	}
	for rel, content := range map[string]string{
		"a/changed.go": Header + "\n\npackage a\n\nvar X = 1\n",
		"a/stale.go":   Header + "\n\npackage a\n",
	} {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := f.Compare(dir)
	if err != nil {
		t.Fatal(err)
	}
	diff, err := f.Diff(dir, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"--- /dev/null\n+++ a/missing.go (generated)\n@@ -0,0 +1,3 @@\n+" + Header + "\n",
		"--- a/changed.go (on disk)\n+++ a/changed.go (generated)\n",
		"-var X = 1\n+var X = 2\n",
		"--- a/stale.go (on disk, stale)\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-" + Header + "\n",
	} {
		if !strings.Contains(diff, want) {
			t.Errorf("diff does not contain\n%s\ngot:\n%s", want, diff)
		}
	}
}

func TestDiffIsCapped(t *testing.T) {
	long := strings.Repeat("line\n", 3*maxDiffLines)
	got := capLines(UnifiedDiff("/dev/null", "x", nil, []byte(long)))
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != maxDiffLines+1 || !strings.HasPrefix(lines[maxDiffLines], "... (") {
		t.Errorf("capped diff has %d lines, ending %q", len(lines), lines[len(lines)-1])
	}
}
