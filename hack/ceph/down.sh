#!/usr/bin/env bash
# Stops every daemon hack/ceph/up.sh started and removes its address. Data stays in $HCO_CACHE/ceph unless
# --purge is given; up.sh rebuilds a cluster it cannot reuse, so keeping it is harmless.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=env.sh
source "$HERE/env.sh"
HCO_LOG_NAME=ceph-down

ceph_stopped() { [ -z "$(ceph_cluster_pids)" ]; }

pids="$(ceph_cluster_pids | tr '\n' ' ')"
if [ -n "${pids// }" ]; then
  # shellcheck disable=SC2086
  kill -TERM $pids 2>/dev/null || true
  # Ten seconds to stop cleanly, then SIGKILL.
  if ! poll 0.2 10 ceph_stopped; then
    # shellcheck disable=SC2046
    kill -KILL $(ceph_cluster_pids) 2>/dev/null || true
  fi
fi
rm -f "$CEPH_DIR"/run/*.pid "$CEPH_DIR"/run/*.asok 2>/dev/null || true
# The daemons' address goes with them (up.sh adds it again).
if [ -n "$(ip -4 -o addr show dev lo to "$CEPH_ADDR/32")" ]; then
  ip addr del "$CEPH_ADDR/32" dev lo
fi
if [ "${1:-}" = "--purge" ]; then
  rm -rf "$CEPH_DIR"
fi
log "stopped"
