package hadoop

import (
	"testing"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/golden"
)

func TestDeleteDataJob(t *testing.T) {
	base := DeleteData{
		Name:      "lake-delete-data",
		Namespace: "data",
		Labels:    map[string]string{"hadoopceph.io/storagebackend-name": "lake"},
		Image:     "registry.example.com/hadoopceph/hadoop:3.4.2",
		Storage: Storage{
			Filesystem:         "hadoopfs",
			RootPath:           "/volumes/hadoop",
			ClientID:           "hadoop-data-lake",
			ClientConfigSecret: "lake-ceph-client",
		},
	}
	for name, mutate := range map[string]func(*DeleteData){
		"pod-network":  func(*DeleteData) {},
		"host-network": func(d *DeleteData) { d.HostNetwork = true },
		"multus": func(d *DeleteData) {
			d.PublicNetwork = &v1alpha1.NetworkAttachment{Name: "public-net", Namespace: "rook-ceph"}
		},
	} {
		t.Run(name, func(t *testing.T) {
			d := base
			mutate(&d)
			golden.Assert(t, "delete-data/"+name+".yaml", golden.YAML(t, DeleteDataJob(d)))
		})
	}
}
