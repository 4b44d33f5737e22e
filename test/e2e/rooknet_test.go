//go:build e2e

package e2e

import (
	"net/netip"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/localcluster"
)

// The local Rook of the suite puts Ceph's public network on the data network with
// Rook's Multus provider (hack/rook, ROOK_NETWORK=multus), as a cluster with fast NICs
// would: its OSDs and MDS daemons listen on macvlan interfaces on every node's data
// link, replication runs over the cluster network beside it, and the mons stay on the
// pod network behind their Services (Rook's design). Hadoop's pods reach the daemons
// through Rook's public network, which the operator joins them to, or, on the host
// network, through every node's own interface on it (Rook's host prerequisite).
const (
	// rookNetwork is the ROOK_NETWORK the suite installs Rook with.
	rookNetwork = "multus"
	// rookPublicNAD is Rook's public network (hack/rook/env.sh).
	rookPublicNAD = "ceph-public"
)

var (
	// rookPublicRange is the local cluster's, where every node has its own interface
	// (hack/rook/env.sh gives Rook the same), and rookClusterRange hack/rook/env.sh's.
	rookPublicRange  = localcluster.DefaultSettings("", "").CephPublicCIDR
	rookClusterRange = netip.MustParsePrefix("10.119.64.0/20")
	// serviceRange is the local cluster's Services', where Rook's mons listen.
	serviceRange = localcluster.DefaultSettings("", "").ServiceCIDR
)

// addrIn is the IP of a Ceph address ("v2:10.119.48.40:6800/1234") and whether it is
// in p.
func addrIn(addr string, p netip.Prefix) bool {
	addr = strings.TrimPrefix(strings.TrimPrefix(addr, "v2:"), "v1:")
	ap, err := netip.ParseAddrPort(strings.SplitN(addr, "/", 2)[0])
	return err == nil && p.Contains(ap.Addr())
}

// expectCephDaemonNetworks checks where the local Rook's daemons listen: the mons at
// their Services' addresses, every OSD on the public network for clients and on the
// cluster network for its peers.
func expectCephDaemonNetworks() {
	GinkgoHelper()
	var mons struct {
		Mons []struct {
			Name string `json:"name"`
			Addr string `json:"public_addr"`
		} `json:"mons"`
	}
	rookCephJSON(&mons, "mon", "dump")
	Expect(mons.Mons).NotTo(BeEmpty())
	for _, m := range mons.Mons {
		Expect(addrIn(m.Addr, serviceRange)).To(BeTrue(), "mon %s listens at %s, its Service's address in %s", m.Name, m.Addr, serviceRange)
	}
	var osds struct {
		OSDs []struct {
			OSD     int    `json:"osd"`
			Public  string `json:"public_addr"`
			Cluster string `json:"cluster_addr"`
		} `json:"osds"`
	}
	rookCephJSON(&osds, "osd", "dump")
	Expect(osds.OSDs).To(HaveLen(3))
	for _, o := range osds.OSDs {
		Expect(addrIn(o.Public, rookPublicRange)).To(BeTrue(), "osd.%d's public address %s is on Rook's public network %s", o.OSD, o.Public, rookPublicRange)
		Expect(addrIn(o.Cluster, rookClusterRange)).To(BeTrue(), "osd.%d's cluster address %s is on the cluster network %s", o.OSD, o.Cluster, rookClusterRange)
	}
}

// expectMDSOnPublicNetwork checks that every MDS daemon of the local Rook, active or
// standby, listens on the public network.
func expectMDSOnPublicNetwork() {
	GinkgoHelper()
	type mds struct {
		Name string `json:"name"`
		Addr string `json:"addr"`
	}
	var fsmap struct {
		Standbys    []mds `json:"standbys"`
		Filesystems []struct {
			MDSMap struct {
				Info map[string]mds `json:"info"`
			} `json:"mdsmap"`
		} `json:"filesystems"`
	}
	rookCephJSON(&fsmap, "fs", "dump")
	all := fsmap.Standbys
	for _, fs := range fsmap.Filesystems {
		for _, m := range fs.MDSMap.Info {
			all = append(all, m)
		}
	}
	Expect(all).NotTo(BeEmpty())
	for _, m := range all {
		Expect(addrIn(m.Addr, rookPublicRange)).To(BeTrue(), "mds.%s listens at %s, on Rook's public network %s", m.Name, m.Addr, rookPublicRange)
	}
}

// cephFSFloor is the least a TeraSort on the replicated backend (size 2) moves across
// the data network's switch: each byte TeraGen writes reaches a second OSD on another
// host over the cluster network, 50 MB.
const cephFSFloor = 40 << 20

// expectCephFSOnDataNetwork checks that the NodeManagers of a cluster on the pod
// network joined Rook's public network, where their CephFS traffic goes, and that the
// data network's switch received at least cephFSFloor during its TeraSort.
func expectCephFSOnDataNetwork(cluster string, moved int64) {
	GinkgoHelper()
	pods := &corev1.PodList{}
	Expect(k8sClient.List(ctx, pods, client.InNamespace(namespace), client.MatchingLabels{hadoop.LabelInstance: cluster, hadoop.LabelComponent: string(hadoop.NodeManager)})).To(Succeed())
	Expect(pods.Items).NotTo(BeEmpty())
	for _, p := range pods.Items {
		// Rook's network is the pod's only attachment, so Multus names it net1.
		ip := attachmentIP(p, rookNamespace+"/"+rookPublicNAD, "net1")
		Expect(rookPublicRange.Contains(ip)).To(BeTrue(), "pod %s's address %s on Rook's public network is in %s", p.Name, ip, rookPublicRange)
	}
	AddReportEntry("bytes the data network's switch received during a 500,000-row TeraSort on Rook's replicated backend, Ceph on Multus", moved)
	Expect(moved).To(BeNumerically(">=", cephFSFloor), "CephFS's traffic crosses the data network")
}
