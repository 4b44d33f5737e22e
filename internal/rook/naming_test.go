package rook

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
)

func TestDefaultClientName(t *testing.T) {
	if got := DefaultClientName("analytics", "lake"); got != "hadoop-analytics-lake" {
		t.Errorf("DefaultClientName() = %q, want hadoop-analytics-lake", got)
	}
	ns := "team-" + strings.Repeat("x", 58)
	a := DefaultClientName(ns, "backend-one")
	b := DefaultClientName(ns, "backend-two")
	for _, name := range []string{a, b} {
		if errs := validation.IsDNS1123Label(name); len(errs) > 0 {
			t.Errorf("DefaultClientName() = %q is not a label: %v", name, errs)
		}
	}
	if a == b {
		t.Errorf("two long names collapsed into %q", a)
	}
}

func TestNames(t *testing.T) {
	sb := rookBackend(func(r *v1alpha1.RookCephFS) { r.RootPath = "/volumes/etl" })
	got := map[string]string{
		"client":         ClientName(sb),
		"client secret":  ClientSecretName(ClientName(sb)),
		"group":          SubVolumeGroup(sb.Spec.CephFS.Rook.RootPath),
		"group object":   SubVolumeGroupName("hadoopfs", "etl"),
		"long group":     SubVolumeGroupName(strings.Repeat("f", 40), strings.Repeat("g", 40)),
		"namespace":      Namespace(sb, "rook-ceph"),
		"named ns":       Namespace(rookBackend(func(r *v1alpha1.RookCephFS) { r.Namespace = "ceph" }), "rook-ceph"),
		"external ns":    Namespace(&v1alpha1.StorageBackend{}, "rook-ceph"),
		"explicit cname": ClientName(rookBackend(func(r *v1alpha1.RookCephFS) { r.ClientName = "etl" })),
	}
	want := map[string]string{
		"client":         "hadoop-analytics-lake",
		"client secret":  "rook-ceph-client-hadoop-analytics-lake",
		"group":          "etl",
		"group object":   "hadoopfs-etl",
		"long group":     naming.ShortName(strings.Repeat("f", 40)+"-"+strings.Repeat("g", 40), 63),
		"namespace":      "rook-ceph",
		"named ns":       "ceph",
		"external ns":    "rook-ceph",
		"explicit cname": "etl",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("names mismatch (-want +got):\n%s", diff)
	}
	if n := len(got["long group"]); n > 63 {
		t.Errorf("long group object name has %d characters", n)
	}
}

func TestPreserveOnDelete(t *testing.T) {
	tests := []struct {
		name  string
		value *bool
		want  bool
	}{
		{name: "unset keeps data", value: nil, want: true},
		{name: "true", value: ptr.To(true), want: true},
		{name: "false", value: ptr.To(false), want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sb := rookBackend(func(r *v1alpha1.RookCephFS) { r.PreserveOnDelete = tt.value })
			if got := PreserveOnDelete(sb); got != tt.want {
				t.Errorf("PreserveOnDelete() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestOwnership(t *testing.T) {
	sb := rookBackend()
	long := rookBackend()
	long.Name = strings.Repeat("l", 100)

	tests := []struct {
		name       string
		labels     map[string]string
		sb         *v1alpha1.StorageBackend
		owned      bool
		owner      string
		doNotTouch bool
	}{
		{name: "ours", labels: ownLabels, sb: sb, owned: true, owner: "created for StorageBackend analytics/lake"},
		{name: "unlabelled", labels: nil, sb: sb, owner: "not created by a StorageBackend"},
		{name: "another backend", labels: naming.StorageBackendLabels(long), sb: sb, owner: "created for StorageBackend analytics/" + naming.ShortName(long.Name, 63)},
		{name: "long name", labels: naming.StorageBackendLabels(long), sb: long, owned: true, owner: "created for StorageBackend analytics/" + naming.ShortName(long.Name, 63)},
		{
			name:       "ours, opted out",
			labels:     map[string]string{naming.LabelStorageBackendNamespace: "analytics", naming.LabelStorageBackendName: "lake", naming.LabelManagedBy: naming.ManagedBy, naming.LabelDoNotReconcile: "true"},
			sb:         sb,
			owned:      true,
			owner:      "created for StorageBackend analytics/lake",
			doNotTouch: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := &metav1.ObjectMeta{Labels: tt.labels}
			if got := OwnedBy(obj, tt.sb); got != tt.owned {
				t.Errorf("OwnedBy() = %v, want %v", got, tt.owned)
			}
			if got := Owner(obj); got != tt.owner {
				t.Errorf("Owner() = %q, want %q", got, tt.owner)
			}
			if got := naming.DoNotReconcile(obj); got != tt.doNotTouch {
				t.Errorf("naming.DoNotReconcile() = %v, want %v", got, tt.doNotTouch)
			}
		})
	}
	for k, v := range naming.StorageBackendLabels(long) {
		if errs := validation.IsValidLabelValue(v); len(errs) > 0 {
			t.Errorf("label %s=%q is invalid: %v", k, v, errs)
		}
	}
}
