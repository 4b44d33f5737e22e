package localcluster

import (
	"fmt"
	"net/netip"
	"path/filepath"
)

// Binaries are the programs the first node runs. Socat, CoreDNS and Registry are run
// through links under the cluster's bin/ (LinkedBinaries), so that each process's
// command line names the cluster's directory: that is how a process is known as the
// cluster's, and another etcd or kubelet on the host is never touched.
type Binaries struct {
	K8sBinDir  string
	Containerd string
	Socat      string
	CoreDNS    string
	Registry   string
	// Crictl removes the pods a dead cluster left in the image store's containerd.
	Crictl string
}

// HostProcess is one of the first node's daemons, in the host's namespaces.
type HostProcess struct {
	Name string
	Argv []string
	Env  []string
	// Ports are where it listens: they must be free before it starts.
	Ports []netip.AddrPort
}

// LinkedBinaries are the links under the cluster's bin/ and their targets.
func LinkedBinaries(cp ControlPlane, b Binaries) map[string]string {
	return map[string]string{
		cp.Path("bin", "kubernetes-service-proxy"): b.Socat,
		cp.Path("bin", "coredns"):                  b.CoreDNS,
		cp.Path("bin", "registry"):                 b.Registry,
	}
}

// ControlPlaneProcesses are the first node's daemons, by name, in the order they
// start. Pure.
func ControlPlaneProcesses(cp ControlPlane, b Binaries) []HostProcess {
	s := cp.Settings
	k8s := func(name string) string { return filepath.Join(b.K8sBinDir, name) }
	pki := func(name string) string { return cp.Path("pki", name) }
	config := func(name string) string { return cp.Path("config", name) }
	loopback := netip.MustParseAddr("127.0.0.1")
	at := func(a netip.Addr, port int) netip.AddrPort { return netip.AddrPortFrom(a, uint16(port)) }
	p := cp.Ports
	etcdClient := fmt.Sprintf("http://127.0.0.1:%d", p.EtcdClient)
	etcdPeer := fmt.Sprintf("http://127.0.0.1:%d", p.EtcdPeer)
	issuer := "https://kubernetes.default.svc." + s.ClusterDomain
	var procs []HostProcess
	add := func(name string, ports []netip.AddrPort, argv ...string) {
		procs = append(procs, HostProcess{Name: name, Argv: argv, Ports: ports})
	}
	// No fsync: the data is thrown away by down, and fsync on a shared disk slows every
	// API write.
	add("etcd", []netip.AddrPort{at(loopback, p.EtcdClient), at(loopback, p.EtcdPeer)},
		k8s("etcd"), "--name=hco-local", "--data-dir="+cp.Path("etcd"),
		"--listen-client-urls="+etcdClient, "--advertise-client-urls="+etcdClient,
		"--listen-peer-urls="+etcdPeer, "--initial-advertise-peer-urls="+etcdPeer,
		"--initial-cluster=hco-local="+etcdPeer, "--unsafe-no-fsync", "--log-level=warn")
	// The endpoint reconciler refuses to publish a loopback address, so the kubernetes
	// Service has no endpoints; in-cluster clients use KUBERNETES_SERVICE_HOST/PORT,
	// where the service proxy forwards to the API server.
	add("kube-apiserver", []netip.AddrPort{at(loopback, p.API)},
		k8s("kube-apiserver"),
		"--advertise-address=127.0.0.1", "--bind-address=127.0.0.1", fmt.Sprintf("--secure-port=%d", p.API),
		"--endpoint-reconciler-type=none",
		"--etcd-servers="+etcdClient,
		"--client-ca-file="+pki("ca.crt"),
		"--tls-cert-file="+pki("apiserver.crt"), "--tls-private-key-file="+pki("apiserver.key"),
		"--kubelet-client-certificate="+pki("apiserver-kubelet-client.crt"),
		"--kubelet-client-key="+pki("apiserver-kubelet-client.key"),
		"--kubelet-certificate-authority="+pki("ca.crt"),
		"--kubelet-preferred-address-types=InternalIP",
		"--service-account-issuer="+issuer, "--api-audiences="+issuer,
		"--service-account-key-file="+pki("sa.pub"), "--service-account-signing-key-file="+pki("sa.key"),
		"--service-cluster-ip-range="+s.ServiceCIDR.String(),
		"--authorization-mode=Node,RBAC", "--enable-admission-plugins=NodeRestriction",
		"--allow-privileged=true", "--profiling=false")
	// Pods find the API server at the kubernetes Service's address and port 443, which
	// the API server's certificate names.
	add("kubernetes-service-proxy", []netip.AddrPort{at(s.APIServiceIP, 443)},
		cp.Path("bin", "kubernetes-service-proxy"),
		fmt.Sprintf("TCP-LISTEN:443,bind=%s,reuseaddr,fork", s.APIServiceIP), fmt.Sprintf("TCP:127.0.0.1:%d", p.API))
	// The service-account key, root CA and signing CA make ServiceAccount tokens, the
	// kube-root-ca.crt ConfigMap and CSR signing work.
	add("kube-controller-manager", []netip.AddrPort{at(loopback, p.ControllerManager)},
		k8s("kube-controller-manager"),
		"--kubeconfig="+config("controller-manager.kubeconfig"),
		"--authentication-kubeconfig="+config("controller-manager.kubeconfig"),
		"--authorization-kubeconfig="+config("controller-manager.kubeconfig"),
		"--bind-address=127.0.0.1", fmt.Sprintf("--secure-port=%d", p.ControllerManager),
		"--service-account-private-key-file="+pki("sa.key"), "--root-ca-file="+pki("ca.crt"),
		"--cluster-signing-cert-file="+pki("ca.crt"), "--cluster-signing-key-file="+pki("ca.key"),
		"--use-service-account-credentials=true",
		"--service-cluster-ip-range="+s.ServiceCIDR.String(), "--leader-elect=false")
	add("kube-scheduler", []netip.AddrPort{at(loopback, p.Scheduler)},
		k8s("kube-scheduler"),
		"--kubeconfig="+config("scheduler.kubeconfig"),
		"--authentication-kubeconfig="+config("scheduler.kubeconfig"),
		"--authorization-kubeconfig="+config("scheduler.kubeconfig"),
		"--bind-address=127.0.0.1", fmt.Sprintf("--secure-port=%d", p.Scheduler), "--leader-elect=false")
	if s.Registry != "" {
		reg, err := netip.ParseAddrPort(s.Registry)
		var ports []netip.AddrPort
		if err == nil {
			ports = []netip.AddrPort{reg}
		}
		procs = append(procs, HostProcess{Name: "registry", Ports: ports,
			Argv: []string{cp.Path("bin", "registry"), "serve", config("registry.yml")},
			// distribution exports OpenTelemetry traces to a collector on loopback by
			// default, which is not there.
			Env: []string{"OTEL_TRACES_EXPORTER=none"}})
	}
	add("containerd", nil, b.Containerd, "--config="+config("containerd.toml"))
	// --node-ip: without it the kubelet would publish the address of the default
	// route's interface, which nothing may connect to.
	add("kubelet", []netip.AddrPort{at(loopback, KubeletHealthzPort), at(cp.NodeIP, KubeletPort)},
		k8s("kubelet"), "--config="+config("kubelet.yaml"),
		"--kubeconfig="+config("kubelet.kubeconfig"), "--root-dir="+cp.Path("kubelet"),
		"--hostname-override="+cp.NodeName, "--node-ip="+cp.NodeIP.String())
	// After the kubelet: kube-proxy reads the node's addresses from its Node object.
	add("kube-proxy", []netip.AddrPort{at(loopback, KubeProxyHealthzPort), at(loopback, KubeProxyMetricsPort)},
		k8s("kube-proxy"), "--config="+config("kube-proxy.yaml"))
	var dns []netip.AddrPort
	for _, a := range cp.DNSAddresses() {
		dns = append(dns, at(a, 53))
	}
	add("coredns", append(dns, at(loopback, p.DNSReady)), cp.Path("bin", "coredns"), "-conf", config("Corefile"))
	return procs
}
