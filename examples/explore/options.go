package explore

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	kubediscovery "k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	clientcache "k8s.io/client-go/tools/cache"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// DefaultTimeout is Options.Timeout's default in ParseFlags.
const DefaultTimeout = 30 * time.Second

// Options are what Run does; ParseFlags reads them from command-line flags.
type Options struct {
	// Kubeconfig is the path of a kubeconfig file; "" means client-go's
	// default loading rules ($KUBECONFIG, then ~/.kube/config, then the
	// in-cluster configuration). Unused when Clients is set.
	Kubeconfig string
	// Clients, when set, are the clients Run uses instead of building them
	// from Kubeconfig (tests pass client-go's fakes).
	Clients *Clients

	// SkipDiscovery leaves the discovery table out.
	SkipDiscovery bool
	// Groups limits the discovery table to these API groups ("core" for
	// the core group); empty: every group.
	Groups []string

	// Resource names the resource whose informer Run starts, in one of
	// kubectl's forms (see ParseFlags); "" starts none.
	Resource string
	// Namespace limits the informer to one namespace; "": every namespace.
	Namespace string
	// Indexes are the indexes declared on the informer, each in
	// ParseIndex's form.
	Indexes []string
	// Lookups are the lookups answered once the informer has synced, each
	// in ParseLookup's form.
	Lookups []string
	// Timeout bounds the whole run (discovery, list and sync); zero: no
	// bound.
	Timeout time.Duration
}

// Clients are the clients Run talks to the server through.
type Clients struct {
	// Discovery lists the groups and resources; Run wraps it in client-go's
	// memory cache.
	Discovery kubediscovery.DiscoveryInterfaceWithContext
	// Dynamic lists and watches the resource's objects.
	Dynamic dynamic.Interface
}

// plan is Options checked and parsed, before anything talks to a server.
type plan struct {
	groups  []string
	indexes []Index
	lookups []Lookup
}

// plan checks the options and parses the indexes and lookups: an index
// declared twice, a lookup in an index that is not declared, indexes or
// lookups without a resource, and a negative timeout are errors.
func (o Options) plan() (plan, error) {
	var p plan
	for _, g := range o.Groups {
		for part := range strings.SplitSeq(g, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				part = fieldpath.CoreGroup
			}
			p.groups = append(p.groups, part)
		}
	}
	if o.Resource == "" && (len(o.Indexes) > 0 || len(o.Lookups) > 0 || o.Namespace != "") {
		return plan{}, errors.New("--index, --lookup and --namespace need --resource")
	}
	if o.Timeout < 0 {
		return plan{}, fmt.Errorf("--timeout %s is negative", o.Timeout)
	}
	declared := []string{clientcache.NamespaceIndex}
	for _, s := range o.Indexes {
		ix, err := ParseIndex(s)
		if err != nil {
			return plan{}, err
		}
		if slices.Contains(declared, ix.Name) {
			return plan{}, fmt.Errorf("--index %q: index %s is declared already", s, ix.Name)
		}
		declared = append(declared, ix.Name)
		p.indexes = append(p.indexes, ix)
	}
	for _, s := range o.Lookups {
		l, err := ParseLookup(s)
		if err != nil {
			return plan{}, err
		}
		if !slices.Contains(declared, l.Index) {
			return plan{}, fmt.Errorf("--lookup %q: no index %s; declare it with --index '%s: SOURCE: VALUE' (the indexes: %s)",
				s, l.Index, l.Index, strings.Join(declared, ", "))
		}
		if _, err := l.Values(p.arity(l.Index)); err != nil {
			return plan{}, err
		}
		p.lookups = append(p.lookups, l)
	}
	return p, nil
}

// arity returns the number of values a lookup in index name takes: one per
// path of a declared field key, one for every other index.
func (p plan) arity(name string) int {
	for _, ix := range p.indexes {
		if ix.Name == name {
			return ix.Spec.Arity()
		}
	}
	return 1
}
