package hadoopcluster

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// refreshSchedulerFiles brings a change of capacity-scheduler.xml or of the exclude
// file to the ResourceManager's pod without waiting for the kubelet's periodic sync of
// ConfigMap volumes (a minute, plus its cache's age): it sets the ConfigMap's scheduler
// hash on the pod, an update that makes the kubelet sync the pod, and with it its
// volumes, at once. The pod's scheduler-refresh container then applies the files. The
// annotation is on the pod alone, not on the template, so nothing restarts.
func (r *Reconciler) refreshSchedulerFiles(ctx context.Context, p *clusterPass, cm *corev1.ConfigMap) error {
	hash := cm.Annotations[hadoop.SchedulerHashAnnotation]
	pods, err := r.componentPods(ctx, p.hc, hadoop.ResourceManager)
	if err != nil {
		return err
	}
	for i := range pods {
		pod := &pods[i]
		if !pod.DeletionTimestamp.IsZero() || pod.Annotations[hadoop.SchedulerHashAnnotation] == hash {
			continue
		}
		patch := client.RawPatch(client.Merge.Type(), fmt.Appendf(nil, `{"metadata":{"annotations":{%q:%q}}}`, hadoop.SchedulerHashAnnotation, hash))
		if err := r.Patch(ctx, pod, patch); client.IgnoreNotFound(err) != nil {
			return fmt.Errorf("annotating pod %s/%s: %w", pod.Namespace, pod.Name, err)
		}
	}
	return nil
}
