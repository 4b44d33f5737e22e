# shellcheck shell=bash
# Shared settings of the local single-host Ceph (sourced by up.sh, down.sh and the
# connector scripts). Everything lives outside the repository so a fresh clone and a
# warm machine behave the same.
# log, die and poll for the scripts that source this file and for ceph_settle.
# shellcheck source=../log.sh
source "$(dirname "${BASH_SOURCE[0]}")/../log.sh"
HCO_CACHE="${HCO_CACHE:-$HOME/.cache/hadoop-ceph-operator}"
CEPH_DIR="${HCO_CEPH_DIR:-$HCO_CACHE/ceph}"
CEPH_CONF_FILE="$CEPH_DIR/ceph.conf"
CEPH_ADMIN_KEYRING="$CEPH_DIR/ceph.client.admin.keyring"
CEPH_CLIENT_ID="${HCO_CEPH_CLIENT:-hadoop}"
CEPH_CLIENT_KEYRING="$CEPH_DIR/ceph.client.$CEPH_CLIENT_ID.keyring"
CEPH_EVICTOR_ID="$CEPH_CLIENT_ID-evictor"
CEPH_EVICTOR_KEYRING="$CEPH_DIR/ceph.client.$CEPH_EVICTOR_ID.keyring"
CEPH_FS_NAME="${HCO_CEPH_FS:-cephfs}"
CEPH_REPLICATED_POOL="cephfs_data"
CEPH_EC_POOL="cephfs_data_ec"
CEPH_METADATA_POOL="cephfs_metadata"
# Non-default monitor ports so a host that already runs a Ceph keeps working.
CEPH_MON_V2_PORT="${HCO_CEPH_MON_V2_PORT:-13300}"
CEPH_MON_V1_PORT="${HCO_CEPH_MON_V1_PORT:-16789}"
# Every daemon listens on CEPH_ADDR: not on 127.0.0.1, which is every node's own, but
# on an address inside the local Kubernetes's node network (hack/cluster/env.sh's
# CLUSTER_NODES_CIDR, which every node routes to this host), so that pods on every node
# reach it as they reach an external Ceph on a storage network. The address sits on
# the host's loopback interface under the label CEPH_ADDR_LABEL (kernels in
# containers often lack the dummy link type), so it exists without the local
# Kubernetes, for the connector tests.
CEPH_ADDR_LABEL=lo:hco-ceph
CEPH_ADDR="${HCO_CEPH_ADDR:-10.118.255.1}"
CEPH_MON_HOST="[v2:$CEPH_ADDR:$CEPH_MON_V2_PORT,v1:$CEPH_ADDR:$CEPH_MON_V1_PORT]"
# The monitor's v1 address, the form StorageBackends and Hadoop's settings take.
CEPH_MONITOR="$CEPH_ADDR:$CEPH_MON_V1_PORT"
CEPH_OSD_COUNT=3
# Each OSD's block file is sparse, but bluestore on a file never gives freed space back
# to the host's disk: over a cluster's life each file grows toward this size. 12 GB
# each holds every test and benchmark's data with room to spare (36 GB at most).
CEPH_OSD_SIZE_GB="${HCO_CEPH_OSD_SIZE_GB:-12}"
CEPH_PACKAGES=(ceph-mon ceph-mgr ceph-osd ceph-mds ceph-common libcephfs-java libcephfs-jni uuid-runtime python3)

ceph_cli() {
  timeout 20 ceph --conf "$CEPH_CONF_FILE" --name client.admin --keyring "$CEPH_ADMIN_KEYRING" "$@"
}

# Daemons of this cluster are recognised by the configuration path on their command
# line, so processes of any other Ceph on the host are never touched.
ceph_cluster_pids() {
  local pid cmd
  for pid in /proc/[0-9]*; do
    pid="${pid#/proc/}"
    cmd="$( { tr '\0' ' ' < "/proc/$pid/cmdline"; } 2>/dev/null)" || continue
    case "$cmd" in
      ceph-mon\ *"$CEPH_CONF_FILE"*|ceph-mgr\ *"$CEPH_CONF_FILE"*|ceph-osd\ *"$CEPH_CONF_FILE"*|ceph-mds\ *"$CEPH_CONF_FILE"*|/usr/bin/ceph-*"$CEPH_CONF_FILE"*)
        echo "$pid" ;;
    esac
  done
}

# The sum of counters of one section of the MDS's (rank 0) perf dump.
ceph_mds_counter() {
  ceph_cli tell "mds.$CEPH_FS_NAME:0" perf dump "$1" 2>/dev/null | python3 -c '
import json, sys
section, names = sys.argv[1], sys.argv[2:]
d = json.load(sys.stdin)[section]
print(sum(d[n] for n in names))' "$@"
}

# Waits for a settled machine before a measurement: dirty pages of the previous one
# (local mode on file:// leaves a GB or more for the kernel to write back) are on disk,
# and Ceph has purged the objects of files deleted before (the MDS does that in the
# background). Otherwise that work lands on whichever measurement runs next. Deleted
# files wait as strays until the MDS queues them for purging; strays it cannot purge yet
# (still open somewhere, or left by an earlier run) are not work for this machine now,
# so the wait is for the strays being queued and the purge queue, not for no strays.
ceph_settle() {
  sync
  sleep 1
  poll 1 120 ceph_purged || true
  sleep 5
}
ceph_purged() {
  [ "$(ceph_mds_counter mds_cache num_strays_enqueuing)" = 0 ] &&
    [ "$(ceph_mds_counter purge_queue pq_executing pq_item_in_journal)" = 0 ]
}

# Debian's libcephfs-java (16.2.x) is the binding the connector targets; Maven Central
# only has a 2014 build, so the Debian jar goes into the local Maven repository.
# Prints the installed version.
hco_install_libcephfs_jar() {
  local jar version target
  jar="$(readlink -f /usr/share/java/libcephfs.jar)"
  version="$(basename "$jar" .jar)"
  version="${version#libcephfs-}"
  target="${MAVEN_REPO:-$HOME/.m2/repository}/com/ceph/libcephfs/$version/libcephfs-$version.jar"
  if [ ! -f "$target" ] || ! cmp -s "$jar" "$target"; then
    echo "installing $jar into the local Maven repository as com.ceph:libcephfs:$version" >&2
    mvn -B -q -ntp install:install-file -Dfile="$jar" -DgroupId=com.ceph -DartifactId=libcephfs \
      -Dversion="$version" -Dpackaging=jar >/dev/null
  fi
  echo "$version"
}
