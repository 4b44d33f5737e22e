# shellcheck shell=bash disable=SC2034
# Settings of the local Rook (hack/rook/up.sh, down.sh, ceph.sh), also sourced by the
# demo and read by the end-to-end suite. Only variables.
#
# Rook runs in the local Kubernetes of hack/cluster: its operator from Rook's own Helm
# chart, and a one-node CephCluster of 1 mon, 1 mgr and 3 OSDs on loop devices backed
# by sparse files, on the host network at the node's address or on Multus networks
# (ROOK_NETWORK below).

# shellcheck source=../cluster/env.sh
source "$(dirname "${BASH_SOURCE[0]}")/../cluster/env.sh"

ROOK_DIR="${HCO_ROOK_DIR:-$HCO_CACHE/rook}"
ROOK_NAMESPACE=rook-ceph
ROOK_CLUSTER_NAME=rook-ceph
ROOK_RELEASE=rook-ceph
# Rook's chart as this cluster installs it: the release's chart with its library
# subchart in place and without the CSI operator's, which comes from a Helm repository
# this machine cannot reach and is switched off anyway.
ROOK_CHART_DIR="$ROOK_DIR/chart-$ROOK_VERSION"
# The CephCluster's dataDirHostPath: mon stores, keyrings and OSD directories.
ROOK_DATA_DIR="$ROOK_DIR/data"
# Sparse files behind the OSDs' loop devices: osd-0.img, osd-1.img, osd-2.img.
ROOK_OSD_DIR="$ROOK_DIR/osd"
ROOK_OSD_COUNT=3
# The node label Rook builds each host's CRUSH rack from (place_racks in up.sh).
ROOK_RACK_LABEL=topology.rook.io/rack
# Bluestore takes space from the file as data arrives and does not give it back; 8 GB
# each holds the suite's and the demo's data many times over.
ROOK_OSD_SIZE_GB="${HCO_ROOK_OSD_SIZE_GB:-8}"
# A client configuration for this host's Ceph tools, written by up.sh from what Rook
# publishes (the mon endpoints ConfigMap and the admin Secret); hack/rook/ceph.sh uses it.
ROOK_CONF_FILE="$ROOK_DIR/ceph.conf"
ROOK_ADMIN_KEYRING="$ROOK_DIR/ceph.client.admin.keyring"
# Where Ceph's daemons listen: "host", on their node's address; or "multus", Rook's
# Multus provider, with Ceph's public network on the local cluster's data network
# (every node's hco-data0) and its cluster network beside it on the same link. A
# CephCluster keeps the network it was made with: changing this needs
# hack/rook/down.sh first (up.sh says so).
ROOK_NETWORK="${HCO_ROOK_NETWORK:-host}"
# The NetworkAttachmentDefinitions of the multus network, in ROOK_NAMESPACE: macvlan on
# the nodes' data link, addresses from whereabouts. The public range is the local
# cluster's Settings.CephPublicCIDR (internal/localcluster), whose first 32 addresses
# are the nodes' own interfaces on it (hco-pub0, Rook's host prerequisite).
ROOK_PUBLIC_NAD=ceph-public
ROOK_PUBLIC_CIDR=10.119.48.0/20
ROOK_PUBLIC_NODES=10.119.48.0/27
ROOK_CLUSTER_NAD=ceph-cluster
ROOK_CLUSTER_CIDR=10.119.64.0/20
ROOK_DATA_LINK=hco-data0
