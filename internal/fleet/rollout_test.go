package fleet

import (
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/testpods"
)

// nmPod is a NodeManager pod of a template revision.
func nmPod(name, revision string, ready, stopping bool) corev1.Pod {
	pod := testpods.Pod(name, ready, stopping)
	pod.Labels = map[string]string{appsv1.ControllerRevisionHashLabelKey: revision}
	return pod
}

func TestRolloutState(t *testing.T) {
	for _, tc := range []struct {
		name         string
		pods         []corev1.Pod
		desired      int32
		wantOutdated []string
		wantBusy     string
	}{
		{
			name:         "highest ordinal first",
			pods:         []corev1.Pod{nmPod("nm-0", "old", true, false), nmPod("nm-1", "old", true, false), nmPod("nm-2", "old", true, false)},
			desired:      3,
			wantOutdated: []string{"nm-2", "nm-1", "nm-0"},
		},
		{
			name:         "a pod that is not ready runs nothing and goes first",
			pods:         []corev1.Pod{nmPod("nm-0", "old", false, false), nmPod("nm-1", "old", true, false)},
			desired:      2,
			wantOutdated: []string{"nm-0", "nm-1"},
		},
		{
			name:         "the replaced pod is not ready yet",
			pods:         []corev1.Pod{nmPod("nm-0", "old", true, false), nmPod("nm-1", "new", false, false)},
			desired:      2,
			wantOutdated: []string{"nm-0"}, wantBusy: "nm-1",
		},
		{
			name:         "the replaced pod is stopping",
			pods:         []corev1.Pod{nmPod("nm-0", "old", true, false), nmPod("nm-1", "old", true, true)},
			desired:      2,
			wantOutdated: []string{"nm-0"}, wantBusy: "nm-1",
		},
		{
			name:         "the replaced pod is not created yet",
			pods:         []corev1.Pod{nmPod("nm-0", "old", true, false)},
			desired:      2,
			wantOutdated: []string{"nm-0"}, wantBusy: "nm-1",
		},
		{
			name:    "pods a scale-down removes are not rolled",
			pods:    []corev1.Pod{nmPod("nm-0", "new", true, false), nmPod("nm-1", "old", true, false)},
			desired: 1,
		},
		{
			name:    "all current",
			pods:    []corev1.Pod{nmPod("nm-0", "new", true, false), nmPod("nm-1", "new", true, false), nmPod("other-0", "old", true, false)},
			desired: 2,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := rolloutState(tc.pods, "nm", "new", tc.desired)
			if !slices.Equal(got.outdated, tc.wantOutdated) || got.busy != tc.wantBusy {
				t.Errorf("got %+v, want outdated %v and busy %q", got, tc.wantOutdated, tc.wantBusy)
			}
		})
	}
}

func TestPodOrdinal(t *testing.T) {
	if n, ok := podOrdinal("a-nodemanager-12", "a-nodemanager"); !ok || n != 12 {
		t.Errorf("got %d %v", n, ok)
	}
	for _, name := range []string{"a-nodemanager", "b-nodemanager-1", "a-nodemanager-x"} {
		if _, ok := podOrdinal(name, "a-nodemanager"); ok {
			t.Errorf("%s has an ordinal", name)
		}
	}
}
