package hadoop

import (
	"encoding/xml"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// clusterOrigin names where a HadoopCluster's files come from, so whoever opens one
// in a pod knows where to change it.
const clusterOrigin = `Rendered by hadoop-ceph-operator. Edit spec.config of the HadoopCluster instead:
     changes to this file are overwritten.`

// ConfigurationXML renders properties as a Hadoop configuration file (core-site.xml
// and friends) of a HadoopCluster. Properties are sorted by name, so equal maps give
// equal bytes.
func ConfigurationXML(properties map[string]string) string {
	return ConfigurationXMLFrom(clusterOrigin, properties)
}

// ConfigurationXMLFrom renders properties as a Hadoop configuration file whose
// comment says origin.
func ConfigurationXMLFrom(origin string, properties map[string]string) string {
	return configurationXML(origin, properties, nil)
}

// configurationXML renders properties, those named in final marked final: Hadoop then
// keeps their value when a resource added later, such as a job's job.xml, sets them
// too.
func configurationXML(origin string, properties map[string]string, final []string) string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- ")
	b.WriteString(origin)
	b.WriteString(" -->\n<configuration>\n")
	for _, name := range slices.Sorted(maps.Keys(properties)) {
		b.WriteString("  <property>\n    <name>")
		writeEscaped(&b, name)
		b.WriteString("</name>\n    <value>")
		writeEscaped(&b, properties[name])
		b.WriteString("</value>\n")
		if slices.Contains(final, name) {
			b.WriteString("    <final>true</final>\n")
		}
		b.WriteString("  </property>\n")
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

// ParseConfigurationXML reads the properties of a Hadoop configuration file, as
// Hadoop does: the last value of a name wins, and names and values are trimmed.
// Anything but a <configuration> document of <property> elements is an error, since
// a file Hadoop would refuse must not pass for an empty one.
func ParseConfigurationXML(text string) (map[string]string, error) {
	var doc struct {
		XMLName    xml.Name `xml:"configuration"`
		Properties []struct {
			Name  string `xml:"name"`
			Value string `xml:"value"`
		} `xml:"property"`
	}
	if err := xml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, fmt.Errorf("not a Hadoop configuration file: %w", err)
	}
	out := make(map[string]string, len(doc.Properties))
	for _, p := range doc.Properties {
		name := strings.TrimSpace(p.Name)
		if name == "" {
			return nil, fmt.Errorf("a <property> has no <name>")
		}
		out[name] = strings.TrimSpace(p.Value)
	}
	return out, nil
}
