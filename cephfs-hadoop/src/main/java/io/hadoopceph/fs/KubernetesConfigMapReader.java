package io.hadoopceph.fs;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Map;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads a key of one ConfigMap through the Kubernetes API, as the pod's service account:
 * the bearer token and the CA certificate come from the directory Kubernetes mounts them
 * in. Used where a mounted ConfigMap would be too late, since the kubelet refreshes a
 * volume only a minute or so after the ConfigMap changed.
 */
final class KubernetesConfigMapReader {

  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String configMap;
  private final URI uri;
  private final Path tokenFile;
  private final Path caFile;
  private HttpClient client;

  /** server is a base URL such as {@code https://10.96.0.1:443}. */
  KubernetesConfigMapReader(String server, String namespace, String name, Path tokenDir) {
    this.configMap = namespace + "/" + name;
    String base = server.endsWith("/") ? server.substring(0, server.length() - 1) : server;
    this.uri = URI.create(base + "/api/v1/namespaces/" + namespace + "/configmaps/" + name);
    this.tokenFile = tokenDir.resolve("token");
    this.caFile = tokenDir.resolve("ca.crt");
  }

  /** The API server a pod reaches through the kubernetes Service; null outside a pod. */
  static String serverFromEnv(Map<String, String> env) {
    String host = trimToNull(env.get("KUBERNETES_SERVICE_HOST"));
    if (host == null) {
      return null;
    }
    String port = trimToNull(env.get("KUBERNETES_SERVICE_PORT"));
    if (host.indexOf(':') >= 0 && !host.startsWith("[")) {
      host = "[" + host + "]";
    }
    return "https://" + host + ":" + (port == null ? "443" : port);
  }

  URI uri() {
    return uri;
  }

  /** The value of key in the ConfigMap; an IOException says why there is none. */
  synchronized String read(String key) throws IOException, InterruptedException {
    // Read on every request: a projected token is replaced before it expires.
    String token;
    try {
      token = new String(Files.readAllBytes(tokenFile), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new IOException("cannot read the service account token: " + e, e);
    }
    HttpRequest request = HttpRequest.newBuilder(uri)
        .timeout(REQUEST_TIMEOUT)
        .header("Authorization", "Bearer " + token)
        .header("Accept", "application/json")
        .GET()
        .build();
    HttpResponse<String> response = client().send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    int status = response.statusCode();
    if (status != 200) {
      throw new IOException(describe(status, response.body()));
    }
    JsonNode value = JSON.readTree(response.body()).path("data").path(key);
    if (!value.isTextual()) {
      throw new IOException("ConfigMap " + configMap + " has no data key " + key);
    }
    return value.asText();
  }

  private String describe(int status, String body) {
    String what;
    if (status == 404) {
      what = "ConfigMap " + configMap + " not found";
    } else if (status == 401 || status == 403) {
      what = "the service account may not get ConfigMap " + configMap;
    } else {
      what = "reading ConfigMap " + configMap + " failed";
    }
    // The API server says why in a Status object; a proxy in between may send anything.
    String message = null;
    try {
      message = JSON.readTree(body).path("message").textValue();
    } catch (IOException | RuntimeException e) {
      // no Status object
    }
    return what + " (HTTP " + status + (message == null ? "" : ": " + message) + ")";
  }

  private HttpClient client() throws IOException {
    if (client == null) {
      HttpClient.Builder builder = HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(CONNECT_TIMEOUT);
      if ("https".equalsIgnoreCase(uri.getScheme())) {
        builder.sslContext(trusting(caFile));
      }
      client = builder.build();
    }
    return client;
  }

  /** TLS that trusts only the certificates in caFile (PEM), as the cluster's CA signs the API server's. */
  static SSLContext trusting(Path caFile) throws IOException {
    KeyStore trusted;
    try (InputStream in = Files.newInputStream(caFile)) {
      trusted = KeyStore.getInstance(KeyStore.getDefaultType());
      trusted.load(null, null);
      int i = 0;
      for (Certificate cert : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        trusted.setCertificateEntry("ca-" + i++, cert);
      }
      if (i == 0) {
        throw new GeneralSecurityException("no certificate in it");
      }
    } catch (IOException | GeneralSecurityException e) {
      throw new IOException("cannot trust " + caFile + ": " + e, e);
    }
    try {
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trusted);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, tmf.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot set up TLS: " + e, e);
    }
  }

  private static String trimToNull(String value) {
    if (value == null) {
      return null;
    }
    String trimmed = value.trim();
    return trimmed.isEmpty() ? null : trimmed;
  }
}
