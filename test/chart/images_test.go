package chart

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/yaml"
)

// The images have one tag scheme, set by the chart's appVersion: the operator's tag is
// the appVersion and Hadoop's is <Hadoop version>-<appVersion>. On main the appVersion
// is the next release's with a -dev suffix, which the release commit drops.

// The default Hadoop image belongs to the same release as the operator, and the
// kustomize manifests in config/ default to the same image as the chart.
func TestDefaultImages(t *testing.T) {
	appVersion := chartAppVersion(t)
	hadoopImage := chartValues(t)["hadoopImage"].(string)
	if want := hadoopImageTag(t, appVersion); imageTag(hadoopImage) != want {
		t.Errorf("values.yaml hadoopImage %s is not tagged %s, the Hadoop %s image of appVersion %s", hadoopImage, want, hadoopVersion(t), appVersion)
	}
	image := manager(t, render(t)).Image
	if imageTag(image) != appVersion {
		t.Errorf("default operator image %s is not tagged with appVersion %s", image, appVersion)
	}

	var kustomization struct {
		Images []struct {
			Name    string `json:"name"`
			NewName string `json:"newName"`
			NewTag  string `json:"newTag"`
		} `json:"images"`
	}
	if err := yaml.Unmarshal(readFile(t, "config", "manager", "kustomization.yaml"), &kustomization); err != nil {
		t.Fatal(err)
	}
	if i := kustomization.Images; len(i) != 1 || i[0].NewName+":"+i[0].NewTag != image {
		t.Errorf("config/manager/kustomization.yaml sets images %+v, want %s, the chart's default", i, image)
	}

	var kustomized *appsv1.Deployment
	for doc := range strings.SplitSeq(string(readFile(t, "config", "manager", "manager.yaml")), "\n---\n") {
		d := &appsv1.Deployment{}
		if err := yaml.Unmarshal([]byte(doc), d); err != nil {
			t.Fatal(err)
		}
		if d.Kind == "Deployment" {
			kustomized = d
		}
	}
	if kustomized == nil {
		t.Fatal("config/manager/manager.yaml holds no Deployment")
	}
	if args := kustomized.Spec.Template.Spec.Containers[0].Args; !slices.Contains(args, "--hadoop-image="+hadoopImage) {
		t.Errorf("config/manager/manager.yaml args %q lack --hadoop-image=%s, the chart's default", args, hadoopImage)
	}
}

// The chart's defaults are the references a local build makes (hack/images/images.env),
// so that the chart runs what hack/images/build.sh built. images.env is read by the
// Makefile as well and cannot compute its tags: this test is what keeps them on the
// chart's appVersion.
func TestLocalBuildImages(t *testing.T) {
	const (
		env    = "hack/images/images.env"
		chart  = "charts/hadoop-ceph-operator/Chart.yaml"
		values = "charts/hadoop-ceph-operator/values.yaml"
		pom    = "images/hadoop/pom.xml"
	)
	appVersion := chartAppVersion(t)
	images := imagesEnv(t)

	operator := images["OPERATOR_IMAGE"]
	if tag := imageTag(operator); tag != appVersion {
		t.Errorf("%s: OPERATOR_IMAGE %s is tagged %q, but %s has appVersion %q: set OPERATOR_IMAGE to %s:%s",
			env, operator, tag, chart, appVersion, imageRepository(operator), appVersion)
	}
	if image := manager(t, render(t)).Image; imageRepository(image) != imageRepository(operator) {
		t.Errorf("the chart's default operator image is %s, but %s builds %s: set image.repository in %s to %s",
			image, env, operator, values, imageRepository(operator))
	}

	hadoop := images["HADOOP_IMAGE"]
	want := imageRepository(hadoop) + ":" + hadoopImageTag(t, appVersion)
	if hadoop != want {
		t.Errorf("%s: HADOOP_IMAGE %s is tagged %q, but the tag is the Hadoop version of %s, a dash, and the appVersion of %s: set HADOOP_IMAGE to %s",
			env, hadoop, imageTag(hadoop), pom, chart, want)
	}
	if hadoopImage := chartValues(t)["hadoopImage"]; hadoopImage != hadoop {
		t.Errorf("%s: hadoopImage is %v, not %s's HADOOP_IMAGE %s: set both, and --hadoop-image in config/manager/manager.yaml, to %s",
			values, hadoopImage, env, hadoop, want)
	}
}

// chartAppVersion is Chart.yaml's appVersion.
func chartAppVersion(t *testing.T) string {
	t.Helper()
	var chart struct {
		AppVersion string `json:"appVersion"`
	}
	if err := yaml.Unmarshal(readFile(t, "charts", "hadoop-ceph-operator", "Chart.yaml"), &chart); err != nil {
		t.Fatal(err)
	}
	if chart.AppVersion == "" {
		t.Fatal("charts/hadoop-ceph-operator/Chart.yaml has no appVersion")
	}
	return chart.AppVersion
}

// hadoopVersion is the Hadoop release whose jars the Hadoop image holds: the one
// images/hadoop/pom.xml names.
func hadoopVersion(t *testing.T) string {
	t.Helper()
	var pom struct {
		Properties struct {
			HadoopVersion string `xml:"hadoop.version"`
		} `xml:"properties"`
	}
	if err := xml.Unmarshal(readFile(t, "images", "hadoop", "pom.xml"), &pom); err != nil {
		t.Fatalf("images/hadoop/pom.xml: %v", err)
	}
	if pom.Properties.HadoopVersion == "" {
		t.Fatal("images/hadoop/pom.xml has no hadoop.version property")
	}
	return pom.Properties.HadoopVersion
}

// hadoopImageTag is the tag of the Hadoop image of an appVersion.
func hadoopImageTag(t *testing.T, appVersion string) string {
	t.Helper()
	return hadoopVersion(t) + "-" + appVersion
}

// imagesEnv reads the NAME=value lines of hack/images/images.env, which the scripts
// source and the Makefile includes.
func imagesEnv(t *testing.T) map[string]string {
	t.Helper()
	env := map[string]string{}
	lines := bufio.NewScanner(bytes.NewReader(readFile(t, "hack", "images", "images.env")))
	for lines.Scan() {
		line := strings.TrimSpace(lines.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("hack/images/images.env: %q is not a NAME=value line", line)
		}
		env[name] = value
	}
	if err := lines.Err(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"OPERATOR_IMAGE", "HADOOP_IMAGE"} {
		if env[name] == "" {
			t.Fatalf("hack/images/images.env sets no %s", name)
		}
	}
	return env
}

// imageRepository and imageTag split an image reference without a digest at the colon
// of its tag; a colon before the last slash is a registry's port.
func imageRepository(ref string) string {
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		return ref[:i]
	}
	return ref
}

func imageTag(ref string) string {
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		return ref[i+1:]
	}
	return ""
}
