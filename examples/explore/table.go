package explore

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen-plus/informer-gen-plus/runtime/fieldpath"
)

// writeTable writes what discovery lists as a table, one row per resource:
// its group ("core" for the core group), version (marked "*" when the group
// serves several and this one is preferred), name, kind, whether it is
// namespaced, and its verbs (sorted). Only the groups in only are written when only
// is not empty ("core" or "" names the core group). A summary line comes
// first, and a line per group version discovery could not list last.
func writeTable(w io.Writer, a *api, only []string) error {
	var groups, versions, resources int
	var rows strings.Builder
	tw := tabwriter.NewWriter(&rows, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GROUP\tVERSION\tRESOURCE\tKIND\tNAMESPACED\tVERBS")
	starred := false
	for _, g := range a.groups {
		if len(only) > 0 && !slices.Contains(only, groupName(g.name)) {
			continue
		}
		groups++
		for _, v := range g.versions {
			versions++
			name := v.name
			if len(g.versions) > 1 && v.name == g.preferred {
				name += "*"
				starred = true
			}
			for _, r := range v.resources {
				resources++
				verbs := slices.Sorted(slices.Values(r.Verbs))
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%t\t%s\n", groupName(g.name), name, r.Name, r.Kind, r.Namespaced, strings.Join(verbs, ","))
			}
		}
	}
	scope := ""
	if len(only) > 0 {
		scope = " (of " + strings.Join(only, ", ") + ")"
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "discovery: %s, %s, %s%s\n%s",
		count(groups, "group"), count(versions, "version"), count(resources, "resource"), scope, rows.String()); err != nil {
		return err
	}
	if starred {
		fmt.Fprintln(w, "* the group's preferred version")
	}
	for _, gv := range failedGroupVersions(a) {
		fmt.Fprintf(w, "discovery failed for %s: %v\n", gv, a.failed[gv])
	}
	return nil
}

// groupName returns how the table and --group name a group: "core" for
// the core group, whose name is empty.
func groupName(name string) string {
	if name == "" {
		return fieldpath.CoreGroup
	}
	return name
}

// failedGroupVersions returns the group versions discovery could not list,
// sorted.
func failedGroupVersions(a *api) []schema.GroupVersion {
	gvs := make([]schema.GroupVersion, 0, len(a.failed))
	for gv := range a.failed {
		gvs = append(gvs, gv)
	}
	sort.Slice(gvs, func(i, j int) bool { return gvs[i].String() < gvs[j].String() })
	return gvs
}

// count returns n and noun, plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
