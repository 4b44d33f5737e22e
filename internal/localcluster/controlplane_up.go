package localcluster

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/restget"
)

// FirstNodeUp starts the control plane and the first node, or keeps what runs with the
// wanted command line and configuration: a healthy cluster is reported as such in a
// few seconds. What is missing or changed is (re)started, in order, each awaited
// before the next.
type FirstNodeUp struct {
	CP       ControlPlane
	Layout   Layout
	Binaries Binaries
	// PauseArchive is imported into containerd before the kubelet starts.
	PauseArchive string
	// Started lists what this run started.
	Started []string

	procs   map[string]HostProcess
	restart map[string]bool
	fresh   bool
	client  kubernetes.Interface
	https   *http.Client
}

// Up brings the first node up, as hack/cluster/up.sh's steps did: the node's address,
// the host's settings, the PKI and the files, then each process.
func (u *FirstNodeUp) Up(ctx context.Context) error {
	cp := u.CP
	if err := cp.Validate(); err != nil {
		return err
	}
	u.procs = map[string]HostProcess{}
	for _, p := range ControlPlaneProcesses(cp, u.Binaries) {
		u.procs[p.Name] = p
	}
	u.restart = map[string]bool{}
	u.fresh = !exists(cp.Path("etcd")) && len(u.CP.processes("etcd")) == 0
	// A fresh cluster starts with empty logs; the previous cluster's stay in
	// logs.previous.
	if logs := cp.Path("logs"); u.fresh && exists(logs) {
		_ = os.RemoveAll(logs + ".previous")
		if err := os.Rename(logs, logs+".previous"); err != nil {
			return err
		}
	}
	if err := u.network(); err != nil {
		return fmt.Errorf("the first node's network: %w", err)
	}
	if err := u.bridgeNetfilter(); err != nil {
		return err
	}
	pki, reissued, err := EnsurePKI(cp.Path("pki"), cp, time.Now())
	if err != nil {
		return fmt.Errorf("PKI in %s: %w", cp.Path("pki"), err)
	}
	u.mark(reissued...)
	if err := u.writeFiles(pki); err != nil {
		return err
	}
	for link, target := range LinkedBinaries(cp, u.Binaries) {
		if err := relink(link, target); err != nil {
			return err
		}
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pki.CA.CertPEM)
	u.https = &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}

	steps := []func(context.Context) error{
		u.etcd, u.apiServer, u.serviceProxy, u.controllers, u.hostPaths, u.cniConfDir, u.registry,
		u.containerd, u.kubelet, u.kubeProxy, u.dns,
		func(ctx context.Context) error {
			return u.await(ctx, "kube-controller-manager", time.Minute, u.defaultServiceAccount)
		},
	}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (u *FirstNodeUp) mark(names ...string) {
	for _, n := range names {
		u.restart[n] = true
	}
}

// writeFiles writes the files that changed and marks their readers for a restart.
func (u *FirstNodeUp) writeFiles(pki PKI) error {
	files, err := RenderControlPlane(u.CP, u.Layout, pki)
	if err != nil {
		return err
	}
	for _, f := range files {
		mode := os.FileMode(0o644)
		if f.Secret {
			mode = 0o600
		}
		wrote, err := writeIfChanged(u.CP.Path(f.Path), f.Data, mode)
		if err != nil {
			return err
		}
		if wrote {
			u.mark(f.Users...)
		}
	}
	return nil
}

// ensure keeps the process called name when exactly one runs with its command line
// and its configuration did not change, and (re)starts it otherwise.
func (u *FirstNodeUp) ensure(name string) error {
	p := u.procs[name]
	pids := u.CP.processes(name)
	if len(pids) == 1 && !u.restart[name] && slices.Equal(argvOf(pids[0]), p.Argv) {
		return nil
	}
	if len(pids) > 0 {
		log("restarting %s: its command line or configuration changed", name)
		StopProcesses(pids, 30*time.Second)
	}
	for _, ap := range p.Ports {
		// The sockets of a process that has just exited close a moment after it.
		for i := 0; len(pids) > 0 && i < 20 && Listening(ap); i++ {
			time.Sleep(500 * time.Millisecond)
		}
		if Listening(ap) {
			return fmt.Errorf("cannot start %s: %s is in use by another program (ss -lntup 'sport = :%d' names it)", name, ap, ap.Port())
		}
	}
	log("starting %s", name)
	if err := StartDetached(p, u.CP.Path("logs", name+".log")); err != nil {
		return err
	}
	u.Started = append(u.Started, name)
	return nil
}

// await polls check every second until it succeeds, or fails naming the process's log.
func (u *FirstNodeUp) await(parent context.Context, name string, timeout time.Duration, check func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	var last error
	for {
		if last = check(ctx); last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			if parent.Err() != nil {
				return fmt.Errorf("interrupted while waiting for %s: %w", name, parent.Err())
			}
			return fmt.Errorf("timed out after %s waiting for %s (log: %s): %w", timeout, name, u.CP.Path("logs", name+".log"), last)
		case <-time.After(time.Second):
		}
	}
}

// healthy checks that url answers 200 (restget's GET; the body is not read further).
func healthy(url string, client *http.Client) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := restget.Get(ctx, client, url, 1<<20)
		return err
	}
}

var (
	plainHTTP = &http.Client{Timeout: 5 * time.Second}
	// The controller manager's and scheduler's serving certificates are self-signed.
	unverifiedHTTPS = &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // loopback health checks of self-signed servers
	}}
)

func (u *FirstNodeUp) etcd(ctx context.Context) error {
	if err := u.ensure("etcd"); err != nil {
		return err
	}
	return u.await(ctx, "etcd", time.Minute, healthy(fmt.Sprintf("http://127.0.0.1:%d/health", u.CP.Ports.EtcdClient), plainHTTP))
}

func (u *FirstNodeUp) apiServer(ctx context.Context) error {
	if err := u.ensure("kube-apiserver"); err != nil {
		return err
	}
	if err := u.await(ctx, "kube-apiserver", 2*time.Minute, healthy(u.CP.APIServer()+"/readyz", u.https)); err != nil {
		return err
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", u.CP.Kubeconfig())
	if err != nil {
		return err
	}
	cfg.Timeout = 15 * time.Second
	if u.client, err = kubernetes.NewForConfig(cfg); err != nil {
		return err
	}
	return u.await(ctx, "kube-apiserver", 30*time.Second, func(ctx context.Context) error {
		return apiServerKubeletClientBinding(ctx, u.client)
	})
}

func (u *FirstNodeUp) serviceProxy(ctx context.Context) error {
	if err := u.ensure("kubernetes-service-proxy"); err != nil {
		return err
	}
	url := "https://" + u.CP.Settings.APIServiceIP.String() + "/readyz"
	if err := u.await(ctx, "kubernetes-service-proxy", 30*time.Second, healthy(url, u.https)); err != nil {
		return err
	}
	return u.await(ctx, "kube-apiserver", time.Minute, func(ctx context.Context) error {
		return labelKubernetesService(ctx, u.client)
	})
}

func (u *FirstNodeUp) controllers(ctx context.Context) error {
	for _, name := range []string{"kube-controller-manager", "kube-scheduler"} {
		if err := u.ensure(name); err != nil {
			return err
		}
	}
	p := u.CP.Ports
	if err := u.await(ctx, "kube-controller-manager", time.Minute, healthy(fmt.Sprintf("https://127.0.0.1:%d/healthz", p.ControllerManager), unverifiedHTTPS)); err != nil {
		return err
	}
	return u.await(ctx, "kube-scheduler", time.Minute, healthy(fmt.Sprintf("https://127.0.0.1:%d/healthz", p.Scheduler), unverifiedHTTPS))
}

func (u *FirstNodeUp) registry(ctx context.Context) error {
	if u.CP.Settings.Registry == "" {
		return nil
	}
	if err := os.MkdirAll(u.CP.RegistryDir, 0o755); err != nil {
		return err
	}
	if err := u.ensure("registry"); err != nil {
		return err
	}
	return u.await(ctx, "registry", 30*time.Second, healthy("http://"+u.CP.Settings.Registry+"/v2/", plainHTTP))
}

func (u *FirstNodeUp) containerd(ctx context.Context) error {
	cp := u.CP
	for _, d := range []string{cp.RunDir, cp.Path("containerd")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if err := u.ensure("containerd"); err != nil {
		return err
	}
	ctr := func(args ...string) []string {
		return append([]string{"ctr", "--address", cp.Socket(), "--namespace", "k8s.io"}, args...)
	}
	if err := u.await(ctx, "containerd", time.Minute, func(context.Context) error { return run(ctr("version")...) }); err != nil {
		return err
	}
	if u.PauseArchive != "" {
		if err := run(ctr("images", "import", u.PauseArchive)...); err != nil {
			return fmt.Errorf("importing the pause image: %w", err)
		}
	}
	// The image store outlives a cluster, and with it the pods of one whose containerd
	// died before down could remove them. None of them belongs to a fresh cluster.
	if !u.fresh || u.Binaries.Crictl == "" {
		return nil
	}
	crictl := cp.crictl(u.Binaries.Crictl)
	pods, err := output(append(slices.Clone(crictl), "pods", "-q")...)
	if err != nil || strings.TrimSpace(pods) == "" {
		return err
	}
	log("removing pod sandboxes left by an earlier cluster")
	return run(append(crictl, "rmp", "--all", "--force")...)
}

func (u *FirstNodeUp) kubelet(ctx context.Context) error {
	cp := u.CP
	for _, d := range []string{cp.Path("kubelet"), cp.Path("logs", "pods")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if err := saveHostSysctls(cp); err != nil {
		return err
	}
	if err := u.ensure("kubelet"); err != nil {
		return err
	}
	if err := u.await(ctx, "kubelet", time.Minute, healthy(fmt.Sprintf("http://127.0.0.1:%d/healthz", KubeletHealthzPort), plainHTTP)); err != nil {
		return err
	}
	if err := u.await(ctx, "kubelet", time.Minute, func(ctx context.Context) error {
		return untaintUninitialized(ctx, u.client, cp.NodeName)
	}); err != nil {
		return err
	}
	return u.await(ctx, "kubelet", 2*time.Minute, func(ctx context.Context) error {
		return nodeIsReady(ctx, u.client, cp.NodeName)
	})
}

// kubeProxy: its health check passes once it has written the rules of every Service.
func (u *FirstNodeUp) kubeProxy(ctx context.Context) error {
	if err := u.ensure("kube-proxy"); err != nil {
		return err
	}
	return u.await(ctx, "kube-proxy", time.Minute, healthy(fmt.Sprintf("http://127.0.0.1:%d/healthz", KubeProxyHealthzPort), plainHTTP))
}

// dns: after kube-proxy, whose Service routing the addresses it gives out need.
func (u *FirstNodeUp) dns(ctx context.Context) error {
	if err := u.await(ctx, "kube-apiserver", 30*time.Second, func(ctx context.Context) error {
		return coreDNSRBAC(ctx, u.client)
	}); err != nil {
		return err
	}
	// The dnsmasq of an older cluster gives way.
	if pids := u.CP.processes("dnsmasq"); len(pids) > 0 {
		log("replacing dnsmasq with CoreDNS")
		StopProcesses(pids, 30*time.Second)
	}
	if err := u.ensure("coredns"); err != nil {
		return err
	}
	if err := u.await(ctx, "coredns", time.Minute, healthy(fmt.Sprintf("http://127.0.0.1:%d/ready", u.CP.Ports.DNSReady), plainHTTP)); err != nil {
		return err
	}
	name := "kubernetes.default.svc." + u.CP.Settings.ClusterDomain
	for _, a := range u.CP.DNSAddresses() {
		if err := u.await(ctx, "coredns", 30*time.Second, func(ctx context.Context) error {
			return answers(ctx, a, name, u.CP.Settings.APIServiceIP)
		}); err != nil {
			return err
		}
	}
	return nil
}

// answers asks the DNS server at server for name's A record, which must be want.
func answers(ctx context.Context, server netip.Addr, name string, want netip.Addr) error {
	r := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, netip.AddrPortFrom(server, 53).String())
	}}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	addrs, err := r.LookupNetIP(ctx, "ip4", name)
	if err != nil {
		return err
	}
	if !slices.Contains(addrs, want) {
		return fmt.Errorf("%s answers %s with %v, want %s", server, name, addrs, want)
	}
	return nil
}

func (u *FirstNodeUp) defaultServiceAccount(ctx context.Context) error {
	return serviceAccountExists(ctx, u.client, "default", "default")
}
