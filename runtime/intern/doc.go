// Package intern makes cached objects smaller by deduplicating what they
// repeat: strings, and small immutable sub-objects.
//
// A decoded object owns a separate copy of every string and sub-object it
// holds. In an informer's cache of many objects the same namespaces, label
// keys and values, images, owner references, resource lists, probes and
// tolerations are therefore stored once per object. A transform that runs
// before an object enters the cache (an informer's SetTransform) can replace
// each of them with one canonical copy shared by every object that holds an
// equal value:
//
//   - String interns a string: equal strings come back as the same bytes.
//   - Pointers, Slices and Maps share pointed-to structs, slices and maps
//     whose canonical encodings (Key) are equal.
//   - Bool, Int32 and Int64 share the small pointed-to values of optional
//     fields.
//   - Clip gives back the spare capacity a decoder leaves in the slices a
//     transform walks rather than shares.
//   - StringFrom, Int32From, Int64From, ShareFrom and ClipFrom are the
//     update path: given the value an earlier, already interned version of
//     the object holds in the same place, they give it back when it is
//     equal (the Equal functions decide, field by field), and only
//     otherwise intern or share.
//   - Sizes and Collector report how many values the pools hold.
//
// # Contracts
//
// Equal values only. A value returned in place of another is
// reflect.DeepEqual to it: the encodings Pools compare must be injective, so
// an encoder writes every field of its type (Key documents how). Pointer
// identity is what changes: after sharing, two objects may point to the same
// struct, slice array or map.
//
// Read-only afterwards. Objects passed through a transform that shares their
// parts must not be mutated afterwards, since a write would change every
// object sharing the value. Informer caches already require this of every
// cached object; copy an object (DeepCopy) before changing it.
//
// Weak references. The tables that find canonical values hold them weakly
// (package weak): a canonical value lives as long as some object refers to
// it, and is then collected like any other garbage. Unlike interning through
// unique.Make(s).Value(), whose canonical copy is forgotten at the first
// collection after the last Handle is dropped even while strings obtained
// from it are still in use, a canonical string here stays canonical for as
// long as any object holds it, so objects decoded an hour apart still share
// it. Dead entries are removed from the tables as they grow.
//
// Concurrency. Every function and every Pool method is safe for concurrent
// use: informers running in parallel can share one set of Pools.
//
// What to share. Sharing pays for values that repeat across objects (the
// replicas of a Deployment, the pods of a namespace or node). A value unique
// to its object gains nothing and costs a table entry for as long as the
// object lives; names, UIDs, resource versions, IP addresses, container IDs
// and timestamps are best left alone. The unit of sharing should be the
// largest part that repeats: a container as a whole differs between replicas
// (each pod mounts its own service-account token volume), while its probes,
// ports, environment and resource lists do not.
package intern
