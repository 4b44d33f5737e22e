package localcluster

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/template"
	"time"
)

// Multus on the local cluster, installed as a real cluster installs it: the thick
// plugin's daemon as a DaemonSet (its image from the cluster's registry), its shim and
// whereabouts' IPAM as CNI binaries on every node. Two things make the nodes alike for
// a DaemonSet, whose one pod template names host paths: every node sees its own CNI
// configuration at CNIConfDir and its own daemon socket at MultusSocketDir, the first
// node's by a bind mount on the host, a worker's by one in its mount namespace.
const (
	// CNIConfDir is where every node's containerd, the Multus daemon and whereabouts
	// read the node's CNI configuration.
	CNIConfDir = "/etc/cni/net.d"
	// MultusSocketDir is where multus-shim finds the node's daemon.
	MultusSocketDir = "/run/multus"
	// NetNSDir holds the pods' network namespaces on every node: containerd's default,
	// a shared mount (ip-netns makes the host's one), so that the Multus daemon sees
	// the namespaces of pods created after it started.
	NetNSDir = "/run/netns"
	// multusDaemonSocketDir is the daemon's socket directory, which 00-multus.conf
	// tells the shim.
	multusDaemonSocketDir = MultusSocketDir + "/daemon"
	// MultusNamespace holds the daemon, as Multus's own manifests place it.
	MultusNamespace = "kube-system"
	// whereaboutsDir is whereabouts' configuration, below CNIConfDir, where the
	// whereabouts binary looks by default: NetworkAttachmentDefinitions need not name it.
	whereaboutsDir = "whereabouts.d"
)

// MultusBinaries are the CNI binaries hack/tools/multus.sh builds that every node's
// CNI binary directory gets beside the reference plugins.
var MultusBinaries = []string{"multus-shim", "whereabouts"}

// CNIBinaries maps each name of the cluster's CNI binary directory to its binary: the
// reference plugins of hostPlugins (Debian's containernetworking-plugins), then
// Multus's shim and whereabouts from multusDir. One directory, since containerd and
// Multus each take one.
func CNIBinaries(hostPlugins []string, hostDir, multusDir string) map[string]string {
	out := map[string]string{}
	for _, p := range hostPlugins {
		out[p] = filepath.Join(hostDir, p)
	}
	for _, b := range MultusBinaries {
		out[b] = filepath.Join(multusDir, b)
	}
	return out
}

// EnsureCNIBinDir fills s.CNIBinDir with copies of hostDir's plugins and Multus's
// binaries, and removes anything else. Copies, not links: the Multus daemon looks a
// plugin up in its container, where the directory is mounted alone.
func EnsureCNIBinDir(s Settings, hostDir string) error {
	entries, err := os.ReadDir(hostDir)
	if err != nil {
		return fmt.Errorf("the reference CNI plugins: %w (Debian's containernetworking-plugins installs them)", err)
	}
	var plugins []string
	for _, e := range entries {
		if !e.IsDir() {
			plugins = append(plugins, e.Name())
		}
	}
	for _, b := range MultusBinaries {
		if _, err := os.Stat(filepath.Join(s.MultusDir, b)); err != nil {
			return fmt.Errorf("multus directory %s: %w (hack/tools/multus.sh builds it)", s.MultusDir, err)
		}
	}
	binaries := CNIBinaries(plugins, hostDir, s.MultusDir)
	if err := os.MkdirAll(s.CNIBinDir, 0o755); err != nil {
		return err
	}
	have, err := os.ReadDir(s.CNIBinDir)
	if err != nil {
		return err
	}
	for _, e := range have {
		if _, ok := binaries[e.Name()]; !ok {
			if err := os.Remove(filepath.Join(s.CNIBinDir, e.Name())); err != nil {
				return err
			}
		}
	}
	for name, src := range binaries {
		b, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if _, err := writeIfChanged(filepath.Join(s.CNIBinDir, name), b, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// whereaboutsFiles are a node's whereabouts configuration, relative to its CNI
// configuration directory: the file whereabouts reads by default, and a kubeconfig for
// its IP pools. server is how the node reaches the API server.
func whereaboutsFiles(server string, c Credentials) (map[string][]byte, error) {
	kc, err := kubeconfig(server, "hco-admin", c.CA, c.AdminCert, c.AdminKey)
	if err != nil {
		return nil, err
	}
	conf, err := json.MarshalIndent(map[string]any{
		"datastore": "kubernetes",
		"kubernetes": map[string]string{
			"kubeconfig": filepath.Join(CNIConfDir, whereaboutsDir, "whereabouts.kubeconfig"),
		},
	}, "", "  ")
	if err != nil {
		return nil, err
	}
	return map[string][]byte{
		filepath.Join(whereaboutsDir, "whereabouts.conf"):       append(conf, '\n'),
		filepath.Join(whereaboutsDir, "whereabouts.kubeconfig"): kc,
	}, nil
}

// MultusManifest is the daemon's DaemonSet with its identity and configuration. The
// daemon writes the node's 00-multus.conf, which delegates to the pod network's
// configuration, and runs the plugins chrooted into the node's root, so the CNI binary
// directory is mounted at its own path. The node's root comes without propagation (the
// hosts of the local cluster have private mounts, which HostToContainer refuses);
// NetNSDir, a shared mount on every node, comes with it, into both places the daemon
// and the plugins open pods' namespaces. The NetworkAttachmentDefinition CRD comes with
// the Multus release (hack/tools/multus.sh keeps it), applied beside this.
func MultusManifest(s Settings, image string) ([]byte, error) {
	daemon, err := json.MarshalIndent(map[string]any{
		"chrootDir":           "/hostroot",
		"cniVersion":          "1.0.0",
		"logLevel":            "verbose",
		"logToStderr":         true,
		"binDir":              s.CNIBinDir,
		"cniConfigDir":        "/host" + CNIConfDir,
		"multusAutoconfigDir": "/host" + CNIConfDir,
		"multusConfigFile":    "auto",
		// A directory below the mounted one: the daemon removes and makes it again.
		"socketDir":       "/host" + multusDaemonSocketDir,
		"daemonSocketDir": multusDaemonSocketDir,
	}, "    ", "  ")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = multusTemplate.Execute(&b, map[string]string{
		"Namespace": MultusNamespace, "Image": image, "DaemonConfig": string(daemon),
		"CNIConfDir": CNIConfDir, "CNIBinDir": s.CNIBinDir, "SocketDir": MultusSocketDir, "NetNSDir": NetNSDir,
	})
	return b.Bytes(), err
}

var multusTemplate = template.Must(template.New("multus").Parse(`# Multus's thick plugin on the local cluster (internal/localcluster/multus.go).
apiVersion: v1
kind: ServiceAccount
metadata:
  name: multus
  namespace: {{.Namespace}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: hco-multus
rules:
  - apiGroups: ["k8s.cni.cncf.io"]
    resources: ["*"]
    verbs: ["get", "list", "watch"]
  - apiGroups: [""]
    resources: ["pods", "pods/status"]
    verbs: ["get", "list", "watch", "update", "patch"]
  - apiGroups: ["", "events.k8s.io"]
    resources: ["events"]
    verbs: ["create", "patch", "update"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: hco-multus
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: hco-multus
subjects:
  - kind: ServiceAccount
    name: multus
    namespace: {{.Namespace}}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: multus-daemon-config
  namespace: {{.Namespace}}
data:
  daemon-config.json: |
    {{.DaemonConfig}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: multus
  namespace: {{.Namespace}}
  labels:
    app.kubernetes.io/name: multus
spec:
  selector:
    matchLabels:
      app.kubernetes.io/name: multus
  template:
    metadata:
      labels:
        app.kubernetes.io/name: multus
    spec:
      hostNetwork: true
      hostPID: true
      serviceAccountName: multus
      priorityClassName: system-node-critical
      tolerations:
        - operator: Exists
      terminationGracePeriodSeconds: 10
      containers:
        - name: multus
          image: {{.Image}}
          args: ["-config", "/etc/multus/daemon-config.json"]
          env:
            - name: MULTUS_NODE_NAME
              valueFrom:
                fieldRef:
                  fieldPath: spec.nodeName
          resources:
            requests:
              cpu: 10m
              memory: 50Mi
          securityContext:
            privileged: true
          volumeMounts:
            - {name: cni-conf, mountPath: /host{{.CNIConfDir}}}
            - {name: cni-bin, mountPath: {{.CNIBinDir}}}
            - {name: socket, mountPath: /host{{.SocketDir}}}
            - {name: cache, mountPath: /var/lib/cni/multus}
            - {name: kubelet, mountPath: /var/lib/kubelet}
            - {name: hostroot, mountPath: /hostroot}
            - {name: netns, mountPath: {{.NetNSDir}}, mountPropagation: HostToContainer}
            - {name: netns, mountPath: /hostroot{{.NetNSDir}}, mountPropagation: HostToContainer}
            - {name: config, mountPath: /etc/multus, readOnly: true}
      volumes:
        - {name: cni-conf, hostPath: {path: {{.CNIConfDir}}}}
        - {name: cni-bin, hostPath: {path: {{.CNIBinDir}}}}
        - {name: socket, hostPath: {path: {{.SocketDir}}, type: DirectoryOrCreate}}
        - {name: cache, hostPath: {path: /var/lib/cni/multus, type: DirectoryOrCreate}}
        - {name: kubelet, hostPath: {path: /var/lib/kubelet}}
        - {name: hostroot, hostPath: {path: /}}
        - {name: netns, hostPath: {path: {{.NetNSDir}}}}
        - {name: config, configMap: {name: multus-daemon-config}}
`))

// cniConfDirContent says what keeps dir from being the first node's CNIConfDir: any
// file in it, which the bind mount would hide (up checks before it mounts).
func cniConfDirContent(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var foreign []string
	for _, e := range entries {
		foreign = append(foreign, e.Name())
	}
	if len(foreign) > 0 {
		return fmt.Errorf("%s holds %s: the local cluster mounts the first node's CNI configuration there, which would hide them; move them away first",
			dir, strings.Join(foreign, ", "))
	}
	return nil
}

// InstallMultus applies the NetworkAttachmentDefinition and whereabouts CRDs, then
// the daemon's manifest (kept as multus.yaml in the cluster's directory, for people to
// read), and waits until the daemon runs on every node. kubectl is the cluster's.
func InstallMultus(s Settings, kubectl, kubeconfig, image string, timeout time.Duration) error {
	if s.MultusDir == "" || image == "" {
		return errors.New("multus: the Multus directory (hack/tools/multus.sh) and the daemon's image are both required")
	}
	manifest, err := MultusManifest(s, image)
	if err != nil {
		return err
	}
	file := filepath.Join(s.ClusterDir, "multus.yaml")
	if _, err := writeIfChanged(file, manifest, 0o644); err != nil {
		return err
	}
	k := func(args ...string) error {
		return run(append([]string{kubectl, "--kubeconfig", kubeconfig}, args...)...)
	}
	crds := filepath.Join(s.MultusDir, "crds")
	if err := k("apply", "--server-side", "--force-conflicts", "-f", crds); err != nil {
		return err
	}
	if err := k("wait", "--for=condition=Established", "--timeout=1m", "-f", crds); err != nil {
		return err
	}
	if err := k("apply", "--server-side", "--force-conflicts", "-f", file); err != nil {
		return err
	}
	log("waiting for the Multus daemon on every node (%s)", file)
	return k("-n", MultusNamespace, "rollout", "status", "daemonset/multus", "--timeout="+timeout.String())
}
