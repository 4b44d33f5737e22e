package chart

import (
	"encoding/xml"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// release is a line of hack/releases.tsv.
type releaseRecord struct {
	version, commit, date string
}

func releases(t *testing.T) []releaseRecord {
	t.Helper()
	var out []releaseRecord
	for i, line := range strings.Split(string(readFile(t, "hack", "releases.tsv")), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("hack/releases.tsv line %d: want version, commit and date separated by tabs, got %q", i+1, line)
		}
		out = append(out, releaseRecord{f[0], f[1], f[2]})
	}
	return out
}

var (
	releaseVersion = regexp.MustCompile(`^(\d+)\.(\d+)\.(\d+)$`)
	// chartVersion is main's next release with -dev, or a release commit's own.
	chartVersion = regexp.MustCompile(`^(\d+)\.(\d+)\.(\d+)(?:-dev)?$`)
	commitHash   = regexp.MustCompile(`^[0-9a-f]{40}$`)
	isoDate      = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

// semver is a version's three numbers.
func semver(t *testing.T, re *regexp.Regexp, v string) [3]int {
	t.Helper()
	m := re.FindStringSubmatch(v)
	if m == nil {
		t.Fatalf("version %q does not match %s", v, re)
	}
	var out [3]int
	for i := range out {
		out[i], _ = strconv.Atoi(m[i+1])
	}
	return out
}

func less(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// TestReleases checks the record of releases: well-formed lines in increasing
// versions, each under a changelog heading that names its commit, the chart's version
// past the newest (main's X.Y.Z-dev, whose connector is X.Y.Z-SNAPSHOT, or a release
// commit's own), and each release commit's chart at the release's version.
func TestReleases(t *testing.T) {
	changelog := string(readFile(t, "CHANGELOG.md"))
	appVersion := chartAppVersion(t)
	next := semver(t, chartVersion, appVersion)
	var pom struct {
		Version string `xml:"version"`
	}
	if err := xml.Unmarshal(readFile(t, "cephfs-hadoop", "pom.xml"), &pom); err != nil {
		t.Fatal(err)
	}
	want := appVersion
	if strings.HasSuffix(want, "-dev") {
		want = strings.TrimSuffix(want, "-dev") + "-SNAPSHOT"
	}
	if pom.Version != want {
		t.Errorf("cephfs-hadoop/pom.xml's version is %s, want %s for appVersion %s (hack/set-version.sh)", pom.Version, want, appVersion)
	}
	var prev *[3]int
	for _, r := range releases(t) {
		v := semver(t, releaseVersion, r.version)
		if !commitHash.MatchString(r.commit) || !isoDate.MatchString(r.date) {
			t.Errorf("release %s: commit %q must be 40 hex digits and date %q YYYY-MM-DD", r.version, r.commit, r.date)
		}
		if prev != nil && !less(*prev, v) {
			t.Errorf("release %s does not follow the one before it", r.version)
		}
		prev = &v
		heading := regexp.MustCompile(`(?m)^## ` + regexp.QuoteMeta(r.version) + ` \(` + r.date + `\)\n\nRelease commit ` + "`" + r.commit[:12] + "`")
		if !heading.MatchString(changelog) {
			t.Errorf("CHANGELOG.md has no heading \"## %s (%s)\" followed by \"Release commit `%s`\"", r.version, r.date, r.commit[:12])
		}
		if !less(v, next) {
			t.Errorf("the chart's appVersion %s is not past release %s", appVersion, r.version)
		}
		chartAt(t, r)
	}
}

// chartAt checks the chart of the release's commit, where the clone has it: a shallow
// clone may not, and says so.
func chartAt(t *testing.T, r releaseRecord) {
	t.Helper()
	git := exec.Command("git", "-C", repoRoot, "show", r.commit+":charts/hadoop-ceph-operator/Chart.yaml")
	raw, err := git.Output()
	if err != nil {
		shallow, _ := exec.Command("git", "-C", repoRoot, "rev-parse", "--is-shallow-repository").Output()
		if strings.TrimSpace(string(shallow)) == "true" {
			t.Logf("release %s: commit %s is not in this shallow clone; its chart was not checked", r.version, r.commit)
			return
		}
		t.Errorf("release %s: reading its chart at commit %s: %v", r.version, r.commit, err)
		return
	}
	var chart struct {
		Version    string `json:"version"`
		AppVersion string `json:"appVersion"`
	}
	if err := yaml.Unmarshal(raw, &chart); err != nil {
		t.Fatal(err)
	}
	if chart.Version != r.version || chart.AppVersion != r.version {
		t.Errorf("release %s: the chart at %s has version %s and appVersion %s", r.version, r.commit[:12], chart.Version, chart.AppVersion)
	}
}
