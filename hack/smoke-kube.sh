#!/usr/bin/env bash
# Runs informer-gen-plus over every group/version of k8s.io/api, with
# client-go's clientset, into _output/smoke (git-ignored, and skipped by the
# go tool's ./... patterns), and compiles the result: a check that the
# generator copes with the whole built-in API.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "${ROOT}"
MODULE="$(go list -m)"
OUT="_output/smoke"

mapfile -t pkgs < <(bash hack/kube-api-packages.sh)
rm -rf "${OUT}"
go build -o bin/informer-gen-plus ./cmd/informer-gen-plus
bin/informer-gen-plus \
	--output-dir "${OUT}" --output-pkg "${MODULE}/${OUT}" \
	--versioned-clientset-package k8s.io/client-go/kubernetes \
	"${pkgs[@]}"
printf 'smoke-kube: %d packages in, %d files out; compiling\n' "${#pkgs[@]}" "$(find "${OUT}" -name '*.go' | wc -l)" >&2
go build "./${OUT}/..."
go vet "./${OUT}/..."
echo "smoke-kube: the generated code for all of k8s.io/api compiles" >&2
