package hadoop

import (
	"encoding/xml"
	"maps"
	"slices"
	"strings"
)

// configurationHeader names the file's origin, so whoever opens it in a pod knows
// where to change it.
const configurationHeader = `<?xml version="1.0" encoding="UTF-8"?>
<!-- Rendered by hadoop-ceph-operator. Edit spec.config of the HadoopCluster instead:
     changes to this file are overwritten. -->
<configuration>
`

// ConfigurationXML renders properties as a Hadoop configuration file (core-site.xml
// and friends). Properties are sorted by name, so equal maps give equal bytes.
func ConfigurationXML(properties map[string]string) string {
	var b strings.Builder
	b.WriteString(configurationHeader)
	for _, name := range slices.Sorted(maps.Keys(properties)) {
		b.WriteString("  <property>\n    <name>")
		writeEscaped(&b, name)
		b.WriteString("</name>\n    <value>")
		writeEscaped(&b, properties[name])
		b.WriteString("</value>\n  </property>\n")
	}
	b.WriteString("</configuration>\n")
	return b.String()
}

// writeEscaped writes s as XML character data. Characters XML 1.0 cannot carry become
// U+FFFD rather than producing a file Hadoop's parser rejects.
func writeEscaped(b *strings.Builder, s string) {
	// EscapeText only fails when the writer does, and a strings.Builder never does.
	_ = xml.EscapeText(b, []byte(s))
}

// merged returns generated with overrides applied on top: an override replaces the
// generated value of the same key.
func merged(generated, overrides map[string]string) map[string]string {
	out := maps.Clone(generated)
	maps.Copy(out, overrides)
	return out
}
