package hadoop

import (
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// hdfsCase is the golden case of a cluster on an HDFS backend.
func hdfsCase(t *testing.T) Input {
	t.Helper()
	for _, tc := range goldenCases {
		if tc.storage.HDFS != nil {
			return Input{Cluster: loadCluster(t, tc.name), Storage: tc.storage, Defaults: tc.defaults}
		}
	}
	t.Fatal("no golden case has an HDFS backend")
	return Input{}
}

// A cluster on HDFS has HDFS as its default file system and nothing of CephFS in
// core-site.xml: no connector, no Ceph client, no locality file.
func TestCoreSiteOnHDFS(t *testing.T) {
	in := hdfsCase(t)
	core := CoreSite(in)
	if got := core["fs.defaultFS"]; got != in.Storage.HDFS.DefaultFS {
		t.Errorf("fs.defaultFS = %q, want the backend's %q", got, in.Storage.HDFS.DefaultFS)
	}
	for k := range core {
		if strings.Contains(k, "ceph") {
			t.Errorf("core-site.xml sets %s on an HDFS backend", k)
		}
	}
	in.Cluster.Spec.Config.CoreSite = map[string]string{"io.file.buffer.size": "131072"}
	if got := CoreSite(in)["io.file.buffer.size"]; got != "131072" {
		t.Errorf("a user's core-site key is lost on HDFS: %q", got)
	}
}

// The backend's hdfs-site.xml is one of the cluster's configuration files: mounted in
// every Hadoop container and part of the hash, so a change to it rolls the pods.
func TestHDFSSiteIsPartOfTheConfiguration(t *testing.T) {
	in := hdfsCase(t)
	objs := build(t, in)
	site, err := ParseConfigurationXML(objs.ConfigMap.Data[FileHDFSSite])
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range in.Storage.HDFS.Site {
		if site[k] != v {
			t.Errorf("hdfs-site.xml: %s = %q, want %q", k, site[k], v)
		}
	}

	changed := in
	changed.Storage.HDFS = &HDFSStorage{DefaultFS: in.Storage.HDFS.DefaultFS, Site: map[string]string{"dfs.replication": "2"}}
	if build(t, changed).ConfigHash == objs.ConfigHash {
		t.Error("a new hdfs-site.xml leaves the configuration hash as it was: the pods would keep the old one")
	}
}

// No pod of a cluster on HDFS mounts a Ceph client config, and every container that
// runs Hadoop's code sees hdfs-site.xml in the configuration directory.
func TestNoCephClientOnHDFS(t *testing.T) {
	in := hdfsCase(t)
	objs := build(t, in)
	templates := map[string]corev1.PodTemplateSpec{
		"client": ClientPodTemplateSpec(in, objs.ConfigHash, ClientContainer{Command: "/bin/true"}),
	}
	for _, sts := range []*appsv1.StatefulSet{objs.ResourceManager, objs.NodeManagers, objs.JobHistory} {
		if sts != nil {
			templates[sts.Name] = sts.Spec.Template
		}
	}
	for name, tmpl := range templates {
		for _, v := range tmpl.Spec.Volumes {
			if v.Name == volumeCephClient || v.Secret != nil {
				t.Errorf("%s: volume %s on an HDFS backend", name, v.Name)
			}
		}
		for _, c := range slices.Concat(tmpl.Spec.InitContainers, tmpl.Spec.Containers) {
			hasSite := false
			for _, m := range c.VolumeMounts {
				if m.MountPath == CephConfDir {
					t.Errorf("%s/%s mounts %s on an HDFS backend", name, c.Name, CephConfDir)
				}
				hasSite = hasSite || (m.MountPath == ConfDir+"/"+FileHDFSSite && m.SubPath == FileHDFSSite)
			}
			if c.Image == in.image() && !hasSite {
				t.Errorf("%s/%s runs Hadoop without hdfs-site.xml", name, c.Name)
			}
		}
	}
}
