# informer-gen-plus build and test entry points. `make test` is what CI runs.

GO ?= go
# Seeds of the randomized differential tests, read from the environment by
# the tests themselves.
export DIFF_SEEDS ?= 500
export INFORMER_DIFF_SEEDS ?= 200
# Benchmark selection and repetitions for `make bench`.
BENCH ?= .
BENCH_COUNT ?= 1
BENCH_TIME ?= 1s
# The commit `make bench-before-after` compares the work tree with: required,
# such as BEFORE=main or BEFORE=$$(git merge-base HEAD main).
BEFORE ?=

# Build flags of the race builds of make test (unit-race, e2e, the
# controllerruntime module's tests), which compile a world of packages of
# their own, the standard library included: no DWARF debug information in
# the compiled packages and the linked test binaries. No test reads it, and
# it costs about a seventh of the compile time. The other builds keep the
# default flags, so that they share their compiled packages: go tool (which
# takes no build flags) builds the generators that way, and the
# fieldsv1string build reuses every package that does not import metav1.
# NODWARF= keeps debug information.
NODWARF ?= -gcflags=all=-dwarf=false -ldflags=-w

# Every go test of make test runs with -vet=off: make vet vets the module
# once in the default build, and go test's own vet would vet every package
# and dependency again in each configuration it builds (with -race, for
# instance), for findings that cannot differ.
TESTFLAGS = -count=1 -vet=off
# Packages whose tests run with the race detector: the runtime (but the
# field path parser, which starts no goroutine) and the examples and
# benchmarks that run informers. The end-to-end packages need the local
# control plane (make e2e); the compile-compatibility test (make compat) and
# the Go tool test (make gotool-test) build scratch modules of their own.
# go test runs the packages' tests two at a time (on two processors), in
# the order given: the end-to-end packages are listed longest first, so
# that the sharding tests do not start last, and so are the generator's
# tests among the others (which take a minute, the longest).
MODULE = github.com/informer-gen-plus/informer-gen-plus
E2E_PKGS = ./test/e2e/shard/ ./test/e2e/ ./internal/testing/testcluster/
RACE_PKGS = $(shell $(GO) list ./runtime/... ./examples/explore/ ./examples/generated/ ./examples/generated/kube/ ./examples/widgetcontroller/ ./test/scalebench/ | grep -v -e '/runtime/fieldpath$$')
# Packages whose tests run without it: the generator, the field path
# parser, the API packages' marker tests, the indexing examples, the test
# helpers, the commands (compiled only).
PLAIN_PKGS = $(MODULE)/generators $(filter-out $(MODULE)/generators $(RACE_PKGS),$(shell $(GO) list ./... | grep -v -e '/internal/testing/testcluster' -e '/test/e2e' -e '/test/compat' -e '/test/gotool'))
# race_pkgs_with lists the packages among RACE_PKGS whose test files hold a
# line matching the extended regular expression $(1).
race_pkgs_with = $(foreach p,$(RACE_PKGS),$(if $(shell grep -lsE '$(1)' $(patsubst $(MODULE)/%,%,$(p))/*_test.go),$(p)))
# The packages among RACE_PKGS with allocation tests (TestXxxAllocatesNothing),
# which the race detector makes meaningless: they run again without it.
ALLOC_PKGS = $(call race_pkgs_with,^func Test[A-Za-z0-9_]*AllocatesNothing)
# The packages among RACE_PKGS with single-goroutine stress tests that skip
# themselves under the race detector (cachetest.SkipUnderRace): their tests
# run again without it, all of them.
NORACE_PKGS = $(call race_pkgs_with,cachetest\.SkipUnderRace)
# Iterations of each fuzz target in `make test`, and the executions the
# fuzzer may spend minimizing each new input (its default, 60 s per input,
# would make a short run's length depend on how much new coverage it finds).
FUZZ_ITERATIONS ?= 20000
FUZZ_MINIMIZE ?= 100x
# The fuzz targets `make fuzz` runs, each as package:target.
FUZZ_TARGETS = \
	./runtime/fieldpath/:FuzzParse \
	./runtime/fieldpath/:FuzzJoinSplit \
	./runtime/fieldpath/:FuzzAppendValues \
	./runtime/fieldpath/:FuzzParseIndexSpec \
	./generators/markers/:FuzzParse \
	./runtime/wire/:FuzzReadJSONValue \
	./runtime/wire/:FuzzJSONWatchDecode \
	./runtime/wire/:FuzzJSONListDecode \
	./runtime/wire/:FuzzDifferentialProtobufList \
	./runtime/wire/:FuzzDifferentialJSONList \
	./runtime/wire/:FuzzDifferentialProtobufWatch \
	./runtime/wire/:FuzzDifferentialJSONWatch \
	./runtime/wire/:FuzzDifferentialContentType

.PHONY: all build vet generate verify test unit unit-plain unit-race fieldsv1string compat swap-test gotool-test e2e controller-runtime demo fuzz bench bench-scale bench-before-after smoke-kube bench-gen testbin clean

all: build

## build: compile every package of the module.
build:
	$(GO) build ./...

## vet: run go vet over the module and check that every Go file is gofmt'ed.
vet:
	$(GO) vet ./...
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "not gofmt'ed:"; echo "$$unformatted"; exit 1; fi

## generate: regenerate the checked-in generated code of examples/
## (deepcopy and clientset with the generators pinned by go.mod's tool lines,
## listers and indexes with this tree's informer-gen-plus).
generate:
	bash hack/update-codegen.sh

## verify: fail, naming the files, when the checked-in generated code, or
## the marker reference docs/markers.md (informer-gen-plus --docs), is not
## what `make generate` would write (the work tree is left untouched).
verify:
	bash hack/verify-codegen.sh

## unit: run the tests: unit-plain, unit-race, then fieldsv1string.
unit: unit-plain unit-race fieldsv1string

## unit-plain: the tests of PLAIN_PKGS and NORACE_PKGS, then the allocation
## tests of RACE_PKGS, without the race detector.
unit-plain:
	$(GO) test $(TESTFLAGS) $(PLAIN_PKGS) $(NORACE_PKGS)
	$(GO) test $(TESTFLAGS) -run 'AllocatesNothing' $(ALLOC_PKGS)

## unit-race: the tests of RACE_PKGS (the runtime, the examples that run
## informers) with the race detector.
unit-race:
	$(GO) test -race $(NODWARF) $(TESTFLAGS) $(RACE_PKGS)

## fieldsv1string: under apimachinery's fieldsv1string build
## (metav1.FieldsV1 without its Raw field), every package of the module and
## its tests type-check (hack/typecheck, from source), and the generated
## interning transforms keep objects equal (the tests of
## examples/generated/kube).
fieldsv1string:
	$(GO) run ./hack/typecheck -tags fieldsv1string ./...
	$(GO) test $(TESTFLAGS) -tags fieldsv1string ./examples/generated/kube/

## fuzz: run each fuzz target briefly (a fixed number of inputs), the
## differential fuzz of runtime/wire against client-go included.
fuzz:
	@set -ex; for t in $(FUZZ_TARGETS); do \
		$(GO) test -run '^$$' -fuzz "^$${t#*:}\$$" -fuzztime $(FUZZ_ITERATIONS)x -fuzzminimizetime $(FUZZ_MINIMIZE) "$${t%%:*}"; \
	done

## compat: generate informer-gen + lister-gen output and informer-gen-plus
## output for one API package, compile the same consumer code (test/compat)
## against both, naming every use that does not compile, then run it on a
## fake clientset against both and compare what it observes.
compat:
	$(GO) test $(TESTFLAGS) -timeout 30m ./test/compat/

## swap-test: switch k8s.io/sample-controller from informer-gen + lister-gen
## to informer-gen-plus by changing the one `source` line of its
## hack/update-codegen.sh to hack/kube_codegen.sh, regenerate, run its vet and
## tests unchanged, then use a generated +index lookup (hack/test-swap.sh).
swap-test:
	bash hack/test-swap.sh

## gotool-test: in a new scratch module, add this working tree as a Go tool
## (go mod edit -tool, go mod tidy), generate from a //go:generate line with
## `go tool informer-gen-plus`, then build and test code that uses a
## generated lookup (test/gotool). About 40 s with a warm build cache; with a
## cold one, building client-go takes minutes, hence the timeout.
gotool-test:
	$(GO) test $(TESTFLAGS) -timeout 30m ./test/gotool/

## e2e: build the local control plane when missing (make testbin), then run
## the end-to-end tests against a real etcd and kube-apiserver on 127.0.0.1.
e2e: testbin
	$(GO) test -race $(NODWARF) $(TESTFLAGS) -timeout 30m $(E2E_PKGS)

## controller-runtime: vet and test the controllerruntime module (a Go module
## of its own, on controller-runtime): the fieldindex helpers the generated
## controller-runtime code calls, and the example operator on
## controller-runtime's envtest, run with the local control plane's binaries
## (make testbin) as KUBEBUILDER_ASSETS. Its vet runs in the default build,
## where make vet has computed the analysis facts of the dependencies the two
## modules share: with -race, it would compute them all again.
controller-runtime: testbin
	cd controllerruntime && $(GO) vet ./...
	cd controllerruntime && KUBEBUILDER_ASSETS=$(CURDIR)/bin/testbin $(GO) test -race $(NODWARF) $(TESTFLAGS) -timeout 20m ./...

## test: vet, verify the generated code, the tests (the fuzz targets' seeds
## included: go test runs them as tests) without and with the race detector
## and under fieldsv1string, the compatibility, swap and Go tool tests, then
## the end-to-end tests, the controller-runtime module's included (the
## README's test command). Each step prints what it does and how long it
## took (hack/test.sh). Fuzzing itself is make fuzz.
TEST_STEPS = vet verify unit-plain fieldsv1string unit-race compat swap-test gotool-test e2e controller-runtime
test:
	@bash hack/test.sh $(TEST_STEPS)

## bench: run our benchmarks and client-go's side by side on the same data.
bench:
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchmem -count $(BENCH_COUNT) -benchtime $(BENCH_TIME) ./runtime/cache/... ./runtime/wire/

## bench-scale: informer sync and updates from served protobuf bodies at
## 10k and 100k pods (500k with SCALE_BENCH_500K=1), ours and client-go's,
## in PROCS processes; prints medians and ratios.
bench-scale:
	bash hack/bench-scale.sh

## bench-before-after: the informer, lookup and update benchmarks at BEFORE
## (a commit, required: make bench-before-after BEFORE=main) and at the work
## tree, each in its own process, in rounds.
bench-before-after:
	@test -n "$(BEFORE)" || { echo 'make bench-before-after needs BEFORE=<commit>, such as BEFORE=main' >&2; exit 2; }
	bash hack/bench-before-after.sh $(BEFORE)

## smoke-kube: generate for every group/version of k8s.io/api and compile it.
smoke-kube:
	bash hack/smoke-kube.sh

## bench-gen: time informer-gen-plus against lister-gen + informer-gen on all
## of k8s.io/api and count the lines each writes.
bench-gen:
	bash hack/bench-gen.sh

## demo: build the tool, the example controller and explore, regenerate the
## examples, then start a local control plane, run the controller on a few
## objects, print what it did and what the index lookups answer, run explore
## (discovery and a dynamic informer's run-time indexes), and stop everything.
demo: testbin
	$(GO) build -o bin/informer-gen-plus ./cmd/informer-gen-plus
	bash hack/update-codegen.sh
	$(GO) build -o bin/widget-controller ./examples/cmd/widget-controller
	$(GO) build -o bin/explore ./examples/cmd/explore
	$(GO) run ./examples/cmd/demo --controller bin/widget-controller --explore bin/explore

## testbin: build etcd and kube-apiserver for the local test control plane
## into bin/testbin (returns at once when they are there at the right versions).
testbin:
	bash hack/testbin.sh

clean:
	$(GO) clean -testcache
	rm -rf bin _output
