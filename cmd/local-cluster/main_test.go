package main

import (
	"slices"
	"testing"
)

func TestSplitArgs(t *testing.T) {
	for _, c := range []struct {
		args                  []string
		wantFlags, wantPosArg []string
	}{
		{[]string{"n2", "--kill", "--nodes", "3"}, []string{"--kill", "--nodes", "3"}, []string{"n2"}},
		{[]string{"--kill", "n2", "--nodes", "3"}, []string{"--kill", "--nodes", "3"}, []string{"n2"}},
		{[]string{"--nodes", "3", "n2"}, []string{"--nodes", "3"}, []string{"n2"}},
		{[]string{"n2", "--nodes=3"}, []string{"--nodes=3"}, []string{"n2"}},
		{[]string{"--nodes=3", "n2"}, []string{"--nodes=3"}, []string{"n2"}},
		{[]string{"--purge", "n2"}, []string{"--purge"}, []string{"n2"}},
		{[]string{"-purge", "-kill", "n2"}, []string{"-purge", "-kill"}, []string{"n2"}},
		{[]string{"--kill=true", "n2"}, []string{"--kill=true"}, []string{"n2"}},
		{[]string{"-nodes", "3", "--timeout", "5m"}, []string{"-nodes", "3", "--timeout", "5m"}, nil},
		// A flag at the end without its value is left for flag.Parse to refuse.
		{[]string{"n2", "--nodes"}, []string{"--nodes"}, []string{"n2"}},
		{[]string{"-"}, nil, []string{"-"}},
		{[]string{"--kill", "--", "-n2"}, []string{"--kill"}, []string{"-n2"}},
		// An unknown flag takes no value here; the FlagSet refuses it.
		{[]string{"--bogus", "n2"}, []string{"--bogus"}, []string{"n2"}},
		{nil, nil, nil},
	} {
		flags, pos := splitArgs(newFlagSet("test", &options{}), c.args)
		if !slices.Equal(flags, c.wantFlags) || !slices.Equal(pos, c.wantPosArg) {
			t.Errorf("splitArgs(%q) = %q, %q; want %q, %q", c.args, flags, pos, c.wantFlags, c.wantPosArg)
		}
	}
}
