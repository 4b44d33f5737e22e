package rook

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/podstatus"
)

// MetadataServerLabels select the MDS pods Rook runs for file system fs.
func MetadataServerLabels(fs string) map[string]string {
	return map[string]string{mdsAppLabel: mdsAppName, mdsFilesystemLabel: fs}
}

// MetadataServerAppLabels select every MDS pod Rook runs, of any file system.
func MetadataServerAppLabels() map[string]string {
	return map[string]string{mdsAppLabel: mdsAppName}
}

// MetadataServerFilesystem is the file system an MDS pod of Rook serves, from its
// labels, or "" for another pod.
func MetadataServerFilesystem(labels map[string]string) string {
	if labels[mdsAppLabel] != mdsAppName {
		return ""
	}
	return labels[mdsFilesystemLabel]
}

// Health is a condition's status, reason and message.
type Health struct {
	Status  metav1.ConditionStatus
	Reason  string
	Message string
}

// MetadataServerHealth says how the MDS pods of file system fs are, from the pods
// themselves: Ceph's own view (which daemon holds which rank) needs a cephx identity
// allowed to read the MDS map, and a crash-looping daemon is what a user sees first
// and must act on. A pod being deleted is left out: it is on its way.
//
// Unhealthy, in the order a user should look: a container waiting in
// CrashLoopBackOff, which is how Rook's liveness probe restarting an MDS that serves
// another file system shows (docs/storage.md); then a pod not Ready; then no pod at
// all. Healthy names the restarts of the ready pods' containers, since a daemon that
// restarts every few minutes is Ready most of the time.
func MetadataServerHealth(fs, namespace string, pods []corev1.Pod) Health {
	var names, notReady, crashing []string
	var restarts int32
	for i := range pods {
		p := &pods[i]
		if !p.DeletionTimestamp.IsZero() || MetadataServerFilesystem(p.Labels) != fs {
			continue
		}
		names = append(names, p.Name)
		for _, c := range p.Status.ContainerStatuses {
			restarts += c.RestartCount
			if w := c.State.Waiting; w != nil && w.Reason == "CrashLoopBackOff" {
				crashing = append(crashing, fmt.Sprintf("%s (container %s, %d restarts%s)", p.Name, c.Name, c.RestartCount, lastExit(c)))
			}
		}
		if !podstatus.Ready(p) {
			notReady = append(notReady, p.Name)
		}
	}
	slices.Sort(names)
	slices.Sort(notReady)
	slices.Sort(crashing)
	switch {
	case len(crashing) > 0:
		return Health{metav1.ConditionFalse, v1alpha1.ReasonMetadataServerCrashLooping, fmt.Sprintf(
			"MDS pods of file system %s wait in CrashLoopBackOff: %s; a daemon Rook restarts in a loop often served another file system (see docs/storage.md, several file systems on one Ceph)",
			fs, strings.Join(crashing, ", "))}
	case len(notReady) > 0:
		return Health{metav1.ConditionFalse, v1alpha1.ReasonMetadataServersNotReady, fmt.Sprintf(
			"MDS pods of file system %s not Ready: %s (of %s)", fs, strings.Join(notReady, ", "), strings.Join(names, ", "))}
	case len(names) == 0:
		return Health{metav1.ConditionFalse, v1alpha1.ReasonNoMetadataServers, fmt.Sprintf(
			"Rook runs no MDS pod for file system %s in namespace %s (label %s=%s)", fs, namespace, mdsFilesystemLabel, fs)}
	}
	msg := fmt.Sprintf("%d MDS pods of file system %s are Ready: %s", len(names), fs, strings.Join(names, ", "))
	if len(names) == 1 {
		msg = fmt.Sprintf("the one MDS pod of file system %s is Ready: %s", fs, names[0])
	}
	if restarts > 0 {
		msg += fmt.Sprintf("; their containers restarted %d times since the pods started", restarts)
	}
	return Health{metav1.ConditionTrue, v1alpha1.ReasonMetadataServersReady, msg}
}

// lastExit describes how a container last ended, if the kubelet still says.
func lastExit(c corev1.ContainerStatus) string {
	t := c.LastTerminationState.Terminated
	if t == nil {
		return ""
	}
	if t.Reason == "" {
		return fmt.Sprintf(", last exit code %d", t.ExitCode)
	}
	return fmt.Sprintf(", last exit code %d: %s", t.ExitCode, t.Reason)
}
