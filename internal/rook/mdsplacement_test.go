package rook

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// hadoopfsSpread is the placement the operator gives the MDS daemons of the
// fixtures' file system, hadoopfs, when the CephFilesystem has none of its own.
func hadoopfsSpread() cephv1.Placement {
	return cephv1.Placement{PodAntiAffinity: &corev1.PodAntiAffinity{
		PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
			Weight: 100,
			PodAffinityTerm: corev1.PodAffinityTerm{
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{
					"app": "rook-ceph-mds", "rook_file_system": "hadoopfs",
				}},
				TopologyKey: "kubernetes.io/hostname",
			},
		}},
	}}
}

func TestSpreadMetadataServers(t *testing.T) {
	required := &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
		LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "rook-ceph-mds"}},
		TopologyKey:   corev1.LabelHostname,
	}}}
	tolerations := []corev1.Toleration{{Key: "storage", Operator: corev1.TolerationOpExists}}
	tests := []struct {
		name      string
		placement cephv1.Placement
		want      cephv1.Placement
	}{
		{
			name: "no placement: the file system's own daemons avoid each other's nodes",
			want: hadoopfsSpread(),
		},
		{
			name:      "tolerations only: the spread is added beside them",
			placement: cephv1.Placement{Tolerations: tolerations},
			want:      cephv1.Placement{Tolerations: tolerations, PodAntiAffinity: hadoopfsSpread().PodAntiAffinity},
		},
		{
			name:      "a user's anti-affinity is kept as it is",
			placement: cephv1.Placement{PodAntiAffinity: required},
			want:      cephv1.Placement{PodAntiAffinity: required},
		},
		{
			name:      "an empty anti-affinity turns the spread off",
			placement: cephv1.Placement{PodAntiAffinity: &corev1.PodAntiAffinity{}},
			want:      cephv1.Placement{PodAntiAffinity: &corev1.PodAntiAffinity{}},
		},
		{
			name: "topology spread constraints are a spread of the user's",
			placement: cephv1.Placement{TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{
				MaxSkew: 1, TopologyKey: corev1.LabelHostname, WhenUnsatisfiable: corev1.ScheduleAnyway,
			}}},
			want: cephv1.Placement{TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{
				MaxSkew: 1, TopologyKey: corev1.LabelHostname, WhenUnsatisfiable: corev1.ScheduleAnyway,
			}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.placement
			spreadMetadataServers(&got, "hadoopfs")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("spreadMetadataServers() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
