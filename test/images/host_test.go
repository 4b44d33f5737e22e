//go:build imagetest

package images

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/repo"
)

// ports are the image contract's (the ResourceManager's 8030-8033 and 8088, the
// NodeManager's 8040-8042 and 13562, the JobHistory server's 10020, 10033 and 19888)
// and HDFS's, which the test's daemons take on this machine.
var ports = []int{8030, 8031, 8032, 8033, 8088, 8040, 8041, 8042, 13562, 10020, 10033, 19888, 8020, 9870, 9864, 9866, 9867}

// What the outside hands the run in the mount namespace, in its environment.
const (
	// workEnv names the work directory, and marks that run.
	workEnv = "HCO_IMAGE_TEST_WORK"
	// testRootEnv is the run's directory on CephFS, without its leading slash.
	testRootEnv = "HCO_IMAGE_TEST_ROOT"
	// imagesEnv is the images' cache of hack/images (IMAGES_OUT).
	imagesEnv = "HCO_IMAGE_TEST_IMAGES"
)

// hackEnv is what the hack/ scripts' shared files say about the Hadoop image and the
// local Ceph, so that the test uses their paths and names.
type hackEnv struct {
	// imagesOut is hack/images/lib.sh's IMAGES_OUT, tmp its HCO_TMP.
	imagesOut, tmp string
	// archive, tag and ref are the Hadoop image's archive, tag and reference.
	archive, tag, ref string
	// monHost and keyring are the local Ceph's monitors and its client's keyring.
	monHost, keyring string
	client           cephClient
}

func readHackEnv(root string) (hackEnv, error) {
	const script = `source hack/images/lib.sh && source hack/ceph/env.sh &&
		printf '%s\n' "$IMAGES_OUT" "$HCO_TMP" "$(image_archive hadoop)" "$(image_tag hadoop)" "$(image_ref hadoop)" \
			"$CEPH_MON_HOST" "$CEPH_CLIENT_KEYRING" "$CEPH_CLIENT_ID" "$CEPH_FS_NAME"`
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return hackEnv{}, fmt.Errorf("reading hack/images/lib.sh and hack/ceph/env.sh: %w", err)
	}
	v := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(v) != 9 {
		return hackEnv{}, fmt.Errorf("reading hack/images/lib.sh and hack/ceph/env.sh: %d values, want 9: %q", len(v), v)
	}
	return hackEnv{
		imagesOut: v[0], tmp: v[1], archive: v[2], tag: v[3], ref: v[4],
		monHost: v[5], keyring: v[6], client: cephClient{id: v[7], fs: v[8]},
	}, nil
}

// runOutside prepares the image, Ceph and the configuration, then runs the specs in a
// private mount namespace.
func runOutside(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Fatal("the image test mounts the image's volumes, chroots into it and runs its commands as its user, which only root may do: run it as root (sudo -E make test-image)")
	}
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	for _, port := range ports {
		if conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second); err == nil {
			conn.Close()
			t.Fatalf("port %d is in use: another Hadoop daemon runs on this machine", port)
		}
	}
	env, err := readHackEnv(root)
	if err != nil {
		t.Fatal(err)
	}
	testRoot := fmt.Sprintf("hco-image-tests/run-%d", os.Getpid())
	conf, err := renderConf(filepath.Join(root, goldenConf), testProperties(env.client, testRoot))
	if err != nil {
		t.Fatal(err)
	}
	script(t, root, "", "source hack/images/lib.sh && ensure_debs umoci")
	script(t, root, "", "hack/images/build.sh hadoop")
	startCeph(t, root)

	work := workDir(t, env.tmp)
	t.Logf("unpacking %s", env.ref)
	layout := filepath.Join(work, "layout")
	mkdir(t, layout)
	script(t, root, "", `tar -xf "$1" -C "$2"`, env.archive, layout)
	script(t, root, "/dev/null", `umoci unpack --image "$1:$2" "$3"`, layout, env.tag, filepath.Join(work, "bundle"))
	if err := os.RemoveAll(layout); err != nil {
		t.Fatal(err)
	}
	writeCephClient(t, work, env)
	writeConf(t, work, conf)

	start := time.Now()
	runInside(t, work, testRoot, env.imagesOut)
	t.Logf("image test took %s", time.Since(start).Round(time.Second))
}

// script runs a bash script in the repository with args as $1...; its standard output
// goes to the file stdout ("" for the test's).
func script(t *testing.T, root, stdout, text string, args ...string) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{"-c", text, "bash"}, args...)...)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if stdout != "" {
		f, err := os.Create(stdout)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdout = f
	}
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v", text, strings.Join(args, " "), err)
	}
}

// startCeph starts the local Ceph if it is not running, and stops it again at the end
// unless HCO_KEEP_CEPH=1.
func startCeph(t *testing.T, root string) {
	check := exec.Command("hack/ceph/up.sh", "--check")
	check.Dir = root
	if check.Run() == nil {
		return
	}
	script(t, root, "/dev/null", "hack/ceph/up.sh")
	if os.Getenv("HCO_KEEP_CEPH") == "1" {
		return
	}
	t.Cleanup(func() {
		down := exec.Command("hack/ceph/down.sh")
		down.Dir = root
		down.Stderr = os.Stderr
		if err := down.Run(); err != nil {
			t.Logf("hack/ceph/down.sh: %v", err)
		}
	})
}

// workDir makes the work directory in the hack/ scripts' temporary directory, which is
// on the file system of the images' cache, whose jars the test links. It is removed at
// the end unless HCO_KEEP_TEST_WORK=1.
func workDir(t *testing.T, tmp string) string {
	mkdir(t, tmp)
	work, err := os.MkdirTemp(tmp, "image-test.")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("HCO_KEEP_TEST_WORK") == "1" {
		t.Logf("keeping the daemons' logs, the configuration and the unpacked image in %s", work)
		return work
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(work); err != nil {
			t.Errorf("removing the work directory: %v", err)
		}
	})
	return work
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// writeCephClient writes what the client config Secret holds (internal/cephconf): the
// monitors and the key, readable by the hadoop group only.
func writeCephClient(t *testing.T, work string, env hackEnv) {
	dir := filepath.Join(work, "volumes", "ceph")
	mkdir(t, dir)
	keyring, err := os.ReadFile(env.keyring)
	if err != nil {
		t.Fatalf("the local Ceph's client keyring: %v", err)
	}
	files := map[string][]byte{
		"ceph.conf": fmt.Appendf(nil, "[global]\nmon_host = %s\n", env.monHost),
		"keyring":   keyring,
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, content, 0o440); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(p, 0, hadoopGID); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o440); err != nil {
			t.Fatal(err)
		}
	}
}

// writeConf writes the rendered configuration files into WORK/conf.
func writeConf(t *testing.T, work string, files map[string][]byte) {
	dir := filepath.Join(work, "conf")
	mkdir(t, dir)
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, content, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runInside runs this test again, in a private mount namespace: its mounts are gone
// when it ends, and no mount of the host's propagates into it. Ginkgo's flags pass on;
// Ginkgo's timeout ends it, gracefully, a while before this test's.
func runInside(t *testing.T, work, testRoot, imagesOut string) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-test.run=^" + t.Name() + "$", "-test.timeout=0"}
	if deadline, ok := t.Deadline(); ok {
		args = append(args, fmt.Sprintf("-ginkgo.timeout=%s", time.Until(deadline)-2*time.Minute))
	}
	for _, a := range os.Args[1:] {
		if strings.HasPrefix(a, "-ginkgo.") || strings.HasPrefix(a, "--ginkgo.") {
			args = append(args, a)
		}
	}
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), workEnv+"="+work, testRootEnv+"="+testRoot, imagesEnv+"="+imagesOut)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	// Go marks every mount of the new namespace private, as unshare(1) does.
	cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS, Pdeathsig: syscall.SIGTERM}
	// SIGINT reaches the run from the terminal; SIGTERM is passed on. Either way this
	// test waits for it to stop its daemons, then cleans up.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(signals)
	if err := cmd.Start(); err != nil {
		t.Fatalf("running the checks in a private mount namespace: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		select {
		case s := <-signals:
			if s == syscall.SIGTERM {
				_ = cmd.Process.Signal(s)
			}
		case err := <-done:
			if err != nil {
				t.Errorf("the checks in the image failed (%v): Ginkgo's report above names them", err)
			}
			return
		}
	}
}
