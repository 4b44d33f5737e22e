#!/usr/bin/env bash
# Stops every daemon hack/ceph/up.sh started and removes its address. Data stays in $HCO_CACHE/ceph unless
# --purge is given; up.sh rebuilds a cluster it cannot reuse, so keeping it is harmless.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=env.sh
source "$HERE/env.sh"

pids="$(ceph_cluster_pids | tr '\n' ' ')"
if [ -n "${pids// }" ]; then
  # shellcheck disable=SC2086
  kill -TERM $pids 2>/dev/null || true
  for _ in $(seq 1 50); do
    pids="$(ceph_cluster_pids | tr '\n' ' ')"
    [ -z "${pids// }" ] && break
    sleep 0.2
  done
  if [ -n "${pids// }" ]; then
    # shellcheck disable=SC2086
    kill -KILL $pids 2>/dev/null || true
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
echo "ceph-down: stopped" >&2
