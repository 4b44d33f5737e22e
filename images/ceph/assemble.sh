#!/usr/bin/env bash
# Completes the Ceph image that the local Rook runs (operator and Ceph daemons in one
# image, as Rook's own images are) in the root file system TARGET, where Debian trixie
# with images/ceph/packages is already installed. Both images/ceph/Dockerfile and
# hack/images/build.sh run it, so the two images have the same contents.
#
# Usage: assemble.sh STAGE TARGET, where STAGE holds
#   rook   the rook binary (hack/tools/rook-binary.sh)
set -euo pipefail

# Rook's images run the operator as 2016 and Ceph's daemons as ceph, 167: the uid Rook
# sets in security contexts and expects on the files it chowns.
readonly ROOK_UID=2016 CEPH_UID=167

die() {
	echo "assemble.sh: $*" >&2
	exit 1
}

[[ $# -eq 2 ]] || die "usage: assemble.sh STAGE TARGET"
stage="$(cd "$1" && pwd)"
target="$(cd "$2" && pwd)"
target="${target%/}"
[[ -x "${stage}/rook" ]] || die "missing ${stage}/rook"
[[ -x "${target}/usr/bin/ceph-mon" ]] || die "no Ceph in ${target}: install images/ceph/packages first"

# The ceph user must exist before Debian's packages are installed, or they create it
# with a uid of their own choice.
[[ "$(awk -F: '$1 == "ceph" { print $3 }' "${target}/etc/passwd")" == "${CEPH_UID}" ]] ||
	die "user ceph must have uid ${CEPH_UID} in ${target}/etc/passwd (create it before installing Ceph)"

install -D -m 0755 "${stage}/rook" "${target}/usr/local/bin/rook"
if ! grep -q "^rook:" "${target}/etc/passwd"; then
	echo "rook:x:${ROOK_UID}:${ROOK_UID}:Rook:/var/lib/rook:/usr/sbin/nologin" >>"${target}/etc/passwd"
	echo "rook:x:${ROOK_UID}:" >>"${target}/etc/group"
fi
install -d -m 0755 -o "${ROOK_UID}" -g "${ROOK_UID}" "${target}/var/lib/rook"

# No udev daemon runs in a container: LVM must neither wait for udev nor ask it for
# devices, or every ceph-volume call during OSD preparation hangs or sees no device.
lvm_conf="${target}/etc/lvm/lvm.conf"
[[ -f "${lvm_conf}" ]] || die "no ${lvm_conf}"
if ! grep -q "^# Set by assemble.sh" "${lvm_conf}"; then
	sed -i \
		-e 's/^devices {$/&\n\t# Set by assemble.sh: no udev in the container.\n\tobtain_device_list_from_udev = 0\n\texternal_device_info_source = "none"/' \
		-e 's/^activation {$/&\n\t# Set by assemble.sh: no udev in the container.\n\tudev_sync = 0\n\tudev_rules = 0/' \
		"${lvm_conf}"
	sed -i '1i # Set by assemble.sh: udev use switched off below.' "${lvm_conf}"
fi
[[ "$(grep -c 'Set by assemble.sh: no udev' "${lvm_conf}")" == 2 ]] ||
	die "could not switch udev off in ${lvm_conf}: its devices or activation section moved"

# Rook's OSD preparation runs `dmsetup version` only to log it, and stops when it
# fails, which it does on a kernel without device-mapper (this project's development
# machines) although OSDs on raw devices never use device-mapper. Debian's dmsetup is
# diverted to dmsetup.distrib; in its place, a script answers `version` with the
# library's version on such a kernel and hands every other call, and every call on a
# kernel with device-mapper, to Debian's unchanged.
if [[ ! -e "${target}/usr/sbin/dmsetup.distrib" ]]; then
	chroot "${target}" dpkg-divert --local --rename --divert /usr/sbin/dmsetup.distrib --add /usr/sbin/dmsetup >/dev/null
	cat >"${target}/usr/sbin/dmsetup" <<-'EOF'
		#!/bin/sh
		# Debian's dmsetup is /usr/sbin/dmsetup.distrib: see images/ceph/assemble.sh.
		if [ "$*" = version ] && ! grep -qw device-mapper /proc/devices; then
			/usr/sbin/dmsetup.distrib version 2>/dev/null | grep '^Library version'
			echo "Driver version:   none (the kernel has no device-mapper)"
			exit 0
		fi
		exec /usr/sbin/dmsetup.distrib "$@"
	EOF
	chmod 0755 "${target}/usr/sbin/dmsetup"
fi

# Debian's python3-bcrypt 4.2 is a PyO3 module, which refuses to load in a second
# Python sub-interpreter, and ceph-mgr runs each module in one: mgr_util.py imports it
# at the top, so every mgr module after the first fails to load, among them `volumes`,
# which Rook uses for subvolume groups. Only password hashing (the dashboard's) needs
# bcrypt, so it is imported there.
mgr_util="${target}/usr/share/ceph/mgr/mgr_util.py"
if grep -qx 'import bcrypt' "${mgr_util}"; then
	sed -i -e '/^import bcrypt$/d' \
		-e 's/^def password_hash(.*:$/&\n    import bcrypt  # here, not at the top: see images\/ceph\/assemble.sh/' "${mgr_util}"
	grep -q '^    import bcrypt  # here' "${mgr_util}" ||
		die "could not move bcrypt's import into password_hash() in ${mgr_util}"
fi
if grep -q '^import bcrypt' "${mgr_util}"; then
	die "${mgr_util} still imports bcrypt at the top"
fi
