// Package gvrtest holds the tests that runtime/dynamicinformer and
// runtime/metadatainformer share, as checks over their factories
// (gvrfactory.Factory instantiations) that each package runs with its own
// fake client and objects: the factory's lifecycle and options, the
// listers against client-go's, run-time indexes against brute force after
// random writes, and the discovery-aware start in every mode. It also holds
// the small helpers those tests use (Start, Eventually, WaitFor).
package gvrtest
