//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/podstatus"
)

// The device plugin's spec: no machine here has an RDMA NIC, so the e2e suite's own
// device plugin of fake devices (test/tools/device-plugin, the test-devices image that
// hack/local/up.sh pushes) advertises them on one worker, and a HadoopCluster requests
// them as it would a real plugin's.
const (
	// devicesNamespace holds the plugin's DaemonSet. It carries the suite's label, so a
	// run that was interrupted leaves nothing the next one does not remove, and
	// dumpState reads its pods' logs.
	devicesNamespace = "e2e-devices"
	// devicesLabel marks the node the plugin runs on.
	devicesLabel = "hadoopceph.io/test-devices"
	// rdmaDevice is the resource the NodeManagers request; the plugin advertises one
	// device of it, so of two NodeManagers one must wait. vfDevice, two of them, is
	// advertised beside it and requested by nobody.
	rdmaDevice     = "hadoopceph.io/rdma"
	vfDevice       = "hadoopceph.io/sriov_vf"
	devicesBackend = "devices"
	devicesCluster = "devices"
)

// capIPCLock is CAP_IPC_LOCK's bit in /proc/<pid>/status's capability masks.
const capIPCLock = 14

func deviceSpecs() {
	It("schedules NodeManagers that request a device plugin's extended resource only on the node that advertises it, gives each its device and IPC_LOCK, and reports the one left without a device as waiting for that resource", func() {
		image := readEnvFile(filepath.Join(filepath.Dir(cephDir()), "cluster", "registry-images.env"))["TEST_DEVICES_IMAGE"]
		Expect(image).NotTo(BeEmpty(), "no TEST_DEVICES_IMAGE in the cluster's registry-images.env: hack/local/up.sh (make e2e) pushes the test-devices image")

		nodes := &corev1.NodeList{}
		Expect(k8sClient.List(ctx, nodes)).To(Succeed())
		node := devicesNode(nodes.Items)
		By("labelling node " + node + " alone " + devicesLabel + "=rdma")
		labelOnly(nodes.Items, node)
		DeferCleanup(func() { labelOnly(nodes.Items, "") })

		By("running the device plugin there as a DaemonSet: " + rdmaDevice + "=1, " + vfDevice + "=2")
		startDevicePlugin(image)
		Eventually(func(g Gomega) {
			all := &corev1.NodeList{}
			g.Expect(k8sClient.List(ctx, all)).To(Succeed())
			for _, n := range all.Items {
				rdma, vf := allocatable(n, rdmaDevice), allocatable(n, vfDevice)
				if n.Name == node {
					g.Expect([]int64{rdma, vf}).To(Equal([]int64{1, 2}), "node %s's allocatable %s and %s", n.Name, rdmaDevice, vfDevice)
				} else {
					// A node where a plugin ran before keeps the resource at zero.
					g.Expect([]int64{rdma, vf}).To(Equal([]int64{0, 0}), "node %s has no device plugin", n.Name)
				}
			}
		}).WithTimeout(2 * time.Minute).Should(Succeed())

		By("starting a HadoopCluster of two NodeManagers that request one " + rdmaDevice + " each")
		createOwnBackend(devicesBackend, namespace+"-devices")
		hc := newDevicesCluster()
		Expect(k8sClient.Create(ctx, hc)).To(Succeed())
		DeferCleanup(func() { deleteCluster(devicesCluster) })

		By("one NodeManager runs on " + node + ", the other waits for a device")
		var running, pending corev1.Pod
		Eventually(func(g Gomega) {
			pods := &corev1.PodList{}
			g.Expect(k8sClient.List(ctx, pods, client.InNamespace(namespace), client.MatchingLabels(hadoop.SelectorLabels(hc, hadoop.NodeManager)))).To(Succeed())
			g.Expect(pods.Items).To(HaveLen(2))
			for _, p := range pods.Items {
				if p.Spec.NodeName != "" {
					g.Expect(p.Spec.NodeName).To(Equal(node), "pod %s runs only where the device is", p.Name)
				}
			}
			i := slices.IndexFunc(pods.Items, func(p corev1.Pod) bool { return p.Spec.NodeName != "" })
			g.Expect(i).NotTo(BeNumerically("<", 0), "no NodeManager was scheduled")
			running, pending = pods.Items[i], pods.Items[1-i]
			g.Expect(podstatus.Ready(&running)).To(BeTrue(), "NodeManager %s is not ready: %+v", running.Name, running.Status.Conditions)
			scheduled := podScheduledCondition(&pending)
			g.Expect(scheduled).NotTo(BeNil(), "pod %s has no PodScheduled condition", pending.Name)
			g.Expect(scheduled.Reason).To(Equal(corev1.PodReasonUnschedulable))
			g.Expect(scheduled.Message).To(ContainSubstring("Insufficient "+rdmaDevice), "the scheduler names the missing device")
			GinkgoWriter.Printf("%s is pending: %s\n", pending.Name, scheduled.Message)
		}).WithTimeout(5 * time.Minute).Should(Succeed())

		By("the HadoopCluster says that a NodeManager waits for " + rdmaDevice)
		Eventually(func(g Gomega) {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(hc), hc)).To(Succeed())
			nms := meta.FindStatusCondition(hc.Status.Conditions, v1alpha1.ConditionNodeManagersReady)
			g.Expect(nms).NotTo(BeNil())
			g.Expect(nms.Status).To(Equal(metav1.ConditionFalse))
			g.Expect(nms.Reason).To(Equal(v1alpha1.ReasonUnschedulable))
			g.Expect(nms.Message).To(ContainSubstring(pending.Name))
			g.Expect(nms.Message).To(ContainSubstring("Insufficient " + rdmaDevice))
			ready := meta.FindStatusCondition(hc.Status.Conditions, v1alpha1.ConditionReady)
			g.Expect(ready).NotTo(BeNil())
			g.Expect(ready.Reason).To(Equal(v1alpha1.ReasonUnschedulable), "Ready summarises NodeManagersReady")
			// A node offers the device: what waits is a free one, not a plugin.
			g.Expect(meta.IsStatusConditionTrue(hc.Status.Conditions, v1alpha1.ConditionNetworkReady)).To(BeTrue(), "%+v", hc.Status.Conditions)
			g.Expect(hc.Status.ReadyNodeManagers).To(Equal(int32(1)))
			AddReportEntry("a HadoopCluster's NodeManagersReady with one RDMA device for two NodeManagers", nms.Message)
		}).WithTimeout(2 * time.Minute).Should(Succeed())

		By("the running NodeManager requests the device, holds it, and has IPC_LOCK in its bounding set")
		i := slices.IndexFunc(running.Spec.Containers, func(c corev1.Container) bool { return c.Name == string(hadoop.NodeManager) })
		Expect(i).NotTo(BeNumerically("<", 0), "pod %s has no %s container", running.Name, hadoop.NodeManager)
		c := running.Spec.Containers[i]
		Expect(c.Resources.Limits).To(HaveKeyWithValue(corev1.ResourceName(rdmaDevice), resource.MustParse("1")))
		Expect(c.SecurityContext.Capabilities.Add).To(ContainElement(corev1.Capability("IPC_LOCK")), "IPC_LOCK is added for a resource named rdma")
		seen := nodeManagerProcess(running.Name)
		Expect(seen["device"]).To(Equal("rdma-0"), "the plugin's Allocate named the device in %s", "HCO_TEST_DEVICES_RDMA")
		Expect(capability(seen["CapBnd"], capIPCLock)).To(BeTrue(), "CAP_IPC_LOCK in the bounding set %s", seen["CapBnd"])
		// The daemons run as a non-root user without ambient capabilities, so the
		// capability is not in the effective set: RDMA then relies on the memlock limit,
		// which the container inherits from the node's container runtime
		// (docs/hadoopcluster.md#networking).
		AddReportEntry("the RDMA NodeManager's process: effective capabilities, CAP_IPC_LOCK among them, and its memlock limit (soft, hard)",
			seen["CapEff"]+", "+strconv.FormatBool(capability(seen["CapEff"], capIPCLock))+", "+seen["memlock"])
	})
}

// devicesNode is the worker the plugin runs on: the first by name of the nodes other
// than the first node, which runs the control plane, the operator and the
// ResourceManager.
func devicesNode(nodes []corev1.Node) string {
	GinkgoHelper()
	first := firstNode().Name
	var workers []string
	for _, n := range nodes {
		if n.Name != first {
			workers = append(workers, n.Name)
		}
	}
	Expect(workers).NotTo(BeEmpty(), "the device plugin runs on a worker, and the cluster has none")
	slices.Sort(workers)
	return workers[0]
}

// labelOnly sets devicesLabel on the node named and removes it from the others (from
// all of them for ""), such as one a run that was interrupted labelled.
func labelOnly(nodes []corev1.Node, name string) {
	GinkgoHelper()
	for _, n := range nodes {
		current := &corev1.Node{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Name: n.Name}, current)).To(Succeed())
		_, has := current.Labels[devicesLabel]
		if has == (n.Name == name) {
			continue
		}
		patch := client.MergeFrom(current.DeepCopy())
		if n.Name == name {
			if current.Labels == nil {
				current.Labels = map[string]string{}
			}
			current.Labels[devicesLabel] = "rdma"
		} else {
			delete(current.Labels, devicesLabel)
		}
		Expect(k8sClient.Patch(ctx, current, patch)).To(Succeed())
	}
}

// allocatable is the count of an extended resource a node offers, 0 where it has none.
func allocatable(n corev1.Node, name string) int64 {
	q, ok := n.Status.Allocatable[corev1.ResourceName(name)]
	if !ok {
		return 0
	}
	return q.Value()
}

// startDevicePlugin runs the device plugin's DaemonSet in its namespace on the
// labelled node, as root, which writes its sockets into the kubelet's directory; no
// capability is needed. Cleanup deletes the namespace: the plugin, stopped, removes
// its sockets, and the kubelet then offers none of its devices.
func startDevicePlugin(image string) {
	GinkgoHelper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: devicesNamespace, Labels: map[string]string{suiteNamespaceLabel: "true"}}}
	Expect(k8sClient.Create(ctx, ns)).To(Succeed())
	DeferCleanup(func() {
		Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, ns))).To(Succeed())
		Eventually(func() error {
			return k8sClient.Get(ctx, client.ObjectKeyFromObject(ns), &corev1.Namespace{})
		}).WithTimeout(2*time.Minute).Should(Satisfy(apierrors.IsNotFound), "namespace %s is gone", devicesNamespace)
	})
	labels := map[string]string{"app.kubernetes.io/name": "test-devices"}
	const dir = "/var/lib/kubelet/device-plugins"
	ds := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "test-devices", Namespace: devicesNamespace},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					NodeSelector: map[string]string{devicesLabel: "rdma"},
					Containers: []corev1.Container{{
						Name:            "device-plugin",
						Image:           image,
						ImagePullPolicy: corev1.PullIfNotPresent,
						Args:            []string{"--resource", rdmaDevice + "=1", "--resource", vfDevice + "=2", "--device-plugins-dir", dir},
						SecurityContext: &corev1.SecurityContext{
							RunAsUser:                ptr.To[int64](0),
							AllowPrivilegeEscalation: ptr.To(false),
							ReadOnlyRootFilesystem:   ptr.To(true),
							Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
						},
						VolumeMounts: []corev1.VolumeMount{{Name: "device-plugins", MountPath: dir}},
					}},
					Volumes: []corev1.Volume{{Name: "device-plugins", VolumeSource: corev1.VolumeSource{
						HostPath: &corev1.HostPathVolumeSource{Path: dir, Type: ptr.To(corev1.HostPathDirectory)},
					}}},
				},
			},
		},
	}
	Expect(k8sClient.Create(ctx, ds)).To(Succeed())
}

// createOwnBackend makes a spec's own StorageBackend on the local Ceph, on a
// subvolume group of its own, so the spec needs none of the story's before it.
// Cleanup deletes it after the cluster (DeferCleanup runs last in, first out).
func createOwnBackend(name, group string) {
	GinkgoHelper()
	keyring, err := os.ReadFile(filepath.Join(cephDir(), "ceph.client.hadoop.keyring"))
	Expect(err).NotTo(HaveOccurred())
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: name + "-ceph-key", Namespace: namespace},
		StringData: map[string]string{"key": keyringKey(string(keyring))},
	}
	Expect(k8sClient.Create(ctx, secret)).To(Succeed())
	sb := &v1alpha1.StorageBackend{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec: v1alpha1.StorageBackendSpec{CephFS: v1alpha1.CephFSSpec{External: &v1alpha1.ExternalCephFS{
			Monitors:       []string{localMonitor},
			FilesystemName: "cephfs",
			ClientID:       "hadoop",
			KeySecretRef:   v1alpha1.SecretKeyRef{Name: secret.Name},
			RootPath:       externalRoot(group),
		}}},
	}
	Expect(k8sClient.Create(ctx, sb)).To(Succeed())
	DeferCleanup(func() {
		Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, sb))).To(Succeed())
		Eventually(func() error {
			return k8sClient.Get(ctx, client.ObjectKeyFromObject(sb), &v1alpha1.StorageBackend{})
		}).WithTimeout(time.Minute).Should(Satisfy(apierrors.IsNotFound), "StorageBackend %s is gone", name)
		Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, secret))).To(Succeed())
	})
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(sb), sb)).To(Succeed())
		g.Expect(meta.IsStatusConditionTrue(sb.Status.Conditions, v1alpha1.ConditionReady)).To(BeTrue(), "%+v", sb.Status.Conditions)
	}).WithTimeout(time.Minute).Should(Succeed())
}

// newDevicesCluster is newClusterOn with two NodeManagers that each request one RDMA
// device, on the pod network: two of them would share a node there, so only the
// device count keeps the second off the plugin's node. The ResourceManager stays on
// the first node; no JobHistory server runs.
func newDevicesCluster() *v1alpha1.HadoopCluster {
	GinkgoHelper()
	hc := newClusterOn(devicesCluster, devicesBackend)
	hc.Spec.Network = v1alpha1.NetworkSpec{ExtendedResources: []v1alpha1.ExtendedResource{{Name: rdmaDevice, Count: 1}}}
	hc.Spec.NodeManagers.Replicas = ptr.To[int32](2)
	// newSpreadCluster's size, the least the operator takes, so that the worker's
	// memory would hold both: only the device count keeps the second off it.
	hc.Spec.NodeManagers.Resources = corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("3584Mi")},
		Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("3584Mi")},
	}
	hc.Spec.ResourceManager.PodOverrides.NodeSelector = v1alpha1.Labels{corev1.LabelHostname: v1alpha1.LabelValue(firstNode().Labels[corev1.LabelHostname])}
	hc.Spec.JobHistory = v1alpha1.JobHistorySpec{Enabled: ptr.To(false)}
	return hc
}

// nodeManagerProcess reads, inside a NodeManager pod, the device variable the plugin's
// Allocate set, and the capability sets and memlock limit of the container's first
// process, the NodeManager's start.
func nodeManagerProcess(pod string) map[string]string {
	GinkgoHelper()
	const script = `echo "device:$HCO_TEST_DEVICES_RDMA"
grep -E '^Cap(Bnd|Eff):' /proc/1/status | tr -d '\t'
awk '/^Max locked memory/ { print "memlock:" $4 " " $5 }' /proc/1/limits`
	out := mustRun(kubectl("-n", namespace, "exec", pod, "-c", string(hadoop.NodeManager), "--", "sh", "-c", script))
	seen := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			seen[k] = strings.TrimSpace(v)
		}
	}
	GinkgoWriter.Printf("NodeManager %s: %v\n", pod, seen)
	return seen
}

// capability tells whether bit is set in a capability mask of /proc/<pid>/status.
func capability(mask string, bit uint) bool {
	GinkgoHelper()
	v, err := strconv.ParseUint(mask, 16, 64)
	Expect(err).NotTo(HaveOccurred(), "capability mask %q", mask)
	return v&(1<<bit) != 0
}

func podScheduledCondition(pod *corev1.Pod) *corev1.PodCondition {
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == corev1.PodScheduled {
			return &pod.Status.Conditions[i]
		}
	}
	return nil
}
