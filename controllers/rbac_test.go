package controllers

import (
	"os"
	"path/filepath"

	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"
)

// The operator's identity in the envtest suite: a ServiceAccount bound to the rules of
// the chart's own ClusterRole (charts/.../files/manager-role.yaml, which the chart's
// rbac.yaml renders), which the manager impersonates. The API server then refuses a
// verb the chart does not grant, as it would on a cluster, where an administrator's
// credentials would hide it.
const (
	operatorNamespace      = "hco-envtest-operator"
	operatorServiceAccount = "hadoop-ceph-operator"
)

// asOperator binds the chart's rules to the operator's ServiceAccount with the
// suite's administrator client, and returns cfg impersonating that ServiceAccount.
func asOperator(cfg *rest.Config) *rest.Config {
	raw, err := os.ReadFile(filepath.Join("..", "charts", "hadoop-ceph-operator", "files", "manager-role.yaml"))
	Expect(err).NotTo(HaveOccurred())
	role := &rbacv1.ClusterRole{}
	Expect(yaml.Unmarshal(raw, role)).To(Succeed())
	Expect(role.Rules).NotTo(BeEmpty(), "the chart's ClusterRole has no rules")
	role.ObjectMeta = metav1.ObjectMeta{Name: "hco-envtest-manager"}

	Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: operatorNamespace}})).To(Succeed())
	Expect(k8sClient.Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: operatorNamespace, Name: operatorServiceAccount}})).To(Succeed())
	Expect(k8sClient.Create(ctx, role)).To(Succeed())
	Expect(k8sClient.Create(ctx, &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "hco-envtest-manager"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role.Name},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: operatorNamespace, Name: operatorServiceAccount}},
	})).To(Succeed())

	out := rest.CopyConfig(cfg)
	out.Impersonate = rest.ImpersonationConfig{
		UserName: "system:serviceaccount:" + operatorNamespace + ":" + operatorServiceAccount,
		Groups:   []string{"system:serviceaccounts", "system:serviceaccounts:" + operatorNamespace, "system:authenticated"},
	}
	return out
}
