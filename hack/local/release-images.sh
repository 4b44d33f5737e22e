#!/usr/bin/env bash
# Builds an earlier release's operator and Hadoop images from that release's own source
# and pushes them to the local cluster's registry, for the e2e suite's upgrade from a
# real release. The release's commit comes from hack/releases.tsv; its source is taken
# from this clone's history (git archive) into $HCO_CACHE/releases/VERSION once, and its
# own hack/images/build.sh builds the images, so they are what that release shipped. The
# archives keep their tags (hack/images/lib.sh), so the checkout's images are not built
# again afterwards.
#
# Prints the pushed references on stderr and, on its last line, the release's source
# directory: its hack/local/install-operator.sh, with
# HCO_REGISTRY_IMAGES=<dir>/registry-images.env, installs the release's chart with them.
#
# Usage: release-images.sh [VERSION]   (default: the newest release)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../cluster/env.sh
source "$ROOT/hack/cluster/env.sh"

# shellcheck source=../log.sh
source "$ROOT/hack/log.sh"

releases="$ROOT/hack/releases.tsv"
version="${1:-$(awk '!/^#/ && NF { v = $1 } END { print v }' "$releases")}"
[[ -n "$version" ]] || die "no release in $releases"
commit="$(awk -v v="$version" '!/^#/ && $1 == v { print $2 }' "$releases")"
[[ -n "$commit" ]] || die "no release $version in $releases"

dir="$HCO_CACHE/releases/$version"
if [[ "$(cat "$dir/.commit" 2>/dev/null)" != "$commit" ]]; then
	if ! git -C "$ROOT" cat-file -e "$commit^{commit}" 2>/dev/null; then
		# A shallow clone lacks the release's commit; its origin has it.
		if [[ "$(git -C "$ROOT" rev-parse --is-shallow-repository)" == true ]]; then
			git -C "$ROOT" fetch -q --unshallow >&2 || true
		fi
		git -C "$ROOT" cat-file -e "$commit^{commit}" 2>/dev/null ||
			die "release $version's commit $commit is not in this clone: clone the repository with its history"
	fi
	log "taking release $version's source from commit ${commit:0:12} into $dir"
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	git -C "$ROOT" archive "$commit" | tar -x -C "$dir.tmp"
	echo "$commit" >"$dir.tmp/.commit"
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
fi

"$dir/hack/images/build.sh" operator hadoop >&2
# The release's own references: OPERATOR_IMAGE and HADOOP_IMAGE.
# shellcheck source=/dev/null
source "$dir/hack/images/images.env"
pushed() {
	local out
	out="$("$dir/hack/images/push.sh" --insecure "$CLUSTER_REGISTRY" "$2" | tail -1)"
	[[ "$out" == *@sha256:* ]] || die "push.sh printed no digest for $2: $out"
	echo "$CLUSTER_REGISTRY/${1#localhost/}@${out##*@}"
}
operator_ref="$(pushed "$OPERATOR_IMAGE" operator)"
hadoop_ref="$(pushed "$HADOOP_IMAGE" hadoop)"
{
	echo "# Release $version's images, pushed by hack/local/release-images.sh, by digest."
	echo "OPERATOR_IMAGE=$operator_ref"
	echo "HADOOP_IMAGE=$hadoop_ref"
} >"$dir/registry-images.env"
sed 's/^/  /' "$dir/registry-images.env" >&2
echo "$dir"
