#!/usr/bin/env bash
# Builds the busybox image the local cluster's own suite runs (test/cluster, `make
# cluster-test`), from Debian's busybox-static, without a container engine (umoci),
# imports it into every node's containerd, and prints its reference. Its archive stays
# in the cluster's directory, where `make cluster-test` pushes it to the cluster's
# registry too.
set -Eeuo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

IMAGE_ARCHIVE="$CLUSTER_DIR/images/busybox.tar"

# build_image writes an OCI archive of busybox (one layer: the binary and a link per
# applet) named $BUSYBOX_IMAGE, unless the archive of this busybox build exists.
build_image() {
	local version tmp layout ref
	ensure_debs busybox-static umoci jq
	version="$(dpkg-query -W -f='${Version}' busybox-static | tr -c 'A-Za-z0-9.\n-' '_')"
	BUSYBOX_IMAGE="localhost/hco-busybox:$version"
	[[ -f "$IMAGE_ARCHIVE" && "$(cat "$IMAGE_ARCHIVE.ref" 2>/dev/null)" == "$BUSYBOX_IMAGE" ]] && return 0
	log "building $BUSYBOX_IMAGE"
	tmp="$(mktemp -d "$HCO_CACHE/tmp-busybox-image.XXXXXX")"
	mkdir -p "$tmp/rootfs/bin" "$tmp/rootfs/tmp" "$(dirname "$IMAGE_ARCHIVE")"
	chmod 1777 "$tmp/rootfs/tmp"
	cp /bin/busybox "$tmp/rootfs/bin/busybox"
	/bin/busybox --list | while read -r applet; do
		[[ "$applet" == busybox ]] || ln -s busybox "$tmp/rootfs/bin/$applet"
	done
	layout="$tmp/layout" ref="$BUSYBOX_IMAGE"
	umoci init --layout "$layout"
	umoci new --image "$layout:busybox"
	umoci insert --image "$layout:busybox" "$tmp/rootfs" / >/dev/null
	umoci config --image "$layout:busybox" --os linux --architecture "$(dpkg --print-architecture)" \
		--config.env PATH=/bin --config.cmd sh
	umoci gc --layout "$layout"
	# containerd's importer names the image after this annotation.
	jq --arg ref "$ref" '.manifests[0].annotations["io.containerd.image.name"] = $ref' \
		"$layout/index.json" >"$layout/index.json.new"
	mv "$layout/index.json.new" "$layout/index.json"
	tar -C "$layout" -cf "$IMAGE_ARCHIVE" oci-layout index.json blobs
	echo "$ref" >"$IMAGE_ARCHIVE.ref"
	rm -rf "$tmp"
}

# import_image imports the archive into every node's containerd.
import_image() {
	local sock
	while read -r sock; do
		CONTAINERD_SOCKET="$sock" import_into
	done < <(node_sockets)
}

# grep reads the whole list: with -q it would stop at the match, and ctr, cut short,
# fail the pipeline.
import_into() {
	ctr images ls -q | grep -xF "$BUSYBOX_IMAGE" >/dev/null && return 0
	ctr images import --platform "linux/$(dpkg --print-architecture)" "$IMAGE_ARCHIVE" >/dev/null
	ctr images ls -q | grep -xF "$BUSYBOX_IMAGE" >/dev/null || die "importing $IMAGE_ARCHIVE into $CONTAINERD_SOCKET did not give $BUSYBOX_IMAGE"
}

require_root
build_image
import_image
echo "$BUSYBOX_IMAGE"
