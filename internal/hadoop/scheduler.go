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

// schedulerVolume is capacity-scheduler.xml and the exclude file, from the
// configuration ConfigMap, mounted as a directory so the kubelet replaces the files
// when the ConfigMap changes.
func schedulerVolume(in Input) corev1.Volume {
	return corev1.Volume{Name: volumeScheduler, VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
		LocalObjectReference: corev1.LocalObjectReference{Name: ConfigMapName(in.Cluster)},
		Items: []corev1.KeyToPath{
			{Key: FileCapacityScheduler, Path: FileCapacityScheduler},
			{Key: FileNodesExclude, Path: FileNodesExclude},
		},
	}}}
}

func schedulerMount() corev1.VolumeMount {
	return corev1.VolumeMount{Name: volumeScheduler, MountPath: SchedulerConfDir, ReadOnly: true}
}

// refreshScript watches capacity-scheduler.xml and the exclude file and, when one's
// content changes, asks the ResourceManager to read it again, as its admin
// HadoopUser: the queues with -refreshQueues, the exclude list with a graceful
// -refreshNodes that the ResourceManager itself tracks (-server), so a timeout runs
// out even when nobody is watching. It looks every 2 s, a checksum of two small files,
// since a decommission waits for it. A file's content when the container starts is
// what the ResourceManager loaded when it started. A refresh YARN refuses (a removed
// queue that still has applications, a queue made smaller than its running share
// allows) is tried again every minute, and its error is in this container's log.
//
// The shell is the container's first process, which ignores SIGTERM unless it traps
// it: without the trap every deletion of the ResourceManager's pod (a rolling update
// replaces it last) waited out the pod's 30-second grace period for this container.
// Its sleeps run in the background so that the trap runs at once.
const refreshScript = `set -u
trap 'exit 0' TERM INT
pause() { sleep "$1" & wait $!; }
dir=` + SchedulerConfDir + `
queues="$(cksum < "$dir/` + FileCapacityScheduler + `")"
nodes="$(cksum < "$dir/` + FileNodesExclude + `")"
while pause 2; do
  refused=0
  now="$(cksum < "$dir/` + FileNodesExclude + `")"
  if [ "$now" != "$nodes" ]; then
    echo "` + FileNodesExclude + ` changed: refreshing the nodes, gracefully"
    if yarn rmadmin -refreshNodes -g -server; then
      nodes="$now"
      echo "nodes refreshed"
    else
      refused=1
    fi
  fi
  now="$(cksum < "$dir/` + FileCapacityScheduler + `")"
  if [ "$now" != "$queues" ]; then
    echo "` + FileCapacityScheduler + ` changed: refreshing the queues"
    if yarn rmadmin -refreshQueues; then
      queues="$now"
      echo "queues refreshed"
    else
      refused=1
    fi
  fi
  if [ "$refused" = 1 ]; then
    echo "the ResourceManager refused a refresh; trying again in a minute"
    pause 58
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
		VolumeMounts:    append(hadoopMounts(in, ResourceManager), schedulerMount()),
		SecurityContext: restrictedSecurityContext(nil),
	}
}
