package localcluster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestKubeletArgv(t *testing.T) {
	l := testLayout(t, 3)
	for _, c := range []struct {
		node string
		want []string
	}{
		{"n2", []string{
			"/k8s/kubelet",
			"--config=/tmp/c/nodes/n2/config/kubelet.yaml",
			"--kubeconfig=/tmp/c/nodes/n2/config/kubelet.kubeconfig",
			"--root-dir=/var/lib/kubelet",
			"--hostname-override=n2.hco.test",
			"--node-ip=10.118.1.2",
		}},
		{"n3", []string{
			"/k8s/kubelet",
			"--config=/tmp/c/nodes/n3/config/kubelet.yaml",
			"--kubeconfig=/tmp/c/nodes/n3/config/kubelet.kubeconfig",
			"--root-dir=/var/lib/kubelet",
			"--hostname-override=n3.hco.test",
			"--node-ip=10.118.2.2",
			"--node-labels=kubernetes.io/hostname=n3",
		}},
	} {
		if got := KubeletArgv(l.Settings, testWorker(t, l, c.node)); !slices.Equal(got, c.want) {
			t.Errorf("%s: kubelet argv\n  %q\nwant\n  %q", c.node, got, c.want)
		}
	}
	want := []string{"/k8s/kube-proxy", "--config=/tmp/c/nodes/n2/config/kube-proxy.yaml"}
	if got := KubeProxyArgv(l.Settings, testWorker(t, l, "n2")); !slices.Equal(got, want) {
		t.Errorf("kube-proxy argv %q, want %q", got, want)
	}
}

func TestNodeConfigFor(t *testing.T) {
	s := DefaultSettings("/tmp/c", "/k8s")
	s.Nodes, s.PauseArchive = 2, "/cache/pause.tar"
	l, err := NewLayout(s)
	if err != nil {
		t.Fatal(err)
	}
	n := l.Workers[0]
	kubelet, proxy := []string{"kubelet", "--k"}, []string{"kube-proxy", "--p"}
	got := NodeConfigFor(l.Settings, n, kubelet, proxy)
	want := NodeConfig{
		Name: "n2.hco.test",
		Dir:  "/tmp/c/nodes/n2",
		Binds: []Bind{
			{Source: "/tmp/c/nodes/n2/kubelet", Target: "/var/lib/kubelet"},
			{Source: "/tmp/c/nodes/n2/cni/state", Target: "/var/lib/cni"},
			{Source: "/tmp/c/nodes/n2/logs/pods", Target: "/var/log/pods"},
			{Source: "/tmp/c/nodes/n2/logs/containers", Target: "/var/log/containers"},
			{Source: "/tmp/c/nodes/n2/config/hosts", Target: "/etc/hosts"},
			// At the paths the Multus DaemonSet mounts on every node; the pods'
			// namespaces shared, so that the daemon sees those made after it started.
			{Source: "/tmp/c/nodes/n2/cni/net.d", Target: "/etc/cni/net.d"},
			{Source: "/run/hco-n2/multus", Target: "/run/multus"},
			{Source: "/run/hco-n2/netns", Target: "/run/netns", Shared: true},
		},
		Sysctls: map[string]string{
			"net.ipv4.ip_forward":                "1",
			"net.bridge.bridge-nf-call-iptables": "1",
		},
		Socket:       "/run/hco-n2/containerd.sock",
		PauseArchive: "/cache/pause.tar",
		Daemons: []Daemon{
			{Name: "containerd", Argv: []string{"containerd", "--config", "/tmp/c/nodes/n2/config/containerd.toml"}},
			{Name: "kubelet", Argv: kubelet},
			{Name: "kube-proxy", Argv: proxy},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("node config\n  %+v\nwant\n  %+v", got, want)
	}

	// kube-router last: it reads the Node the kubelet registers.
	s.KubeRouter = "/bin/kube-router"
	withRouter := NodeConfigFor(s, n, kubelet, proxy)
	var names []string
	for _, d := range withRouter.Daemons {
		names = append(names, d.Name)
	}
	if want := []string{"containerd", "kubelet", "kube-proxy", "kube-router"}; !slices.Equal(names, want) {
		t.Fatalf("daemons %q with kube-router, want %q", names, want)
	}
	argv := withRouter.Daemons[3].Argv
	for _, want := range []string{"/bin/kube-router", "--run-firewall=true", "--run-router=false", "--run-service-proxy=false",
		"--kubeconfig=/tmp/c/nodes/n2/config/kube-router.kubeconfig", "--hostname-override=n2.hco.test",
		"--service-cluster-ip-range=10.96.0.0/16"} {
		if !slices.Contains(argv, want) {
			t.Errorf("kube-router argv %q lacks %s", argv, want)
		}
	}
	if argv[0] != "/bin/kube-router" {
		t.Errorf("kube-router argv[0] %q, want the configured binary", argv[0])
	}
}

func TestReadNodeConfig(t *testing.T) {
	l := testLayout(t, 2)
	n := l.Workers[0]
	cfg := NodeConfigFor(l.Settings, n, KubeletArgv(l.Settings, n), KubeProxyArgv(l.Settings, n))
	good, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	noDaemons := cfg
	noDaemons.Daemons = nil
	noDaemonsJSON, err := json.Marshal(noDaemons)
	if err != nil {
		t.Fatal(err)
	}
	noName := cfg
	noName.Name = ""
	noNameJSON, err := json.Marshal(noName)
	if err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name    string
		content []byte
		wantErr string
	}{
		{"written by up", good, ""},
		{"no daemons", noDaemonsJSON, "daemons are required"},
		{"no name", noNameJSON, "name, dir and daemons are required"},
		{"not JSON", []byte("{"), "unexpected end of JSON input"},
		{"missing", nil, "no such file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "node.json")
			if c.content != nil {
				if err := os.WriteFile(path, c.content, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			got, err := ReadNodeConfig(path)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || !strings.Contains(err.Error(), path) {
					t.Fatalf("error %v, want one naming %s and saying %q", err, path, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, cfg) {
				t.Errorf("read back\n  %+v\nwant\n  %+v", got, cfg)
			}
		})
	}
}

const supervisorChildEnv = "HCO_LOCALCLUSTER_SUPERVISOR_CHILD"

// TestSupervisor runs real processes, in a test binary of its own: the reaper waits
// for any child of its process and goes on after its context ends, so it would take
// the exit of any other test's subprocess, and of this test's own under -count.
func TestSupervisor(t *testing.T) {
	if os.Getenv(supervisorChildEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSupervisor$", "-test.count=1", "-test.v", "-test.timeout=2m")
		cmd.Env = append(os.Environ(), supervisorChildEnv+"=1")
		out, err := cmd.CombinedOutput()
		switch {
		case err != nil:
			t.Fatalf("%v\n%s", err, out)
		case bytes.Contains(out, []byte("--- SKIP: TestSupervisor")):
			t.Skipf("%s", out)
		case !bytes.Contains(out, []byte("--- PASS: TestSupervisor")):
			t.Fatalf("the supervisor test did not run:\n%s", out)
		}
		return
	}
	supervisorTest(t)
}

func supervisorTest(t *testing.T) {
	for _, tool := range []string{"sh", "sleep"} {
		if _, err := os.Stat("/bin/" + tool); err != nil {
			t.Skipf("no /bin/%s: %v", tool, err)
		}
	}
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	order := filepath.Join(dir, "order")
	sup := newSupervisor(logs)
	quit := make(chan struct{})
	reaped := make(chan struct{})
	go func() { sup.reap(quit); close(reaped) }()

	if err := sup.runOnce(Daemon{Name: "once", Argv: []string{"sh", "-c", "echo once"}}); err != nil {
		t.Fatalf("runOnce of a command that succeeds: %v", err)
	}
	waitForLog(t, filepath.Join(logs, "once.log"), "once")
	if err := sup.runOnce(Daemon{Name: "fails", Argv: []string{"sh", "-c", "exit 3"}}); err == nil || !strings.Contains(err.Error(), "fails.log") {
		t.Errorf("runOnce of a command that fails: %v, want an error naming its log", err)
	}

	// A daemon with Restart starts again after it exits, and is not reported as failed.
	counter := filepath.Join(dir, "restarts")
	if err := sup.start(Daemon{Name: "restarter", Restart: true, Argv: []string{"sh", "-c", "echo x >> " + counter + "; exit 1"}}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		b, _ := os.ReadFile(counter)
		if strings.Count(string(b), "x") >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a daemon with Restart ran %d times in 15 s, want 2", strings.Count(string(b), "x"))
		}
		time.Sleep(100 * time.Millisecond)
	}

	if err := sup.start(Daemon{Name: "quitter", Argv: []string{"sh", "-c", "echo quitting"}}); err != nil {
		t.Fatal(err)
	}
	select {
	case name := <-sup.failed:
		if name != "quitter" {
			t.Errorf("exited: %q, want quitter", name)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("a daemon that ended was not reported")
	}
	waitForLog(t, filepath.Join(logs, "quitter.log"), "quitting")

	// Each notes its own stop in a shared file, so the file tells the order; the
	// "ready" line says the trap is set, before which TERM would end the shell silently.
	for _, name := range []string{"first", "second"} {
		script := fmt.Sprintf("trap 'echo %s >> %s; exit 0' TERM; echo ready; while :; do sleep 0.05; done", name, order)
		if err := sup.start(Daemon{Name: name, Argv: []string{"sh", "-c", script}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := sup.start(Daemon{Name: "sleep", Argv: []string{"sleep", "30"}}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"first", "second"} {
		waitForLog(t, filepath.Join(logs, name+".log"), "ready")
	}
	if err := sup.start(Daemon{Name: "nonesuch", Argv: []string{"hco-no-such-command"}}); err == nil {
		t.Error("no error starting a command that is not there")
	}

	sup.mu.Lock()
	procs := slices.Clone(sup.daemons)
	sup.mu.Unlock()
	if len(procs) != 5 {
		t.Fatalf("%d daemons listed, want 5 (restarter, quitter, first, second, sleep)", len(procs))
	}
	for _, p := range procs[2:] {
		if err := syscall.Kill(p.pid, 0); err != nil {
			t.Fatalf("%s (pid %d) not running before the stop: %v", p.daemon.Name, p.pid, err)
		}
	}

	stopped := make(chan struct{})
	go func() { sup.stopAll(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(15 * time.Second):
		t.Fatal("stopAll still waiting after 15 s")
	}

	close(quit)
	select {
	case <-reaped:
	case <-time.After(5 * time.Second):
		t.Fatal("the reaper goes on after quit")
	}
	for _, p := range procs[1:] {
		if err := syscall.Kill(p.pid, 0); err == nil {
			t.Errorf("%s (pid %d) still there after stopAll", p.daemon.Name, p.pid)
		}
	}
	if b, err := os.ReadFile(order); err != nil || string(b) != "second\nfirst\n" {
		t.Errorf("stop order %q (%v), want second then first", b, err)
	}
	for _, name := range []string{"quitter", "first", "second", "sleep"} {
		b, err := os.ReadFile(filepath.Join(logs, name+".log"))
		if err != nil {
			t.Error(err)
			continue
		}
		if !slices.ContainsFunc(strings.Split(string(b), "\n"), func(l string) bool { return strings.HasPrefix(l, "==== ") }) {
			t.Errorf("%s.log has no ==== header line:\n%s", name, b)
		}
	}
}

// waitForLog waits for a line that is text exactly: the log's header line quotes the
// command, which may contain the text too.
func waitForLog(t *testing.T, path, text string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		b, _ := os.ReadFile(path)
		if slices.Contains(strings.Split(string(b), "\n"), text) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s does not say %q after 15 s:\n%s", path, text, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
