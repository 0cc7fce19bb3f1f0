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

.PHONY: all build vet test unit bench clean

all: build

## build: compile every package of the module.
build:
	$(GO) build ./...

## vet: run go vet over the module.
vet:
	$(GO) vet ./...

## unit: run every test with the race detector, then the allocation tests
## (which the race detector makes meaningless) without it.
unit:
	$(GO) test -race -count=1 ./...
	$(GO) test -count=1 -run 'AllocatesNothing' ./...

## test: vet, then the race-enabled tests (the README's test command).
test: vet unit

## bench: run our benchmarks and client-go's side by side on the same data.
bench:
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchmem -count $(BENCH_COUNT) -benchtime $(BENCH_TIME) ./runtime/cache/...

clean:
	$(GO) clean -testcache
	rm -rf bin _output
