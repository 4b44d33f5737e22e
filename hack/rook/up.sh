#!/usr/bin/env bash
# Brings up Rook in the local Kubernetes (hack/cluster/up.sh must have run): the Ceph
# image with the rook binary (hack/images/build.sh ceph), Rook's operator from Rook's own
# Helm chart, and a CephCluster of Ceph 18.2 across the cluster's nodes: on three nodes
# or more, 3 mons (one per node) and failure domain host; on fewer, 1 mon. 1 mgr and 3
# OSDs on loop devices backed by sparse files, dealt to the nodes in turn (one each on
# three nodes); everything on the host network at its node's address, or, with
# ROOK_NETWORK=multus (env.sh), Ceph's public and cluster networks on the nodes' data
# link through Rook's Multus provider. Waits until Ceph
# reports HEALTH_OK, then writes a client configuration for this host's Ceph tools
# (hack/rook/ceph.sh).
#
# Idempotent: on a healthy Rook it only checks, in a few seconds. hack/rook/down.sh
# removes what this made. Settings: hack/rook/env.sh; the chart's values
# hack/rook/values.yaml; the CephCluster hack/rook/cephcluster.yaml.
set -Eeuo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The CephCluster's progress, printed when it changes while up.sh waits.
LAST_STATE=""

require_cluster() {
	local ip
	ip="$(kubectl get node "$CLUSTER_NODE_NAME" -o jsonpath='{.status.addresses[?(@.type=="InternalIP")].address}' 2>/dev/null)" ||
		die "the local Kubernetes is not running: start it with hack/cluster/up.sh"
	[[ "$ip" == "$CLUSTER_NODE_IP" ]] ||
		die "node $CLUSTER_NODE_NAME has InternalIP '${ip:-none}', not $CLUSTER_NODE_IP: restart the local Kubernetes with hack/cluster/up.sh"
}

# read_nodes sets NODE_NAMES, NODE_LABELS (kubernetes.io/hostname, which Rook's storage
# spec matches) and NODE_IPS: the first node, then the workers by name.
read_nodes() {
	local name label ip first=() rest=()
	while read -r name label ip; do
		[[ -n "$name" ]] || continue
		if [[ "$name" == "$CLUSTER_NODE_NAME" ]]; then
			first=("$name $label $ip")
		else
			rest+=("$name $label $ip")
		fi
	done < <(kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.metadata.labels.kubernetes\.io/hostname}{" "}{.status.addresses[?(@.type=="InternalIP")].address}{"\n"}{end}' | sort)
	NODE_NAMES=() NODE_LABELS=() NODE_IPS=()
	for line in "${first[@]}" "${rest[@]}"; do
		read -r name label ip <<<"$line"
		NODE_NAMES+=("$name") NODE_LABELS+=("$label") NODE_IPS+=("$ip")
	done
	((${#NODE_NAMES[@]} > 0)) || die "the local Kubernetes has no nodes"
}

# place_racks puts the nodes in racks, as a data centre's nodes are, before Rook builds
# CRUSH from their labels: the first half (rounded up, the first node among them) in
# rack.a, the rest in rack.b. On three nodes one worker shares the first node's rack and
# the other has one of its own, so that a map can be node-local, rack-local or
# off-rack. The dot is there on purpose: Rook's CRUSH names and the operator's YARN
# racks both make it a dash (rack-a). A label already there is left alone: racks
# change under Rook only with its OSDs re-made (docs/storage.md).
place_racks() {
	local i rack current n=${#NODE_NAMES[@]}
	for ((i = 0; i < n; i++)); do
		current="$(kubectl get node "${NODE_NAMES[$i]}" -o jsonpath="{.metadata.labels.${ROOK_RACK_LABEL//./\\.}}")"
		[[ -z "$current" ]] || continue
		rack=rack.b
		((i < (n + 1) / 2)) && rack=rack.a
		kubectl label node "${NODE_NAMES[$i]}" "$ROOK_RACK_LABEL=$rack" >/dev/null
	done
}

# forget_stale_state removes OSD files and a data directory left by a Rook whose
# Kubernetes objects are gone (hack/cluster/down.sh without hack/rook/down.sh): a new
# CephCluster would find OSDs of another cluster on the devices and refuse them.
forget_stale_state() {
	if kubectl -n "$ROOK_NAMESPACE" get cephcluster "$ROOK_CLUSTER_NAME" >/dev/null 2>&1; then
		return 0
	fi
	if [[ -d "$ROOK_OSD_DIR" || -d "$ROOK_DATA_DIR" ]]; then
		log "removing the OSD files and data of a Rook whose CephCluster is gone"
		remove_host_state
	fi
}

images() {
	local sock
	"$ROOT/hack/images/build.sh" ceph
	while read -r sock; do
		CONTAINERD_ADDRESS="$sock" CONTAINERD_SNAPSHOTTER=overlayfs "$ROOT/hack/images/import.sh" ceph
	done < <(node_sockets)
}

# free_gb DIR prints the free space of DIR's file system in whole GB.
free_gb() { df -BG --output=avail "$1" | tail -1 | tr -dc 0-9; }

# loop_devices attaches one loop device per OSD file, creating the sparse files on the
# first run, and sets OSD_DEVICES to the devices' names (loop7 ...), in file order.
loop_devices() {
	local i file dev missing=0
	mkdir -p "$ROOK_OSD_DIR"
	for ((i = 0; i < ROOK_OSD_COUNT; i++)); do
		[[ -f "$ROOK_OSD_DIR/osd-$i.img" ]] || missing=$((missing + 1))
	done
	if ((missing > 0)) && (($(free_gb "$ROOK_OSD_DIR") < missing * ROOK_OSD_SIZE_GB + 4)); then
		die "the OSD files may grow to ${ROOK_OSD_SIZE_GB} GB each and $ROOK_OSD_DIR has $(free_gb "$ROOK_OSD_DIR") GB free: free some space or set HCO_ROOK_OSD_SIZE_GB"
	fi
	OSD_DEVICES=()
	for ((i = 0; i < ROOK_OSD_COUNT; i++)); do
		file="$ROOK_OSD_DIR/osd-$i.img"
		[[ -f "$file" ]] || truncate -s "${ROOK_OSD_SIZE_GB}G" "$file"
		dev="$(losetup -j "$file" -O NAME -n | head -1)"
		if [[ -z "$dev" ]]; then
			dev="$(losetup --find --show "$file")"
			log "attached $file as $dev"
		fi
		OSD_DEVICES+=("${dev#/dev/}")
	done
}

install_operator() {
	local helm
	helm="$(helm_binary)"
	prepare_chart
	log "installing Rook's operator $ROOK_VERSION with its Helm chart"
	"$helm" upgrade --install "$ROOK_RELEASE" "$ROOK_CHART_DIR" --kubeconfig "$KUBECONFIG" \
		--namespace "$ROOK_NAMESPACE" --create-namespace \
		--values "$ROOK_SCRIPTS_DIR/values.yaml" \
		--set image.repository="${CEPH_IMAGE%:*}" --set image.tag="${CEPH_IMAGE##*:}" \
		--set enforceHostNetwork="$([[ "$ROOK_NETWORK" == multus ]] && echo false || echo true)" \
		--wait --timeout 5m >/dev/null
}

# osds_of_node I prints the indexes (into OSD_DEVICES) of node I's OSDs: the devices
# are dealt to the nodes in turn.
osds_of_node() {
	local j
	for ((j = $1; j < ROOK_OSD_COUNT; j += ${#NODE_NAMES[@]})); do
		echo "$j"
	done
}

# manifest NODE_INDEX... prints the CephCluster and the pool of Ceph's mgr with this
# cluster's nodes, image and data directory filled in, and OSDs on the given nodes.
manifest() {
	local nodes="" networks="" i j n=${#NODE_NAMES[@]} mons=1 multiple=true domain=osd
	for i in "$@"; do
		nodes+="- name: \"${NODE_LABELS[i]}\""$'\n'"  devices:"$'\n'
		for j in $(osds_of_node "$i"); do
			nodes+="    - name: ${OSD_DEVICES[j]}"$'\n'
		done
	done
	if [[ "$ROOK_NETWORK" == multus ]]; then
		networks="provider: multus"$'\n'"selectors:"$'\n'
		networks+="  public: $ROOK_NAMESPACE/$ROOK_PUBLIC_NAD"$'\n'"  cluster: $ROOK_NAMESPACE/$ROOK_CLUSTER_NAD"$'\n'
		# Given, so that Rook runs no canary pods to find the ranges out.
		networks+="addressRanges:"$'\n'"  public:"$'\n'"    - \"$ROOK_PUBLIC_CIDR\""$'\n'
		networks+="  cluster:"$'\n'"    - \"$ROOK_CLUSTER_CIDR\""$'\n'
	else
		networks="provider: host"$'\n'"addressRanges:"$'\n'"  public:"$'\n'
		for i in "${!NODE_IPS[@]}"; do
			networks+="    - \"${NODE_IPS[i]%.*}.0/$CLUSTER_NODE_PREFIX\""$'\n'
		done
	fi
	if ((n >= 3)); then
		mons=3 multiple=false domain=host
	fi
	NODES_BLOCK="$nodes" NETWORKS_BLOCK="$networks" awk -v image="$CEPH_IMAGE" -v data="$ROOK_DATA_DIR" \
		-v ns="$ROOK_NAMESPACE" -v name="$ROOK_CLUSTER_NAME" -v mons="$mons" -v multiple="$multiple" -v domain="$domain" \
		-v classes="/usr/lib/$(uname -m)-linux-gnu/rados-classes" '
		function block(text,   indent, lines, k, m) {
			indent = $0; sub(/@.*/, "", indent)
			m = split(text, lines, "\n")
			for (k = 1; k <= m; k++) if (lines[k] != "") print indent lines[k]
		}
		{ gsub(/@CEPH_IMAGE@/, image); gsub(/@OSD_CLASS_DIR@/, classes); gsub(/@DATA_DIR@/, data)
		  gsub(/@NAMESPACE@/, ns); gsub(/@NAME@/, name); gsub(/@MON_COUNT@/, mons)
		  gsub(/@MON_MULTIPLE_PER_NODE@/, multiple); gsub(/@FAILURE_DOMAIN@/, domain) }
		/@NODES@/ { block(ENVIRON["NODES_BLOCK"]); next }
		/@NETWORK@/ { block(ENVIRON["NETWORKS_BLOCK"]); next }
		{ print }' "$ROOK_SCRIPTS_DIR/cephcluster.yaml"
}

# check_nodes compares the nodes the CephCluster was made on (ROOK_DIR/nodes) with the
# cluster's now. A Rook whose nodes are gone has lost their mons and OSDs, and cannot
# be repaired here: with --replace-if-nodes-changed it is removed, data and all
# (hack/rook/down.sh), and made again; without, up.sh stops and says so.
check_nodes() {
	local file="$ROOK_DIR/nodes" before now
	[[ -f "$file" ]] && kubectl -n "$ROOK_NAMESPACE" get cephcluster "$ROOK_CLUSTER_NAME" >/dev/null 2>&1 || return 0
	before="$(cat "$file")"
	now="${NODE_NAMES[*]}"
	[[ "$before" != "$now" ]] || return 0
	if [[ "$REPLACE_IF_NODES_CHANGED" != true ]]; then
		die "the local Rook was made on the nodes $before, and the cluster now has $now: its mons and OSDs on the other nodes are gone. hack/rook/down.sh removes it and its data; then run this again"
	fi
	log "the local Rook was made on the nodes $before, and the cluster now has $now: removing it and its data (hack/rook/down.sh) to make it again"
	flock -u 7
	"$ROOK_SCRIPTS_DIR/down.sh"
	take_rook_lock
}

apply_manifest() {
	kubectl apply --server-side --force-conflicts --field-manager=hack-rook -f - <<<"$1" >/dev/null
}

# osd_deployments prints how many OSD Deployments Rook has made.
osd_deployments() {
	kubectl -n "$ROOK_NAMESPACE" get deployments -l app=rook-ceph-osd -o name 2>/dev/null | grep -c . || true
}

osd_deployments_at_least() { (($(osd_deployments) >= $1)); }

# apply_cluster applies the CephCluster with every node's OSDs. What it applied is kept
# in ROOK_DIR, and the same manifest is not applied again: Rook writes defaults into
# the CephCluster's spec, and every change to it runs Rook's whole orchestration again,
# OSD preparation and rolling restarts included.
#
# A new cluster of several nodes gets its OSDs one node at a time. The nodes share the
# host's /dev, and Rook's OSD preparation on a node reports every OSD of the cluster it
# finds on any device there; Rook then makes a Deployment, on that node, for each
# reported OSD that has none yet. So nodes prepared together take each other's new
# OSDs. Prepared one by one, every OSD already has its Deployment, on its own node,
# when another node reports it, and Rook leaves a node's OSDs where they are while the
# storage spec leaves the node out.
apply_cluster() {
	local applied="$ROOK_DIR/cephcluster.applied.yaml" final all=() i want=0
	mkdir -p "$ROOK_DATA_DIR"
	for i in "${!NODE_NAMES[@]}"; do
		all+=("$i")
	done
	final="$(manifest "${all[@]}")"
	if [[ -f "$applied" ]] && [[ "$(cat "$applied")" == "$final" ]] &&
		kubectl -n "$ROOK_NAMESPACE" get cephcluster "$ROOK_CLUSTER_NAME" >/dev/null 2>&1; then
		return 0
	fi
	if ((${#NODE_NAMES[@]} > 1)) && (($(osd_deployments) == 0)); then
		for i in "${all[@]}"; do
			want=$((want + $(osds_of_node "$i" | grep -c .)))
			log "OSDs of node ${NODE_NAMES[i]} alone (up to $want OSD Deployments in all)"
			apply_manifest "$(manifest "$i")"
			poll 5 900 osd_deployments_at_least "$want" ||
				die "timed out after 900s waiting for Rook to make the OSDs of node ${NODE_NAMES[i]} (kubectl -n $ROOK_NAMESPACE get pods)"
		done
	fi
	apply_manifest "$final"
	printf '%s\n' "$final" >"$applied"
	printf '%s\n' "${NODE_NAMES[*]}" >"$ROOK_DIR/nodes"
}

# check_network stops when the CephCluster was made with another ROOK_NETWORK: Rook
# does not move a cluster's daemons to another network.
check_network() {
	local file="$ROOK_DIR/network" before
	if ! kubectl -n "$ROOK_NAMESPACE" get cephcluster "$ROOK_CLUSTER_NAME" >/dev/null 2>&1; then
		mkdir -p "$ROOK_DIR"
		printf '%s\n' "$ROOK_NETWORK" >"$file"
		return 0
	fi
	before="$(cat "$file" 2>/dev/null || echo host)"
	[[ "$before" == "$ROOK_NETWORK" ]] ||
		die "the local Rook was made with ROOK_NETWORK=$before, and this asks for $ROOK_NETWORK: Rook does not move a cluster to another network. hack/rook/down.sh removes it and its data; then run this again"
}

# nad NAME RANGE EXCLUDE prints a NetworkAttachmentDefinition in ROOK_NAMESPACE of a
# macvlan network on the nodes' data link, addresses from RANGE but EXCLUDE (none for
# "") by whereabouts, and no gateway: the pods keep their default route on the pod
# network, where the mons' Services are.
nad() {
	local exclude=""
	[[ -z "$3" ]] || exclude=",\"exclude\":[\"$3\"]"
	cat <<-EOF
		apiVersion: k8s.cni.cncf.io/v1
		kind: NetworkAttachmentDefinition
		metadata:
		  name: $1
		  namespace: $ROOK_NAMESPACE
		spec:
		  config: '{"cniVersion":"0.3.1","name":"$1","type":"macvlan","master":"$ROOK_DATA_LINK","mode":"bridge","ipam":{"type":"whereabouts","range":"$2"$exclude}}'
	EOF
}

# apply_networks makes the multus network's NetworkAttachmentDefinitions: Ceph's public
# network apart from the addresses the nodes keep for their own interfaces on it, and
# the cluster network.
apply_networks() {
	[[ "$ROOK_NETWORK" == multus ]] || return 0
	kubectl get crd network-attachment-definitions.k8s.cni.cncf.io >/dev/null 2>&1 ||
		die "ROOK_NETWORK=multus needs Multus in the local Kubernetes (hack/cluster/up.sh installs it)"
	apply_manifest "$(nad "$ROOK_PUBLIC_NAD" "$ROOK_PUBLIC_CIDR" "$ROOK_PUBLIC_NODES")"
	apply_manifest "$(nad "$ROOK_CLUSTER_NAD" "$ROOK_CLUSTER_CIDR" "")"
}

# cluster_state prints the CephCluster's phase, health and message on one line.
cluster_state() {
	kubectl -n "$ROOK_NAMESPACE" get cephcluster "$ROOK_CLUSTER_NAME" \
		-o jsonpath='{.status.phase} {.status.ceph.health} {.status.message}' 2>/dev/null
}

cluster_healthy() {
	local state
	state="$(cluster_state)"
	if [[ "$state" != "$LAST_STATE" ]]; then
		log "CephCluster: ${state:-no status yet}"
		LAST_STATE="$state"
	fi
	[[ "$state" == "Ready HEALTH_OK"* ]] || return 1
	write_client_config && ceph_healthy
}

# ceph_healthy asks Ceph itself, as the operator's view lags by up to a minute: every
# OSD up and in, every placement group active+clean.
ceph_healthy() {
	local status
	status="$(rook_ceph status --format json 2>/dev/null)" || return 1
	jq -e --argjson osds "$ROOK_OSD_COUNT" '
		.health.status == "HEALTH_OK" and .osdmap.num_up_osds == $osds and .osdmap.num_in_osds == $osds
		and ([.pgmap.pgs_by_state[] | select(.state_name != "active+clean")] | length) == 0' <<<"$status" >/dev/null
}

# write_client_config writes ceph.conf and the admin keyring for this host's tools from
# what Rook publishes; the monitors can move, so it runs on every up.
write_client_config() {
	local endpoints mon_host key
	endpoints="$(kubectl -n "$ROOK_NAMESPACE" get configmap rook-ceph-mon-endpoints -o jsonpath='{.data.data}' 2>/dev/null)" || return 1
	key="$(kubectl -n "$ROOK_NAMESPACE" get secret rook-ceph-mon -o jsonpath='{.data.ceph-secret}' 2>/dev/null | base64 -d)" || return 1
	[[ -n "$endpoints" && -n "$key" ]] || return 1
	# "a=10.118.0.1:6789,b=..." -> "10.118.0.1:6789,..."
	mon_host="$(tr ',' '\n' <<<"$endpoints" | sed 's/^[^=]*=//' | paste -sd, -)"
	mkdir -p "$ROOK_DIR"
	write_file "$ROOK_CONF_FILE" <<-EOF || true
		[global]
		mon_host = $mon_host
	EOF
	write_file "$ROOK_ADMIN_KEYRING" 0600 <<-EOF || true
		[client.admin]
		key = $key
	EOF
}

REPLACE_IF_NODES_CHANGED=false
case "${1:-}" in
--replace-if-nodes-changed) REPLACE_IF_NODES_CHANGED=true ;;
"") ;;
*) die "usage: $0 [--replace-if-nodes-changed]" ;;
esac

require_root
take_rook_lock
started_at=$SECONDS
ensure_debs jq util-linux ceph-common
require_cluster
read_nodes
check_nodes
check_network
place_racks
images
install_operator
forget_stale_state
loop_devices
apply_networks
apply_cluster
log "waiting for Ceph to report HEALTH_OK with ${ROOK_OSD_COUNT} OSDs (${OSD_DEVICES[*]}) on ${#NODE_NAMES[@]} node(s); a first start takes about 5 minutes on one node"
# cluster_healthy logs each state the CephCluster passes through, so this wait is not quiet.
poll 5 1200 cluster_healthy ||
	die "timed out after 1200s waiting for the CephCluster $ROOK_NAMESPACE/$ROOK_CLUSTER_NAME to be healthy (kubectl -n $ROOK_NAMESPACE get pods; kubectl -n $ROOK_NAMESPACE logs deploy/rook-ceph-operator)"
log "Rook is up in $((SECONDS - started_at))s: Ceph $(rook_ceph version | awk '{ print $3 }') at $(sed -n 's/^mon_host = //p' "$ROOK_CONF_FILE"); hack/rook/ceph.sh runs ceph against it"
