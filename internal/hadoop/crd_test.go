package hadoop

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// The CRD's CEL rules refuse the owned keys at admission and the builders refuse them
// again; these tests keep the two lists, and the memory minimums, the same.

const crdPath = "../../config/crd/bases/hadoopceph.io_hadoopclusters.yaml"

// specSchema is the openAPIV3Schema of the HadoopCluster spec in the generated CRD.
func specSchema(t *testing.T) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(crdPath)
	if err != nil {
		t.Fatal(err)
	}
	var crd map[string]any
	if err := yaml.Unmarshal(raw, &crd); err != nil {
		t.Fatal(err)
	}
	versions := dig(t, crd, "spec", "versions").([]any)
	return dig(t, versions[0], "schema", "openAPIV3Schema", "properties", "spec").(map[string]any)
}

func dig(t *testing.T, v any, path ...string) any {
	t.Helper()
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok || m[p] == nil {
			t.Fatalf("the CRD has no %s (looking up %v); run `make manifests`", p, path)
		}
		v = m[p]
	}
	return v
}

// rules are the x-kubernetes-validations of a schema node.
func rules(t *testing.T, node any) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, r := range dig(t, node, "x-kubernetes-validations").([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

var inList = regexp.MustCompile(`k in \[([^\]]*)\]`)
var quoted = regexp.MustCompile(`'([^']*)'`)

func TestOwnedKeysMatchCRD(t *testing.T) {
	spec := specSchema(t)
	for field, owned := range map[string][]string{
		"config.coreSite":     OwnedCoreSiteKeys,
		"config.yarnSite":     OwnedYarnSiteKeys,
		"config.mapredSite":   OwnedMapredSiteKeys,
		"config.hadoopEnv":    OwnedHadoopEnv,
		"config.cephOptions":  OwnedCephOptions,
		"network.cephOptions": OwnedCephOptions,
	} {
		t.Run(field, func(t *testing.T) {
			parent, child, _ := strings.Cut(field, ".")
			var inCRD []string
			for _, r := range rules(t, dig(t, spec, "properties", parent, "properties", child)) {
				m := inList.FindStringSubmatch(r["rule"].(string))
				if m == nil {
					continue
				}
				for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
					inCRD = append(inCRD, q[1])
				}
			}
			if !slices.Equal(slices.Sorted(slices.Values(inCRD)), slices.Sorted(slices.Values(owned))) {
				t.Errorf("spec.%s: the CEL rule refuses %v, the builders %v", field, inCRD, owned)
			}
		})
	}
}

// The messenger options the CEL rule on spec.config.cephOptions refuses with rdma are
// those Validate refuses.
func TestMessengerOptionsMatchCRD(t *testing.T) {
	list := regexp.MustCompile(`^!\[([^\]]*)\]\.exists\(o, o in self && self\[o\]\.contains\('rdma'\)\)$`)
	var inCRD []string
	for _, r := range rules(t, dig(t, specSchema(t), "properties", "config", "properties", "cephOptions")) {
		if m := list.FindStringSubmatch(r["rule"].(string)); m != nil {
			for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
				inCRD = append(inCRD, q[1])
			}
		}
	}
	if !slices.Equal(slices.Sorted(slices.Values(inCRD)), slices.Sorted(slices.Values(MessengerOptions))) {
		t.Errorf("spec.config.cephOptions: the CEL rule refuses rdma in %v, the builders in %v", inCRD, MessengerOptions)
	}
}

func TestMemoryMinimumsMatchCRD(t *testing.T) {
	spec := specSchema(t)
	nm := dig(t, spec, "properties", "nodeManagers")

	yarnMemory := rules(t, dig(t, nm, "properties", "yarn", "properties", "memory"))
	if want := fmt.Sprintf("quantity('%dMi')", MinYARNMemoryMiB); !strings.Contains(yarnMemory[0]["rule"].(string), want) {
		t.Errorf("the rule on spec.nodeManagers.yarn.memory should compare with %s: %q", want, yarnMemory[0]["rule"])
	}
	if want := fmt.Sprintf("%dMi", MinNodeManagerMemoryMiB); !strings.Contains(rules(t, nm)[0]["message"].(string), want) {
		t.Errorf("the message of the rule on spec.nodeManagers should name the minimum %s: %q", want, rules(t, nm)[0]["message"])
	}
}
