#!/usr/bin/env bash
# Runs the steps of `make test` in order, one make target each, printing
# what each step does before it starts and how long it took once it has
# passed; stops at the first step that fails. Ends with one line per step
# and the total, so that a long run's log says where the time went.
#
# Usage: hack/test.sh STEP...   (make targets; make test passes its steps;
# a step a+b+c runs targets a, b and c side by side)
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

# run_group runs the make targets of one step side by side (a step written
# a+b+c), each in its own make, so that what one leaves idle (a test binary
# on one core, a go command waiting on another) the others use. Each target's
# output is printed whole once it has finished, with its time from the start
# of the step; the step fails if one of them fails, after all have finished.
run_group() {
	local dir pid i failed=0 start=${SECONDS}
	local -a targets=("$@") pids=()
	dir="$(mktemp -d)"
	for i in "${!targets[@]}"; do
		make --no-print-directory "${targets[i]}" >"${dir}/${i}.out" 2>&1 &
		pids[i]=$!
	done
	for _ in "${targets[@]}"; do
		local rc=0
		wait -n -p pid "${pids[@]}" || rc=$?
		for i in "${!pids[@]}"; do
			[ "${pids[i]}" = "${pid}" ] || continue
			cat "${dir}/${i}.out"
			if [ "${rc}" -eq 0 ]; then
				echo "<== make ${targets[i]}: passed after $((SECONDS - start)) s"
			else
				echo "<== make ${targets[i]}: FAILED after $((SECONDS - start)) s" >&2
				failed=1
			fi
			unset 'pids[i]'
		done
	done
	rm -rf "${dir}"
	return "${failed}"
}

total_start=${SECONDS}
summary=()
for step in "$@"; do
	IFS=+ read -r -a targets <<<"${step}"
	for t in "${targets[@]}"; do
		if [ "${#targets[@]}" -gt 1 ]; then
			echo "==> make ${t}: $(describe "${t}") (side by side with ${step//+/, })"
		else
			echo "==> make ${t}: $(describe "${t}")"
		fi
	done
	start=${SECONDS}
	if [ "${#targets[@]}" -gt 1 ]; then
		ok=true
		run_group "${targets[@]}" || ok=false
	else
		ok=true
		make --no-print-directory "${step}" || ok=false
	fi
	took=$((SECONDS - start))
	if [ "${ok}" != true ]; then
		echo "<== make ${step}: FAILED after ${took} s" >&2
		exit 1
	fi
	echo "<== make ${step}: passed in ${took} s"
	summary+=("$(printf '%-20s %5d s' "${step}" "${took}")")
done
echo "make test: every step passed in $((SECONDS - total_start)) s"
for line in "${summary[@]}"; do
	echo "  ${line}"
done
