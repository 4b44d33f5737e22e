package hadoop

import (
	"github.com/hadoopceph/hadoop-ceph-operator/internal/cephconf"
)

// ConfigHash identifies the content of the configuration ConfigMap. Pod templates carry
// it, so any change to any file rolls the pods, and nothing else does.
func ConfigHash(data map[string]string) string {
	raw := make(map[string][]byte, len(data))
	for k, v := range data {
		raw[k] = []byte(v)
	}
	return cephconf.Hash(raw)
}
