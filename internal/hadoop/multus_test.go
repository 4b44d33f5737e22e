package hadoop

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func TestMultusNetworks(t *testing.T) {
	for _, tc := range []struct {
		name        string
		attachments []v1alpha1.NetworkAttachment
		want        string
	}{
		{name: "none", want: ""},
		{
			name:        "name only: the pod's namespace, Multus names the interface",
			attachments: []v1alpha1.NetworkAttachment{{Name: "sriov-a"}},
			want:        `[{"name":"sriov-a"}]`,
		},
		{
			name: "order kept, optional fields only when set",
			attachments: []v1alpha1.NetworkAttachment{
				{Name: "ib", Namespace: "net", InterfaceName: "ib1"},
				{Name: "tengig", InterfaceName: "data0"},
				{Name: "public", Namespace: "rook-ceph"},
			},
			want: `[{"name":"ib","namespace":"net","interface":"ib1"},{"name":"tengig","interface":"data0"},{"name":"public","namespace":"rook-ceph"}]`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := MultusNetworks(tc.attachments); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestAttachmentsFor(t *testing.T) {
	public := &v1alpha1.NetworkAttachment{Name: "public-net", Namespace: "rook-ceph"}
	ib := v1alpha1.NetworkAttachment{Name: "ib", InterfaceName: "ib1"}
	cluster := func(net v1alpha1.NetworkSpec) *v1alpha1.HadoopCluster {
		return &v1alpha1.HadoopCluster{
			ObjectMeta: metav1.ObjectMeta{Name: "hc", Namespace: "data"},
			Spec:       v1alpha1.HadoopClusterSpec{Network: net},
		}
	}
	for _, tc := range []struct {
		name      string
		net       v1alpha1.NetworkSpec
		public    *v1alpha1.NetworkAttachment
		component Component
		want      string
	}{
		{
			name: "NodeManagers: the user's networks, then Rook's public network", component: NodeManager,
			net: v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{ib}}, public: public,
			want: `[{"name":"ib","interface":"ib1"},{"name":"public-net","namespace":"rook-ceph"}]`,
		},
		{
			name: "the ResourceManager joins only Rook's public network", component: ResourceManager,
			net: v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{ib}}, public: public,
			want: `[{"name":"public-net","namespace":"rook-ceph"}]`,
		},
		{
			name: "no Multus anywhere", component: JobHistory,
			want: "",
		},
		{
			name: "Rook's network listed by the user is not attached twice", component: NodeManager,
			net: v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{
				{Name: "public-net", Namespace: "rook-ceph", InterfaceName: "ceph0"},
			}},
			public: public,
			want:   `[{"name":"public-net","namespace":"rook-ceph","interface":"ceph0"}]`,
		},
		{
			name: "an empty namespace means the cluster's when comparing", component: NodeManager,
			net:    v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{{Name: "public-net"}}},
			public: &v1alpha1.NetworkAttachment{Name: "public-net", Namespace: "data"},
			want:   `[{"name":"public-net"}]`,
		},
		{
			name: "host-network NodeManagers join nothing", component: NodeManager,
			net: v1alpha1.NetworkSpec{HostNetwork: true}, public: public,
			want: "",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Cluster: cluster(tc.net), Storage: Storage{PublicNetwork: tc.public}}
			if got := MultusNetworks(attachmentsFor(in, tc.component)); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
