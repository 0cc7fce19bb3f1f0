// Package indexing holds user index functions that +index(func: ...)
// markers in examples/apis refer to.
package indexing

import (
	shopv1 "github.com/informer-gen-plus/informer-gen-plus/examples/apis/shop/v1"
)

// ZoneOf returns the zones a Widget may run in: its placement's zone, then
// its alternate zones, in order and without duplicates or empty names. A
// Widget without a placement falls back to its topology.kubernetes.io/zone
// label; with neither it has no zone (nil), and so no entry in the byZone
// index.
//
// It is the index function of Widget's
// +index(name: byZone, func: ".../examples/indexing.ZoneOf") marker, so it
// must not mutate w and must not keep a reference to it.
func ZoneOf(w *shopv1.Widget) []string {
	if w == nil {
		return nil
	}
	p := w.Spec.Placement
	if p == nil {
		if z := w.Labels[shopv1.ZoneLabel]; z != "" {
			return []string{z}
		}
		return nil
	}
	var zones []string
	add := func(z string) {
		if z == "" {
			return
		}
		for _, seen := range zones {
			if seen == z {
				return
			}
		}
		zones = append(zones, z)
	}
	add(p.Zone)
	for _, z := range p.AlternateZones {
		add(z)
	}
	return zones
}
