package rook

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// mdsPod is an MDS pod of file system fs as Rook labels it, Ready or not, with one
// container "mds" in state and restarted restarts times.
func mdsPod(fs, name string, ready bool, restarts int32, state corev1.ContainerState) corev1.Pod {
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	return corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "rook-ceph-mds", "rook_file_system": fs, "mds": name}},
		Status: corev1.PodStatus{
			Conditions:        []corev1.PodCondition{{Type: corev1.PodReady, Status: status}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "mds", Ready: ready, RestartCount: restarts, State: state}},
		},
	}
}

var (
	running      = corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}
	crashLooping = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: "back-off 5m0s restarting failed container"}}
)

func TestMetadataServerHealth(t *testing.T) {
	deleted := mdsPod("hadoopfs", "rook-ceph-mds-hadoopfs-c", false, 0, running)
	deleted.DeletionTimestamp = &metav1.Time{Time: time.Unix(1, 0)}
	looped := mdsPod("hadoopfs", "rook-ceph-mds-hadoopfs-b", false, 7, crashLooping)
	looped.Status.ContainerStatuses[0].LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "Error"}

	for _, tc := range []struct {
		name string
		pods []corev1.Pod
		want Health
	}{{
		name: "both daemons Ready",
		pods: []corev1.Pod{
			mdsPod("hadoopfs", "rook-ceph-mds-hadoopfs-b", true, 0, running),
			mdsPod("hadoopfs", "rook-ceph-mds-hadoopfs-a", true, 0, running),
		},
		want: Health{metav1.ConditionTrue, v1alpha1.ReasonMetadataServersReady,
			"2 MDS pods of file system hadoopfs are Ready: rook-ceph-mds-hadoopfs-a, rook-ceph-mds-hadoopfs-b"},
	}, {
		name: "Ready after restarts, which the message counts",
		pods: []corev1.Pod{
			mdsPod("hadoopfs", "rook-ceph-mds-hadoopfs-a", true, 3, running),
			mdsPod("hadoopfs", "rook-ceph-mds-hadoopfs-b", true, 4, running),
		},
		want: Health{metav1.ConditionTrue, v1alpha1.ReasonMetadataServersReady,
			"2 MDS pods of file system hadoopfs are Ready: rook-ceph-mds-hadoopfs-a, rook-ceph-mds-hadoopfs-b; their containers restarted 7 times since the pods started"},
	}, {
		name: "another file system's daemons and pods being deleted do not count",
		pods: []corev1.Pod{
			mdsPod("hadoopfs", "rook-ceph-mds-hadoopfs-a", true, 0, running),
			mdsPod("other", "rook-ceph-mds-other-a", false, 9, crashLooping),
			deleted,
		},
		want: Health{metav1.ConditionTrue, v1alpha1.ReasonMetadataServersReady,
			"the one MDS pod of file system hadoopfs is Ready: rook-ceph-mds-hadoopfs-a"},
	}, {
		name: "a crash-looping daemon is named with its restarts and last exit, before any pod not Ready",
		pods: []corev1.Pod{
			mdsPod("hadoopfs", "rook-ceph-mds-hadoopfs-a", false, 0, running),
			looped,
		},
		want: Health{metav1.ConditionFalse, v1alpha1.ReasonMetadataServerCrashLooping,
			"MDS pods of file system hadoopfs wait in CrashLoopBackOff: rook-ceph-mds-hadoopfs-b (container mds, 7 restarts, last exit code 137: Error); a daemon Rook restarts in a loop often served another file system (see docs/storage.md, several file systems on one Ceph)"},
	}, {
		name: "a daemon not Ready",
		pods: []corev1.Pod{
			mdsPod("hadoopfs", "rook-ceph-mds-hadoopfs-a", true, 0, running),
			mdsPod("hadoopfs", "rook-ceph-mds-hadoopfs-b", false, 0, corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "PodInitializing"}}),
		},
		want: Health{metav1.ConditionFalse, v1alpha1.ReasonMetadataServersNotReady,
			"MDS pods of file system hadoopfs not Ready: rook-ceph-mds-hadoopfs-b (of rook-ceph-mds-hadoopfs-a, rook-ceph-mds-hadoopfs-b)"},
	}, {
		name: "no daemon at all",
		pods: []corev1.Pod{mdsPod("other", "rook-ceph-mds-other-a", true, 0, running)},
		want: Health{metav1.ConditionFalse, v1alpha1.ReasonNoMetadataServers,
			"Rook runs no MDS pod for file system hadoopfs in namespace rook-ceph (label rook_file_system=hadoopfs)"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, MetadataServerHealth("hadoopfs", "rook-ceph", tc.pods)); diff != "" {
				t.Errorf("health (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMetadataServerFilesystem(t *testing.T) {
	for _, tc := range []struct {
		labels map[string]string
		want   string
	}{
		{map[string]string{"app": "rook-ceph-mds", "rook_file_system": "hadoopfs"}, "hadoopfs"},
		{map[string]string{"app": "rook-ceph-osd", "rook_file_system": "hadoopfs"}, ""},
		{map[string]string{"rook_file_system": "hadoopfs"}, ""},
	} {
		if got := MetadataServerFilesystem(tc.labels); got != tc.want {
			t.Errorf("MetadataServerFilesystem(%v) = %q, want %q", tc.labels, got, tc.want)
		}
	}
}
