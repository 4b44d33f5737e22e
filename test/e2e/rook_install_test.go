//go:build e2e

package e2e

import (
	"bytes"
	"os/exec"
	"sync"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// rookUp is hack/rook/up.sh running in the background: rookStartSpecs start it right
// after the admission specs, so that Rook makes its mons and OSDs (five minutes on
// these machines) while the external path's specs run, and rookInstallSpecs, the
// first of the Rook path's, wait for it.
var rookUp struct {
	cmd  *exec.Cmd
	out  lockedBuffer
	done chan error
}

// rookUpTimeout bounds the wait for hack/rook/up.sh after the external path's specs: a
// first install takes about 5.5 minutes here, and those specs about 20.
const rookUpTimeout = 20 * time.Minute

// lockedBuffer is a bytes.Buffer that a command's output and a spec may use at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// rookStartSpecs start installing Rook under the running operator, which restarts
// itself to watch Rook's kinds as soon as Helm has made Rook's CRDs (Context "Rook
// installed while the operator runs"). The Ceph that Rook goes on to make is checked
// by rookInstallSpecs.
func rookStartSpecs() {
	It("starts installing Rook v1.18 while the operator runs; the operator restarts itself, exiting cleanly, to watch Rook", func() {
		// Rook's Multus provider needs the NetworkAttachmentDefinition API.
		ensureMultusAPI()
		before := operatorContainer(Default).RestartCount
		up := command("hack/rook/up.sh")
		up.Env = append(up.Env, "HCO_ROOK_NETWORK="+rookNetwork)
		up.Stdout, up.Stderr = &rookUp.out, &rookUp.out
		// The whole process group goes when the suite ends first: kubectl and helm too.
		up.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		up.Cancel = func() error { return syscall.Kill(-up.Process.Pid, syscall.SIGKILL) }
		Expect(up.Start()).To(Succeed())
		rookUp.cmd, rookUp.done = up, make(chan error, 1)
		go func() { rookUp.done <- up.Wait() }()

		expectOperatorRestartedCleanly(before)
	})
}

// rookInstallSpecs wait for the Rook that rookStartSpecs started installing, and check
// the Ceph it made.
func rookInstallSpecs() {
	It("installs Rook v1.18 and a Ceph 18.2 with a mon and an OSD on each of the three nodes, Ceph's public and cluster networks on the data network through Rook's Multus provider", func() {
		Expect(rookUp.cmd).NotTo(BeNil(), "hack/rook/up.sh was started by the spec before the external path's")
		By("waiting for hack/rook/up.sh, started before the external path's specs")
		var err error
		Eventually(rookUp.done).WithTimeout(rookUpTimeout).Should(Receive(&err))
		GinkgoWriter.Print(rookUp.out.String())
		Expect(err).NotTo(HaveOccurred(), "%s (its output is above)", rookUp.cmd.String())

		var status struct {
			Health struct {
				Status string `json:"status"`
			} `json:"health"`
			MonMap struct {
				Mons int `json:"num_mons"`
			} `json:"monmap"`
			OSDMap struct {
				Up int `json:"num_up_osds"`
				In int `json:"num_in_osds"`
			} `json:"osdmap"`
		}
		rookCephJSON(&status, "status")
		Expect(status.Health.Status).To(Equal("HEALTH_OK"))
		Expect(status.MonMap.Mons).To(Equal(3))
		Expect(status.OSDMap.Up).To(Equal(3))
		Expect(status.OSDMap.In).To(Equal(3))

		By("finding the mons at their Services' addresses and every OSD on Rook's public and cluster networks, on the nodes' data links")
		expectCephDaemonNetworks()

		By("finding one CRUSH host per node, named as Rook names it (the node's kubernetes.io/hostname label, dots as dashes), with one OSD each")
		Expect(crushHostOSDs()).To(Equal(expectedCRUSHHosts()))
		var versions map[string]map[string]int
		rookCephJSON(&versions, "versions")
		for version := range versions["overall"] {
			Expect(version).To(HavePrefix("ceph version 18.2."), "every daemon runs Ceph Reef")
		}
	})
}
