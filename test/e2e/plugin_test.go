//go:build e2e

package e2e

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/report"
)

// reportFiles are what `kubectl hadoopceph report` writes.
var reportFiles = []string{"report.md", "report.html", "stage-times.svg", "stage-times.png", "throughput.svg", "throughput.png"}

// pluginSpecs run the kubectl plugin as a user does, `kubectl hadoopceph` with the
// binary on PATH (make e2e builds it into bin/), on what the HDFS specs left: the
// TeraSort on HDFS and the one on CephFS that took it as its baseline.
func pluginSpecs() {
	It("lists, compares and draws the TeraSorts on HDFS and CephFS, shows YARN through the API server and prints a stage's output", func() {
		By("listing the runs with their stages and the ratio to the baseline")
		runs := mustRun(kubectl("hadoopceph", "-n", namespace, "runs"))
		GinkgoWriter.Println(runs)
		onCeph := &v1alpha1.BenchmarkRun{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: cephVsHDFSSort}, onCeph)).To(Succeed())
		Expect(onCeph.Status.Baseline).NotTo(BeNil())
		Expect(lineOf(runs, cephVsHDFSSort)).To(And(ContainSubstring("terasort="), ContainSubstring(hdfsTeraSort), ContainSubstring(onCeph.Status.Baseline.Ratio)))
		Expect(lineOf(runs, hdfsTeraSort)).To(ContainSubstring("Succeeded"))

		By("comparing them side by side, HDFS first")
		table := mustRun(kubectl("hadoopceph", "-n", namespace, "compare", hdfsTeraSort, cephVsHDFSSort))
		GinkgoWriter.Println(table)
		for _, want := range []string{hdfsTeraSort, cephVsHDFSSort, "teragen", "terasort", "teravalidate"} {
			Expect(table).To(ContainSubstring(want))
		}
		var cmp report.Comparison
		// Standard output alone: a warning from the API server goes to standard error.
		data, err := kubectl("hadoopceph", "-n", namespace, "compare", hdfsTeraSort, cephVsHDFSSort, "-o", "json").Output()
		Expect(err).NotTo(HaveOccurred())
		Expect(json.Unmarshal(data, &cmp)).To(Succeed())
		Expect(cmp.Runs).To(HaveLen(2))
		Expect(cmp.Runs[0].Name).To(Equal(hdfsTeraSort))
		Expect(cmp.Runs[1].Name).To(Equal(cephVsHDFSSort))
		Expect(cmp.Stages).To(ContainElement(HaveField("Stage", v1alpha1.StageTeraSort)))

		By("refusing a run that has not succeeded, and saying why")
		pending := newRunOn("never-runs", "no-such-cluster")
		pending.Spec.TeraSort = &v1alpha1.TeraSortWorkload{Rows: onCeph.Spec.TeraSort.Rows}
		Expect(k8sClient.Create(ctx, pending)).To(Succeed())
		DeferCleanup(func() { Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, pending))).To(Succeed()) })
		out, err := kubectl("hadoopceph", "-n", namespace, "compare", hdfsTeraSort, "never-runs").CombinedOutput()
		Expect(err).To(HaveOccurred(), "%s", out)
		var exit *exec.ExitError
		Expect(errors.As(err, &exit)).To(BeTrue())
		Expect(string(out)).To(And(ContainSubstring("never-runs"), ContainSubstring("has not succeeded")))

		By("writing the report: Markdown, HTML and bar charts as SVG and PNG")
		dir := GinkgoT().TempDir()
		listed := mustRun(kubectl("hadoopceph", "-n", namespace, "report", hdfsTeraSort, cephVsHDFSSort, "--out", dir))
		for _, name := range reportFiles {
			path := filepath.Join(dir, name)
			Expect(listed).To(ContainSubstring(path))
			data, err := os.ReadFile(path)
			Expect(err).NotTo(HaveOccurred())
			switch filepath.Ext(name) {
			case ".md", ".html":
				Expect(string(data)).To(And(ContainSubstring(hdfsTeraSort), ContainSubstring(cephVsHDFSSort)), name)
			case ".svg":
				Expect(wellFormedXML(data)).To(Succeed(), name)
				Expect(string(data)).To(ContainSubstring("terasort"), name)
			case ".png":
				img, err := png.Decode(strings.NewReader(string(data)))
				Expect(err).NotTo(HaveOccurred(), name)
				Expect(img.Bounds().Dx()).To(BeNumerically(">", 400), name)
			}
		}
		// The pictures in docs/benchmarking.md come from here: E2E_REPORT_DIR names
		// where a run of the suite leaves a copy.
		if keep := os.Getenv("E2E_REPORT_DIR"); keep != "" {
			Expect(os.MkdirAll(keep, 0o755)).To(Succeed())
			for _, name := range reportFiles {
				data, err := os.ReadFile(filepath.Join(dir, name))
				Expect(err).NotTo(HaveOccurred())
				Expect(os.WriteFile(filepath.Join(keep, name), data, 0o644)).To(Succeed())
			}
		}

		By("asking the suite's cluster's ResourceManager for its nodes, queues and applications through the API server")
		status := mustRun(kubectl("hadoopceph", "-n", namespace, "status", clusterName, "--all"))
		GinkgoWriter.Println(status)
		Expect(status).To(ContainSubstring("Ready=True"))
		Expect(status).To(MatchRegexp(`(?m)^\S+:\d+\s+RUNNING\s`), "a RUNNING NodeManager")
		Expect(status).To(ContainSubstring("root.default"))
		Expect(status).To(ContainSubstring("TeraSort"), "the suite's finished TeraSort applications, listed with --all")

		By("printing the sort stage's output")
		logs := mustRun(kubectl("hadoopceph", "-n", namespace, "logs", cephVsHDFSSort, "terasort"))
		GinkgoWriter.Println(logs)
		Expect(logs).To(HavePrefix("==> terasort r1: pod " + cephVsHDFSSort + "-terasort-r1-"))
		Expect(logs).To(ContainSubstring("completed successfully"), "the Hadoop job client's last word")
	})
}

// lineOf is the line of a table that starts with name.
func lineOf(table, name string) string {
	for _, line := range strings.Split(table, "\n") {
		if strings.HasPrefix(line, name+" ") {
			return line
		}
	}
	return ""
}

// wellFormedXML reads data to its end as XML.
func wellFormedXML(data []byte) error {
	dec := xml.NewDecoder(strings.NewReader(string(data)))
	for {
		if _, err := dec.Token(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}
