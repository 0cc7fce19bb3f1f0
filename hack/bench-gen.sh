#!/usr/bin/env bash
# Times informer-gen-plus against informer-gen + lister-gen v0.37.2 (the
# go.mod tool lines) on the same input, every group/version of k8s.io/api,
# side by side, and counts the Go lines each writes. Each generator runs
# RUNS times (default 3); the median wall time is reported. Binaries are
# built first, so that only generation is timed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "${ROOT}"
MODULE="$(go list -m)"
RUNS="${RUNS:-3}"
OUT="_output/bench-gen"

mapfile -t pkgs < <(bash hack/kube-api-packages.sh)
mkdir -p bin
go build -o bin/informer-gen-plus ./cmd/informer-gen-plus
go build -o bin/informer-gen k8s.io/code-generator/cmd/informer-gen
go build -o bin/lister-gen k8s.io/code-generator/cmd/lister-gen

ours() {
	rm -rf "${OUT}/ours"
	bin/informer-gen-plus --output-dir "${OUT}/ours" --output-pkg "${MODULE}/${OUT}/ours" \
		--versioned-clientset-package k8s.io/client-go/kubernetes "${pkgs[@]}"
}
theirs() {
	rm -rf "${OUT}/theirs"
	bin/lister-gen --plural-exceptions Endpoints:Endpoints --output-dir "${OUT}/theirs/listers" --output-pkg "${MODULE}/${OUT}/theirs/listers" "${pkgs[@]}"
	bin/informer-gen --plural-exceptions Endpoints:Endpoints --output-dir "${OUT}/theirs/informers" --output-pkg "${MODULE}/${OUT}/theirs/informers" \
		--versioned-clientset-package k8s.io/client-go/kubernetes \
		--listers-package "${MODULE}/${OUT}/theirs/listers" "${pkgs[@]}"
}

# median_seconds FUNC: runs FUNC RUNS times and prints the median wall time.
median_seconds() {
	local times=() i start end
	for ((i = 0; i < RUNS; i++)); do
		start=$(date +%s.%N)
		"$1" >/dev/null 2>&1
		end=$(date +%s.%N)
		times+=("$(echo "${end} - ${start}" | bc)")
	done
	printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p"
}

lines() { find "$1" -name '*.go' -exec cat {} + | wc -l; }
files() { find "$1" -name '*.go' | wc -l; }

ours_s=$(median_seconds ours)
theirs_s=$(median_seconds theirs)
ours_lines=$(lines "${OUT}/ours")
theirs_lines=$(lines "${OUT}/theirs")
printf 'input: %d group/versions of k8s.io/api; %d runs each, median wall time\n' "${#pkgs[@]}" "${RUNS}"
printf '%-32s %10s %8s %10s\n' generator seconds files lines
printf '%-32s %10.2f %8d %10d\n' "informer-gen-plus" "${ours_s}" "$(files "${OUT}/ours")" "${ours_lines}"
printf '%-32s %10.2f %8d %10d\n' "lister-gen + informer-gen" "${theirs_s}" "$(files "${OUT}/theirs")" "${theirs_lines}"
printf 'ratio (ours / theirs): time %.2f, lines %.2f\n' "$(echo "${ours_s} / ${theirs_s}" | bc -l)" "$(echo "${ours_lines} / ${theirs_lines}" | bc -l)"
