package hadoop

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Objects are the desired children of a HadoopCluster.
type Objects struct {
	// ConfigHash is the hash of ConfigMap's data, which every pod template carries.
	ConfigHash string

	ServiceAccount *corev1.ServiceAccount
	// TopologyReader and its binding let the ResourceManager read the rack table.
	TopologyReader        *rbacv1.Role
	TopologyReaderBinding *rbacv1.RoleBinding
	ConfigMap             *corev1.ConfigMap
	// ClientConfigMap and ClientPodTemplate are what clients in other pods use
	// (clientconfig.go, clientpod.go).
	ClientConfigMap   *corev1.ConfigMap
	ClientPodTemplate *corev1.PodTemplate
	// NetworkPolicies are empty when spec.access.networkPolicies is false; the caller
	// deletes the operator's (NetworkPolicyName) if they exist.
	NetworkPolicies        []*networkingv1.NetworkPolicy
	ResourceManager        *appsv1.StatefulSet
	ResourceManagerService *corev1.Service
	// ResourceManagerHeadless governs the ResourceManager's StatefulSet.
	ResourceManagerHeadless *corev1.Service
	NodeManagers            *appsv1.StatefulSet
	NodeManagerService      *corev1.Service
	NodeManagerPDB          *policyv1.PodDisruptionBudget
	// JobHistory and its Services are nil when the JobHistory server is disabled; the
	// caller deletes them (JobHistoryName, HeadlessServiceName) if they exist.
	JobHistory         *appsv1.StatefulSet
	JobHistoryService  *corev1.Service
	JobHistoryHeadless *corev1.Service
	// PodMonitor is nil when the daemons serve no metrics. It is not in List: the
	// caller applies it only where the API server serves PodMonitors, and deletes it
	// (PodMonitorName) when it is nil.
	PodMonitor *unstructured.Unstructured
}

// Build returns every child of in.Cluster. It fails only when Validate does, with all
// of Validate's errors in one message.
func Build(in Input) (*Objects, error) {
	if errs := Validate(in); len(errs) > 0 {
		return nil, errs.ToAggregate()
	}
	// The objects take slices, maps and pointers from the spec; a copy keeps them from
	// sharing memory with the caller's cluster.
	in.Cluster = in.Cluster.DeepCopy()
	hc := in.Cluster
	nm, _ := NodeManagerResources(hc.Spec.NodeManagers)
	cm := ConfigMap(in, nm)
	hash := cm.Annotations[ConfigHashAnnotation]
	o := &Objects{
		ConfigHash:              hash,
		ServiceAccount:          ServiceAccount(hc),
		TopologyReader:          TopologyReaderRole(hc),
		TopologyReaderBinding:   TopologyReaderRoleBinding(hc),
		ConfigMap:               cm,
		ClientConfigMap:         ClientConfigMap(in, nm),
		ClientPodTemplate:       ClientPodTemplate(in, hash),
		NetworkPolicies:         NetworkPolicies(in),
		ResourceManager:         ResourceManagerStatefulSet(in, hash),
		ResourceManagerService:  ResourceManagerService(hc),
		ResourceManagerHeadless: ResourceManagerHeadlessService(hc),
		NodeManagers:            NodeManagerStatefulSet(in, hash),
		NodeManagerService:      NodeManagerService(hc),
		NodeManagerPDB:          NodeManagerPodDisruptionBudget(hc),
		PodMonitor:              PodMonitor(in),
	}
	if in.jobHistoryEnabled() {
		o.JobHistory = JobHistoryStatefulSet(in, hash)
		o.JobHistoryService = JobHistoryService(hc)
		o.JobHistoryHeadless = JobHistoryHeadlessService(hc)
	}
	return o, nil
}

// List is every object of o, in the order they are best created: the configuration
// before the pods that mount it, the NetworkPolicies before the pods they protect,
// Services before the StatefulSets that name them.
func (o *Objects) List() []client.Object {
	out := []client.Object{o.ServiceAccount, o.TopologyReader, o.TopologyReaderBinding, o.ConfigMap, o.ClientConfigMap, o.ClientPodTemplate}
	for _, np := range o.NetworkPolicies {
		out = append(out, np)
	}
	out = append(out,
		o.ResourceManagerService, o.ResourceManagerHeadless, o.ResourceManager,
		o.NodeManagerService, o.NodeManagers, o.NodeManagerPDB,
	)
	if o.JobHistory != nil {
		out = append(out, o.JobHistoryService, o.JobHistoryHeadless, o.JobHistory)
	}
	return out
}
