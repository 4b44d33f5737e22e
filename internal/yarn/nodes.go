package yarn

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// YARN's node states that a decommission goes through or ends in.
const (
	NodeRunning         = "RUNNING"
	NodeDecommissioning = "DECOMMISSIONING"
	NodeDecommissioned  = "DECOMMISSIONED"
	NodeLost            = "LOST"
	NodeShutdown        = "SHUTDOWN"
)

// allNodeStates are every state the ResourceManager's node list can be asked for. They
// are named so that the inactive nodes (decommissioned, lost, shut down) are listed
// too: a decommissioned node must not look like one YARN never heard of.
var allNodeStates = []string{"NEW", NodeRunning, "UNHEALTHY", NodeDecommissioning, NodeDecommissioned, NodeLost, "REBOOTED", NodeShutdown}

// Node is a NodeManager as the ResourceManager reports it.
type Node struct {
	// ID is host:port, the NodeManager's RPC address as it registered.
	ID    string `json:"id"`
	State string `json:"state"`
	// NumContainers are the containers running on the node.
	NumContainers int32 `json:"numContainers"`

	// The rest is what a person asks of a node: where it is, what it has, whether it
	// is healthy.
	HostName         string `json:"nodeHostName,omitempty"`
	Rack             string `json:"rack,omitempty"`
	UsedMemoryMB     int64  `json:"usedMemoryMB,omitempty"`
	AvailMemoryMB    int64  `json:"availMemoryMB,omitempty"`
	UsedVCores       int32  `json:"usedVirtualCores,omitempty"`
	AvailVCores      int32  `json:"availableVirtualCores,omitempty"`
	HealthReport     string `json:"healthReport,omitempty"`
	LastHealthUpdate int64  `json:"lastHealthUpdate,omitempty"`
}

// Gone says whether the node runs nothing any more and never will: it was
// decommissioned, shut down, or stopped heartbeating.
func (n Node) Gone() bool {
	switch n.State {
	case NodeDecommissioned, NodeLost, NodeShutdown:
		return true
	}
	return false
}

// NodeIdentity is how a NodeManager registered with its ResourceManager, as the
// NodeManager itself reports it.
type NodeIdentity struct {
	// ID is the YARN node ID, host:port.
	ID string `json:"id"`
	// HostName is the host of ID, which the ResourceManager's exclude list names.
	HostName string `json:"nodeHostName"`
}

// Nodes lists every node the ResourceManager whose web address is baseURL knows, in
// any state.
func (c *Client) Nodes(ctx context.Context, baseURL string) ([]Node, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("ResourceManager address %q: %w", baseURL, err)
	}
	u = u.JoinPath("ws", "v1", "cluster", "nodes")
	u.RawQuery = url.Values{"states": {strings.Join(allNodeStates, ",")}}.Encode()
	body, err := c.get(ctx, u)
	if err != nil {
		return nil, err
	}
	return DecodeNodes(body)
}

// DecodeNodes reads the ResourceManager's answer to /ws/v1/cluster/nodes. An empty
// list comes as {"nodes":null}.
func DecodeNodes(data []byte) ([]Node, error) {
	var out struct {
		Nodes *struct {
			Node []Node `json:"node"`
		} `json:"nodes"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("decoding the ResourceManager's nodes: %w", err)
	}
	if out.Nodes == nil {
		return nil, nil
	}
	return out.Nodes.Node, nil
}

// NodeManagerIdentity asks the NodeManager whose web server listens at host (an
// address, without port) on port how it registered with its ResourceManager. The
// operator cannot derive it: a NodeManager registers under its host's canonical name,
// which depends on the network it runs on and on the name service.
func (c *Client) NodeManagerIdentity(ctx context.Context, host string, port int) (NodeIdentity, error) {
	u := &url.URL{Scheme: "http", Host: net.JoinHostPort(host, fmt.Sprint(port)), Path: "/ws/v1/node/info"}
	body, err := c.get(ctx, u)
	if err != nil {
		return NodeIdentity{}, err
	}
	return DecodeNodeIdentity(body)
}

// DecodeNodeIdentity reads a NodeManager's answer to /ws/v1/node/info.
func DecodeNodeIdentity(data []byte) (NodeIdentity, error) {
	var out struct {
		NodeInfo *NodeIdentity `json:"nodeInfo"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return NodeIdentity{}, fmt.Errorf("decoding the NodeManager's info: %w", err)
	}
	if out.NodeInfo == nil || out.NodeInfo.ID == "" || out.NodeInfo.HostName == "" {
		return NodeIdentity{}, fmt.Errorf("the NodeManager's info names no node ID and host: %s", data)
	}
	return *out.NodeInfo, nil
}
