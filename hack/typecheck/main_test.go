package main

import "testing"

// A package that reads FieldsV1.Raw type-checks in the default build and
// fails under fieldsv1string: what make test's fieldsv1string step relies on.
func TestRunReportsTypeErrorsUnderTags(t *testing.T) {
	if got := run("", []string{"./testdata/rawuse"}); got != 0 {
		t.Errorf("default build: run = %d, want 0", got)
	}
	if got := run("fieldsv1string", []string{"./testdata/rawuse"}); got != 1 {
		t.Errorf("fieldsv1string build: run = %d, want 1 (a type error)", got)
	}
	if got := run("", []string{"./testdata/missing"}); got == 0 {
		t.Error("a package that does not exist: run = 0, want an error")
	}
}
