package controllers

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/optionalapi"
)

// A CRD of a group nothing else in the suite uses plays an optional API that is
// installed while the operator runs.
func widgetCRD() *apiextensionsv1.CustomResourceDefinition {
	preserve := true
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets.optional.test.hadoopceph.io"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "optional.test.hadoopceph.io",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", XPreserveUnknownFields: &preserve,
				}},
			}},
		},
	}
}

var widgetGVK = schema.GroupVersionKind{Group: "optional.test.hadoopceph.io", Version: "v1", Kind: "Widget"}

// widgetWatcher waits for the widget API, looking more often than the operator does.
func widgetWatcher(dc discovery.DiscoveryInterface) *optionalapi.Watcher {
	return &optionalapi.Watcher{
		Missing:   []optionalapi.API{{Name: "Widgets", Kinds: []schema.GroupVersionKind{widgetGVK}}},
		Interval:  100 * time.Millisecond,
		Discovery: dc,
	}
}

var _ = Describe("The watch for optional APIs", func() {
	var dc discovery.DiscoveryInterface

	BeforeEach(func() {
		var err error
		dc, err = discovery.NewDiscoveryClientForConfig(restConfig)
		Expect(err).NotTo(HaveOccurred())
	})

	start := func(w *optionalapi.Watcher) (<-chan error, context.CancelFunc) {
		done := make(chan error, 1)
		wctx, cancel := context.WithCancel(ctx)
		DeferCleanup(cancel)
		go func() { done <- w.Start(wctx) }()
		return done, cancel
	}

	It("ends the manager, naming the API, once a missing one is served", func() {
		done, _ := start(widgetWatcher(dc))
		Consistently(done, time.Second).ShouldNot(Receive(), "nothing is installed yet")

		opts := envtest.CRDInstallOptions{CRDs: []*apiextensionsv1.CustomResourceDefinition{widgetCRD()}}
		_, err := envtest.InstallCRDs(restConfig, opts)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(envtest.UninstallCRDs(restConfig, opts)).To(Succeed()) })

		var stopped error
		Eventually(done).Should(Receive(&stopped))
		Expect(stopped).To(MatchError(ErrOptionalAPIInstalled))
		Expect(stopped.Error()).To(ContainSubstring("Widgets"))
	})

	It("returns nothing when the manager stops first", func() {
		done, cancel := start(widgetWatcher(dc))
		cancel()
		var stopped error
		Eventually(done).Should(Receive(&stopped))
		Expect(stopped).NotTo(HaveOccurred())
	})

	It("counts an API as served only when every kind of it is", func() {
		Expect(optionalapi.ServesAll(dc, optionalapi.Rook().Kinds)).To(BeTrue(), "the suite installs Rook's CRDs")
		Expect(optionalapi.ServesAll(dc, optionalapi.NetworkAttachments().Kinds)).To(BeTrue(), "the suite installs Multus's CRD")
		Expect(optionalapi.ServesAll(dc, optionalapi.PodMonitors().Kinds)).To(BeTrue(), "the suite installs the PodMonitor CRD")
		partly := append(optionalapi.Rook().Kinds, cephv1.SchemeGroupVersion.WithKind("CephObjectStoreUser"), cephv1.SchemeGroupVersion.WithKind("CephNoSuchKind"))
		Expect(optionalapi.ServesAll(dc, partly)).To(BeFalse())
		Expect(optionalapi.ServesAll(dc, []schema.GroupVersionKind{{Group: "absent.test.hadoopceph.io", Version: "v1", Kind: "Gadget"}})).To(BeFalse())
	})
})
