// Command apiref writes docs/api/<kind>.md from the CRDs in config/crd/bases
// (internal/apiref); `make manifests` runs it.
//
//	go run ./hack/apiref CRD_DIR OUT_DIR
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/apiref"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "apiref: error:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: apiref CRD_DIR OUT_DIR")
	}
	files, err := filepath.Glob(filepath.Join(args[0], "*.yaml"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no CRDs in %s", args[0])
	}
	if err := os.MkdirAll(args[1], 0o755); err != nil {
		return err
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.UnmarshalStrict(raw, crd); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		page, err := apiref.Render(crd)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		out := filepath.Join(args[1], strings.ToLower(crd.Spec.Names.Kind)+".md")
		if err := os.WriteFile(out, page, 0o644); err != nil {
			return err
		}
	}
	return nil
}
