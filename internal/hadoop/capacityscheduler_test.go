package hadoop

import (
	"encoding/xml"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func TestQueueACLs(t *testing.T) {
	const (
		rootSubmit     = "yarn.scheduler.capacity.root.acl_submit_applications"
		rootAdminister = "yarn.scheduler.capacity.root.acl_administer_queue"
		submit         = "yarn.scheduler.capacity.root.default.acl_submit_applications"
		administer     = "yarn.scheduler.capacity.root.default.acl_administer_queue"
	)
	cases := []struct {
		name                   string
		access                 v1alpha1.YARNAccess
		wantAdmins, wantSubmit string
	}{
		{name: "nothing declared", wantAdmins: "hadoop ", wantSubmit: "*"},
		{
			name:       "admins and submitters",
			access:     v1alpha1.YARNAccess{Admins: v1alpha1.ACLEntries{Users: []string{"ops"}, Groups: []string{"sre", "dba"}}, Submitters: &v1alpha1.ACLEntries{Users: []string{"alice"}}},
			wantAdmins: "hadoop,ops sre,dba", wantSubmit: "alice ",
		},
		{
			name:       "hadoop listed once",
			access:     v1alpha1.YARNAccess{Admins: v1alpha1.ACLEntries{Users: []string{"ops", "hadoop"}}},
			wantAdmins: "ops,hadoop ", wantSubmit: "*",
		},
		{
			name:       "submitters set but empty: only admins",
			access:     v1alpha1.YARNAccess{Submitters: &v1alpha1.ACLEntries{}},
			wantAdmins: "hadoop ", wantSubmit: " ",
		},
		{
			name:       "groups only",
			access:     v1alpha1.YARNAccess{Submitters: &v1alpha1.ACLEntries{Groups: []string{"analysts"}}},
			wantAdmins: "hadoop ", wantSubmit: " analysts",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := replicatedInput(t)
			in.Cluster.Spec.Access.YARN = tc.access
			objs := build(t, in)
			cs := xmlProperties(t, objs.ConfigMap.Data[FileCapacityScheduler])
			yarn := xmlProperties(t, objs.ConfigMap.Data[FileYarnSite])
			if cs[rootAdminister] != tc.wantAdmins || yarn["yarn.admin.acl"] != tc.wantAdmins {
				t.Errorf("root administer %q, yarn.admin.acl %q, want both %q", cs[rootAdminister], yarn["yarn.admin.acl"], tc.wantAdmins)
			}
			if cs[submit] != tc.wantSubmit {
				t.Errorf("default queue submit ACL %q, want %q", cs[submit], tc.wantSubmit)
			}
			// Queues inherit their parent's ACLs: anything open above default would
			// open default too.
			if cs[rootSubmit] != aclNobody || cs[administer] != aclNobody {
				t.Errorf("root submit %q, default administer %q: both must admit nobody beyond what is declared", cs[rootSubmit], cs[administer])
			}
			if yarn["yarn.acl.enable"] != "true" {
				t.Errorf("yarn.acl.enable = %q, want true by default", yarn["yarn.acl.enable"])
			}
		})
	}
}

func TestYARNACLsOff(t *testing.T) {
	in := replicatedInput(t)
	in.Cluster.Spec.Access.YARN.ACLs = ptr.To(false)
	yarn := xmlProperties(t, build(t, in).ConfigMap.Data[FileYarnSite])
	if yarn["yarn.acl.enable"] != "false" {
		t.Errorf("yarn.acl.enable = %q, want false", yarn["yarn.acl.enable"])
	}
}

// Every StatefulSet names a headless Service of the same build that selects its pods,
// which is what gives the pods their DNS names.
func TestStatefulSetsNameTheirHeadlessServices(t *testing.T) {
	objs := build(t, replicatedInput(t))
	services := map[string]*corev1.Service{}
	var sets []*appsv1.StatefulSet
	for _, o := range objs.List() {
		switch o := o.(type) {
		case *corev1.Service:
			services[o.Name] = o
		case *appsv1.StatefulSet:
			sets = append(sets, o)
		}
	}
	if len(sets) != 3 {
		t.Fatalf("%d StatefulSets, want 3", len(sets))
	}
	for _, sts := range sets {
		svc, ok := services[sts.Spec.ServiceName]
		switch {
		case !ok:
			t.Errorf("StatefulSet %s names Service %s, which is not built", sts.Name, sts.Spec.ServiceName)
		case svc.Spec.ClusterIP != corev1.ClusterIPNone:
			t.Errorf("StatefulSet %s names Service %s, which is not headless", sts.Name, svc.Name)
		case !selects(svc.Spec.Selector, sts.Spec.Template.Labels):
			t.Errorf("Service %s does not select the pods of StatefulSet %s", svc.Name, sts.Name)
		}
	}
	if rm := objs.ResourceManagerService; rm.Spec.ClusterIP == corev1.ClusterIPNone {
		t.Error("the ResourceManager's client Service must keep a stable address")
	}
}

func selects(selector, labels map[string]string) bool {
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return len(selector) > 0
}

// xmlProperties reads a configuration file as Hadoop does, whitespace included.
func xmlProperties(t *testing.T, doc string) map[string]string {
	t.Helper()
	var conf struct {
		Properties []struct {
			Name  string `xml:"name"`
			Value string `xml:"value"`
		} `xml:"property"`
	}
	if err := xml.Unmarshal([]byte(doc), &conf); err != nil {
		t.Fatalf("parsing %q: %v", doc, err)
	}
	out := map[string]string{}
	for _, p := range conf.Properties {
		out[p.Name] = p.Value
	}
	return out
}

func TestDeclaredQueues(t *testing.T) {
	in := replicatedInput(t)
	in.Cluster.Spec.Access.YARN.Submitters = &v1alpha1.ACLEntries{Users: []string{"alice"}}
	in.Cluster.Spec.YARN.Queues = []v1alpha1.Queue{
		{Name: "default", Capacity: 70},
		{Name: "etl", Capacity: 20, MaximumCapacity: ptr.To[int32](50), Submitters: &v1alpha1.ACLEntries{Groups: []string{"etl"}}},
		{Name: "old", Capacity: 10, State: v1alpha1.QueueStopped},
	}
	cs := xmlProperties(t, build(t, in).ConfigMap.Data[FileCapacityScheduler])
	want := map[string]string{
		"yarn.scheduler.capacity.root.queues":                          "default,etl,old",
		"yarn.scheduler.capacity.root.default.capacity":                "70",
		"yarn.scheduler.capacity.root.default.maximum-capacity":        "100",
		"yarn.scheduler.capacity.root.default.acl_submit_applications": "alice ",
		"yarn.scheduler.capacity.root.etl.capacity":                    "20",
		"yarn.scheduler.capacity.root.etl.maximum-capacity":            "50",
		"yarn.scheduler.capacity.root.etl.acl_submit_applications":     " etl",
		"yarn.scheduler.capacity.root.etl.acl_administer_queue":        aclNobody,
		"yarn.scheduler.capacity.root.etl.state":                       "RUNNING",
		"yarn.scheduler.capacity.root.etl.user-limit-factor":           "3",
		"yarn.scheduler.capacity.root.default.user-limit-factor":       "2",
		"yarn.scheduler.capacity.root.old.state":                       "STOPPED",
		"yarn.scheduler.capacity.root.old.acl_submit_applications":     "alice ",
	}
	expectProperties(t, cs, want)
}

// expectProperties reports each property of want that got lacks or has another value.
func expectProperties(t *testing.T, got, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

// Queues and their submitters change without a restart: a new capacity-scheduler.xml
// changes the ConfigMap and nothing else, not even the hash the pod templates carry.
func TestQueueChangeRollsNothing(t *testing.T) {
	for name, change := range map[string]func(*v1alpha1.HadoopClusterSpec){
		"queues": func(s *v1alpha1.HadoopClusterSpec) {
			s.YARN.Queues = []v1alpha1.Queue{{Name: "default", Capacity: 50}, {Name: "adhoc", Capacity: 50}}
		},
		"submitters": func(s *v1alpha1.HadoopClusterSpec) {
			s.Access.YARN.Submitters = &v1alpha1.ACLEntries{Users: []string{"alice"}}
		},
	} {
		t.Run(name, func(t *testing.T) {
			in := replicatedInput(t)
			before := build(t, in)
			in.Cluster = in.Cluster.DeepCopy()
			change(&in.Cluster.Spec)
			after := build(t, in)
			if got := changed(t, before, after); len(got) != 1 || !got["ConfigMap/"+ConfigMapName(in.Cluster)] {
				t.Errorf("changed %v, want the ConfigMap only", got)
			}
			if before.ConfigHash != after.ConfigHash {
				t.Error("the configuration hash changed, which would roll every pod")
			}
			if before.ConfigMap.Annotations[SchedulerHashAnnotation] == after.ConfigMap.Annotations[SchedulerHashAnnotation] {
				t.Error("the scheduler's hash did not change")
			}
		})
	}
}

// The ResourceManager finds capacity-scheduler.xml in the directory mount, ahead of
// the image's file, and a second container refreshes the queues.
func TestResourceManagerReadsTheSchedulerFromADirectoryMount(t *testing.T) {
	in := replicatedInput(t)
	objs := build(t, in)
	pod := objs.ResourceManager.Spec.Template
	if len(pod.Spec.Containers) != 2 || pod.Spec.Containers[1].Name != SchedulerRefresher {
		t.Fatalf("containers %v, want the ResourceManager and %s", pod.Spec.Containers, SchedulerRefresher)
	}
	if pod.Annotations[DefaultContainerAnnotation] != string(ResourceManager) {
		t.Errorf("default container %q, want %s", pod.Annotations[DefaultContainerAnnotation], ResourceManager)
	}
	for _, c := range pod.Spec.Containers {
		found := false
		for _, m := range c.VolumeMounts {
			if m.MountPath == SchedulerConfDir {
				found = m.SubPath == "" && m.ReadOnly
			}
			if m.SubPath == FileCapacityScheduler {
				t.Errorf("%s mounts the scheduler's file with subPath, which never sees an update", c.Name)
			}
		}
		if !found {
			t.Errorf("%s does not mount %s as a read-only directory", c.Name, SchedulerConfDir)
		}
	}
	for _, sts := range []*appsv1.StatefulSet{objs.NodeManagers, objs.JobHistory} {
		if len(sts.Spec.Template.Spec.Containers) != 1 {
			t.Errorf("%s has %d containers, want its daemon alone", sts.Name, len(sts.Spec.Template.Spec.Containers))
		}
	}
	env := objs.ConfigMap.Data[FileHadoopEnv]
	if !strings.Contains(env, `HADOOP_CLASSPATH="`+SchedulerConfDir) || !strings.Contains(env, "HADOOP_USER_CLASSPATH_FIRST=true") {
		t.Errorf("hadoop-env.sh does not put %s first on the classpath:\n%s", SchedulerConfDir, env)
	}
}

func TestNodesExcludeXML(t *testing.T) {
	empty := NodesExcludeXML(nil)
	if strings.Contains(empty, "<host>") || !strings.Contains(empty, "<hosts>") {
		t.Errorf("without a decommission the file lists no host:\n%s", empty)
	}
	got := NodesExcludeXML(&Decommission{Hosts: []string{"nm-1.nm.ns.svc", "10.0.0.7"}, TimeoutSeconds: 600})
	for _, want := range []string{
		"<host><name>10.0.0.7</name><timeout>600</timeout></host>\n  <host><name>nm-1.nm.ns.svc</name>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("exclude file lacks %q:\n%s", want, got)
		}
	}
}
