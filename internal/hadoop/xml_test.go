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
	want := configurationHeader + `  <property>
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
