#!/usr/bin/env bash
# Sets the project's version everywhere it is written: the chart's version and
# appVersion, the image tags the chart, the kustomize manifests and hack/images build
# (the Hadoop image's is the Hadoop version, a dash and the version), and the
# connector's Maven version, which is X.Y.Z-SNAPSHOT while the version is X.Y.Z-dev.
# A release commit runs it with the release's version, the next commit with the next
# one's and -dev (docs/install.md#releases-and-migration-notes). test/chart fails when
# any of these disagree.
#
# Usage: set-version.sh VERSION    (0.2.0 or 0.2.0-dev)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="${1:-}"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-dev)?$ ]] || { echo "usage: $0 X.Y.Z[-dev]" >&2; exit 2; }
maven="${version%-dev}"
[[ "$version" == *-dev ]] && maven="$maven-SNAPSHOT"
hadoop="$(sed -n 's|.*<hadoop.version>\(.*\)</hadoop.version>.*|\1|p' "$ROOT/images/hadoop/pom.xml" | head -1)"
[[ -n "$hadoop" ]] || { echo "no <hadoop.version> in images/hadoop/pom.xml" >&2; exit 1; }
tag='[0-9]+\.[0-9]+\.[0-9]+(-dev)?'

sed -E -i "s/^version: .*/version: $version/; s/^appVersion: .*/appVersion: \"$version\"/" "$ROOT/charts/hadoop-ceph-operator/Chart.yaml"
sed -E -i "s/(hadoop-ceph-hadoop:$hadoop-)$tag/\1$version/" \
	"$ROOT/charts/hadoop-ceph-operator/values.yaml" "$ROOT/config/manager/manager.yaml" \
	"$ROOT/hack/images/images.env" "$ROOT/hack/images/push.sh" "$ROOT/images/hadoop/Dockerfile"
sed -E -i "s/(hadoop-ceph-operator:)$tag/\1$version/" "$ROOT/hack/images/images.env" "$ROOT/images/operator/Dockerfile"
sed -E -i "s/^(    newTag: )$tag$/\1$version/" "$ROOT/config/manager/kustomization.yaml"
# The project's own <version>, the first in the pom.
sed -E -i "0,/<version>[^<]*<\/version>/s//<version>$maven<\/version>/" "$ROOT/cephfs-hadoop/pom.xml"
echo "version $version (connector $maven, Hadoop image $hadoop-$version)"
