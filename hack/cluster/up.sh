#!/usr/bin/env bash
# Starts a real single-node Kubernetes on this host for the end-to-end tests and the
# demo: etcd, kube-apiserver, kube-controller-manager, kube-scheduler, containerd with
# runc and the CNI plugins, a kubelet, kube-proxy (Service routing) and CoreDNS (the
# cluster DNS). Every server listens on loopback or the node's own address;
# docs/local-cluster.md explains the settings.
#
# Idempotent: what runs with the wanted command line and configuration is left alone,
# what is missing or changed is (re)started, so a healthy cluster is reported as such in
# a few seconds. Waits for the node to be Ready and the default ServiceAccount to exist,
# then prints the KUBECONFIG line to use. hack/cluster/down.sh stops it all.
#
# State lives in $HCO_CACHE/cluster (logs in logs/), runtime state in
# /run/hco-containerd; Kubernetes binaries come from hack/tools, the pause image from
# hack/images.
set -Eeuo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Debian packages: the runtime, the CNI plugins, kube-proxy's iptables, and what this
# script and hack/images/import.sh call.
PACKAGES=(containerd runc containernetworking-plugins iptables socat openssl curl iproute2 util-linux umoci jq busybox-static)
CNI_BIN_DIR=/usr/lib/cni
# CoreDNS's user name towards the API server (its client certificate's CN).
COREDNS_USER=hco-coredns

# Components whose configuration file changed in this run: restarted even when their
# command line is the same.
declare -A CONFIG_CHANGED=()
STARTED=()

# ---------------------------------------------------------------------------- tools

build_crictl() {
	[[ -x "$CRICTL" ]] && return 0
	log "building crictl $CRICTL_VERSION (sigs.k8s.io/cri-tools)"
	local wrapper="$HCO_CACHE/src/cri-tools-$CRICTL_VERSION"
	mkdir -p "$wrapper" "$(dirname "$CRICTL")"
	# `go install pkg@version` consults the module's version list for deprecations,
	# which the module proxy refuses; a wrapper module that requires the version
	# builds the same binary.
	cat >"$wrapper/go.mod" <<-EOF
		module local/cri-tools-wrapper

		go 1.26

		require sigs.k8s.io/cri-tools $CRICTL_VERSION
	EOF
	(
		cd "$wrapper"
		export CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=mod GOWORK=off
		go mod download sigs.k8s.io/cri-tools
		go build -trimpath -o "$CRICTL.tmp" \
			-ldflags "-X sigs.k8s.io/cri-tools/pkg/version.Version=$CRICTL_VERSION" \
			sigs.k8s.io/cri-tools/cmd/crictl
	)
	mv "$CRICTL.tmp" "$CRICTL"
}

install_tools() {
	local bin
	ensure_debs "${PACKAGES[@]}"
	for bin in etcd kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl; do
		if [[ ! -x "$K8S_BIN_DIR/$bin" ]]; then
			log "building the Kubernetes $KUBERNETES_VERSION binaries from source (about 10 minutes the first time)"
			"$ROOT/hack/tools/envtest-assets.sh" --all >/dev/null
			break
		fi
	done
	build_crictl
	"$ROOT/hack/tools/coredns.sh" >/dev/null
	REGISTRY_BIN="$("$ROOT/hack/tools/registry.sh" registry | tail -1)"
	build_local_cluster
}

# ---------------------------------------------------------------------------- PKI

gen_key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

# issue NAME server|client CN [ORGANIZATION [SUBJECT_ALT_NAMES]] signs NAME.crt with the
# cluster CA unless it exists.
issue() {
	local name="$1" usage="$2" cn="$3" org="${4:-}" sans="${5:-}" dir="$CLUSTER_PKI_DIR" subject ext
	[[ -f "$dir/$name.crt" ]] && return 0
	subject="/CN=$cn"
	[[ -n "$org" ]] && subject="/O=$org$subject"
	ext="basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=${usage}Auth"
	[[ -n "$sans" ]] && ext+=$'\n'"subjectAltName=$sans"
	gen_key "$dir/$name.key"
	openssl req -new -key "$dir/$name.key" -subj "$subject" |
		openssl x509 -req -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -set_serial "0x$(openssl rand -hex 16)" \
			-days 3650 -extfile <(printf '%s\n' "$ext") -out "$dir/$name.crt" 2>/dev/null
}

make_pki() {
	local dir="$CLUSTER_PKI_DIR"
	mkdir -p "$dir"
	chmod 0700 "$dir"
	if [[ ! -f "$dir/ca.crt" ]]; then
		log "creating the cluster CA and certificates in $dir"
		gen_key "$dir/ca.key"
		openssl req -x509 -new -key "$dir/ca.key" -subj "/CN=hco-local-cluster-ca" -days 3650 \
			-addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature" \
			-out "$dir/ca.crt"
	fi
	if [[ ! -f "$dir/sa.pub" ]]; then
		gen_key "$dir/sa.key"
		openssl pkey -in "$dir/sa.key" -pubout -out "$dir/sa.pub"
	fi
	# kubernetes.default.svc resolves to the kubernetes Service's address through the
	# cluster DNS, so a client that uses the name verifies as well as one that uses an
	# address.
	issue apiserver server kube-apiserver "" \
		"DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.$CLUSTER_DOMAIN,IP:127.0.0.1,IP:$(service_ip 1)"
	# A certificate from before the node had its address is issued again.
	if [[ -f "$dir/kubelet-serving.crt" ]] &&
		! openssl x509 -in "$dir/kubelet-serving.crt" -noout -ext subjectAltName | grep -qF "IP Address:$CLUSTER_NODE_IP"; then
		rm -f "$dir/kubelet-serving.crt"
		CONFIG_CHANGED[kubelet]=1
	fi
	issue kubelet-serving server "system:node:$CLUSTER_NODE_NAME" system:nodes \
		"DNS:$CLUSTER_NODE_NAME,DNS:localhost,IP:127.0.0.1,IP:$CLUSTER_NODE_IP"
	issue apiserver-kubelet-client client kube-apiserver-kubelet-client
	issue admin client kubernetes-admin system:masters
	issue controller-manager client system:kube-controller-manager
	issue scheduler client system:kube-scheduler
	issue kubelet client "system:node:$CLUSTER_NODE_NAME" system:nodes
	# The API server's built-in binding system:node-proxier authorises this user.
	issue kube-proxy client system:kube-proxy
	issue coredns client "$COREDNS_USER"
	chmod 0600 "$dir"/*.key
}

# service_ip N prints the Nth address of the service range (1: the kubernetes Service).
service_ip() {
	local base="${CLUSTER_SERVICE_CIDR%/*}"
	echo "${base%.*}.$((${base##*.} + $1))"
}

# kubeconfig FILE CERT writes a kubeconfig that authenticates with pki/CERT.{crt,key}.
kubeconfig() {
	local file="$1" cert="$2" pki="$CLUSTER_PKI_DIR"
	write_file "$file" 0600 <<-EOF
		apiVersion: v1
		kind: Config
		clusters:
		- name: hco-local
		  cluster:
		    server: $CLUSTER_API_SERVER
		    certificate-authority-data: $(base64 -w0 "$pki/ca.crt")
		users:
		- name: $cert
		  user:
		    client-certificate-data: $(base64 -w0 "$pki/$cert.crt")
		    client-key-data: $(base64 -w0 "$pki/$cert.key")
		contexts:
		- name: hco-local
		  context:
		    cluster: hco-local
		    user: $cert
		current-context: hco-local
	EOF
}

# ---------------------------------------------------------------------------- addresses

# The node's address lives on one end of a veth pair whose other end is in a network
# namespace of this cluster's: a real interface address (the kubelet refuses a loopback
# --node-ip) that no packet leaves the host for. The kubernetes Service's address sits
# on the same link, and so does the route to the rest of the Service range: kube-proxy
# rewrites a connection to a Service before it is routed, and one to an address or port
# no Service has ends in that namespace instead of taking the host's default route out.
# Host clients of a Service thereby speak from the node's address. Every step is
# idempotent.
node_network() {
	if ! ip netns list | grep -qw "$CLUSTER_NODE_NETNS"; then
		ip netns add "$CLUSTER_NODE_NETNS"
	fi
	if ! ip link show "$CLUSTER_NODE_LINK" >/dev/null 2>&1; then
		log "giving the node its address $CLUSTER_NODE_IP on $CLUSTER_NODE_LINK"
		ip link add "$CLUSTER_NODE_LINK" type veth peer name "$CLUSTER_NODE_PEER_LINK" netns "$CLUSTER_NODE_NETNS"
	fi
	ip addr replace "$CLUSTER_NODE_IP/$CLUSTER_NODE_PREFIX" dev "$CLUSTER_NODE_LINK"
	ip addr replace "$CLUSTER_KUBERNETES_SERVICE_IP/32" dev "$CLUSTER_NODE_LINK"
	ip link set "$CLUSTER_NODE_LINK" up
	ip route replace "$CLUSTER_SERVICE_CIDR" dev "$CLUSTER_NODE_LINK" src "$CLUSTER_NODE_IP"
	ip -n "$CLUSTER_NODE_NETNS" addr replace "$CLUSTER_NODE_PEER_IP/$CLUSTER_NODE_PREFIX" dev "$CLUSTER_NODE_PEER_LINK"
	ip -n "$CLUSTER_NODE_NETNS" link set "$CLUSTER_NODE_PEER_LINK" up
	ip -n "$CLUSTER_NODE_NETNS" link set lo up
}

# listening ADDRESS PORT: something listens on ADDRESS:PORT or on every address's PORT.
listening() {
	ss -Hlntu | awk -v want="$1:$2" -v port="$2" '
		{ a = $5 }
		a == want || a == "0.0.0.0:" port || a == "*:" port || a == "[::]:" port { found = 1 }
		END { exit !found }'
}

# CoreDNS answers at the node's address, which pods on either network reach. A cluster
# started by an earlier version of this script ran dnsmasq on a loopback address, which
# its pods still have in their resolv.conf: CoreDNS answers there too, as long as that
# cluster lives (its dnsmasq.conf is removed by down.sh).
dns_addresses() {
	DNS_ADDRESSES=("$CLUSTER_DNS_IP")
	local old
	old="$(sed -n 's/^listen-address=//p' "$CLUSTER_CONFIG_DIR/dnsmasq.conf" 2>/dev/null)" || true
	[[ -n "$old" ]] && DNS_ADDRESSES+=("$old")
	return 0
}

# Pods on the bridge reach each other through a Service only when the bridge hands their
# frames to iptables: without it the answer of a pod that kube-proxy sent a connection
# to goes straight back over the bridge, never un-NATed. NetworkPolicy
# (hack/cluster/netpol.sh) needs it too. down.sh puts the host's value back.
bridge_netfilter() {
	[[ -f "$BRIDGE_NF" ]] || die "$BRIDGE_NF is missing: this kernel has no br_netfilter, which Service routing between pods needs"
	save_host_sysctls
	[[ "$(cat "$BRIDGE_NF")" == 1 ]] || echo 1 >"$BRIDGE_NF"
}

# ---------------------------------------------------------------------------- configuration

write_configs() {
	local c="$CLUSTER_CONFIG_DIR" pki="$CLUSTER_PKI_DIR"
	# shellcheck source=../images/images.env
	source "$ROOT/hack/images/images.env"

	kubeconfig "$KUBECONFIG" admin || true
	kubeconfig "$c/controller-manager.kubeconfig" controller-manager && CONFIG_CHANGED[kube-controller-manager]=1
	kubeconfig "$c/scheduler.kubeconfig" scheduler && CONFIG_CHANGED[kube-scheduler]=1
	kubeconfig "$c/kubelet.kubeconfig" kubelet && CONFIG_CHANGED[kubelet]=1
	kubeconfig "$c/kube-proxy.kubeconfig" kube-proxy && CONFIG_CHANGED[kube-proxy]=1
	kubeconfig "$c/coredns.kubeconfig" coredns && CONFIG_CHANGED[coredns]=1

	# The kubernetes plugin answers Services (ClusterIP, or the ready endpoints of a
	# headless one), the StatefulSet names <pod>.<service>.<namespace>.svc, and the
	# reverse names of those addresses. No upstream exists here: every other name is
	# answered NXDOMAIN at once by the second block, where "no upstream server" (REFUSED)
	# would make resolvers retry. The more specific zones of the first block take
	# precedence. "pods insecure" answers <a-b-c-d>.<namespace>.pod names without
	# watching pods, as kubeadm's default does. The workers' names (n2.hco.test ...) and
	# their reverse names come from template blocks that cmd/local-cluster renders, as a
	# site's DNS names its machines: YARN's ResourceManager resolves each NodeManager's
	# host, whichever node it registered from.
	local nodes_dns
	nodes_dns="$("$LOCAL_CLUSTER" render dns --nodes "$CLUSTER_NODES" --first-node-name "$CLUSTER_NODE_NAME" --first-node-ip "$CLUSTER_NODE_IP")"
	write_file "$c/Corefile" <<-EOF && CONFIG_CHANGED[coredns]=1
		$CLUSTER_DOMAIN:53 in-addr.arpa:53 $CLUSTER_NODE_DOMAIN:53 {
		    bind ${DNS_ADDRESSES[*]}
		    errors
		    ready 127.0.0.1:$CLUSTER_DNS_READY_PORT
		$nodes_dns
		    kubernetes $CLUSTER_DOMAIN in-addr.arpa {
		        kubeconfig $c/coredns.kubeconfig
		        pods insecure
		    }
		}
		.:53 {
		    bind ${DNS_ADDRESSES[*]}
		    errors
		    template ANY ANY {
		        rcode NXDOMAIN
		    }
		}
	EOF

	# iptables mode: it works here, with the iptables (nf_tables backend) that the
	# kubelet and kube-router use too.
	# clusterCIDR: traffic to a Service from outside the pod network (the host and
	# host-network pods) is masqueraded, so the answer comes back through the host.
	# nodePortAddresses: NodePorts only on the node's address, never on the host's other
	# addresses nor on loopback (so route_localnet stays as it is). The conntrack zeros
	# leave the host's conntrack table size and timeouts as they are. oomScoreAdj 0: the
	# VM withholds CAP_SYS_RESOURCE, so the default -999 would be refused.
	write_file "$c/kube-proxy.yaml" <<-EOF && CONFIG_CHANGED[kube-proxy]=1
		apiVersion: kubeproxy.config.k8s.io/v1alpha1
		kind: KubeProxyConfiguration
		clientConnection:
		  kubeconfig: $c/kube-proxy.kubeconfig
		hostnameOverride: $CLUSTER_NODE_NAME
		mode: iptables
		clusterCIDR: $CLUSTER_PODS_CIDR
		detectLocalMode: ClusterCIDR
		nodePortAddresses:
		- $CLUSTER_NODE_IP/32
		healthzBindAddress: 127.0.0.1:$CLUSTER_KUBE_PROXY_HEALTHZ_PORT
		metricsBindAddress: 127.0.0.1:$CLUSTER_KUBE_PROXY_METRICS_PORT
		oomScoreAdj: 0
		conntrack:
		  maxPerCore: 0
		  tcpEstablishedTimeout: 0s
		  tcpCloseWaitTimeout: 0s
		  udpTimeout: 0s
		  udpStreamTimeout: 0s
	EOF

	# containerd's configuration is the workers' too (internal/localcluster/render.go
	# says why each setting): our own root, state, sockets and runc root, the locally
	# built pause image, restrict_oom_score_adj (the VM withholds CAP_SYS_RESOURCE), and
	# the cluster's registry over plain HTTP (certs.d), read on every pull.
	local rendered
	rendered="$("$LOCAL_CLUSTER" render containerd --root "$CLUSTER_CONTAINERD_ROOT" --run-dir "$CLUSTER_RUN_DIR" \
		--socket "$CONTAINERD_SOCKET" --cni-conf-dir "$CLUSTER_CNI_DIR/net.d" --certs-dir "$c/certs.d" \
		--pause-image "$PAUSE_IMAGE" --registry "$CLUSTER_REGISTRY")"
	write_file "$c/containerd.toml" <<<"$rendered" && CONFIG_CHANGED[containerd]=1
	rendered="$("$LOCAL_CLUSTER" render registry-hosts --registry "$CLUSTER_REGISTRY")"
	write_file "$c/certs.d/$CLUSTER_REGISTRY/hosts.toml" <<<"$rendered" || true

	# Deleting is allowed so that hack/images/push.sh can replace a tag's manifest and
	# an operator can clean up; nothing deletes on its own.
	write_file "$c/registry.yml" <<-EOF && CONFIG_CHANGED[registry]=1
		version: 0.1
		log:
		  level: warn
		storage:
		  filesystem:
		    rootdirectory: $CLUSTER_REGISTRY_DIR
		  delete:
		    enabled: true
		http:
		  addr: $CLUSTER_REGISTRY
		  secret: hco-local-cluster
	EOF

	# Read by containerd for every new sandbox, so a change needs no restart.
	# hairpinMode: a pod that reaches itself through a Service gets its own connection
	# back over the same bridge port.
	write_file "$CLUSTER_CNI_DIR/net.d/10-$CLUSTER_CNI_NETWORK.conflist" <<-EOF || true
		{
		  "cniVersion": "1.0.0",
		  "name": "$CLUSTER_CNI_NETWORK",
		  "plugins": [
		    {
		      "type": "bridge",
		      "bridge": "$CLUSTER_CNI_BRIDGE",
		      "isGateway": true,
		      "ipMasq": false,
		      "hairpinMode": true,
		      "ipam": {
		        "type": "host-local",
		        "ranges": [[{ "subnet": "$CLUSTER_POD_CIDR" }]],
		        "routes": [{ "dst": "$CLUSTER_PODS_CIDR" }, { "dst": "$CLUSTER_NODES_CIDR" }, { "dst": "$CLUSTER_SERVICE_CIDR" }],
		        "dataDir": "$CLUSTER_CNI_DIR/ipam"
		      }
		    }
		  ]
		}
	EOF

	# cgroupfs and failCgroupV1: this host has cgroup v1 and no systemd.
	# imagePullCredentialsVerificationPolicy NeverVerify: images are both imported and
	# pulled from the cluster's registry, which has no credentials; under the default
	# policy a pod that names an imported image after another pulled the same image is
	# refused with ErrImageNeverPull.
	# Eviction thresholds are low because the disk may be quite full and the pods are
	# throwaway; image garbage collection is off (100%) because an imported image has no
	# registry to be pulled from again.
	# For people: `crictl --config $c/crictl.yaml ps`.
	write_file "$c/crictl.yaml" <<-EOF || true
		runtime-endpoint: unix://$CONTAINERD_SOCKET
		image-endpoint: unix://$CONTAINERD_SOCKET
		timeout: 30
	EOF

	write_file "$c/kubelet.yaml" <<-EOF && CONFIG_CHANGED[kubelet]=1
		apiVersion: kubelet.config.k8s.io/v1beta1
		kind: KubeletConfiguration
		address: $CLUSTER_NODE_IP
		port: $CLUSTER_KUBELET_PORT
		readOnlyPort: 0
		healthzBindAddress: 127.0.0.1
		healthzPort: $CLUSTER_KUBELET_HEALTHZ_PORT
		tlsCertFile: $pki/kubelet-serving.crt
		tlsPrivateKeyFile: $pki/kubelet-serving.key
		authentication:
		  anonymous:
		    enabled: false
		  webhook:
		    enabled: true
		  x509:
		    clientCAFile: $pki/ca.crt
		authorization:
		  mode: Webhook
		containerRuntimeEndpoint: unix://$CONTAINERD_SOCKET
		cgroupDriver: cgroupfs
		failCgroupV1: false
		failSwapOn: false
		clusterDNS:
		- $CLUSTER_DNS_IP
		clusterDomain: $CLUSTER_DOMAIN
		podLogsDir: $CLUSTER_POD_LOG_DIR
		evictionHard:
		  memory.available: 100Mi
		  nodefs.available: 1%
		  nodefs.inodesFree: 1%
		  imagefs.available: 1%
		  imagefs.inodesFree: 1%
		imageGCHighThresholdPercent: 100
		imageGCLowThresholdPercent: 99
		imagePullCredentialsVerificationPolicy: NeverVerify
	EOF
	return 0
}

# ---------------------------------------------------------------------------- processes

declare -A PORTS=(
	[etcd]="127.0.0.1:$CLUSTER_ETCD_CLIENT_PORT 127.0.0.1:$CLUSTER_ETCD_PEER_PORT"
	[kube-apiserver]="127.0.0.1:$CLUSTER_API_PORT"
	[kube-controller-manager]="127.0.0.1:$CLUSTER_CONTROLLER_MANAGER_PORT"
	[kube-scheduler]="127.0.0.1:$CLUSTER_SCHEDULER_PORT"
	[kubelet]="127.0.0.1:$CLUSTER_KUBELET_HEALTHZ_PORT $CLUSTER_NODE_IP:$CLUSTER_KUBELET_PORT"
	[kubernetes-service-proxy]="$CLUSTER_KUBERNETES_SERVICE_IP:443"
	[kube-proxy]="127.0.0.1:$CLUSTER_KUBE_PROXY_HEALTHZ_PORT 127.0.0.1:$CLUSTER_KUBE_PROXY_METRICS_PORT"
	[coredns]="$CLUSTER_DNS_IP:53 127.0.0.1:$CLUSTER_DNS_READY_PORT"
	[registry]="$CLUSTER_REGISTRY"
)

# run NAME ARGV... keeps this cluster's process NAME when it runs with exactly ARGV and
# its configuration did not change, and (re)starts it otherwise. Output goes to
# logs/NAME.log.
run() {
	local name="$1" pids addr i
	shift
	mapfile -t pids < <(our_pids "$name")
	if [[ ${#pids[@]} -eq 1 && -z "${CONFIG_CHANGED[$name]:-}" ]] &&
		cmp -s <(printf '%s\0' "$@") "/proc/${pids[0]}/cmdline"; then
		return 0
	fi
	if [[ ${#pids[@]} -gt 0 ]]; then
		log "restarting $name: its command line or configuration changed"
		stop_procs "$name"
	fi
	for addr in ${PORTS[$name]:-}; do
		# The sockets of a process that has just exited close a moment after it.
		for ((i = 0; ${#pids[@]} > 0 && i < 20; i++)); do
			listening "${addr%:*}" "${addr##*:}" || break
			sleep 0.5
		done
		if listening "${addr%:*}" "${addr##*:}"; then
			die "cannot start $name: $addr is in use by another program: $(ss -Hlntp "( sport = :${addr##*:} )" | head -1)"
		fi
	done
	log "starting $name"
	mkdir -p "$CLUSTER_LOG_DIR"
	printf '\n==== %s %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$*" >>"$CLUSTER_LOG_DIR/$name.log"
	# The daemon must not inherit the lock (fd 8), or it would hold it forever.
	setsid "$@" >>"$CLUSTER_LOG_DIR/$name.log" 2>&1 </dev/null 8>&- &
	STARTED+=("$name")
}

# await NAME SECONDS COMMAND... waits for COMMAND to succeed, or fails pointing at
# NAME's log.
await() {
	local name="$1" timeout="$2"
	shift 2
	wait_until "$timeout" "$name (log: $CLUSTER_LOG_DIR/$name.log)" "$@"
}

start_etcd() {
	local client="http://127.0.0.1:$CLUSTER_ETCD_CLIENT_PORT" peer="http://127.0.0.1:$CLUSTER_ETCD_PEER_PORT"
	# No fsync: the data is thrown away by down.sh, and fsync on a shared disk slows
	# every API write.
	run etcd "$K8S_BIN_DIR/etcd" --name=hco-local --data-dir="$CLUSTER_ETCD_DIR" \
		--listen-client-urls="$client" --advertise-client-urls="$client" \
		--listen-peer-urls="$peer" --initial-advertise-peer-urls="$peer" \
		--initial-cluster="hco-local=$peer" --unsafe-no-fsync --log-level=warn
	await etcd 60 curl -sf "$client/health"
}

start_apiserver() {
	local pki="$CLUSTER_PKI_DIR" issuer="https://kubernetes.default.svc.$CLUSTER_DOMAIN"
	# The endpoint reconciler refuses to publish a loopback address, so the kubernetes
	# Service has no endpoints; in-cluster clients use KUBERNETES_SERVICE_HOST/PORT
	# (127.0.0.1:6443), which hostNetwork pods reach.
	run kube-apiserver "$K8S_BIN_DIR/kube-apiserver" \
		--advertise-address=127.0.0.1 --bind-address=127.0.0.1 --secure-port="$CLUSTER_API_PORT" \
		--endpoint-reconciler-type=none \
		--etcd-servers="http://127.0.0.1:$CLUSTER_ETCD_CLIENT_PORT" \
		--client-ca-file="$pki/ca.crt" \
		--tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key" \
		--kubelet-client-certificate="$pki/apiserver-kubelet-client.crt" \
		--kubelet-client-key="$pki/apiserver-kubelet-client.key" \
		--kubelet-certificate-authority="$pki/ca.crt" \
		--kubelet-preferred-address-types=InternalIP \
		--service-account-issuer="$issuer" --api-audiences="$issuer" \
		--service-account-key-file="$pki/sa.pub" --service-account-signing-key-file="$pki/sa.key" \
		--service-cluster-ip-range="$CLUSTER_SERVICE_CIDR" \
		--authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction \
		--allow-privileged=true --profiling=false
	await kube-apiserver 120 curl -sf --cacert "$pki/ca.crt" "$CLUSTER_API_SERVER/readyz"
	# The API server's own client identity towards the kubelet (logs, exec).
	kubectl create clusterrolebinding hco-apiserver-kubelet-client --clusterrole=system:kubelet-api-admin \
		--user=kube-apiserver-kubelet-client --dry-run=client -o yaml | kubectl apply -f - >/dev/null
}

# Pods find the API server at KUBERNETES_SERVICE_HOST:KUBERNETES_SERVICE_PORT, the
# kubernetes Service's address and port 443; a proxy there forwards to the API server,
# whose certificate names that address. Rook's pods need it: they are host-network pods
# whose in-cluster configuration comes from those variables alone.
# The Service has no endpoints (see start_apiserver), for which kube-proxy would reject
# every connection; the service-proxy-name label tells kube-proxy that another proxy,
# this one, serves it.
start_service_proxy() {
	local proxy="$CLUSTER_DIR/bin/kubernetes-service-proxy"
	mkdir -p "$(dirname "$proxy")"
	# A name of this cluster's for socat, so our_pids recognises the process.
	ln -sfn "$(command -v socat)" "$proxy"
	run kubernetes-service-proxy "$proxy" "TCP-LISTEN:443,bind=$CLUSTER_KUBERNETES_SERVICE_IP,reuseaddr,fork" \
		"TCP:127.0.0.1:$CLUSTER_API_PORT"
	await kubernetes-service-proxy 30 curl -sf --cacert "$CLUSTER_PKI_DIR/ca.crt" "https://$CLUSTER_KUBERNETES_SERVICE_IP/readyz"
	await kube-apiserver 60 kubectl -n default get service kubernetes
	kubectl -n default label --overwrite service kubernetes "service.kubernetes.io/service-proxy-name=kubernetes-service-proxy" >/dev/null
}

start_controllers() {
	local pki="$CLUSTER_PKI_DIR" c="$CLUSTER_CONFIG_DIR"
	# The service-account key, root CA and signing CA make ServiceAccount tokens, the
	# kube-root-ca.crt ConfigMap and CSR signing work.
	run kube-controller-manager "$K8S_BIN_DIR/kube-controller-manager" \
		--kubeconfig="$c/controller-manager.kubeconfig" \
		--authentication-kubeconfig="$c/controller-manager.kubeconfig" \
		--authorization-kubeconfig="$c/controller-manager.kubeconfig" \
		--bind-address=127.0.0.1 --secure-port="$CLUSTER_CONTROLLER_MANAGER_PORT" \
		--service-account-private-key-file="$pki/sa.key" --root-ca-file="$pki/ca.crt" \
		--cluster-signing-cert-file="$pki/ca.crt" --cluster-signing-key-file="$pki/ca.key" \
		--use-service-account-credentials=true \
		--service-cluster-ip-range="$CLUSTER_SERVICE_CIDR" --leader-elect=false
	run kube-scheduler "$K8S_BIN_DIR/kube-scheduler" \
		--kubeconfig="$c/scheduler.kubeconfig" \
		--authentication-kubeconfig="$c/scheduler.kubeconfig" \
		--authorization-kubeconfig="$c/scheduler.kubeconfig" \
		--bind-address=127.0.0.1 --secure-port="$CLUSTER_SCHEDULER_PORT" --leader-elect=false
	await kube-controller-manager 60 curl -sfk "https://127.0.0.1:$CLUSTER_CONTROLLER_MANAGER_PORT/healthz"
	await kube-scheduler 60 curl -sfk "https://127.0.0.1:$CLUSTER_SCHEDULER_PORT/healthz"
}

# dns_answers ADDRESS: the cluster DNS at ADDRESS knows the kubernetes Service.
dns_answers() {
	local answer
	answer="$(busybox nslookup -type=A "kubernetes.default.svc.$CLUSTER_DOMAIN" "$1" 2>&1)" || true
	grep -qxF "Address: $CLUSTER_KUBERNETES_SERVICE_IP" <<<"$answer"
}

# CoreDNS reads Services, their EndpointSlices and namespaces with an identity of its own.
start_dns() {
	local address
	kubectl apply -f - >/dev/null <<-EOF
		apiVersion: rbac.authorization.k8s.io/v1
		kind: ClusterRole
		metadata:
		  name: hco-coredns
		rules:
		- apiGroups: [""]
		  resources: [services, namespaces]
		  verbs: [list, watch]
		- apiGroups: [discovery.k8s.io]
		  resources: [endpointslices]
		  verbs: [list, watch]
		---
		apiVersion: rbac.authorization.k8s.io/v1
		kind: ClusterRoleBinding
		metadata:
		  name: hco-coredns
		roleRef:
		  apiGroup: rbac.authorization.k8s.io
		  kind: ClusterRole
		  name: hco-coredns
		subjects:
		- apiGroup: rbac.authorization.k8s.io
		  kind: User
		  name: $COREDNS_USER
	EOF
	# The dnsmasq of an earlier version of this script gives way.
	if [[ -n "$(our_pids dnsmasq)" ]]; then
		log "replacing dnsmasq with CoreDNS"
		stop_procs dnsmasq
	fi
	# A name of this cluster's for the binary, so our_pids recognises the process.
	mkdir -p "$CLUSTER_DIR/bin"
	ln -sfn "$COREDNS" "$CLUSTER_DIR/bin/coredns"
	run coredns "$CLUSTER_DIR/bin/coredns" -conf "$CLUSTER_CONFIG_DIR/Corefile"
	await coredns 60 curl -sf "http://127.0.0.1:$CLUSTER_DNS_READY_PORT/ready"
	for address in "${DNS_ADDRESSES[@]}"; do
		await coredns 30 dns_answers "$address"
	done
}

# After the kubelet: kube-proxy reads the node's addresses from its Node object. Its
# health check passes once it has written the rules of every Service.
start_kube_proxy() {
	run kube-proxy "$K8S_BIN_DIR/kube-proxy" --config="$CLUSTER_CONFIG_DIR/kube-proxy.yaml"
	await kube-proxy 60 curl -sf "http://127.0.0.1:$CLUSTER_KUBE_PROXY_HEALTHZ_PORT/healthz"
}

# The registry answers on the node's address. Tracing off: distribution exports
# OpenTelemetry traces to a collector on loopback by default, which is not there.
start_registry() {
	mkdir -p "$CLUSTER_DIR/bin" "$CLUSTER_REGISTRY_DIR"
	# A name of this cluster's for the binary, so our_pids recognises the process.
	ln -sfn "$REGISTRY_BIN" "$CLUSTER_DIR/bin/registry"
	OTEL_TRACES_EXPORTER=none run registry "$CLUSTER_DIR/bin/registry" serve "$CLUSTER_CONFIG_DIR/registry.yml"
	await registry 30 curl -sf "http://$CLUSTER_REGISTRY/v2/"
}

start_containerd() {
	mkdir -p "$CLUSTER_RUN_DIR" "$CLUSTER_CONTAINERD_ROOT"
	run containerd "$(command -v containerd)" --config="$CLUSTER_CONFIG_DIR/containerd.toml"
	await containerd 60 ctr version
	"$ROOT/hack/images/build.sh" pause
	CONTAINERD_SNAPSHOTTER=overlayfs "$ROOT/hack/images/import.sh" pause
	# The image store outlives a cluster, and with it the pods of one whose containerd
	# died before down.sh could remove them. None of them belongs to a fresh cluster.
	if ((FRESH)) && [[ -n "$(crictl pods -q)" ]]; then
		log "removing pod sandboxes left by an earlier cluster"
		crictl rmp --all --force >/dev/null
	fi
}

# Directories at fixed paths that the kubelet, containerd's shims and the CNI plugins
# create when missing; those this cluster created are listed for down.sh to remove.
record_host_paths() {
	local path file="$CLUSTER_DIR/host-paths"
	for path in /var/lib/kubelet /var/log/containers /var/lib/cni /run/containerd; do
		if [[ ! -e "$path" ]] && ! grep -qxF "$path" "$file" 2>/dev/null; then
			echo "$path" >>"$file"
		fi
	done
}

# The kubelet sets vm.overcommit_memory, kernel.panic and friends to what it expects,
# bridge_netfilter bridge-nf-call-iptables; the host's values are kept so that down.sh
# can put them back. A key the file lacks (it was written by an earlier version of this
# script) is added with its value now, or for bridge-nf-call-iptables with the value
# an earlier netpol.sh saved before it raised it.
save_host_sysctls() {
	local file="$CLUSTER_DIR/host-sysctls" key value legacy="$CLUSTER_DIR/netpol-host-sysctl"
	mkdir -p "$CLUSTER_DIR"
	for key in vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops kernel.keys.root_maxkeys kernel.keys.root_maxbytes net.bridge.bridge-nf-call-iptables; do
		grep -q "^$key=" "$file" 2>/dev/null && continue
		value="$(cat "/proc/sys/${key//.//}")"
		[[ "$key" == net.bridge.bridge-nf-call-iptables && -f "$legacy" ]] && value="$(cat "$legacy")"
		echo "$key=$value" >>"$file"
	done
	rm -f "$legacy"
}

start_kubelet() {
	mkdir -p "$CLUSTER_KUBELET_DIR" "$CLUSTER_POD_LOG_DIR"
	save_host_sysctls
	# --node-ip: without it the kubelet would publish the address of the default-route
	# interface, which nothing may connect to.
	run kubelet "$K8S_BIN_DIR/kubelet" --config="$CLUSTER_CONFIG_DIR/kubelet.yaml" \
		--kubeconfig="$CLUSTER_CONFIG_DIR/kubelet.kubeconfig" --root-dir="$CLUSTER_KUBELET_DIR" \
		--hostname-override="$CLUSTER_NODE_NAME" --node-ip="$CLUSTER_NODE_IP"
	await kubelet 60 curl -sf "http://127.0.0.1:$CLUSTER_KUBELET_HEALTHZ_PORT/healthz"
	await kubelet 60 kubectl get node "$CLUSTER_NODE_NAME"
	# A node registered by an earlier version of this script, with --cloud-provider=external,
	# keeps that taint: no cloud controller runs to lift it.
	if kubectl get node "$CLUSTER_NODE_NAME" -o jsonpath='{.spec.taints[*].key}' | grep -qw node.cloudprovider.kubernetes.io/uninitialized; then
		kubectl taint node "$CLUSTER_NODE_NAME" node.cloudprovider.kubernetes.io/uninitialized- >/dev/null
	fi
	await kubelet 120 node_ready
}

node_ready() {
	[[ "$(kubectl get node "$CLUSTER_NODE_NAME" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" == True ]]
}

# The workers (nodes 2..CLUSTER_NODES) run under cmd/local-cluster, which starts the
# missing ones, restarts those whose configuration changed, removes those beyond the
# count, and waits until they are Ready. Run also for one node: it removes the workers
# of an earlier, larger cluster.
start_workers() {
	local ledger="$CLUSTER_DIR/nodes/ledger.json"
	((CLUSTER_NODES > 1)) || [[ -f "$ledger" ]] || return 0
	"$ROOT/hack/images/build.sh" pause
	local kube_router=""
	((CLUSTER_NODES > 1)) && kube_router="$("$ROOT/hack/tools/kube-router.sh" | tail -1)"
	# The nodes outlive this script: they must not inherit the lock (fd 8).
	"$LOCAL_CLUSTER" up --nodes "$CLUSTER_NODES" --cluster-dir "$CLUSTER_DIR" --k8s-bin "$K8S_BIN_DIR" \
		--pause-archive "$HCO_CACHE/images/pause.tar" --pause-image "$PAUSE_IMAGE" --registry "$CLUSTER_REGISTRY" \
		--kube-router "$kube_router" --memory-reserved "$(worker_memory_reserved)" 8>&-
}

# Each node's kubelet sees the host's whole memory; reserving (N-1)/N of it on each
# worker leaves the nodes' allocatable memory together near the host's instead of N
# times it. The first node keeps the whole: it also runs the control plane and the
# local Ceph, which no allocatable accounts for. CPU is not split: it is compressible,
# and 2 cores split thrice could not schedule the suite's requests.
worker_memory_reserved() {
	local total_kib
	total_kib="$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)"
	echo "$((total_kib / 1024 * (CLUSTER_NODES - 1) / CLUSTER_NODES))Mi"
}

build_local_cluster() {
	(cd "$ROOT" && GOTOOLCHAIN=local CGO_ENABLED=0 go build -trimpath -o "$LOCAL_CLUSTER.tmp" ./cmd/local-cluster)
	mv "$LOCAL_CLUSTER.tmp" "$LOCAL_CLUSTER"
}

# ---------------------------------------------------------------------------- main

case "${1:-}" in
-h | --help)
	sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 0
	;;
esac

require_root
check_host
take_cluster_lock
started_at=$SECONDS

install_tools
FRESH=0
[[ -d "$CLUSTER_ETCD_DIR" || -n "$(our_pids etcd)" ]] || FRESH=1
# A fresh cluster starts with empty logs; the previous cluster's stay in logs.previous.
if ((FRESH)) && [[ -d "$CLUSTER_LOG_DIR" ]]; then
	rm -rf "$CLUSTER_LOG_DIR.previous"
	mv "$CLUSTER_LOG_DIR" "$CLUSTER_LOG_DIR.previous"
fi
node_network
bridge_netfilter
dns_addresses
make_pki
write_configs

start_etcd
start_apiserver
start_service_proxy
start_controllers
record_host_paths
start_registry
start_containerd
start_kubelet
# Service routing before the DNS that gives out Services' addresses.
start_kube_proxy
start_dns
await kube-controller-manager 60 kubectl -n default get serviceaccount default
start_workers

if [[ ${#STARTED[@]} -eq 0 ]]; then
	log "already up: $CLUSTER_NODES node(s) Ready ($((SECONDS - started_at))s)"
else
	log "up in $((SECONDS - started_at))s (started ${STARTED[*]}): $CLUSTER_NODES node(s) Ready, cluster DNS on ${DNS_ADDRESSES[*]}"
fi
echo "export KUBECONFIG=$KUBECONFIG"
