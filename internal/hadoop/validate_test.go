package hadoop

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// replicatedInput is the golden "replicated" case: a minimal, defaulted cluster.
func replicatedInput(t *testing.T) Input {
	t.Helper()
	tc := goldenCases[0]
	return Input{Cluster: loadCluster(t, tc.name), Storage: tc.storage, Defaults: tc.defaults}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(in *Input)
		want   []string
	}{
		{name: "the defaulted minimal cluster", mutate: func(*Input) {}},
		{
			name: "owned keys in every file",
			mutate: func(in *Input) {
				in.Cluster.Spec.Config = v1alpha1.HadoopConfig{
					CoreSite:    map[string]string{"fs.defaultFS": "hdfs://nn:8020", "ceph.auth.id": "admin", "ceph.object.size": "4194304"},
					YarnSite:    map[string]string{"yarn.nodemanager.local-dirs": "/data", "yarn.nodemanager.pmem-check-enabled": "false"},
					MapredSite:  map[string]string{"mapreduce.framework.name": "local"},
					HadoopEnv:   map[string]string{"HADOOP_CONF_DIR": "/etc/hadoop", "HADOOP_OPTS": "-Dx"},
					CephOptions: map[string]string{"client_fs": "other", "client_oc_size": "104857600"},
				}
			},
			want: []string{
				`spec.config.coreSite[ceph.auth.id]: Forbidden: is owned by the operator: the operator sets the default file system and the CephFS connection from the StorageBackend`,
				`spec.config.coreSite[fs.defaultFS]: Forbidden`,
				`spec.config.yarnSite[yarn.nodemanager.local-dirs]: Forbidden`,
				`spec.config.mapredSite[mapreduce.framework.name]: Forbidden`,
				`spec.config.hadoopEnv[HADOOP_CONF_DIR]: Forbidden`,
				`spec.config.cephOptions[client_fs]: Forbidden`,
			},
		},
		{
			name: "owned keys in the NodeManagers' libcephfs options",
			mutate: func(in *Input) {
				in.Cluster.Spec.Network.CephOptions = map[string]string{"mon_host": "10.0.0.1", "ms_type": "async+rdma", "keyring": "/tmp/k"}
			},
			want: []string{
				`spec.network.cephOptions[keyring]: Forbidden: is owned by the operator`,
				`spec.network.cephOptions[mon_host]: Forbidden`,
			},
		},
		{
			name: "the RDMA messenger for every client",
			mutate: func(in *Input) {
				in.Cluster.Spec.Config.CephOptions = map[string]string{"ms_type": "async+posix", "ms_cluster_type": "async+rdma", "ms_async_rdma_device_name": "mlx5_0"}
			},
			want: []string{`spec.config.cephOptions[ms_cluster_type]: Invalid value: "async+rdma": Ceph's RDMA messenger works only in pods with an RDMA device`},
		},
		{
			name: "NodeManager memory below what YARN needs",
			mutate: func(in *Input) {
				in.Cluster.Spec.NodeManagers.Resources = resources(map[corev1.ResourceName]string{corev1.ResourceMemory: "2Gi"}, nil)
			},
			want: []string{`spec.nodeManagers.resources: Invalid value: "2Gi": memory must be at least 3584Mi`},
		},
		{
			name: "daemon memory below what a JVM needs",
			mutate: func(in *Input) {
				in.Cluster.Spec.ResourceManager.Resources = resources(nil, map[corev1.ResourceName]string{corev1.ResourceMemory: "256Mi"})
				in.Cluster.Spec.JobHistory.Resources = resources(map[corev1.ResourceName]string{corev1.ResourceMemory: "100Mi"}, nil)
			},
			want: []string{
				`spec.resourceManager.resources: Invalid value: "256Mi": memory must be at least 512Mi`,
				`spec.jobHistory.resources: Invalid value: "100Mi": memory must be at least 512Mi`,
			},
		},
		{
			name: "a disabled JobHistory server is not checked",
			mutate: func(in *Input) {
				in.Cluster.Spec.JobHistory.Enabled = ptr.To(false)
				in.Cluster.Spec.JobHistory.Resources = resources(map[corev1.ResourceName]string{corev1.ResourceMemory: "100Mi"}, nil)
			},
		},
		{
			name:   "no image anywhere",
			mutate: func(in *Input) { in.Defaults.Image = "" },
			want:   []string{`spec.image: Required value: the operator has no default Hadoop image configured`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := replicatedInput(t)
			tc.mutate(&in)
			errs := Validate(in)
			if len(errs) != len(tc.want) {
				t.Fatalf("got %d errors, want %d:\n%v", len(errs), len(tc.want), errs)
			}
			for i, want := range tc.want {
				if got := errs[i].Error(); !strings.HasPrefix(got, want) {
					t.Errorf("error %d = %q, want it to start with %q", i, got, want)
				}
			}
		})
	}
}

func TestBuildReportsEveryError(t *testing.T) {
	in := replicatedInput(t)
	in.Defaults.Image = ""
	in.Cluster.Spec.Config.CoreSite = map[string]string{"fs.defaultFS": "file:///"}
	_, err := Build(in)
	if err == nil {
		t.Fatal("Build accepted an invalid spec")
	}
	for _, want := range []string{"spec.image", "spec.config.coreSite[fs.defaultFS]"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

// Overrides replace generated values; the keys the operator owns are refused before
// (TestValidate), so no override can reach them.
func TestOverridesWin(t *testing.T) {
	in := replicatedInput(t)
	in.Cluster.Spec.Config = v1alpha1.HadoopConfig{
		CoreSite:   map[string]string{"fs.ceph.client.metadata": "team=analytics", "io.file.buffer.size": "131072"},
		YarnSite:   map[string]string{"yarn.nodemanager.vmem-check-enabled": "true"},
		MapredSite: map[string]string{"mapreduce.job.heap.memory-mb.ratio": "0.8"},
	}
	nm, err := NodeManagerResources(in.Cluster.Spec.NodeManagers)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file       string
		properties map[string]string
		key, want  string
	}{
		{FileCoreSite, CoreSite(in), "fs.ceph.client.metadata", "team=analytics"},
		{FileCoreSite, CoreSite(in), "io.file.buffer.size", "131072"},
		{FileCoreSite, CoreSite(in), "fs.defaultFS", DefaultFS},
		{FileYarnSite, YarnSite(in, nm), "yarn.nodemanager.vmem-check-enabled", "true"},
		{FileMapredSite, MapredSite(in), "mapreduce.job.heap.memory-mb.ratio", "0.8"},
	} {
		if got := tc.properties[tc.key]; got != tc.want {
			t.Errorf("%s: %s = %q, want %q", tc.file, tc.key, got, tc.want)
		}
	}
}
