package controllers

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/cephconf"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

var _ = Describe("StorageBackend in Rook mode", Label("envtest"), func() {
	var ns, rookNs string

	BeforeEach(func() {
		ns = createNamespace("hadoop")
		rookNs = rookCluster()
	})

	It("creates a replicated CephFS, waits for each Rook object and renders the client config", func() {
		sb := newRookBackend(ns, "lake", rookNs, func(r *v1alpha1.RookCephFS) {
			r.DataPool = v1alpha1.DataPool{Replicated: &v1alpha1.ReplicatedPool{Size: 2}}
			r.DeviceClass = "ssd"
		})
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		clientName := "hadoop-" + ns + "-lake"

		By("creating the CephFilesystem exactly as the builder describes it, surviving the API server's round trip")
		fs := &cephv1.CephFilesystem{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: "hadoopfs"}}
		Eventually(get(fs)).Should(Succeed())
		defaulted := fresh(sb)(Default)
		want := rook.Filesystem(defaulted, rookNs)
		Expect(fs.Labels).To(Equal(want.Labels))
		Expect(fs.Spec).To(Equal(want.Spec))
		Expect(fs.Spec.DataPools).To(HaveLen(1))
		Expect(fs.Spec.DataPools[0].Name).To(Equal("data"))
		Expect(fs.Spec.DataPools[0].Replicated.Size).To(BeEquivalentTo(2))
		Expect(fs.Spec.DataPools[0].DeviceClass).To(Equal("ssd"))
		Expect(fs.Spec.PreserveFilesystemOnDelete).To(BeTrue())

		svg := &cephv1.CephFilesystemSubVolumeGroup{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: "hadoopfs-hadoop"}}
		Eventually(get(svg)).Should(Succeed())
		Expect(svg.Spec).To(Equal(cephv1.CephFilesystemSubVolumeGroupSpec{Name: "hadoop", FilesystemName: "hadoopfs"}))

		cc := &cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: clientName}}
		Eventually(get(cc)).Should(Succeed())
		Expect(cc.Spec.Caps).To(Equal(map[string]string{
			"mon": "allow r",
			"mds": "allow rwp path=/volumes/hadoop",
			"osd": "allow rw tag cephfs data=hadoopfs",
		}))

		By("waiting for Rook, one object at a time")
		Eventually(condition(sb, v1alpha1.ConditionFilesystemReady)).Should(Equal("False/WaitingForFilesystem"))
		Expect(conditionMessage(sb, v1alpha1.ConditionFilesystemReady)(Default)).To(ContainSubstring("CephFilesystem " + rookNs + "/hadoopfs to phase Ready"))
		Expect(condition(sb, v1alpha1.ConditionReady)(Default)).To(Equal("False/WaitingForFilesystem"))
		Expect(condition(sb, v1alpha1.ConditionClientReady)(Default)).To(Equal("False/WaitingForClient"))
		Expect(condition(sb, v1alpha1.ConditionClientConfigReady)(Default)).To(Equal("False/DependencyNotReady"))

		setPhase(fs, cephv1.ConditionReady)
		Eventually(condition(sb, v1alpha1.ConditionFilesystemReady)).Should(Equal("False/WaitingForSubVolumeGroup"))
		setPhase(svg, cephv1.ConditionReady)
		Eventually(condition(sb, v1alpha1.ConditionFilesystemReady)).Should(Equal("True/Reconciled"))
		Expect(condition(sb, v1alpha1.ConditionReady)(Default)).To(Equal("False/WaitingForClient"))

		setPhase(cc, cephv1.ConditionReady)
		Eventually(condition(sb, v1alpha1.ConditionClientReady)).Should(Equal("False/WaitingForClientSecret"))
		Expect(conditionMessage(sb, v1alpha1.ConditionClientReady)(Default)).To(ContainSubstring("Secret " + rookNs + "/rook-ceph-client-" + clientName))
		writeClientSecret(rookNs, clientName, testKey)
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))

		By("following Rook when the file system stops being ready, and again when it recovers")
		setPhase(fs, cephv1.ConditionFailure)
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("False/WaitingForFilesystem"))
		setPhase(fs, cephv1.ConditionReady)
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))

		By("rendering the client config Secret")
		Expect(clientConfig(sb)(Default)).To(Equal(map[string]string{
			"ceph.conf":  "[global]\nmon_host = 10.0.0.1:6789,10.0.0.2:6789,10.0.0.3:6789\n",
			"keyring":    "[client." + clientName + "]\n\tkey = " + testKey + "\n",
			"clientID":   clientName,
			"filesystem": "hadoopfs",
			"rootPath":   "/volumes/hadoop",
			"dataPool":   "hadoopfs-data",
		}))

		By("reporting what exists in status")
		got := fresh(sb)(Default)
		Expect(got.Status.ObservedGeneration).To(Equal(got.Generation))
		Expect(got.Status.ClientConfigHash).To(Equal(cephconf.Hash(secretData(clientConfig(sb)(Default)))))
		got.Status.Conditions = nil
		got.Status.ClientConfigHash = ""
		Expect(got.Status).To(Equal(v1alpha1.StorageBackendStatus{
			ObservedGeneration: got.Generation,
			Mode:               v1alpha1.StorageBackendModeRook,
			Monitors:           []string{"10.0.0.1:6789", "10.0.0.2:6789", "10.0.0.3:6789"},
			FilesystemName:     "hadoopfs",
			RootPath:           "/volumes/hadoop",
			ClientID:           clientName,
			DataPools: []v1alpha1.DataPoolStatus{
				{Name: "hadoopfs-data", Kind: v1alpha1.PoolKindReplicated, Size: 2, RawOverhead: "2", HadoopData: true},
			},
			RawOverhead:        "2",
			ClientConfigSecret: "lake-ceph-client",
		}))

		By("recording each step as an event")
		Eventually(eventReasons(sb)).Should(ContainElements(
			v1alpha1.EventReasonCreated, v1alpha1.ReasonWaitingForFilesystem, v1alpha1.ReasonWaitingForSubVolumeGroup,
			v1alpha1.ReasonWaitingForClient, v1alpha1.ReasonWaitingForClientSecret,
			v1alpha1.EventReasonClientConfigRendered, v1alpha1.ReasonReconciled,
		))
	})

	It("lays Hadoop's root out on the erasure-coded pool behind a replicated default pool", func() {
		sb := newRookBackend(ns, "ec", rookNs, func(r *v1alpha1.RookCephFS) {
			r.DataPool = v1alpha1.DataPool{ErasureCoded: &v1alpha1.ErasureCodedPool{DataChunks: 4, CodingChunks: 2}}
			r.MetadataPool = v1alpha1.ReplicatedPool{Size: 2}
			r.RootPath = "/volumes/tera"
		})
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())

		fs := &cephv1.CephFilesystem{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: "hadoopfs"}}
		Eventually(get(fs)).Should(Succeed())
		Expect(fs.Spec.DataPools).To(HaveLen(2))
		Expect(fs.Spec.DataPools[0].Name).To(Equal("default"))
		Expect(fs.Spec.DataPools[0].Replicated.Size).To(BeEquivalentTo(2))
		Expect(fs.Spec.DataPools[1].Name).To(Equal("ec"))
		Expect(fs.Spec.DataPools[1].ErasureCoded).To(Equal(cephv1.ErasureCodedSpec{DataChunks: 4, CodingChunks: 2}))

		svg := &cephv1.CephFilesystemSubVolumeGroup{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: "hadoopfs-tera"}}
		Eventually(get(svg)).Should(Succeed())
		Expect(svg.Spec.Name).To(Equal("tera"))
		Expect(svg.Spec.DataPoolName).To(Equal("hadoopfs-ec"))

		playRook(sb, rookNs)
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
		got := fresh(sb)(Default)
		Expect(got.Status.DataPools).To(Equal([]v1alpha1.DataPoolStatus{
			{Name: "hadoopfs-default", Kind: v1alpha1.PoolKindReplicated, Size: 2, RawOverhead: "2"},
			{Name: "hadoopfs-ec", Kind: v1alpha1.PoolKindErasureCoded, DataChunks: 4, CodingChunks: 2, RawOverhead: "1.5", HadoopData: true},
		}))
		Expect(got.Status.RawOverhead).To(Equal("1.5"))
		Expect(clientConfig(sb)(Default)).To(HaveKeyWithValue("dataPool", "hadoopfs-ec"))
		Expect(clientConfig(sb)(Default)).To(HaveKeyWithValue("rootPath", "/volumes/tera"))
	})

	It("adopts an existing CephFilesystem without changing it and puts Hadoop on its erasure-coded pool", func() {
		shared := &cephv1.CephFilesystem{
			ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: "shared"},
			Spec: cephv1.FilesystemSpec{
				MetadataPool: cephv1.NamedPoolSpec{PoolSpec: cephv1.PoolSpec{Replicated: cephv1.ReplicatedSpec{Size: 3}}},
				DataPools: []cephv1.NamedPoolSpec{
					{Name: "replicated", PoolSpec: cephv1.PoolSpec{Replicated: cephv1.ReplicatedSpec{Size: 3}}},
					{Name: "erasurecoded", PoolSpec: cephv1.PoolSpec{ErasureCoded: cephv1.ErasureCodedSpec{DataChunks: 2, CodingChunks: 1}}},
				},
				MetadataServer: cephv1.MetadataServerSpec{ActiveCount: 1},
			},
		}
		Expect(k8sClient.Create(ctx, shared)).To(Succeed())
		setPhase(shared, cephv1.ConditionReady)
		version := shared.ResourceVersion

		sb := newRookBackend(ns, "adopter", rookNs, func(r *v1alpha1.RookCephFS) {
			r.FilesystemName = "shared"
			r.AdoptExisting = true
		})
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())

		svg := &cephv1.CephFilesystemSubVolumeGroup{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: "shared-hadoop"}}
		Eventually(get(svg)).Should(Succeed())
		Expect(svg.Spec.DataPoolName).To(Equal("shared-erasurecoded"))

		playRook(sb, rookNs)
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
		Expect(conditionMessage(sb, v1alpha1.ConditionFilesystemReady)(Default)).To(ContainSubstring("on data pool shared-erasurecoded"))
		got := fresh(sb)(Default)
		Expect(got.Status.DataPools).To(Equal([]v1alpha1.DataPoolStatus{
			{Name: "shared-replicated", Kind: v1alpha1.PoolKindReplicated, Size: 3, RawOverhead: "3"},
			{Name: "shared-erasurecoded", Kind: v1alpha1.PoolKindErasureCoded, DataChunks: 2, CodingChunks: 1, RawOverhead: "1.5", HadoopData: true},
		}))

		Expect(get(shared)()).To(Succeed())
		Expect(shared.ResourceVersion).To(Equal(version), "the adopted CephFilesystem was written to")
		Expect(shared.Labels).To(BeEmpty())
	})

	It("waits for a file system to adopt until it exists", func() {
		sb := newRookBackend(ns, "early", rookNs, func(r *v1alpha1.RookCephFS) {
			r.FilesystemName = "later"
			r.AdoptExisting = true
		})
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionFilesystemReady)).Should(Equal("False/FilesystemNotFound"))
		Expect(condition(sb, v1alpha1.ConditionClientReady)(Default)).To(Equal("False/DependencyNotReady"))
		cc := &cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: rook.ClientName(sb)}}
		Expect(get(cc)()).NotTo(Succeed(), "a client was created before the file system it grants access to")

		later := &cephv1.CephFilesystem{
			ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: "later"},
			Spec: cephv1.FilesystemSpec{
				MetadataPool:   cephv1.NamedPoolSpec{PoolSpec: cephv1.PoolSpec{Replicated: cephv1.ReplicatedSpec{Size: 3}}},
				DataPools:      []cephv1.NamedPoolSpec{{PoolSpec: cephv1.PoolSpec{Replicated: cephv1.ReplicatedSpec{Size: 3}}}},
				MetadataServer: cephv1.MetadataServerSpec{ActiveCount: 1},
			},
		}
		Expect(k8sClient.Create(ctx, later)).To(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionFilesystemReady)).Should(Equal("False/WaitingForFilesystem"))
		Eventually(get(cc)).Should(Succeed())
		Expect(fresh(sb)(Default).Status.DataPools).To(Equal([]v1alpha1.DataPoolStatus{
			{Name: "later-data0", Kind: v1alpha1.PoolKindReplicated, Size: 3, RawOverhead: "3", HadoopData: true},
		}))
	})

	It("leaves a CephFilesystem it did not create alone and says so", func() {
		taken := &cephv1.CephFilesystem{
			ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: "taken"},
			Spec: cephv1.FilesystemSpec{
				MetadataPool:   cephv1.NamedPoolSpec{PoolSpec: cephv1.PoolSpec{Replicated: cephv1.ReplicatedSpec{Size: 3}}},
				DataPools:      []cephv1.NamedPoolSpec{{Name: "data", PoolSpec: cephv1.PoolSpec{Replicated: cephv1.ReplicatedSpec{Size: 3}}}},
				MetadataServer: cephv1.MetadataServerSpec{ActiveCount: 1},
			},
		}
		Expect(k8sClient.Create(ctx, taken)).To(Succeed())
		version := taken.ResourceVersion

		sb := newRookBackend(ns, "intruder", rookNs, func(r *v1alpha1.RookCephFS) { r.FilesystemName = "taken" })
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionFilesystemReady)).Should(Equal("False/FilesystemOwnedElsewhere"))
		Expect(conditionMessage(sb, v1alpha1.ConditionFilesystemReady)(Default)).To(ContainSubstring("adoptExisting"))
		Expect(condition(sb, v1alpha1.ConditionReady)(Default)).To(Equal("False/FilesystemOwnedElsewhere"))
		Eventually(eventReasons(sb)).Should(ContainElement(v1alpha1.ReasonFilesystemOwnedElsewhere))

		Consistently(func(g Gomega) {
			g.Expect(get(taken)()).To(Succeed())
			g.Expect(taken.ResourceVersion).To(Equal(version))
			cc := &cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: rook.ClientName(sb)}}
			g.Expect(get(cc)()).NotTo(Succeed())
		}, time.Second).Should(Succeed())
	})

	It("leaves a CephClient it did not create alone and says so", func() {
		foreign := &cephv1.CephClient{
			ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: "etl"},
			Spec:       cephv1.ClientSpec{Caps: map[string]string{"mon": "allow *"}},
		}
		Expect(k8sClient.Create(ctx, foreign)).To(Succeed())

		sb := newRookBackend(ns, "etl", rookNs, func(r *v1alpha1.RookCephFS) { r.ClientName = "etl" })
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionClientReady)).Should(Equal("False/ClientOwnedElsewhere"))
		Eventually(eventReasons(sb)).Should(ContainElement(v1alpha1.ReasonClientOwnedElsewhere))
		Expect(get(foreign)()).To(Succeed())
		Expect(foreign.Spec.Caps).To(Equal(map[string]string{"mon": "allow *"}))
	})

	It("creates nothing until the Rook namespace has a CephCluster", func() {
		bare := createNamespace("rook")
		publishMons(bare, "a=10.0.0.1:6789")
		sb := newRookBackend(ns, "patient", bare)
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionFilesystemReady)).Should(Equal("False/CephClusterNotFound"))
		Expect(condition(sb, v1alpha1.ConditionReady)(Default)).To(Equal("False/CephClusterNotFound"))
		fs := &cephv1.CephFilesystem{ObjectMeta: metav1.ObjectMeta{Namespace: bare, Name: "hadoopfs"}}
		Consistently(get(fs), time.Second).ShouldNot(Succeed())

		createCephCluster(bare)
		Eventually(get(fs)).Should(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionFilesystemReady)).Should(Equal("False/WaitingForFilesystem"))
	})

	It("says when the Rook namespace does not exist, and notices when it appears", func() {
		missing := "absent-" + ns
		sb := newRookBackend(ns, "lost", missing)
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionFilesystemReady)).Should(Equal("False/RookNamespaceNotFound"))

		Expect(k8sClient.Create(ctx, namespace(missing))).To(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionFilesystemReady)).Should(Equal("False/CephClusterNotFound"))
	})
})

// secretData turns the strings clientConfig returns back into Secret data.
func secretData(in map[string]string) map[string][]byte {
	out := map[string][]byte{}
	for k, v := range in {
		out[k] = []byte(v)
	}
	return out
}
