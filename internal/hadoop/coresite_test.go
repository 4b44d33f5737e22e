package hadoop

import (
	"encoding/xml"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// coreSiteSource is the ConfigMap key that container c mounts as core-site.xml, ""
// when it mounts none.
func coreSiteSource(c corev1.Container) string {
	for _, m := range c.VolumeMounts {
		if m.MountPath == ConfDir+"/"+FileCoreSite {
			return m.SubPath
		}
	}
	return ""
}

// finalProperties are the properties a configuration file marks final, by name.
func finalProperties(t *testing.T, doc string) map[string]string {
	t.Helper()
	var conf struct {
		Properties []struct {
			Name  string `xml:"name"`
			Value string `xml:"value"`
			Final string `xml:"final"`
		} `xml:"property"`
	}
	if err := xml.Unmarshal([]byte(doc), &conf); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range conf.Properties {
		if p.Final == "true" {
			out[p.Name] = p.Value
		}
	}
	return out
}

// spec.network.cephOptions reach the NodeManagers alone, through a core-site.xml of
// their own that the ConfigMap holds only then.
func TestNodeManagerCephOptions(t *testing.T) {
	in := replicatedInput(t)
	in.Cluster.Spec.Config.CephOptions = map[string]string{"client_oc_size": "104857600", "debug_client": "1"}
	in.Storage.EvictionSecret, in.Storage.EvictionClientID = "evictor", "hadoop-evictor"

	plain := build(t, in)
	if _, ok := plain.ConfigMap.Data[FileNodeManagerCoreSite]; ok {
		t.Errorf("the ConfigMap holds %s without spec.network.cephOptions", FileNodeManagerCoreSite)
	}
	if got := coreSiteSource(plain.NodeManagers.Spec.Template.Spec.Containers[0]); got != FileCoreSite {
		t.Errorf("without spec.network.cephOptions the NodeManager mounts %q as core-site.xml, want %q", got, FileCoreSite)
	}

	in.Cluster.Spec.Network.CephOptions = map[string]string{"ms_type": "async+rdma", "ms_async_rdma_device_name": "mlx5_0", "client_oc_size": "209715200"}
	objs := build(t, in)
	nmSite, ok := objs.ConfigMap.Data[FileNodeManagerCoreSite]
	if !ok {
		t.Fatalf("the ConfigMap has no %s", FileNodeManagerCoreSite)
	}
	const nmOptions = "client_fs=hadoopfs,client_oc_size=209715200,debug_client=1,ms_async_rdma_device_name=mlx5_0,ms_type=async+rdma"
	if got := xmlProperties(t, nmSite)[keyCephConfOptions]; got != nmOptions {
		t.Errorf("the NodeManagers' %s = %q, want %q (network.cephOptions over config.cephOptions)", keyCephConfOptions, got, nmOptions)
	}
	if got := finalProperties(t, nmSite); len(got) != 1 || got[keyCephConfOptions] != nmOptions {
		t.Errorf("final properties of the NodeManagers' core-site.xml = %v, want %s alone, so a job's job.xml cannot replace it", got, keyCephConfOptions)
	}
	const options = "client_fs=hadoopfs,client_oc_size=104857600,debug_client=1"
	if got := xmlProperties(t, objs.ConfigMap.Data[FileCoreSite])[keyCephConfOptions]; got != options {
		t.Errorf("everyone else's %s = %q, want %q", keyCephConfOptions, got, options)
	}
	// Besides ceph.conf.options both files say the same.
	nm, all := xmlProperties(t, nmSite), xmlProperties(t, objs.ConfigMap.Data[FileCoreSite])
	delete(nm, keyCephConfOptions)
	delete(all, keyCephConfOptions)
	if len(nm) != len(all) {
		t.Errorf("the NodeManagers' core-site.xml has %d other properties, everyone else's %d", len(nm), len(all))
	}
	for k, v := range all {
		if nm[k] != v {
			t.Errorf("%s: %q for the NodeManagers, %q for everyone else", k, nm[k], v)
		}
	}

	rm := objs.ResourceManager.Spec.Template.Spec
	for _, c := range []struct {
		name      string
		container corev1.Container
		want      string
	}{
		{"NodeManager", objs.NodeManagers.Spec.Template.Spec.Containers[0], FileNodeManagerCoreSite},
		{"ResourceManager", rm.Containers[0], FileCoreSite},
		{"scheduler refresher", rm.Containers[1], FileCoreSite},
		{"root hand-over", rm.InitContainers[0], FileCoreSite},
		{"JobHistory server", objs.JobHistory.Spec.Template.Spec.Containers[0], FileCoreSite},
		{"benchmark stage", ClientPodTemplateSpec(in, objs.ConfigHash, ClientContainer{Command: "runner"}).Spec.Containers[0], FileCoreSite},
	} {
		if got := coreSiteSource(c.container); got != c.want {
			t.Errorf("%s mounts %q as core-site.xml, want %q", c.name, got, c.want)
		}
	}

	onHDFS := hdfsCase(t)
	onHDFS.Cluster.Spec.Network.CephOptions = in.Cluster.Spec.Network.CephOptions
	if _, ok := build(t, onHDFS).ConfigMap.Data[FileNodeManagerCoreSite]; ok {
		t.Errorf("an HDFS cluster, which has no Ceph client, got %s", FileNodeManagerCoreSite)
	}
}
