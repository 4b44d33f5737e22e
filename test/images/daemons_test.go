//go:build imagetest

package images

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/localcluster"
)

// daemon is a process the specs started in the background in the image: a Hadoop
// daemon, or a client that runs while the next specs go on.
type daemon struct {
	cmd *exec.Cmd
	log string
	// done is closed once the process has exited and been reaped.
	done chan struct{}
}

// daemons are the ones started and not yet stopped, by name.
var daemons = map[string]*daemon{}

// start runs args in the image in the background as daemon name, with POD_NAME
// image-test-NAME and its output in WORK/NAME.log. A daemon has no time limit; should
// this process die, it gets SIGTERM.
func (r runner) start(name string, args ...string) {
	GinkgoHelper()
	log := filepath.Join(work, name+".log")
	f, err := os.Create(log)
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	cmd, err := r.with("POD_NAME=image-test-"+name).command(context.Background(), args...)
	Expect(err).NotTo(HaveOccurred())
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr.Pdeathsig = syscall.SIGTERM
	Expect(cmd.Start()).To(Succeed(), "starting %s", name)
	d := &daemon{cmd: cmd, log: log, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(d.done)
	}()
	daemons[name] = d
}

func (d *daemon) exited() bool {
	select {
	case <-d.done:
		return true
	default:
		return false
	}
}

// running returns daemon name, or an error saying it is not.
func running(name string) (*daemon, error) {
	d := daemons[name]
	if d == nil {
		return nil, fmt.Errorf("%s was not started", name)
	}
	if d.exited() {
		return nil, fmt.Errorf("%s exited; the end of its log:\n%s", name, tailFile(d.log, 30))
	}
	return d, nil
}

// httpClient asks as curl -f without -L: a redirect is an answer, a status of 400 or
// more an error.
var httpClient = &http.Client{
	Timeout:       30 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

func httpGet(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= http.StatusBadRequest {
		return body, fmt.Errorf("%s: %s", url, resp.Status)
	}
	return body, nil
}

// serves waits, at most two minutes, until daemon name answers on 127.0.0.1:port at
// path, and stops waiting when it exits. Its answer goes to WORK/NAME.http.
func serves(ctx context.Context, name string, port int, path string) error {
	url := fmt.Sprintf("http://127.0.0.1:%d%s", port, path)
	var body []byte
	var lastErr error
	answered := tries(ctx, 240, 500*time.Millisecond, func() bool {
		if _, lastErr = running(name); lastErr != nil {
			return true
		}
		body, lastErr = httpGet(ctx, url)
		return lastErr == nil
	})
	switch {
	case answered && lastErr == nil:
		return os.WriteFile(filepath.Join(work, name+".http"), body, 0o644)
	case answered:
		return lastErr
	}
	return fmt.Errorf("%s does not answer on %d%s (%w); the end of its log:\n%s", name, port, path, lastErr, tailFile(daemons[name].log, 30))
}

// logged returns a spec body that expects text in daemon name's log.
func logged(name, text string) func() {
	return func() {
		Expect(readText(filepath.Join(work, name+".log"))).To(ContainSubstring(text), "in %s.log", name)
	}
}

// stopped sends SIGTERM to daemon name, which must exit within the time given.
func stopped(ctx context.Context, name string, within time.Duration) error {
	d, err := running(name)
	if err != nil {
		return err
	}
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("SIGTERM to %s: %w", name, err)
	}
	select {
	case <-d.done:
		delete(daemons, name)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(within):
		return fmt.Errorf("%s did not exit within %s of SIGTERM; the end of its log:\n%s", name, within, tailFile(d.log, 30))
	}
}

// stopDaemons stops what the specs left running: SIGTERM, and SIGKILL after 30 s.
func stopDaemons() {
	for _, d := range daemons {
		if d.exited() {
			continue
		}
		_ = d.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-d.done:
		case <-time.After(30 * time.Second):
			_ = d.cmd.Process.Kill()
			<-d.done
		}
	}
}

// processes returns the processes in the image (whose root is its root file system)
// whose command line holds one of patterns: another Hadoop on this machine, such as the
// connector's tests, has NodeManagers and tasks of its own.
func processes(patterns ...string) []int {
	procs, _ := localcluster.ReadProcs()
	var pids []int
	for _, p := range procs {
		line := strings.Join(p.Argv, " ")
		if !slices.ContainsFunc(patterns, func(pat string) bool { return strings.Contains(line, pat) }) {
			continue
		}
		if root, err := os.Readlink(fmt.Sprintf("/proc/%d/root", p.PID)); err == nil && root == img.root {
			pids = append(pids, p.PID)
		}
	}
	return pids
}

// alive reports whether process pid exists and has not exited (a zombie has).
func alive(pid int) bool {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
		return err == nil
	}
	for line := range strings.Lines(string(status)) {
		if state, ok := strings.CutPrefix(line, "State:"); ok {
			return !strings.HasPrefix(strings.TrimSpace(state), "Z")
		}
	}
	return true
}
