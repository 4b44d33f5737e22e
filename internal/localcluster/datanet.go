package localcluster

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
)

// The data network: a second link on every node, on a segment of its own, standing in
// for the 10GbE or InfiniBand network a real cluster moves its data over. Each node's
// DataLink is one end of a veth pair whose other end is a port of a bridge in a network
// namespace of its own (the switch), so the segment is an L2 network between the nodes
// that the host neither routes nor sees; Multus's macvlan attachments hang off
// DataLink as they would off a physical NIC.
const (
	// DataSwitchNS holds the switch: its bridge and a port per node.
	DataSwitchNS = "hco-data"
	// DataBridge is the switch's bridge, inside DataSwitchNS.
	DataBridge = "hco-data"
	// DataLink is every node's data NIC: one name on every node, as a real cluster's
	// machines name their data NICs alike, so one NetworkAttachmentDefinition's master
	// serves them all.
	DataLink = "hco-data0"
)

// DataPort is the switch's port of node i (1 for the first node).
func DataPort(i int) string { return fmt.Sprintf("hco-d%d", i) }

// DataIP is node i's address on the data network: the i-th address of DataCIDR,
// which the nodes take with the whole prefix, so that they reach the addresses Multus
// gives pods from the same range.
func DataIP(s Settings, i int) netip.Prefix {
	return netip.PrefixFrom(nth(s.DataCIDR, i), s.DataCIDR.Bits())
}

// DataSwitchCommands are the idempotent ip(8) commands that set up the switch once its
// namespace exists.
func DataSwitchCommands() [][]string {
	ns := []string{"ip", "-n", DataSwitchNS}
	return [][]string{
		append(slices.Clone(ns), "link", "set", "lo", "up"),
		append(slices.Clone(ns), "link", "set", DataBridge, "up"),
	}
}

// ipIn is ip(8) in a node's network namespace, the host's for "".
func ipIn(netns string) []string {
	if netns == "" {
		return []string{"ip"}
	}
	return []string{"ip", "-n", netns}
}

// DataLinkCommands are the idempotent ip(8) commands that plug node i's data link into
// the switch and address it, once the pair exists. netns is the node's namespace, ""
// for the first node, whose link is in the host's.
func DataLinkCommands(s Settings, i int, netns string) [][]string {
	sw, node := ipIn(DataSwitchNS), ipIn(netns)
	return [][]string{
		append(slices.Clone(sw), "link", "set", DataPort(i), "master", DataBridge),
		append(slices.Clone(sw), "link", "set", DataPort(i), "up"),
		append(slices.Clone(node), "addr", "replace", DataIP(s, i).String(), "dev", DataLink),
		append(slices.Clone(node), "link", "set", DataLink, "up"),
	}
}

// ensureDataSwitch makes the switch's namespace and bridge when missing.
func ensureDataSwitch() error {
	if !netnsExists(DataSwitchNS) {
		if err := run("ip", "netns", "add", DataSwitchNS); err != nil {
			return err
		}
	}
	if run("ip", "-n", DataSwitchNS, "link", "show", DataBridge) != nil {
		if err := run("ip", "-n", DataSwitchNS, "link", "add", DataBridge, "type", "bridge"); err != nil {
			return err
		}
	}
	for _, c := range DataSwitchCommands() {
		if err := run(c...); err != nil {
			return err
		}
	}
	return nil
}

// setUpDataLink gives node i its data link, plugged into the switch. A link left
// without its port (the switch was removed under a running node) is made again.
func setUpDataLink(s Settings, i int, netns string) error {
	if err := ensureDataSwitch(); err != nil {
		return err
	}
	node := ipIn(netns)
	if run("ip", "-n", DataSwitchNS, "link", "show", DataPort(i)) != nil {
		if run(append(slices.Clone(node), "link", "show", DataLink)...) == nil {
			if err := run(append(slices.Clone(node), "link", "delete", DataLink)...); err != nil {
				return err
			}
		}
		add := []string{"ip", "link", "add", DataPort(i), "netns", DataSwitchNS, "type", "veth", "peer", "name", DataLink}
		if netns != "" {
			add = append(add, "netns", netns)
		}
		if err := run(add...); err != nil {
			return err
		}
	}
	for _, c := range DataLinkCommands(s, i, netns) {
		if err := run(c...); err != nil {
			return err
		}
	}
	return nil
}

// removeDataSwitch deletes the switch's namespace, and with it every port and, a
// moment later, the first node's data link (a worker's goes with its namespace).
func removeDataSwitch() error {
	if !netnsExists(DataSwitchNS) {
		return nil
	}
	log("deleting the data network (network namespace %s)", DataSwitchNS)
	return run("ip", "netns", "delete", DataSwitchNS)
}

// DataRateCommands are the tc(8) commands that limit what the switch sends out of
// each node's port, that is what each node receives, to rate ("1gbit", "10gbit"), as
// a NIC of that speed would; "" lifts the limit. A token bucket with a burst of 1 ms
// at that rate (at least 64 KiB) and 10 ms of queue.
func DataRateCommands(nodes int, rate string) ([][]string, error) {
	var burst int64
	if rate != "" {
		bits, err := ParseDataRate(rate)
		if err != nil {
			return nil, err
		}
		burst = max(bits/8/1000, 64<<10)
	}
	var cmds [][]string
	for i := 1; i <= nodes; i++ {
		tc := []string{"ip", "netns", "exec", DataSwitchNS, "tc", "qdisc"}
		if rate == "" {
			cmds = append(cmds, append(slices.Clone(tc), "del", "dev", DataPort(i), "root"))
			continue
		}
		cmds = append(cmds, append(slices.Clone(tc), "replace", "dev", DataPort(i), "root", "tbf",
			"rate", rate, "burst", fmt.Sprint(burst), "latency", "10ms"))
	}
	return cmds, nil
}

// ParseDataRate reads a rate as data-rate takes it and tc writes it, in bits per
// second: a whole number and kbit, mbit or gbit.
func ParseDataRate(rate string) (int64, error) {
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"gbit", 1e9}, {"mbit", 1e6}, {"kbit", 1e3}} {
		if n, ok := strings.CutSuffix(rate, u.suffix); ok {
			v, err := strconv.ParseInt(n, 10, 64)
			if err == nil && v > 0 {
				return v * u.mult, nil
			}
		}
	}
	return 0, fmt.Errorf("rate %q: must be a whole number of kbit, mbit or gbit, such as 1gbit or 10gbit", rate)
}

// SetDataRate limits every node's port of the switch to rate, or lifts the limit.
func SetDataRate(nodes int, rate string) error {
	cmds, err := DataRateCommands(nodes, rate)
	if err != nil {
		return err
	}
	for _, c := range cmds {
		// Lifting a limit that is not there is fine: tc says the root has no qdisc.
		if err := run(c...); err != nil && (rate != "" || !strings.Contains(err.Error(), "handle of zero")) {
			return err
		}
	}
	return nil
}

// DataSwitchReceived is what the switch received on its nodes' ports, from the
// kernel's counters: the bytes the nodes sent over the data network.
func DataSwitchReceived() (int64, error) {
	out, err := output("ip", "-n", DataSwitchNS, "-s", "-j", "link", "show")
	if err != nil {
		return 0, err
	}
	return switchReceived([]byte(out))
}

// switchReceived sums the received bytes of the ports in ip(8)'s JSON of the switch's
// links, its bridge and loopback left out.
func switchReceived(ipJSON []byte) (int64, error) {
	var links []struct {
		Name  string `json:"ifname"`
		Stats struct {
			RX struct {
				Bytes int64 `json:"bytes"`
			} `json:"rx"`
		} `json:"stats64"`
	}
	if err := json.Unmarshal(ipJSON, &links); err != nil {
		return 0, fmt.Errorf("ip -s -j link: %w", err)
	}
	var sum int64
	for _, l := range links {
		if l.Name != DataBridge && strings.HasPrefix(l.Name, "hco-d") {
			sum += l.Stats.RX.Bytes
		}
	}
	return sum, nil
}

// Ceph's public network on the data network (Rook's Multus provider, hack/rook with
// ROOK_NETWORK=multus): Rook's daemons get macvlan interfaces on DataLink with
// addresses of Settings.CephPublicCIDR. A macvlan interface cannot reach its own
// parent's addresses, so a node could not reach the daemons it runs through DataLink.
// Rook asks every host for an interface of its own on the public network for that
// (its host prerequisites); here it is CephShim, a macvlan sibling of the daemons'
// on DataLink, with the node's address in CephPublicCIDR, below the addresses
// whereabouts hands out (CephPublicReserved).
const (
	// CephShim is every node's interface on Ceph's public network.
	CephShim = "hco-pub0"
	// CephPublicReserved is how many addresses at the start of CephPublicCIDR the
	// nodes keep for their CephShim: a NetworkAttachmentDefinition of the range
	// excludes them.
	CephPublicReserved = 32
)

// CephShimIP is node i's address on Ceph's public network, with the range's prefix so
// that the daemons' addresses are on the link.
func CephShimIP(s Settings, i int) netip.Prefix {
	return netip.PrefixFrom(nth(s.CephPublicCIDR, i), s.CephPublicCIDR.Bits())
}

// CephShimSysctls make DataLink and CephShim, two interfaces of one node on one
// segment, answer ARP only for their own addresses (otherwise DataLink answers for
// the shim's too, and the replies to it arrive on the wrong interface), and check the
// source of what they receive loosely, since replies to one may arrive on the other.
func CephShimSysctls() map[string]string {
	out := map[string]string{}
	for _, link := range []string{DataLink, CephShim} {
		out["net.ipv4.conf."+link+".arp_ignore"] = "1"
		out["net.ipv4.conf."+link+".arp_announce"] = "2"
		out["net.ipv4.conf."+link+".rp_filter"] = "2"
	}
	return out
}

// CephShimCommands are the idempotent ip(8) commands that address node i's shim and
// bring it up once it exists. netns is the node's namespace, "" for the first node.
func CephShimCommands(s Settings, i int, netns string) [][]string {
	node := ipIn(netns)
	return [][]string{
		append(slices.Clone(node), "addr", "replace", CephShimIP(s, i).String(), "dev", CephShim),
		append(slices.Clone(node), "link", "set", CephShim, "up"),
	}
}

// setUpCephShim gives node i its interface on Ceph's public network, once its data
// link exists.
func setUpCephShim(s Settings, i int, netns string) error {
	node := ipIn(netns)
	if run(append(slices.Clone(node), "link", "show", CephShim)...) != nil {
		if err := run(append(slices.Clone(node), "link", "add", CephShim, "link", DataLink, "type", "macvlan", "mode", "bridge")...); err != nil {
			return err
		}
	}
	for key, value := range CephShimSysctls() {
		if err := setSysctlIn(netns, key, value); err != nil {
			return err
		}
	}
	for _, c := range CephShimCommands(s, i, netns) {
		if err := run(c...); err != nil {
			return err
		}
	}
	return nil
}

// setSysctlIn sets a sysctl of a node's network namespace, the host's for "": the
// interfaces' own, which go with their links, so nothing is kept to restore.
func setSysctlIn(netns, key, value string) error {
	if netns == "" {
		return os.WriteFile(sysctlPath(key), []byte(value), 0o644)
	}
	// /proc/sys/net shows the network namespace of the process that reads it.
	return run("ip", "netns", "exec", netns, "sh", "-c", "echo "+value+" > "+sysctlPath(key))
}
