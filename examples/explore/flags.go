package explore

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// usageHeader is what --help prints before the flags.
const usageHeader = `explore prints what the API server's discovery serves and, with --resource,
runs a dynamic informer of one resource with indexes declared at run time,
waits until it has synced, and answers lookups in the indexes.

Usage:
  explore [--kubeconfig FILE] [--group GROUP]... [--discovery=false]
          [--resource RESOURCE [--namespace NS] [--index 'NAME: SOURCE: VALUE']...
           [--lookup INDEX=VALUE]... [--timeout 30s]]

--resource takes kubectl's forms (schema.ParseResourceArg), looked up in discovery:
  deployments.v1.apps   resource.version.group
  configmaps.v1.        resource.version. (the core group)
  configmaps.v1         resource.version  (the core group, when no group is named v1)
  deployments.apps      resource.group    (the group's preferred version)
  deployments           resource          (the one group that serves it)

--index declares an index in the +index marker's terms (docs/markers.md):
NAME, a colon, then the marker's source argument, SOURCE: VALUE, with the
value bare or quoted as a Go string:
  'byImage: field: spec.template.spec.containers[*].image'
  'byPhaseNode: field: "status.phase, spec.nodeName"'   (a composite key)
  'byApp: label: app'
  'byTeam: annotation: example.dev/team'
  'byReplicaSet: owner: apps/ReplicaSet'                (core/ConfigMap for the core group)
A bare path ('byImage: spec.x') or 'field=spec.x' is not accepted: write 'byImage: field: spec.x'.

--lookup asks an index for the objects it files under a value: INDEX=VALUE,
or one value per path of a composite key, comma-separated in the key's order
(a value holding a comma or a quote is quoted as in CSV):
  byImage=nginx:1.29
  byPhaseNode=Running,node-1
  namespace=default   (the namespace index every informer has)

Flags:
`

// stringsFlag is a flag that may be repeated; each use adds a value.
type stringsFlag struct{ values *[]string }

func (f stringsFlag) String() string {
	if f.values == nil {
		return ""
	}
	return strings.Join(*f.values, " ")
}

func (f stringsFlag) Set(s string) error {
	*f.values = append(*f.values, s)
	return nil
}

// NewFlagSet returns the flags of explore, named name, which set opts when
// parsed; opts.Timeout is set to DefaultTimeout first. Its usage prints the
// forms --resource, --index and --lookup accept.
func NewFlagSet(name string, opts *Options) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	opts.Timeout = DefaultTimeout
	fs.StringVar(&opts.Kubeconfig, "kubeconfig", "", "path to a kubeconfig file (default: $KUBECONFIG, then ~/.kube/config, by client-go's loading rules)")
	fs.BoolFunc("discovery", "print the discovery table (default true; --discovery=false leaves it out)", func(s string) error {
		show, err := strconv.ParseBool(s)
		opts.SkipDiscovery = !show
		return err
	})
	fs.Var(stringsFlag{&opts.Groups}, "group", "print only this API group in the discovery table (repeatable or comma-separated; core for the core group)")
	fs.StringVar(&opts.Resource, "resource", "", "the resource whose informer to run, such as deployments.v1.apps or configmaps.v1 (forms above)")
	fs.StringVar(&opts.Namespace, "namespace", "", "run the informer in this namespace only (default: every namespace)")
	fs.Var(stringsFlag{&opts.Indexes}, "index", "declare an index, 'NAME: SOURCE: VALUE' (repeatable; forms above)")
	fs.Var(stringsFlag{&opts.Lookups}, "lookup", "after the sync, print the objects an index files under a value, INDEX=VALUE (repeatable; forms above)")
	fs.DurationVar(&opts.Timeout, "timeout", DefaultTimeout, "give up when discovery, the list and the sync take longer (0: never)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageHeader)
		fs.PrintDefaults()
	}
	return fs
}

// ParseFlags reads Options from command-line arguments (without the
// program's name), writing parse errors and --help to stderr, and checks
// them as Run does before it talks to a server: a bad --index, --lookup or
// flag combination is an error. It returns flag.ErrHelp for -h and --help.
func ParseFlags(args []string, stderr io.Writer) (Options, error) {
	var opts Options
	fs := NewFlagSet("explore", &opts)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return Options{}, err
	}
	if fs.NArg() > 0 {
		return Options{}, fmt.Errorf("unexpected arguments %q: every input is a flag (see --help)", fs.Args())
	}
	if _, err := opts.plan(); err != nil {
		return Options{}, err
	}
	return opts, nil
}
