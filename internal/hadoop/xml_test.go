package hadoop

import (
	"strings"
	"testing"
)

func TestConfigurationXML(t *testing.T) {
	got := ConfigurationXML(map[string]string{
		"b.key":  `<a & "b">`,
		"a.key":  "x\ty",
		"c.key":  "",
		"d.bell": "\a",
	})
	want := `<?xml version="1.0" encoding="UTF-8"?>
<!-- Rendered by hadoop-ceph-operator. Edit spec.config of the HadoopCluster instead:
     changes to this file are overwritten. -->
<configuration>
  <property>
    <name>a.key</name>
    <value>x&#x9;y</value>
  </property>
  <property>
    <name>b.key</name>
    <value>&lt;a &amp; &#34;b&#34;&gt;</value>
  </property>
  <property>
    <name>c.key</name>
    <value></value>
  </property>
  <property>
    <name>d.bell</name>
    <value>` + "\uFFFD" + `</value>
  </property>
</configuration>
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestConfigurationXMLEmpty(t *testing.T) {
	if got := ConfigurationXML(nil); !strings.HasSuffix(got, "<configuration>\n</configuration>\n") {
		t.Errorf("an empty configuration should still be a valid file, got\n%s", got)
	}
}

func TestConfigurationXMLIsDeterministic(t *testing.T) {
	props := map[string]string{}
	for _, k := range strings.Fields("q w e r t y u i o p a s d f g h j k l z x c v b n m") {
		props[k] = k
	}
	first := ConfigurationXML(props)
	for range 20 {
		if ConfigurationXML(props) != first {
			t.Fatal("the same properties rendered differently")
		}
	}
}

func TestParseConfigurationXMLReadsWhatIsRendered(t *testing.T) {
	props := map[string]string{"fs.defaultFS": "hdfs://hdfs/", "odd": `<a & "b">`, "empty": ""}
	got, err := ParseConfigurationXML(ConfigurationXMLFrom("a test", props))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(props) {
		t.Fatalf("got %v, want %v", got, props)
	}
	for k, v := range props {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

func TestParseConfigurationXMLAsHadoopReadsIt(t *testing.T) {
	got, err := ParseConfigurationXML(`<?xml version="1.0"?>
<configuration>
  <property><name> dfs.replication </name><value> 2 </value><final>true</final></property>
  <property><name>dfs.replication</name><value>3</value></property>
</configuration>`)
	if err != nil {
		t.Fatal(err)
	}
	if got["dfs.replication"] != "3" {
		t.Errorf("dfs.replication = %q: the last value, trimmed, should win", got["dfs.replication"])
	}
}

func TestParseConfigurationXMLRefusesOtherDocuments(t *testing.T) {
	for name, text := range map[string]string{
		"not XML":        "fs.defaultFS=hdfs://x",
		"another root":   "<properties><property><name>a</name><value>b</value></property></properties>",
		"a nameless one": "<configuration><property><value>b</value></property></configuration>",
	} {
		if _, err := ParseConfigurationXML(text); err == nil {
			t.Errorf("%s: parsed without an error", name)
		}
	}
}
