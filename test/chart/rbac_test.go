package chart

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/util/sets"
)

// The resources of the generated rules, by group/resource ("" is the core group). A
// resource in neither set fails TestRulesAreClassified: a new RBAC marker must be
// placed here, and a cluster-scoped one also in the chart's managerRules helper, or
// the chart would grant it in Roles, where it has no effect.
var (
	clusterScoped = sets.New("/namespaces", "/nodes",
		"authentication.k8s.io/tokenreviews", "authorization.k8s.io/subjectaccessreviews")
	namespaced = sets.New(
		"/configmaps", "/pods", "/podtemplates", "/secrets", "/serviceaccounts", "/services",
		"apps/statefulsets", "batch/jobs", "events.k8s.io/events", "policy/poddisruptionbudgets",
		"ceph.rook.io/cephclients", "ceph.rook.io/cephclusters", "ceph.rook.io/cephfilesystems",
		"ceph.rook.io/cephfilesystemsubvolumegroups",
		"hadoopceph.io/benchmarkruns", "hadoopceph.io/hadoopclusters", "hadoopceph.io/storagebackends",
		"k8s.cni.cncf.io/network-attachment-definitions",
		"monitoring.coreos.com/podmonitors", "networking.k8s.io/networkpolicies",
		"rbac.authorization.k8s.io/roles", "rbac.authorization.k8s.io/rolebindings",
	)
	readVerbs = sets.New("get", "list", "watch")
)

const rookGroup = "ceph.rook.io"

// permission is one verb on one resource (or subresource) of one group.
type permission struct{ group, resource, verb string }

// kind is the permission's resource without subresource, as group/resource.
func (p permission) kind() string {
	resource, _, _ := strings.Cut(p.resource, "/")
	return p.group + "/" + resource
}

func (p permission) String() string { return p.group + "/" + p.resource + ":" + p.verb }

func permissions(t *testing.T, rules []rbacv1.PolicyRule) sets.Set[permission] {
	t.Helper()
	out := sets.New[permission]()
	for _, r := range rules {
		if len(r.ResourceNames) > 0 || len(r.NonResourceURLs) > 0 {
			t.Fatalf("rule %+v names resources or non-resource URLs, which neither these tests nor managerRules in the chart's _helpers.tpl handle yet", r)
		}
		for _, g := range r.APIGroups {
			for _, res := range r.Resources {
				for _, v := range r.Verbs {
					out.Insert(permission{g, res, v})
				}
			}
		}
	}
	return out
}

// generated returns the manager's rules as controller-gen wrote them.
func generated(t *testing.T) []rbacv1.PolicyRule {
	t.Helper()
	role := decodeAs[rbacv1.ClusterRole](t, decode(t, string(readFile(t, "config", "rbac", "role.yaml")))[0])
	if len(role.Rules) == 0 {
		t.Fatal("config/rbac/role.yaml holds no rules")
	}
	return role.Rules
}

func TestRulesAreClassified(t *testing.T) {
	for p := range permissions(t, generated(t)) {
		if clusterScoped.Has(p.kind()) == namespaced.Has(p.kind()) {
			t.Errorf("%s is in config/rbac/role.yaml: classify it in rbac_test.go (and, if it has no namespace, in managerRules of charts/hadoop-ceph-operator/templates/_helpers.tpl)", p.kind())
		}
	}
}

func TestClusterWideRBAC(t *testing.T) {
	ms := render(t)
	role := get[rbacv1.ClusterRole](t, ms, "ClusterRole", "", fullname+"-manager")
	if diff := cmp.Diff(generated(t), role.Rules); diff != "" {
		t.Errorf("ClusterRole rules differ from config/rbac/role.yaml (-generated +chart); run hack/sync-chart.sh:\n%s", diff)
	}
	if diff := cmp.Diff([]string{fullname + "-manager", fullname + "-metrics-reader"}, ms.all("ClusterRole").names()); diff != "" {
		t.Errorf("ClusterRoles (-want +got):\n%s", diff)
	}
	expectBound(t, ms, "ClusterRoleBinding", "", fullname+"-manager", "ClusterRole")
	if roles := ms.all("Role"); len(roles) != 1 || roles[0].Name != fullname+"-leader-election" {
		t.Errorf("rendered Roles %s, want only the leader election Role", roles)
	}
}

func TestWatchedNamespacesRBAC(t *testing.T) {
	cases := []struct {
		name          string
		args          []string
		watched, rook []string
	}{{
		name:    "Rook namespaces apart",
		args:    []string{"--values", watchedValues},
		watched: []string{"team-a", "team-b"},
		rook:    []string{"rook-ceph", "rook-archive"},
	}, {
		name:    "a watched Rook namespace",
		args:    []string{"--set", "watchNamespaces={team-a,rook-ceph}"},
		watched: []string{"team-a", "rook-ceph"},
		rook:    []string{"rook-ceph"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ms := render(t, c.args...)
			all := permissions(t, generated(t))

			if diff := cmp.Diff([]string{fullname + "-manager-cluster", fullname + "-metrics-reader"}, ms.all("ClusterRole").names()); diff != "" {
				t.Fatalf("ClusterRoles (-want +got):\n%s", diff)
			}
			cluster := permissions(t, get[rbacv1.ClusterRole](t, ms, "ClusterRole", "", fullname+"-manager-cluster").Rules)
			want := filter(all, func(p permission) bool { return clusterScoped.Has(p.kind()) })
			expectPermissions(t, "the ClusterRole", want, cluster)
			expectBound(t, ms, "ClusterRoleBinding", "", fullname+"-manager-cluster", "ClusterRole")
			granted := cluster.Clone()

			watched, rook := sets.New(c.watched...), sets.New(c.rook...)
			for _, ns := range sets.List(watched.Union(rook)) {
				role := get[rbacv1.Role](t, ms, "Role", ns, fullname+"-manager")
				got := permissions(t, role.Rules)
				want := filter(all, func(p permission) bool {
					if !namespaced.Has(p.kind()) {
						return false
					}
					read := readVerbs.Has(p.verb)
					// The operator writes Rook's objects in Rook namespaces only, and
					// everything else in watched namespaces only.
					return read || (watched.Has(ns) && p.group != rookGroup) || (rook.Has(ns) && p.group == rookGroup)
				})
				expectPermissions(t, "the Role in "+ns, want, got)
				expectBound(t, ms, "RoleBinding", ns, fullname+"-manager", "Role")
				granted = granted.Union(got)
			}
			if lost := all.Difference(granted); lost.Len() > 0 {
				t.Errorf("no Role or ClusterRole grants %v", sortedPermissions(lost))
			}
			for _, r := range ms.all("Role") {
				if !watched.Has(r.Namespace) && !rook.Has(r.Namespace) && r.Name != fullname+"-leader-election" {
					t.Errorf("Role %s/%s in a namespace the manager does not cache", r.Namespace, r.Name)
				}
			}
		})
	}
}

// Two things the watched-namespace Roles must not allow, spelled out.
func TestWatchedNamespacesLeastPrivilege(t *testing.T) {
	ms := render(t, "--values", watchedValues)
	rook := permissions(t, get[rbacv1.Role](t, ms, "Role", "rook-archive", fullname+"-manager").Rules)
	if w := filter(rook, func(p permission) bool { return p.resource == "secrets" && !readVerbs.Has(p.verb) }); w.Len() > 0 {
		t.Errorf("the operator may write Secrets in a Rook namespace it only reads them in: %v", sortedPermissions(w))
	}
	team := permissions(t, get[rbacv1.Role](t, ms, "Role", "team-a", fullname+"-manager").Rules)
	if w := filter(team, func(p permission) bool { return p.group == rookGroup && !readVerbs.Has(p.verb) }); w.Len() > 0 {
		t.Errorf("the operator may write Rook's objects in a namespace without a CephCluster: %v", sortedPermissions(w))
	}
}

func filter(s sets.Set[permission], keep func(permission) bool) sets.Set[permission] {
	out := sets.New[permission]()
	for p := range s {
		if keep(p) {
			out.Insert(p)
		}
	}
	return out
}

func sortedPermissions(s sets.Set[permission]) []string {
	out := make([]string, 0, s.Len())
	for p := range s {
		out = append(out, p.String())
	}
	slices.Sort(out)
	return out
}

func expectPermissions(t *testing.T, what string, want, got sets.Set[permission]) {
	t.Helper()
	if extra := got.Difference(want); extra.Len() > 0 {
		t.Errorf("%s grants more than it should: %v", what, sortedPermissions(extra))
	}
	if missing := want.Difference(got); missing.Len() > 0 {
		t.Errorf("%s lacks %v", what, sortedPermissions(missing))
	}
}

// expectBound checks that a binding gives the role of its own name to the manager's
// ServiceAccount.
func expectBound(t *testing.T, ms manifests, kind, ns, name, roleKind string) {
	t.Helper()
	sa := deployment(t, ms).Spec.Template.Spec.ServiceAccountName
	var roleRef rbacv1.RoleRef
	var subjects []rbacv1.Subject
	if kind == "ClusterRoleBinding" {
		b := get[rbacv1.ClusterRoleBinding](t, ms, kind, ns, name)
		roleRef, subjects = b.RoleRef, b.Subjects
	} else {
		b := get[rbacv1.RoleBinding](t, ms, kind, ns, name)
		roleRef, subjects = b.RoleRef, b.Subjects
	}
	if diff := cmp.Diff(rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: roleKind, Name: name}, roleRef); diff != "" {
		t.Errorf("%s %s/%s roleRef (-want +got):\n%s", kind, ns, name, diff)
	}
	if diff := cmp.Diff([]rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: sa, Namespace: namespace}}, subjects); diff != "" {
		t.Errorf("%s %s/%s subjects (-want +got):\n%s", kind, ns, name, diff)
	}
}
