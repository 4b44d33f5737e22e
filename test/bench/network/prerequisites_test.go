package main

import "testing"

func TestEnvironmentFrom(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want environment
	}{
		{
			name: "hack/cluster/env.sh's defaults",
			want: environment{
				kubeconfig:   "/home/u/.cache/hadoop-ceph-operator/cluster/kubeconfig",
				localCluster: "/home/u/.cache/hadoop-ceph-operator/bin/local-cluster",
			},
		},
		{
			name: "another cache",
			env:  map[string]string{"HCO_CACHE": "/var/cache/hco"},
			want: environment{kubeconfig: "/var/cache/hco/cluster/kubeconfig", localCluster: "/var/cache/hco/bin/local-cluster"},
		},
		{
			name: "another cluster directory",
			env:  map[string]string{"HCO_CLUSTER_DIR": "/srv/cluster"},
			want: environment{kubeconfig: "/srv/cluster/kubeconfig", localCluster: "/home/u/.cache/hadoop-ceph-operator/bin/local-cluster"},
		},
		{
			name: "KUBECONFIG and LOCAL_CLUSTER, as the Makefile's e2e target exports them",
			env:  map[string]string{"KUBECONFIG": "/tmp/kubeconfig", "LOCAL_CLUSTER": "/tmp/local-cluster", "HCO_CACHE": "/var/cache/hco"},
			want: environment{kubeconfig: "/tmp/kubeconfig", localCluster: "/tmp/local-cluster"},
		},
	} {
		got := environmentFrom(func(name string) string { return tc.env[name] }, "/home/u")
		if got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
