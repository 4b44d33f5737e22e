//go:build e2e

package e2e

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// rookInstallSpecs install Rook and its Ceph under the running operator, which restarts
// itself to watch Rook's kinds (Context "Rook installed while the operator runs").
func rookInstallSpecs() {
	It("installs Rook v1.18 and a Ceph 18.2 with a mon and an OSD on each of the three nodes, Ceph's public and cluster networks on the data network through Rook's Multus provider, while the operator runs; the operator restarts itself, exiting cleanly, to watch Rook", func() {
		// Rook's Multus provider needs the NetworkAttachmentDefinition API.
		ensureMultusAPI()
		before := operatorContainer(Default).RestartCount
		up := command("hack/rook/up.sh")
		up.Env = append(up.Env, "HCO_ROOK_NETWORK="+rookNetwork)
		runLogged(up)

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

		expectOperatorRestartedCleanly(before)
	})
}
