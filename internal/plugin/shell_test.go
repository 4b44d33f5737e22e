package plugin

import (
	"bytes"
	"strings"
	"testing"
)

func TestShellTakesOneCluster(t *testing.T) {
	for args, want := range map[string]string{
		"":    "accepts 1 arg(s), received 0",
		"a b": "accepts 1 arg(s), received 2",
	} {
		_, _, err := kubectl(t, append([]string{"-n", "nowhere", "shell"}, strings.Fields(args)...)...)
		if err == nil || err.Error() != want {
			t.Fatalf("shell %s: err = %v, want %q", args, err, want)
		}
	}
}

func TestShellWithoutATerminalHasNoTTY(t *testing.T) {
	if _, tty := terminal(&bytes.Buffer{}); tty {
		t.Fatal("a buffer is not a terminal")
	}
}
