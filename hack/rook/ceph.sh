#!/usr/bin/env bash
# Runs this host's ceph command (or, as `ceph.sh rados ...`, rados) against the local
# Rook's Ceph cluster as its administrator, with the client configuration that
# hack/rook/up.sh writes:
#   hack/rook/ceph.sh status
#   hack/rook/ceph.sh df detail
#   hack/rook/ceph.sh rados -p .mgr ls --all
set -euo pipefail
# shellcheck source=env.sh
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
HCO_LOG_NAME=rook-ceph
# shellcheck source=../log.sh
source "$(dirname "${BASH_SOURCE[0]}")/../log.sh"
[[ -f "$ROOK_CONF_FILE" && -f "$ROOK_ADMIN_KEYRING" ]] || die "no client configuration in $ROOK_DIR: run hack/rook/up.sh"
tool=ceph
if [[ "${1:-}" == rados ]]; then
	tool=rados
	shift
fi
exec timeout 60 "$tool" --conf "$ROOK_CONF_FILE" --name client.admin --keyring "$ROOK_ADMIN_KEYRING" "$@"
