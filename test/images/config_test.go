package images

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/repo"
)

const siteXML = `<configuration>
  <property>
    <name>ceph.root</name>
    <value>/other</value>
  </property>
  <property>
    <name>ceph.root.dir</name>
    <value>/hadoop</value>
  </property>
</configuration>
`

func TestSetProperty(t *testing.T) {
	cases := []struct {
		name, property, value string
		want                  string
		wantErr               string
	}{{
		name:     "the value on the line after the name, and that one alone",
		property: "ceph.root.dir",
		value:    "/hco-image-tests/run-1",
		want:     strings.Replace(siteXML, "<value>/hadoop</value>", "<value>/hco-image-tests/run-1</value>", 1),
	}, {
		name:     "a name that is the start of another's",
		property: "ceph.root",
		value:    "/elsewhere",
		want:     strings.Replace(siteXML, "<value>/other</value>", "<value>/elsewhere</value>", 1),
	}, {
		name:     "XML's special characters escaped",
		property: "ceph.root.dir",
		value:    "a<b&c",
		want:     strings.Replace(siteXML, "<value>/hadoop</value>", "<value>a&lt;b&amp;c</value>", 1),
	}, {
		name:     "no such property",
		property: "ceph.root.directory",
		value:    "/x",
		wantErr:  "no property ceph.root.directory",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := setProperty([]byte(siteXML), c.property, c.value)
			if c.wantErr != "" {
				if err == nil || err.Error() != c.wantErr {
					t.Fatalf("setProperty(%s) = %v, want the error %q", c.property, err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("setProperty(%s, %s) =\n%s\nwant\n%s", c.property, c.value, got, c.want)
			}
		})
	}
}

// The image test's properties exist in the operator's rendered files: a renamed one
// fails here, in `go test ./...`, before anyone runs the image test.
func TestRenderConf(t *testing.T) {
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	props := testProperties(cephClient{id: "hadoop", fs: "cephfs"}, "hco-image-tests/run-1")
	files, err := renderConf(filepath.Join(root, goldenConf), props)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(confFiles) {
		t.Errorf("rendered %d files, want %d (%v)", len(files), len(confFiles), confFiles)
	}
	for _, p := range props {
		want := "<name>" + p.name + "</name>\n    <value>" + p.value + "</value>"
		if !strings.Contains(string(files[p.file]), want) {
			t.Errorf("%s lacks %q", p.file, want)
		}
	}
}

func TestRenderConfNamesTheFile(t *testing.T) {
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	_, err = renderConf(filepath.Join(root, goldenConf), []property{{"yarn-site.xml", "yarn.no.such.property", "1"}})
	if want := "yarn-site.xml: no property yarn.no.such.property"; err == nil || err.Error() != want {
		t.Fatalf("renderConf with an unknown property: %v, want %q", err, want)
	}
	_, err = renderConf(t.TempDir(), nil)
	if err == nil || !strings.Contains(err.Error(), "the operator's rendered files moved") {
		t.Fatalf("renderConf of an empty directory: %v, want an error saying the files moved", err)
	}
}
