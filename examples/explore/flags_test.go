package explore_test

import (
	"errors"
	"flag"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/informer-gen-plus/informer-gen-plus/examples/explore"
)

func TestParseFlags(t *testing.T) {
	var stderr strings.Builder
	got, err := explore.ParseFlags([]string{
		"--kubeconfig", "kc", "--discovery=false", "--group", "apps", "--group", "core,batch",
		"--resource", "deployments.v1.apps", "--namespace", "lab", "--timeout", "5s",
		"--index", "byImage: field: spec.template.spec.containers[*].image", "--index", "byTeam: label: team",
		"--lookup", "byImage=nginx:1.29", "--lookup", "byTeam=blue",
	}, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	want := explore.Options{
		Kubeconfig:    "kc",
		SkipDiscovery: true,
		Groups:        []string{"apps", "core,batch"},
		Resource:      "deployments.v1.apps",
		Namespace:     "lab",
		Indexes:       []string{"byImage: field: spec.template.spec.containers[*].image", "byTeam: label: team"},
		Lookups:       []string{"byImage=nginx:1.29", "byTeam=blue"},
		Timeout:       5 * time.Second,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestParseFlagsDefaults(t *testing.T) {
	var stderr strings.Builder
	got, err := explore.ParseFlags(nil, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if want := (explore.Options{Timeout: explore.DefaultTimeout}); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// --help describes the accepted forms of --resource, --index and --lookup.
func TestParseFlagsHelp(t *testing.T) {
	var stderr strings.Builder
	_, err := explore.ParseFlags([]string{"--help"}, &stderr)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("got %v, want flag.ErrHelp", err)
	}
	for _, w := range []string{"deployments.v1.apps", "configmaps.v1.", "'byImage: field: spec.template.spec.containers[*].image'", "byPhaseNode=Running,node-1", "-timeout"} {
		if !strings.Contains(stderr.String(), w) {
			t.Errorf("--help does not say %q:\n%s", w, stderr.String())
		}
	}
}

func TestParseFlagsErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--resource", "deployments.v1.apps", "--index", "byImage: spec.x"}, `did you mean "byImage: field: spec.x"?`},
		{[]string{"--resource", "deployments.v1.apps", "--lookup", "byImage=x"}, "no index byImage"},
		{[]string{"deployments"}, `unexpected arguments ["deployments"]`},
		{[]string{"--discovery=maybe"}, "invalid"},
		{[]string{"--no-such-flag"}, "not defined"},
	} {
		var stderr strings.Builder
		_, err := explore.ParseFlags(c.args, &stderr)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error saying %q", c.args, err, c.want)
		}
	}
}

// ParseIndex reads every source of the marker grammar, the value bare or
// quoted.
func TestParseIndex(t *testing.T) {
	for in, want := range map[string]string{
		"byImage: field: spec.template.spec.containers[*].image": `byImage: field: "spec.template.spec.containers[*].image"`,
		` byPhaseNode : field: "status.phase, spec.nodeName"`:    `byPhaseNode: field: "status.phase,spec.nodeName"`,
		"byApp: label: app.kubernetes.io/name":                   `byApp: label: "app.kubernetes.io/name"`,
		"byTeam: annotation: example.dev/team":                   `byTeam: annotation: "example.dev/team"`,
		"byRS: owner: apps/ReplicaSet":                           `byRS: owner: "apps/ReplicaSet"`,
		"byCM: owner: core/ConfigMap":                            `byCM: owner: "core/ConfigMap"`,
	} {
		ix, err := explore.ParseIndex(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if got := ix.String(); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

// A single-path lookup takes its value as written; a composite one splits
// it at commas, as a CSV record.
func TestLookupValues(t *testing.T) {
	l, err := explore.ParseLookup("byX=a,b=c")
	if err != nil {
		t.Fatal(err)
	}
	if l.Index != "byX" || l.Value != "a,b=c" {
		t.Errorf("got %+v", l)
	}
	for arity, want := range map[int][]string{1: {"a,b=c"}, 2: {"a", "b=c"}} {
		got, err := l.Values(arity)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("arity %d: got %q, %v; want %q", arity, got, err, want)
		}
	}
	empty := explore.Lookup{Index: "byX", Value: ""}
	if got, err := empty.Values(1); err != nil || !reflect.DeepEqual(got, []string{""}) {
		t.Errorf("an empty value: got %q, %v", got, err)
	}
	if _, err := empty.Values(2); err == nil {
		t.Error("an empty value of a composite key: no error")
	}
}
