#!/usr/bin/env bash
# Builds the images without a container engine or a registry, each into an OCI archive
# $HCO_CACHE/images/<name>.tar that hack/images/import.sh puts into containerd under
# the reference hack/images/images.env names:
#   pause     Kubernetes' pause binary (from the kubernetes module source), static
#   operator  the manager, a static Go binary, as in images/operator/Dockerfile
#   hadoop    a Debian root file system made from Debian's packages, completed by
#             images/hadoop/assemble.sh, the same script images/hadoop/Dockerfile runs
#   multus    Multus's thick-plugin daemon (hack/tools/multus.sh), static, for the local
#             cluster's data network
#   ceph      Ceph 18.2 from Debian trixie with the rook binary, for the local Rook,
#             completed by images/ceph/assemble.sh as images/ceph/Dockerfile does
#   test-devices  the e2e suite's device plugin of fake devices (test/tools/device-plugin),
#             a static Go binary; a test image, which "all" leaves out
# An image whose inputs and reference did not change since its archive was written is
# not rebuilt.
#
# Usage: build.sh [pause|operator|hadoop|ceph|test-devices|all]...   (default: all)
set -Eeuo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ARCH="$(dpkg --print-architecture)"
# What the operator image's Dockerfile gets from distroless: a non-root user.
NONROOT_UID=65532

# The history and config of an image built here say when, like an engine's would.
CREATED="$(date -u +%Y-%m-%dT%H:%M:%SZ)"

# pack NAME ROOTFS LAYOUT HASH [UMOCI_CONFIG_OPTION]... adds ROOTFS as the top layer of
# the image in LAYOUT (tagged with its reference's tag), applies the config and writes
# the archive.
pack() {
	local name="$1" rootfs="$2" layout="$3" hash="$4" ref tag digest archive
	shift 4
	ref="$(image_ref "${name}")"
	tag="$(image_tag "${name}")"
	archive="$(image_archive "${name}")"
	step "${name}: packing"
	umoci insert --image "${layout}:${tag}" --history.created "${CREATED}" \
		--history.created_by "hack/images/build.sh ${name}" "${rootfs}" /
	umoci config --image "${layout}:${tag}" --created "${CREATED}" --history.created "${CREATED}" \
		--os linux --architecture "${ARCH}" "$@"
	digest="$(oci_archive "${layout}" "${tag}" "${ref}" "${archive}")"
	inputs_line "${name}" "${hash}" >"${archive%.tar}.inputs"
	log "built ${name}: ${ref} ${digest} ($(du -h "${archive}" | cut -f1) archive)"
}

# passwd_files ROOTFS NAME UID writes /etc/passwd and /etc/group with root and one
# user, for images without a distribution.
passwd_files() {
	mkdir -p "$1/etc"
	printf 'root:x:0:0:root:/root:/sbin/nologin\n%s:x:%s:%s:%s:/home/%s:/sbin/nologin\n' "$2" "$3" "$3" "$2" "$2" >"$1/etc/passwd"
	printf 'root:x:0:\n%s:x:%s:\n' "$2" "$3" >"$1/etc/group"
	chmod 0644 "$1/etc/passwd" "$1/etc/group"
}

build_pause() {
	local src version cflags hash rootfs layout
	step "pause: locating pause.c in k8s.io/kubernetes@${KUBERNETES_VERSION}"
	ensure_debs gcc libc6-dev umoci jq
	setup_go_env
	src="$(go mod download -json "k8s.io/kubernetes@${KUBERNETES_VERSION}" | jq -r .Dir)/build/pause"
	[[ -f "${src}/linux/pause.c" ]] || die "no build/pause/linux/pause.c in k8s.io/kubernetes@${KUBERNETES_VERSION}"
	# The version the binary reports is upstream's, from the Makefile that builds it.
	version="$(sed -n 's/^TAG ?= *//p' "${src}/Makefile")"
	cflags="-Os -Wall -Werror -static -DVERSION=v${version}-kubernetes-${KUBERNETES_VERSION}"
	hash="$( {
		hash_tree "${src}/linux/pause.c" "${HCO_IMAGES_DIR}/lib.sh" "${BASH_SOURCE[0]}"
		echo "${cflags}"
		gcc --version | head -1
	} | sha256sum | cut -d' ' -f1)"
	if up_to_date pause "${hash}"; then
		log "have pause ($(image_ref pause)), inputs unchanged"
		return
	fi
	mk_tmpdir pause
	rootfs="${HCO_TMPDIR}/rootfs" layout="${HCO_TMPDIR}/layout"
	mkdir -p "${rootfs}"
	step "pause: compiling pause.c ${version}"
	# shellcheck disable=SC2086
	gcc ${cflags} -o "${rootfs}/pause" "${src}/linux/pause.c"
	strip "${rootfs}/pause"
	oci_new "${layout}" "$(image_tag pause)"
	# Upstream's image: the binary alone, run as 65535.
	pack pause "${rootfs}" "${layout}" "${hash}" \
		--config.user=65535:65535 --config.entrypoint=/pause
}

build_operator() {
	local bin hash rootfs layout cfg config ca=/etc/ssl/certs/ca-certificates.crt
	ensure_debs umoci jq ca-certificates
	setup_go_env
	mk_tmpdir operator
	rootfs="${HCO_TMPDIR}/rootfs" layout="${HCO_TMPDIR}/layout"
	bin="${HCO_TMPDIR}/manager"
	# Go's cache makes an unchanged build take seconds, and the binary is the one
	# input that matters: -trimpath and no VCS stamp keep it byte for byte the same.
	step "operator: go build ./cmd"
	(cd "${ROOT}" && go build -trimpath -buildvcs=false -ldflags="-s -w" -o "${bin}" ./cmd)
	hash="$(hash_tree "${bin}" "${ca}" "${HCO_IMAGES_DIR}/lib.sh" "${BASH_SOURCE[0]}" "${ROOT}/images/operator/Dockerfile")"
	if up_to_date operator "${hash}"; then
		log "have operator ($(image_ref operator)), inputs unchanged"
		return
	fi
	# What distroless/static gives the binary: a passwd entry for the non-root user,
	# CA certificates and a writable /tmp.
	mkdir -p "${rootfs}/etc/ssl/certs" "${rootfs}/tmp"
	chmod 1777 "${rootfs}/tmp"
	install -m 0755 "${bin}" "${rootfs}/manager"
	install -m 0644 "${ca}" "${rootfs}/etc/ssl/certs/ca-certificates.crt"
	passwd_files "${rootfs}" nonroot "${NONROOT_UID}"
	oci_new "${layout}" "$(image_tag operator)"
	cfg="$(dockerfile_config "${ROOT}/images/operator/Dockerfile" "${ARCH}")"
	mapfile -t config <<<"${cfg}"
	pack operator "${rootfs}" "${layout}" "${hash}" "${config[@]}"
}

# build_multus: multus-daemon alone. It runs as root and execs the CNI plugins chrooted
# into the node's root (its DaemonSet, internal/localcluster/multus.go), so the image
# needs nothing else but a passwd entry for root.
build_multus() {
	local dir hash rootfs layout
	ensure_debs umoci jq
	dir="$("${ROOT}/hack/tools/multus.sh" | tail -1)"
	mk_tmpdir multus-image
	rootfs="${HCO_TMPDIR}/rootfs" layout="${HCO_TMPDIR}/layout"
	hash="$(hash_tree "${dir}/multus-daemon" "${HCO_IMAGES_DIR}/lib.sh" "${BASH_SOURCE[0]}")"
	if up_to_date multus "${hash}"; then
		log "have multus ($(image_ref multus)), inputs unchanged"
		return
	fi
	mkdir -p "${rootfs}/usr/bin" "${rootfs}/tmp" "${rootfs}/run" "${rootfs}/var"
	chmod 1777 "${rootfs}/tmp"
	# containerd names pods' namespaces /var/run/netns/..., as a distribution's /var/run
	# leads to /run, where the DaemonSet mounts the node's.
	ln -s ../run "${rootfs}/var/run"
	install -m 0755 "${dir}/multus-daemon" "${rootfs}/usr/bin/multus-daemon"
	passwd_files "${rootfs}" nobody 65534
	oci_new "${layout}" "$(image_tag multus)"
	pack multus "${rootfs}" "${layout}" "${hash}" --config.user 0 --config.entrypoint /usr/bin/multus-daemon
}

# build_test_devices makes the device plugin's image: the binary alone, run as root,
# which it needs to serve its sockets in the kubelet's device-plugins directory.
build_test_devices() {
	local bin hash rootfs layout
	ensure_debs umoci jq
	setup_go_env
	mk_tmpdir test-devices
	rootfs="${HCO_TMPDIR}/rootfs" layout="${HCO_TMPDIR}/layout"
	bin="${HCO_TMPDIR}/device-plugin"
	step "test-devices: go build ./test/tools/device-plugin"
	(cd "${ROOT}" && go build -trimpath -buildvcs=false -ldflags="-s -w" -o "${bin}" ./test/tools/device-plugin)
	hash="$(hash_tree "${bin}" "${HCO_IMAGES_DIR}/lib.sh" "${BASH_SOURCE[0]}")"
	if up_to_date test-devices "${hash}"; then
		log "have test-devices ($(image_ref test-devices)), inputs unchanged"
		return
	fi
	mkdir -p "${rootfs}"
	install -m 0755 "${bin}" "${rootfs}/device-plugin"
	oci_new "${layout}" "$(image_tag test-devices)"
	pack test-devices "${rootfs}" "${layout}" "${hash}" \
		--config.user=0:0 --config.entrypoint=/device-plugin
}

# no_debian_sources stops the build of an image whose Debian mirror is unknown.
no_debian_sources() {
	die "no apt source for this machine's Debian release in /etc/apt; set HCO_DEBIAN_SOURCES to a file of 'deb URI $(. /etc/os-release && echo "${VERSION_CODENAME}") main' lines"
}

# The Debian release of the Hadoop image; images/hadoop/Dockerfile starts from the same.
DEBIAN_SUITE=bookworm
HADOOP_SRC="${ROOT}/images/hadoop"
HADOOP_CACHE="${IMAGES_OUT}/hadoop"

# debian_sources SUITE prints, as one-line apt sources, the entries of this machine's apt
# configuration for its own Debian release and that release's -updates and -security
# suites, with the release's name changed to SUITE, so an image comes from the mirror
# the machine is set up with even when it is of another release than the machine.
# HCO_DEBIAN_SOURCES names a file of such lines (for this machine's release) to use
# instead.
debian_sources() {
	local suite="$1" host f
	host="$(. /etc/os-release && echo "${VERSION_CODENAME}")"
	[[ -n "${host}" ]] || die "no VERSION_CODENAME in /etc/os-release"
	{
		if [[ -n "${HCO_DEBIAN_SOURCES:-}" ]]; then
			cat "${HCO_DEBIAN_SOURCES}"
		else
			for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
				[[ -f "${f}" ]] && cat "${f}"
			done
			for f in /etc/apt/sources.list.d/*.sources; do
				[[ -f "${f}" ]] || continue
				awk '
					function flush(   u, s, nu, ns, us, ss, opt) {
						if (types ~ /(^| )deb( |$)/ && enabled != "no") {
							opt = signed != "" ? "[signed-by=" signed "] " : ""
							nu = split(uris, us, / +/); ns = split(suites, ss, / +/)
							for (u = 1; u <= nu; u++) for (s = 1; s <= ns; s++)
								print "deb " opt us[u] " " ss[s] " " comps
						}
						types = uris = suites = comps = signed = enabled = ""
					}
					/^[ \t]*#/ { next }
					/^[ \t]*$/ { flush(); next }
					{ key = tolower($1); sub(/:$/, "", key); val = $0; sub(/^[^:]*:[ \t]*/, "", val)
					  if (key == "types") types = val; else if (key == "uris") uris = val
					  else if (key == "suites") suites = val; else if (key == "components") comps = val
					  else if (key == "signed-by") signed = val; else if (key == "enabled") enabled = val }
					END { flush() }' "${f}"
			done
		fi
	} | awk -v host="${host}" -v suite="${suite}" '
		$1 == "deb" { i = 2; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
		              if ($(i + 1) ~ "^" host "(-updates|-security)?$") { sub("^" host, suite, $(i + 1)); print } }'
}

# hadoop_base sets HADOOP_BASE to the cached Debian base: an OCI layout (tag "base")
# whose one layer is the root file system mmdebstrap makes from images/hadoop/packages,
# next to that file system's etc/passwd and etc/group. It is made once per package list
# and apt sources; HCO_REFRESH_BASE=1 makes it again, to take in Debian's updates.
hadoop_base() {
	local sources packages key tmp
	sources="$(debian_sources "${DEBIAN_SUITE}")"
	[[ -n "${sources}" ]] || no_debian_sources
	packages="$(grep -v '^#' "${HADOOP_SRC}/packages" | tr -s ' \n' ',' | sed 's/^,//; s/,$//')"
	key="$( {
		echo "${sources}"
		echo "${packages}"
		declare -f hadoop_base_build
		mmdebstrap --version
	} | sha256sum | cut -c1-16)"
	HADOOP_BASE="${HADOOP_CACHE}/base-${key}"
	if [[ -f "${HADOOP_BASE}/done" && "${HCO_REFRESH_BASE:-0}" != 1 ]]; then
		return
	fi
	log "making the Debian ${DEBIAN_SUITE} base of the Hadoop image (${packages})"
	mk_tmpdir hadoop-base
	tmp="${HCO_TMPDIR}"
	echo "${sources}" >"${tmp}/debian.list"
	hadoop_base_build "${tmp}" "${packages}"
	rm -rf "${HADOOP_CACHE}"/base-*
	mkdir -p "${HADOOP_CACHE}"
	mv "${tmp}/base" "${HADOOP_BASE}"
	touch "${HADOOP_BASE}/done"
}

# hadoop_base_build TMP PACKAGES makes TMP/base. The documentation, manual pages and
# translations are left out as in Debian's slim container images (copyright files
# stay), and device nodes too: the runtime provides /dev, /etc/hosts, /etc/hostname
# and /etc/resolv.conf, so this machine's are not kept. /usr is merged with symlinks
# (as in Debian's images) instead of by the usrmerge package, which would bring Perl.
# The JRE's postinst links its manual pages with update-alternatives, which fails
# without their directory.
hadoop_base_build() {
	local tmp="$1" packages="$2"
	step "hadoop: mmdebstrap ${DEBIAN_SUITE} (${packages})"
	quietly mmdebstrap --variant=minbase --mode=root --format=tar --skip=output/dev \
		--include="${packages}" \
		--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
		--dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/lintian/*' \
		--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
		--essential-hook='mkdir -p "$1/usr/share/man/man1"' \
		--customize-hook='rm -f "$1/etc/resolv.conf" "$1/etc/hostname"' \
		"${DEBIAN_SUITE}" "${tmp}/rootfs.tar" "${tmp}/debian.list"
	step "hadoop: packing the Debian base layer"
	mkdir -p "${tmp}/base/etc"
	oci_new "${tmp}/base/layout" base
	umoci raw add-layer --image "${tmp}/base/layout:base" --history.created "${CREATED}" \
		--history.created_by "mmdebstrap --variant=minbase ${DEBIAN_SUITE} --include=${packages}" "${tmp}/rootfs.tar"
	tar -xf "${tmp}/rootfs.tar" -C "${tmp}/base" ./etc/passwd ./etc/group
	rm -f "${tmp}/rootfs.tar"
}

# pom_jars POM DIR copies the runtime jars of POM, with their dependencies, from Maven
# Central into DIR, once per version of POM.
pom_jars() {
	local pom="$1" dir="$2"
	if cmp -s "${pom}" "${dir}/.pom.xml"; then
		return
	fi
	step "hadoop: copying the jars of ${pom#"${ROOT}/"} from Maven Central"
	mk_tmpdir "$(basename "${dir}")"
	quietly mvn -B -ntp -f "${pom}" dependency:copy-dependencies \
		-DoutputDirectory="${HCO_TMPDIR}/jars" -DincludeScope=runtime
	cp "${pom}" "${HCO_TMPDIR}/jars/.pom.xml"
	rm -rf "${dir}"
	mkdir -p "$(dirname "${dir}")"
	mv "${HCO_TMPDIR}/jars" "${dir}"
}

# hadoop_jars sets HADOOP_JARS to the directory with the jars of images/hadoop/pom.xml
# and SPARK_JARS to the one with those of images/hadoop/spark/pom.xml.
hadoop_jars() {
	HADOOP_JARS="${HADOOP_CACHE}/jars"
	SPARK_JARS="${HADOOP_CACHE}/spark-jars"
	pom_jars "${HADOOP_SRC}/pom.xml" "${HADOOP_JARS}"
	pom_jars "${HADOOP_SRC}/spark/pom.xml" "${SPARK_JARS}"
}

# hadoop_connector sets HADOOP_CONNECTOR to the directory holding the connector's jar,
# compiled from cephfs-hadoop's main sources when they changed. The build runs on a
# copy, apart from cephfs-hadoop/target, which the connector's own tests use.
hadoop_connector() {
	local hash libcephfs_version work
	HADOOP_CONNECTOR="${HADOOP_CACHE}/connector"
	hash="$(hash_tree "${ROOT}/cephfs-hadoop/pom.xml" "${ROOT}/cephfs-hadoop/src/main" \
		"$(readlink -f /usr/share/java/libcephfs.jar)")"
	if [[ "$(cat "${HADOOP_CONNECTOR}/.inputs" 2>/dev/null)" == "${hash}" ]]; then
		return
	fi
	step "hadoop: compiling the connector"
	# shellcheck source=../ceph/env.sh
	libcephfs_version="$(source "${ROOT}/hack/ceph/env.sh" && hco_install_libcephfs_jar)"
	mk_tmpdir hadoop-connector
	work="${HCO_TMPDIR}"
	mkdir -p "${work}/src" "${work}/out"
	cp "${ROOT}/cephfs-hadoop/pom.xml" "${work}/"
	cp -R "${ROOT}/cephfs-hadoop/src/main" "${work}/src/"
	# The same goals as images/hadoop/Dockerfile.
	quietly mvn -B -ntp -f "${work}/pom.xml" -Dlibcephfs.version="${libcephfs_version}" \
		resources:resources compiler:compile jar:jar
	cp "${work}"/target/cephfs-hadoop-*.jar "${work}/out/"
	echo "${hash}" >"${work}/out/.inputs"
	rm -rf "${HADOOP_CONNECTOR}"
	mkdir -p "${HADOOP_CACHE}"
	mv "${work}/out" "${HADOOP_CONNECTOR}"
}

build_hadoop() {
	local stage layer layout hash cfg config
	ensure_debs mmdebstrap umoci jq maven openjdk-17-jdk-headless libcephfs-java
	hadoop_base
	hadoop_jars
	hadoop_connector

	mk_tmpdir hadoop
	stage="${HCO_TMPDIR}/stage" layer="${HCO_TMPDIR}/layer" layout="${HCO_TMPDIR}/layout"
	mkdir -p "${stage}"
	cp -R "${HADOOP_SRC}/root" "${stage}/root"
	ln -s "${HADOOP_JARS}" "${stage}/jars"
	ln -s "${HADOOP_CONNECTOR}" "${stage}/connector"
	ln -s "${SPARK_JARS}" "${stage}/spark-jars"
	cp "${ROOT}/internal/benchmark/runner/run-benchmark" "${stage}/run-benchmark"

	hash="$( {
		basename "${HADOOP_BASE}"
		hash_tree "${stage}/root" "${stage}/run-benchmark" "${HADOOP_SRC}/assemble.sh" \
			"${HADOOP_SRC}/Dockerfile" "${HCO_IMAGES_DIR}/lib.sh" "${BASH_SOURCE[0]}"
		hash_tree "${HADOOP_JARS}/" "${HADOOP_CONNECTOR}/" "${SPARK_JARS}/"
	} | sha256sum | cut -d' ' -f1)"
	if up_to_date hadoop "${hash}"; then
		log "have hadoop ($(image_ref hadoop)), inputs unchanged"
		return
	fi

	# The layer on top of Debian's holds what assemble.sh adds; it edits passwd and
	# group, so it starts from the base's. /dev, left out of the base, is where runtimes
	# mount theirs.
	step "hadoop: assembling"
	install -d -m 0755 "${layer}" "${layer}/etc" "${layer}/dev"
	install -m 0644 "${HADOOP_BASE}/etc/passwd" "${HADOOP_BASE}/etc/group" "${layer}/etc/"
	"${HADOOP_SRC}/assemble.sh" "${stage}" "${layer}"

	# A copy of the cached base layout; blobs are never rewritten, so links do.
	mkdir -p "${layout}"
	cp "${HADOOP_BASE}/layout/oci-layout" "${HADOOP_BASE}/layout/index.json" "${layout}/"
	cp -al "${HADOOP_BASE}/layout/blobs" "${layout}/blobs"
	umoci tag --image "${layout}:base" "$(image_tag hadoop)"
	umoci rm --image "${layout}:base"
	cfg="$(dockerfile_config "${HADOOP_SRC}/Dockerfile" "${ARCH}")"
	mapfile -t config <<<"${cfg}"
	pack hadoop "${layer}" "${layout}" "${hash}" "${config[@]}"
}

# The Ceph image: Rook v1.18 needs Ceph 18.2 or newer, which Debian has from trixie on.
# Only the image is trixie; the machine's own apt sources are never changed.
CEPH_SUITE=trixie
CEPH_SRC="${ROOT}/images/ceph"

# build_ceph makes one layer: mmdebstrap's trixie with images/ceph/packages, completed
# by images/ceph/assemble.sh inside mmdebstrap's customize hook. The ceph user is
# created with Rook's uid 167 before Debian's packages would create it with another.
build_ceph() {
	local sources packages rook stage hash tmp layout cfg config version
	[[ "$(image_tag ceph)" == "${ROOK_VERSION}-ceph${CEPH_VERSION}-dev" ]] ||
		die "the tag of CEPH_IMAGE in hack/images/images.env must be ${ROOK_VERSION}-ceph${CEPH_VERSION}-dev (ROOK_VERSION and CEPH_VERSION)"
	ensure_debs mmdebstrap umoci jq
	rook="$("${ROOT}/hack/tools/rook-binary.sh" | tail -1)"
	sources="$(debian_sources "${CEPH_SUITE}")"
	[[ -n "${sources}" ]] || no_debian_sources
	packages="$(grep -v '^#' "${CEPH_SRC}/packages" | tr -s ' \n' ',' | sed 's/^,//; s/,$//')"
	hash="$( {
		echo "${sources}"
		echo "${packages}"
		declare -f build_ceph
		mmdebstrap --version
		hash_tree "${rook}" "${CEPH_SRC}/assemble.sh" "${CEPH_SRC}/Dockerfile" "${HCO_IMAGES_DIR}/lib.sh" \
			"${BASH_SOURCE[0]}"
	} | sha256sum | cut -d' ' -f1)"
	if up_to_date ceph "${hash}" && [[ "${HCO_REFRESH_BASE:-0}" != 1 ]]; then
		log "have ceph ($(image_ref ceph)), inputs unchanged"
		return
	fi
	mk_tmpdir ceph
	tmp="${HCO_TMPDIR}" stage="${HCO_TMPDIR}/stage" layout="${HCO_TMPDIR}/layout"
	mkdir -p "${stage}"
	cp "${rook}" "${stage}/rook"
	cp "${CEPH_SRC}/assemble.sh" "${stage}/assemble.sh"
	echo "${sources}" >"${tmp}/debian.list"
	step "ceph: mmdebstrap ${CEPH_SUITE} (${packages}), then assemble.sh"
	# shellcheck disable=SC2016 # $1 is mmdebstrap's, expanded in its hooks
	quietly mmdebstrap --variant=minbase --mode=root --format=tar --skip=output/dev \
		--include="${packages}" \
		--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
		--dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/lintian/*' \
		--essential-hook='echo "ceph:x:167:" >>"$1/etc/group" && echo "ceph:x:167:167:Ceph storage service:/var/lib/ceph:/usr/sbin/nologin" >>"$1/etc/passwd"' \
		--customize-hook="\"${stage}/assemble.sh\" \"${stage}\" \"\$1\"" \
		--customize-hook='rm -f "$1/etc/resolv.conf" "$1/etc/hostname"' \
		--customize-hook="chroot \"\$1\" ceph --version >\"${tmp}/version\"" \
		"${CEPH_SUITE}" "${tmp}/rootfs.tar" "${tmp}/debian.list"
	version="$(awk '{ print $3 }' "${tmp}/version")"
	[[ "${version}" == "${CEPH_VERSION}" ]] ||
		die "Debian ${CEPH_SUITE} now has Ceph ${version}, not ${CEPH_VERSION}: set CEPH_VERSION and CEPH_IMAGE in hack/images/images.env to it"
	step "ceph: packing"
	oci_new "${layout}" "$(image_tag ceph)"
	umoci raw add-layer --image "${layout}:$(image_tag ceph)" --history.created "${CREATED}" \
		--history.created_by "mmdebstrap --variant=minbase ${CEPH_SUITE} --include=${packages}; images/ceph/assemble.sh" \
		"${tmp}/rootfs.tar"
	rm -f "${tmp}/rootfs.tar"
	cfg="$(dockerfile_config "${CEPH_SRC}/Dockerfile" "${ARCH}")"
	mapfile -t config <<<"${cfg}"
	step "ceph: writing the archive"
	umoci config --image "${layout}:$(image_tag ceph)" --created "${CREATED}" --history.created "${CREATED}" \
		--os linux --architecture "${ARCH}" "${config[@]}"
	oci_archive "${layout}" "$(image_tag ceph)" "$(image_ref ceph)" "${IMAGES_OUT}/ceph.tar" >/dev/null
	inputs_line ceph "${hash}" >"${IMAGES_OUT}/ceph.inputs"
	log "built ceph: $(image_ref ceph) (Ceph ${version}, Rook ${ROOK_VERSION}; $(du -h "${IMAGES_OUT}/ceph.tar" | cut -f1) archive)"
}

case "${1:-}" in
-h | --help)
	sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 0
	;;
esac

mkdir -p "${IMAGES_OUT}"
take_lock images-build
for name in $(image_names "$@"); do
	start=${SECONDS}
	"build_${name//-/_}"
	log "${name}: $(fmt_secs $((SECONDS - start)))"
done
