package hadoop

import (
	"bytes"
	"maps"
	"testing"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/golden"

	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func build(t *testing.T, in Input) *Objects {
	t.Helper()
	objs, err := Build(in)
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// changed names the objects whose YAML differs between a and b.
func changed(t *testing.T, a, b *Objects) map[string]bool {
	t.Helper()
	index := func(objs []client.Object) map[string][]byte {
		m := map[string][]byte{}
		for _, o := range objs {
			m[o.GetObjectKind().GroupVersionKind().Kind+"/"+o.GetName()] = golden.YAML(t, o)
		}
		return m
	}
	before, after := index(a.List()), index(b.List())
	out := map[string]bool{}
	for name, y := range before {
		if !bytes.Equal(y, after[name]) {
			out[name] = true
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			out[name] = true
		}
	}
	return out
}

func TestBuildIsDeterministic(t *testing.T) {
	for _, tc := range goldenCases {
		in := Input{Cluster: loadCluster(t, tc.name), Storage: tc.storage, Defaults: tc.defaults}
		if diff := changed(t, build(t, in), build(t, in)); len(diff) > 0 {
			t.Errorf("%s: two builds of the same input differ in %v", tc.name, diff)
		}
	}
}

func TestScalingChangesOnlyReplicas(t *testing.T) {
	in := replicatedInput(t)
	before := build(t, in)
	in.Cluster.Spec.NodeManagers.Replicas = ptr.To[int32](12)
	after := build(t, in)

	if diff := changed(t, before, after); len(diff) != 1 || !diff["StatefulSet/analytics-nodemanager"] {
		t.Fatalf("scaling changed %v, want only the NodeManager StatefulSet", diff)
	}
	after.NodeManagers.Spec.Replicas = before.NodeManagers.Spec.Replicas
	if !bytes.Equal(golden.YAML(t, before.NodeManagers), golden.YAML(t, after.NodeManagers)) {
		t.Error("scaling changed more of the NodeManager StatefulSet than spec.replicas")
	}
}

func TestConfigChangeRollsEveryPod(t *testing.T) {
	in := replicatedInput(t)
	before := build(t, in)
	in.Cluster.Spec.Config.YarnSite = map[string]string{"yarn.nodemanager.delete.debug-delay-sec": "600"}
	after := build(t, in)

	if before.ConfigHash == after.ConfigHash {
		t.Fatal("an override did not change the configuration hash")
	}
	for _, hash := range []string{
		after.ResourceManager.Spec.Template.Annotations[ConfigHashAnnotation],
		after.NodeManagers.Spec.Template.Annotations[ConfigHashAnnotation],
		after.JobHistory.Spec.Template.Annotations[ConfigHashAnnotation],
		after.ConfigMap.Annotations[ConfigHashAnnotation],
	} {
		if hash != after.ConfigHash {
			t.Errorf("a pod template or the ConfigMap carries hash %q, want %q", hash, after.ConfigHash)
		}
	}
	// The clients' copies follow, so that a client submits jobs with the settings the
	// daemons run with.
	want := map[string]bool{
		"ConfigMap/analytics-config":            true,
		"ConfigMap/analytics-client":            true,
		"PodTemplate/analytics-client":          true,
		"StatefulSet/analytics-resourcemanager": true,
		"StatefulSet/analytics-nodemanager":     true,
		"StatefulSet/analytics-jobhistory":      true,
	}
	if diff := changed(t, before, after); !maps.Equal(diff, want) {
		t.Errorf("a configuration change changed %v, want %v", diff, want)
	}
}

func TestClientConfigChangeRollsPodsOnly(t *testing.T) {
	in := replicatedInput(t)
	before := build(t, in)
	in.Storage.ClientConfigHash = "0000000000000000"
	after := build(t, in)

	if before.ConfigHash != after.ConfigHash {
		t.Error("new monitors or a new key changed the Hadoop configuration, which does not contain them")
	}
	want := map[string]bool{
		"PodTemplate/analytics-client":          true,
		"StatefulSet/analytics-resourcemanager": true,
		"StatefulSet/analytics-nodemanager":     true,
		"StatefulSet/analytics-jobhistory":      true,
	}
	if diff := changed(t, before, after); !maps.Equal(diff, want) {
		t.Errorf("a client config change changed %v, want %v", diff, want)
	}
}

func TestJobHistoryDisabled(t *testing.T) {
	in := replicatedInput(t)
	in.Cluster.Spec.JobHistory.Enabled = ptr.To(false)
	objs := build(t, in)
	if objs.JobHistory != nil || objs.JobHistoryService != nil {
		t.Error("a disabled JobHistory server still has objects")
	}
	for _, o := range objs.List() {
		// Its NetworkPolicy stays: it selects no pods until the server runs again.
		if _, ok := o.(*networkingv1.NetworkPolicy); ok {
			continue
		}
		if o.GetName() == JobHistoryName(in.Cluster) || o.GetName() == HeadlessServiceName(in.Cluster, JobHistory) {
			t.Errorf("List has %s %s", o.GetObjectKind().GroupVersionKind().Kind, o.GetName())
		}
	}
	mapred := objs.ConfigMap.Data[FileMapredSite]
	if bytes.Contains([]byte(mapred), []byte("mapreduce.jobhistory.address")) {
		t.Error("mapred-site.xml points jobs at a JobHistory server that does not run")
	}
}

func TestListOrder(t *testing.T) {
	var kinds []string
	for _, o := range build(t, replicatedInput(t)).List() {
		kinds = append(kinds, o.GetObjectKind().GroupVersionKind().Kind+"/"+o.GetName())
	}
	want := []string{
		"ServiceAccount/analytics-hadoop", "Role/analytics-topology-reader", "RoleBinding/analytics-topology-reader", "ConfigMap/analytics-config",
		"ConfigMap/analytics-client", "PodTemplate/analytics-client",
		"NetworkPolicy/analytics-resourcemanager", "NetworkPolicy/analytics-nodemanager", "NetworkPolicy/analytics-jobhistory",
		"Service/analytics-resourcemanager", "Service/analytics-resourcemanager-headless", "StatefulSet/analytics-resourcemanager",
		"Service/analytics-nodemanager", "StatefulSet/analytics-nodemanager", "PodDisruptionBudget/analytics-nodemanager",
		"Service/analytics-jobhistory", "Service/analytics-jobhistory-headless", "StatefulSet/analytics-jobhistory",
	}
	if len(kinds) != len(want) {
		t.Fatalf("List = %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("List = %v, want %v", kinds, want)
		}
	}
}

func TestStatusHelpers(t *testing.T) {
	hc := &v1alpha1.HadoopCluster{}
	hc.Name, hc.Namespace = "analytics", "data"
	for got, want := range map[string]string{
		ResourceManagerAddress(hc): "analytics-resourcemanager.data.svc:8032",
		ResourceManagerWebURL(hc):  "http://analytics-resourcemanager.data.svc:8088",
		JobHistoryWebURL(hc):       "http://analytics-jobhistory.data.svc:19888",
		NodeManagerSelector(hc):    "app.kubernetes.io/component=nodemanager,app.kubernetes.io/instance=analytics,app.kubernetes.io/name=hadoop",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
