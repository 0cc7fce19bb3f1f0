#!/usr/bin/env bash
# Runs BenchmarkScale (test/scalebench) in PROCS processes (default 5), one
# after the other, each running every sub-benchmark once (-benchtime 1x):
# per size, the floor, ours and client-go's sync on both paths, and both
# sides' updates. The processes alternate which side runs first (odd: ours,
# even: client-go), so that each pair of results of a process saw similar
# load. Then it prints, per size, a markdown table: the median over the
# processes of each metric for the floor, ours and client-go, and the median
# and range of the per-process ratios ours / client-go.
#
# Usage: hack/bench-scale.sh [PATTERN]
#   PATTERN selects sub-benchmarks of BenchmarkScale (default ".": 10k and
#   100k; "500k" with SCALE_BENCH_500K=1 for the 500,000-pod set).
#   PROCS=n sets the number of processes; RAW=file keeps the raw output.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
PATTERN="${1:-.}"
PROCS="${PROCS:-5}"
WORK="$(mktemp -d)"
trap 'rm -rf "${WORK}"' EXIT

cd "${ROOT}"
go test -c -o "${WORK}/scalebench.test" ./test/scalebench
for i in $(seq 1 "${PROCS}"); do
	first=$(((i + 1) % 2))
	echo "# process ${i} of ${PROCS} (clientgo first: ${first})" >&2
	(cd test/scalebench && SCALE_BENCH_CLIENTGO_FIRST="${first}" "${WORK}/scalebench.test" \
		-test.run '^$' -test.bench "BenchmarkScale/${PATTERN}" -test.benchtime 1x -test.timeout 0) |
		tee -a /dev/stderr | sed -n "s/^Benchmark/${i} Benchmark/p" >>"${WORK}/raw.txt"
done
if [ -n "${RAW:-}" ]; then
	cp "${WORK}/raw.txt" "${RAW}"
fi

# Each line of raw.txt: process, name (BenchmarkScale/size/bench/side-P),
# iterations, then value-unit pairs.
awk '
function median(list, n,    a, i, j, k, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++) {
		t = a[i] + 0
		for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]
		a[j + 1] = t
	}
	if (n == 0) return ""
	if (n % 2) return a[(n + 1) / 2]
	return (a[n / 2] + a[n / 2 + 1]) / 2
}
function range(list,    a, i, n, lo, hi) {
	n = split(list, a, " ")
	lo = hi = a[1] + 0
	for (i = 2; i <= n; i++) {
		if (a[i] + 0 < lo) lo = a[i] + 0
		if (a[i] + 0 > hi) hi = a[i] + 0
	}
	return sprintf("%.2f to %.2f", lo, hi)
}
function fmt(v, unit) {
	if (v == "") return ""
	if (unit == "ns/op") return sprintf("%.3f s", v / 1e9)
	if (unit ~ /^(ns|cpu-ns|gc-ns|sys-ns)\//) return sprintf("%.2f µs", v / 1000)
	if (unit == "events/s") return sprintf("%.0f", v)
	if (unit ~ /^heapB\//) return sprintf("%.0f B", v)
	return sprintf("%.1f", v)
}
BEGIN {
	# Metrics shown, in this order.
	nm = split("ns/op ns/obj cpu-ns/obj gc-ns/obj allocs/obj heapB/obj events/s ns/event cpu-ns/event gc-ns/event allocs/event", shown, " ")
	for (i = 1; i <= nm; i++) isShown[shown[i]] = 1
}
{
	proc = $1
	name = $2
	sub(/^BenchmarkScale\//, "", name)
	sub(/-[0-9]+$/, "", name)
	n = split(name, part, "/")
	if (n != 3) next
	size = part[1]; bench = part[2]; side = part[3]
	if (!(size in seenSize)) { seenSize[size] = 1; sizes[++nsizes] = size }
	if (!((size, bench) in seenBench)) { seenBench[size, bench] = 1; benches[size, ++nbench[size]] = bench }
	for (i = 4; i < NF; i += 2) {
		unit = $(i + 1)
		if (!isShown[unit]) continue
		has[size, bench, unit] = 1
		vals[size, bench, side, unit] = vals[size, bench, side, unit] " " $i
		val[proc, size, bench, side, unit] = $i
		procs[proc] = 1
	}
}
END {
	for (s = 1; s <= nsizes; s++) {
		size = sizes[s]
		printf "\n### %s pods\n\n", size
		print "| benchmark | metric | floor | ours | client-go | ours / client-go (median) | per process |"
		print "| --- | --- | --- | --- | --- | --- | --- |"
		for (b = 1; b <= nbench[size]; b++) {
			bench = benches[size, b]
			for (m = 1; m <= nm; m++) {
				unit = shown[m]
				if (!has[size, bench, unit]) continue
				ratios = ""
				for (p in procs) {
					o = val[p, size, bench, "ours", unit]
					c = val[p, size, bench, "clientgo", unit]
					if (o != "" && c != "" && c + 0 != 0) ratios = ratios " " (o / c)
				}
				r = median(ratios)
				printf "| %s | %s | %s | %s | %s | %s | %s |\n", bench, unit,
					fmt(median(vals[size, bench, "floor", unit]), unit),
					fmt(median(vals[size, bench, "ours", unit]), unit),
					fmt(median(vals[size, bench, "clientgo", unit]), unit),
					(r == "" ? "" : sprintf("%.2f", r)), (r == "" ? "" : range(ratios))
			}
		}
	}
}' "${WORK}/raw.txt"
