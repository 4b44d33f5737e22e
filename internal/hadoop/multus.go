package hadoop

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// NetworksAnnotation is the pod annotation Multus reads its extra networks from.
const NetworksAnnotation = "k8s.v1.cni.cncf.io/networks"

// ResourceNameAnnotation on a NetworkAttachmentDefinition names the extended resource
// whose devices carry the network, such as the SR-IOV virtual functions of
// intel.com/sriov_netdevice: the network's CNI attaches a pod only to a device the
// kubelet allocated to it, so every pod that joins the network must request one.
const ResourceNameAnnotation = "k8s.v1.cni.cncf.io/resourceName"

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
// attachments, for the ResourceManager the one dataInterface is on (DataAttachment),
// and for every pod Rook's public network, which Hadoop needs to reach Ceph at all.
// Rook's network goes last so that it does not shift the numbering of the user's
// unnamed interfaces, and is left out when the user already lists it or the pods use
// the host's network.
func attachmentsFor(in Input, c Component) []v1alpha1.NetworkAttachment {
	var out []v1alpha1.NetworkAttachment
	switch c {
	case NodeManager:
		if in.Cluster.Spec.Network.HostNetwork {
			return nil
		}
		out = append(out, in.Cluster.Spec.Network.Attachments...)
	case ResourceManager:
		if a, ok := DataAttachment(in.Cluster.Spec.Network); ok {
			out = append(out, a)
		}
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

// cephClient stands for the operator's Jobs that only talk to Ceph (the fencing Job):
// of the networks, they need Rook's public one alone.
const cephClient Component = "ceph-client"

// DataAttachment is the attachment whose interface is dataInterface, if it is one:
// the NodeManagers advertise that interface's address, and the ResourceManager, which
// launches ApplicationMasters on them there, must reach it, so it joins that network
// too. Its interface there has the same name when the attachment names one.
func DataAttachment(net v1alpha1.NetworkSpec) (v1alpha1.NetworkAttachment, bool) {
	if net.HostNetwork || net.DataInterface == "" {
		return v1alpha1.NetworkAttachment{}, false
	}
	for i, a := range net.Attachments {
		// Multus names an interface it is given no name for by the network's
		// position: net1 first.
		if a.InterfaceName == net.DataInterface || (a.InterfaceName == "" && fmt.Sprintf("net%d", i+1) == net.DataInterface) {
			return a, true
		}
	}
	return v1alpha1.NetworkAttachment{}, false
}

// DataNetwork is the attachment whose interface is dataInterface in a NodeManager pod,
// its namespace filled in, if it is one: DataAttachment, or Rook's public network when
// dataInterface names the interface after the user's attachments, where the operator
// puts it. That network carries the shuffle, which a BenchmarkRun records.
func DataNetwork(in Input) (v1alpha1.NetworkAttachment, bool) {
	net := in.Cluster.Spec.Network
	if net.DataInterface == "" {
		return v1alpha1.NetworkAttachment{}, false
	}
	for i, a := range attachmentsFor(in, NodeManager) {
		if a.InterfaceName == net.DataInterface || (a.InterfaceName == "" && fmt.Sprintf("net%d", i+1) == net.DataInterface) {
			a.Namespace = namespaceOr(a.Namespace, in.Cluster.Namespace)
			return a, true
		}
	}
	return v1alpha1.NetworkAttachment{}, false
}

func namespaceOr(ns, def string) string {
	if ns == "" {
		return def
	}
	return ns
}

// AttachmentResourceName is the extended resource that a NetworkAttachmentDefinition
// with annotations names, "" for none, or an error when it names something a pod
// cannot request, as the API server would refuse such a pod.
func AttachmentResourceName(annotations map[string]string) (string, error) {
	name := strings.TrimSpace(annotations[ResourceNameAnnotation])
	if name == "" {
		return "", nil
	}
	domain, _, qualified := strings.Cut(name, "/")
	switch {
	case !qualified || domain == "":
		return "", fmt.Errorf("%s %q is not an extended resource name: it has no <domain>/", ResourceNameAnnotation, name)
	case strings.Contains(name, "kubernetes.io/"):
		return "", fmt.Errorf("%s %q is one of Kubernetes' own resources, not a device", ResourceNameAnnotation, name)
	}
	// Kubernetes' own test of an extended resource name: its quota form must be a
	// qualified name.
	if errs := validation.IsQualifiedName("requests." + name); len(errs) > 0 {
		return "", fmt.Errorf("%s %q is not an extended resource name: %s", ResourceNameAnnotation, name, strings.Join(errs, "; "))
	}
	return name, nil
}

// attachmentDevices are the devices pods of c need to join their networks: for each
// attachment, one device of the resource its NetworkAttachmentDefinition names,
// sorted by resource name.
// Pods on the host's network need none, since Multus attaches nothing to them.
func attachmentDevices(in Input, c Component) []v1alpha1.ExtendedResource {
	if in.Cluster.Spec.Network.HostNetwork || len(in.AttachmentResources) == 0 {
		return nil
	}
	counts := map[string]int32{}
	for _, a := range attachmentsFor(in, c) {
		ns := namespaceOr(a.Namespace, in.Cluster.Namespace)
		i := slices.IndexFunc(in.AttachmentResources, func(r v1alpha1.AttachmentResource) bool {
			return r.Name == a.Name && r.Namespace == ns
		})
		if i >= 0 {
			counts[in.AttachmentResources[i].ResourceName]++
		}
	}
	return devices(counts)
}

// NodeManagerDevices are the extended resources a NodeManager pod requests: its
// attachments' devices and spec.network.extendedResources. A name in both is one device, at the larger
// count: whoever lists an SR-IOV network's resource means the virtual function the
// attachment takes, not a second one.
func NodeManagerDevices(in Input) []v1alpha1.ExtendedResource {
	counts := map[string]int32{}
	for _, d := range attachmentDevices(in, NodeManager) {
		counts[d.Name] = d.Count
	}
	for _, d := range in.Cluster.Spec.Network.ExtendedResources {
		// A zero count is an unset one that the API server would default to 1.
		counts[d.Name] = max(counts[d.Name], d.Count, 1)
	}
	return devices(counts)
}

func devices(counts map[string]int32) []v1alpha1.ExtendedResource {
	if len(counts) == 0 {
		return nil
	}
	out := make([]v1alpha1.ExtendedResource, 0, len(counts))
	for _, name := range slices.Sorted(maps.Keys(counts)) {
		out = append(out, v1alpha1.ExtendedResource{Name: name, Count: counts[name]})
	}
	return out
}
