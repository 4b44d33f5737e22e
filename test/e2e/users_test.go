//go:build e2e

package e2e

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/podstatus"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

// userText is what the users' specs load: two lines, six words, "ceph" three times.
const userText = "ceph hadoop ceph\nyarn ceph mapreduce\n"

// userInput is where the users' specs load it, from Hadoop's root.
const userInput = "/user-data/words"

// examplesJar runs Hadoop's MapReduce examples in the image, through a shell for the
// glob.
const examplesJar = hadoop.HadoopHome + "/share/hadoop/mapreduce/hadoop-mapreduce-examples-*.jar"

// streamingJar runs Hadoop streaming jobs (docs/images.md).
const streamingJar = hadoop.HadoopHome + "/share/hadoop/tools/lib/hadoop-streaming.jar"

// userPodSpecs run a user's own pod, written from docs/examples/hadoop-client-pod.yaml
// as the docs say, against the replicated backend's cluster: on the pod network, where
// its NetworkPolicies hold and admit only pods that carry the client labels.
func userPodSpecs() {
	It("runs a WordCount and a streaming job from a pod of the user's own made from docs/examples/hadoop-client-pod.yaml, through the cluster's NetworkPolicies, and yarn logs prints the WordCount's aggregated container logs from CephFS", func() {
		hc := &v1alpha1.HadoopCluster{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: rookReplicatedCluster}, hc)).To(Succeed())
		Expect(hc.Status.Client.ConfigMap).To(Equal(rookReplicatedCluster + "-client"))
		Expect(hc.Status.Client.PodTemplate).To(Equal(rookReplicatedCluster + "-client"))
		Expect(hc.Status.Client.Secret).NotTo(BeEmpty())
		template := &corev1.PodTemplate{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: hc.Status.Client.PodTemplate}, template)).To(Succeed())

		By("applying the docs' manifest with the values the docs read from the cluster")
		raw, err := os.ReadFile(filepath.Join(repoRoot, "docs", "examples", "hadoop-client-pod.yaml"))
		Expect(err).NotTo(HaveOccurred())
		manifest := strings.NewReplacer(
			"${CLUSTER}", rookReplicatedCluster,
			"${IMAGE}", template.Template.Spec.Containers[0].Image,
			"${SECRET}", hc.Status.Client.Secret,
			// Rook's public network is an attachment here (rooknet_test.go).
			"${NETWORKS}", template.Template.Annotations[hadoop.NetworksAnnotation],
		).Replace(string(raw))
		Expect(template.Template.Annotations[hadoop.NetworksAnnotation]).NotTo(BeEmpty(), "the suite's Rook public network, which the pod must join")
		apply := kubectl("-n", namespace, "apply", "-f", "-")
		apply.Stdin = strings.NewReader(manifest)
		mustRun(apply)
		name := rookReplicatedCluster + "-my-client"
		// Its sleep ignores SIGTERM: a short grace period frees its node for the specs
		// after it at once.
		DeferCleanup(func() { _ = kubectl("-n", namespace, "delete", "pod", name, "--grace-period=1").Run() })
		pod := &corev1.Pod{}
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, pod)).To(Succeed())
			g.Expect(podstatus.Ready(pod)).To(BeTrue(), "%+v", pod.Status)
		}).WithTimeout(3 * time.Minute).WithPolling(2 * time.Second).Should(Succeed())

		By("loading text with hadoop fs -put and counting its words with hadoop jar")
		out := mustRun(kubectl("-n", namespace, "exec", name, "--", "bash", "-ec", fmt.Sprintf(`
hadoop fs -mkdir -p %[1]s
printf '%[2]s' | hadoop fs -put -f - %[1]s/part-0
hadoop fs -rm -r -f -skipTrash /user-data/wordcount
hadoop jar %[3]s wordcount %[1]s /user-data/wordcount
hadoop fs -cat '/user-data/wordcount/part-r-*'
hadoop jar %[4]s -input %[1]s -output /user-data/streaming \
  -mapper /bin/cat -reducer '/usr/bin/wc -w' -numReduceTasks 1
echo "streaming=$(hadoop fs -cat '/user-data/streaming/part-*' | tr -d '[:space:]')"
`, userInput, strings.ReplaceAll(userText, "\n", `\n`), examplesJar, streamingJar)))
		GinkgoWriter.Println(out)
		for _, want := range []string{"ceph\t3", "hadoop\t1", "mapreduce\t1", "yarn\t1"} {
			Expect(out).To(ContainSubstring(want))
		}
		Expect(out).To(ContainSubstring("streaming=6"), "a streaming job of cat and wc -w counted the six words")
		app := regexp.MustCompile(`application_\d+_\d+`).FindString(out)
		Expect(app).NotTo(BeEmpty(), "the job's output names its application")

		By("reading the job's container logs with yarn logs, once the NodeManagers have aggregated them onto CephFS")
		Eventually(func(g Gomega) {
			logs, err := kubectl("-n", namespace, "exec", name, "--", "yarn", "logs", "-applicationId", app).CombinedOutput()
			g.Expect(err).NotTo(HaveOccurred(), "%s", logs)
			g.Expect(string(logs)).To(And(ContainSubstring("LogAggregationType: AGGREGATED"), ContainSubstring("LogType:syslog"),
				ContainSubstring("Container: container_")))
		}).WithTimeout(2 * time.Minute).WithPolling(5 * time.Second).Should(Succeed())

		mustRun(kubectl("-n", namespace, "exec", name, "--", "hadoop", "fs", "-rm", "-r", "-skipTrash", "/user-data"))
	})
}

// userWorkSpecs use the plugin's client commands and run the WordCount, Grep and
// ingest BenchmarkRuns on the suite's cluster on the external Ceph, with its
// JobHistory server.
func userWorkSpecs() {
	var wordCountJob string

	It("runs a command in a client pod with kubectl hadoopceph run, and commands in a shell, passing their output and exit code through and leaving no pod behind", func() {
		before := clientPods()
		put := kubectl("hadoopceph", "-n", namespace, "run", "-i", clusterName, "--", "bash", "-c",
			"hadoop fs -mkdir -p "+userInput+" && hadoop fs -put -f - "+userInput+"/part-0")
		put.Stdin = strings.NewReader(userText)
		mustRun(put)
		cmd := kubectl("hadoopceph", "-n", namespace, "run", clusterName, "--", "bash", "-c",
			"hadoop fs -cat "+userInput+"/part-0; echo to-stderr >&2; exit 7")
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		GinkgoWriter.Println(stdout.String(), stderr.String())
		var exit *exec.ExitError
		Expect(errors.As(err, &exit)).To(BeTrue(), "the plugin exits with an error: %v", err)
		Expect(exit.ExitCode()).To(Equal(7), "the command's exit code")
		Expect(stdout.String()).To(Equal(userText), "the command's standard output, alone")
		Expect(stderr.String()).To(ContainSubstring("to-stderr"))
		Eventually(clientPods).WithTimeout(time.Minute).WithPolling(2*time.Second).Should(Equal(before), "the plugin's pod is deleted")

		By("running commands that kubectl hadoopceph shell reads from its standard input, without a terminal")
		shell := kubectl("hadoopceph", "-n", namespace, "shell", clusterName)
		shell.Stdin = strings.NewReader("hadoop fs -cat " + userInput + "/part-0\nexit 5\n")
		stdout.Reset()
		shell.Stdout, shell.Stderr = &stdout, GinkgoWriter
		err = shell.Run()
		Expect(errors.As(err, &exit)).To(BeTrue(), "the plugin exits with an error: %v", err)
		Expect(exit.ExitCode()).To(Equal(5), "the shell's exit code")
		Expect(stdout.String()).To(Equal(userText))
		Eventually(clientPods).WithTimeout(time.Minute).WithPolling(2*time.Second).Should(Equal(before), "the plugin's pod is deleted")
	})

	It("runs the WordCount, Grep and ingest BenchmarkRuns, WordCount in a queue of its own", func() {
		queues := []v1alpha1.Queue{{Name: "default", Capacity: 80}, {Name: "adhoc", Capacity: 20}}
		applyQueues(queues, map[string]string{"default": "RUNNING", "adhoc": "RUNNING"})

		wordCount := newRun("wordcount")
		wordCount.Spec.WordCount = &v1alpha1.WordCountWorkload{InputPath: userInput}
		wordCount.Spec.Queue = "adhoc"
		grep := newRun("grep")
		grep.Spec.Grep = &v1alpha1.GrepWorkload{InputPath: userInput, Pattern: "ce(ph)", Group: ptr.To[int32](1)}
		ingest := newRun("ingest")
		ingest.Spec.Ingest = &v1alpha1.IngestWorkload{Clients: 2, FileSize: resource.MustParse("8Mi")}
		for _, run := range []*v1alpha1.BenchmarkRun{wordCount, grep, ingest} {
			Expect(k8sClient.Create(ctx, run)).To(Succeed())
		}

		wordCount = waitForRun(wordCount.Name)
		Expect(wordCount.Status.Phase).To(Equal(v1alpha1.BenchmarkPhaseSucceeded), "%+v", wordCount.Status)
		stage := stageOf(wordCount, v1alpha1.StageWordCount)
		Expect(stage.Counters).NotTo(BeNil())
		Expect(stage.Counters.MapInputRecords).To(Equal(int64(2)), "lines read")
		Expect(stage.Counters.MapOutputRecords).To(Equal(int64(6)), "words counted")
		Expect(stage.HadoopJobs).To(HaveLen(1))
		wordCountJob = stage.HadoopJobs[0]
		data, err := jobHistoryGet(clusterName, "/ws/v1/history/mapreduce/jobs/"+wordCountJob)
		Expect(err).NotTo(HaveOccurred())
		var job struct {
			Job struct {
				Queue string `json:"queue"`
			} `json:"job"`
		}
		Expect(json.Unmarshal(data, &job)).To(Succeed(), "%s", data)
		Expect(job.Job.Queue).To(Equal("root.adhoc"), "spec.queue reached the job")

		grep = waitForRun(grep.Name)
		Expect(grep.Status.Phase).To(Equal(v1alpha1.BenchmarkPhaseSucceeded), "%+v", grep.Status)
		// Two jobs: the search reads the two lines, the sort the one distinct match ("ph").
		Expect(stageOf(grep, v1alpha1.StageGrep).Counters).To(HaveField("MapInputRecords", int64(3)))
		Expect(stageOf(grep, v1alpha1.StageGrep).HadoopJobs).To(HaveLen(2))

		ingest = waitForRun(ingest.Name)
		Expect(ingest.Status.Phase).To(Equal(v1alpha1.BenchmarkPhaseSucceeded), "%+v", ingest.Status)
		Expect(stageOf(ingest, v1alpha1.StageIngest).Ingest).To(And(
			HaveField("Clients", int32(2)), HaveField("Puts", int32(2)), HaveField("Failed", int32(0))))

		removeQueues(queues)
	})

	It("forwards the ResourceManager's and the JobHistory server's web UIs with kubectl hadoopceph ui, the latter showing a task's aggregated log to anyone when its job's view ACL says so, and to no one else", func() {
		Expect(wordCountJob).NotTo(BeEmpty(), "the WordCount run's job, from the spec before")
		By("counting the words again with a view ACL that lets everyone see the job, as docs/using.md says")
		out := mustRun(kubectl("hadoopceph", "-n", namespace, "run", clusterName, "--", "bash", "-c", fmt.Sprintf(
			`hadoop jar %s wordcount -Dmapreduce.job.acl-view-job='*' %s /user-data/wordcount-shared && hadoop fs -rm -r -skipTrash /user-data/wordcount-shared`,
			examplesJar, userInput)))
		shared := regexp.MustCompile(`job_\d+_\d+`).FindString(out)
		Expect(shared).NotTo(BeEmpty(), "the job's output names it: %s", out)

		cmd := kubectl("hadoopceph", "-n", namespace, "ui", clusterName, "--resourcemanager-port", "0", "--jobhistory-port", "0")
		stdout, err := cmd.StdoutPipe()
		Expect(err).NotTo(HaveOccurred())
		cmd.Stderr = GinkgoWriter
		Expect(cmd.Start()).To(Succeed())
		defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
		urls := forwardedURLs(stdout, 2)

		info, err := hostGet(urls[hadoop.ResourceManager] + "/ws/v1/cluster/info")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(info)).To(ContainSubstring(`"resourceManagerVersion"`))

		// The web UIs' user is the anonymous dr.who: Hadoop's simple authentication
		// has no login, and the suite's cluster has YARN's ACLs on.
		Eventually(func(g Gomega) {
			g.Expect(amLogPage(g, urls[hadoop.JobHistory], shared)).To(And(ContainSubstring("Log Type: syslog"), ContainSubstring("MRAppMaster")),
				"the ApplicationMaster's log, read from CephFS by the JobHistory server")
		}).WithTimeout(time.Minute).WithPolling(5 * time.Second).Should(Succeed())
		Expect(amLogPage(Default, urls[hadoop.JobHistory], wordCountJob)).To(And(ContainSubstring("is not authorized to view the logs"), Not(ContainSubstring("MRAppMaster"))),
			"the BenchmarkRun's job, whose view ACL is its owner's and the admins'")
	})

	It("runs a Spark application of the user's own from docs/examples, compiled in a client pod, in client and in cluster mode through kubectl hadoopceph run, its executors in the NodeManagers reading and writing CephFS", func() {
		src, err := os.ReadFile(filepath.Join(repoRoot, "docs", "examples", "SparkWordCount.scala"))
		Expect(err).NotTo(HaveOccurred())
		cmd := kubectl("hadoopceph", "-n", namespace, "run", "-i", clusterName, "--", "bash", "-c", fmt.Sprintf(sparkRun, userInput))
		cmd.Stdin = strings.NewReader(string(src))
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err = cmd.Run()
		GinkgoWriter.Println(stdout.String())
		Expect(err).NotTo(HaveOccurred(), "the Spark run's standard error:\n%s", stderr.String())
		out := stdout.String()
		By("client mode: the driver in the client pod prints the counts it read back")
		for _, want := range []string{"ceph\t3", "hadoop\t1", "mapreduce\t1", "yarn\t1", "SparkWordCount: 4 distinct words in " + userInput} {
			Expect(out).To(ContainSubstring(want))
		}
		Expect(stderr.String()).To(ContainSubstring("Submitted application application_"), "spark-defaults.conf made YARN the master of a client-mode driver")
		By("cluster mode: the driver in a NodeManager, its CSV on CephFS and its output in the aggregated logs")
		Expect(out).To(MatchRegexp(`cluster-mode: application_\d+_\d+ final status: SUCCEEDED`))
		Expect(regexp.MustCompile(`cluster-csv: .*`).FindAllString(out, -1)).To(Equal([]string{
			"cluster-csv: ceph,3", "cluster-csv: hadoop,1", "cluster-csv: mapreduce,1", "cluster-csv: yarn,1",
		}))
		Expect(out).To(ContainSubstring("cluster-driver: SparkWordCount: 4 distinct words"), "the cluster-mode driver's stdout, from yarn logs")

		By("YARN ran both as Spark applications")
		body, err := resourceManagerGet(clusterName, "/ws/v1/cluster/apps?applicationTypes=SPARK&user.name=hadoop")
		Expect(err).NotTo(HaveOccurred())
		apps, err := yarn.DecodeApplications(body)
		Expect(err).NotTo(HaveOccurred())
		var finished []string
		for _, a := range apps {
			if a.Name == "SparkWordCount" {
				finished = append(finished, a.FinalStatus)
			}
		}
		Expect(finished).To(Equal([]string{"SUCCEEDED", "SUCCEEDED"}), "%s", body)
	})
}

// sparkRun is what a user types into a client pod to run docs/examples/SparkWordCount.scala,
// read from standard input, as docs/using.md has it: compile it with the image's Scala
// compiler, submit it in client mode (the driver in this pod) and, from a copy of the
// jar on CephFS, in cluster mode (the driver in a NodeManager), print the cluster mode's
// output from CephFS, and its driver's output from the aggregated logs.
const sparkRun = `set -euo pipefail
cd /tmp
cat > SparkWordCount.scala
java -Xmx512m -cp "/opt/spark/jars/*:$(hadoop classpath)" scala.tools.nsc.Main -usejavacp -d word-count.jar SparkWordCount.scala
spark-submit --class SparkWordCount word-count.jar %[1]s /user-data/spark-client
hadoop fs -mkdir -p /user-data/apps
hadoop fs -put -f word-count.jar /user-data/apps/
spark-submit --deploy-mode cluster --class SparkWordCount ceph:///user-data/apps/word-count.jar %[1]s /user-data/spark-cluster 2>cluster.log ||
  { cat cluster.log >&2; exit 1; }
app=$(grep -o 'application_[0-9]*_[0-9]*' cluster.log | head -1)
echo "cluster-mode: ${app} $(grep -o 'final status: [A-Z]*' cluster.log | tail -1)"
hadoop fs -cat '/user-data/spark-cluster/part-*' | sort | sed 's/^/cluster-csv: /'
for _ in $(seq 30); do
  if yarn logs -applicationId "${app}" -log_files stdout 2>/dev/null | grep -q 'distinct words'; then
    echo "cluster-driver: $(yarn logs -applicationId "${app}" -log_files stdout 2>/dev/null | grep 'distinct words')"
    break
  fi
  sleep 2
done
hadoop fs -rm -r -skipTrash /user-data/spark-client /user-data/spark-cluster /user-data/apps >/dev/null
`

// amLogPage is the part of the JobHistory server's page of the ApplicationMaster's
// logs of a job that follows the navigation, read through base.
func amLogPage(g Gomega, base, job string) string {
	data, err := hostGet(base + "/ws/v1/history/mapreduce/jobs/" + job + "/jobattempts")
	g.Expect(err).NotTo(HaveOccurred())
	var attempts struct {
		JobAttempts struct {
			JobAttempt []struct {
				LogsLink string `json:"logsLink"`
			} `json:"jobAttempt"`
		} `json:"jobAttempts"`
	}
	g.Expect(json.Unmarshal(data, &attempts)).To(Succeed(), "%s", data)
	g.Expect(attempts.JobAttempts.JobAttempt).NotTo(BeEmpty())
	link, err := url.Parse(attempts.JobAttempts.JobAttempt[0].LogsLink)
	g.Expect(err).NotTo(HaveOccurred())
	page, err := hostGet(base + link.Path)
	g.Expect(err).NotTo(HaveOccurred())
	content := string(page)
	if i := strings.Index(content, `class="content"`); i >= 0 {
		content = content[i:]
	}
	return content
}

// clientPods are the names of the client pods of the suite's cluster that no Job owns:
// those kubectl hadoopceph starts.
func clientPods() []string {
	GinkgoHelper()
	pods := &corev1.PodList{}
	Expect(k8sClient.List(ctx, pods, client.InNamespace(namespace), client.MatchingLabels(hadoop.ClientLabels(&v1alpha1.HadoopCluster{ObjectMeta: metav1.ObjectMeta{Name: clusterName}})))).To(Succeed())
	var names []string
	for _, p := range pods.Items {
		if _, job := p.Labels["job-name"]; !job {
			names = append(names, p.Name)
		}
	}
	return names
}

// stageOf is the status of a run's stage.
func stageOf(run *v1alpha1.BenchmarkRun, stage v1alpha1.BenchmarkStage) v1alpha1.StageResult {
	GinkgoHelper()
	for _, s := range run.Status.Stages {
		if s.Stage == stage {
			return s
		}
	}
	Fail(fmt.Sprintf("run %s has no stage %s: %+v", run.Name, stage, run.Status.Stages))
	return v1alpha1.StageResult{}
}

// forwardedURLs reads the plugin's ui output until it has named n local URLs, and
// returns them by the daemon each line names.
func forwardedURLs(out io.Reader, n int) map[hadoop.Component]string {
	GinkgoHelper()
	found := map[hadoop.Component]string{}
	lines := make(chan string)
	go func() {
		defer GinkgoRecover()
		s := bufio.NewScanner(out)
		for s.Scan() {
			lines <- s.Text()
		}
		close(lines)
	}()
	link := regexp.MustCompile(`http://127\.0\.0\.1:\d+`)
	deadline := time.After(time.Minute)
	for len(found) < n {
		select {
		case line, ok := <-lines:
			Expect(ok).To(BeTrue(), "the plugin stopped after %v", found)
			GinkgoWriter.Println(line)
			u := link.FindString(line)
			switch {
			case u == "":
			case strings.Contains(line, "ResourceManager"):
				found[hadoop.ResourceManager] = u
			case strings.Contains(line, "JobHistory"):
				found[hadoop.JobHistory] = u
			}
		case <-deadline:
			Fail(fmt.Sprintf("the plugin named only %v within a minute", found))
		}
	}
	return found
}
