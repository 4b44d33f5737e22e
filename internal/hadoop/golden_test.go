package hadoop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/golden"
)

// helmOperator selects the operator's pods as the Helm chart tells it to.
var helmOperator = &networkingv1.NetworkPolicyPeer{
	PodSelector: &metav1.LabelSelector{MatchLabels: map[string]string{
		"app.kubernetes.io/name": "hadoop-ceph-operator", "app.kubernetes.io/instance": "hadoop-ceph-operator",
	}},
	NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": "hadoop-ceph-system"}},
}

// goldenCases are the clusters of testdata/<name>/cluster.yaml with the storage and
// defaults the controller would resolve for them.
var goldenCases = []struct {
	name     string
	storage  Storage
	defaults Defaults
	// attachments are the devices the NetworkAttachmentDefinitions name.
	attachments []v1alpha1.AttachmentResource
}{
	{
		name: "replicated",
		storage: Storage{
			Filesystem:         "hadoopfs",
			RootPath:           "/volumes/hadoop",
			ClientID:           "hadoop-data-cephfs-replicated",
			ClientConfigSecret: "cephfs-replicated-ceph-client",
			ClientConfigHash:   "3f2a9c1d5e7b8a60",
			RookNamespace:      "rook-ceph",
			HandOverRoot:       true,
		},
		defaults: Defaults{Image: "registry.example.com/hadoopceph/hadoop:3.4.2", Operator: helmOperator},
	},
	{
		name: "erasure-coded-rdma",
		storage: Storage{
			Filesystem:         "hadoopfs-ec",
			RootPath:           "/volumes/hadoop",
			ClientID:           "hadoop-bench-cephfs-ec",
			ClientConfigSecret: "cephfs-ec-ceph-client",
			ClientConfigHash:   "9b1e04c7d2a5f318",
			RookNamespace:      "rook-ceph",
			PublicNetwork:      &v1alpha1.NetworkAttachment{Name: "public-net", Namespace: "rook-ceph"},
			HandOverRoot:       true,
		},
		defaults: Defaults{Image: "registry.example.com/hadoopceph/hadoop:3.4.2", Operator: helmOperator},
		// An SR-IOV InfiniBand network; Rook's public network is a macvlan, with no
		// device.
		attachments: []v1alpha1.AttachmentResource{{Namespace: "network", Name: "ib-hadoop", ResourceName: "nvidia.com/sriov_ib"}},
	},
	{
		// The operator runs outside the cluster here, so no policy admits it.
		name: "external-hostnetwork",
		storage: Storage{
			Filesystem:         "cephfs",
			RootPath:           "/hadoop",
			ClientID:           "hadoop",
			ClientConfigSecret: "ceph-external-ceph-client",
			ClientConfigHash:   "c0ffee0123456789",
		},
		defaults: Defaults{Image: "registry.example.com/hadoopceph/hadoop:3.4.2"},
	},
	{
		// preferCephOSDNodes has no OSDs to prefer: the backend is not Rook's.
		name: "hdfs",
		storage: Storage{
			ClientConfigHash: "5d41402abc4b2a76",
			HDFS: &HDFSStorage{
				DefaultFS: "hdfs://hdfs",
				Site: map[string]string{
					"dfs.nameservices":                        "hdfs",
					"dfs.ha.namenodes.hdfs":                   "nn0,nn1",
					"dfs.namenode.rpc-address.hdfs.nn0":       "hdfs-namenode-0.hdfs-namenode:8020",
					"dfs.namenode.rpc-address.hdfs.nn1":       "hdfs-namenode-1.hdfs-namenode:8020",
					"dfs.client.failover.proxy.provider.hdfs": "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider",
					"dfs.replication":                         "3",
				},
			},
		},
		defaults: Defaults{Image: "registry.example.com/hadoopceph/hadoop:3.4.2", Operator: helmOperator},
	},
}

// TestGolden compares every file and object built for each case with testdata.
func TestGolden(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Cluster: loadCluster(t, tc.name), Storage: tc.storage, Defaults: tc.defaults, AttachmentResources: tc.attachments}
			objs, err := Build(in)
			if err != nil {
				t.Fatalf("Build: %v", err)
			}
			files := append(configFiles(tc.storage), FileCapacityScheduler)
			if _, ok := objs.ConfigMap.Data[FileNodeManagerCoreSite]; ok {
				files = append(files, FileNodeManagerCoreSite)
			}
			for _, file := range files {
				golden.Assert(t, filepath.Join(tc.name, file), []byte(objs.ConfigMap.Data[file]))
			}
			// Spark's file is the clients' alone; the image's tests run Spark with it.
			golden.Assert(t, filepath.Join(tc.name, FileSparkDefaults), []byte(objs.ClientConfigMap.Data[FileSparkDefaults]))
			objects := objs.List()
			if objs.PodMonitor != nil {
				objects = append(objects, objs.PodMonitor)
			}
			for _, obj := range objects {
				name := strings.ToLower(obj.GetObjectKind().GroupVersionKind().Kind) + "-" + obj.GetName() + ".yaml"
				golden.Assert(t, filepath.Join(tc.name, name), golden.YAML(t, obj))
			}
		})
	}
}

func loadCluster(t *testing.T, name string) *v1alpha1.HadoopCluster {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name, "cluster.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	hc := &v1alpha1.HadoopCluster{}
	if err := yaml.UnmarshalStrict(raw, hc); err != nil {
		t.Fatalf("%s/cluster.yaml: %v", name, err)
	}
	return hc
}
