# shellcheck shell=bash
# Helpers of hack/rook/*.sh. Sourced, not executed.

ROOK_SCRIPTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# kubectl, log, die, write_file, ensure_debs and the cluster's settings.
# shellcheck source=../cluster/lib.sh
source "$ROOK_SCRIPTS_DIR/../cluster/lib.sh"
# shellcheck source=env.sh
source "$ROOK_SCRIPTS_DIR/env.sh"
# shellcheck source=../images/images.env
source "$ROOT/hack/images/images.env"
HCO_LOG_NAME="rook-$(basename "$0" .sh)"

# Up and down would trip over each other's half-done work.
take_rook_lock() {
	mkdir -p "$HCO_CACHE"
	exec 7>"$HCO_CACHE/.rook.lock"
	if ! flock -n 7; then
		log "waiting for another hack/rook script to finish (lock $HCO_CACHE/.rook.lock)"
		flock 7
	fi
}

# rook_ceph runs this host's ceph command against the local Rook's cluster as its admin.
rook_ceph() {
	timeout 30 ceph --conf "$ROOK_CONF_FILE" --name client.admin --keyring "$ROOK_ADMIN_KEYRING" "$@"
}

# helm_binary prints the pinned Helm's path, building it first if needed; HELM wins.
helm_binary() {
	if [[ -n "${HELM:-}" ]]; then
		echo "$HELM"
		return
	fi
	local helm="$HCO_CACHE/bin/helm-$HELM_VERSION"
	[[ -x "$helm" ]] || "$ROOT/hack/tools/install.sh" helm >&2
	echo "$helm"
}

# prepare_chart copies Rook's chart of ROOK_VERSION from the Go module cache (the rook
# module's zip carries deploy/charts) to ROOK_CHART_DIR: its library subchart goes into
# charts/, where Helm looks for dependencies, and the ceph-csi-operator dependency is
# dropped. That subchart is only fetched from a Helm repository this machine does not
# reach, and it is off here (csi.rookUseCsiOperator: false), but Helm refuses a chart
# whose listed dependencies are missing. Nothing else of the chart changes.
prepare_chart() {
	[[ -f "$ROOK_CHART_DIR/.complete" ]] && return 0
	local src tmp
	mkdir -p "$ROOK_DIR"
	src="$(cd "$ROOT" && go mod download -json "github.com/rook/rook@$ROOK_VERSION" | jq -r .Dir)/deploy/charts"
	[[ -f "$src/rook-ceph/Chart.yaml" && -f "$src/library/Chart.yaml" ]] ||
		die "no deploy/charts/rook-ceph and library in github.com/rook/rook@$ROOK_VERSION"
	tmp="$(mktemp -d "$ROOK_DIR/chart.XXXXXX")"
	cp -R "$src/rook-ceph/." "$tmp/"
	mkdir -p "$tmp/charts"
	cp -R "$src/library" "$tmp/charts/library"
	chmod -R u+w "$tmp"
	# The dependency list ends the file: keep it up to the entry of ceph-csi-operator.
	awk '/^  - name: ceph-csi-operator$/ { skip = 1 } /^  - name: / && !/ceph-csi-operator/ { skip = 0 }
		/^[^ -]/ { skip = 0 } !skip' "$src/rook-ceph/Chart.yaml" |
		sed "s/^version: .*/version: ${ROOK_VERSION#v}/; s/^appVersion: .*/appVersion: $ROOK_VERSION/" >"$tmp/Chart.yaml"
	grep -q "ceph-csi-operator" "$tmp/Chart.yaml" && die "could not drop ceph-csi-operator from $tmp/Chart.yaml"
	"$(helm_binary)" dependency list "$tmp" | awk 'NR > 1 && NF && $NF != "ok" && $NF != "unpacked" { bad = 1 } END { exit bad }' ||
		die "Rook's chart in $tmp has unmet dependencies: $("$(helm_binary)" dependency list "$tmp")"
	touch "$tmp/.complete"
	rm -rf "$ROOK_CHART_DIR"
	mv "$tmp" "$ROOK_CHART_DIR"
}

# remove_host_state detaches the OSDs' loop devices and removes their files, the
# CephCluster's data directory and the client configuration: the local Rook's Ceph
# data, all of it.
remove_host_state() {
	local file dev
	for file in "$ROOK_OSD_DIR"/osd-*.img; do
		[[ -f "$file" ]] || continue
		for dev in $(losetup -j "$file" -O NAME -n); do
			log "detaching $dev ($file)"
			losetup -d "$dev"
		done
	done
	rm -rf "$ROOK_OSD_DIR" "$ROOK_DATA_DIR" "$ROOK_CONF_FILE" "$ROOK_ADMIN_KEYRING" "$ROOK_DIR/cephcluster.applied.yaml" "$ROOK_DIR/nodes" "$ROOK_DIR/network"
}
