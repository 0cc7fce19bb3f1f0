package intern

import "testing"

func TestClip(t *testing.T) {
	s := make([]int, 5, 8)
	s[4] = 4
	c := Clip(s)
	if len(c) != 5 || cap(c) != 5 || c[4] != 4 {
		t.Errorf("Clip gave len %d cap %d %v", len(c), cap(c), c)
	}
	exact := []int{1, 2}
	if c := Clip(exact); &c[0] != &exact[0] {
		t.Error("Clip copied a slice without spare capacity")
	}
	if Clip([]int(nil)) != nil {
		t.Error("Clip(nil) is not nil")
	}
	if c := Clip(make([]int, 0, 4)); c == nil || len(c) != 0 {
		t.Error("Clip of an empty slice is not empty and non-nil")
	}
}
