package benchmark

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

func TestSetup(t *testing.T) {
	hc := &v1alpha1.HadoopCluster{
		ObjectMeta: metav1.ObjectMeta{Name: "analytics"},
		Spec: v1alpha1.HadoopClusterSpec{
			StorageBackendRef: v1alpha1.LocalObjectReference{Name: "ceph-ec"},
			NodeManagers: v1alpha1.NodeManagerSpec{
				Replicas: ptr.To[int32](3),
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
					corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourceMemory: resource.MustParse("8Gi"),
				}},
			},
		},
		Status: v1alpha1.HadoopClusterStatus{ReadyNodeManagers: 3},
	}
	sb := &v1alpha1.StorageBackend{Status: v1alpha1.StorageBackendStatus{Mode: v1alpha1.StorageBackendModeRook, RawOverhead: "1.50",
		DataPools: []v1alpha1.DataPoolStatus{
			{Name: "fs-replicated", Kind: v1alpha1.PoolKindReplicated, Size: 3, RawOverhead: "3"},
			{Name: "fs-ec", Kind: v1alpha1.PoolKindErasureCoded, DataChunks: 2, CodingChunks: 1, RawOverhead: "1.5", HadoopData: true},
		}}}
	spec := &v1alpha1.BenchmarkRunSpec{TeraSort: &v1alpha1.TeraSortWorkload{Rows: ptr.To[int64](1), Reduces: ptr.To[int32](8)}, Repetitions: 3}

	storage := &hadoop.Storage{}

	got := Setup(spec, hc, sb, storage)
	want := &v1alpha1.BenchmarkSetup{
		Cluster: "analytics",
		Storage: v1alpha1.StorageSetup{Backend: "ceph-ec", Mode: "Rook", RawOverhead: "1.50",
			Pool: &v1alpha1.PoolSetup{Name: "fs-ec", Kind: v1alpha1.PoolKindErasureCoded, DataChunks: 2, CodingChunks: 1}},
		NodeManagers: v1alpha1.NodeManagersSetup{Replicas: 3, MemoryMiB: 6656, VCores: 4, Resources: &v1alpha1.PodResourcesSetup{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourceMemory: resource.MustParse("8Gi")},
		}},
		Repetitions: 3,
		TeraSort:    &v1alpha1.TeraSortSetup{Maps: 2, Reduces: 8, OutputReplication: 3},
		Network:     &v1alpha1.NetworkSetup{DataInterface: "eth0"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}

	check := func(what string, mutate func(), check func(*v1alpha1.BenchmarkSetup) bool) {
		t.Helper()
		mutate()
		if s := Setup(spec, hc, sb, storage); !check(s) {
			t.Errorf("%s: %+v %+v", what, s, s.TeraSort)
		}
	}
	check("the cluster's configuration decides unset TeraSort parameters", func() {
		hc.Spec.Config.MapredSite = map[string]string{"mapreduce.job.maps": " 16 ", "mapreduce.job.reduces": "4"}
		hc.Spec.Config.CoreSite = map[string]string{"dfs.replication": "0x2"}
	}, func(s *v1alpha1.BenchmarkSetup) bool {
		return *s.TeraSort == v1alpha1.TeraSortSetup{Maps: 16, Reduces: 8, OutputReplication: 2}
	})
	check("a value Hadoop refuses is unknown", func() {
		hc.Spec.Config.MapredSite = map[string]string{"mapreduce.job.maps": "many"}
	}, func(s *v1alpha1.BenchmarkSetup) bool { return s.TeraSort.Maps == 0 })
	check("YARN's resources as spec.nodeManagers.yarn sets them", func() {
		hc.Spec.NodeManagers.YARN = &v1alpha1.YARNResources{Memory: ptr.To(resource.MustParse("4Gi")), VCores: ptr.To[int32](6)}
	}, func(s *v1alpha1.BenchmarkSetup) bool {
		nm := s.NodeManagers
		return nm.Replicas == 3 && nm.MemoryMiB == 4096 && nm.VCores == 6
	})
	check("only cpu and memory of the NodeManager's resources, the limits beside the requests", func() {
		hc.Spec.NodeManagers.Resources = corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("6Gi"), "rdma/hca": resource.MustParse("1")},
			Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("3500m"), corev1.ResourceMemory: resource.MustParse("6Gi"), "rdma/hca": resource.MustParse("1")},
		}
	}, func(s *v1alpha1.BenchmarkSetup) bool {
		r := s.NodeManagers.Resources
		return len(r.Requests) == 1 && r.Requests.Memory().String() == "6Gi" &&
			len(r.Limits) == 2 && r.Limits.Cpu().String() == "3500m" && r.Limits.Memory().String() == "6Gi"
	})
	check("a container without requests or limits is recorded so, not left unknown", func() {
		hc.Spec.NodeManagers.Resources = corev1.ResourceRequirements{}
	}, func(s *v1alpha1.BenchmarkSetup) bool {
		r := s.NodeManagers.Resources
		return r != nil && r.Requests == nil && r.Limits == nil
	})
	check("the replicated pool when it holds Hadoop's root", func() {
		sb.Status.DataPools[0].HadoopData, sb.Status.DataPools[1].HadoopData = true, false
	}, func(s *v1alpha1.BenchmarkSetup) bool {
		return *s.Storage.Pool == v1alpha1.PoolSetup{Name: "fs-replicated", Kind: v1alpha1.PoolKindReplicated, Size: 3}
	})
	check("no StorageBackend, no workload's parameters", func() {
		sb, spec = nil, &v1alpha1.BenchmarkRunSpec{WordCount: &v1alpha1.WordCountWorkload{InputPath: "/a"}}
	}, func(s *v1alpha1.BenchmarkSetup) bool {
		return s.Storage == v1alpha1.StorageSetup{Backend: "ceph-ec"} && s.TeraSort == nil && s.Repetitions == 1
	})
}

func TestSetupNetwork(t *testing.T) {
	public := &v1alpha1.NetworkAttachment{Namespace: "rook-ceph", Name: "public"}
	ref := func(ns, name string) *v1alpha1.NetworkAttachmentReference {
		return &v1alpha1.NetworkAttachmentReference{Namespace: ns, Name: name}
	}
	// The HadoopCluster controller's record of the NetworkAttachmentDefinitions' rates.
	rates := []v1alpha1.AttachmentLinkRate{
		{Namespace: "analytics", Name: "data", Rate: "10Gbit"},
		{Namespace: "rook-ceph", Name: "public", Rate: "25Gbit"},
	}
	data := v1alpha1.NetworkAttachment{Name: "data"}
	for _, tc := range []struct {
		name    string
		net     v1alpha1.NetworkSpec
		storage *hadoop.Storage
		want    *v1alpha1.NetworkSetup
	}{{
		name: "the pod network", storage: &hadoop.Storage{},
		want: &v1alpha1.NetworkSetup{DataInterface: "eth0"},
	}, {
		name:    "an attachment that is not the data interface's has no say in it",
		net:     v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{data}},
		storage: &hadoop.Storage{},
		want:    &v1alpha1.NetworkSetup{DataInterface: "eth0"},
	}, {
		name:    "the data attachment at the rate its NetworkAttachmentDefinition gives",
		net:     v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{data}, DataInterface: "net1"},
		storage: &hadoop.Storage{},
		want:    &v1alpha1.NetworkSetup{DataInterface: "net1", Attachment: ref("analytics", "data"), Rate: "10Gbit"},
	}, {
		name: "a data attachment whose rate nobody gave",
		net: v1alpha1.NetworkSpec{
			Attachments:   []v1alpha1.NetworkAttachment{{Name: "ib", Namespace: "network", InterfaceName: "ib1"}},
			DataInterface: "ib1",
		},
		storage: &hadoop.Storage{PublicNetwork: public},
		want:    &v1alpha1.NetworkSetup{DataInterface: "ib1", Attachment: ref("network", "ib"), CephPublicNetwork: ref("rook-ceph", "public")},
	}, {
		name:    "the data interface on Rook's public network, after the attachments",
		net:     v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{data}, DataInterface: "net2"},
		storage: &hadoop.Storage{PublicNetwork: public},
		want:    &v1alpha1.NetworkSetup{DataInterface: "net2", Attachment: ref("rook-ceph", "public"), CephPublicNetwork: ref("rook-ceph", "public"), Rate: "25Gbit"},
	}, {
		name:    "the host's network joins no attachment, Rook's neither",
		net:     v1alpha1.NetworkSpec{HostNetwork: true, DataInterface: "ib0"},
		storage: &hadoop.Storage{PublicNetwork: public},
		want:    &v1alpha1.NetworkSetup{HostNetwork: true, DataInterface: "ib0"},
	}, {
		name: "the host's network without a data interface: the node's address",
		net:  v1alpha1.NetworkSpec{HostNetwork: true}, storage: &hadoop.Storage{},
		want: &v1alpha1.NetworkSetup{HostNetwork: true},
	}, {
		name: "storage that cannot be resolved leaves the network unknown",
		net:  v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{data}, DataInterface: "net1"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			hc := &v1alpha1.HadoopCluster{
				ObjectMeta: metav1.ObjectMeta{Namespace: "analytics", Name: "analytics"},
				Spec:       v1alpha1.HadoopClusterSpec{StorageBackendRef: v1alpha1.LocalObjectReference{Name: "ceph"}, Network: tc.net},
				Status:     v1alpha1.HadoopClusterStatus{Network: v1alpha1.NetworkStatus{LinkRates: rates}},
			}
			got := Setup(&v1alpha1.BenchmarkRunSpec{WordCount: &v1alpha1.WordCountWorkload{InputPath: "/a"}}, hc, nil, tc.storage).Network
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
