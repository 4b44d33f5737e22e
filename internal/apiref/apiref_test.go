package apiref

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// A CRD with every shape the pages describe: required and defaulted fields, a list of
// objects, a map, enums, bounds, a pattern, CEL rules on a field and on spec, and a
// status.
const widgetCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, shortNames: [wd]}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - {name: Ready, type: string, jsonPath: .status.ready}
    schema:
      openAPIV3Schema:
        description: Widget is a test kind.
        type: object
        properties:
          spec:
            description: |-
              WidgetSpec says what to make.
              It spans two lines | with a bar.
            type: object
            required: [size]
            x-kubernetes-validations:
            - rule: "true"
              message: size and color must agree
            properties:
              size:
                description: Size of the widget.
                type: integer
                format: int32
                minimum: 1
                maximum: 10
              color:
                type: string
                enum: [red, blue]
                default: red
              name:
                type: string
                maxLength: 63
                pattern: '^[a-z]+$'
                x-kubernetes-validations:
                - rule: self == oldSelf
                  message: is immutable
              parts:
                type: array
                maxItems: 3
                items:
                  type: object
                  required: [id]
                  properties:
                    id: {type: string}
              labels:
                type: object
                additionalProperties: {type: string}
              port:
                x-kubernetes-int-or-string: true
          status:
            type: object
            properties:
              ready: {type: boolean}
`

func TestRender(t *testing.T) {
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.UnmarshalStrict([]byte(widgetCRD), crd); err != nil {
		t.Fatal(err)
	}
	page, err := Render(crd)
	if err != nil {
		t.Fatal(err)
	}
	got := string(page)
	for _, want := range []string{
		"# Widget\n",
		"Group `example.com`, namespaced, plural `widgets`, short names `wd`.",
		"## example.com/v1\n\nWidget is a test kind.\n",
		"`kubectl get` shows: `Ready` (.status.ready).",
		"WidgetSpec says what to make. It spans two lines | with a bar.\n",
		"Rules: size and color must agree.\n",
		"| `spec.color` | string, default `\"red\"` | Rules: one of `red`, `blue`. |",
		"| `spec.labels` | map[string]string |  |",
		"| `spec.name` | string | Rules: at most 63 characters; matches `^[a-z]+$`; is immutable. |",
		"| `spec.parts` | []object | Rules: at most 3 items. |",
		"| `spec.parts[].id` | string, required |  |",
		"| `spec.port` | int or string |  |",
		"| `spec.size` | integer (int32), required | Size of the widget. Rules: minimum 1; maximum 10. |",
		"### status\n",
		"| `status.ready` | boolean |  |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the page lacks %q:\n%s", want, got)
		}
	}
	// Fields in name order, so that a regenerated page changes only where the schema did.
	if strings.Index(got, "`spec.color`") > strings.Index(got, "`spec.size`") {
		t.Errorf("fields out of order:\n%s", got)
	}
}

// A cell keeps the table intact: a bar in a description is escaped there.
func TestRenderEscapesBarsInCells(t *testing.T) {
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.UnmarshalStrict([]byte(strings.Replace(widgetCRD, "Size of the widget.", "Size | count.", 1)), crd); err != nil {
		t.Fatal(err)
	}
	page, err := Render(crd)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `Size \| count.`) {
		t.Errorf("bar not escaped:\n%s", page)
	}
}
