#!/usr/bin/env bash
# Runs the steps of `make test` in order, one make target each, printing
# what each step does before it starts and how long it took once it has
# passed; stops at the first step that fails. Ends with one line per step
# and the total, so that a long run's log says where the time went.
#
# Usage: hack/test.sh STEP...   (make targets; make test passes its steps)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# describe prints what a step checks.
describe() {
	case "$1" in
	vet) echo "go vet and gofmt over the module" ;;
	verify) echo "the checked-in generated code and docs/markers.md are what make generate writes" ;;
	unit-plain) echo "the generator's, parsers' and examples' tests, then the runtime's allocation tests, without -race" ;;
	fieldsv1string) echo "under apimachinery's fieldsv1string build: every package type-checks, interning keeps objects equal" ;;
	unit-race) echo "the runtime's tests and the examples that run informers, with -race (differential and fuzz-seed tests included)" ;;
	compat) echo "the same consumer code against informer-gen + lister-gen output and ours" ;;
	swap-test) echo "k8s.io/sample-controller switched to informer-gen-plus by one line, its tests unchanged" ;;
	gotool-test) echo "the generator as a Go tool of a new module, through go generate" ;;
	e2e) echo "end-to-end tests against a local etcd and kube-apiserver (built first when missing)" ;;
	controller-runtime) echo "the controllerruntime module: vet, tests, the example operator on envtest" ;;
	*) echo "make $1" ;;
	esac
}

total_start=${SECONDS}
summary=()
for step in "$@"; do
	echo "==> make ${step}: $(describe "${step}")"
	start=${SECONDS}
	if ! make --no-print-directory "${step}"; then
		echo "<== make ${step}: FAILED after $((SECONDS - start)) s" >&2
		exit 1
	fi
	took=$((SECONDS - start))
	echo "<== make ${step}: passed in ${took} s"
	summary+=("$(printf '%-20s %5d s' "${step}" "${took}")")
done
echo "make test: every step passed in $((SECONDS - total_start)) s"
for line in "${summary[@]}"; do
	echo "  ${line}"
done
