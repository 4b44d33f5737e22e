package controllers

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// secretContent reads a Secret's data as strings.
func secretContent(ns, name string) func(Gomega) map[string]string {
	return func(g Gomega) map[string]string {
		secret := &corev1.Secret{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, secret)).To(Succeed())
		out := map[string]string{}
		for k, v := range secret.Data {
			out[k] = string(v)
		}
		return out
	}
}

var _ = Describe("StorageBackend's evictor of dead clients", Label("envtest"), func() {
	It("renders an external evictor's config into a Secret of its own, outside Ready, and removes it when the spec drops it", func() {
		ns := createNamespace("hadoop")
		Expect(k8sClient.Create(ctx, &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "ceph-key"},
			Data:       map[string][]byte{"key": []byte(testKey)},
		})).To(Succeed())
		sb := &v1alpha1.StorageBackend{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "outside"},
			Spec: v1alpha1.StorageBackendSpec{CephFS: v1alpha1.CephFSSpec{External: &v1alpha1.ExternalCephFS{
				Monitors:       []string{"10.1.0.1:6789"},
				FilesystemName: "cephfs",
				ClientID:       "hadoop",
				KeySecretRef:   v1alpha1.SecretKeyRef{Name: "ceph-key"},
				Evictor: &v1alpha1.CephxClientRef{
					ClientID:     "hadoop-evictor",
					KeySecretRef: v1alpha1.SecretKeyRef{Name: "evictor-key"},
				},
			}}},
		}
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())

		By("staying Ready while the evictor's key Secret is missing, and saying so")
		Eventually(condition(sb, v1alpha1.ConditionEvictorReady)).Should(Equal("False/SecretNotFound"))
		Expect(conditionMessage(sb, v1alpha1.ConditionEvictorReady)(Default)).To(ContainSubstring("spec.cephFS.external.evictor.keySecretRef"))
		Expect(condition(sb, v1alpha1.ConditionReady)(Default)).To(Equal("True/Reconciled"))
		Expect(fresh(sb)(Default).Status.EvictionSecret).To(BeEmpty())

		By("rendering the evictor's config once its key exists")
		Expect(k8sClient.Create(ctx, &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "evictor-key"},
			Data:       map[string][]byte{"key": []byte(testKey)},
		})).To(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionEvictorReady)).Should(Equal("True/Reconciled"))
		got := fresh(sb)(Default)
		Expect(got.Status.EvictionSecret).To(Equal("outside-ceph-evictor"))
		Expect(got.Status.EvictionClientID).To(Equal("hadoop-evictor"))
		evictor := secretContent(ns, "outside-ceph-evictor")(Default)
		Expect(evictor).To(HaveKeyWithValue("keyring", "[client.hadoop-evictor]\n\tkey = "+testKey+"\n"))
		Expect(evictor).To(HaveKeyWithValue("ceph.conf", "[global]\nmon_host = 10.1.0.1:6789\n"))
		Expect(evictor).To(HaveKeyWithValue("filesystem", "cephfs"))
		Expect(clientConfig(sb)(Default)).To(HaveKeyWithValue("keyring", "[client.hadoop]\n\tkey = "+testKey+"\n"),
			"Hadoop's own config keeps Hadoop's key")

		By("removing the evictor's Secret when the spec no longer names an evictor")
		Eventually(func(g Gomega) {
			cur := fresh(sb)(g)
			cur.Spec.CephFS.External.Evictor = nil
			g.Expect(k8sClient.Update(ctx, cur)).To(Succeed())
		}).Should(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionEvictorReady)).Should(Equal("False/EvictionOff"))
		Eventually(gone(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "outside-ceph-evictor"}})).Should(Succeed())
		Expect(fresh(sb)(Default).Status.EvictionSecret).To(BeEmpty())
		Expect(condition(sb, v1alpha1.ConditionReady)(Default)).To(Equal("True/Reconciled"))
	})

	It("asks Rook for an evictor with the least caps that evict, and deletes it when evictDeadClients is turned off", func() {
		ns := createNamespace("hadoop")
		rookNs := rookCluster()
		sb := newRookBackend(ns, "lake", rookNs)
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		playRook(sb, rookNs)
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))

		cc := &cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: rook.EvictorName(sb)}}
		Eventually(get(cc)).Should(Succeed())
		Expect(cc.Name).To(Equal(rook.ClientName(sb) + "-evictor"))
		Expect(cc.Spec.Caps).To(Equal(map[string]string{"mon": "allow r", "mds": "allow *"}))
		Expect(condition(sb, v1alpha1.ConditionEvictorReady)(Default)).To(Equal("False/WaitingForClient"))

		setPhase(cc, cephv1.ConditionReady)
		writeClientSecret(rookNs, cc.Name, testKey)
		Eventually(condition(sb, v1alpha1.ConditionEvictorReady)).Should(Equal("True/Reconciled"))
		Expect(fresh(sb)(Default).Status.EvictionClientID).To(Equal(cc.Name))
		Expect(secretContent(ns, "lake-ceph-evictor")(Default)).To(HaveKeyWithValue("keyring", "[client."+cc.Name+"]\n\tkey = "+testKey+"\n"))

		Eventually(func(g Gomega) {
			cur := fresh(sb)(g)
			cur.Spec.CephFS.Rook.EvictDeadClients = ptr.To(false)
			g.Expect(k8sClient.Update(ctx, cur)).To(Succeed())
		}).Should(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionEvictorReady)).Should(Equal("False/EvictionOff"))
		Eventually(gone(cc)).Should(Succeed())
		Eventually(gone(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "lake-ceph-evictor"}})).Should(Succeed())
		Expect(condition(sb, v1alpha1.ConditionReady)(Default)).To(Equal("True/Reconciled"))
	})
})
