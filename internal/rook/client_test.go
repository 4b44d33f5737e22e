package rook

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func TestClient(t *testing.T) {
	wantCaps := map[string]string{
		"mon": "allow r",
		"mds": "allow rwp path=/volumes/hadoop",
		"osd": "allow rw tag cephfs data=hadoopfs",
	}
	tests := []struct {
		name string
		sb   *v1alpha1.StorageBackend
		want *cephv1.CephClient
	}{
		{
			name: "default name",
			sb:   rookBackend(),
			want: &cephv1.CephClient{
				ObjectMeta: metav1.ObjectMeta{Name: "hadoop-analytics-lake", Namespace: "rook-ceph", Labels: ownLabels},
				Spec:       cephv1.ClientSpec{Caps: wantCaps},
			},
		},
		{
			name: "named client",
			sb:   rookBackend(func(r *v1alpha1.RookCephFS) { r.ClientName = "etl" }),
			want: &cephv1.CephClient{
				ObjectMeta: metav1.ObjectMeta{Name: "etl", Namespace: "rook-ceph", Labels: ownLabels},
				Spec:       cephv1.ClientSpec{Caps: wantCaps},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Client(tt.sb, "rook-ceph")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Client() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// A spec.name on the CephClient would change the cephx id away from the one the client
// config names, and extra caps would widen Hadoop's privileges: both are reset.
func TestMutateClientResetsIdentityAndCaps(t *testing.T) {
	cc := &cephv1.CephClient{
		ObjectMeta: metav1.ObjectMeta{Name: "hadoop-analytics-lake", Namespace: "rook-ceph"},
		Spec:       cephv1.ClientSpec{Name: "admin", Caps: map[string]string{"mon": "allow *", "mgr": "allow *"}},
	}
	MutateClient(cc, rookBackend())
	want := cephv1.ClientSpec{Caps: Caps("hadoopfs", "/volumes/hadoop")}
	if diff := cmp.Diff(want, cc.Spec); diff != "" {
		t.Errorf("MutateClient() spec mismatch (-want +got):\n%s", diff)
	}
}
