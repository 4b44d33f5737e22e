//go:build e2e

package e2e

import (
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// The release hack/local/install-operator.sh installs.
const (
	operatorRelease   = "hadoop-ceph-operator"
	operatorNamespace = "hadoop-ceph-operator"
)

// multusCRD is the CRD of Multus's NetworkAttachmentDefinitions. The local cluster
// runs Multus; BeforeSuite removes the CRD, so that the operator starts without the
// API, and one spec installs it again while the operator runs.
const multusCRD = "network-attachment-definitions.k8s.cni.cncf.io"

// multusCRDFile is the CRD of the Multus release the local cluster runs, kept by
// hack/tools/multus.sh, which prints its directory (at once, once built).
func multusCRDFile() string {
	GinkgoHelper()
	out := strings.TrimSpace(mustRun(command("hack/tools/multus.sh")))
	dir := out[strings.LastIndex(out, "\n")+1:]
	return filepath.Join(dir, "crds", "k8s.cni.cncf.io_network-attachment-definitions.yaml")
}

func operatorSpecs() {
	It("becomes Ready", func() {
		mustRun(command("hack/local/install-operator.sh"))
		Eventually(func(g Gomega) {
			deployments := &appsv1.DeploymentList{}
			g.Expect(k8sClient.List(ctx, deployments, client.InNamespace(operatorNamespace),
				client.MatchingLabels{"app.kubernetes.io/instance": operatorRelease})).To(Succeed())
			g.Expect(deployments.Items).To(HaveLen(1))
			d := deployments.Items[0]
			g.Expect(d.Status.ObservedGeneration).To(Equal(d.Generation))
			g.Expect(d.Status.UpdatedReplicas).To(Equal(*d.Spec.Replicas))
			g.Expect(d.Status.AvailableReplicas).To(Equal(*d.Spec.Replicas))
			g.Expect(d.Status.Replicas).To(Equal(*d.Spec.Replicas), "no pod of an older revision is left")
		}).WithTimeout(3 * time.Minute).Should(Succeed())
	})
	// The local cluster has no Rook: the operator must run for external Ceph clusters
	// alone, and tell a user who asks for Rook what is missing.
	It("runs without Rook, and reports a Rook-mode StorageBackend as RookNotInstalled", func() {
		sb := &v1alpha1.StorageBackend{
			ObjectMeta: metav1.ObjectMeta{Name: "rook-less", Namespace: namespace},
			Spec: v1alpha1.StorageBackendSpec{CephFS: v1alpha1.CephFSSpec{Rook: &v1alpha1.RookCephFS{
				FilesystemName: "hadoopfs",
			}}},
		}
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(sb), sb)).To(Succeed())
			fs := meta.FindStatusCondition(sb.Status.Conditions, v1alpha1.ConditionFilesystemReady)
			g.Expect(fs).NotTo(BeNil())
			g.Expect(fs.Reason).To(Equal(v1alpha1.ReasonRookNotInstalled))
			g.Expect(fs.Message).To(ContainSubstring("install Rook"))
			g.Expect(meta.IsStatusConditionFalse(sb.Status.Conditions, v1alpha1.ConditionReady)).To(BeTrue())
		}).WithTimeout(time.Minute).Should(Succeed())
		Expect(k8sClient.Delete(ctx, sb)).To(Succeed())
		Eventually(func() error {
			return k8sClient.Get(ctx, client.ObjectKeyFromObject(sb), &v1alpha1.StorageBackend{})
		}).WithTimeout(time.Minute).Should(Satisfy(apierrors.IsNotFound), "deletion does not wait for Rook objects that cannot exist")
	})
	// Multus installed while the operator runs: it restarts itself to watch
	// NetworkAttachmentDefinitions, and the restart is a clean exit, not a crash.
	It("restarts itself, exiting cleanly, once Multus is installed after it", func() {
		before := operatorContainer(Default).RestartCount
		Expect(k8sClient.Get(ctx, client.ObjectKey{Name: multusCRD}, &apiextensionsv1.CustomResourceDefinition{})).
			To(Satisfy(apierrors.IsNotFound), "the operator must have started without Multus (BeforeSuite removes a CRD left by an interrupted run)")
		// The Multus release's own CRD, which the local cluster installed with Multus
		// and BeforeSuite removed; the later specs have it, as the cluster does.
		mustRun(kubectl("apply", "--server-side", "-f", multusCRDFile()))
		expectOperatorRestartedCleanly(before)
	})
}

// expectOperatorRestartedCleanly waits until the operator's container, which had
// restarted before times, has restarted once more after exiting with 0, and is Ready.
func expectOperatorRestartedCleanly(before int32) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		c := operatorContainer(g)
		g.Expect(c.RestartCount).To(Equal(before + 1))
		g.Expect(c.LastTerminationState.Terminated).NotTo(BeNil())
		g.Expect(c.LastTerminationState.Terminated.ExitCode).To(BeZero())
		g.Expect(c.Ready).To(BeTrue())
	}).WithTimeout(2 * time.Minute).Should(Succeed())
}

// operatorContainer is the status of the manager container of the operator's one pod.
func operatorContainer(g Gomega) corev1.ContainerStatus {
	pods := operatorPods(g)
	g.Expect(pods).To(HaveLen(1))
	g.Expect(pods[0].Status.ContainerStatuses).To(HaveLen(1))
	return pods[0].Status.ContainerStatuses[0]
}

// operatorPods are the operator's pods that are not terminating: a pod of the
// release's previous revision may take a while to go.
func operatorPods(g Gomega) []corev1.Pod {
	pods := &corev1.PodList{}
	g.Expect(k8sClient.List(ctx, pods, client.InNamespace(operatorNamespace),
		client.MatchingLabels{"app.kubernetes.io/instance": operatorRelease})).To(Succeed())
	return slices.DeleteFunc(pods.Items, func(p corev1.Pod) bool { return p.DeletionTimestamp != nil })
}
