package hadoop

import (
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// clientRPCPorts are the ports of each component that Hadoop clients outside the
// cluster talk to: the ResourceManager's client and admin RPC (yarn application,
// yarn rmadmin, whose calls yarn.admin.acl still guards), the NodeManager's RPC and
// the JobHistory server's RPC and admin RPC, where a finished job's client finds its
// counters. The scheduler, resource tracker, localizer and shuffle ports serve only
// the cluster's own daemons and containers.
var clientRPCPorts = map[Component][]string{
	ResourceManager: {"rpc", "admin"},
	NodeManager:     {"rpc"},
	JobHistory:      {"rpc", "admin"},
}

// policedComponents are the daemons with a NetworkPolicy. The list does not follow
// spec.jobHistory.enabled: a policy that selects no pods admits nothing and costs
// nothing, and the server's pods are covered from their first start.
var policedComponents = []Component{ResourceManager, NodeManager, JobHistory}

// NetworkPolicies admit to each daemon of the cluster only its own pods and the
// clients of spec.access.clients; they are nil when spec.access.networkPolicies is
// false. They restrict ingress only: NodeManagers' containers reach Ceph's monitors,
// OSDs and MDSs wherever those run, and the daemons reach each other and the API
// server's DNS, none of which a policy of the operator's should have to know.
func NetworkPolicies(in Input) []*networkingv1.NetworkPolicy {
	if !networkPoliciesEnabled(in.Cluster) {
		return nil
	}
	out := make([]*networkingv1.NetworkPolicy, 0, len(policedComponents))
	for _, c := range policedComponents {
		out = append(out, networkPolicy(in, c))
	}
	return out
}

// NetworkPolicyName names the NetworkPolicy of component c: the component's own name,
// like its StatefulSet and Service.
func NetworkPolicyName(hc *v1alpha1.HadoopCluster, c Component) string {
	return ComponentName(hc, c)
}

// NetworkPolicyComponents are the components that have a NetworkPolicy when
// spec.access.networkPolicies is true.
func NetworkPolicyComponents() []Component {
	return append([]Component(nil), policedComponents...)
}

func networkPolicy(in Input, c Component) *networkingv1.NetworkPolicy {
	hc := in.Cluster
	clients := hc.Spec.Access.Clients
	ingress := []networkingv1.NetworkPolicyIngressRule{{
		// Every pod of the cluster, on every port: the daemons talk to each other on
		// ports that change with Hadoop's versions, YARN containers (AMs and tasks)
		// run inside the NodeManagers, and the benchmark stages, which carry the
		// cluster's labels with component client, submit jobs and read results as
		// any client would.
		From: []networkingv1.NetworkPolicyPeer{{PodSelector: &metav1.LabelSelector{
			MatchLabels: map[string]string{LabelName: AppName, LabelInstance: hc.Name},
		}}},
	}}
	if op := in.Defaults.Operator; op != nil && (c == ResourceManager || c == NodeManager) {
		// The operator follows benchmark stages and decommissions through the
		// ResourceManager's REST API (internal/yarn), and asks a leaving NodeManager
		// for its node ID through its own; it reads nothing else of the daemons.
		ingress = append(ingress, networkingv1.NetworkPolicyIngressRule{
			From:  []networkingv1.NetworkPolicyPeer{*op.DeepCopy()},
			Ports: []networkingv1.NetworkPolicyPort{tcpPort(PortFor(c, metricsPort))},
		})
	}
	if len(clients.RPC) > 0 {
		ingress = append(ingress, networkingv1.NetworkPolicyIngressRule{From: peers(clients.RPC), Ports: rpcPorts(c)})
	}
	if len(clients.Web) > 0 {
		ingress = append(ingress, networkingv1.NetworkPolicyIngressRule{From: peers(clients.Web), Ports: []networkingv1.NetworkPolicyPort{tcpPort(PortFor(c, metricsPort))}})
	}
	return &networkingv1.NetworkPolicy{
		TypeMeta: metav1.TypeMeta{APIVersion: "networking.k8s.io/v1", Kind: "NetworkPolicy"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      NetworkPolicyName(hc, c),
			Namespace: hc.Namespace,
			Labels:    Labels(hc, c),
		},
		Spec: networkingv1.NetworkPolicySpec{
			PodSelector: metav1.LabelSelector{MatchLabels: SelectorLabels(hc, c)},
			// Ingress alone: a policy without Egress leaves the pods' outgoing
			// traffic as it was.
			PolicyTypes: []networkingv1.PolicyType{networkingv1.PolicyTypeIngress},
			Ingress:     ingress,
		},
	}
}

// rpcPorts are the ports of c that clients.rpc reaches. On NodeManagers they include
// the MapReduce ApplicationMasters' client ports, which a job's client polls for its
// progress until the job ends.
func rpcPorts(c Component) []networkingv1.NetworkPolicyPort {
	var out []networkingv1.NetworkPolicyPort
	for _, name := range clientRPCPorts[c] {
		out = append(out, tcpPort(PortFor(c, name)))
	}
	if c == NodeManager {
		p := tcpPort(PortAMClientFirst)
		p.EndPort = ptr.To(int32(PortAMClientLast))
		out = append(out, p)
	}
	return out
}

// PortFor is the number of the port of component c named name in ports.go; 0 when c
// has no such port.
func PortFor(c Component, name string) int32 {
	ports := map[Component][]namedPort{
		ResourceManager: resourceManagerPorts,
		NodeManager:     nodeManagerPorts,
		JobHistory:      jobHistoryPorts,
	}[c]
	for _, p := range ports {
		if p.name == name {
			return p.port
		}
	}
	return 0
}

// tcpPort is a policy port by number rather than by name: a named port matches only
// pods whose container declares it, and the AM ports cannot be declared.
func tcpPort(port int32) networkingv1.NetworkPolicyPort {
	return networkingv1.NetworkPolicyPort{Protocol: ptr.To(corev1.ProtocolTCP), Port: ptr.To(intstr.FromInt32(port))}
}

// peers turns the API's peers into a policy's: each one keeps both selectors, so one
// with both admits the selected pods of the selected namespaces only.
func peers(in []v1alpha1.NetworkPeer) []networkingv1.NetworkPolicyPeer {
	out := make([]networkingv1.NetworkPolicyPeer, 0, len(in))
	for _, p := range in {
		out = append(out, networkingv1.NetworkPolicyPeer{PodSelector: p.PodSelector, NamespaceSelector: p.NamespaceSelector})
	}
	return out
}

// networkPoliciesEnabled reads spec.access.networkPolicies, which the API defaults to
// true.
func networkPoliciesEnabled(hc *v1alpha1.HadoopCluster) bool {
	e := hc.Spec.Access.NetworkPolicies
	return e == nil || *e
}

// NetworkPoliciesIneffective says that the cluster asks for NetworkPolicies that
// cannot govern its pods: with spec.network.hostNetwork they share their nodes'
// network namespace, which no NetworkPolicy applies to.
func NetworkPoliciesIneffective(hc *v1alpha1.HadoopCluster) bool {
	return networkPoliciesEnabled(hc) && hc.Spec.Network.HostNetwork
}
