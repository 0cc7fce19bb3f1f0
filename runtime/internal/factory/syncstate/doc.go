// Package syncstate is the discovery-aware start and wait that the informer
// factories share: runtime/informers.Factory, whose informers are keyed by
// object type, and runtime/internal/factory/gvrfactory.Factory, keyed by resource.
// Each factory keeps its informers, which of them it started and, with
// discovery, its runtime/discovery.Tracker; this package turns those facts
// into one definition of
//
//   - which informers Start leaves to discovery and how it hands them over
//     (StartGated);
//   - the state of one informer (Of): NotStarted, Syncing and Synced, and
//     with discovery the tracker's Waiting, Skipped, Missing, Failed and
//     Removed;
//   - the wait for the informers that can sync (Wait), which wakes whenever
//     discovery changes a resource's state, so that an informer started
//     during the wait is waited for and one whose resource goes away is not;
//   - WaitForCacheSync's answer from the states (Synced).
package syncstate
