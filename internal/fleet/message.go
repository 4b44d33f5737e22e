package fleet

import (
	"fmt"
	"strings"
	"time"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// Message is NodeManagersReady's message while a decommission runs; problem says what
// kept the pass from following it, if anything did.
func Message(d *v1alpha1.Decommissioning, problem string) string {
	var nodes []string
	for _, n := range d.Nodes {
		switch {
		case n.NodeID == "":
			nodes = append(nodes, n.Pod+" (not registered)")
		case n.State == "":
			nodes = append(nodes, fmt.Sprintf("%s (%s)", n.Pod, n.NodeID))
		default:
			nodes = append(nodes, fmt.Sprintf("%s (%s %s, %d containers)", n.Pod, n.NodeID, n.State, n.Containers))
		}
	}
	msg := fmt.Sprintf("YARN is decommissioning %s before the NodeManagers scale down to %d; the StatefulSet is lowered when they are decommissioned, or at %s",
		strings.Join(nodes, ", "), d.Replicas, d.Deadline.UTC().Format(time.RFC3339))
	if d.Reason == v1alpha1.DecommissionRollingUpdate {
		msg = fmt.Sprintf("rolling the NodeManagers to the current template one at a time: YARN is decommissioning %s, whose pod is replaced when it is decommissioned, or at %s",
			strings.Join(nodes, ", "), d.Deadline.UTC().Format(time.RFC3339))
	}
	if problem != "" {
		msg += "; " + problem
	}
	return msg
}
