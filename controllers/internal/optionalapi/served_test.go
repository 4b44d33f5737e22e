package optionalapi

import (
	"slices"
	"testing"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

func TestServedAPIs(t *testing.T) {
	mapper := func(kinds ...schema.GroupVersionKind) meta.RESTMapper {
		m := meta.NewDefaultRESTMapper(nil)
		for _, k := range kinds {
			m.Add(k, meta.RESTScopeNamespace)
		}
		return m
	}
	var rook []schema.GroupVersionKind
	for _, kind := range rookKinds {
		rook = append(rook, cephv1.SchemeGroupVersion.WithKind(kind))
	}
	for _, tc := range []struct {
		name  string
		kinds []schema.GroupVersionKind
		want  Served
	}{
		{name: "none"},
		{name: "everything", kinds: append(slices.Clone(rook), NetworkAttachmentGVK, hadoop.PodMonitorGVK), want: Served{Rook: true, NetworkAttachments: true, PodMonitors: true}},
		{name: "the Prometheus Operator alone", kinds: []schema.GroupVersionKind{hadoop.PodMonitorGVK}, want: Served{PodMonitors: true}},
		{name: "Rook without one of its kinds", kinds: rook[1:], want: Served{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Lookup(mapper(tc.kinds...))
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Lookup = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestMissingAPIs(t *testing.T) {
	names := func(apis []API) []string {
		var out []string
		for _, api := range apis {
			out = append(out, api.Name)
		}
		return out
	}
	if got := Missing(Served{Rook: true, NetworkAttachments: true, PodMonitors: true}); len(got) > 0 {
		t.Errorf("Missing of everything served = %v, want none", names(got))
	}
	got := Missing(Served{Rook: true, NetworkAttachments: true})
	if len(got) != 1 || !slices.Equal(got[0].Kinds, []schema.GroupVersionKind{hadoop.PodMonitorGVK}) {
		t.Errorf("Missing without PodMonitors = %v, want the Prometheus Operator's", names(got))
	}
	if got := Missing(Served{}); len(got) != 3 {
		t.Errorf("Missing of nothing served = %v, want Rook, Multus and the Prometheus Operator", names(got))
	}
}
