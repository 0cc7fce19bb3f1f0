package explore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubediscovery "k8s.io/client-go/discovery"
)

// api is what discovery lists: the groups, each with its versions
// (preferred first), and the resources of each group version.
type api struct {
	groups []group
	// failed are the group versions discovery could not list, with why.
	failed map[schema.GroupVersion]error
}

// group is one API group and what it serves.
type group struct {
	name      string // "" for the core group
	preferred string // the preferred version
	versions  []version
}

// version is one group version and its resources, sorted by name,
// subresources left out.
type version struct {
	name      string
	resources []metav1.APIResource
}

// discover lists the groups and resources client serves. A group version
// that cannot be listed is recorded in failed and the others are kept, as
// kubectl does; only a failure to list anything is an error.
func discover(ctx context.Context, client kubediscovery.DiscoveryInterfaceWithContext) (*api, error) {
	groups, lists, err := kubediscovery.ServerGroupsAndResourcesWithContext(ctx, client)
	failed, partial := kubediscovery.GroupDiscoveryFailedErrorGroups(err)
	if err != nil && !partial {
		return nil, fmt.Errorf("discovery: %w", err)
	}
	byGV := make(map[string]*metav1.APIResourceList, len(lists))
	for _, l := range lists {
		byGV[l.GroupVersion] = l
	}
	a := &api{failed: failed}
	for _, g := range groups {
		out := group{name: g.Name, preferred: g.PreferredVersion.Version}
		for _, v := range preferredFirst(g) {
			ver := version{name: v.Version}
			if l := byGV[v.GroupVersion]; l != nil {
				for _, r := range l.APIResources {
					if !strings.Contains(r.Name, "/") {
						ver.resources = append(ver.resources, r)
					}
				}
			}
			slices.SortFunc(ver.resources, func(a, b metav1.APIResource) int { return cmp.Compare(a.Name, b.Name) })
			out.versions = append(out.versions, ver)
		}
		a.groups = append(a.groups, out)
	}
	// The core group first, then by name: the server's order is by
	// priority, which a fake does not keep.
	slices.SortFunc(a.groups, func(x, y group) int { return cmp.Compare(x.name, y.name) })
	return a, nil
}

// preferredFirst returns the versions of g with the preferred one first,
// the others in the server's order.
func preferredFirst(g *metav1.APIGroup) []metav1.GroupVersionForDiscovery {
	versions := slices.Clone(g.Versions)
	slices.SortStableFunc(versions, func(a, b metav1.GroupVersionForDiscovery) int {
		aPref, bPref := a.Version == g.PreferredVersion.Version, b.Version == g.PreferredVersion.Version
		switch {
		case aPref && !bPref:
			return -1
		case bPref && !aPref:
			return 1
		}
		return 0
	})
	return versions
}

// group returns the group named name, if discovery lists it.
func (a *api) group(name string) (group, bool) {
	i := slices.IndexFunc(a.groups, func(g group) bool { return g.name == name })
	if i < 0 {
		return group{}, false
	}
	return a.groups[i], true
}

// lookup returns the resource gvr names, if discovery lists it.
func (a *api) lookup(gvr schema.GroupVersionResource) (metav1.APIResource, bool) {
	g, ok := a.group(gvr.Group)
	if !ok {
		return metav1.APIResource{}, false
	}
	for _, v := range g.versions {
		if v.name != gvr.Version {
			continue
		}
		for _, r := range v.resources {
			if r.Name == gvr.Resource {
				return r, true
			}
		}
	}
	return metav1.APIResource{}, false
}

// find returns the resource named resource in the first version of g
// (preferred first) that serves it.
func (g group) find(resource string) (schema.GroupVersionResource, metav1.APIResource, bool) {
	for _, v := range g.versions {
		for _, r := range v.resources {
			if r.Name == resource {
				return schema.GroupVersionResource{Group: g.name, Version: v.name, Resource: resource}, r, true
			}
		}
	}
	return schema.GroupVersionResource{}, metav1.APIResource{}, false
}

// named returns every group version resource named resource (in any group
// and version).
func (a *api) named(resource string) []schema.GroupVersionResource {
	var out []schema.GroupVersionResource
	for _, g := range a.groups {
		for _, v := range g.versions {
			for _, r := range v.resources {
				if r.Name == resource {
					out = append(out, schema.GroupVersionResource{Group: g.name, Version: v.name, Resource: resource})
				}
			}
		}
	}
	return out
}
