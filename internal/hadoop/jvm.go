package hadoop

import "strings"

// jdk17Opens opens the JDK packages that Hadoop 3.4's daemons and MapReduce tasks (or
// the libraries they use, such as Guice and cglib) reach into by reflection, which JDK
// 17 forbids by default. The connector's tests run Hadoop with the same list.
var jdk17Opens = strings.Join([]string{
	"--add-opens=java.base/java.lang=ALL-UNNAMED",
	"--add-opens=java.base/java.util=ALL-UNNAMED",
	"--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
	"--add-opens=java.base/java.net=ALL-UNNAMED",
	"--add-opens=java.base/java.io=ALL-UNNAMED",
	"--add-opens=java.base/java.nio=ALL-UNNAMED",
	"--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
	"--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
	"--add-opens=java.base/java.text=ALL-UNNAMED",
	"--add-opens=java.base/java.security=ALL-UNNAMED",
	"--add-opens=java.base/javax.net.ssl=ALL-UNNAMED",
	"--add-opens=java.base/sun.security.util=ALL-UNNAMED",
	"--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
}, " ")
