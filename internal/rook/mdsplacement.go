package rook

import (
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Labels Rook puts on every MDS pod it runs (pkg/operator/ceph/file/mds in Rook).
const (
	mdsAppLabel        = "app"
	mdsAppName         = "rook-ceph-mds"
	mdsFilesystemLabel = "rook_file_system"
)

// mdsSpreadWeight is the weight of the preference for a node without another MDS of
// the same file system: the highest the API allows, so that it outweighs the
// scheduler's resource scores, which would otherwise often put both daemons on the
// emptier node.
const mdsSpreadWeight = 100

// spreadMetadataServers asks the scheduler to put the MDS daemons of file system
// fsName on different nodes, so that the standby of a lost node's active MDS is
// elsewhere. Rook sets no anti-affinity of its own, and on a multi-node cluster both
// daemons often land on one node: losing it stops the file system until Kubernetes
// reschedules them.
//
// It is a preference, not a rule: one node, or more MDS daemons than nodes, still
// runs them all. A placement that already says how to spread (a pod anti-affinity or
// topology spread constraints, set by a user on the CephFilesystem) is the user's and
// stays as it is.
func spreadMetadataServers(p *cephv1.Placement, fsName string) {
	if p.PodAntiAffinity != nil || len(p.TopologySpreadConstraints) > 0 {
		return
	}
	p.PodAntiAffinity = &corev1.PodAntiAffinity{
		PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
			Weight: mdsSpreadWeight,
			PodAffinityTerm: corev1.PodAffinityTerm{
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{
					mdsAppLabel:        mdsAppName,
					mdsFilesystemLabel: fsName,
				}},
				TopologyKey: corev1.LabelHostname,
			},
		}},
	}
}
