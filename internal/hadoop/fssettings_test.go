package hadoop

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/golden"
)

func fsSettings() FilesystemSettings {
	return FilesystemSettings{
		Backend:      "lake",
		Namespace:    "data",
		Labels:       map[string]string{"hadoopceph.io/storagebackend-name": "lake"},
		Image:        "registry.example.com/hadoopceph/hadoop:3.4.2",
		Filesystem:   "hadoopfs",
		FilesystemID: "5d0c7d0e-2f4c-4f8e-9a51-0c6b7a3e1f22",
		Settings:     map[string]string{"refuse_standby_for_another_fs": "true"},
		ClientID:     "hadoop-data-lake-fs-settings",
		ConfigSecret: "lake-ceph-fs-settings",
	}
}

func TestFilesystemSettingsJob(t *testing.T) {
	for name, mutate := range map[string]func(*FilesystemSettings){
		"pod-network":  func(*FilesystemSettings) {},
		"host-network": func(s *FilesystemSettings) { s.HostNetwork = true },
		"multus": func(s *FilesystemSettings) {
			s.PublicNetwork = &v1alpha1.NetworkAttachment{Name: "public-net", Namespace: "rook-ceph"}
		},
	} {
		t.Run(name, func(t *testing.T) {
			s := fsSettings()
			mutate(&s)
			job := FilesystemSettingsJob(s)
			golden.Assert(t, "fs-settings/"+name+".yaml", golden.YAML(t, job))

			// The settings client's key is the only Ceph key the pod can read.
			for _, v := range job.Spec.Template.Spec.Volumes {
				if v.Secret != nil && v.Secret.SecretName != s.ConfigSecret {
					t.Errorf("volume %s mounts Secret %s; only %s may be mounted", v.Name, v.Secret.SecretName, s.ConfigSecret)
				}
			}
			if job.Spec.ActiveDeadlineSeconds == nil || job.Spec.BackoffLimit == nil || *job.Spec.BackoffLimit > 3 {
				t.Errorf("the Job is not bounded: backoffLimit %v, activeDeadlineSeconds %v", job.Spec.BackoffLimit, job.Spec.ActiveDeadlineSeconds)
			}
		})
	}
}

// The script runs, as the settings client, exactly `ceph fs set <fs> <var> <value>`
// for each setting, with its values passed as arguments, untouched by the shell.
func TestFilesystemSettingsScript(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "calls")
	stub := "#!/bin/sh\necho \"$*\" >> " + log + "\n"
	if err := os.WriteFile(filepath.Join(dir, "ceph"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	s := fsSettings()
	s.Settings["max_file_size"] = "$(false) `false`"
	c := FilesystemSettingsJob(s).Spec.Template.Spec.Containers[0]
	cmd := exec.Command(c.Command[0], append(c.Command[1:], c.Args...)...)
	cmd.Env = []string{"PATH=" + dir + ":" + os.Getenv("PATH")}
	for _, e := range c.Env {
		cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the script failed: %v\n%s", err, out)
	}
	calls, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	prefix := "--conf /etc/ceph/ceph.conf --id hadoop-data-lake-fs-settings --keyring /etc/ceph/keyring --connect-timeout 30 fs set hadoopfs "
	want := prefix + "max_file_size $(false) `false`\n" + prefix + "refuse_standby_for_another_fs true\n"
	if string(calls) != want {
		t.Errorf("ceph was called with\n%s\nwant\n%s", calls, want)
	}
}

// A change of the settings or of the file system runs a new Job; the name stays a
// label value however long the backend's name.
func TestFilesystemSettingsJobName(t *testing.T) {
	base := FilesystemSettingsJobName(fsSettings())
	if !strings.HasPrefix(base, "lake-fs-settings-") || len(base) != len("lake-fs-settings-")+8 {
		t.Errorf("name = %s, want lake-fs-settings-<8 hex digits>", base)
	}
	for name, mutate := range map[string]func(*FilesystemSettings){
		"another value":           func(s *FilesystemSettings) { s.Settings["refuse_standby_for_another_fs"] = "false" },
		"another setting":         func(s *FilesystemSettings) { s.Settings["standby_count_wanted"] = "1" },
		"a file system made anew": func(s *FilesystemSettings) { s.FilesystemID = "6e1d8e1f-3a5d-4a9f-8b62-1d7c8b4f2a33" },
	} {
		s := fsSettings()
		mutate(&s)
		if got := FilesystemSettingsJobName(s); got == base {
			t.Errorf("%s keeps the Job name %s", name, got)
		}
	}
	same := fsSettings()
	same.Image, same.HostNetwork = "another:image", true
	if got := FilesystemSettingsJobName(same); got != base {
		t.Errorf("the image or network renamed the Job: %s, was %s", got, base)
	}
	long := fsSettings()
	long.Backend = strings.Repeat("b", 253)
	if got := FilesystemSettingsJobName(long); len(got) > 63 {
		t.Errorf("name %s is %d characters, more than a label value takes", got, len(got))
	}
}
