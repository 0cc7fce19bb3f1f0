#!/usr/bin/env bash
# Fails when the checked-in generated code is not what hack/update-codegen.sh
# generates, naming each file that drifted.
#
# It copies the module (without .git and build output) to a temporary
# directory, runs hack/update-codegen.sh there, and compares the generated
# trees of the copy with the work tree. The work tree is never written to,
# and the result does not depend on what git tracks: an edited, missing or
# stale generated file is drift whether or not it is committed.
#
# Usage: hack/verify-codegen.sh   (from any directory)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "${ROOT}"

# The directories and files hack/update-codegen.sh writes (relative to
# ROOT): the generated Go code (with the controller-runtime helpers of the
# controllerruntime module) and the CRDs (examples/config/crd), and the
# marker reference (docs/markers.md). Everything under them is compared,
# generated or not: a hand-written file there is the same in both trees and
# never drifts.
GENERATED_ROOTS=(examples controllerruntime/examples/indexes controllerruntime/examples/kubeindexes docs/markers.md)

TMP="$(mktemp -d "${TMPDIR:-/tmp}/verify-codegen.XXXXXX")"
trap 'rm -rf "${TMP}"' EXIT

for entry in "${ROOT}"/* "${ROOT}"/.[!.]*; do
	[ -e "${entry}" ] || continue
	case "$(basename "${entry}")" in
	.git | bin | _output) continue ;;
	esac
	cp -R "${entry}" "${TMP}/"
done

if ! bash "${TMP}/hack/update-codegen.sh"; then
	echo "verify-codegen: hack/update-codegen.sh failed" >&2
	exit 1
fi

# list_files DIR: the files under DIR's generated roots, relative to DIR.
list_files() {
	(
		cd "$1"
		for r in "${GENERATED_ROOTS[@]}"; do
			[ -e "${r}" ] || continue
			find "${r}" -type f
		done
	) | LC_ALL=C sort
}

list_files "${ROOT}" >"${TMP}/.have"
list_files "${TMP}" >"${TMP}/.want"

drifted=()
report() {
	drifted+=("$1: $2")
}

# In the work tree but not generated: stale output of a generator.
while IFS= read -r f; do
	report "${f}" "should not exist (stale generated file)"
done < <(LC_ALL=C comm -23 "${TMP}/.have" "${TMP}/.want")

# Generated but not in the work tree.
while IFS= read -r f; do
	report "${f}" "missing"
done < <(LC_ALL=C comm -13 "${TMP}/.have" "${TMP}/.want")

# In both, with different content.
while IFS= read -r f; do
	if ! cmp -s "${ROOT}/${f}" "${TMP}/${f}"; then
		report "${f}" "differs from what is generated"
		# diff exits 1 when the files differ, which is the point here.
		diff -u "${ROOT}/${f}" "${TMP}/${f}" | head -n 40 >&2 || true
	fi
done < <(LC_ALL=C comm -12 "${TMP}/.have" "${TMP}/.want")

if [ "${#drifted[@]}" -ne 0 ]; then
	echo "verify-codegen: generated code is out of date in ${#drifted[@]} file(s):" >&2
	printf '  %s\n' "${drifted[@]}" >&2
	echo "verify-codegen: run hack/update-codegen.sh (make generate)" >&2
	exit 1
fi
echo "verify-codegen: generated code is up to date" >&2
