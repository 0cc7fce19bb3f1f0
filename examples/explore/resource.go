package explore

import (
	"fmt"
	"regexp"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// resourceForms lists the forms of --resource, for help and errors.
const resourceForms = `resource.version.group (deployments.v1.apps), resource.version. or resource.version for the core group (configmaps.v1. or configmaps.v1), resource.group (deployments.apps: the group's preferred version) or resource alone (deployments: the one group serving it)`

// versionPattern matches API version names: v1, v1beta1, v2alpha3.
var versionPattern = regexp.MustCompile(`^v[0-9]+((alpha|beta)[0-9]+)?$`)

// resolved is the resource --resource names, as discovery lists it.
type resolved struct {
	gvr schema.GroupVersionResource
	res metav1.APIResource
}

// name returns the resource as kubectl names it: resource.version.group,
// or resource.version for the core group.
func (r resolved) name() string { return gvrName(r.gvr) }

// gvrName names gvr as kubectl does.
func gvrName(gvr schema.GroupVersionResource) string {
	if gvr.Group == "" {
		return gvr.Resource + "." + gvr.Version
	}
	return gvr.Resource + "." + gvr.Version + "." + gvr.Group
}

// resolve finds the resource arg names in what discovery lists. arg is read
// as kubectl reads a resource argument (schema.ParseResourceArg): with two
// dots or more, resource.version.group; else resource.group. The candidates,
// in order:
//
//  1. resource.version.group, as written ("configmaps.v1." is the core
//     group);
//  2. resource.group, where group is everything after the first dot, in the
//     group's preferred version first (kubectl's second reading of
//     deployments.v1.apps is the group "v1.apps");
//  3. resource.version in the core group, when what follows the only dot
//     is a version name (configmaps.v1);
//  4. for a bare resource, the one group that serves it (in its preferred
//     version); more than one is an error naming them.
//
// A resource that is none of those is an error that says which forms are
// accepted and names the resources of that name discovery does list.
func (a *api) resolve(arg string) (resolved, error) {
	arg = strings.TrimSpace(arg)
	if arg == "" || strings.HasPrefix(arg, ".") {
		return resolved{}, fmt.Errorf("--resource %q: want %s", arg, resourceForms)
	}
	full, gr := schema.ParseResourceArg(arg)
	if full != nil {
		if res, ok := a.lookup(*full); ok {
			return resolved{*full, res}, nil
		}
	}
	if g, ok := a.group(gr.Group); ok && gr.Group != "" {
		if gvr, res, ok := g.find(gr.Resource); ok {
			return resolved{gvr, res}, nil
		}
	}
	if full == nil && versionPattern.MatchString(gr.Group) {
		core := schema.GroupVersionResource{Version: gr.Group, Resource: gr.Resource}
		if res, ok := a.lookup(core); ok {
			return resolved{core, res}, nil
		}
	}
	if gr.Group == "" {
		var found []resolved
		for _, g := range a.groups {
			if gvr, res, ok := g.find(gr.Resource); ok {
				found = append(found, resolved{gvr, res})
			}
		}
		switch len(found) {
		case 1:
			return found[0], nil
		case 0:
		default:
			names := make([]string, len(found))
			for i, f := range found {
				names[i] = f.name()
			}
			return resolved{}, fmt.Errorf("--resource %q: several groups serve it: %s; name one", arg, strings.Join(names, ", "))
		}
	}
	return resolved{}, a.notFound(arg, gr.Resource)
}

// notFound returns the error of a resource argument that names nothing
// discovery lists.
func (a *api) notFound(arg, resource string) error {
	msg := fmt.Sprintf("--resource %q: discovery does not list it", arg)
	if len(a.failed) > 0 {
		msg += " (discovery failed for " + count(len(a.failed), "group version") + ")"
	}
	if named := a.named(resource); len(named) > 0 {
		names := make([]string, len(named))
		for i, gvr := range named {
			names[i] = gvrName(gvr)
		}
		msg += "; served under that name: " + strings.Join(names, ", ")
	}
	return fmt.Errorf("%s; the forms are %s", msg, resourceForms)
}
