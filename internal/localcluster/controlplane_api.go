package localcluster

import (
	"context"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// What the first node's start writes through the API server, each idempotent.

// apiServerKubeletClientBinding lets the API server's own client identity towards the
// kubelets read logs and exec.
func apiServerKubeletClientBinding(ctx context.Context, c kubernetes.Interface) error {
	return ensureClusterRoleBinding(ctx, c, &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "hco-apiserver-kubelet-client"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "system:kubelet-api-admin"},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: "kube-apiserver-kubelet-client"}},
	})
}

// coreDNSRBAC: CoreDNS reads Services, their EndpointSlices and namespaces with an
// identity of its own.
func coreDNSRBAC(ctx context.Context, c kubernetes.Interface) error {
	role := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: CoreDNSUser},
		Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{""}, Resources: []string{"services", "namespaces"}, Verbs: []string{"list", "watch"}},
			{APIGroups: []string{"discovery.k8s.io"}, Resources: []string{"endpointslices"}, Verbs: []string{"list", "watch"}},
		},
	}
	cur, err := c.RbacV1().ClusterRoles().Get(ctx, role.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		if _, err := c.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil {
			return err
		}
	case err != nil:
		return err
	default:
		cur.Rules = role.Rules
		if _, err := c.RbacV1().ClusterRoles().Update(ctx, cur, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	return ensureClusterRoleBinding(ctx, c, &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: CoreDNSUser},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: CoreDNSUser},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: CoreDNSUser}},
	})
}

// ensureClusterRoleBinding creates b, or gives an existing one b's subjects (a role
// reference cannot change).
func ensureClusterRoleBinding(ctx context.Context, c kubernetes.Interface, b *rbacv1.ClusterRoleBinding) error {
	cur, err := c.RbacV1().ClusterRoleBindings().Get(ctx, b.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		_, err = c.RbacV1().ClusterRoleBindings().Create(ctx, b, metav1.CreateOptions{})
		return err
	case err != nil:
		return err
	case slices.Equal(cur.Subjects, b.Subjects):
		return nil
	}
	cur.Subjects = b.Subjects
	_, err = c.RbacV1().ClusterRoleBindings().Update(ctx, cur, metav1.UpdateOptions{})
	return err
}

// ServiceProxyNameLabel tells kube-proxy that another proxy serves a Service.
const ServiceProxyNameLabel = "service.kubernetes.io/service-proxy-name"

// labelKubernetesService: the kubernetes Service has no endpoints (the API server
// listens on loopback only), for which kube-proxy would reject every connection; the
// label says the first node's service proxy serves it.
func labelKubernetesService(ctx context.Context, c kubernetes.Interface) error {
	svc, err := c.CoreV1().Services("default").Get(ctx, "kubernetes", metav1.GetOptions{})
	if err != nil {
		return err
	}
	if svc.Labels[ServiceProxyNameLabel] == "kubernetes-service-proxy" {
		return nil
	}
	if svc.Labels == nil {
		svc.Labels = map[string]string{}
	}
	svc.Labels[ServiceProxyNameLabel] = "kubernetes-service-proxy"
	_, err = c.CoreV1().Services("default").Update(ctx, svc, metav1.UpdateOptions{})
	return err
}

// untaintUninitialized: a node registered by an older version, with
// --cloud-provider=external, keeps this taint, and no cloud controller runs to lift it.
func untaintUninitialized(ctx context.Context, c kubernetes.Interface, name string) error {
	node, err := c.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	kept := slices.DeleteFunc(slices.Clone(node.Spec.Taints), func(t corev1.Taint) bool {
		return t.Key == "node.cloudprovider.kubernetes.io/uninitialized"
	})
	if len(kept) == len(node.Spec.Taints) {
		return nil
	}
	node.Spec.Taints = kept
	_, err = c.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
	return err
}

func nodeIsReady(ctx context.Context, c kubernetes.Interface, name string) error {
	node, err := c.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if !nodeReady(node) {
		return fmt.Errorf("node %s is not Ready", name)
	}
	return nil
}

func serviceAccountExists(ctx context.Context, c kubernetes.Interface, namespace, name string) error {
	_, err := c.CoreV1().ServiceAccounts(namespace).Get(ctx, name, metav1.GetOptions{})
	return err
}
