//go:build e2e

package e2e

import (
	"encoding/json"
	"net/http"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// queueSpecs change the suite's cluster's queues through the HadoopCluster and watch
// the ResourceManager take each change without a restart: a queue added, used,
// stopped and removed, which leaves the cluster as it was for the specs that follow.
func queueSpecs() {
	It("adds, stops and removes a queue without restarting the ResourceManager", func() {
		rm := resourceManagerPod()

		By("adding a queue")
		queues := []v1alpha1.Queue{{Name: "default", Capacity: 90}, {Name: "batch", Capacity: 10}}
		applyQueues(queues, map[string]string{"default": "RUNNING", "batch": "RUNNING"})

		By("submitting to it, as a submitter")
		id, status, body := submitProbeTo(submitter, "batch")
		Expect(status).To(Equal(http.StatusAccepted), "%s", body)
		data, err := resourceManagerGet(clusterName, "/ws/v1/cluster/apps/"+id+"?user.name=hadoop")
		Expect(err).NotTo(HaveOccurred())
		var app struct {
			App struct {
				Queue string `json:"queue"`
			} `json:"app"`
		}
		Expect(json.Unmarshal(data, &app)).To(Succeed())
		// Hadoop 3.4 names a queue by its path.
		Expect(app.App.Queue).To(Equal("root.batch"))

		By("stopping it, then removing it, as YARN requires")
		removeQueues(queues)

		now := resourceManagerPod()
		Expect(now.UID).To(Equal(rm.UID), "the ResourceManager's pod was replaced")
		for _, c := range now.Status.ContainerStatuses {
			Expect(c.RestartCount).To(BeZero(), "container %s restarted", c.Name)
		}
	})
}

// applyQueues sets the suite's cluster's queues and waits until the ResourceManager
// has them in the states of want.
func applyQueues(queues []v1alpha1.Queue, want map[string]string) {
	GinkgoHelper()
	setQueues(queues)
	Eventually(yarnQueues).WithTimeout(3 * time.Minute).WithPolling(5 * time.Second).Should(Equal(want))
}

// removeQueues takes the suite's cluster back to its default queue alone from queues,
// as YARN requires: every other queue stopped first, then removed.
func removeQueues(queues []v1alpha1.Queue) {
	GinkgoHelper()
	stopped := slices.Clone(queues)
	want := map[string]string{}
	for i := range stopped {
		want[stopped[i].Name] = "RUNNING"
		if stopped[i].Name != "default" {
			stopped[i].State = v1alpha1.QueueStopped
			want[stopped[i].Name] = "STOPPED"
		}
	}
	applyQueues(stopped, want)
	applyQueues(nil, map[string]string{"default": "RUNNING"})
}

func setQueues(queues []v1alpha1.Queue) {
	GinkgoHelper()
	Eventually(func(g Gomega) {
		hc := &v1alpha1.HadoopCluster{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: clusterName}, hc)).To(Succeed())
		hc.Spec.YARN.Queues = queues
		g.Expect(k8sClient.Update(ctx, hc)).To(Succeed())
	}).Should(Succeed())
}

// yarnQueues are the ResourceManager's queues under root and their states.
func yarnQueues(g Gomega) map[string]string {
	data, err := resourceManagerGet(clusterName, "/ws/v1/cluster/scheduler")
	g.Expect(err).NotTo(HaveOccurred())
	var out struct {
		Scheduler struct {
			Info struct {
				Queues struct {
					Queue []struct {
						Name  string `json:"queueName"`
						State string `json:"state"`
					} `json:"queue"`
				} `json:"queues"`
			} `json:"schedulerInfo"`
		} `json:"scheduler"`
	}
	g.Expect(json.Unmarshal(data, &out)).To(Succeed())
	queues := map[string]string{}
	for _, q := range out.Scheduler.Info.Queues.Queue {
		queues[q.Name] = q.State
	}
	return queues
}

func resourceManagerPod() *corev1.Pod {
	GinkgoHelper()
	pod := &corev1.Pod{}
	Expect(k8sClient.Get(ctx, types.NamespacedName{Namespace: namespace, Name: clusterName + "-resourcemanager-0"}, pod)).To(Succeed())
	return pod
}
