package controllers

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

var _ = Describe("StorageBackend in external mode", Label("envtest"), func() {
	It("waits for a usable key Secret, then renders the client config from the spec", func() {
		ns := createNamespace("hadoop")
		sb := &v1alpha1.StorageBackend{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "outside"},
			Spec: v1alpha1.StorageBackendSpec{CephFS: v1alpha1.CephFSSpec{External: &v1alpha1.ExternalCephFS{
				Monitors:       []string{"[v2:10.1.0.1:3300,v1:10.1.0.1:6789]", "10.1.0.2:6789"},
				FilesystemName: "cephfs",
				ClientID:       "hadoop",
				KeySecretRef:   v1alpha1.SecretKeyRef{Name: "ceph-key"},
				DataPool:       &v1alpha1.ExternalDataPool{Name: "cephfs.hadoop.data"},
				RootPath:       "/hadoop",
			}}},
		}
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())

		By("saying the key Secret is missing")
		Eventually(condition(sb, v1alpha1.ConditionClientReady)).Should(Equal("False/SecretNotFound"))
		Expect(conditionMessage(sb, v1alpha1.ConditionClientReady)(Default)).To(ContainSubstring("Secret " + ns + "/ceph-key does not exist"))
		Expect(condition(sb, v1alpha1.ConditionReady)(Default)).To(Equal("False/SecretNotFound"))
		Expect(condition(sb, v1alpha1.ConditionFilesystemReady)(Default)).To(Equal("True/External"))
		Eventually(eventReasons(sb)).Should(ContainElement(v1alpha1.ReasonSecretNotFound))

		By("saying the key is missing from the Secret")
		secret := &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "ceph-key"},
			Data:       map[string][]byte{"userKey": []byte(testKey)},
		}
		Expect(k8sClient.Create(ctx, secret)).To(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionClientReady)).Should(Equal("False/SecretKeyMissing"))

		By("saying the key is not a cephx key")
		secret.Data = map[string][]byte{"key": []byte("[client.hadoop]\n\tkey = " + testKey + "\n")}
		Expect(k8sClient.Update(ctx, secret)).To(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionClientReady)).Should(Equal("False/InvalidKey"))

		By("rendering the config once the key is fixed")
		secret.Data = map[string][]byte{"key": []byte(testKey + "\n")}
		Expect(k8sClient.Update(ctx, secret)).To(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
		Expect(clientConfig(sb)(Default)).To(Equal(map[string]string{
			"ceph.conf":  "[global]\nmon_host = [v2:10.1.0.1:3300,v1:10.1.0.1:6789],10.1.0.2:6789\n",
			"keyring":    "[client.hadoop]\n\tkey = " + testKey + "\n",
			"clientID":   "hadoop",
			"filesystem": "cephfs",
			"rootPath":   "/hadoop",
			"dataPool":   "cephfs.hadoop.data",
		}))

		got := fresh(sb)(Default)
		Expect(got.Status.ClientConfigHash).NotTo(BeEmpty())
		got.Status.Conditions = nil
		got.Status.ClientConfigHash = ""
		Expect(got.Status).To(Equal(v1alpha1.StorageBackendStatus{
			ObservedGeneration: got.Generation,
			Mode:               v1alpha1.StorageBackendModeExternal,
			Monitors:           []string{"[v2:10.1.0.1:3300,v1:10.1.0.1:6789]", "10.1.0.2:6789"},
			FilesystemName:     "cephfs",
			RootPath:           "/hadoop",
			ClientID:           "hadoop",
			DataPools:          []v1alpha1.DataPoolStatus{{Name: "cephfs.hadoop.data", Kind: v1alpha1.PoolKindUnknown, HadoopData: true}},
			ClientConfigSecret: "outside-ceph-client",
		}))
	})
})
