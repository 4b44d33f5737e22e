package plugin

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	utilexec "k8s.io/client-go/util/exec"
)

func TestSplitRunArgs(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		dash    int
		cluster string
		command []string
		err     string
	}{{
		name: "cluster, then the command after --", args: []string{"analytics", "hadoop", "fs", "-ls", "/"}, dash: 1,
		cluster: "analytics", command: []string{"hadoop", "fs", "-ls", "/"},
	}, {
		name: "a cluster in another namespace", args: []string{"team/analytics", "bash", "-c", "hadoop version | head -1"}, dash: 1,
		cluster: "team/analytics", command: []string{"bash", "-c", "hadoop version | head -1"},
	}, {
		name: "no --", args: []string{"analytics", "hadoop", "version"}, dash: -1,
		err: "run CLUSTER -- COMMAND [ARGS...]: put -- between CLUSTER and COMMAND",
	}, {
		name: "no cluster", args: []string{"hadoop", "version"}, dash: 0,
		err: "run CLUSTER -- COMMAND [ARGS...]: name one CLUSTER before --, not 0",
	}, {
		name: "two clusters", args: []string{"a", "b", "hadoop"}, dash: 2,
		err: "run CLUSTER -- COMMAND [ARGS...]: name one CLUSTER before --, not 2",
	}, {
		name: "no command", args: []string{"analytics"}, dash: 1,
		err: "run CLUSTER -- COMMAND [ARGS...]: no COMMAND after --",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			cluster, command, err := splitRunArgs(tc.args, tc.dash)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || cluster != tc.cluster || !reflect.DeepEqual(command, tc.command) {
				t.Fatalf("splitRunArgs = %q, %q, %v; want %q, %q", cluster, command, err, tc.cluster, tc.command)
			}
		})
	}
}

func TestRunReadsTheCommandAfterTheDash(t *testing.T) {
	// Cobra records where -- was among the arguments left after the flags, which may
	// come before or after CLUSTER.
	for _, args := range [][]string{
		{"run", "analytics", "hadoop", "version"},
		{"run", "--timeout", "1m", "--", "hadoop", "version"},
		{"run", "analytics", "-i", "--"},
	} {
		_, _, err := kubectl(t, append([]string{"-n", "nowhere"}, args...)...)
		if err == nil || !strings.HasPrefix(err.Error(), runUsage+": ") {
			t.Fatalf("%q: err = %v, want the usage", args, err)
		}
	}
}

func TestExitCodeIsTheCommandsAlone(t *testing.T) {
	// As client-go's exec stream returns a non-zero exit: the kubelet's status decoded.
	exited := utilexec.CodeExitError{Err: errors.New("command terminated with exit code 3"), Code: 3}
	for _, tc := range []struct {
		err  error
		code int
		ok   bool
	}{
		{err: exited, code: 3, ok: true},
		{err: fmt.Errorf("streaming: %w", exited), code: 3, ok: true},
		{err: errors.New("unable to upgrade connection: pod not found"), ok: false},
		{err: nil, ok: false},
	} {
		if code, ok := exitCode(tc.err); code != tc.code || ok != tc.ok {
			t.Errorf("exitCode(%v) = %d, %t; want %d, %t", tc.err, code, ok, tc.code, tc.ok)
		}
	}
}
