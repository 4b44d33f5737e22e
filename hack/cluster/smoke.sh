#!/usr/bin/env bash
# Checks that a running local cluster (hack/cluster/up.sh) does what the end-to-end
# tests and the demo rely on, in a namespace of its own that it deletes afterwards
# (or leaves for a look when a check failed):
#   - a hostNetwork pod of the pause image runs;
#   - a pod without hostNetwork gets an address from the CNI bridge;
#   - from a hostNetwork pod with dnsPolicy ClusterFirstWithHostNet, <service>.<ns>.svc
#     resolves to 127.0.0.1 and reaches a server another hostNetwork pod runs there;
#   - the ServiceAccount token and CA are mounted and the token authenticates;
#   - a Job runs to completion and its termination message is readable from status;
#   - hack/cluster/logs.sh prints a container's log, and so do kubectl logs and exec
#     when the host name resolves to a loopback address.
# The test image is busybox from Debian's busybox-static, built without a container
# engine (umoci) and imported into the node's containerd.
set -Eeuo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=../images/images.env
source "$ROOT/hack/images/images.env"

NS=hco-smoke
# A port the hostNetwork web server binds on 127.0.0.1.
WEB_PORT="${HCO_SMOKE_PORT:-31880}"
IMAGE_ARCHIVE="$CLUSTER_DIR/images/busybox.tar"

ok() { printf 'ok   %s\n' "$*"; }
fail() {
	printf 'FAIL %s\n' "$*"
	log "namespace $NS is left for a look; hack/cluster/logs.sh $NS POD prints a pod's log"
	exit 1
}

# build_image writes an OCI archive of busybox (one layer: the binary and a link per
# applet) named $BUSYBOX_IMAGE, unless the archive of this busybox build exists.
build_image() {
	local version tmp layout ref
	ensure_debs busybox-static umoci jq
	version="$(dpkg-query -W -f='${Version}' busybox-static | tr -c 'A-Za-z0-9.\n-' '_')"
	BUSYBOX_IMAGE="localhost/hco-smoke-busybox:$version"
	[[ -f "$IMAGE_ARCHIVE" && "$(cat "$IMAGE_ARCHIVE.ref" 2>/dev/null)" == "$BUSYBOX_IMAGE" ]] && return 0
	log "building $BUSYBOX_IMAGE"
	tmp="$(mktemp -d "$HCO_CACHE/tmp-smoke-image.XXXXXX")"
	mkdir -p "$tmp/rootfs/bin" "$tmp/rootfs/tmp" "$(dirname "$IMAGE_ARCHIVE")"
	chmod 1777 "$tmp/rootfs/tmp"
	cp /bin/busybox "$tmp/rootfs/bin/busybox"
	/bin/busybox --list | while read -r applet; do
		[[ "$applet" == busybox ]] || ln -s busybox "$tmp/rootfs/bin/$applet"
	done
	layout="$tmp/layout" ref="$BUSYBOX_IMAGE"
	umoci init --layout "$layout"
	umoci new --image "$layout:smoke"
	umoci insert --image "$layout:smoke" "$tmp/rootfs" / >/dev/null
	umoci config --image "$layout:smoke" --os linux --architecture "$(dpkg --print-architecture)" \
		--config.env PATH=/bin --config.cmd sh
	umoci gc --layout "$layout"
	# containerd's importer names the image after this annotation.
	jq --arg ref "$ref" '.manifests[0].annotations["io.containerd.image.name"] = $ref' \
		"$layout/index.json" >"$layout/index.json.new"
	mv "$layout/index.json.new" "$layout/index.json"
	tar -C "$layout" -cf "$IMAGE_ARCHIVE" oci-layout index.json blobs
	echo "$ref" >"$IMAGE_ARCHIVE.ref"
	rm -rf "$tmp"
}

import_image() {
	ctr images ls -q | grep -qxF "$BUSYBOX_IMAGE" && return 0
	ctr images import --platform "linux/$(dpkg --print-architecture)" "$IMAGE_ARCHIVE" >/dev/null
	ctr images ls -q | grep -qxF "$BUSYBOX_IMAGE" || die "importing $IMAGE_ARCHIVE did not give $BUSYBOX_IMAGE"
}

apply_pods() {
	kubectl apply -f - >/dev/null <<-EOF
		apiVersion: v1
		kind: Namespace
		metadata:
		  name: $NS
		---
		apiVersion: v1
		kind: Service
		metadata:
		  name: web
		  namespace: $NS
		spec:
		  selector:
		    app: web
		  ports:
		  - port: $WEB_PORT
		---
		apiVersion: v1
		kind: Pod
		metadata:
		  name: pause
		  namespace: $NS
		spec:
		  hostNetwork: true
		  containers:
		  - name: pause
		    image: $PAUSE_IMAGE
		    imagePullPolicy: Never
		---
		apiVersion: v1
		kind: Pod
		metadata:
		  name: bridged
		  namespace: $NS
		spec:
		  terminationGracePeriodSeconds: 1
		  containers:
		  - name: sleep
		    image: $BUSYBOX_IMAGE
		    imagePullPolicy: Never
		    command: [sleep, "3600"]
		---
		apiVersion: v1
		kind: Pod
		metadata:
		  name: web
		  namespace: $NS
		  labels:
		    app: web
		spec:
		  hostNetwork: true
		  terminationGracePeriodSeconds: 1
		  containers:
		  - name: httpd
		    image: $BUSYBOX_IMAGE
		    imagePullPolicy: Never
		    command: [sh, -c, 'mkdir -p /www && echo hello-from-web >/www/index.html && echo serving && exec httpd -f -v -p 127.0.0.1:$WEB_PORT -h /www']
		    readinessProbe:
		      exec:
		        command: [wget, -q, -O, /dev/null, "http://127.0.0.1:$WEB_PORT/"]
		      periodSeconds: 2
	EOF
}

# Created once the web server is Ready: the probe fetches from it.
apply_job() {
	kubectl apply -f - >/dev/null <<-EOF
		apiVersion: batch/v1
		kind: Job
		metadata:
		  name: probe
		  namespace: $NS
		spec:
		  backoffLimit: 0
		  template:
		    spec:
		      restartPolicy: Never
		      hostNetwork: true
		      dnsPolicy: ClusterFirstWithHostNet
		      containers:
		      - name: probe
		        image: $BUSYBOX_IMAGE
		        imagePullPolicy: Never
		        command:
		        - sh
		        - -ec
		        - |
		          sa=/var/run/secrets/kubernetes.io/serviceaccount
		          addr=\$(nslookup -type=A web.$NS.svc | awk '/^Address: / { a = \$2 } END { print a }')
		          body=\$(wget -q -O - http://web.$NS.svc:$WEB_PORT/)
		          test -s \$sa/ca.crt
		          echo "probe: resolved web.$NS.svc to \$addr"
		          printf 'dns=%s http=%s token=%s' "\$addr" "\$body" "\$(cat \$sa/token)" >/dev/termination-log
	EOF
}

pod_phase() { kubectl -n "$NS" get pod "$1" -o jsonpath='{.status.phase}'; }
pod_ready() { [[ "$(kubectl -n "$NS" get pod "$1" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" == True ]]; }

check() {
	local ip msg pod token whoami field
	pod_ready pause || wait_until 60 "pod $NS/pause to be Ready" pod_ready pause
	ok "hostNetwork pod of $PAUSE_IMAGE is Running"

	wait_until 60 "pod $NS/bridged to be Ready" pod_ready bridged
	ip="$(kubectl -n "$NS" get pod bridged -o jsonpath='{.status.podIP}')"
	[[ "$ip" == "${CLUSTER_POD_CIDR%.*}."* ]] || fail "pod without hostNetwork has address '$ip', not one of $CLUSTER_POD_CIDR"
	ok "pod without hostNetwork got $ip from the CNI bridge $CLUSTER_CNI_BRIDGE"

	wait_until 60 "pod $NS/web to be Ready" pod_ready web
	ok "hostNetwork web server on 127.0.0.1:$WEB_PORT is Ready (exec readiness probe)"

	apply_job

	wait_until 120 "job $NS/probe to finish" job_finished
	[[ "$(kubectl -n "$NS" get job probe -o jsonpath='{.status.succeeded}')" == 1 ]] || fail "job $NS/probe failed"
	ok "Job ran to completion"
	pod="$(kubectl -n "$NS" get pods -l job-name=probe -o jsonpath='{.items[0].metadata.name}')"
	msg="$(kubectl -n "$NS" get pod "$pod" -o jsonpath='{.status.containerStatuses[0].state.terminated.message}')"
	for field in $msg; do
		case "$field" in
		dns=*) [[ "${field#dns=}" == 127.0.0.1 ]] || fail "web.$NS.svc resolved to '${field#dns=}' in the pod" ;;
		http=*) [[ "${field#http=}" == hello-from-web ]] || fail "http://web.$NS.svc:$WEB_PORT/ answered '${field#http=}'" ;;
		token=*) token="${field#token=}" ;;
		esac
	done
	[[ "$msg" == *dns=* && "$msg" == *http=* && -n "${token:-}" ]] || fail "termination message incomplete: '${msg:0:200}'"
	ok "termination message read from status: web.$NS.svc resolved to 127.0.0.1 (ClusterFirstWithHostNet) and its server answered"
	whoami="$("$K8S_BIN_DIR/kubectl" --kubeconfig=/dev/null --server="$CLUSTER_API_SERVER" \
		--certificate-authority="$CLUSTER_PKI_DIR/ca.crt" --token="$token" auth whoami -o jsonpath='{.status.userInfo.username}')"
	[[ "$whoami" == "system:serviceaccount:$NS:default" ]] || fail "the mounted token authenticates as '$whoami'"
	ok "mounted ServiceAccount token authenticates as $whoami"

	hack_logs="$("$CLUSTER_SCRIPTS_DIR/logs.sh" "$NS" "$pod")"
	[[ "$hack_logs" == "probe: resolved web.$NS.svc to 127.0.0.1" ]] || fail "logs.sh printed '$hack_logs'"
	ok "hack/cluster/logs.sh $NS $pod: $hack_logs"

	if [[ "$(getent ahostsv4 "$CLUSTER_NODE_NAME" | awk 'NR == 1 { print $1 }')" == 127.* ]]; then
		[[ "$(kubectl -n "$NS" logs web)" == serving* ]] || fail "kubectl logs web printed '$(kubectl -n "$NS" logs web 2>&1)'"
		ok "kubectl logs works (the API server reaches the kubelet at the node's host name)"
		[[ "$(kubectl -n "$NS" exec web -- cat /www/index.html)" == hello-from-web ]] || fail "kubectl exec failed"
		ok "kubectl exec works"
	fi
}

job_finished() {
	local s
	s="$(kubectl -n "$NS" get job probe -o jsonpath='{.status.succeeded}{.status.failed}')"
	[[ -n "$s" && "$s" != 0 ]]
}

require_root
if [[ ! -f "$KUBECONFIG" ]] || ! kubectl get --raw /readyz >/dev/null 2>&1; then
	die "the local cluster is not up (hack/cluster/up.sh)"
fi
started_at=$SECONDS
if listening_port="$(ss -Hlnt "( sport = :$WEB_PORT )")" && [[ -n "$listening_port" ]]; then
	die "port $WEB_PORT is taken on this host; set HCO_SMOKE_PORT to a free one"
fi
build_image
import_image
if kubectl get namespace "$NS" >/dev/null 2>&1; then
	log "deleting namespace $NS left by an earlier run"
	kubectl delete namespace "$NS" --wait --timeout=120s >/dev/null
fi
apply_pods
check
kubectl delete namespace "$NS" --wait --timeout=120s >/dev/null
ok "namespace $NS deleted"
log "all checks passed in $((SECONDS - started_at))s"
