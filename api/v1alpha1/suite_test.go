package v1alpha1_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gcustom"
	"github.com/onsi/gomega/types"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8stypes "k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/testenv"
)

// These specs check what the kube-apiserver itself admits, so they run against envtest
// with the generated CRDs and no controllers: a rule that only a controller enforced
// would pass here unnoticed.

var (
	k8sClient client.Client
	// Every object gets a generated name in this one namespace, so specs never collide
	// and no spec waits for a namespace to go away.
	namespace string
)

func TestAPI(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "API admission", Label("envtest"))
}

var _ = BeforeSuite(func(ctx SpecContext) {
	env, err := testenv.New()
	Expect(err).NotTo(HaveOccurred())
	cfg, err := testenv.Start(env)
	Expect(err).NotTo(HaveOccurred(), "a CRD whose CEL rule does not compile or costs too much fails here")
	DeferCleanup(env.Stop)

	k8sClient, err = client.New(cfg, client.Options{Scheme: env.Scheme})
	Expect(err).NotTo(HaveOccurred())

	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "api-"}}
	Expect(k8sClient.Create(ctx, ns)).To(Succeed())
	namespace = ns.Name
})

// spec is a StorageBackend spec written as YAML: base plus a JSON merge patch
// (RFC 7386), so that a table entry shows only what it changes. Updates send the patch
// alone, as `kubectl patch --type merge` does.
type spec struct {
	base, patch string
}

// specPatch is a merge patch of a whole StorageBackend for updates.
func (s spec) specPatch() client.Patch {
	GinkgoHelper()
	return client.RawPatch(k8stypes.MergePatchType, []byte(`{"spec":`+string(yamlToJSON(s.patch))+`}`))
}

// storageBackend is what a user would apply: untyped, so that a field left out is
// absent rather than a Go zero value.
func storageBackend(s spec) *unstructured.Unstructured { return object("StorageBackend", "sb-", s) }

// object is an untyped object of kind with s as its spec and a generated name.
func object(kind, namePrefix string, s spec) *unstructured.Unstructured {
	GinkgoHelper()
	if s.patch == "" {
		s.patch = "{}"
	}
	u := &unstructured.Unstructured{Object: map[string]any{"spec": mergeSpec(yamlToJSON(s.base), s.patch)}}
	u.SetGroupVersionKind(v1alpha1.GroupVersion.WithKind(kind))
	u.SetNamespace(namespace)
	u.SetGenerateName(namePrefix)
	return u
}

// mergeSpec applies a YAML merge patch to a JSON spec and decodes the result the way
// unstructured objects from the API server are decoded (integers as int64), so the two
// compare with Equal.
func mergeSpec(base []byte, patch string) map[string]any {
	GinkgoHelper()
	merged, err := jsonpatch.MergePatch(base, yamlToJSON(patch))
	Expect(err).NotTo(HaveOccurred())
	var out map[string]any
	Expect(utiljson.Unmarshal(merged, &out)).To(Succeed())
	return out
}

func yamlToJSON(y string) []byte {
	GinkgoHelper()
	j, err := yaml.YAMLToJSON([]byte(y))
	Expect(err).NotTo(HaveOccurred(), "test input %q", y)
	return j
}

func specJSON(u *unstructured.Unstructured) []byte {
	GinkgoHelper()
	j, err := json.Marshal(u.Object["spec"])
	Expect(err).NotTo(HaveOccurred())
	return j
}

type invalidAt struct {
	Field, Phrase string
}

// beInvalidAt matches the error a user of kubectl sees as
// `<field>: Invalid value: ...: ...<phrase>...`: an Invalid status whose cause for that
// exact field carries the phrase, so a phrase reported against another field does not
// count.
func beInvalidAt(field, phrase string) types.GomegaMatcher {
	return gcustom.MakeMatcher(func(err error) (bool, error) {
		var status apierrors.APIStatus
		if !apierrors.IsInvalid(err) || !errors.As(err, &status) || status.Status().Details == nil {
			return false, nil
		}
		if !strings.Contains(err.Error(), field) || !strings.Contains(err.Error(), phrase) {
			return false, nil
		}
		for _, cause := range status.Status().Details.Causes {
			if cause.Field == field && strings.Contains(cause.Message, phrase) {
				return true, nil
			}
		}
		return false, nil
	}).WithTemplate(
		"Expected\n{{.FormattedActual}}\n{{.To}} be an Invalid error at {{.Data.Field}} saying {{printf \"%q\" .Data.Phrase}}",
		invalidAt{Field: field, Phrase: phrase},
	)
}
