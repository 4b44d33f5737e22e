# Rendered by hadoop-ceph-operator. Edit spec.config.hadoopEnv of the HadoopCluster
# instead: changes to this file are overwritten.

# Hadoop's daemons and commands on JDK 17 reach into JDK internals by reflection.
export HADOOP_OPTS="${HADOOP_OPTS:-} --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.security=ALL-UNNAMED --add-opens=java.base/javax.net.ssl=ALL-UNNAMED --add-opens=java.base/sun.security.util=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED"

# The ResourceManager reads capacity-scheduler.xml from a directory that follows
# ConfigMap updates, so queues change without a restart.
if [ -d /etc/hadoop-ceph/scheduler ]; then
  export HADOOP_CLASSPATH="/etc/hadoop-ceph/scheduler${HADOOP_CLASSPATH:+:$HADOOP_CLASSPATH}"
  export HADOOP_USER_CLASSPATH_FIRST=true
fi
