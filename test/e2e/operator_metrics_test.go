//go:build e2e

package e2e

import (
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/test/dashboards"
	"github.com/hadoopceph/hadoop-ceph-operator/test/promtext"
)

// operatorMetricsURL is the manager's /metrics at its pod's address, which the host
// routes to on whichever node it runs, over HTTPS with the chart's default
// metrics.secure.
func operatorMetricsURL() (string, error) {
	var url string
	err := InterceptGomegaFailure(func() {
		pods := operatorPods(Default)
		Expect(pods).To(HaveLen(1))
		Expect(pods[0].Status.PodIP).NotTo(BeEmpty())
		url = "https://" + net.JoinHostPort(pods[0].Status.PodIP, "8080") + "/metrics"
	})
	return url, err
}

// The chart's dashboard of the operator, whose queries must find their metrics in the
// scrape.
const operatorDashboard = "../../charts/hadoop-ceph-operator/files/dashboards/operator.json"

// operatorMetricsSpec follows the benchmark specs, whose runs it reads and deletes one
// of: the operator serves its metrics only to a token allowed to read them, publishes
// the objects' readiness, the runs' phases and the last figures, and drops a deleted
// run's series.
func operatorMetricsSpec() {
	It("serves its metrics over HTTPS to a ServiceAccount bound to the metrics-reader ClusterRole only, and drops a deleted run's series", func() {
		By("refusing a scrape without a token")
		status, _, err := scrapeOperator("")
		Expect(err).NotTo(HaveOccurred())
		Expect(status).To(Equal(http.StatusUnauthorized))

		By("refusing a ServiceAccount that is not bound to the metrics-reader ClusterRole")
		const outsider = "metrics-outsider"
		Expect(k8sClient.Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: outsider, Namespace: namespace}})).To(Succeed())
		status, _, err = scrapeOperator(serviceAccountToken(outsider))
		Expect(err).NotTo(HaveOccurred())
		Expect(status).To(Equal(http.StatusForbidden))

		By("serving one that is")
		// Another ServiceAccount than the refused one: the manager keeps a refusal for
		// 30 seconds before it asks the API server again.
		const scraper = "metrics-scraper"
		Expect(k8sClient.Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: scraper, Namespace: namespace}})).To(Succeed())
		binding := &rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: namespace + "-" + scraper},
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: operatorRelease + "-metrics-reader"},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: scraper, Namespace: namespace}},
		}
		Expect(k8sClient.Create(ctx, binding)).To(Succeed())
		DeferCleanup(func() { Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, binding))).To(Succeed()) })
		token := serviceAccountToken(scraper)
		var body string
		Eventually(func(g Gomega) {
			status, body, err = scrapeOperator(token)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(status).To(Equal(http.StatusOK))
		}).WithTimeout(time.Minute).Should(Succeed())

		scrape := parseScrape(Default, body)

		By("publishing the objects' readiness, the runs' phases and the last run's figures")
		// Read directly, not through a Prometheus, a series keeps its own namespace label.
		in := func(labels map[string]string) map[string]string {
			labels["namespace"] = namespace
			return labels
		}
		Expect(operatorSample(scrape, "hadoopceph_storagebackend_ready", in(map[string]string{"name": backendName}))).To(Equal(1.0))
		Expect(operatorSample(scrape, "hadoopceph_hadoopcluster_ready", in(map[string]string{"name": clusterName}))).To(Equal(1.0))
		dfsio := in(map[string]string{"name": "dfsio", "cluster": clusterName, "workload": string(v1alpha1.WorkloadTestDFSIO)})
		Expect(operatorSample(scrape, "hadoopceph_benchmarkrun_phase", in(map[string]string{"name": "dfsio", "phase": string(v1alpha1.BenchmarkPhaseSucceeded)}))).To(Equal(1.0))
		Expect(operatorSample(scrape, "hadoopceph_benchmarkrun_phase", in(map[string]string{"name": "dfsio", "phase": string(v1alpha1.BenchmarkPhaseFailed)}))).To(Equal(0.0))
		dfsioFigures := in(map[string]string{"cluster": clusterName, "workload": string(v1alpha1.WorkloadTestDFSIO), "stage": string(v1alpha1.StageDFSIORead)})
		Expect(operatorSample(scrape, "hadoopceph_benchmark_throughput_bytes_per_second", dfsioFigures)).To(BeNumerically(">", 0))

		By("serving every metric the chart's operator dashboard queries")
		dashboard, err := os.ReadFile(operatorDashboard)
		Expect(err).NotTo(HaveOccurred())
		used, err := dashboards.DashboardMetrics(dashboard)
		Expect(err).NotTo(HaveOccurred())
		Expect(dashboards.Missing(used, scrape.Names())).To(BeEmpty(), "metrics the operator dashboard queries that the operator does not serve")

		By("dropping the series of a deleted run, and the figures it published")
		Expect(k8sClient.Delete(ctx, &v1alpha1.BenchmarkRun{ObjectMeta: metav1.ObjectMeta{Name: "dfsio", Namespace: namespace}})).To(Succeed())
		Eventually(func(g Gomega) {
			status, body, err := scrapeOperator(token)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(status).To(Equal(http.StatusOK))
			after := parseScrape(g, body)
			_, found := after.Value("hadoopceph_benchmarkrun_phase", dfsio)
			g.Expect(found).To(BeFalse(), "the deleted run's phase")
			_, found = after.Value("hadoopceph_benchmark_throughput_bytes_per_second", dfsioFigures)
			g.Expect(found).To(BeFalse(), "the figures the deleted run published")
		}).WithTimeout(time.Minute).Should(Succeed())
	})
}

// scrapeOperator gets the operator's /metrics with a bearer token, none when empty,
// and returns the answer's status and body.
func scrapeOperator(token string) (int, string, error) {
	url, err := operatorMetricsURL()
	if err != nil {
		return 0, "", err
	}
	status, body, err := request(http.MethodGet, url, token, "")
	return status, string(body), err
}

// serviceAccountToken is a short-lived token of a ServiceAccount of the suite's
// namespace, as a scraper running under it would present.
func serviceAccountToken(name string) string {
	GinkgoHelper()
	out, err := kubectl("-n", namespace, "create", "token", name, "--duration=1h").Output()
	Expect(err).NotTo(HaveOccurred(), "kubectl create token %s", name)
	token := strings.TrimSpace(string(out))
	Expect(token).NotTo(BeEmpty())
	return token
}

// operatorSample returns the value of the first sample of metric in a scrape whose
// labels include labels, and fails the spec when there is none.
func operatorSample(exposition promtext.Exposition, metric string, labels map[string]string) float64 {
	GinkgoHelper()
	v, ok := exposition.Value(metric, labels)
	Expect(ok).To(BeTrue(), "no sample of %s with labels %v", metric, labels)
	return v
}

// parseScrape parses a scrape of the operator as Prometheus would.
func parseScrape(g Gomega, body string) promtext.Exposition {
	e, err := promtext.Parse(strings.NewReader(body))
	g.Expect(err).NotTo(HaveOccurred())
	return e
}
