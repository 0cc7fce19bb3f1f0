package output

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// maxDiffLines caps the lines of one file's diff in Drift's report, so that a
// whole missing tree does not flood a CI log.
const maxDiffLines = 200

// UnifiedDiff returns the unified diff (three lines of context) that turns
// have, the file on disk, into want, the generated file; empty when they are
// equal. fromName and toName head it ("--- fromName", "+++ toName"); a
// missing file diffs from no lines, a removed one to no lines.
func UnifiedDiff(fromName, toName string, have, want []byte) string {
	out, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A:        splitLines(have),
		B:        splitLines(want),
		FromFile: fromName,
		ToFile:   toName,
		Context:  3,
	})
	if err != nil { // only from the writer, a bytes.Buffer here
		return fmt.Sprintf("(no diff: %v)\n", err)
	}
	return out
}

// splitLines splits b into lines that keep their "\n"; a last line without
// one gets it, so that every diff line ends in a newline.
func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	lines := strings.SplitAfter(string(b), "\n")
	if last := lines[len(lines)-1]; last == "" {
		lines = lines[:len(lines)-1]
	} else {
		lines[len(lines)-1] = last + "\n"
	}
	return lines
}

// Diff returns the unified diff of every file in d against the tree under
// dir: on-disk content (or nothing, for a missing file) to generated content
// (or nothing, for a stale file). Each file's diff is cut after
// maxDiffLines lines.
func (f *Files) Diff(dir string, d Drift) (string, error) {
	var b strings.Builder
	read := func(rel string) ([]byte, error) {
		return os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	}
	for _, rel := range d.Missing {
		b.WriteString(capLines(UnifiedDiff("/dev/null", rel+" (generated)", nil, f.files[rel])))
	}
	for _, rel := range d.Changed {
		have, err := read(rel)
		if err != nil {
			return "", err
		}
		b.WriteString(capLines(UnifiedDiff(rel+" (on disk)", rel+" (generated)", have, f.files[rel])))
	}
	for _, rel := range d.Stale {
		have, err := read(rel)
		if err != nil {
			return "", err
		}
		b.WriteString(capLines(UnifiedDiff(rel+" (on disk, stale)", "/dev/null", have, nil)))
	}
	return b.String(), nil
}

// capLines keeps the first maxDiffLines lines of diff and says how many it
// left out.
func capLines(diff string) string {
	lines := strings.SplitAfter(diff, "\n")
	if len(lines) <= maxDiffLines+1 { // +1: the empty string after the last "\n"
		return diff
	}
	rest := len(lines) - 1 - maxDiffLines
	return strings.Join(lines[:maxDiffLines], "") + fmt.Sprintf("... (%d more diff lines)\n", rest)
}
