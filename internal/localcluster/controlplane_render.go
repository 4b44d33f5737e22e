package localcluster

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// ControlPlaneFile is one configuration file of the first node, by its path below the
// cluster's directory, and the processes that read it only when they start (a change
// restarts them).
type ControlPlaneFile struct {
	Path  string
	Data  []byte
	Users []string
	// Secret files hold a key.
	Secret bool
}

// RenderControlPlane writes every configuration file of the first node. Pure: the
// same settings, layout and PKI give the same bytes, which is how up finds the
// processes whose configuration changed.
func RenderControlPlane(cp ControlPlane, l Layout, p PKI) ([]ControlPlaneFile, error) {
	var files []ControlPlaneFile
	add := func(path string, data []byte, secret bool, users ...string) {
		files = append(files, ControlPlaneFile{Path: path, Data: data, Users: users, Secret: secret})
	}
	ca := p.CA.CertPEM
	for _, k := range []struct{ path, cert, user, process string }{
		{"kubeconfig", "admin", "kubernetes-admin", ""},
		{"config/controller-manager.kubeconfig", "controller-manager", "system:kube-controller-manager", "kube-controller-manager"},
		{"config/scheduler.kubeconfig", "scheduler", "system:kube-scheduler", "kube-scheduler"},
		{"config/kubelet.kubeconfig", "kubelet", "system:node:" + cp.NodeName, "kubelet"},
		{"config/kube-proxy.kubeconfig", "kube-proxy", "system:kube-proxy", "kube-proxy"},
		{"config/coredns.kubeconfig", "coredns", CoreDNSUser, "coredns"},
	} {
		pair, ok := p.Certs[k.cert]
		if !ok {
			return nil, fmt.Errorf("no certificate %s for %s", k.cert, k.path)
		}
		b, err := kubeconfig(cp.APIServer(), k.user, ca, pair.Cert, pair.Key)
		if err != nil {
			return nil, err
		}
		if k.process == "" {
			add(k.path, b, true)
		} else {
			add(k.path, b, true, k.process)
		}
	}
	add("config/Corefile", corefile(cp, l), false, "coredns")

	s := cp.Settings
	proxy, err := kubeProxyConfig(s, cp.Path("config", "kube-proxy.kubeconfig"), cp.NodeName, cp.NodeIP)
	if err != nil {
		return nil, err
	}
	add("config/kube-proxy.yaml", proxy, false, "kube-proxy")
	kubelet, err := kubeletConfig(s, kubeletParams{
		Address:      cp.NodeIP,
		TLSCertFile:  cp.Path("pki", "kubelet-serving.crt"),
		TLSKeyFile:   cp.Path("pki", "kubelet-serving.key"),
		ClientCAFile: cp.Path("pki", "ca.crt"),
		Socket:       cp.Socket(),
		PodLogsDir:   cp.Path("logs", "pods"),
	})
	if err != nil {
		return nil, err
	}
	add("config/kubelet.yaml", kubelet, false, "kubelet")
	containerd, err := ContainerdConfig(s, ContainerdPaths{
		Root: cp.Path("containerd"), RunDir: cp.RunDir, Socket: cp.Socket(),
		CNIConfDir: CNIConfDir, CertsDir: cp.Path("config", "certs.d"),
	})
	if err != nil {
		return nil, err
	}
	add("config/containerd.toml", containerd, false, "containerd")
	if s.Registry != "" {
		// containerd reads it on every pull.
		add("config/certs.d/"+s.Registry+"/hosts.toml", RegistryHosts(s.Registry), false)
		add("config/registry.yml", registryConfig(cp), false, "registry")
	}
	cni, err := cniConfig(s, cp.PodCIDR, cp.Path("cni", "ipam"))
	if err != nil {
		return nil, err
	}
	add("cni/net.d/10-"+CNINetwork+".conflist", cni, false)
	if s.MultusDir != "" {
		admin := p.Certs["admin"]
		wa, err := whereaboutsFiles(cp.APIServer(), Credentials{CA: ca, AdminCert: admin.Cert, AdminKey: admin.Key})
		if err != nil {
			return nil, err
		}
		for _, rel := range slices.Sorted(maps.Keys(wa)) {
			add(filepath.Join("cni", "net.d", rel), wa[rel], true)
		}
	}
	add("config/crictl.yaml", crictlConfig(cp.Socket()), false)
	return files, nil
}

// corefile: the kubernetes plugin answers Services (ClusterIP, or the ready endpoints
// of a headless one), the StatefulSet names <pod>.<service>.<namespace>.svc, and the
// reverse names of those addresses; "pods insecure" answers <a-b-c-d>.<namespace>.pod
// names without watching pods, as kubeadm's default does. The workers' names and
// their reverse names come from DNSTemplates, as a site's DNS names its machines. The
// more specific zones of the first block take precedence. No upstream exists here:
// every other name is answered NXDOMAIN at once by the second block, where "no
// upstream server" (REFUSED) would make resolvers retry.
func corefile(cp ControlPlane, l Layout) []byte {
	s := cp.Settings
	var bind []string
	for _, a := range cp.DNSAddresses() {
		bind = append(bind, a.String())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s:53 in-addr.arpa:53 %s:53 {\n", s.ClusterDomain, s.Domain)
	fmt.Fprintf(&b, "    bind %s\n    errors\n    ready 127.0.0.1:%d\n", strings.Join(bind, " "), cp.Ports.DNSReady)
	for _, line := range strings.SplitAfter(string(DNSTemplates(l, FirstNode{Name: cp.NodeName, IP: cp.NodeIP})), "\n") {
		if line != "" {
			b.WriteString("    " + line)
		}
	}
	fmt.Fprintf(&b, "    kubernetes %s in-addr.arpa {\n        kubeconfig %s\n        pods insecure\n    }\n}\n",
		s.ClusterDomain, cp.Path("config", "coredns.kubeconfig"))
	fmt.Fprintf(&b, ".:53 {\n    bind %s\n    errors\n    template ANY ANY {\n        rcode NXDOMAIN\n    }\n}\n", strings.Join(bind, " "))
	return []byte(b.String())
}

// registryConfig: the registry answers on the first node's address. Deleting is
// allowed so that hack/images/push.sh can replace a tag's manifest and an operator
// can clean up; nothing deletes on its own.
func registryConfig(cp ControlPlane) []byte {
	return []byte(fmt.Sprintf(`version: 0.1
log:
  level: warn
storage:
  filesystem:
    rootdirectory: %s
  delete:
    enabled: true
http:
  addr: %s
  secret: hco-local-cluster
`, cp.RegistryDir, cp.Settings.Registry))
}
