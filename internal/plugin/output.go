package plugin

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"
)

// Output formats of the commands that print data. table is for people; yaml and json
// carry the same data, with the field names of the command's own types, for scripts.
const (
	outputTable = "table"
	outputYAML  = "yaml"
	outputJSON  = "json"
)

// outputFlag adds -o to cmd and returns where its value lands.
func outputFlag(cmd *cobra.Command) *string {
	out := cmd.Flags().StringP("output", "o", outputTable, "Output format: table, yaml or json.")
	return out
}

// checkOutput refuses a format the commands do not print, before any request is made.
func checkOutput(format string) error {
	switch format {
	case outputTable, outputYAML, outputJSON:
		return nil
	}
	return fmt.Errorf("--output %q: must be one of table, yaml, json", format)
}

// printData writes v as YAML or JSON; table output is each command's own.
func printData(w io.Writer, format string, v any) error {
	switch format {
	case outputJSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	case outputYAML:
		data, err := yaml.Marshal(v)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	return fmt.Errorf("--output %q: must be one of table, yaml, json", format)
}

// newTable aligns columns as kubectl get does.
func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 8, 3, ' ', 0)
}

// seconds shows a duration as kubectl users read benchmark stages: seconds with one
// decimal, which is as precise as a stage's start and end are.
func seconds(d time.Duration) string {
	return fmt.Sprintf("%.1fs", d.Seconds())
}

// age is kubectl's AGE column: the largest unit or two.
func age(since, now time.Time) string {
	if since.IsZero() {
		return "<unknown>"
	}
	d := now.Sub(since)
	switch {
	case d < 0:
		return "0s"
	case d < 2*time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < 10*time.Minute:
		return fmt.Sprintf("%dm%ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 3*time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh%dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// orNone shows an empty cell as kubectl does.
func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}
