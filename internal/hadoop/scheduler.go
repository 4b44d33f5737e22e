package hadoop

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

const (
	volumeScheduler = "scheduler-config"
	// SchedulerRefresher names the ResourceManager pod's second container.
	SchedulerRefresher = "scheduler-refresh"
)

// schedulerVolume is capacity-scheduler.xml alone, from the configuration ConfigMap,
// mounted as a directory so the kubelet replaces the file when the ConfigMap changes.
func schedulerVolume(in Input) corev1.Volume {
	return corev1.Volume{Name: volumeScheduler, VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
		LocalObjectReference: corev1.LocalObjectReference{Name: ConfigMapName(in.Cluster)},
		Items:                []corev1.KeyToPath{{Key: FileCapacityScheduler, Path: FileCapacityScheduler}},
	}}}
}

func schedulerMount() corev1.VolumeMount {
	return corev1.VolumeMount{Name: volumeScheduler, MountPath: SchedulerConfDir, ReadOnly: true}
}

// refreshScript watches capacity-scheduler.xml and, when its content changes, asks
// the ResourceManager to reload its queues, as its admin HadoopUser. The file's
// content when the container starts is what the ResourceManager loaded when it
// started. A refresh YARN refuses (a removed queue that still has applications, a
// queue made smaller than its running share allows) is tried again every minute,
// and its error is in this container's log.
const refreshScript = `set -u
f=` + SchedulerConfDir + `/` + FileCapacityScheduler + `
applied="$(cksum < "$f")"
while sleep 10; do
  now="$(cksum < "$f")"
  [ "$now" = "$applied" ] && continue
  echo "capacity-scheduler.xml changed: refreshing the queues"
  if yarn rmadmin -refreshQueues; then
    applied="$now"
    echo "queues refreshed"
  else
    echo "the ResourceManager refused the new queues; trying again in a minute"
    sleep 50
  fi
done
`

// schedulerRefresher runs refreshScript beside the ResourceManager. It idles in a
// shell; only a change starts a JVM (yarn rmadmin), for a few seconds.
func schedulerRefresher(in Input) corev1.Container {
	memory := resource.MustParse("256Mi")
	return corev1.Container{
		Name:            SchedulerRefresher,
		Image:           in.image(),
		ImagePullPolicy: in.Cluster.Spec.ImagePullPolicy,
		Command:         []string{"/bin/bash", "-c", refreshScript},
		Env: []corev1.EnvVar{
			{Name: EnvLogDir, Value: LogDir},
			{Name: EnvHeapSize, Value: "128m"},
		},
		Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m"), corev1.ResourceMemory: memory},
			Limits:   corev1.ResourceList{corev1.ResourceMemory: memory},
		},
		VolumeMounts:    append(hadoopMounts(), schedulerMount()),
		SecurityContext: restrictedSecurityContext(nil),
	}
}
