//go:build e2e

package e2e

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/podstatus"
)

// Several CephFS file systems on one Rook: each StorageBackend's own, and those kept
// on delete. Rook names an MDS daemon <filesystem>-<letter> and its liveness probe
// restarts one that serves another file system, which Ceph's monitors would hand a
// file system's standby to when another lacks a daemon, unless the file system
// refuses (refuse_standby_for_another_fs, which the operator sets).

// mdsRestarts are the restart counts of Rook's MDS containers, by pod.
func mdsRestarts() map[string]int32 {
	GinkgoHelper()
	pods := &corev1.PodList{}
	Expect(k8sClient.List(ctx, pods, client.InNamespace(rookNamespace), client.MatchingLabels{"app": "rook-ceph-mds"})).To(Succeed())
	out := map[string]int32{}
	for _, p := range pods.Items {
		for _, c := range p.Status.ContainerStatuses {
			out[p.Name+"/"+c.Name] = c.RestartCount
		}
	}
	return out
}

// expectOwnMDSDaemons checks that every rank and standby-replay of every file system
// is held by one of its own daemons, and that Ceph's health has no MDS warning.
func expectOwnMDSDaemons() {
	GinkgoHelper()
	var fsmap struct {
		Filesystems []struct {
			MDSMap struct {
				Name string `json:"fs_name"`
				Info map[string]struct {
					Name  string `json:"name"`
					State string `json:"state"`
				} `json:"info"`
			} `json:"mdsmap"`
		} `json:"filesystems"`
	}
	rookCephJSON(&fsmap, "fs", "dump")
	Expect(fsmap.Filesystems).NotTo(BeEmpty())
	for _, fs := range fsmap.Filesystems {
		for _, m := range fs.MDSMap.Info {
			Expect(m.Name).To(HavePrefix(fs.MDSMap.Name+"-"), "file system %s is served by mds.%s (%s), another file system's daemon", fs.MDSMap.Name, m.Name, m.State)
		}
	}
	var health struct {
		Checks map[string]any `json:"checks"`
	}
	rookCephJSON(&health, "health")
	for check := range health.Checks {
		Expect(strings.HasPrefix(check, "MDS_") || strings.HasPrefix(check, "FS_")).To(BeFalse(), "Ceph's health check %s: %v", check, health.Checks[check])
	}
}

// expectMDSSettled waits until every MDS pod of the local Rook is Ready and none waits
// in CrashLoopBackOff, each file system served by its own daemons and Ceph's health
// without an MDS warning: what the suite leaves behind, kept file systems among it.
func expectMDSSettled() {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		pods := &corev1.PodList{}
		g.Expect(k8sClient.List(ctx, pods, client.InNamespace(rookNamespace), client.MatchingLabels{"app": "rook-ceph-mds"})).To(Succeed())
		g.Expect(pods.Items).NotTo(BeEmpty())
		for i := range pods.Items {
			p := &pods.Items[i]
			for _, c := range p.Status.ContainerStatuses {
				if w := c.State.Waiting; w != nil {
					g.Expect(w.Reason).NotTo(Equal("CrashLoopBackOff"), "%s/%s: %s", p.Name, c.Name, w.Message)
				}
			}
			g.Expect(podstatus.Ready(p)).To(BeTrue(), "MDS pod %s is Ready", p.Name)
		}
		g.Expect(InterceptGomegaFailure(expectOwnMDSDaemons)).To(Succeed())
	}).WithTimeout(3 * time.Minute).WithPolling(5 * time.Second).Should(Succeed())
}

// expectMetadataServersHealthy checks that each backend reports its file system's MDS
// pods Ready, with the pods it names among Rook's.
func expectMetadataServersHealthy(backends ...string) {
	GinkgoHelper()
	for _, name := range backends {
		Eventually(func(g Gomega) {
			sb := &v1alpha1.StorageBackend{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, sb)).To(Succeed())
			c := meta.FindStatusCondition(sb.Status.Conditions, v1alpha1.ConditionMetadataServersHealthy)
			g.Expect(c).NotTo(BeNil(), "%+v", sb.Status.Conditions)
			g.Expect(c.Status).To(Equal(metav1.ConditionTrue), "%s: %s", c.Reason, c.Message)
			g.Expect(c.Message).To(ContainSubstring("rook-ceph-mds-" + sb.Spec.CephFS.Rook.FilesystemName + "-a"))
		}).WithTimeout(time.Minute).Should(Succeed(), "StorageBackend %s", name)
	}
}
