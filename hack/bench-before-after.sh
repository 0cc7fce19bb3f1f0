#!/usr/bin/env bash
# Runs the informer and lookup benchmarks of runtime/cache at two commits on
# this machine, each benchmark in its own process, alternating between the
# two in rounds so that both see the same load:
#
#   BenchmarkInformerSync and BenchmarkInformerUpdates: ours at BEFORE, then
#   ours, ours-untyped and clientgo at AFTER;
#   BenchmarkByIndex/node and BenchmarkStore/Update: both commits.
#
# Every result line is prefixed with "before" or "after".
#
# Usage: hack/bench-before-after.sh BEFORE [AFTER [ROUNDS]]
#   BEFORE is the commit to compare with (required: such as main, or the
#   merge base of a branch), AFTER defaults to the work tree, ROUNDS to 5.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
BEFORE="${1:?usage: hack/bench-before-after.sh BEFORE [AFTER [ROUNDS]] (BEFORE: a commit, such as main)}"
AFTER="${2:-}"
ROUNDS="${3:-5}"
WORK="$(mktemp -d)"
trap 'git -C "${ROOT}" worktree remove --force "${WORK}/before" >/dev/null 2>&1 || true; git -C "${ROOT}" worktree remove --force "${WORK}/after" >/dev/null 2>&1 || true; rm -rf "${WORK}"' EXIT

# build NAME REV: a test binary of runtime/cache at REV ("" is the work tree).
build() {
	local name="$1" rev="$2" dir="${ROOT}"
	if [ -n "${rev}" ]; then
		dir="${WORK}/${name}"
		git -C "${ROOT}" worktree add --detach "${dir}" "${rev}" >/dev/null
	fi
	(cd "${dir}" && go test -c -o "${WORK}/${name}.test" ./runtime/cache)
}
build before "${BEFORE}"
build after "${AFTER}"

# run NAME PATTERN: one benchmark process, its result lines prefixed by NAME.
run() {
	(cd "${ROOT}/runtime/cache" &&
		"${WORK}/$1.test" -test.run '^$' -test.bench "$2" -test.benchmem -test.count 1) |
		grep -E '^Benchmark' | sed "s/^/$1 /"
}

for _ in $(seq "${ROUNDS}"); do
	for bench in InformerSync InformerUpdates; do
		run before "^Benchmark${bench}\$/^ours\$"
		run after "^Benchmark${bench}\$/^ours\$"
		run after "^Benchmark${bench}\$/^ours-untyped\$"
		run after "^Benchmark${bench}\$/^clientgo\$"
	done
	for v in before after; do
		run "${v}" '^BenchmarkByIndex$/^node$'
		run "${v}" '^BenchmarkStore$/^Update$'
	done
done
