package hadoop

import (
	"maps"
	"strconv"
	"strings"
	"time"

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
// With OPENED_BEFORE (seconds since the epoch) it evicts only the sessions opened
// before then, by id. That is how a lost node's pod is fenced: the kubelet restarts
// the pod's containers under the same UID once the node is back, and an eviction that
// comes late (a rank whose MDS was on the lost node is taken over only after the
// MDS's reconnect timeout) must not take the sessions those containers opened since.
// A session's age is the MDS's uptime of it, so the cut relies on the clocks of the
// MDS's node and the Job's agreeing within the time the node was away, as NTP keeps
// them; a session the MDS reports no age for is evicted.
//
// A rank's MDS may have been on the lost node too: ceph tell then waits for a daemon
// that is gone, with no timeout of its own (--connect-timeout bounds the monitors'
// answer only). Each tell gets evictTellTimeout, and a rank that does not answer is
// asked again, resolved anew, until its standby has taken over.
const evictScript = `set -eu
ceph=(ceph --conf /etc/ceph/ceph.conf --id "$EVICTOR_ID" --keyring /etc/ceph/keyring --connect-timeout 30)
tell() {
  local rank="$1" try=1
  shift
  until timeout ` + evictTellTimeout + ` "${ceph[@]}" tell "mds.$CEPH_FS:$rank" "$@"; do
    if [ "$try" -ge ` + evictTellTries + ` ]; then
      echo "mds.$CEPH_FS:$rank did not answer ` + evictTellTries + ` times" >&2
      return 1
    fi
    echo "mds.$CEPH_FS:$rank did not answer within ` + evictTellTimeout + ` (try $try); asking again" >&2
    try=$((try + 1))
    sleep 5
  done
}
ranks="$("${ceph[@]}" fs get "$CEPH_FS" --format json | python3 -c 'import json, sys; print(" ".join(str(r) for r in json.load(sys.stdin)["mdsmap"]["in"]))')"
for rank in $ranks; do
  if [ -z "${OPENED_BEFORE:-}" ]; then
    echo "evicting the sessions of pod $POD_NAMESPACE/$POD_NAME (uid $POD_UID) on mds.$CEPH_FS:$rank"
    tell "$rank" client evict "client_metadata.` + PodUIDMetadata + `=$POD_UID"
    continue
  fi
  echo "evicting the sessions of pod $POD_NAMESPACE/$POD_NAME (uid $POD_UID) opened before $(date -u -d "@$OPENED_BEFORE" +%Y-%m-%dT%H:%M:%SZ) on mds.$CEPH_FS:$rank"
  sessions="$(tell "$rank" client ls --format json)"
  ids="$(python3 -c '` + selectSessions + `' <<<"$sessions")"
  for id in $ids; do
    tell "$rank" client evict "id=$id"
  done
done
`

// selectSessions, quoted in single quotes in evictScript, reads an MDS's session list
// (client ls) on its standard input and prints the ids of the sessions tagged with POD_UID that were opened before
// OPENED_BEFORE, saying on its standard error what it evicts and what it keeps.
const selectSessions = `import json, os, sys, time
uid, before, now = os.environ["POD_UID"], float(os.environ["OPENED_BEFORE"]), time.time()
for s in json.load(sys.stdin):
    if (s.get("client_metadata") or {}).get("` + PodUIDMetadata + `") != uid:
        continue
    if s.get("uptime") is None:
        print("session %d: the MDS reports no age; evicting" % s["id"], file=sys.stderr)
        print(s["id"])
        continue
    opened = now - float(s["uptime"])
    at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(opened))
    if opened < before:
        print("session %d opened at %s: evicting" % (s["id"], at), file=sys.stderr)
        print(s["id"])
    else:
        print("session %d opened at %s, since the node was lost: kept" % (s["id"], at), file=sys.stderr)
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
// if Rook has one (and the device its NetworkAttachmentDefinition may name; none of
// the NodeManagers' data networks, whose devices are YARN's), with the cluster's
// placement.
//
// fencedAt is nil for a pod that is gone: every session tagged with its UID goes. For a
// pod whose node was lost it is when the operator fenced it: only the sessions opened
// before then go, and the Job is named after FenceSessionsJobName.
func EvictSessionsJob(in Input, podName string, uid types.UID, fencedAt *time.Time) *batchv1.Job {
	hc := in.Cluster
	labels := Labels(hc, EvictSessions)
	net := hc.Spec.Network
	name := EvictSessionsJobName(hc, uid)
	env := []corev1.EnvVar{
		{Name: "EVICTOR_ID", Value: in.Storage.EvictionClientID},
		{Name: "CEPH_FS", Value: in.Storage.Filesystem},
		{Name: "POD_NAMESPACE", Value: hc.Namespace},
		{Name: "POD_NAME", Value: podName},
		{Name: "POD_UID", Value: string(uid)},
		// The ceph command's client writes nothing but its admin socket, which it may
		// do without.
		{Name: "HOME", Value: TmpDir},
	}
	jobAnnotations := map[string]string{EvictedPodAnnotation: podName, EvictedPodUIDAnnotation: string(uid)}
	if fencedAt != nil {
		name = FenceSessionsJobName(hc, uid)
		env = append(env,
			corev1.EnvVar{Name: "OPENED_BEFORE", Value: strconv.FormatInt(fencedAt.Unix(), 10)})
		jobAnnotations[FencedAtAnnotation] = fencedAt.UTC().Format(time.RFC3339)
	}
	pod := corev1.PodSpec{
		RestartPolicy:                corev1.RestartPolicyNever,
		AutomountServiceAccountToken: ptr.To(false),
		EnableServiceLinks:           ptr.To(false),
		ImagePullSecrets:             pullSecrets(hc.Spec.ImagePullSecrets),
		SecurityContext:              jobPodSecurityContext(),
		NodeSelector:                 nodeSelector(hc.Spec.Placement.NodeSelector.Strings(), nil),
		Tolerations:                  v1alpha1.Tolerations(hc.Spec.Placement.Tolerations),
		Containers: []corev1.Container{{
			Name:            string(EvictSessions),
			Image:           in.image(),
			ImagePullPolicy: hc.Spec.ImagePullPolicy,
			Command:         []string{"/bin/bash", "-c", evictScript},
			Env:             env,
			Resources: withExtendedResources(corev1.ResourceRequirements{
				Requests: corev1.ResourceList{
					// One short command: a small request, so that it is scheduled beside
					// busy pods at once.
					corev1.ResourceCPU:    resource.MustParse("10m"),
					corev1.ResourceMemory: resource.MustParse("128Mi"),
				},
				Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("256Mi")},
			}, attachmentDevices(in, cephClient)),
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
	} else if networks := MultusNetworks(attachmentsFor(in, cephClient)); networks != "" {
		annotations[NetworksAnnotation] = networks
	}
	return &batchv1.Job{
		TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Namespace:   hc.Namespace,
			Labels:      labels,
			Annotations: jobAnnotations,
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
// whose sessions it evicts; FencedAtAnnotation, on a fencing Job, the time before
// which the sessions it evicts were opened.
const (
	EvictedPodAnnotation    = "hadoopceph.io/evicted-pod"
	EvictedPodUIDAnnotation = "hadoopceph.io/evicted-pod-uid"
	FencedAtAnnotation      = "hadoopceph.io/fenced-at"
)
