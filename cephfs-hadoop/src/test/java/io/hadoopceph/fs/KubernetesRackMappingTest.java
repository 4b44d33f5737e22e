package io.hadoopceph.fs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateEncodingException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.CachedDNSToSwitchMapping;
import org.apache.hadoop.test.GenericTestUtils.LogCapturer;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.slf4j.LoggerFactory;

/**
 * Time is a fake clock that the mapping's sleeps move, so that waiting costs nothing and
 * the tests count requests rather than measure time. The API is an HTTP server on the
 * loopback interface that answers a list of ConfigMaps in turn, repeating the last.
 */
public class KubernetesRackMappingTest {

  private static final String DEFAULT = "/default-rack";
  private static final String CONFIGMAP_PATH = "/api/v1/namespaces/hadoop/configmaps/hc-topology";
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  @Rule
  public final TemporaryFolder tmp = new TemporaryFolder();

  private long now = 1_000_000_000L;
  private final Map<String, String> env = new HashMap<>();

  private HttpServer server;
  private final List<Answer> answers = Collections.synchronizedList(new ArrayList<>());
  private final List<String> authorizations = Collections.synchronizedList(new ArrayList<>());
  private final List<String> accepts = Collections.synchronizedList(new ArrayList<>());

  /** A ConfigMap the server sends: status and body. */
  private static final class Answer {
    final int status;
    final String body;

    Answer(int status, String body) {
      this.status = status;
      this.body = body;
    }
  }

  @After
  public void stopServer() {
    if (server != null) {
      server.stop(0);
    }
  }

  private KubernetesRackMapping mapping(Configuration conf) {
    KubernetesRackMapping mapping = new KubernetesRackMapping(() -> now, nanos -> now += nanos, env);
    mapping.setConf(conf);
    return mapping;
  }

  private List<String> resolve(KubernetesRackMapping mapping, String... names) {
    return mapping.resolve(Arrays.asList(names));
  }

  // ---- the table in a file

  private Path racksFile(String content, long second) throws IOException {
    Path file = tmp.getRoot().toPath().resolve("racks");
    Files.writeString(file, content, UTF_8);
    Files.setLastModifiedTime(file, FileTime.from(Instant.ofEpochSecond(second)));
    return file;
  }

  private Configuration fileConf(Path file) {
    Configuration conf = new Configuration(false);
    conf.set(CephFsConfig.TOPOLOGY_RACKS_FILE, file.toString());
    return conf;
  }

  @Test
  public void aHostIsFoundByItsNameOrByTheFirstLabelOfItsFqdn() throws IOException {
    KubernetesRackMapping mapping = mapping(fileConf(racksFile(
        "hc-nm-0 /rack-a\n"
            + "hc-nm-1.hc-nm.hadoop.svc.cluster.local /rack-b\n"
            + "Node-C rack-c\n", 100)));

    assertThat(resolve(mapping,
        "hc-nm-0",
        "HC-NM-0.hc-nm.hadoop.svc.cluster.local",
        "hc-nm-1.hc-nm.hadoop.svc.cluster.local",
        "hc-nm-1",
        "node-c.",
        "hc-nm-2.hc-nm.hadoop.svc.cluster.local"))
        .containsExactly("/rack-a", "/rack-a", "/rack-b", DEFAULT, "/rack-c", DEFAULT);
  }

  @Test
  public void anIpAddressIsFoundWholeAndNeverByItsFirstPart() throws IOException {
    KubernetesRackMapping mapping = mapping(fileConf(racksFile(
        "10 /rack-wrong\n"
            + "fd00 /rack-wrong\n"
            + "10.1.0.7 /rack-a\n"
            + "fd00::7 /rack-b\n", 100)));

    assertThat(resolve(mapping, "10.1.0.7", "10.1.0.8", "FD00:0:0::7", "[fd00::7]", "fd00::8"))
        .containsExactly("/rack-a", DEFAULT, "/rack-b", "/rack-b", DEFAULT);
  }

  @Test
  public void commentsBlankAndMalformedLinesAreSkipped() throws IOException {
    KubernetesRackMapping mapping = mapping(fileConf(racksFile(
        "# Rendered by hadoop-ceph-operator\n"
            + "\n"
            + "   \n"
            + "alone\n"
            + "three /rack-x /rack-y\n"
            + "root /\n"
            + "  spaced   /rack-s   # a comment after the rack\n"
            + "#commented /rack-c\n"
            + "\ttabbed\t/rack-t/\n"
            + "later /rack-1\n"
            + "later /rack-2\n", 100)));

    assertThat(resolve(mapping, "alone", "three", "root", "spaced", "commented", "#commented", "tabbed", "later"))
        .containsExactly(DEFAULT, DEFAULT, DEFAULT, "/rack-s", DEFAULT, DEFAULT, "/rack-t", "/rack-2");
  }

  @Test
  public void anUnknownHostIsNotCachedAndResolvesOnceTheFileHasIt() throws IOException {
    KubernetesRackMapping mapping = mapping(fileConf(racksFile("hc-nm-0 /rack-a\n", 100)));
    assertThat(resolve(mapping, "hc-nm-0", "hc-nm-1")).containsExactly("/rack-a", DEFAULT);
    assertThat(mapping.getSwitchMap()).containsOnlyKeys("hc-nm-0");

    racksFile("hc-nm-0 /rack-a\nhc-nm-1 /rack-b\n", 200);
    now += WatchedFile.CHECK_INTERVAL_NANOS;
    assertThat(resolve(mapping, "hc-nm-1")).containsExactly("/rack-b");
    assertThat(mapping.getSwitchMap()).containsEntry("hc-nm-1", "/rack-b");
  }

  @Test
  public void aFoundHostIsCachedUntilItsMappingIsReloaded() throws IOException {
    KubernetesRackMapping mapping = mapping(fileConf(racksFile("a /rack-a\nb /rack-b\n", 100)));
    assertThat(resolve(mapping, "a", "b")).containsExactly("/rack-a", "/rack-b");

    racksFile("a /rack-x\nb /rack-y\n", 200);
    now += WatchedFile.CHECK_INTERVAL_NANOS;
    assertThat(resolve(mapping, "a", "b")).as("cached").containsExactly("/rack-a", "/rack-b");

    mapping.reloadCachedMappings(Collections.singletonList("a"));
    assertThat(resolve(mapping, "a", "b")).containsExactly("/rack-x", "/rack-b");

    mapping.reloadCachedMappings();
    assertThat(mapping.getSwitchMap()).isEmpty();
    assertThat(resolve(mapping, "a", "b")).containsExactly("/rack-x", "/rack-y");
  }

  @Test
  public void aMissingFileMapsEveryHostToTheDefaultRack() {
    KubernetesRackMapping mapping = mapping(fileConf(tmp.getRoot().toPath().resolve("absent")));
    assertThat(resolve(mapping, "a", "10.0.0.1")).containsExactly(DEFAULT, DEFAULT);
    assertThat(mapping.getSwitchMap()).isEmpty();
  }

  @Test
  public void withoutFileOrConfigMapEveryHostIsInTheDefaultRack() {
    KubernetesRackMapping mapping = mapping(new Configuration(false));
    assertThat(resolve(mapping, "a", null)).containsExactly(DEFAULT, DEFAULT);
    assertThat(mapping.isSingleSwitch()).isFalse();
  }

  @Test
  public void hadoopCanMakeOneAndDoesNotNeedToWrapIt() throws IOException {
    Configuration conf = fileConf(racksFile("a /rack-a\n", 100));
    KubernetesRackMapping mapping = ReflectionUtils.newInstance(KubernetesRackMapping.class, conf);
    assertThat(mapping).isInstanceOf(CachedDNSToSwitchMapping.class);
    assertThat(mapping.getConf()).isSameAs(conf);
    assertThat(mapping.resolve(Collections.singletonList("a"))).containsExactly("/rack-a");
  }

  @Test
  public void withoutAServiceAccountTokenTheFileIsRead() throws IOException {
    Configuration conf = fileConf(racksFile("a /rack-a\n", 100));
    conf.set(CephFsConfig.TOPOLOGY_RACKS_CONFIGMAP, "hadoop/hc-topology");
    conf.set(CephFsConfig.TOPOLOGY_RACKS_API_SERVER, "http://127.0.0.1:1");
    conf.set(CephFsConfig.TOPOLOGY_RACKS_API_TOKEN_DIR, tmp.newFolder("no-token").toString());

    KubernetesRackMapping mapping = mapping(conf);
    assertThat(resolve(mapping, "a")).containsExactly("/rack-a");
    assertThat(mapping.toString()).contains("file");
  }

  // ---- the table through the API

  private static String configMap(String racks) throws IOException {
    ObjectMapper json = new ObjectMapper();
    ObjectNode cm = json.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
    cm.putObject("metadata").put("name", "hc-topology").put("namespace", "hadoop");
    ObjectNode data = cm.putObject("data");
    if (racks != null) {
      data.put("racks", racks);
    }
    data.put("hosts", "node-a hc-nm-0\n");
    return json.writeValueAsString(cm);
  }

  private void answer(String racks) throws IOException {
    answers.add(new Answer(200, configMap(racks)));
  }

  private int requests() {
    return authorizations.size();
  }

  private Path tokenDir;

  private void token(String token) throws IOException {
    Files.writeString(tokenDir.resolve("token"), token + "\n", UTF_8);
  }

  private Configuration apiConf() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(CONFIGMAP_PATH, this::serve);
    server.start();
    tokenDir = tmp.newFolder("serviceaccount").toPath();
    token("token-1");

    Configuration conf = new Configuration(false);
    conf.set(CephFsConfig.TOPOLOGY_RACKS_CONFIGMAP, "hadoop/hc-topology");
    conf.set(CephFsConfig.TOPOLOGY_RACKS_API_SERVER,
        "http://127.0.0.1:" + server.getAddress().getPort() + "/");
    conf.set(CephFsConfig.TOPOLOGY_RACKS_API_TOKEN_DIR, tokenDir.toString());
    return conf;
  }

  private void serve(HttpExchange exchange) throws IOException {
    Answer answer;
    synchronized (answers) {
      authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
      accepts.add(exchange.getRequestHeaders().getFirst("Accept"));
      answer = answers.size() > 1 ? answers.remove(0) : answers.get(0);
    }
    byte[] body = answer.body.getBytes(UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(answer.status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @Test
  public void theConfigMapIsReadWithTheServiceAccountTokenOfTheMoment() throws IOException {
    Configuration conf = apiConf();
    conf.setLong(CephFsConfig.TOPOLOGY_RACKS_WAIT_MS, 0);
    answer("hc-nm-0 /rack-a\n");
    answer("hc-nm-0 /rack-a\nhc-nm-1 /rack-b\n");
    KubernetesRackMapping mapping = mapping(conf);

    assertThat(resolve(mapping, "hc-nm-0.hc-nm.hadoop.svc.cluster.local")).containsExactly("/rack-a");
    assertThat(authorizations).containsExactly("Bearer token-1");
    assertThat(accepts).containsExactly("application/json");

    token("token-2");
    now += TimeUnit.SECONDS.toNanos(1);
    assertThat(resolve(mapping, "hc-nm-1")).containsExactly("/rack-b");
    assertThat(authorizations).containsExactly("Bearer token-1", "Bearer token-2");
  }

  @Test
  public void aMissingConfigMapMapsToTheDefaultRackWithoutWaitingAndIsLoggedOnce() throws IOException {
    Configuration conf = apiConf();
    answers.add(new Answer(404,
        "{\"kind\":\"Status\",\"message\":\"configmaps \\\"hc-topology\\\" not found\",\"code\":404}"));
    KubernetesRackMapping mapping = mapping(conf);
    LogCapturer logs = LogCapturer.captureLogs(LoggerFactory.getLogger(KubernetesRackMapping.class));
    try {
      assertThat(resolve(mapping, "a")).containsExactly(DEFAULT);
      assertThat(requests()).isEqualTo(1);
      now += TimeUnit.SECONDS.toNanos(1);
      assertThat(resolve(mapping, "a")).as("not cached: looked up again").containsExactly(DEFAULT);
      assertThat(requests()).isEqualTo(2);
      assertThat(mapping.getSwitchMap()).isEmpty();

      String output = logs.getOutput();
      assertThat(output).contains("not found (HTTP 404: configmaps \"hc-topology\" not found)");
      assertThat(output.split("HTTP 404", -1)).as("logged once").hasSize(2);
    } finally {
      logs.stopCapturing();
    }
  }

  @Test
  public void aConfigMapWithoutRacksMapsToTheDefaultRack() throws IOException {
    Configuration conf = apiConf();
    answer(null);
    KubernetesRackMapping mapping = mapping(conf);
    assertThat(resolve(mapping, "hc-nm-0")).containsExactly(DEFAULT);
    assertThat(requests()).as("an empty table is not waited for").isEqualTo(1);
  }

  @Test
  public void anUnreachableServerMapsToTheDefaultRack() throws IOException {
    Configuration conf = apiConf();
    answer("a /rack-a\n");
    server.stop(0);
    server = null;
    KubernetesRackMapping mapping = mapping(conf);
    assertThat(resolve(mapping, "a")).containsExactly(DEFAULT);
  }

  @Test
  public void aFailedReadKeepsTheLastTable() throws IOException {
    Configuration conf = apiConf();
    conf.setLong(CephFsConfig.TOPOLOGY_RACKS_WAIT_MS, 0);
    answer("a /rack-a\n");
    answers.add(new Answer(503, "{\"kind\":\"Status\",\"code\":503}"));
    KubernetesRackMapping mapping = mapping(conf);
    assertThat(resolve(mapping, "a")).containsExactly("/rack-a");

    mapping.reloadCachedMappings();
    assertThat(resolve(mapping, "a")).as("the API failed: the table read before stands").containsExactly("/rack-a");
    assertThat(requests()).isEqualTo(2);
  }

  @Test
  public void aMissIsReadAgainAtMostOncePerCallAndEveryQuarterSecond() throws IOException {
    Configuration conf = apiConf();
    conf.setLong(CephFsConfig.TOPOLOGY_RACKS_WAIT_MS, 0);
    answer("a /rack-a\n");
    KubernetesRackMapping mapping = mapping(conf);

    assertThat(resolve(mapping, "x", "y")).containsExactly(DEFAULT, DEFAULT);
    assertThat(requests()).as("just read on first use").isEqualTo(1);
    now += 249 * MS;
    assertThat(resolve(mapping, "x")).containsExactly(DEFAULT);
    assertThat(requests()).isEqualTo(1);
    now += MS;
    assertThat(resolve(mapping, "x", "y")).containsExactly(DEFAULT, DEFAULT);
    assertThat(requests()).isEqualTo(2);
    now += TimeUnit.SECONDS.toNanos(1);
    assertThat(resolve(mapping, "a")).containsExactly("/rack-a");
    assertThat(requests()).as("a hit in the table read before").isEqualTo(2);
    assertThat(resolve(mapping, "a")).containsExactly("/rack-a");
    assertThat(requests()).isEqualTo(2);
  }

  @Test
  public void aHostMissingFromTheTableIsWaitedFor() throws IOException {
    Configuration conf = apiConf();
    answer("hc-nm-0 /rack-a\n");
    answer("hc-nm-0 /rack-a\nhc-nm-1 /rack-b\n");
    KubernetesRackMapping mapping = mapping(conf);

    assertThat(resolve(mapping, "hc-nm-1.hc-nm.hadoop.svc.cluster.local")).containsExactly("/rack-b");
    assertThat(requests()).isEqualTo(2);
    assertThat(mapping.getSwitchMap()).containsOnlyKeys("hc-nm-1.hc-nm.hadoop.svc.cluster.local");
  }

  @Test
  public void aHostThatNeverComesIsWaitedForOnlyUpToTheLimit() throws IOException {
    Configuration conf = apiConf();
    conf.setLong(CephFsConfig.TOPOLOGY_RACKS_WAIT_MS, 1000);
    answer("hc-nm-0 /rack-a\n");
    KubernetesRackMapping mapping = mapping(conf);
    long start = now;

    assertThat(resolve(mapping, "hc-nm-9")).containsExactly(DEFAULT);
    assertThat(requests()).as("on first use, then every 250 ms").isEqualTo(1 + 4);
    assertThat(now - start).isEqualTo(1000 * MS);
    assertThat(mapping.getSwitchMap()).isEmpty();
  }

  @Test
  public void anEmptyTableIsNotWaitedFor() throws IOException {
    Configuration conf = apiConf();
    answer("# no racks in this cluster\n");
    answer("hc-nm-0 /rack-a\n");
    KubernetesRackMapping mapping = mapping(conf);
    long start = now;

    assertThat(resolve(mapping, "hc-nm-0")).containsExactly(DEFAULT);
    assertThat(requests()).isEqualTo(1);
    assertThat(now).isEqualTo(start);
  }

  @Test
  public void reloadingReadsTheConfigMapAgain() throws IOException {
    Configuration conf = apiConf();
    answer("a /rack-a\nb /rack-b\n");
    answer("a /rack-x\nb /rack-y\n");
    KubernetesRackMapping mapping = mapping(conf);
    assertThat(resolve(mapping, "a", "b")).containsExactly("/rack-a", "/rack-b");

    assertThat(resolve(mapping, "a", "b")).as("cached").containsExactly("/rack-a", "/rack-b");
    assertThat(requests()).isEqualTo(1);

    mapping.reloadCachedMappings(Collections.singletonList("a"));
    assertThat(resolve(mapping, "a", "b")).containsExactly("/rack-x", "/rack-b");
    assertThat(requests()).isEqualTo(2);

    mapping.reloadCachedMappings();
    assertThat(resolve(mapping, "a", "b")).containsExactly("/rack-x", "/rack-y");
    assertThat(requests()).isEqualTo(3);
  }

  @Test
  public void theServerIsThePodsKubernetesService() throws IOException {
    assertThat(KubernetesConfigMapReader.serverFromEnv(Map.of(
        "KUBERNETES_SERVICE_HOST", "10.96.0.1", "KUBERNETES_SERVICE_PORT", "443")))
        .isEqualTo("https://10.96.0.1:443");
    assertThat(KubernetesConfigMapReader.serverFromEnv(Map.of(
        "KUBERNETES_SERVICE_HOST", "fd00:10:96::1", "KUBERNETES_SERVICE_PORT", "6443")))
        .isEqualTo("https://[fd00:10:96::1]:6443");
    assertThat(KubernetesConfigMapReader.serverFromEnv(Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1")))
        .isEqualTo("https://10.96.0.1:443");
    assertThat(KubernetesConfigMapReader.serverFromEnv(Map.of())).isNull();

    Path dir = tmp.newFolder("sa").toPath();
    Files.writeString(dir.resolve("token"), "t", UTF_8);
    env.put("KUBERNETES_SERVICE_HOST", "fd00:10:96::1");
    env.put("KUBERNETES_SERVICE_PORT", "443");
    Configuration conf = new Configuration(false);
    conf.set(CephFsConfig.TOPOLOGY_RACKS_CONFIGMAP, "hadoop/hc-topology");
    conf.set(CephFsConfig.TOPOLOGY_RACKS_API_TOKEN_DIR, dir.toString());
    assertThat(mapping(conf).toString())
        .contains("https://[fd00:10:96::1]:443/api/v1/namespaces/hadoop/configmaps/hc-topology");
  }

  /** A keystore with a self-signed certificate for 127.0.0.1, made by the JDK's keytool. */
  private Path selfSigned() throws IOException, InterruptedException {
    Path keystore = tmp.getRoot().toPath().resolve("server.p12");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    Process p = new ProcessBuilder(keytool, "-genkeypair", "-alias", "server", "-keyalg", "EC",
        "-groupname", "secp256r1", "-dname", "CN=cluster-ca", "-ext", "san=ip:127.0.0.1", "-validity", "2",
        "-storetype", "PKCS12", "-keystore", keystore.toString(), "-storepass", "secret")
        .redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), UTF_8);
    assertThat(p.waitFor()).as(output).isZero();
    return keystore;
  }

  private static String pem(Certificate cert) throws CertificateEncodingException {
    return "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(UTF_8)).encodeToString(cert.getEncoded())
        + "\n-----END CERTIFICATE-----\n";
  }

  @Test
  public void overTlsOnlyTheCaCertificateIsTrusted() throws Exception {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(selfSigned())) {
      keys.load(in, "secret".toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, "secret".toCharArray());
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(kmf.getKeyManagers(), null, null);
    HttpsServer https = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    https.setHttpsConfigurator(new HttpsConfigurator(tls));
    https.createContext(CONFIGMAP_PATH, this::serve);
    https.start();
    server = https;
    answer("a /rack-a\n");

    tokenDir = tmp.newFolder("serviceaccount").toPath();
    token("token-1");
    Configuration conf = new Configuration(false);
    conf.set(CephFsConfig.TOPOLOGY_RACKS_CONFIGMAP, "hadoop/hc-topology");
    conf.set(CephFsConfig.TOPOLOGY_RACKS_API_SERVER, "https://127.0.0.1:" + https.getAddress().getPort());
    conf.set(CephFsConfig.TOPOLOGY_RACKS_API_TOKEN_DIR, tokenDir.toString());

    // Another CA, here one of the JDK's public roots: the server is not trusted.
    KeyStore jdk = KeyStore.getInstance(KeyStore.getDefaultType());
    try (InputStream in = Files.newInputStream(Path.of(System.getProperty("java.home"), "lib", "security", "cacerts"))) {
      jdk.load(in, null);
    }
    Files.writeString(tokenDir.resolve("ca.crt"), pem(jdk.getCertificate(jdk.aliases().nextElement())), UTF_8);
    assertThat(resolve(mapping(conf), "a")).containsExactly(DEFAULT);
    assertThat(requests()).isZero();

    Files.writeString(tokenDir.resolve("ca.crt"), pem(keys.getCertificate("server")), UTF_8);
    assertThat(resolve(mapping(conf), "a")).containsExactly("/rack-a");
    assertThat(authorizations).containsExactly("Bearer token-1");
  }

  @Test
  public void withoutItsCaCertificateTheApiIsNotTrusted() throws IOException {
    Path dir = tmp.newFolder("sa").toPath();
    Files.writeString(dir.resolve("token"), "t", UTF_8);
    Files.writeString(dir.resolve("ca.crt"), "not a certificate\n", UTF_8);
    assertThatThrownBy(() -> KubernetesConfigMapReader.trusting(dir.resolve("ca.crt")))
        .isInstanceOf(IOException.class).hasMessageContaining("cannot trust");

    // The certificate fails before any connection, so no server is needed.
    Configuration conf = new Configuration(false);
    conf.set(CephFsConfig.TOPOLOGY_RACKS_CONFIGMAP, "hadoop/hc-topology");
    conf.set(CephFsConfig.TOPOLOGY_RACKS_API_SERVER, "https://127.0.0.1:1");
    conf.set(CephFsConfig.TOPOLOGY_RACKS_API_TOKEN_DIR, dir.toString());
    assertThat(resolve(mapping(conf), "a")).containsExactly(DEFAULT);
  }

  @Test
  public void aConfigMapNotNamedAsNamespaceSlashNameIsIgnored() throws IOException {
    Configuration conf = fileConf(racksFile("a /rack-a\n", 100));
    Path dir = tmp.newFolder("sa").toPath();
    Files.writeString(dir.resolve("token"), "t", UTF_8);
    conf.set(CephFsConfig.TOPOLOGY_RACKS_CONFIGMAP, "hc-topology");
    conf.set(CephFsConfig.TOPOLOGY_RACKS_API_TOKEN_DIR, dir.toString());
    conf.set(CephFsConfig.TOPOLOGY_RACKS_API_SERVER, "http://127.0.0.1:1");
    assertThat(resolve(mapping(conf), "a")).containsExactly("/rack-a");
  }
}
