package hadoop

import (
	"encoding/json"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// NetworksAnnotation is the pod annotation Multus reads its extra networks from.
const NetworksAnnotation = "k8s.v1.cni.cncf.io/networks"

// networkSelection is one element of NetworksAnnotation in Multus's JSON form. Fields
// are in a fixed order, so equal input gives equal text.
type networkSelection struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
	Interface string `json:"interface,omitempty"`
}

// MultusNetworks is the NetworksAnnotation value for attachments, or "" for none.
// Attachments keep their order, since Multus numbers unnamed interfaces (net1,
// net2, ...) in it.
func MultusNetworks(attachments []v1alpha1.NetworkAttachment) string {
	if len(attachments) == 0 {
		return ""
	}
	sel := make([]networkSelection, 0, len(attachments))
	for _, a := range attachments {
		sel = append(sel, networkSelection{Name: a.Name, Namespace: a.Namespace, Interface: a.InterfaceName})
	}
	// Marshalling strings and a struct of strings cannot fail.
	out, _ := json.Marshal(sel)
	return string(out)
}

// attachmentsFor are the networks pods of c join: for NodeManagers the user's
// attachments, and for every pod Rook's public network, which Hadoop needs to reach
// Ceph at all. Rook's network goes last so that it does not shift the numbering of the
// user's unnamed interfaces, and is left out when the user already lists it or the
// pods use the host's network.
func attachmentsFor(in Input, c Component) []v1alpha1.NetworkAttachment {
	var out []v1alpha1.NetworkAttachment
	if c == NodeManager {
		if in.Cluster.Spec.Network.HostNetwork {
			return nil
		}
		out = append(out, in.Cluster.Spec.Network.Attachments...)
	}
	pub := in.Storage.PublicNetwork
	if pub == nil {
		return out
	}
	for _, a := range out {
		if a.Name == pub.Name && namespaceOr(a.Namespace, in.Cluster.Namespace) == namespaceOr(pub.Namespace, in.Cluster.Namespace) {
			return out
		}
	}
	return append(out, v1alpha1.NetworkAttachment{Name: pub.Name, Namespace: pub.Namespace})
}

func namespaceOr(ns, def string) string {
	if ns == "" {
		return def
	}
	return ns
}
