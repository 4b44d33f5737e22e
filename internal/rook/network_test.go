package rook

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func TestDaemonNetwork(t *testing.T) {
	for name, tc := range map[string]struct {
		network cephv1.NetworkSpec
		want    Network
	}{
		"pod network":             {cephv1.NetworkSpec{}, Network{}},
		"host network":            {cephv1.NetworkSpec{Provider: cephv1.NetworkProviderHost}, Network{Host: true}},
		"host network, old field": {cephv1.NetworkSpec{HostNetwork: true}, Network{Host: true}},
		"multus public network": {
			cephv1.NetworkSpec{Provider: cephv1.NetworkProviderMultus, Selectors: map[cephv1.CephNetworkType]string{cephv1.CephNetworkPublic: "public-net"}},
			Network{Public: &v1alpha1.NetworkAttachment{Name: "public-net", Namespace: "rook-ceph"}},
		},
		"multus public network in another namespace": {
			cephv1.NetworkSpec{Provider: cephv1.NetworkProviderMultus, Selectors: map[cephv1.CephNetworkType]string{cephv1.CephNetworkPublic: "nets/public-net"}},
			Network{Public: &v1alpha1.NetworkAttachment{Name: "public-net", Namespace: "nets"}},
		},
		"multus without a public network": {
			cephv1.NetworkSpec{Provider: cephv1.NetworkProviderMultus, Selectors: map[cephv1.CephNetworkType]string{cephv1.CephNetworkCluster: "cluster-net"}},
			Network{},
		},
	} {
		t.Run(name, func(t *testing.T) {
			cc := &cephv1.CephCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "rook-ceph", Name: "rook-ceph"}, Spec: cephv1.ClusterSpec{Network: tc.network}}
			got, err := DaemonNetwork(cc)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("DaemonNetwork (-want +got)\n%s", diff)
			}
		})
	}
}
