package hadoop

import (
	"maps"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
)

// EvictSessions labels the Jobs that evict a dead pod's CephFS sessions.
const EvictSessions Component = "evict-sessions"

// PodUIDMetadata is the client_metadata key under which the connector tags each MDS
// session with its pod's UID (CephClientMetadata in the connector).
const PodUIDMetadata = "pod_uid"

// EvictSessionsJobName is the Job that evicts the sessions of the pod with uid once
// the pod is gone: one per pod, so a retried pass finds the Job it made.
func EvictSessionsJobName(hc *v1alpha1.HadoopCluster, uid types.UID) string {
	return sessionsJobName(hc, "-evict-", uid)
}

// FenceSessionsJobName is the Job that evicts the sessions of the pod with uid when
// its node is lost. It differs from EvictSessionsJobName's: a pod whose node comes
// back runs again under the same UID, and the sessions it opens then are evicted when
// it goes, while the fencing Job may still be kept (TTLSecondsAfterFinished).
func FenceSessionsJobName(hc *v1alpha1.HadoopCluster, uid types.UID) string {
	return sessionsJobName(hc, "-fence-", uid)
}

func sessionsJobName(hc *v1alpha1.HadoopCluster, infix string, uid types.UID) string {
	id := strings.ReplaceAll(string(uid), "-", "")
	if len(id) > 12 {
		id = id[:12]
	}
	return naming.ShortName(hc.Name, 63-len(infix)-len(id)) + infix + id
}

// evictScript evicts, on every active MDS rank of the file system, the sessions
// tagged with the pod's UID. Evicting on each rank matters when the dead pod held
// sessions on a rank other than 0. An eviction that matches no session (the pod
// unmounted cleanly) succeeds and changes nothing. The MDS blocklists an evicted
// client, so a process of the pod that still runs on a lost node can no longer write.
//
// A rank's MDS may have been on the lost node too: ceph tell then waits for a daemon
// that is gone, with no timeout of its own (--connect-timeout bounds the monitors'
// answer only). Each tell gets evictTellTimeout, and a rank that does not answer is
// asked again, resolved anew, until its standby has taken over.
const evictScript = `set -eu
ceph=(ceph --conf /etc/ceph/ceph.conf --id "$EVICTOR_ID" --keyring /etc/ceph/keyring --connect-timeout 30)
ranks="$("${ceph[@]}" fs get "$CEPH_FS" --format json | python3 -c 'import json, sys; print(" ".join(str(r) for r in json.load(sys.stdin)["mdsmap"]["in"]))')"
for rank in $ranks; do
  echo "evicting the sessions of pod $POD_NAMESPACE/$POD_NAME (uid $POD_UID) on mds.$CEPH_FS:$rank"
  try=1
  until timeout ` + evictTellTimeout + ` "${ceph[@]}" tell "mds.$CEPH_FS:$rank" client evict "client_metadata.` + PodUIDMetadata + `=$POD_UID"; do
    if [ "$try" -ge ` + evictTellTries + ` ]; then
      echo "mds.$CEPH_FS:$rank did not answer ` + evictTellTries + ` times" >&2
      exit 1
    fi
    echo "mds.$CEPH_FS:$rank did not answer within ` + evictTellTimeout + ` (try $try); asking again"
    try=$((try + 1))
    sleep 5
  done
done
`

// evictTellTimeout and evictTellTries bound the wait for one rank: an MDS's standby
// takes a rank over within the beacon grace (15 s) and a replay, well inside one try;
// the Job's own retries (BackoffLimit) come after these.
const (
	evictTellTimeout = "60s"
	evictTellTries   = "5"
)

// EvictSessionsJob evicts the CephFS sessions that the pod named podName, with uid,
// may have left open, with the evictor's key alone (storage.EvictionSecret). It runs
// the cluster's image, which carries Ceph's command line, where the ResourceManager
// reaches Ceph from: the host network, or the pod network with Rook's public network
// if Rook has one (none of the NodeManagers' data networks, whose devices are YARN's),
// with the cluster's placement. nodeLost names it after FenceSessionsJobName.
func EvictSessionsJob(in Input, podName string, uid types.UID, nodeLost bool) *batchv1.Job {
	hc := in.Cluster
	labels := Labels(hc, EvictSessions)
	net := hc.Spec.Network
	name := EvictSessionsJobName(hc, uid)
	if nodeLost {
		name = FenceSessionsJobName(hc, uid)
	}
	pod := corev1.PodSpec{
		RestartPolicy:                corev1.RestartPolicyNever,
		AutomountServiceAccountToken: ptr.To(false),
		EnableServiceLinks:           ptr.To(false),
		ImagePullSecrets:             pullSecrets(hc.Spec.ImagePullSecrets),
		SecurityContext: &corev1.PodSecurityContext{
			RunAsNonRoot:   ptr.To(true),
			RunAsUser:      ptr.To(HadoopUID),
			RunAsGroup:     ptr.To(HadoopGID),
			FSGroup:        ptr.To(HadoopGID),
			SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
		},
		NodeSelector: nodeSelector(hc.Spec.Placement.NodeSelector.Strings(), nil),
		Tolerations:  v1alpha1.Tolerations(hc.Spec.Placement.Tolerations),
		Containers: []corev1.Container{{
			Name:            string(EvictSessions),
			Image:           in.image(),
			ImagePullPolicy: hc.Spec.ImagePullPolicy,
			Command:         []string{"/bin/bash", "-c", evictScript},
			Env: []corev1.EnvVar{
				{Name: "EVICTOR_ID", Value: in.Storage.EvictionClientID},
				{Name: "CEPH_FS", Value: in.Storage.Filesystem},
				{Name: "POD_NAMESPACE", Value: hc.Namespace},
				{Name: "POD_NAME", Value: podName},
				{Name: "POD_UID", Value: string(uid)},
				// The ceph command's client writes nothing but its admin socket, which
				// it may do without.
				{Name: "HOME", Value: TmpDir},
			},
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{
					// One short command: a small request, so that it is scheduled beside
					// busy pods at once.
					corev1.ResourceCPU:    resource.MustParse("10m"),
					corev1.ResourceMemory: resource.MustParse("128Mi"),
				},
				Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("256Mi")},
			},
			VolumeMounts: []corev1.VolumeMount{
				{Name: volumeCephClient, MountPath: CephConfDir, ReadOnly: true},
				{Name: volumeTmp, MountPath: TmpDir},
			},
			SecurityContext: restrictedSecurityContext(nil),
		}},
		Volumes: []corev1.Volume{
			cephClientVolume(in.Storage.EvictionSecret, 0o440),
			{Name: volumeTmp, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
		},
	}
	annotations := map[string]string{}
	if net.HostNetwork {
		pod.HostNetwork = true
		pod.DNSPolicy = corev1.DNSClusterFirstWithHostNet
	} else if networks := MultusNetworks(attachmentsFor(in, ResourceManager)); networks != "" {
		annotations[NetworksAnnotation] = networks
	}
	return &batchv1.Job{
		TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Namespace:   hc.Namespace,
			Labels:      labels,
			Annotations: map[string]string{EvictedPodAnnotation: podName, EvictedPodUIDAnnotation: string(uid)},
		},
		Spec: batchv1.JobSpec{
			BackoffLimit: ptr.To[int32](3),
			// Long enough to read its log after a failure; the cluster's deletion
			// removes it anyway.
			TTLSecondsAfterFinished: ptr.To[int32](3600),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: maps.Clone(labels), Annotations: annotations},
				Spec:       pod,
			},
		},
	}
}

// EvictedPodAnnotation and EvictedPodUIDAnnotation name, on an eviction Job, the pod
// whose sessions it evicts.
const (
	EvictedPodAnnotation    = "hadoopceph.io/evicted-pod"
	EvictedPodUIDAnnotation = "hadoopceph.io/evicted-pod-uid"
)
