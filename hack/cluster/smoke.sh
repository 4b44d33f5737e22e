#!/usr/bin/env bash
# Checks that a running local cluster (hack/cluster/up.sh) does what the end-to-end
# tests and the demo rely on, in a namespace of its own that it deletes afterwards
# (or leaves for a look when a check failed):
#   - a hostNetwork pod of the pause image runs;
#   - a pod without hostNetwork gets an address from the CNI bridge;
#   - the cluster DNS answers a name outside the cluster NXDOMAIN at once;
#   - from a hostNetwork pod with dnsPolicy ClusterFirstWithHostNet: <service>.<ns>.svc
#     resolves to the Service's ClusterIP and reaches, through kube-proxy, a server
#     another hostNetwork pod runs on the node's address; a StatefulSet pod's name
#     <pod>.<headless service>.<ns>.svc.cluster.local resolves to its pod IP, and a
#     ClusterIP Service backed by that pod answers by name;
#   - from a pod on the pod network: the same three names resolve and answer;
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
# A port the hostNetwork web server binds on the node's address.
WEB_PORT="${HCO_SMOKE_PORT:-31880}"
# The StatefulSet's pod on the pod network, its headless Service's name for it, and the
# port it serves on (its ClusterIP Service "echo" forwards port 80 there).
ECHO_POD=echo-0
ECHO_FQDN="$ECHO_POD.echo-headless.$NS.svc.$CLUSTER_DOMAIN"
ECHO_PORT=8080
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

# grep reads the whole list: with -q it would stop at the match, and ctr, cut short,
# fail the pipeline.
# Into every node's containerd.
import_image() {
	local sock
	while read -r sock; do
		CONTAINERD_SOCKET="$sock" import_into
	done < <(node_sockets)
}

import_into() {
	ctr images ls -q | grep -xF "$BUSYBOX_IMAGE" >/dev/null && return 0
	ctr images import --platform "linux/$(dpkg --print-architecture)" "$IMAGE_ARCHIVE" >/dev/null
	ctr images ls -q | grep -xF "$BUSYBOX_IMAGE" >/dev/null || die "importing $IMAGE_ARCHIVE into $CONTAINERD_SOCKET did not give $BUSYBOX_IMAGE"
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
		    command: [sh, -c, 'mkdir -p /www && echo hello-from-web >/www/index.html && echo serving && exec httpd -f -v -p $CLUSTER_NODE_IP:$WEB_PORT -h /www']
		    readinessProbe:
		      exec:
		        command: [wget, -q, -O, /dev/null, "http://$CLUSTER_NODE_IP:$WEB_PORT/"]
		      periodSeconds: 2
		---
		apiVersion: v1
		kind: Service
		metadata:
		  name: echo-headless
		  namespace: $NS
		spec:
		  clusterIP: None
		  selector:
		    app: echo
		  ports:
		  - port: $ECHO_PORT
		---
		apiVersion: v1
		kind: Service
		metadata:
		  name: echo
		  namespace: $NS
		spec:
		  selector:
		    app: echo
		  ports:
		  - port: 80
		    targetPort: $ECHO_PORT
		---
		apiVersion: apps/v1
		kind: StatefulSet
		metadata:
		  name: echo
		  namespace: $NS
		spec:
		  serviceName: echo-headless
		  replicas: 1
		  selector:
		    matchLabels:
		      app: echo
		  template:
		    metadata:
		      labels:
		        app: echo
		    spec:
		      terminationGracePeriodSeconds: 1
		      containers:
		      - name: httpd
		        image: $BUSYBOX_IMAGE
		        imagePullPolicy: Never
		        command: [sh, -c, 'mkdir -p /www && echo "hello-from-\$(hostname)" >/www/index.html && exec httpd -f -p $ECHO_PORT -h /www']
		        readinessProbe:
		          httpGet:
		            port: $ECHO_PORT
		          periodSeconds: 2
	EOF
}

# apply_job NAME HOST_NETWORK creates a Job that resolves and fetches from the web
# server's Service, the echo pod's name and the echo Service, and reports what it got
# (and its ServiceAccount token) in its termination message. Created once the servers
# are Ready. On the host's network it needs dnsPolicy ClusterFirstWithHostNet to use the
# cluster DNS.
# wget resolves the short names through the search path of the pod's resolv.conf;
# busybox's nslookup applies none, so it is given the full names. The timeout is
# busybox's applet: this busybox's own wget -T crashes.
apply_job() {
	local name="$1" host_network="$2" dns_policy=ClusterFirst
	[[ "$host_network" == true ]] && dns_policy=ClusterFirstWithHostNet
	kubectl apply -f - >/dev/null <<-EOF
		apiVersion: batch/v1
		kind: Job
		metadata:
		  name: $name
		  namespace: $NS
		spec:
		  backoffLimit: 0
		  template:
		    spec:
		      restartPolicy: Never
		      hostNetwork: $host_network
		      dnsPolicy: $dns_policy
		      containers:
		      - name: probe
		        image: $BUSYBOX_IMAGE
		        imagePullPolicy: Never
		        command:
		        - sh
		        - -ec
		        - |
		          sa=/var/run/secrets/kubernetes.io/serviceaccount
		          a() { nslookup -type=A "\$1" | awk '/^Address: / { a = \$2 } END { print a }'; }
		          get() { timeout 10 wget -q -O - "\$1" || echo unreachable; }
		          addr=\$(a web.$NS.svc.$CLUSTER_DOMAIN)
		          body=\$(get http://web.$NS.svc:$WEB_PORT/)
		          echo_addr=\$(a echo.$NS.svc.$CLUSTER_DOMAIN)
		          echo_body=\$(get http://echo.$NS.svc/)
		          fqdn_addr=\$(a $ECHO_FQDN)
		          fqdn_body=\$(get http://$ECHO_FQDN:$ECHO_PORT/)
		          test -s \$sa/ca.crt
		          echo "probe: resolved web.$NS.svc to \$addr"
		          msg="dns=\$addr http=\$body echo_dns=\$echo_addr echo_http=\$echo_body fqdn_dns=\$fqdn_addr fqdn_http=\$fqdn_body"
		          printf '%s token=%s' "\$msg" "\$(cat \$sa/token)" >/dev/termination-log
	EOF
}

pod_ready() { [[ "$(kubectl -n "$NS" get pod "$1" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" == True ]]; }

# read_report JOB waits for JOB to succeed, reads the key=value words of its pod's
# termination message into REPORT and the pod's name into JOB_POD.
declare -A REPORT=()
read_report() {
	local job="$1" msg field
	wait_until 120 "job $NS/$job to finish" job_finished "$job"
	[[ "$(kubectl -n "$NS" get job "$job" -o jsonpath='{.status.succeeded}')" == 1 ]] || fail "job $NS/$job failed"
	JOB_POD="$(kubectl -n "$NS" get pods -l "job-name=$job" -o jsonpath='{.items[0].metadata.name}')"
	msg="$(kubectl -n "$NS" get pod "$JOB_POD" -o jsonpath='{.status.containerStatuses[0].state.terminated.message}')"
	REPORT=()
	for field in $msg; do
		REPORT[${field%%=*}]="${field#*=}"
	done
	[[ -n "${REPORT[token]:-}" ]] || fail "termination message of job $NS/$job incomplete: '${msg:0:200}'"
}

# check_names FROM checks what the last Job read reported: each name resolved to its
# Service's ClusterIP or its pod's IP, and each server answered through it.
check_names() {
	local from="$1"
	[[ "${REPORT[dns]:-}" == "$WEB_IP" ]] || fail "from $from, web.$NS.svc resolved to '${REPORT[dns]:-}', not its ClusterIP $WEB_IP"
	[[ "${REPORT[http]:-}" == hello-from-web ]] || fail "from $from, http://web.$NS.svc:$WEB_PORT/ answered '${REPORT[http]:-}'"
	ok "from $from: web.$NS.svc resolves to its ClusterIP $WEB_IP and reaches the hostNetwork server behind it"
	[[ "${REPORT[echo_dns]:-}" == "$ECHO_IP" ]] || fail "from $from, echo.$NS.svc resolved to '${REPORT[echo_dns]:-}', not its ClusterIP $ECHO_IP"
	[[ "${REPORT[echo_http]:-}" == "hello-from-$ECHO_POD" ]] || fail "from $from, http://echo.$NS.svc/ answered '${REPORT[echo_http]:-}'"
	ok "from $from: echo.$NS.svc resolves to its ClusterIP $ECHO_IP and reaches the pod-network server behind it (port 80 to $ECHO_PORT)"
	[[ "${REPORT[fqdn_dns]:-}" == "$ECHO_POD_IP" ]] || fail "from $from, $ECHO_FQDN resolved to '${REPORT[fqdn_dns]:-}', not the pod's IP $ECHO_POD_IP"
	[[ "${REPORT[fqdn_http]:-}" == "hello-from-$ECHO_POD" ]] || fail "from $from, http://$ECHO_FQDN:$ECHO_PORT/ answered '${REPORT[fqdn_http]:-}'"
	ok "from $from: $ECHO_FQDN resolves to the pod's IP $ECHO_POD_IP and its server answers"
}

# No upstream exists: a name outside the cluster must fail at once, not after the
# resolver's retries.
check_nxdomain() {
	local answer start ms
	start="$(date +%s%N)"
	answer="$(busybox nslookup -type=A hco-smoke.invalid "$CLUSTER_DNS_IP" 2>&1)" || true
	ms=$((($(date +%s%N) - start) / 1000000))
	[[ "$answer" == *NXDOMAIN* ]] || fail "the cluster DNS answered hco-smoke.invalid with '${answer//$'\n'/ }', not NXDOMAIN"
	((ms < 1000)) || fail "the cluster DNS took $ms ms to answer hco-smoke.invalid NXDOMAIN"
	ok "the cluster DNS on $CLUSTER_DNS_IP answers a name outside the cluster NXDOMAIN ($ms ms)"
}

check() {
	local ip whoami hack_logs
	check_nxdomain

	pod_ready pause || wait_until 60 "pod $NS/pause to be Ready" pod_ready pause
	ok "hostNetwork pod of $PAUSE_IMAGE is Running"

	wait_until 60 "pod $NS/bridged to be Ready" pod_ready bridged
	ip="$(kubectl -n "$NS" get pod bridged -o jsonpath='{.status.podIP}')"
	# Any node's pod range: on several nodes the scheduler picks the node.
	[[ "$ip" == "${CLUSTER_PODS_CIDR%.*.*}."* ]] || fail "pod without hostNetwork has address '$ip', not one of $CLUSTER_PODS_CIDR"
	ok "pod without hostNetwork got $ip from its node's CNI bridge $CLUSTER_CNI_BRIDGE"

	wait_until 60 "pod $NS/web to be Ready" pod_ready web
	ok "hostNetwork web server on $CLUSTER_NODE_IP:$WEB_PORT is Ready (exec readiness probe)"
	wait_until 60 "pod $NS/$ECHO_POD to be Ready" pod_ready "$ECHO_POD"
	ECHO_POD_IP="$(kubectl -n "$NS" get pod "$ECHO_POD" -o jsonpath='{.status.podIP}')"
	ok "StatefulSet pod $ECHO_POD on the pod network ($ECHO_POD_IP) is Ready (HTTP readiness probe)"
	WEB_IP="$(kubectl -n "$NS" get service web -o jsonpath='{.spec.clusterIP}')"
	ECHO_IP="$(kubectl -n "$NS" get service echo -o jsonpath='{.spec.clusterIP}')"

	apply_job probe true
	apply_job probe-bridged false

	read_report probe
	ok "Job ran to completion and its termination message was read from status"
	check_names "a hostNetwork pod (ClusterFirstWithHostNet)"
	whoami="$("$K8S_BIN_DIR/kubectl" --kubeconfig=/dev/null --server="$CLUSTER_API_SERVER" \
		--certificate-authority="$CLUSTER_PKI_DIR/ca.crt" --token="${REPORT[token]}" auth whoami -o jsonpath='{.status.userInfo.username}')"
	[[ "$whoami" == "system:serviceaccount:$NS:default" ]] || fail "the mounted token authenticates as '$whoami'"
	ok "mounted ServiceAccount token authenticates as $whoami"

	hack_logs="$("$CLUSTER_SCRIPTS_DIR/logs.sh" "$NS" "$JOB_POD")"
	[[ "$hack_logs" == "probe: resolved web.$NS.svc to $WEB_IP" ]] || fail "logs.sh printed '$hack_logs'"
	ok "hack/cluster/logs.sh $NS $JOB_POD: $hack_logs"

	read_report probe-bridged
	check_names "a pod on the pod network"

	if [[ "$(getent ahostsv4 "$CLUSTER_NODE_NAME" | awk 'NR == 1 { print $1 }')" == 127.* ]]; then
		[[ "$(kubectl -n "$NS" logs web)" == serving* ]] || fail "kubectl logs web printed '$(kubectl -n "$NS" logs web 2>&1)'"
		ok "kubectl logs works (the API server reaches the kubelet at the node's host name)"
		[[ "$(kubectl -n "$NS" exec web -- cat /www/index.html)" == hello-from-web ]] || fail "kubectl exec failed"
		ok "kubectl exec works"
	fi
}

job_finished() {
	local s
	s="$(kubectl -n "$NS" get job "$1" -o jsonpath='{.status.succeeded}{.status.failed}')"
	[[ -n "$s" && "$s" != 0 ]]
}

require_root
# --image: only build the busybox image, import it into every node, and print its
# reference (for the multi-node suite, test/cluster).
if [[ "${1:-}" == --image ]]; then
	build_image
	import_image
	echo "$BUSYBOX_IMAGE"
	exit 0
fi
if [[ ! -f "$KUBECONFIG" ]] || ! kubectl get --raw /readyz >/dev/null 2>&1; then
	die "the local cluster is not up (hack/cluster/up.sh)"
fi
started_at=$SECONDS
# First, as its web server holds the port checked next.
if kubectl get namespace "$NS" >/dev/null 2>&1; then
	log "deleting namespace $NS left by an earlier run"
	kubectl delete namespace "$NS" --wait --timeout=120s >/dev/null
fi
if listening_port="$(ss -Hlnt "( sport = :$WEB_PORT )")" && [[ -n "$listening_port" ]]; then
	die "port $WEB_PORT is taken on this host; set HCO_SMOKE_PORT to a free one"
fi
build_image
import_image
apply_pods
check
kubectl delete namespace "$NS" --wait --timeout=120s >/dev/null
ok "namespace $NS deleted"
log "all checks passed in $((SECONDS - started_at))s"
