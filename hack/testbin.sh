#!/usr/bin/env bash
# Builds the binaries of the local test control plane from their Go modules:
#
#   * etcd            (go.etcd.io/etcd/server/v3, ETCD_VERSION)
#   * kube-apiserver  (k8s.io/kubernetes/cmd/kube-apiserver, KUBE_VERSION)
#
# and puts them in bin/testbin/ (or TESTBIN_DIR). A binary that is already
# there and reports the right version (--version) is left alone, so a second
# run returns at once.
#
# Neither can be installed with `go install` (both modules carry replace
# directives), so each is built from a scratch "build module" under
# _output/testbin-build/<name>/ that requires the module at the wanted version:
#
#   * etcd: go.etcd.io/etcd/server/v3 is etcd's main package.
#   * kube-apiserver: k8s.io/kubernetes requires its staging modules
#     (k8s.io/api, k8s.io/apiserver, ...) at v0.0.0 and replaces them with
#     ./staging/...; the build module replaces each of them with its published
#     version (v0.X.Y for Kubernetes v1.X.Y), read from kubernetes' go.mod.
#     The version is stamped in with -ldflags, as Kubernetes' own build does;
#     without it the binary reports v0.0.0-master.
#
# A cold build takes several minutes per binary and a few GB of memory in the
# linker, so the two are built one after the other. Each binary is written to
# a temporary name and moved into place only once it is complete.
#
# Usage: hack/testbin.sh   (from any directory; `make testbin`)
set -euo pipefail

ETCD_VERSION="3.7.3"
KUBE_VERSION="1.37.2"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
BIN_DIR="${TESTBIN_DIR:-${ROOT}/bin/testbin}"
BUILD_DIR="${ROOT}/_output/testbin-build"

# The build modules are not part of any workspace, and their go.mod is
# written here, so `go mod tidy` must be free to update it.
export GOWORK=off
export GOFLAGS="${GOFLAGS:-} -mod=mod"
# Static binaries, as the upstream releases are.
export CGO_ENABLED=0

log() { printf 'testbin: %s\n' "$*" >&2; }
die() {
	log "error: $*"
	exit 1
}

# has_version BIN WANT: whether BIN exists and its --version output contains
# WANT.
has_version() {
	local bin="$1" want="$2" out
	[ -x "${bin}" ] || return 1
	out="$("${bin}" --version 2>/dev/null)" || return 1
	[[ "${out}" == *"${want}"* ]]
}

# new_build_module DIR MODULE: an empty build module in DIR (removing what a
# previous run left there) with a tools.go that blank-imports the main
# package MODULE under a build tag, so that `go mod tidy` keeps its
# dependencies while nothing in DIR itself is ever compiled.
new_build_module() {
	local dir="$1" pkg="$2"
	rm -rf "${dir}"
	mkdir -p "${dir}"
	cat >"${dir}/tools.go" <<EOF
//go:build tools

// Package tools records the main package this build module builds.
package tools

import _ "${pkg}"
EOF
	(cd "${dir}" && go mod init testbin.local/build >/dev/null 2>&1)
}

# install_binary DIR PKG NAME LDFLAGS: builds PKG in build module DIR into
# BIN_DIR/NAME, through a temporary file in BIN_DIR.
install_binary() {
	local dir="$1" pkg="$2" name="$3" ldflags="$4" tmp
	tmp="$(mktemp "${BIN_DIR}/.${name}.XXXXXX")"
	# The temporary file goes away if the build fails or is interrupted.
	trap 'rm -f "'"${tmp}"'"' EXIT
	(cd "${dir}" && go build -trimpath -ldflags "${ldflags}" -o "${tmp}" "${pkg}")
	chmod 0755 "${tmp}"
	mv -f "${tmp}" "${BIN_DIR}/${name}"
	trap - EXIT
}

build_etcd() {
	local bin="${BIN_DIR}/etcd" dir="${BUILD_DIR}/etcd" start
	if has_version "${bin}" "etcd Version: ${ETCD_VERSION}"; then
		log "etcd ${ETCD_VERSION} is up to date (${bin})"
		return 0
	fi
	start="${SECONDS}"
	log "building etcd ${ETCD_VERSION} (several minutes when cold)"
	new_build_module "${dir}" go.etcd.io/etcd/server/v3
	(cd "${dir}" && go mod edit -require "go.etcd.io/etcd/server/v3@v${ETCD_VERSION}" && go mod tidy)
	install_binary "${dir}" go.etcd.io/etcd/server/v3 etcd "-s -w"
	has_version "${bin}" "etcd Version: ${ETCD_VERSION}" ||
		die "${bin} does not report etcd ${ETCD_VERSION}: $("${bin}" --version 2>&1 | head -n 1)"
	log "etcd ${ETCD_VERSION} built in $((SECONDS - start))s (${bin})"
}

build_kube_apiserver() {
	local bin="${BIN_DIR}/kube-apiserver" dir="${BUILD_DIR}/kube-apiserver" start
	local major minor staging_version gomod staging=() m
	if has_version "${bin}" "Kubernetes v${KUBE_VERSION}"; then
		log "kube-apiserver v${KUBE_VERSION} is up to date (${bin})"
		return 0
	fi
	start="${SECONDS}"
	log "building kube-apiserver v${KUBE_VERSION} (several minutes when cold)"
	major="${KUBE_VERSION%%.*}"
	minor="${KUBE_VERSION#*.}"
	minor="${minor%%.*}"
	# Kubernetes v1.X.Y publishes its staging modules as v0.X.Y.
	staging_version="v0.${KUBE_VERSION#*.}"

	new_build_module "${dir}" k8s.io/kubernetes/cmd/kube-apiserver
	# kubernetes' go.mod, from the module cache (downloaded if needed).
	gomod="$(cd "${dir}" && go mod download -json "k8s.io/kubernetes@v${KUBE_VERSION}" |
		sed -n 's/^[[:space:]]*"GoMod":[[:space:]]*"\(.*\)",\{0,1\}$/\1/p')"
	[ -f "${gomod}" ] || die "could not download the go.mod of k8s.io/kubernetes@v${KUBE_VERSION}"
	# Its staging modules: the k8s.io modules it requires at v0.0.0.
	while IFS= read -r m; do
		staging+=("${m}")
	done < <(awk '
		/^require[[:space:]]*\(/ { inreq = 1; next }
		inreq && /^\)/ { inreq = 0; next }
		{ line = $0; sub(/^[[:space:]]+/, "", line); sub(/^require[[:space:]]+/, "", line); split(line, f, /[[:space:]]+/) }
		(inreq || /^require[[:space:]]+[^(]/) && f[1] ~ /^k8s\.io\// && f[2] == "v0.0.0" { print f[1] }
	' "${gomod}" | LC_ALL=C sort -u)
	[ "${#staging[@]}" -gt 0 ] || die "found no staging modules in ${gomod}"
	log "replacing ${#staging[@]} staging modules with ${staging_version}"

	local edits=(-require "k8s.io/kubernetes@v${KUBE_VERSION}" -godebug default=go1.26)
	for m in "${staging[@]}"; do
		edits+=(-replace "${m}=${m}@${staging_version}")
	done
	(cd "${dir}" && go mod edit "${edits[@]}" && go mod tidy)
	install_binary "${dir}" k8s.io/kubernetes/cmd/kube-apiserver kube-apiserver \
		"-s -w -X k8s.io/component-base/version.gitVersion=v${KUBE_VERSION} -X k8s.io/component-base/version.gitMajor=${major} -X k8s.io/component-base/version.gitMinor=${minor}"
	has_version "${bin}" "Kubernetes v${KUBE_VERSION}" ||
		die "${bin} does not report v${KUBE_VERSION}: $("${bin}" --version 2>&1 | head -n 1)"
	log "kube-apiserver v${KUBE_VERSION} built in $((SECONDS - start))s (${bin})"
}

main() {
	mkdir -p "${BIN_DIR}" "${BUILD_DIR}"
	# Two runs at once would build the same binaries twice over, in the same
	# build modules: the second waits for the first (and then finds the
	# binaries up to date).
	if command -v flock >/dev/null; then
		exec 9>"${BUILD_DIR}/.lock"
		flock 9
	fi
	build_etcd
	build_kube_apiserver
}

main "$@"
