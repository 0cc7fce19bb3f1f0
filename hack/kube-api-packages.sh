#!/usr/bin/env bash
# Prints the import paths of every group/version package of k8s.io/api (the
# version go.mod pins), one per line: the whole-world input of smoke-kube.sh
# and bench-gen.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
go list k8s.io/api/... | grep -E '/v[0-9]+((alpha|beta)[0-9]+)?$'
