package controllers

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
)

// gauges reads the operator's gauges named name whose labels include labels, as a
// scrape of its metrics would: their values by the value of their label by.
func gauges(name string, labels map[string]string, by string) func(Gomega) map[string]float64 {
	return func(g Gomega) map[string]float64 {
		families, err := metrics.Registry.Gather()
		g.Expect(err).NotTo(HaveOccurred())
		out := map[string]float64{}
		for _, f := range families {
			if f.GetName() != name {
				continue
			}
		metric:
			for _, m := range f.GetMetric() {
				got := map[string]string{}
				for _, l := range m.GetLabel() {
					got[l.GetName()] = l.GetValue()
				}
				for k, v := range labels {
					if got[k] != v {
						continue metric
					}
				}
				out[got[by]] = m.GetGauge().GetValue()
			}
		}
		return out
	}
}

// gauge reads the one gauge named name whose labels include labels, and fails when
// there is none.
func gauge(name string, labels map[string]string) float64 {
	GinkgoHelper()
	found := gauges(name, labels, "")(Default)
	if len(found) == 0 {
		Fail(fmt.Sprintf("no gauge %s with labels %v", name, labels))
	}
	return found[""]
}
