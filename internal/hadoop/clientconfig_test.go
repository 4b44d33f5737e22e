package hadoop

import (
	"maps"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// The discovery ConfigMap is a whole HADOOP_CONF_DIR for a client: the files a client
// reads, each as the daemons have it, and nothing that only a daemon reads.
func TestClientConfigMapFiles(t *testing.T) {
	for name, in := range map[string]Input{"cephfs": replicatedInput(t), "hdfs": hdfsCase(t)} {
		t.Run(name, func(t *testing.T) {
			objs := build(t, in)
			cm := objs.ClientConfigMap
			want := []string{FileCoreSite, FileHadoopEnv, FileLog4j, FileMapredSite, FileSparkDefaults, FileYarnSite}
			if name == "hdfs" {
				want = append(want, FileHDFSSite)
				slices.Sort(want)
			}
			if got := slices.Sorted(maps.Keys(cm.Data)); !slices.Equal(got, want) {
				t.Fatalf("files %v, want %v", got, want)
			}
			for _, f := range want {
				if f == FileLog4j || f == FileSparkDefaults {
					continue
				}
				if cm.Data[f] != objs.ConfigMap.Data[f] {
					t.Errorf("%s differs from the daemons' own: a client's jobs would run with other settings", f)
				}
			}
			if cm.Name != in.Cluster.Name+"-client" || cm.Namespace != in.Cluster.Namespace {
				t.Errorf("ConfigMap %s/%s, want %s/%s-client", cm.Namespace, cm.Name, in.Cluster.Namespace, in.Cluster.Name)
			}
		})
	}
}

// A spec.network.cephOptions meant for the NodeManagers' devices stays out of the
// clients' core-site.xml, as it stays out of every pod but the NodeManagers'.
func TestClientCoreSiteIsNotTheNodeManagers(t *testing.T) {
	in := replicatedInput(t)
	in.Cluster.Spec.Network.CephOptions = map[string]string{"ms_type": "async+rdma"}
	objs := build(t, in)
	if objs.ConfigMap.Data[FileNodeManagerCoreSite] == "" {
		t.Fatal("the case has no NodeManager core-site.xml to keep apart")
	}
	site, err := ParseConfigurationXML(objs.ClientConfigMap.Data[FileCoreSite])
	if err != nil {
		t.Fatal(err)
	}
	if got := site[keyCephConfOptions]; got != cephConfOptions(in.Storage.Filesystem, nil) {
		t.Errorf("the clients' %s = %q carries the NodeManagers' options", keyCephConfOptions, got)
	}
}

// The client PodTemplate is a pod that a client runs commands in: the cluster's image
// and configuration, the CephFS keyring, the labels that declare it a client, and a
// container that idles until it is deleted.
func TestClientPodTemplate(t *testing.T) {
	in := replicatedInput(t)
	objs := build(t, in)
	pt := objs.ClientPodTemplate
	if pt.Name != ClientPodTemplateName(in.Cluster) {
		t.Errorf("name %s", pt.Name)
	}
	spec := pt.Template.Spec
	for k, v := range ClientLabels(in.Cluster) {
		if pt.Template.Labels[k] != v {
			t.Errorf("pod label %s = %q, want %q: the NetworkPolicies would not admit it", k, pt.Template.Labels[k], v)
		}
	}
	if spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("restartPolicy %s, want Never", spec.RestartPolicy)
	}
	c := spec.Containers[0]
	if c.Name != string(Client) || !slices.Equal(c.Command, []string{"sleep"}) || !slices.Equal(c.Args, []string{"infinity"}) {
		t.Errorf("container %s runs %v %v, want client running sleep infinity", c.Name, c.Command, c.Args)
	}
	if c.Image != objs.NodeManagers.Spec.Template.Spec.Containers[0].Image {
		t.Errorf("image %s is not the NodeManagers'", c.Image)
	}
	if c.StartupProbe != nil || c.ReadinessProbe != nil || c.LivenessProbe != nil {
		t.Error("a client pod has probes")
	}
	var secret string
	for _, v := range spec.Volumes {
		if v.Secret != nil {
			secret = v.Secret.SecretName
		}
	}
	if secret != in.Storage.ClientConfigSecret {
		t.Errorf("mounts Secret %q, want the client config %q", secret, in.Storage.ClientConfigSecret)
	}
	if pt.Template.Annotations[ConfigHashAnnotation] != objs.ConfigHash {
		t.Errorf("config hash %q, want %q", pt.Template.Annotations[ConfigHashAnnotation], objs.ConfigHash)
	}
	expectSparkDefaultsMounted(t, spec, objs.ClientConfigMap.Name)
}

// expectSparkDefaultsMounted checks that a client pod's Spark finds the cluster's
// spark-defaults.conf in the image's HADOOP_CONF_DIR, from the discovery ConfigMap:
// without it spark-submit runs a local master.
func expectSparkDefaultsMounted(t *testing.T, spec corev1.PodSpec, clientConfigMap string) {
	t.Helper()
	volumes := map[string]corev1.Volume{}
	for _, v := range spec.Volumes {
		volumes[v.Name] = v
	}
	for _, m := range spec.Containers[0].VolumeMounts {
		if m.MountPath != ConfDir+"/"+FileSparkDefaults {
			continue
		}
		cm := volumes[m.Name].ConfigMap
		if cm == nil || cm.Name != clientConfigMap || m.SubPath != FileSparkDefaults ||
			!slices.ContainsFunc(cm.Items, func(k corev1.KeyToPath) bool { return k.Key == FileSparkDefaults }) {
			t.Errorf("%s is mounted from %+v (subPath %q), want %s of ConfigMap %s", m.MountPath, volumes[m.Name], m.SubPath, FileSparkDefaults, clientConfigMap)
		}
		return
	}
	t.Errorf("no mount at %s/%s", ConfDir, FileSparkDefaults)
}
