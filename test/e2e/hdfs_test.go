//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// The HDFS a user already runs, which the suite deploys from testdata/hdfs.yaml with
// the Hadoop image: a NameNode, three DataNodes, and a discovery ConfigMap named after
// it in the shape Stackable's HDFS operator publishes.
const (
	testHDFS       = "baseline-hdfs"
	hdfsBackend    = "hdfs"
	hdfsCluster    = "on-hdfs"
	hdfsTeraSort   = "terasort-hdfs"
	cephVsHDFSSort = "terasort-vs-hdfs"
)

func hdfsBaselineSpecs() {
	It("runs the suite's TeraSort on a HadoopCluster over an existing HDFS and compares CephFS with it in status, and DistCp copies a directory from the HDFS into the CephFS of the suite's cluster and back, as docs/using.md does", func() {
		By("deploying an HDFS as a user's existing one: a NameNode and three DataNodes, with a discovery ConfigMap")
		image := hadoopImageOf(clusterName)
		manifest, err := os.ReadFile(filepath.Join(repoRoot, "test", "e2e", "testdata", "hdfs.yaml"))
		Expect(err).NotTo(HaveOccurred())
		applied := strings.NewReplacer("${NAMESPACE}", namespace, "${NAME}", testHDFS, "${IMAGE}", image).Replace(string(manifest))
		apply := kubectl("apply", "-f", "-")
		apply.Stdin = strings.NewReader(applied)
		mustRun(apply)
		DeferCleanup(func() {
			del := kubectl("delete", "--ignore-not-found", "--wait=true", "-f", "-")
			del.Stdin = strings.NewReader(applied)
			runLogged(del)
		})
		Eventually(func(g Gomega) int32 {
			sts := &appsv1.StatefulSet{}
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: testHDFS + "-datanode"}, sts)).To(Succeed())
			return sts.Status.ReadyReplicas
		}).WithTimeout(5 * time.Minute).Should(Equal(int32(3)))

		By("pointing a StorageBackend at its discovery ConfigMap")
		sb := &v1alpha1.StorageBackend{
			ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: hdfsBackend},
			Spec:       v1alpha1.StorageBackendSpec{HDFS: &v1alpha1.HDFSSpec{DiscoveryConfigMap: &v1alpha1.LocalObjectReference{Name: testHDFS}}},
		}
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(sb), sb)).To(Succeed())
			g.Expect(meta.IsStatusConditionTrue(sb.Status.Conditions, v1alpha1.ConditionReady)).To(BeTrue(), "%+v", sb.Status.Conditions)
		}).WithTimeout(3 * time.Minute).Should(Succeed())
		Expect(sb.Status.Mode).To(Equal(v1alpha1.StorageBackendModeHDFS))
		Expect(sb.Status.HDFS.DefaultFS).To(Equal("hdfs://" + testHDFS))
		Expect(sb.Status.HDFS.NameNodes).To(ConsistOf(HaveField("State", "active")), "the real NameNode's NameNodeStatus bean")
		Expect(sb.Status.HDFS.Replication).To(Equal(int32(3)), "the NameNode's dfs.replication, read from its /conf")
		Expect(sb.Status.HDFS.BlockSize).To(Equal(int64(128 << 20)))

		By("running a HadoopCluster on it that differs from the suite's only in storage")
		// On the host network too, as a comparison requires the same network: the
		// scheduler keeps its daemons off the nodes where the suite's cluster holds the
		// same host ports.
		hc := newClusterOn(hdfsCluster, hdfsBackend)
		// The node's two cores are requested by the suite's cluster, the HDFS and a
		// stage pod of 500m, and a worker's memory (a third of the host's) by the
		// DataNode, Multus and whichever of the suite's daemons land there: this one
		// idles while CephFS is measured, and the other while HDFS is, so it requests
		// little of either. YARN sees the same vcores (spec.nodeManagers.yarn) and
		// memory (the limit, 6Gi), and the pods have the same limits, so the runs stay
		// comparable, with the requests flagged.
		hc.Spec.NodeManagers.Resources.Requests[corev1.ResourceCPU] = resource.MustParse("100m")
		hc.Spec.NodeManagers.Resources.Requests[corev1.ResourceMemory] = resource.MustParse("1Gi")
		Expect(k8sClient.Create(ctx, hc)).To(Succeed())
		DeferCleanup(func() {
			Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, hc))).To(Succeed())
			Eventually(func() error {
				return k8sClient.Get(ctx, client.ObjectKeyFromObject(hc), hc)
			}).WithTimeout(3 * time.Minute).ShouldNot(Succeed())
			Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, sb))).To(Succeed())
		})
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(hc), hc)).To(Succeed())
			g.Expect(meta.IsStatusConditionTrue(hc.Status.Conditions, v1alpha1.ConditionReady)).To(BeTrue(), "%+v", hc.Status.Conditions)
		}).WithTimeout(5 * time.Minute).Should(Succeed())

		By("sorting on HDFS, then on CephFS with the HDFS run as the baseline")
		Expect(k8sClient.Create(ctx, newTeraSortOn(hdfsTeraSort, hdfsCluster))).To(Succeed())
		onHDFS := waitForRun(hdfsTeraSort)
		Expect(onHDFS.Status.Phase).To(Equal(v1alpha1.BenchmarkPhaseSucceeded), "%+v", onHDFS.Status)
		for _, s := range onHDFS.Status.Stages {
			if s.Stage == v1alpha1.StageTeraValidate {
				Expect(s.TeraValidate.Errors).To(BeZero())
			}
		}

		vsHDFS := newTeraSort(cephVsHDFSSort)
		vsHDFS.Spec.BaselineRef = &v1alpha1.LocalObjectReference{Name: hdfsTeraSort}
		Expect(k8sClient.Create(ctx, vsHDFS)).To(Succeed())
		onCeph := waitForRun(cephVsHDFSSort)
		Expect(onCeph.Status.Phase).To(Equal(v1alpha1.BenchmarkPhaseSucceeded), "%+v", onCeph.Status)
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(onCeph), onCeph)).To(Succeed())
			g.Expect(meta.IsStatusConditionTrue(onCeph.Status.Conditions, v1alpha1.ConditionBaselineCompared)).To(BeTrue(), "%+v", onCeph.Status.Conditions)
		}).WithTimeout(time.Minute).Should(Succeed())
		Expect(onCeph.Status.Baseline).NotTo(BeNil())
		Expect(onCeph.Status.Baseline.Name).To(Equal(hdfsTeraSort))
		Expect(onCeph.Status.Baseline.Ratio).To(MatchRegexp(`^[0-9]+\.[0-9]{2}x$`))
		Expect(onCeph.Status.Baseline.Stages).To(ContainElement(HaveField("Stage", v1alpha1.StageTeraSort)))
		Expect(onCeph.Status.Baseline.Flagged).To(ConsistOf(v1alpha1.BaselineDifference{
			Parameter: "nodeManagerRequests", Value: "cpu 500m, memory 6Gi", BaselineValue: "cpu 100m, memory 1Gi",
		}), "the NodeManager pods' requests, which differ, and nothing else")
		Expect(onCeph.Status.Setup.NodeManagers.Resources.Limits.Memory().String()).To(Equal("6Gi"))
		GinkgoWriter.Printf("TeraSort of %d rows, CephFS over HDFS: %s (stages %+v)\n", teraSortRows, onCeph.Status.Baseline.Ratio, onCeph.Status.Baseline.Stages)

		By("finding the run's directory in HDFS, not on CephFS")
		listing := mustRun(kubectl("-n", namespace, "exec", testHDFS+"-namenode-0", "-c", "namenode", "--", "hdfs", "dfs", "-ls", "-R", "/"))
		Expect(listing).To(ContainSubstring("/hadoop-system/"+namespace+"/"+hdfsCluster), "the cluster's system directory is in HDFS")

		// Here, while the HDFS runs: the spec's cleanup deletes it.
		nameNode := fmt.Sprintf("hdfs://%s-namenode.%s.svc:8020", testHDFS, namespace)
		By("loading text into the HDFS from a client of the cluster on it")
		mustRun(kubectl("hadoopceph", "-n", namespace, "run", hdfsCluster, "--", "bash", "-ec", fmt.Sprintf(
			`hadoop fs -mkdir -p /datasets/words; printf '%s' | hadoop fs -put -f - /datasets/words/part-0`, strings.ReplaceAll(userText, "\n", `\n`))))

		By("copying it onto CephFS with a DistCp job of the cluster on CephFS, then back into the HDFS beside the original")
		out := mustRun(kubectl("hadoopceph", "-n", namespace, "run", clusterName, "--", "bash", "-ec", fmt.Sprintf(`
hadoop fs -rm -r -f -skipTrash /user-data/from-hdfs
hadoop distcp %[1]s/datasets/words /user-data/from-hdfs
hadoop fs -cat /user-data/from-hdfs/part-0
hadoop distcp -overwrite /user-data/from-hdfs %[1]s/datasets/words-back
hadoop fs -rm -r -skipTrash /user-data/from-hdfs`, nameNode)))
		Expect(out).To(ContainSubstring(userText), "the text, read from CephFS")
		back := mustRun(kubectl("-n", namespace, "exec", testHDFS+"-namenode-0", "-c", "namenode", "--", "hdfs", "dfs", "-cat", "/datasets/words-back/part-0"))
		Expect(back).To(ContainSubstring(userText), "the text, back in HDFS")
	})
}

// hadoopImageOf is the Hadoop image the cluster's ResourceManager runs.
func hadoopImageOf(cluster string) string {
	GinkgoHelper()
	sts := &appsv1.StatefulSet{}
	Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: cluster + "-resourcemanager"}, sts)).To(Succeed())
	return sts.Spec.Template.Spec.Containers[0].Image
}
