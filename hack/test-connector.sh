#!/usr/bin/env bash
# `make test-connector`: builds the CephFS connector and runs its tests against a real
# single-host Ceph: unit tests, Hadoop's contract suites on the replicated and on the
# erasure-coded pool, TeraSort in local mode, a MiniYARNCluster job, and the SIGKILL
# session test. Installs what is missing (apt, Maven artifacts), brings Ceph up with
# hack/ceph/up.sh and, if this script started it, stops it again on exit.
# HCO_KEEP_CEPH=1 leaves a cluster this script started running.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=ceph/env.sh
source "$ROOT/hack/ceph/env.sh"

# shellcheck source=debs.sh
source "$ROOT/hack/debs.sh"

ensure_build_tools() {
  local missing=()
  command -v java >/dev/null && java -version 2>&1 | grep -q 'version "1[7-9]\|version "2' || missing+=(openjdk-17-jdk-headless)
  command -v javac >/dev/null || missing+=(openjdk-17-jdk-headless)
  command -v mvn >/dev/null || missing+=(maven)
  # ensure_debs waits for another install in progress (hack/tools/prebuild.sh's, say).
  if [ ${#missing[@]} -gt 0 ]; then
    ensure_debs "${missing[@]}"
  fi
}

started_ceph=0
cleanup() {
  if [ "$started_ceph" = 1 ] && [ "${HCO_KEEP_CEPH:-0}" != 1 ]; then
    "$ROOT/hack/ceph/down.sh" || true
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ensure_build_tools
if ! "$ROOT/hack/ceph/up.sh" --check >/dev/null 2>&1; then
  started_ceph=1
fi
"$ROOT/hack/ceph/up.sh" >/dev/null
libcephfs_version="$(hco_install_libcephfs_jar)"

# Failsafe merges each run into the summary files it finds, so a failure from an
# earlier run would fail this one's verify: start every run from empty reports.
rm -rf "$ROOT/cephfs-hadoop/target/failsafe-reports"
start=$SECONDS
mvn -B -ntp -f "$ROOT/cephfs-hadoop/pom.xml" verify \
  -Dlibcephfs.version="$libcephfs_version" \
  -Dceph.conf="$CEPH_CONF_FILE" -Dceph.keyring="$CEPH_CLIENT_KEYRING" -Dceph.mon="$CEPH_MONITOR" \
  -Dceph.ec.pool="$CEPH_EC_POOL" -Dceph.replicated.pool="$CEPH_REPLICATED_POOL" \
  "$@"
log "connector tests passed in $((SECONDS - start)) s"
