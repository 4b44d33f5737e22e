# Shared helpers of hack/images/*.sh. Sourced, not executed.
# shellcheck shell=bash

HCO_IMAGES_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "${HCO_IMAGES_DIR}/../.." && pwd)"
HCO_LOG_NAME="images-$(basename "$0" .sh)"
# shellcheck source=../tools/lib.sh
source "${ROOT}/hack/tools/lib.sh"
# shellcheck source=images.env
source "${HCO_IMAGES_DIR}/images.env"

# Archives, their input hashes and the build caches, outside the checkout.
IMAGES_OUT="${HCO_CACHE}/images"
# "all" of build.sh and push.sh.
IMAGE_NAMES=(pause operator hadoop ceph)
# The local cluster's own images (hack/cluster/up.sh), which "all" leaves out too.
CLUSTER_IMAGE_NAMES=(multus)
# Images of the tests alone, which "all" leaves out: `make images` and images-push make
# and push what a cluster runs.
TEST_IMAGE_NAMES=(test-devices)

# image_ref NAME prints the reference of image NAME from images.env.
image_ref() {
	case "$1" in
	pause) echo "${PAUSE_IMAGE}" ;;
	operator) echo "${OPERATOR_IMAGE}" ;;
	hadoop) echo "${HADOOP_IMAGE}" ;;
	ceph) echo "${CEPH_IMAGE}" ;;
	multus) echo "${MULTUS_IMAGE}" ;;
	test-devices) echo "${TEST_DEVICES_IMAGE}" ;;
	*) die "unknown image '$1' (known: ${IMAGE_NAMES[*]} ${CLUSTER_IMAGE_NAMES[*]} ${TEST_IMAGE_NAMES[*]})" ;;
	esac
}

# image_tag NAME prints the tag of image NAME's reference.
image_tag() {
	local ref
	ref="$(image_ref "$1")"
	echo "${ref##*:}"
}

# image_names expands "all" (or nothing) to every image but the tests' and checks the
# others, each named once.
image_names() {
	local n
	if [[ $# -eq 0 ]]; then
		set -- all
	fi
	for n in "$@"; do
		if [[ "${n}" == all ]]; then
			printf '%s\n' "${IMAGE_NAMES[@]}"
			continue
		fi
		image_ref "${n}" >/dev/null
		echo "${n}"
	done | awk '!seen[$0]++'
}

# shellcheck source=../debs.sh
source "${HCO_IMAGES_DIR}/../debs.sh"

# quietly COMMAND...: runs COMMAND with its output kept aside, shown only when it fails.
quietly() {
	local out rc=0
	mkdir -p "${HCO_TMP}"
	out="$(mktemp "${HCO_TMP}/output.XXXXXX")"
	"$@" >"${out}" 2>&1 || rc=$?
	if ((rc != 0)); then
		tail -n 40 "${out}" >&2
	fi
	rm -f "${out}"
	return "${rc}"
}

# hash_tree prints one hash of the names, modes, link targets and contents of the
# files under the directories and files it is given, so that renaming, chmod or
# editing any of them changes it.
hash_tree() {
	local p
	for p in "$@"; do
		(cd "$(dirname "${p}")" && find "$(basename "${p}")" -printf '%p %m %y %l\n' -type f -exec sha256sum {} +) | LC_ALL=C sort
	done | sha256sum | cut -d' ' -f1
}

# inputs_line NAME HASH prints what NAME's .inputs file records: the hash of its
# inputs and its reference. The reference is in the archive (the tag in the layout, the
# name containerd imports it under), and a tag follows the chart's appVersion, so an
# archive of unchanged inputs is made again when images.env gives it a new tag.
inputs_line() {
	echo "$2 $(image_ref "$1")"
}

# image_archive NAME prints the path of NAME's OCI archive. The product images' names
# carry their tag, so that an earlier release's archives (hack/local/release-images.sh,
# built from that release's commit) and the checkout's stand side by side, and neither
# is built again for the other. Beside each archive, its .inputs file.
image_archive() {
	case "$1" in
	operator | hadoop) echo "${IMAGES_OUT}/$1-$(image_tag "$1").tar" ;;
	*) echo "${IMAGES_OUT}/$1.tar" ;;
	esac
}

# up_to_date NAME HASH: the archive of NAME exists and was built from inputs with HASH,
# under the reference images.env gives it now.
up_to_date() {
	local archive
	archive="$(image_archive "$1")"
	[[ -f "${archive}" && -f "${archive%.tar}.inputs" &&
		"$(cat "${archive%.tar}.inputs")" == "$(inputs_line "$1" "$2")" ]]
}

# dockerfile_config DOCKERFILE ARCH prints the umoci config options for what the last
# stage of DOCKERFILE declares with ENV (one NAME=value per line), USER, WORKDIR,
# ENTRYPOINT and CMD (JSON arrays of plain words), so the local image gets the same
# configuration as one a container engine builds. ${TARGETARCH} becomes ARCH.
dockerfile_config() {
	awk -v arch="$2" '
		/^FROM /       { n = 0; delete opt; next }
		{ gsub(/\$\{TARGETARCH\}/, arch) }
		/^ENV /        { sub(/^ENV /, "")
		                 if ($0 !~ /^[A-Za-z_][A-Za-z0-9_]*=[^ ]*$/) {
		                         print "unsupported ENV (one NAME=value a line): " $0 > "/dev/stderr"
		                         bad = 1; exit
		                 }
		                 opt[n++] = "--config.env=" $0; next }
		/^USER /       { opt[n++] = "--config.user=" $2; next }
		/^WORKDIR /    { opt[n++] = "--config.workingdir=" $2; next }
		/^(ENTRYPOINT|CMD) \[/ {
		                 key = ($1 == "CMD") ? "--config.cmd=" : "--config.entrypoint="
		                 s = $0; sub(/^[A-Z]+ \[/, "", s); sub(/\][ \t]*$/, "", s)
		                 m = split(s, words, /,[ \t]*/)
		                 for (i = 1; i <= m; i++) { w = words[i]; gsub(/^"|"$/, "", w); opt[n++] = key w }
		                 next }
		END { if (bad) exit 1; for (i = 0; i < n; i++) print opt[i] }
	' "$1"
}

# oci_new LAYOUT TAG starts an empty image in a new OCI layout.
oci_new() {
	umoci init --layout "$1"
	umoci new --image "$1:$2"
}

# oci_archive LAYOUT TAG REF OUT writes the layout as an OCI archive to OUT, naming
# the image REF in the annotation containerd's importer reads, so `ctr images import`
# gives it exactly that name. Prints the manifest digest.
oci_archive() {
	local layout="$1" tag="$2" ref="$3" out="$4" tmp
	jq --arg tag "${tag}" --arg ref "${ref}" '
		.manifests |= map(select(.annotations["org.opencontainers.image.ref.name"] == $tag)
			| .annotations["io.containerd.image.name"] = $ref)' \
		"${layout}/index.json" >"${layout}/index.json.new"
	mv "${layout}/index.json.new" "${layout}/index.json"
	[[ "$(jq '.manifests | length' "${layout}/index.json")" == 1 ]] ||
		die "${layout}: expected one manifest tagged ${tag}"
	umoci gc --layout "${layout}"
	mkdir -p "$(dirname "${out}")"
	tmp="${out}.tmp"
	tar -C "${layout}" -cf "${tmp}" oci-layout index.json blobs
	mv "${tmp}" "${out}"
	jq -r '.manifests[0].digest' "${layout}/index.json"
}

# archive_digest ARCHIVE prints the manifest digest of an archive oci_archive wrote.
archive_digest() {
	tar -xOf "$1" index.json | jq -r '.manifests[0].digest'
}
