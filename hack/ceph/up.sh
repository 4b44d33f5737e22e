#!/usr/bin/env bash
# Brings up a single-host Ceph from Debian's packages for the connector tests, the
# benchmarks and the end-to-end tests (as an "external" StorageBackend).
#
# Layout (stable paths; HCO_CACHE defaults to ~/.cache/hadoop-ceph-operator):
#   $HCO_CACHE/ceph/ceph.conf                     cluster and client configuration
#   $HCO_CACHE/ceph/ceph.client.admin.keyring     admin key
#   $HCO_CACHE/ceph/ceph.client.hadoop.keyring    client.hadoop, caps mds 'allow rwp'
#   $HCO_CACHE/ceph/ceph.client.hadoop-evictor.keyring
#                                                 client.hadoop-evictor, caps mon 'allow r'
#                                                 mds 'allow *': evicts dead clients
#   $HCO_CACHE/ceph/cluster.env                   the values below as shell variables
# Cluster: 1 mon (v2 10.118.255.1:13300, v1 10.118.255.1:16789, an address on the
# host's loopback labelled lo:hco-ceph: env.sh says why), 1 mgr, 3 bluestore OSDs on
# sparse files, 1 MDS, cephx. File system "cephfs": metadata pool cephfs_metadata,
# default data pool cephfs_data (replicated, size 2) and data pool cephfs_data_ec
# (erasure-coded k=2 m=1 with a 64 KiB stripe unit, overwrites allowed).
#
# Idempotent: a healthy running cluster is reused; anything else left over from an
# earlier run is stopped and rebuilt. hack/ceph/down.sh stops what this started.
# `up.sh --check` only tells (exit status) whether a healthy cluster is running.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=env.sh
source "$HERE/env.sh"

HCO_LOG_NAME=ceph-up

# shellcheck source=../debs.sh
source "$HERE/../debs.sh"

healthy() {
  [ -f "$CEPH_CONF_FILE" ] && [ -f "$CEPH_CLIENT_KEYRING" ] || return 1
  # A cluster made for another address (an older layout listened on loopback) cannot
  # move: its monitor map holds the address.
  grep -qxF "mon_host = $CEPH_MON_HOST" "$CEPH_CONF_FILE" || return 1
  local status
  status="$(ceph_cli status --format json 2>/dev/null)" || return 1
  python3 - "$status" <<'PY'
import json, sys
s = json.loads(sys.argv[1])
ok = s["health"]["status"] == "HEALTH_OK"
osd = s["osdmap"]
ok = ok and osd.get("num_up_osds") == 3 and osd.get("num_in_osds") == 3
pgs = s["pgmap"].get("pgs_by_state", [])
ok = ok and all(p["state_name"] == "active+clean" for p in pgs) and len(pgs) > 0
fs = s.get("fsmap", {})
ok = ok and fs.get("up", 0) >= 1 and any(m.get("status") == "up:active" for m in fs.get("by_rank", []))
sys.exit(0 if ok else 1)
PY
}

write_conf() {
  cat > "$CEPH_CONF_FILE" <<CONF
[global]
fsid = $1
mon_host = $CEPH_MON_HOST
public_addr = $CEPH_ADDR
auth_cluster_required = cephx
auth_service_required = cephx
auth_client_required = cephx
auth_allow_insecure_global_id_reclaim = false
run_dir = $CEPH_DIR/run
pid_file = $CEPH_DIR/run/\$name.pid
log_file = $CEPH_DIR/log/\$name.log
admin_socket = $CEPH_DIR/run/\$name.asok
keyring = $CEPH_DIR/ceph.\$name.keyring
osd_crush_chooseleaf_type = 0
osd_pool_default_size = 2
osd_pool_default_min_size = 1
osd_pool_default_pg_autoscale_mode = off
mon_allow_pool_delete = true
mon_data_avail_warn = 2
mon_data_avail_crit = 1
mon_warn_on_pool_no_redundancy = false
mon_max_pg_per_osd = 500
mgr_initial_modules =

[mon.a]
mon_data = $CEPH_DIR/mon
keyring = $CEPH_DIR/mon.keyring

[mgr]
mgr_data = $CEPH_DIR/mgr
keyring = $CEPH_DIR/mgr/keyring

[osd]
osd_data = $CEPH_DIR/osd\$id
keyring = $CEPH_DIR/osd\$id/keyring
osd_objectstore = bluestore
bluestore_block_create = true
bluestore_block_size = $((CEPH_OSD_SIZE_GB * 1024 * 1024 * 1024))
bluestore_block_db_create = false
bluestore_block_wal_create = false
osd_memory_target = 1610612736
osd_op_num_shards = 2

[mds]
mds_data = $CEPH_DIR/mds
keyring = $CEPH_DIR/mds/keyring

[client]
# Clients are many short-lived JVMs: no admin socket, one shared log.
admin_socket =
log_file = $CEPH_DIR/log/client.log
CONF
}

# ensure_address gives this host the daemons' address, which down.sh removes.
ensure_address() {
  if [ -z "$(ip -4 -o addr show dev lo to "$CEPH_ADDR/32")" ]; then
    log "adding $CEPH_ADDR/32 to lo as $CEPH_ADDR_LABEL"
    ip addr add "$CEPH_ADDR/32" dev lo label "$CEPH_ADDR_LABEL"
  fi
}

stop_leftovers() {
  local pids
  pids="$(ceph_cluster_pids | tr '\n' ' ')"
  if [ -n "${pids// }" ]; then
    log "stopping leftover daemons: $pids"
    # shellcheck disable=SC2086
    kill -9 $pids 2>/dev/null || true
    sleep 1
  fi
}

# The OSDs' files grow with the data written over the cluster's life (the tests write
# a few GB at most, the benchmarks tens). A disk without room for the tests is refused
# at once rather than filled; one without room for the files' full size is warned about.
check_disk_space() {
  local need_kb min_kb=$((8 * 1024 * 1024)) avail_kb
  mkdir -p "$(dirname "$CEPH_DIR")"
  need_kb=$((CEPH_OSD_COUNT * CEPH_OSD_SIZE_GB * 1024 * 1024))
  avail_kb="$(df -Pk "$(dirname "$CEPH_DIR")" | awk 'NR == 2 { print $4 }')"
  if [ "$avail_kb" -lt "$min_kb" ]; then
    die "only $((avail_kb / 1024 / 1024)) GB are free under $(dirname "$CEPH_DIR"), and the OSDs need 8 GB for the tests; free some space"
  fi
  if [ "$avail_kb" -lt "$need_kb" ]; then
    log "warning: $CEPH_OSD_COUNT OSDs of $CEPH_OSD_SIZE_GB GB may grow to $((need_kb / 1024 / 1024)) GB under a benchmark, and $((avail_kb / 1024 / 1024)) GB are free; set HCO_CEPH_OSD_SIZE_GB lower if you run one"
  fi
}

create_cluster() {
  local fsid secret uuid id i pids=()
  rm -rf "$CEPH_DIR"
  check_disk_space
  mkdir -p "$CEPH_DIR"/{run,log,mgr,mds}
  fsid="$(uuidgen)"
  write_conf "$fsid"

  ceph-authtool --create-keyring "$CEPH_DIR/mon.keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
  ceph-authtool --create-keyring "$CEPH_ADMIN_KEYRING" --gen-key -n client.admin \
    --cap mon 'allow *' --cap osd 'allow *' --cap mds 'allow *' --cap mgr 'allow *' >/dev/null
  ceph-authtool "$CEPH_DIR/mon.keyring" --import-keyring "$CEPH_ADMIN_KEYRING" >/dev/null
  monmaptool --create --fsid "$fsid" --addv a "$CEPH_MON_HOST" "$CEPH_DIR/monmap" >/dev/null
  /usr/bin/ceph-mon -c "$CEPH_CONF_FILE" -i a --mkfs --monmap "$CEPH_DIR/monmap" --keyring "$CEPH_DIR/mon.keyring"
  /usr/bin/ceph-mon -c "$CEPH_CONF_FILE" -i a
  log "mon up"

  ceph_cli auth get-or-create mgr.x mon 'allow profile mgr' osd 'allow *' mds 'allow *' \
    -o "$CEPH_DIR/mgr/keyring"
  /usr/bin/ceph-mgr -c "$CEPH_CONF_FILE" -i x

  for ((i = 0; i < CEPH_OSD_COUNT; i++)); do
    uuid="$(uuidgen)"
    secret="$(ceph-authtool --gen-print-key)"
    echo "{\"cephx_secret\": \"$secret\"}" > "$CEPH_DIR/osd-$i.json"
    id="$(ceph_cli osd new "$uuid" -i "$CEPH_DIR/osd-$i.json")"
    rm -f "$CEPH_DIR/osd-$i.json"
    mkdir -p "$CEPH_DIR/osd$id"
    ceph-authtool --create-keyring "$CEPH_DIR/osd$id/keyring" -n "osd.$id" --add-key "$secret" >/dev/null
    ( /usr/bin/ceph-osd -c "$CEPH_CONF_FILE" -i "$id" --mkfs --osd-uuid "$uuid" >"$CEPH_DIR/log/mkfs-osd$id.log" 2>&1 \
      && /usr/bin/ceph-osd -c "$CEPH_CONF_FILE" -i "$id" 2>>"$CEPH_DIR/log/start-osd$id.log" ) &
    pids+=($!)
  done
  for id in "${pids[@]}"; do
    wait "$id" || die "an OSD failed to start; see $CEPH_DIR/log"
  done
  log "osds started"

  ceph_cli osd pool create "$CEPH_METADATA_POOL" 16 16 replicated >/dev/null 2>&1
  ceph_cli osd pool create "$CEPH_REPLICATED_POOL" 32 32 replicated >/dev/null 2>&1
  # Ceph's default stripe unit (4 KiB) cuts every 4 MiB object into 1024 stripes that the
  # OSDs encode, and reassemble on every read, one by one; with 64 KiB the OSDs spend
  # about half the CPU per GB read and a third less per GB written (docs/connector.md).
  ceph_cli osd erasure-code-profile set ec-2-1 k=2 m=1 crush-failure-domain=osd stripe_unit=65536 >/dev/null
  ceph_cli osd pool create "$CEPH_EC_POOL" 32 32 erasure ec-2-1 >/dev/null 2>&1
  ceph_cli osd pool set "$CEPH_EC_POOL" allow_ec_overwrites true >/dev/null 2>&1
  ceph_cli fs new "$CEPH_FS_NAME" "$CEPH_METADATA_POOL" "$CEPH_REPLICATED_POOL" >/dev/null 2>&1
  ceph_cli fs add_data_pool "$CEPH_FS_NAME" "$CEPH_EC_POOL" >/dev/null 2>&1

  ceph_cli auth get-or-create mds.a mon 'allow profile mds' osd 'allow rw tag cephfs *=*' \
    mds 'allow' mgr 'allow profile mds' -o "$CEPH_DIR/mds/keyring"
  /usr/bin/ceph-mds -c "$CEPH_CONF_FILE" -i a >/dev/null

  ceph_cli fs authorize "$CEPH_FS_NAME" "client.$CEPH_CLIENT_ID" / rwp > "$CEPH_CLIENT_KEYRING"
  chmod 600 "$CEPH_CLIENT_KEYRING" "$CEPH_ADMIN_KEYRING"
}

# write_evictor makes the client the operator's eviction Jobs use (an external
# StorageBackend's spec.cephFS.external.evictor): the least caps with which the MDS
# accepts `client evict`. Also on a reused cluster, which may predate it;
# get-or-create returns the key the cluster has, so a file left by an earlier cluster
# is replaced.
write_evictor() {
  ceph_cli auth get-or-create "client.$CEPH_EVICTOR_ID" mon 'allow r' mds 'allow *' > "$CEPH_EVICTOR_KEYRING"
  chmod 600 "$CEPH_EVICTOR_KEYRING"
}

write_env() {
  cat > "$CEPH_DIR/cluster.env" <<ENV
CEPH_CONF=$CEPH_CONF_FILE
CEPH_MON_HOST=$CEPH_MON_HOST
CEPH_MONITOR=$CEPH_MONITOR
CEPH_FS_NAME=$CEPH_FS_NAME
CEPH_CLIENT_ID=$CEPH_CLIENT_ID
CEPH_CLIENT_KEYRING=$CEPH_CLIENT_KEYRING
CEPH_EVICTOR_ID=$CEPH_EVICTOR_ID
CEPH_EVICTOR_KEYRING=$CEPH_EVICTOR_KEYRING
CEPH_ADMIN_KEYRING=$CEPH_ADMIN_KEYRING
CEPH_REPLICATED_POOL=$CEPH_REPLICATED_POOL
CEPH_EC_POOL=$CEPH_EC_POOL
ENV
}

wait_healthy() {
  poll 1 "${HCO_CEPH_WAIT:-180}" healthy && return 0
  log "cluster did not become healthy; status:"
  ceph_cli status >&2 || true
  ceph_cli health detail >&2 || true
  exit 1
}

if [ "${1:-}" = "--check" ]; then
  command -v ceph >/dev/null && healthy
  exit
fi

ensure_debs "${CEPH_PACKAGES[@]}"
ensure_address
if healthy; then
  log "reusing the healthy cluster in $CEPH_DIR"
else
  stop_leftovers
  log "creating a cluster in $CEPH_DIR"
  create_cluster
  wait_healthy
fi
write_evictor
write_env
cat "$CEPH_DIR/cluster.env"
