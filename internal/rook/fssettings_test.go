package rook

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// The caps measured on Ceph 18.2.7 to allow `ceph fs set <fs>
// refuse_standby_for_another_fs true` and refuse everything else.
func TestSettingsCaps(t *testing.T) {
	want := map[string]string{
		"mon": `allow command "fs set" with fs_name=hadoopfs var=refuse_standby_for_another_fs val=true, allow w fsname=hadoopfs`,
	}
	if diff := cmp.Diff(want, SettingsCaps("hadoopfs")); diff != "" {
		t.Errorf("SettingsCaps() mismatch (-want +got):\n%s", diff)
	}
}

// Ceph adds grants up: a read grant beside the write grant on the file system's map
// would let the client create pools and fail file systems.
func TestSettingsCapsGrantNoRead(t *testing.T) {
	for _, grant := range strings.Split(SettingsCaps("hadoopfs")["mon"], ", ") {
		if !strings.HasPrefix(grant, `allow command "fs set" with fs_name=hadoopfs `) && grant != "allow w fsname=hadoopfs" {
			t.Errorf("grant %q is neither one fs set command on hadoopfs nor the write grant on its map", grant)
		}
	}
}

func TestSettingsClient(t *testing.T) {
	tests := []struct {
		name string
		sb   *v1alpha1.StorageBackend
		want string
	}{
		{name: "default client name", sb: rookBackend(), want: "hadoop-analytics-lake-fs-settings"},
		{name: "named client", sb: rookBackend(func(r *v1alpha1.RookCephFS) { r.ClientName = "etl" }), want: "etl-fs-settings"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := &cephv1.CephClient{
				ObjectMeta: metav1.ObjectMeta{Name: tt.want, Namespace: "rook-ceph", Labels: ownLabels},
				Spec:       cephv1.ClientSpec{Caps: SettingsCaps("hadoopfs")},
			}
			if diff := cmp.Diff(want, SettingsClient(tt.sb, "rook-ceph")); diff != "" {
				t.Errorf("SettingsClient() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// The name is also the cephx id and part of the name of Rook's Secret: it stays a
// label, and apart from Hadoop's and the evictor's.
func TestSettingsClientNameOfALongClientName(t *testing.T) {
	sb := rookBackend(func(r *v1alpha1.RookCephFS) { r.ClientName = strings.Repeat("c", 63) })
	got := SettingsClientName(sb)
	if len(got) > 63 || got == ClientName(sb) || got == EvictorName(sb) {
		t.Errorf("SettingsClientName() = %q, want a label of at most 63 characters apart from %q and %q", got, ClientName(sb), EvictorName(sb))
	}
}

// A spec.name would change the cephx id away from the one the Job's keyring names,
// and extra caps would let the client do more than set the flag: both are reset.
func TestMutateSettingsClientResetsIdentityAndCaps(t *testing.T) {
	cc := &cephv1.CephClient{
		ObjectMeta: metav1.ObjectMeta{Name: "hadoop-analytics-lake-fs-settings", Namespace: "rook-ceph"},
		Spec:       cephv1.ClientSpec{Name: "admin", Caps: map[string]string{"mon": "allow *", "mds": "allow *"}},
	}
	MutateSettingsClient(cc, rookBackend())
	want := cephv1.ClientSpec{Caps: SettingsCaps("hadoopfs")}
	if diff := cmp.Diff(want, cc.Spec); diff != "" {
		t.Errorf("MutateSettingsClient() spec mismatch (-want +got):\n%s", diff)
	}
}
