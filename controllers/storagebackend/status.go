package storagebackend

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
)

// pass carries one reconcile of a StorageBackend: the object as read and the status
// being rebuilt on it.
type pass struct {
	lifecycle.Pass
	// base is the object as read, the origin of the status patch.
	base *v1alpha1.StorageBackend
	// sb is the object whose status the pass rebuilds.
	sb *v1alpha1.StorageBackend
	// deleting passes only report on the deletion and leave the rest of the status.
	deleting bool
	// finalized is set once the finalizer is gone and the object with it.
	finalized bool
}

// newPass starts a pass. Everything in the status is rebuilt from what exists, except
// conditions, which keep their last transition times while their status holds.
func newPass(sb *v1alpha1.StorageBackend) *pass {
	p := &pass{Pass: lifecycle.NewPass(&sb.Status.Conditions, sb.Generation), base: sb.DeepCopy(), sb: sb, deleting: !sb.DeletionTimestamp.IsZero()}
	if !p.deleting {
		sb.Status = v1alpha1.StorageBackendStatus{
			ObservedGeneration: sb.Status.ObservedGeneration,
			Conditions:         sb.Status.Conditions,
		}
	}
	return p
}

// summarize sets Ready from the conditions it summarises, in the order a user should
// fix them.
func summarize(p *pass) {
	evictorLacksConfig(p)
	if p.sb.Spec.HDFS != nil {
		p.Summarize([]string{v1alpha1.ConditionFilesystemReady, v1alpha1.ConditionClientConfigReady}, func() string {
			st := &p.sb.Status
			return fmt.Sprintf("HDFS %s is ready for Hadoop, with %d replicas per block; client configuration in ConfigMap %s", st.FilesystemName, st.HDFS.Replication, st.ClientConfigMap)
		})
		return
	}
	owned := []string{v1alpha1.ConditionFilesystemReady, v1alpha1.ConditionClientReady, v1alpha1.ConditionClientConfigReady}
	p.Summarize(owned, func() string {
		st := &p.sb.Status
		return fmt.Sprintf("CephFS %s is ready for Hadoop at %s as client.%s; client config in Secret %s", st.FilesystemName, st.RootPath, st.ClientID, st.ClientConfigSecret)
	})
}

// warningReasons are condition reasons that need a user's action rather than time.
var warningReasons = map[string]bool{
	v1alpha1.ReasonRookNamespaceNotFound:        true,
	v1alpha1.ReasonCephClusterNotFound:          true,
	v1alpha1.ReasonFilesystemNotFound:           true,
	v1alpha1.ReasonFilesystemOwnedElsewhere:     true,
	v1alpha1.ReasonSubVolumeGroupOwnedElsewhere: true,
	v1alpha1.ReasonClientOwnedElsewhere:         true,
	v1alpha1.ReasonClientConfigSecretConflict:   true,
	v1alpha1.ReasonInvalidMonEndpoints:          true,
	v1alpha1.ReasonSecretNotFound:               true,
	v1alpha1.ReasonSecretKeyMissing:             true,
	v1alpha1.ReasonInvalidKey:                   true,
	v1alpha1.ReasonInUse:                        true,
	v1alpha1.ReasonReconcileError:               true,
	v1alpha1.ReasonConfigMapNotFound:            true,
	v1alpha1.ReasonInvalidDiscoveryConfigMap:    true,
	v1alpha1.ReasonNameNodeUnreachable:          true,
	v1alpha1.ReasonNoActiveNameNode:             true,
	v1alpha1.ReasonClientConfigMapConflict:      true,
	v1alpha1.ReasonSettingsFailed:               true,
	v1alpha1.ReasonMetadataServerCrashLooping:   true,
	v1alpha1.ReasonNamespaceTerminating:         true,
}

// transitions turn condition changes into events, so that each wait, conflict or block
// is reported once when it starts rather than on every pass. Parts becoming ready are
// reported through Ready alone, and conditions that only wait for another one are left
// out: that one has its own event. DeletionBlocked's True is news, and so are
// FilesystemSettingsApplied's and MetadataServersHealthy's, which Ready does not
// report.
var transitions = lifecycle.Transitions{
	Warnings: warningReasons,
	Skip: func(c metav1.Condition) bool {
		switch {
		case c.Type == v1alpha1.ConditionReady:
			return c.Status != metav1.ConditionTrue
		case c.Reason == v1alpha1.ReasonDependencyNotReady:
			return true
		default:
			return c.Status == metav1.ConditionTrue && c.Type != v1alpha1.ConditionDeletionBlocked &&
				c.Type != v1alpha1.ConditionFilesystemSettingsApplied && c.Type != v1alpha1.ConditionMetadataServersHealthy
		}
	},
}
