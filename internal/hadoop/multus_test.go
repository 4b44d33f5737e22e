package hadoop

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

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

func TestAttachmentResourceName(t *testing.T) {
	for _, tc := range []struct {
		value, want, err string
	}{
		{value: "", want: ""},
		{value: "intel.com/sriov_netdevice", want: "intel.com/sriov_netdevice"},
		{value: " nvidia.com/sriov_ib\n", want: "nvidia.com/sriov_ib"},
		{value: "sriov_netdevice", err: "has no <domain>/"},
		{value: "/sriov", err: "has no <domain>/"},
		{value: "kubernetes.io/memory", err: "Kubernetes' own"},
		{value: "example.com/vf pool", err: "not an extended resource name"},
		{value: "Example_Com/vf", err: "not an extended resource name"},
	} {
		t.Run(tc.value, func(t *testing.T) {
			annotations := map[string]string{"k8s.v1.cni.cncf.io/resourceName": tc.value}
			got, err := AttachmentResourceName(annotations)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want one that says %q", err, tc.err)
			case got != tc.want:
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	if got, err := AttachmentResourceName(nil); got != "" || err != nil {
		t.Errorf("no annotations: got %q, %v", got, err)
	}
}

// devicesInput is the minimal cluster joining ib (an SR-IOV network of its own
// namespace) and, through Rook, public-net, whose NetworkAttachmentDefinitions name
// the devices of resources.
func devicesInput(t *testing.T, net v1alpha1.NetworkSpec, resources ...v1alpha1.AttachmentResource) Input {
	t.Helper()
	in := replicatedInput(t)
	in.Cluster.Spec.Network = net
	in.Storage.PublicNetwork = &v1alpha1.NetworkAttachment{Name: "public-net", Namespace: "rook-ceph"}
	in.AttachmentResources = resources
	return in
}

// requested is the count of an extended resource that c requests, or -1 when its
// request and limit differ, which Kubernetes refuses.
func requested(c corev1.Container, name string) int64 {
	req, lim := c.Resources.Requests[corev1.ResourceName(name)], c.Resources.Limits[corev1.ResourceName(name)]
	if req.Cmp(lim) != 0 {
		return -1
	}
	return req.Value()
}

func TestPodsRequestTheirAttachmentsDevices(t *testing.T) {
	const (
		vf       = "intel.com/sriov_netdevice"
		publicVF = "example.com/public_vf"
		rdma     = "rdma/rdma_shared_device_a"
	)
	sriovA := v1alpha1.AttachmentResource{Namespace: "data", Name: "sriov-a", ResourceName: vf}
	sriovB := v1alpha1.AttachmentResource{Namespace: "net", Name: "sriov-b", ResourceName: vf}
	public := v1alpha1.AttachmentResource{Namespace: "rook-ceph", Name: "public-net", ResourceName: publicVF}
	// A NetworkAttachmentDefinition of the same name in another namespace is another
	// network.
	elsewhere := v1alpha1.AttachmentResource{Namespace: "other", Name: "sriov-a", ResourceName: "example.com/other"}
	twoVFs := []v1alpha1.NetworkAttachment{{Name: "sriov-a"}, {Name: "sriov-b", Namespace: "net"}}

	type counts map[string]int64
	for _, tc := range []struct {
		name      string
		net       v1alpha1.NetworkSpec
		resources []v1alpha1.AttachmentResource
		// nodeManager, daemons (ResourceManager, JobHistory server, eviction Jobs) and
		// stage are the counts each pod requests of vf, publicVF and rdma.
		nodeManager, daemons, stage counts
	}{
		{
			name:        "one device per attachment that names one, for every pod that joins it",
			net:         v1alpha1.NetworkSpec{Attachments: twoVFs},
			resources:   []v1alpha1.AttachmentResource{elsewhere, sriovA, sriovB, public},
			nodeManager: counts{vf: 2, publicVF: 1, rdma: 0, elsewhere.ResourceName: 0},
			daemons:     counts{vf: 0, publicVF: 1, rdma: 0},
			stage:       counts{vf: 2, publicVF: 1, rdma: 0},
		},
		{
			name: "extendedResources of the same name: the larger count, on NodeManagers alone",
			net: v1alpha1.NetworkSpec{Attachments: twoVFs, ExtendedResources: []v1alpha1.ExtendedResource{
				{Name: vf, Count: 1}, {Name: rdma}, {Name: publicVF, Count: 3},
			}},
			resources:   []v1alpha1.AttachmentResource{sriovA, sriovB, public},
			nodeManager: counts{vf: 2, publicVF: 3, rdma: 1},
			daemons:     counts{vf: 0, publicVF: 1, rdma: 0},
			stage:       counts{vf: 2, publicVF: 1, rdma: 0},
		},
		{
			name: "more in extendedResources than the attachments take",
			net: v1alpha1.NetworkSpec{Attachments: twoVFs[:1], ExtendedResources: []v1alpha1.ExtendedResource{
				{Name: vf, Count: 4},
			}},
			resources:   []v1alpha1.AttachmentResource{sriovA},
			nodeManager: counts{vf: 4, publicVF: 0},
			daemons:     counts{vf: 0, publicVF: 0},
			stage:       counts{vf: 1, publicVF: 0},
		},
		{
			name:        "no NetworkAttachmentDefinition names a device",
			net:         v1alpha1.NetworkSpec{Attachments: twoVFs},
			nodeManager: counts{vf: 0, publicVF: 0},
			daemons:     counts{vf: 0, publicVF: 0},
			stage:       counts{vf: 0, publicVF: 0},
		},
		{
			name:        "the host's network: Multus attaches nothing, so no device",
			net:         v1alpha1.NetworkSpec{HostNetwork: true, ExtendedResources: []v1alpha1.ExtendedResource{{Name: rdma}}},
			resources:   []v1alpha1.AttachmentResource{public},
			nodeManager: counts{publicVF: 0, rdma: 1},
			daemons:     counts{publicVF: 0, rdma: 0},
			stage:       counts{publicVF: 0, rdma: 0},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := devicesInput(t, tc.net, tc.resources...)
			in.Storage.EvictionSecret, in.Storage.EvictionClientID = "evictor", "hadoop-evictor"
			objs := build(t, in)
			stage := ClientPodTemplateSpec(in, objs.ConfigHash, ClientContainer{Command: "runner"})
			evict := EvictSessionsJob(in, "analytics-nodemanager-0", "uid", nil)
			for _, pod := range []struct {
				name      string
				container corev1.Container
				want      counts
			}{
				{"NodeManager", objs.NodeManagers.Spec.Template.Spec.Containers[0], tc.nodeManager},
				{"ResourceManager", objs.ResourceManager.Spec.Template.Spec.Containers[0], tc.daemons},
				{"JobHistory server", objs.JobHistory.Spec.Template.Spec.Containers[0], tc.daemons},
				{"eviction Job", evict.Spec.Template.Spec.Containers[0], tc.daemons},
				{"benchmark stage", stage.Spec.Containers[0], tc.stage},
			} {
				for name, want := range pod.want {
					if got := requested(pod.container, name); got != want {
						t.Errorf("%s: requests and limits %d of %s, want %d", pod.name, got, name, want)
					}
				}
			}
		})
	}
}

// An RDMA device that an attachment brings adds IPC_LOCK as one listed in
// extendedResources does.
func TestIPCLockForAnAttachmentsRDMADevice(t *testing.T) {
	net := v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{{Name: "roce"}}}
	roce := v1alpha1.AttachmentResource{Namespace: "data", Name: "roce", ResourceName: "rdma/hca_shared_devices_a"}
	if ipcLock(devicesInput(t, net)) {
		t.Error("IPC_LOCK without an RDMA device")
	}
	if !ipcLock(devicesInput(t, net, roce)) {
		t.Error("no IPC_LOCK for the RDMA device of an attachment")
	}
	net.IPCLock = ptr.To(false)
	if ipcLock(devicesInput(t, net, roce)) {
		t.Error("ipcLock: false did not win")
	}
}

func TestDataAttachment(t *testing.T) {
	ib := v1alpha1.NetworkAttachment{Name: "ib", InterfaceName: "ib1"}
	data := v1alpha1.NetworkAttachment{Name: "data"}
	other := v1alpha1.NetworkAttachment{Name: "other"}
	for _, c := range []struct {
		name string
		net  v1alpha1.NetworkSpec
		want string
	}{
		{"a named interface", v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{other, ib}, DataInterface: "ib1"}, "ib"},
		// Multus numbers by position: the second network is net2 even after a named one.
		{"net<N> by position", v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{ib, data}, DataInterface: "net2"}, "data"},
		{"the first unnamed", v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{data, other}, DataInterface: "net1"}, "data"},
		{"the pod network", v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{data}, DataInterface: "eth0"}, ""},
		{"no data interface", v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{data}}, ""},
		// One past the attachments is Rook's public network, which every pod joins.
		{"Rook's public network", v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{data}, DataInterface: "net2"}, ""},
		{"the host's network", v1alpha1.NetworkSpec{HostNetwork: true, DataInterface: "ib0"}, ""},
	} {
		a, ok := DataAttachment(c.net)
		if got := a.Name; got != c.want || ok != (c.want != "") {
			t.Errorf("%s: %q (%v), want %q", c.name, got, ok, c.want)
		}
	}
}

func TestDataNetwork(t *testing.T) {
	public := &v1alpha1.NetworkAttachment{Name: "public-net", Namespace: "rook-ceph"}
	ib := v1alpha1.NetworkAttachment{Name: "ib", Namespace: "net", InterfaceName: "ib1"}
	data := v1alpha1.NetworkAttachment{Name: "data"}
	for _, c := range []struct {
		name   string
		net    v1alpha1.NetworkSpec
		public *v1alpha1.NetworkAttachment
		want   string
	}{
		{"a named interface", v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{data, ib}, DataInterface: "ib1"}, public, "net/ib"},
		{"net<N> by position, in the cluster's namespace", v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{ib, data}, DataInterface: "net2"}, nil, "data/data"},
		// The operator appends Rook's public network after the user's attachments.
		{"Rook's public network, one past the attachments", v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{data}, DataInterface: "net2"}, public, "rook-ceph/public-net"},
		{"one past the attachments without Rook's network", v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{data}, DataInterface: "net2"}, nil, ""},
		{"the pod network", v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{data}, DataInterface: "eth0"}, public, ""},
		{"no data interface", v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{data}}, public, ""},
		{"the host's network", v1alpha1.NetworkSpec{HostNetwork: true, DataInterface: "net1"}, public, ""},
	} {
		in := Input{
			Cluster: &v1alpha1.HadoopCluster{ObjectMeta: metav1.ObjectMeta{Name: "hc", Namespace: "data"}, Spec: v1alpha1.HadoopClusterSpec{Network: c.net}},
			Storage: Storage{PublicNetwork: c.public},
		}
		a, ok := DataNetwork(in)
		got := ""
		if ok {
			got = a.Namespace + "/" + a.Name
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestResourceManagerJoinsTheDataNetwork(t *testing.T) {
	in := replicatedInput(t)
	in.Cluster.Spec.Network = v1alpha1.NetworkSpec{
		Attachments:   []v1alpha1.NetworkAttachment{{Name: "fast"}, {Name: "data"}},
		DataInterface: "net2",
	}
	in.AttachmentResources = []v1alpha1.AttachmentResource{{Name: "data", Namespace: in.Cluster.Namespace, ResourceName: "example.com/vf"}}
	// It launches ApplicationMasters on the NodeManagers at their data addresses; the
	// other attachment is the NodeManagers' alone.
	if got := MultusNetworks(attachmentsFor(in, ResourceManager)); got != `[{"name":"data"}]` {
		t.Errorf("ResourceManager networks %s", got)
	}
	if got := attachmentDevices(in, ResourceManager); len(got) != 1 || got[0].Name != "example.com/vf" {
		t.Errorf("ResourceManager devices %+v", got)
	}
	// The operator's Ceph-only Jobs and the JobHistory server join neither.
	for _, c := range []Component{cephClient, JobHistory} {
		if got := attachmentsFor(in, c); len(got) != 0 {
			t.Errorf("%s networks %+v", c, got)
		}
	}
}
