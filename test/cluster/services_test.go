//go:build cluster

package cluster

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/repo"
)

// What the operator's pods and the suites rely on beyond reaching each other: the
// cluster DNS's answers, StatefulSet pods' names, ServiceAccount tokens, Jobs' results
// in status, and the kubelet's log files that hack/cluster/logs.sh reads.
var _ = Describe("Cluster services", Ordered, func() {
	var first, last corev1.Node

	BeforeAll(func() {
		list, err := clientset.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		Expect(err).NotTo(HaveOccurred())
		// The first node is this host, under its own name (docs/local-cluster.md).
		host, err := os.Hostname()
		Expect(err).NotTo(HaveOccurred())
		for _, n := range list.Items {
			if n.Name == strings.ToLower(host) {
				first = n
			} else {
				last = n
			}
		}
		Expect(first.Name).NotTo(BeEmpty(), "no node is named after this host, %s", host)
		Expect(last.Name).NotTo(BeEmpty(), "no worker")
	})

	It("answer a name outside the cluster NXDOMAIN from the cluster DNS, which has no upstream to wait for", func() {
		client := awaitRunning(createPod(webPod("dns-client", last.Name)))
		// busybox's nslookup exits 1 on NXDOMAIN; a resolver that timed out or got
		// SERVFAIL prints neither the code nor the name.
		out, _ := kubectl("-n", namespace, "exec", client.Name, "--", "nslookup", "-type=A", "hco-nodes.invalid").CombinedOutput()
		Expect(string(out)).To(ContainSubstring("hco-nodes.invalid: NXDOMAIN"))
	})

	It("name a StatefulSet's pod through its headless Service, from a pod on another node and from a host-network pod", func() {
		labels := map[string]string{"app": "echo"}
		_, err := clientset.CoreV1().Services(namespace).Create(ctx, &corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Name: "echo-headless", Namespace: namespace},
			Spec: corev1.ServiceSpec{
				ClusterIP: corev1.ClusterIPNone,
				Selector:  labels,
				Ports:     []corev1.ServicePort{{Port: webPort}},
			},
		}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		template := webPod("echo", last.Name)
		template.Labels = labels
		template.Spec.NodeName = ""
		template.Spec.NodeSelector = map[string]string{corev1.LabelHostname: last.Labels[corev1.LabelHostname]}
		_, err = clientset.AppsV1().StatefulSets(namespace).Create(ctx, &appsv1.StatefulSet{
			ObjectMeta: metav1.ObjectMeta{Name: "echo", Namespace: namespace},
			Spec: appsv1.StatefulSetSpec{
				ServiceName: "echo-headless",
				Replicas:    ptr(int32(1)),
				Selector:    &metav1.LabelSelector{MatchLabels: labels},
				Template:    corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: template.Spec},
			},
		}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		echo := awaitRunning(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "echo-0"}})
		Expect(echo.Spec.NodeName).To(Equal(last.Name))

		name := fmt.Sprintf("echo-0.echo-headless.%s.svc.cluster.local", namespace)
		for _, from := range []*corev1.Pod{
			awaitRunning(createPod(webPod("sts-client", first.Name))),
			awaitRunning(createPod(hostClient("sts-host-client", first.Name))),
		} {
			Eventually(func(g Gomega) {
				out, err := kubectl("-n", namespace, "exec", from.Name, "--", "nslookup", "-type=A", name).CombinedOutput()
				g.Expect(err).NotTo(HaveOccurred(), "%s", out)
				g.Expect(string(out)).To(ContainSubstring("Address: "+echo.Status.PodIP), "%s resolves %s to the pod's address", from.Name, name)
			}).WithTimeout(30 * time.Second).Should(Succeed())
			Expect(fetch(from, fmt.Sprintf("http://%s:%d/", name, webPort))).To(Equal(last.Name), "%s reaches %s", from.Name, name)
		}
	})

	It("mount a ServiceAccount token that authenticates as the pod's ServiceAccount, and keep a Job's result in its pod's termination message", func() {
		job := &batchv1.Job{
			ObjectMeta: metav1.ObjectMeta{Name: "token", Namespace: namespace},
			Spec: batchv1.JobSpec{
				BackoffLimit: ptr(int32(0)),
				Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
					RestartPolicy: corev1.RestartPolicyNever,
					NodeName:      last.Name,
					Containers: []corev1.Container{{
						Name:            "token",
						Image:           image,
						ImagePullPolicy: corev1.PullNever,
						Command:         []string{"sh", "-ec", "cat /var/run/secrets/kubernetes.io/serviceaccount/token >/dev/termination-log"},
					}},
				}},
			},
		}
		_, err := clientset.BatchV1().Jobs(namespace).Create(ctx, job, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		var token string
		Eventually(func(g Gomega) {
			pods, err := clientset.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{LabelSelector: "job-name=token"})
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(pods.Items).To(HaveLen(1))
			p := pods.Items[0]
			g.Expect(p.Status.Phase).To(Equal(corev1.PodSucceeded), "%+v", p.Status)
			g.Expect(p.Status.ContainerStatuses).To(HaveLen(1))
			terminated := p.Status.ContainerStatuses[0].State.Terminated
			g.Expect(terminated).NotTo(BeNil())
			token = terminated.Message
		}).WithTimeout(2 * time.Minute).Should(Succeed())
		Expect(token).NotTo(BeEmpty(), "the Job's termination message")

		// The token alone, with the cluster's CA: no client certificate to fall back on.
		cfg := rest.AnonymousClientConfig(restConfig)
		cfg.BearerToken = token
		as, err := kubernetes.NewForConfig(cfg)
		Expect(err).NotTo(HaveOccurred())
		review, err := as.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(review.Status.UserInfo.Username).To(Equal("system:serviceaccount:" + namespace + ":default"))
	})

	It("keep a pod's log in the first node's kubelet files, which hack/cluster/logs.sh prints as kubectl logs does", func() {
		p := awaitRunning(createPod(webPod("logged", first.Name)))
		var viaAPI []byte
		Eventually(func(g Gomega) {
			var err error
			viaAPI, err = kubectl("-n", namespace, "logs", p.Name).CombinedOutput()
			g.Expect(err).NotTo(HaveOccurred(), "%s", viaAPI)
			g.Expect(string(viaAPI)).To(ContainSubstring("serving " + first.Name))
		}).WithTimeout(30 * time.Second).Should(Succeed())
		root, err := repo.Root()
		Expect(err).NotTo(HaveOccurred())
		cmd := exec.CommandContext(ctx, root+"/hack/cluster/logs.sh", namespace, p.Name)
		fromFiles, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred(), "logs.sh: %s", stderrOf(err))
		Expect(string(fromFiles)).To(HavePrefix(strings.SplitAfter(string(viaAPI), "\n")[0]))
	})
})

// hostClient is a host-network pod that resolves cluster names and serves nothing, so
// that it takes no port of its node's.
func hostClient(name, nodeName string) *corev1.Pod {
	p := hostPod(name, nodeName)
	p.Spec.Containers[0].Command = []string{"sleep", "3600"}
	return p
}

// stderrOf is what a failed command wrote to its standard error.
func stderrOf(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(ee.Stderr)
	}
	return ""
}
