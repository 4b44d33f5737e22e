package images

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// confFiles are the files of a HadoopCluster's ConfigMaps that the test mounts over the
// image's, as the operator's client pods do: the daemons' four, and Spark's from the
// discovery ConfigMap.
var confFiles = []string{"core-site.xml", "yarn-site.xml", "mapred-site.xml", "hadoop-env.sh", "spark-defaults.conf"}

// goldenConf is the directory, in the repository, of the files the operator renders
// for a cluster on an external Ceph on the host network.
const goldenConf = "internal/hadoop/testdata/external-hostnetwork"

// property is one value the test changes in a rendered file.
type property struct {
	file, name, value string
}

// cephClient is what the local Ceph's client files and hack/ceph/env.sh name.
type cephClient struct {
	// id is the client's name without "client." (CEPH_CLIENT_ID).
	id string
	// fs is the file system's name (CEPH_FS_NAME).
	fs string
}

// testProperties point an operator-rendered configuration at the local Ceph, at the
// run's own root directory on it, and at a YARN on loopback with room for the test's
// jobs on a small machine.
func testProperties(ceph cephClient, testRoot string) []property {
	return []property{
		{"core-site.xml", "ceph.root.dir", "/" + testRoot},
		{"core-site.xml", "ceph.auth.id", ceph.id},
		{"core-site.xml", "ceph.conf.options", "client_fs=" + ceph.fs},
		{"yarn-site.xml", "yarn.resourcemanager.hostname", "127.0.0.1"},
		{"yarn-site.xml", "yarn.nodemanager.resource.memory-mb", "4096"},
		{"yarn-site.xml", "yarn.nodemanager.resource.cpu-vcores", "4"},
		{"yarn-site.xml", "yarn.scheduler.maximum-allocation-mb", "4096"},
		{"yarn-site.xml", "yarn.scheduler.maximum-allocation-vcores", "4"},
	}
}

// renderConf reads confFiles from the directory golden and sets props in them.
func renderConf(golden string, props []property) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, name := range confFiles {
		b, err := os.ReadFile(filepath.Join(golden, name))
		if err != nil {
			return nil, fmt.Errorf("the operator's rendered files moved: %w", err)
		}
		files[name] = b
	}
	for _, p := range props {
		conf, ok := files[p.file]
		if !ok {
			return nil, fmt.Errorf("%s is none of the rendered files %v", p.file, confFiles)
		}
		changed, err := setProperty(conf, p.name, p.value)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.file, err)
		}
		files[p.file] = changed
	}
	return files, nil
}

var valueElement = regexp.MustCompile(`<value>.*</value>`)

// setProperty replaces the value of property name in a Hadoop configuration file as
// the operator renders it: the <name> element on a line of its own and the <value>
// element on a later line. Every property of that name changes; none is an error.
func setProperty(conf []byte, name, value string) ([]byte, error) {
	var escaped strings.Builder
	if err := xml.EscapeText(&escaped, []byte(value)); err != nil {
		return nil, err
	}
	element := "<value>" + escaped.String() + "</value>"
	nameElement := "<name>" + name + "</name>"
	var out bytes.Buffer
	inProperty, replaced := false, false
	for line := range strings.Lines(string(conf)) {
		if inProperty && strings.Contains(line, "<value>") {
			line = valueElement.ReplaceAllLiteralString(line, element)
			inProperty, replaced = false, true
		}
		if strings.Contains(line, nameElement) {
			inProperty = true
		}
		out.WriteString(line)
	}
	if !replaced {
		return nil, fmt.Errorf("no property %s", name)
	}
	return out.Bytes(), nil
}
