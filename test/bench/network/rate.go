package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/localcluster"
)

// unlimited lifts the limit, as local-cluster data-rate takes it.
const unlimited = "unlimited"

// parseRates reads -rates: tc rates or "unlimited", separated by blanks or commas,
// each once.
func parseRates(s string) ([]string, error) {
	fields := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(fields) == 0 {
		return nil, fmt.Errorf("-rates: no rate given; for example %q", defaultRates)
	}
	seen := map[int64]string{}
	for _, f := range fields {
		bits, err := localcluster.ParseDataRate(f)
		if err != nil && f != unlimited {
			return nil, fmt.Errorf("-rates: %q is not a rate: a whole number of kbit, mbit or gbit, such as 1gbit, or %q", f, unlimited)
		}
		if before, dup := seen[bits]; dup {
			return nil, fmt.Errorf("-rates: %q is %q again", f, before)
		}
		seen[bits] = f
	}
	return fields, nil
}

// linkRate is the hadoopceph.io/link-rate annotation that declares rate, "" for
// unlimited: the link's rate is then the host's, which nobody knows.
func linkRate(rate string) string {
	if _, err := localcluster.ParseDataRate(rate); err != nil {
		return ""
	}
	for _, u := range [][2]string{{"gbit", "Gbit"}, {"mbit", "Mbit"}, {"kbit", "kbit"}} {
		if n, ok := strings.CutSuffix(rate, u[0]); ok {
			return n + u[1]
		}
	}
	return ""
}

// slot is one run: a rate and the repetition of it.
type slot struct {
	rate       string
	repetition int
}

// schedule is the order of the runs: every rate once per repetition, each repetition
// starting one rate further on than the one before (1 2 3, then 2 3 1, then 3 1 2).
// Whatever drifts during the benchmark (the OSDs' caches filling, Ceph purging what
// the last run deleted, the host's other work) then falls on every rate alike, and
// every rate runs in every position once when there are as many repetitions as rates.
func schedule(rates []string, repetitions int) []slot {
	out := make([]slot, 0, len(rates)*repetitions)
	for r := range repetitions {
		for i := range rates {
			out = append(out, slot{rate: rates[(r+i)%len(rates)], repetition: r + 1})
		}
	}
	return out
}

// linkRateShown is whether a HadoopCluster's status.network shows publicNAD at the
// annotation value want, or, for "", without one: what a run starting now records.
func linkRateShown(status v1alpha1.NetworkStatus, want string) bool {
	for _, r := range status.LinkRates {
		if r.Namespace == publicNAD.Namespace && r.Name == publicNAD.Name {
			return r.Rate == want
		}
	}
	return want == ""
}

// annotateLinkRate sets the link-rate annotation of Rook's public network to value,
// or removes it for "".
func annotateLinkRate(ctx context.Context, c client.Client, value string) error {
	var v any
	if value != "" {
		v = value
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]any{hadoop.LinkRateAnnotation: v}}})
	if err != nil {
		return err
	}
	nad := &metav1.PartialObjectMetadata{}
	nad.SetGroupVersionKind(nadGVK)
	nad.SetNamespace(publicNAD.Namespace)
	nad.SetName(publicNAD.Name)
	if err := c.Patch(ctx, nad, client.RawPatch(types.MergePatchType, patch)); err != nil {
		return fmt.Errorf("annotating NetworkAttachmentDefinition %s: %w", publicNAD, err)
	}
	return nil
}

// setRate limits the data network to rate, declares it on Rook's public network, and
// waits until the HadoopCluster shows it, so that the next run records it.
func setRate(ctx context.Context, c client.Client, env environment, rate string) error {
	if err := env.dataRate(ctx, rate); err != nil {
		return err
	}
	want := linkRate(rate)
	if err := annotateLinkRate(ctx, c, want); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	shown := fmt.Sprintf("%s at %s", publicNAD, want)
	if want == "" {
		shown = fmt.Sprintf("%s without a rate", publicNAD)
	}
	return waitFor(ctx, "HadoopCluster "+clusterName+" to list "+shown+" in status.network.linkRates", func(ctx context.Context) (bool, string, error) {
		hc := &v1alpha1.HadoopCluster{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: clusterName}, hc); err != nil {
			return false, "", err
		}
		var listed []string
		for _, r := range hc.Status.Network.LinkRates {
			listed = append(listed, fmt.Sprintf("%s/%s at %s", r.Namespace, r.Name, r.Rate))
		}
		if len(listed) == 0 {
			listed = []string{"no rate"}
		}
		return linkRateShown(hc.Status.Network, want), "lists " + strings.Join(listed, ", "), nil
	})
}
