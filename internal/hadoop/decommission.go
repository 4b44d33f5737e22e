package hadoop

import (
	"slices"
	"strconv"
	"strings"
)

// Decommission is a graceful decommission of NodeManagers in progress: of those a
// scale-down removes, while the StatefulSet keeps its current size, or of the one a
// rolling update replaces next.
type Decommission struct {
	// Replicas is the StatefulSet's size until the leaving nodes are decommissioned;
	// nil keeps the spec's.
	Replicas *int32
	// Hosts are the leaving NodeManagers' host names as the ResourceManager knows
	// them (the host of each YARN node ID), which the exclude file lists.
	Hosts []string
	// TimeoutSeconds is how long YARN waits for their containers and applications
	// before it decommissions them anyway.
	TimeoutSeconds int32
}

// NodesExcludeXML renders the ResourceManager's exclude file: the hosts of d, each
// with d's timeout, in the XML form YARN reads per-host decommission timeouts from.
// Without a decommission it lists no host, which excludes nothing; the file exists
// either way, for the ResourceManager reads it when it starts.
func NodesExcludeXML(d *Decommission) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<!-- Rendered by hadoop-ceph-operator: the NodeManagers being decommissioned before a
     scale-down. Changes to this file are overwritten. -->
<hosts>
`)
	if d != nil {
		for _, host := range slices.Sorted(slices.Values(d.Hosts)) {
			b.WriteString("  <host><name>")
			writeEscaped(&b, host)
			b.WriteString("</name><timeout>")
			b.WriteString(strconv.Itoa(int(d.TimeoutSeconds)))
			b.WriteString("</timeout></host>\n")
		}
	}
	b.WriteString("</hosts>\n")
	return b.String()
}

// nodeManagerReplicas is the NodeManagers' StatefulSet size: the spec's, or the
// current one while a decommission runs.
func nodeManagerReplicas(in Input) *int32 {
	if in.Decommission != nil && in.Decommission.Replicas != nil {
		return in.Decommission.Replicas
	}
	return in.Cluster.Spec.NodeManagers.Replicas
}
