package controllers

import (
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

var _ = Describe("StorageBackend at rest", Label("envtest"), func() {
	var ns, rookNs string
	var sb *v1alpha1.StorageBackend
	var fs *cephv1.CephFilesystem

	BeforeEach(func() {
		ns = createNamespace("hadoop")
		rookNs = rookCluster()
		sb = newRookBackend(ns, "quiet", rookNs)
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		playRook(sb, rookNs)
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
		fs = &cephv1.CephFilesystem{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: "hadoopfs"}}
	})

	// updateSpec changes sb's spec the way a user would, retrying on conflicts.
	updateSpec := func(change func(*v1alpha1.StorageBackendSpec)) {
		Eventually(func(g Gomega) {
			current := fresh(sb)(g)
			change(&current.Spec)
			g.Expect(k8sClient.Update(ctx, current)).To(Succeed())
		}).Should(Succeed())
	}

	activeMDS := func(g Gomega) int32 {
		g.Expect(get(fs)()).To(Succeed())
		return fs.Spec.MetadataServer.ActiveCount
	}

	It("writes nothing once ready", func() {
		watched := []client.Object{
			&v1alpha1.StorageBackend{ObjectMeta: sb.ObjectMeta},
			fs,
			&cephv1.CephFilesystemSubVolumeGroup{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: "hadoopfs-hadoop"}},
			&cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: rook.ClientName(sb)}},
			&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "quiet-ceph-client"}},
		}
		versions := func(g Gomega) []string {
			var out []string
			for _, obj := range watched {
				g.Expect(get(obj)()).To(Succeed())
				out = append(out, obj.GetResourceVersion())
			}
			return out
		}
		// Let the passes triggered by the last changes finish first.
		var last []string
		Eventually(func(g Gomega) bool {
			current := versions(g)
			settled := slices.Equal(current, last)
			last = current
			return settled
		}).WithPolling(time.Second).Should(BeTrue())
		Consistently(versions, 3*time.Second, 200*time.Millisecond).Should(Equal(last))
	})

	It("changes nothing while paused and says so", func() {
		updateSpec(func(s *v1alpha1.StorageBackendSpec) {
			s.Paused = true
			s.CephFS.Rook.MetadataServer.ActiveCount = 2
		})
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Paused"))
		Consistently(activeMDS, time.Second).Should(BeEquivalentTo(1))

		updateSpec(func(s *v1alpha1.StorageBackendSpec) { s.Paused = false })
		Eventually(activeMDS).Should(BeEquivalentTo(2))
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
	})

	It("leaves a Rook object labelled do-not-reconcile alone", func() {
		Eventually(func(g Gomega) {
			g.Expect(get(fs)()).To(Succeed())
			fs.Labels[naming.LabelDoNotReconcile] = "true"
			g.Expect(k8sClient.Update(ctx, fs)).To(Succeed())
		}).Should(Succeed())
		updateSpec(func(s *v1alpha1.StorageBackendSpec) { s.CephFS.Rook.MetadataServer.ActiveCount = 3 })
		Eventually(func(g Gomega) int64 { return fresh(sb)(g).Status.ObservedGeneration }).Should(Equal(fresh(sb)(Default).Generation))
		Consistently(activeMDS, time.Second).Should(BeEquivalentTo(1))
		Expect(condition(sb, v1alpha1.ConditionReady)(Default)).To(Equal("True/Reconciled"))
	})

	It("reports a failed write on the phase's condition, keeps the last good status and retries", func() {
		good := fresh(sb)(Default).Status

		By("making the API server refuse changes to the CephFilesystem's MDS count")
		policy := &admissionregistrationv1.ValidatingAdmissionPolicy{
			ObjectMeta: metav1.ObjectMeta{Name: "freeze-" + rookNs},
			Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
				FailurePolicy: ptr.To(admissionregistrationv1.Fail),
				MatchConstraints: &admissionregistrationv1.MatchResources{ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{
					RuleWithOperations: admissionregistrationv1.RuleWithOperations{
						Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Update},
						Rule: admissionregistrationv1.Rule{
							APIGroups: []string{"ceph.rook.io"}, APIVersions: []string{"v1"}, Resources: []string{"cephfilesystems"},
						},
					},
				}}},
				Validations: []admissionregistrationv1.Validation{{
					Expression: "object.spec.metadataServer.activeCount == oldObject.spec.metadataServer.activeCount",
					Message:    "the MDS count is frozen",
				}},
			},
		}
		binding := &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
			ObjectMeta: metav1.ObjectMeta{Name: policy.Name},
			Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
				PolicyName:        policy.Name,
				ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
				MatchResources: &admissionregistrationv1.MatchResources{NamespaceSelector: &metav1.LabelSelector{
					MatchLabels: map[string]string{corev1.LabelMetadataName: rookNs},
				}},
			},
		}
		Expect(k8sClient.Create(ctx, policy)).To(Succeed())
		Expect(k8sClient.Create(ctx, binding)).To(Succeed())
		DeferCleanup(func() {
			Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, binding))).To(Succeed())
			Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, policy))).To(Succeed())
		})
		// Policies take effect asynchronously; a dry run shows when this one does.
		Eventually(func(g Gomega) error {
			g.Expect(get(fs)()).To(Succeed())
			fs.Spec.MetadataServer.ActiveCount++
			return k8sClient.Update(ctx, fs, client.DryRunAll)
		}).Should(MatchError(ContainSubstring("the MDS count is frozen")))

		updateSpec(func(s *v1alpha1.StorageBackendSpec) { s.CephFS.Rook.MetadataServer.ActiveCount = 2 })
		Eventually(condition(sb, v1alpha1.ConditionFilesystemReady)).Should(Equal("False/ReconcileError"))
		Expect(conditionMessage(sb, v1alpha1.ConditionFilesystemReady)(Default)).To(ContainSubstring("the MDS count is frozen"))
		Expect(condition(sb, v1alpha1.ConditionReady)(Default)).To(Equal("False/ReconcileError"))
		Eventually(eventReasons(sb)).Should(ContainElement(v1alpha1.ReasonReconcileError))
		failed := fresh(sb)(Default)
		Expect(failed.Status.ObservedGeneration).To(Equal(good.ObservedGeneration), "a failed pass must not claim the new generation")
		Expect(failed.Status.ClientConfigHash).To(Equal(good.ClientConfigHash))
		Expect(failed.Status.DataPools).To(Equal(good.DataPools))

		By("recovering once the API server accepts the change")
		Expect(k8sClient.Delete(ctx, binding)).To(Succeed())
		Eventually(activeMDS).Should(BeEquivalentTo(2))
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
		Expect(fresh(sb)(Default).Status.ObservedGeneration).To(Equal(failed.Generation))
	})
})
