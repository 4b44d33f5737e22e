package controllers

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// settingsCaps are the caps measured on Ceph 18.2.7 to allow setting the flag on
// hadoopfs and nothing else.
var settingsCaps = map[string]string{
	"mon": `allow command "fs set" with fs_name=hadoopfs var=refuse_standby_for_another_fs val=true, allow w fsname=hadoopfs`,
}

// settingsJobs lists the file system settings Jobs of sb.
func settingsJobs(sb *v1alpha1.StorageBackend) func(Gomega) []batchv1.Job {
	return func(g Gomega) []batchv1.Job {
		selector := naming.StorageBackendLabels(sb)
		selector[hadoop.LabelComponent] = string(hadoop.FilesystemSettingsComponent)
		jobs := &batchv1.JobList{}
		g.Expect(k8sClient.List(ctx, jobs, client.InNamespace(sb.Namespace), client.MatchingLabels(selector))).To(Succeed())
		return jobs.Items
	}
}

// settingsJob waits for sb's one settings Job and returns it.
func settingsJob(sb *v1alpha1.StorageBackend) *batchv1.Job {
	GinkgoHelper()
	var job batchv1.Job
	Eventually(func(g Gomega) {
		jobs := settingsJobs(sb)(g)
		g.Expect(jobs).To(HaveLen(1))
		job = jobs[0]
	}).Should(Succeed())
	return &job
}

// playSettingsClient makes sb's settings client ready with its key, as Rook would.
func playSettingsClient(sb *v1alpha1.StorageBackend, rookNs string) *cephv1.CephClient {
	GinkgoHelper()
	cc := &cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: rook.SettingsClientName(sb)}}
	Eventually(get(cc)).Should(Succeed())
	setPhase(cc, cephv1.ConditionReady)
	writeClientSecret(rookNs, cc.Name, testKey)
	return cc
}

var _ = Describe("StorageBackend's file system settings", Label("envtest"), func() {
	var ns, rookNs string

	BeforeEach(func() {
		ns = createNamespace("hadoop")
		rookNs = rookCluster()
	})

	It("sets refuse_standby_for_another_fs with a client that may do nothing else, outside Ready, and again on a file system made anew", func() {
		sb := newRookBackend(ns, "lake", rookNs)
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		playRook(sb, rookNs)
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))

		By("asking Rook for a client with exactly the caps that set the flag")
		cc := &cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: rook.SettingsClientName(sb)}}
		Eventually(get(cc)).Should(Succeed())
		Expect(cc.Name).To(Equal(rook.ClientName(sb) + "-fs-settings"))
		Expect(cc.Spec.Caps).To(Equal(settingsCaps))
		Expect(rook.OwnedBy(cc, sb)).To(BeTrue())
		Eventually(condition(sb, v1alpha1.ConditionFilesystemSettingsApplied)).Should(Equal("False/WaitingForClient"))
		Expect(settingsJobs(sb)(Default)).To(BeEmpty(), "a Job without the client's key cannot log in")

		By("rendering the client's config and running the Job once its key exists")
		playSettingsClient(sb, rookNs)
		job := settingsJob(sb)
		Expect(job.Name).To(HavePrefix("lake-fs-settings-"))
		Expect(metav1.IsControlledBy(job, fresh(sb)(Default))).To(BeTrue())
		Expect(job.Spec.ActiveDeadlineSeconds).NotTo(BeNil())
		pod := job.Spec.Template.Spec
		c := pod.Containers[0]
		Expect(c.Image).To(Equal(testImage))
		Expect(c.Args).To(Equal([]string{"refuse_standby_for_another_fs", "true"}))
		Expect(strings.Join(c.Command, " ")).To(ContainSubstring(`fs set "$CEPH_FS" "$1" "$2"`))
		Expect(c.Env).To(ContainElements(
			corev1.EnvVar{Name: "CEPH_ID", Value: cc.Name},
			corev1.EnvVar{Name: "CEPH_FS", Value: "hadoopfs"},
		))
		Expect(pod.Volumes[0].Secret.SecretName).To(Equal("lake-ceph-fs-settings"))
		Expect(secretContent(ns, "lake-ceph-fs-settings")(Default)).To(And(
			HaveKeyWithValue("keyring", "[client."+cc.Name+"]\n\tkey = "+testKey+"\n"),
			HaveKeyWithValue("ceph.conf", "[global]\nmon_host = 10.0.0.1:6789,10.0.0.2:6789,10.0.0.3:6789\n"),
		))
		Expect(clientConfig(sb)(Default)).To(HaveKeyWithValue("keyring", "[client."+rook.ClientName(sb)+"]\n\tkey = "+testKey+"\n"),
			"Hadoop's own config keeps Hadoop's key")
		Eventually(condition(sb, v1alpha1.ConditionFilesystemSettingsApplied)).Should(Equal("False/ApplyingSettings"))
		Expect(conditionMessage(sb, v1alpha1.ConditionFilesystemSettingsApplied)(Default)).To(ContainSubstring(job.Name))
		Expect(condition(sb, v1alpha1.ConditionReady)(Default)).To(Equal("True/Reconciled"))

		By("reporting the flag applied once the Job succeeds")
		finishJob(job, true, "")
		Eventually(condition(sb, v1alpha1.ConditionFilesystemSettingsApplied)).Should(Equal("True/SettingsApplied"))
		Expect(conditionMessage(sb, v1alpha1.ConditionFilesystemSettingsApplied)(Default)).To(
			ContainSubstring("`ceph fs set hadoopfs refuse_standby_for_another_fs true`"))
		Eventually(events(sb)).Should(ContainElement("Normal/" + v1alpha1.ReasonSettingsApplied))
		Expect(condition(sb, v1alpha1.ConditionReady)(Default)).To(Equal("True/Reconciled"))

		By("running a new Job for a CephFilesystem made anew, whose Ceph file system has none of the old one's flags")
		fs := &cephv1.CephFilesystem{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: "hadoopfs"}}
		Expect(get(fs)()).To(Succeed())
		old := fs.UID
		Expect(k8sClient.Delete(ctx, fs)).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(get(fs)()).To(Succeed())
			g.Expect(fs.UID).NotTo(Equal(old))
		}).Should(Succeed())
		setPhase(fs, cephv1.ConditionReady)
		Eventually(gone(job)).Should(Succeed())
		renewed := settingsJob(sb)
		Expect(renewed.Name).NotTo(Equal(job.Name))
		Eventually(condition(sb, v1alpha1.ConditionFilesystemSettingsApplied)).Should(Equal("False/ApplyingSettings"))
	})

	It("names the failed Job and the remedy, leaves Ready alone, and runs it again once the Job is deleted", func() {
		sb := newRookBackend(ns, "old-ceph", rookNs)
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		playRook(sb, rookNs)
		playSettingsClient(sb, rookNs)
		job := settingsJob(sb)

		finishJob(job, false, "")
		Eventually(condition(sb, v1alpha1.ConditionFilesystemSettingsApplied)).Should(Equal("False/SettingsFailed"))
		message := conditionMessage(sb, v1alpha1.ConditionFilesystemSettingsApplied)(Default)
		Expect(message).To(ContainSubstring("Job " + ns + "/" + job.Name))
		Expect(message).To(ContainSubstring("refuse_standby_for_another_fs"))
		Expect(message).To(ContainSubstring("18 (Reef)"))
		Expect(message).To(ContainSubstring("delete the Job to try again"))
		Eventually(events(sb)).Should(ContainElement("Warning/" + v1alpha1.ReasonSettingsFailed))
		Expect(condition(sb, v1alpha1.ConditionReady)(Default)).To(Equal("True/Reconciled"))

		failed := job.UID
		Expect(k8sClient.Delete(ctx, job, client.PropagationPolicy(metav1.DeletePropagationBackground))).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(get(job)()).To(Succeed())
			g.Expect(job.UID).NotTo(Equal(failed))
		}).Should(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionFilesystemSettingsApplied)).Should(Equal("False/ApplyingSettings"))
	})

	It("sets the flag on an adopted file system too", func() {
		shared := &cephv1.CephFilesystem{
			ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: "hadoopfs"},
			Spec: cephv1.FilesystemSpec{
				MetadataPool:   cephv1.NamedPoolSpec{PoolSpec: cephv1.PoolSpec{Replicated: cephv1.ReplicatedSpec{Size: 3}}},
				DataPools:      []cephv1.NamedPoolSpec{{Name: "data", PoolSpec: cephv1.PoolSpec{Replicated: cephv1.ReplicatedSpec{Size: 3}}}},
				MetadataServer: cephv1.MetadataServerSpec{ActiveCount: 1},
			},
		}
		Expect(k8sClient.Create(ctx, shared)).To(Succeed())
		setPhase(shared, cephv1.ConditionReady)
		sb := newRookBackend(ns, "adopter", rookNs, func(r *v1alpha1.RookCephFS) { r.AdoptExisting = true })
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		playRook(sb, rookNs)
		cc := playSettingsClient(sb, rookNs)
		Expect(cc.Spec.Caps).To(Equal(settingsCaps))
		job := settingsJob(sb)
		Expect(job.Spec.Template.Spec.Containers[0].Env).To(ContainElement(corev1.EnvVar{Name: "CEPH_FS", Value: "hadoopfs"}))
		Expect(get(shared)()).To(Succeed())
		Expect(shared.Labels).To(BeEmpty(), "the adopted CephFilesystem itself is not written")
	})

	It("removes the Job, its Secret and the client with the StorageBackend, and keeps the file system and Hadoop's client", func() {
		sb := newRookBackend(ns, "kept", rookNs)
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		playRook(sb, rookNs)
		cc := playSettingsClient(sb, rookNs)
		job := settingsJob(sb)
		finishJob(job, true, "")
		Eventually(condition(sb, v1alpha1.ConditionFilesystemSettingsApplied)).Should(Equal("True/SettingsApplied"))
		secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "kept-ceph-fs-settings"}}
		Expect(get(secret)()).To(Succeed())

		Expect(k8sClient.Delete(ctx, sb)).To(Succeed())
		Eventually(gone(sb)).Should(Succeed())
		for _, obj := range []client.Object{job, secret, cc} {
			Expect(gone(obj)()).To(Succeed())
		}
		for _, obj := range []client.Object{
			&cephv1.CephFilesystem{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: "hadoopfs"}},
			&cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: rook.ClientName(sb)}},
			&cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: rook.EvictorName(sb)}},
		} {
			Expect(get(obj)()).To(Succeed(), "preserveOnDelete keeps %s", obj.GetName())
			Expect(obj.GetDeletionTimestamp()).To(BeNil())
		}
	})
})
