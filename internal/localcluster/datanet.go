package localcluster

import (
	"fmt"
	"net/netip"
	"slices"
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

// DataLinkCommands are the idempotent ip(8) commands that plug node i's data link into
// the switch and address it, once the pair exists. netns is the node's namespace, ""
// for the first node, whose link is in the host's.
func DataLinkCommands(s Settings, i int, netns string) [][]string {
	sw := []string{"ip", "-n", DataSwitchNS}
	node := []string{"ip"}
	if netns != "" {
		node = []string{"ip", "-n", netns}
	}
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
	node := []string{"ip"}
	if netns != "" {
		node = []string{"ip", "-n", netns}
	}
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
