//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/podstatus"
)

// rpcClientLabel declares a pod an RPC client of the replicated backend's cluster
// (newReplicatedCluster), whose spec.access.clients.rpc selects it.
const rpcClientLabel = "e2e-client"

// networkPolicySpecs prove that the operator's NetworkPolicies hold where a network
// plugin enforces them: the local cluster runs kube-router's policy controller
// (hack/cluster/netpol.sh). They start the replicated backend's cluster, on the pod
// network, which the specs after them share; the ResourceManager is all the probes
// need.
func networkPolicySpecs() {
	It("lets a declared RPC client on another node reach the ResourceManager's RPC port and nothing else, and keeps other pods out", func() {
		Expect(k8sClient.Create(ctx, newReplicatedCluster())).To(Succeed())

		rm := &corev1.Pod{}
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: namespace, Name: rookReplicatedCluster + "-resourcemanager-0"}, rm)).To(Succeed())
			g.Expect(rm.Spec.HostNetwork).To(BeFalse())
			g.Expect(podstatus.Ready(rm)).To(BeTrue(), "the ResourceManager is not ready: %+v", rm.Status.Conditions)
		}).WithTimeout(5 * time.Minute).WithPolling(2 * time.Second).Should(Succeed())

		client := probePod("rpc-client", rm, map[string]string{rpcClientLabel: "rpc"})
		stranger := probePod("stranger", rm, nil)
		Expect(probeResult(client)).To(Equal(fmt.Sprintf("rpc:%d=open web:%d=closed", hadoop.PortRMClient, hadoop.PortRMWeb)),
			"a declared RPC client reaches the RPC port, not the web port")
		Expect(probeResult(stranger)).To(Equal(fmt.Sprintf("rpc:%d=closed web:%d=closed", hadoop.PortRMClient, hadoop.PortRMWeb)),
			"a pod nobody declared reaches neither")

		for _, pod := range []*corev1.Pod{client, stranger} {
			Expect(k8sClient.Delete(ctx, pod)).To(Succeed())
		}
	})
}

// probeCommand tries both ports at once: "open" once a connection is made within
// TRIES tries (a new pod's address reaches the policy controller's sets a moment after
// it starts), "closed" when none is. A dropped packet looks like a timeout, so each try
// waits 2 seconds, and the two ports are tried side by side so that a pod that may
// reach neither waits for one port's tries, not both.
const probeCommand = `
probe() {
  state=closed
  for i in $(seq 1 $TRIES); do
    if timeout 2 bash -c "exec 3<>/dev/tcp/$TARGET/$1" 2>/dev/null; then state=open; break; fi
    sleep 1
  done
  echo -n "$state" > /tmp/port-$1
}
probe $RPC_PORT & probe $WEB_PORT & wait
echo -n "rpc:$RPC_PORT=$(cat /tmp/port-$RPC_PORT) web:$WEB_PORT=$(cat /tmp/port-$WEB_PORT)" > /dev/termination-log
`

// probePod starts a pod on the pod network, with podLabels, that probes the
// ResourceManager pod rm's RPC and web ports from another node: the policy is
// enforced where the ResourceManager runs, on traffic that crossed the nodes' links.
func probePod(name string, rm *corev1.Pod, podLabels map[string]string) *corev1.Pod {
	GinkgoHelper()
	nodes := &corev1.NodeList{}
	Expect(k8sClient.List(ctx, nodes)).To(Succeed())
	other := slices.IndexFunc(nodes.Items, func(n corev1.Node) bool { return n.Name != rm.Spec.NodeName })
	Expect(other).NotTo(BeNumerically("<", 0), "no node other than the ResourceManager's %s", rm.Spec.NodeName)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, Labels: podLabels},
		Spec: corev1.PodSpec{
			NodeSelector:                  map[string]string{corev1.LabelHostname: nodes.Items[other].Labels[corev1.LabelHostname]},
			RestartPolicy:                 corev1.RestartPolicyNever,
			TerminationGracePeriodSeconds: ptr.To[int64](0),
			Containers: []corev1.Container{{
				Name:            "probe",
				Image:           rm.Spec.Containers[0].Image,
				ImagePullPolicy: corev1.PullIfNotPresent,
				Command:         []string{"/bin/bash", "-c", probeCommand},
				Env: []corev1.EnvVar{
					{Name: "TARGET", Value: rm.Status.PodIP},
					{Name: "RPC_PORT", Value: fmt.Sprint(hadoop.PortRMClient)},
					{Name: "WEB_PORT", Value: fmt.Sprint(hadoop.PortRMWeb)},
					// An open port answers within the first tries; a closed one never.
					{Name: "TRIES", Value: "10"},
				},
			}},
		},
	}
	Expect(k8sClient.Create(ctx, pod)).To(Succeed())
	return pod
}

// probeResult waits for a probe pod to finish and returns what it found.
func probeResult(pod *corev1.Pod) string {
	GinkgoHelper()
	var result string
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(pod), pod)).To(Succeed())
		g.Expect(pod.Status.ContainerStatuses).NotTo(BeEmpty())
		terminated := pod.Status.ContainerStatuses[0].State.Terminated
		g.Expect(terminated).NotTo(BeNil(), "the probe is still running")
		result = terminated.Message
	}).WithTimeout(3 * time.Minute).WithPolling(2 * time.Second).Should(Succeed())
	return result
}
