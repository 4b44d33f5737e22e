package hadoop

import (
	"reflect"
	"slices"
	"testing"

	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func TestNetworkPoliciesSwitch(t *testing.T) {
	for _, tc := range []struct {
		name    string
		enabled *bool
		want    int
	}{
		{name: "unset, as from a Go client that skipped the default", want: 3},
		{name: "enabled", enabled: ptr.To(true), want: 3},
		{name: "disabled", enabled: ptr.To(false)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := replicatedInput(t)
			in.Cluster.Spec.Access.NetworkPolicies = tc.enabled
			if got := len(build(t, in).NetworkPolicies); got != tc.want {
				t.Errorf("%d NetworkPolicies, want %d", got, tc.want)
			}
		})
	}
}

// The policies must select exactly the pods they protect, and admit every pod of the
// cluster, benchmark stages included.
func TestNetworkPoliciesSelectTheClustersPods(t *testing.T) {
	in := replicatedInput(t)
	in.Defaults.Operator = nil
	hc := in.Cluster
	stage := labels.Set(Labels(hc, Client))
	other := labels.Set(Labels(&v1alpha1.HadoopCluster{ObjectMeta: metav1.ObjectMeta{Name: "other"}}, NodeManager))
	for _, np := range build(t, in).NetworkPolicies {
		c := Component(np.Labels[LabelComponent])
		selector := mustSelector(t, &np.Spec.PodSelector)
		for _, pc := range []Component{ResourceManager, NodeManager, JobHistory, Client} {
			if got := selector.Matches(labels.Set(Labels(hc, pc))); got != (pc == c) {
				t.Errorf("%s selects the pods of %s: %v", np.Name, pc, got)
			}
		}
		if got := np.Spec.PolicyTypes; !slices.Equal(got, []networkingv1.PolicyType{networkingv1.PolicyTypeIngress}) {
			t.Errorf("%s has policy types %v, want Ingress only: egress must reach Ceph", np.Name, got)
		}
		own := np.Spec.Ingress[0]
		if len(own.Ports) != 0 || len(own.From) != 1 {
			t.Fatalf("%s's first rule should admit the cluster's pods on every port: %+v", np.Name, own)
		}
		from := mustSelector(t, own.From[0].PodSelector)
		if !from.Matches(stage) {
			t.Errorf("%s does not admit the benchmark stages", np.Name)
		}
		if from.Matches(other) {
			t.Errorf("%s admits another cluster's pods", np.Name)
		}
		if len(np.Spec.Ingress) != 1 {
			t.Errorf("%s admits more than the cluster's pods without clients: %+v", np.Name, np.Spec.Ingress[1:])
		}
	}
}

func TestNetworkPoliciesOpenTheClientsPorts(t *testing.T) {
	in := replicatedInput(t)
	in.Defaults.Operator = nil
	rpc := v1alpha1.NetworkPeer{PodSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "notebook"}}}
	web := v1alpha1.NetworkPeer{NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": "monitoring"}}}
	in.Cluster.Spec.Access.Clients = v1alpha1.AccessClients{RPC: []v1alpha1.NetworkPeer{rpc}, Web: []v1alpha1.NetworkPeer{web}}

	type port struct{ first, last int32 }
	want := map[Component]struct{ rpc, web []port }{
		ResourceManager: {rpc: []port{{PortRMClient, PortRMClient}, {PortRMAdmin, PortRMAdmin}}, web: []port{{PortRMWeb, PortRMWeb}}},
		NodeManager:     {rpc: []port{{PortNMRPC, PortNMRPC}, {PortAMClientFirst, PortAMClientLast}}, web: []port{{PortNMWeb, PortNMWeb}}},
		JobHistory:      {rpc: []port{{PortJHRPC, PortJHRPC}, {PortJHAdmin, PortJHAdmin}}, web: []port{{PortJHWeb, PortJHWeb}}},
	}
	ports := func(in []networkingv1.NetworkPolicyPort) []port {
		var out []port
		for _, p := range in {
			first := p.Port.IntVal
			last := first
			if p.EndPort != nil {
				last = *p.EndPort
			}
			out = append(out, port{first, last})
		}
		return out
	}
	for _, np := range build(t, in).NetworkPolicies {
		c := Component(np.Labels[LabelComponent])
		if len(np.Spec.Ingress) != 3 {
			t.Fatalf("%s has %d rules, want the cluster's, rpc's and web's", np.Name, len(np.Spec.Ingress))
		}
		r, w := np.Spec.Ingress[1], np.Spec.Ingress[2]
		if got := ports(r.Ports); !slices.Equal(got, want[c].rpc) {
			t.Errorf("%s opens %v to rpc clients, want %v", np.Name, got, want[c].rpc)
		}
		if got := ports(w.Ports); !slices.Equal(got, want[c].web) {
			t.Errorf("%s opens %v to web clients, want %v", np.Name, got, want[c].web)
		}
		if len(r.From) != 1 || !reflect.DeepEqual(r.From[0].PodSelector, rpc.PodSelector) || r.From[0].NamespaceSelector != nil {
			t.Errorf("%s admits %+v as rpc clients, want %+v", np.Name, r.From, rpc)
		}
		if len(w.From) != 1 || !reflect.DeepEqual(w.From[0].NamespaceSelector, web.NamespaceSelector) || w.From[0].PodSelector != nil {
			t.Errorf("%s admits %+v as web clients, want %+v", np.Name, w.From, web)
		}
	}
}

// The operator reads the ResourceManager's REST API and the NodeManagers' (a leaving
// NodeManager's node ID), and nothing else of the daemons.
func TestNetworkPoliciesAdmitTheOperator(t *testing.T) {
	in := replicatedInput(t)
	in.Defaults.Operator = helmOperator
	webPorts := map[string]int32{
		NetworkPolicyName(in.Cluster, ResourceManager): PortRMWeb,
		NetworkPolicyName(in.Cluster, NodeManager):     PortNMWeb,
	}
	for _, np := range build(t, in).NetworkPolicies {
		var admitted []networkingv1.NetworkPolicyIngressRule
		for _, rule := range np.Spec.Ingress {
			if slices.ContainsFunc(rule.From, func(p networkingv1.NetworkPolicyPeer) bool { return reflect.DeepEqual(p, *helmOperator) }) {
				admitted = append(admitted, rule)
			}
		}
		port, ok := webPorts[np.Name]
		if !ok {
			if len(admitted) > 0 {
				t.Errorf("%s admits the operator: %+v", np.Name, admitted)
			}
			continue
		}
		if len(admitted) != 1 || len(admitted[0].Ports) != 1 || admitted[0].Ports[0].Port.IntVal != port {
			t.Errorf("%s admits the operator by %+v, want one rule for port %d", np.Name, admitted, port)
		}
	}
}

func TestAMClientPortRangeIsTheOpenedOne(t *testing.T) {
	in := replicatedInput(t)
	if got, want := MapredSite(in)[KeyAMClientPortRange], "27100-27199"; got != want {
		t.Errorf("%s = %q, want %q", KeyAMClientPortRange, got, want)
	}
	if !slices.Contains(OwnedMapredSiteKeys, KeyAMClientPortRange) {
		t.Errorf("a user could move the ApplicationMasters off the ports the NetworkPolicy opens")
	}
}

func TestNetworkPoliciesIneffective(t *testing.T) {
	for _, tc := range []struct {
		name        string
		hostNetwork bool
		enabled     *bool
		want        bool
	}{
		{name: "pod network", enabled: ptr.To(true)},
		{name: "host network", hostNetwork: true, enabled: ptr.To(true), want: true},
		{name: "host network, policies left to the user", hostNetwork: true, enabled: ptr.To(false)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hc := &v1alpha1.HadoopCluster{}
			hc.Spec.Network.HostNetwork = tc.hostNetwork
			hc.Spec.Access.NetworkPolicies = tc.enabled
			if got := NetworkPoliciesIneffective(hc); got != tc.want {
				t.Errorf("NetworkPoliciesIneffective = %v, want %v", got, tc.want)
			}
		})
	}
}

func mustSelector(t *testing.T, s *metav1.LabelSelector) labels.Selector {
	t.Helper()
	sel, err := metav1.LabelSelectorAsSelector(s)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}
