package testcluster

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFeatureGatesFlag checks that the feature gates render as one
// --feature-gates flag with the names sorted, and as no flag when there are
// none.
func TestFeatureGatesFlag(t *testing.T) {
	for _, tc := range []struct {
		gates map[string]bool
		want  string
	}{
		{nil, ""},
		{map[string]bool{}, ""},
		{map[string]bool{"ShardedListAndWatch": true}, "--feature-gates=ShardedListAndWatch=true"},
		{map[string]bool{"B": false, "C": true, "A": true}, "--feature-gates=A=true,B=false,C=true"},
	} {
		if got := featureGatesFlag(tc.gates); got != tc.want {
			t.Errorf("featureGatesFlag(%v) = %q, want %q", tc.gates, got, tc.want)
		}
	}
}

// TestFeatureGatesComeBeforeAPIServerFlags checks kube-apiserver's command
// line: the feature gates' flag comes once, after the flags Start sets and
// right before Options.APIServerFlags (which therefore override it), and
// there is no --feature-gates flag without gates.
func TestFeatureGatesComeBeforeAPIServerFlags(t *testing.T) {
	c := &Cluster{dir: t.TempDir(), etcdURL: "http://127.0.0.1:2379"}
	creds := &credentials{}
	extra := []string{"--feature-gates=B=true", "--v=2"}

	without := c.apiserverFlags("6443", creds, Options{APIServerFlags: extra})
	if got := without[len(without)-len(extra):]; !slices.Equal(got, extra) {
		t.Fatalf("command line ends with %q, want APIServerFlags %q", got, extra)
	}
	for _, arg := range without[:len(without)-len(extra)] {
		if strings.HasPrefix(arg, "--feature-gates") {
			t.Errorf("flag %q without FeatureGates", arg)
		}
	}

	with := c.apiserverFlags("6443", creds, Options{
		FeatureGates:   map[string]bool{"B": false, "A": true},
		APIServerFlags: extra,
	})
	want := slices.Concat(without[:len(without)-len(extra)], []string{"--feature-gates=A=true,B=false"}, extra)
	if !slices.Equal(with, want) {
		t.Errorf("command line with FeatureGates:\n got %q\nwant %q", with, want)
	}
}

// TestStartRejectsMalformedFeatureGateNames checks that Start fails, naming
// the gate and starting nothing, for a gate name the flag could not carry
// unambiguously.
func TestStartRejectsMalformedFeatureGateNames(t *testing.T) {
	// Executables Start never runs: it must fail before starting anything.
	binDir := t.TempDir()
	for _, name := range []string{"etcd", "kube-apiserver"} {
		if err := os.WriteFile(filepath.Join(binDir, name), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"", "A=true,B", "A B", "A,B"} {
		dir := filepath.Join(t.TempDir(), "state")
		c, err := Start(t.Context(), Options{BinDir: binDir, Dir: dir, FeatureGates: map[string]bool{name: true}})
		if err == nil {
			_ = c.Stop()
			t.Fatalf("Start with feature gate %q succeeded", name)
		}
		if !strings.Contains(err.Error(), "feature gate") || !strings.Contains(err.Error(), "\""+name+"\"") {
			t.Errorf("Start with feature gate %q: %v, want an error naming the gate", name, err)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("Start with feature gate %q created the cluster's directory (stat: %v)", name, err)
		}
	}
}
