//go:build imagetest

package images

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The image's hadoop user (its USER), whom the operator's containers run as. Its only
// group is its own, so the user's groups are what chroot --userspec would give it.
const (
	hadoopUID = 1000
	hadoopGID = 1000
)

var (
	hadoopUser = &syscall.Credential{Uid: hadoopUID, Gid: hadoopGID, Groups: []uint32{hadoopGID}}
	rootUser   = &syscall.Credential{Uid: 0, Gid: 0, Groups: []uint32{0}}
)

const (
	// commandTimeout bounds a command in the image: a Hadoop client whose server is
	// gone retries for many minutes.
	commandTimeout = 300 * time.Second
	// killAfter is how long a command that ran out of time has between SIGTERM and
	// SIGKILL, as timeout --kill-after gives it.
	killAfter = 10 * time.Second
)

// podEnv is what the operator adds to every container's environment.
var podEnv = []string{"POD_NAMESPACE=hco-image-test", "HADOOP_LOG_DIR=/var/log/hadoop", "HADOOP_HEAPSIZE_MAX=512m"}

// image is the unpacked image: its root file system, and the environment and working
// directory its configuration (the bundle's config.json) gives a container, with the
// operator's additions.
type image struct {
	root string
	env  []string
	cwd  string
}

func loadImage(bundle string) (*image, error) {
	b, err := os.ReadFile(filepath.Join(bundle, "config.json"))
	if err != nil {
		return nil, err
	}
	var spec struct {
		Process struct {
			Env []string `json:"env"`
			Cwd string   `json:"cwd"`
		} `json:"process"`
	}
	if err := json.Unmarshal(b, &spec); err != nil {
		return nil, fmt.Errorf("%s/config.json: %w", bundle, err)
	}
	// As /proc/PID/root names it for a process in the image.
	root, err := filepath.EvalSymlinks(filepath.Join(bundle, "rootfs"))
	if err != nil {
		return nil, err
	}
	img := &image{root: root, cwd: spec.Process.Cwd}
	for _, e := range spec.Process.Env {
		// umoci's, for a terminal; no container of the operator's has it.
		if !strings.HasPrefix(e, "TERM=") {
			img.env = append(img.env, e)
		}
	}
	img.env = append(img.env, podEnv...)
	return img, nil
}

// runner runs commands in the image as a container of the operator's runs them: in its
// root file system, in its working directory, as user, with the image's and the pod's
// environment and then env, each for at most timeout. Its methods return changed
// copies, so that a runner for HDFS's clients or root is a variable.
type runner struct {
	img     *image
	user    *syscall.Credential
	env     []string
	timeout time.Duration
}

func newRunner(img *image) runner {
	return runner{img: img, user: hadoopUser, timeout: commandTimeout}
}

// with adds NAME=VALUE settings to the environment, over the image's and the pod's.
func (r runner) with(env ...string) runner {
	r.env = slices.Concat(r.env, env)
	return r
}

func (r runner) as(user *syscall.Credential) runner {
	r.user = user
	return r
}

func (r runner) limit(timeout time.Duration) runner {
	r.timeout = timeout
	return r
}

// command prepares args in the image; args[0] is looked up on the image's PATH.
func (r runner) command(ctx context.Context, args ...string) (*exec.Cmd, error) {
	env := slices.Concat(r.img.env, r.env)
	pathList := ""
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "PATH="); ok {
			pathList = v
		}
	}
	p, err := lookPath(r.img.root, pathList, args[0])
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, p, args[1:]...)
	cmd.Args[0] = args[0]
	cmd.Env = env
	cmd.Dir = r.img.cwd
	cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: r.img.root, Credential: r.user}
	return cmd, nil
}

// result is what a command in the image did.
type result struct {
	command        string
	stdout, stderr []byte
	// log, when set, holds its standard output and error.
	log string
	err error
}

// run runs args in the image and keeps their output.
func (r runner) run(ctx context.Context, args ...string) result {
	var stdout, stderr bytes.Buffer
	err := r.execute(ctx, &stdout, &stderr, args)
	return result{command: strings.Join(args, " "), stdout: stdout.Bytes(), stderr: stderr.Bytes(), err: err}
}

// runLogged runs args in the image with their standard output and error in the file
// log.
func (r runner) runLogged(ctx context.Context, log string, args ...string) result {
	res := result{command: strings.Join(args, " "), log: log}
	f, err := os.Create(log)
	if err != nil {
		res.err = err
		return res
	}
	defer f.Close()
	res.err = r.execute(ctx, f, f, args)
	return res
}

// execute runs args in a process group of their own, which gets SIGTERM when they run
// out of time and SIGKILL killAfter later, as under timeout(1): a Hadoop command's JVM
// is a child of its shell script.
func (r runner) execute(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	cmd, err := r.command(ctx, args...)
	if err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr.Setpgid = true
	cmd.Cancel = func() error {
		group := -cmd.Process.Pid
		time.AfterFunc(killAfter, func() { _ = syscall.Kill(group, syscall.SIGKILL) })
		return syscall.Kill(group, syscall.SIGTERM)
	}
	cmd.WaitDelay = killAfter
	err = cmd.Run()
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("%w, stopped after at most %s: %w", err, r.timeout, ctx.Err())
	}
	return err
}

// exitCode is the command's exit status; -1 when it did not exit by itself.
func (res result) exitCode() int {
	var exit *exec.ExitError
	switch {
	case res.err == nil:
		return 0
	case errors.As(res.err, &exit):
		return exit.ExitCode()
	}
	return -1
}

// String describes the command for a check's message: what ran, how it ended, and the
// end of its standard error or log.
func (res result) String() string {
	end := tail(res.stderr, 20)
	if res.log != "" {
		end = tailFile(res.log, 20)
	}
	status := "exit status 0"
	if res.err != nil {
		status = res.err.Error()
	}
	if end == "" {
		return fmt.Sprintf("`%s`: %s", res.command, status)
	}
	return fmt.Sprintf("`%s`: %s; the end of its output:\n%s", res.command, status, end)
}

// succeeded expects res to have exited 0.
func succeeded(res result) {
	GinkgoHelper()
	Expect(res.err).NotTo(HaveOccurred(), "%s", res)
}

// tail is the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.SplitAfter(strings.TrimSuffix(string(out), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "")
}

// readText is the contents of the file name, or why it has none.
func readText(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// tailFile is the last n lines of the file name, or why there are none.
func tailFile(name string, n int) string {
	return tail([]byte(readText(name)), n)
}

// save writes a command's output to WORK/name, where HCO_KEEP_TEST_WORK=1 keeps it.
func save(name string, content []byte) {
	GinkgoHelper()
	Expect(os.WriteFile(filepath.Join(work, name), content, 0o644)).To(Succeed())
}

// tries calls try up to n times, pause apart, until it reports success.
func tries(ctx context.Context, n int, pause time.Duration, try func() bool) bool {
	for range n {
		if try() {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(pause):
		}
	}
	return false
}
