package hadoopcluster

import (
	"reflect"
	"testing"
)

func TestApplyConfigurationDropsStatusAndNulls(t *testing.T) {
	obj := map[string]any{
		"metadata": map[string]any{"name": "x", "creationTimestamp": nil},
		"spec": map[string]any{
			"template": map[string]any{"metadata": map[string]any{"creationTimestamp": nil}},
			"volumeClaimTemplates": []any{map[string]any{
				"metadata": map[string]any{"name": "data"},
				"status":   map[string]any{},
			}},
			"volumes": []any{map[string]any{"name": "tmp", "emptyDir": map[string]any{}}},
		},
		"status": map[string]any{"replicas": int64(0)},
	}
	want := map[string]any{
		"metadata": map[string]any{"name": "x"},
		"spec": map[string]any{
			"template": map[string]any{"metadata": map[string]any{}},
			"volumeClaimTemplates": []any{map[string]any{
				"metadata": map[string]any{"name": "data"},
			}},
			"volumes": []any{map[string]any{"name": "tmp", "emptyDir": map[string]any{}}},
		},
	}
	if got := applyConfiguration(obj); !reflect.DeepEqual(got, want) {
		t.Errorf("applyConfiguration = %v, want %v", got, want)
	}
}
