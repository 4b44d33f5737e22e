package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/client-go/rest"
	certutil "k8s.io/client-go/util/cert"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

func TestMetricsOptions(t *testing.T) {
	secure, err := metricsOptions(config{metricsAddr: ":8080", metricsSecure: true})
	if err != nil {
		t.Fatal(err)
	}
	if !secure.SecureServing || secure.FilterProvider == nil || secure.CertDir != "" || secure.BindAddress != ":8080" {
		t.Errorf("--metrics-secure: %+v, want HTTPS with authentication and a self-signed certificate on :8080", secure)
	}
	plain, err := metricsOptions(config{metricsAddr: ":8080"})
	if err != nil {
		t.Fatal(err)
	}
	if plain.SecureServing || plain.FilterProvider != nil {
		t.Errorf("--metrics-secure=false: %+v, want plain HTTP for anyone", plain)
	}
	if _, err := metricsOptions(config{metricsCertDir: t.TempDir()}); err == nil {
		t.Error("a certificate for plain HTTP was accepted")
	}
	if _, err := metricsOptions(config{metricsSecure: true, metricsCertDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "tls.crt") {
		t.Errorf("a certificate directory without tls.crt: got %v, want an error naming it", err)
	}
}

// The manager's metrics server, as managerOptions configures it, against an API server
// that knows two ServiceAccount tokens: a scraper's, which may get /metrics, and
// another, which may not.
func TestSecureMetricsEndpoint(t *testing.T) {
	reviews := &fakeReviewer{}
	certDir := t.TempDir()
	cert := writeCertificate(t, certDir)

	cfg := config{metricsAddr: freeAddress(t), metricsSecure: true, metricsCertDir: certDir}
	mgrOpts, _, err := managerOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	url := "https://" + cfg.metricsAddr + "/metrics"
	startMetricsServer(t, mgrOpts.Metrics, reviews)

	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(cert)
	// A client that would speak HTTP/2 if offered.
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		TLSClientConfig:   &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
		ForceAttemptHTTP2: true,
	}}
	get := func(token string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		defer func() { _ = resp.Body.Close() }()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, string(body)
	}

	if resp, _ := get(""); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without a token: %s, want 401", resp.Status)
	}
	// controller-runtime answers 500 when the TokenReview finds the token invalid.
	if resp, body := get("not-a-token"); resp.StatusCode < 400 || strings.Contains(body, "go_goroutines") {
		t.Errorf("with a token the API server does not know: %s, want a refusal", resp.Status)
	}
	if resp, _ := get(strangerToken); resp.StatusCode != http.StatusForbidden {
		t.Errorf("with a token not allowed to get /metrics: %s, want 403", resp.Status)
	}
	resp, body := get(scraperToken)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "go_goroutines") {
		t.Fatalf("with the scraper's token: %s, want 200 with metrics:\n%.300s", resp.Status, body)
	}
	if resp.Proto != "HTTP/1.1" {
		t.Errorf("served over %s, want HTTP/1.1", resp.Proto)
	}
	if got := resp.TLS.PeerCertificates[0].Subject.CommonName; !strings.HasPrefix(got, "metrics.test@") {
		t.Errorf("served certificate %q, want the one of --metrics-cert-dir", got)
	}
	want := authorizationv1.SubjectAccessReviewSpec{
		User:                  "system:serviceaccount:monitoring:prometheus",
		NonResourceAttributes: &authorizationv1.NonResourceAttributes{Path: "/metrics", Verb: "get"},
	}
	if got := reviews.lastAccessReview(); got.User != want.User || got.NonResourceAttributes == nil || *got.NonResourceAttributes != *want.NonResourceAttributes {
		t.Errorf("asked the API server %+v, want whether %s may get /metrics", got, want.User)
	}
}

func TestPlainMetricsEndpoint(t *testing.T) {
	cfg := config{metricsAddr: freeAddress(t)}
	mgrOpts, _, err := managerOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	startMetricsServer(t, mgrOpts.Metrics, &fakeReviewer{})
	resp, err := (&http.Client{Timeout: 5 * time.Second}).Get("http://" + cfg.metricsAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("plain HTTP without a token: %s, want 200", resp.Status)
	}
}

// startMetricsServer starts a metrics server with opts, whose API server is reviewer,
// and waits until it listens.
func startMetricsServer(t *testing.T, opts metricsserver.Options, reviewer *fakeReviewer) {
	t.Helper()
	apiServer := httptest.NewServer(reviewer)
	t.Cleanup(apiServer.Close)
	restConfig := &rest.Config{Host: apiServer.URL}
	httpClient, err := rest.HTTPClientFor(restConfig)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := metricsserver.NewServer(opts, restConfig, httpClient)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	dialer := &net.Dialer{Timeout: time.Second}
	for {
		var conn net.Conn
		var err error
		if opts.SecureServing {
			// A whole handshake, or the server logs a failed one; the certificate is
			// checked by the test itself.
			conn, err = tls.DialWithDialer(dialer, "tcp", opts.BindAddress, &tls.Config{InsecureSkipVerify: true})
		} else {
			conn, err = dialer.Dial("tcp", opts.BindAddress)
		}
		if err == nil {
			_ = conn.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the metrics server does not listen on %s: %v", opts.BindAddress, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// freeAddress is a loopback address with a port nothing listens on.
func freeAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().String()
}

// writeCertificate writes a certificate for 127.0.0.1 and its key into dir as
// tls.crt and tls.key, and returns the certificate with its CA, PEM-encoded.
func writeCertificate(t *testing.T, dir string) []byte {
	t.Helper()
	cert, key, err := certutil.GenerateSelfSignedCertKey("metrics.test", []net.IP{net.ParseIP("127.0.0.1")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"tls.crt": cert, "tls.key": key} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return cert
}

const (
	scraperToken  = "scraper-token"
	strangerToken = "stranger-token"
)

// fakeReviewer answers TokenReviews and SubjectAccessReviews as an API server would
// where the scraper's ServiceAccount is bound to a ClusterRole that grants get on
// /metrics and the stranger's to none.
type fakeReviewer struct {
	mu     sync.Mutex
	access []authorizationv1.SubjectAccessReviewSpec
}

func (f *fakeReviewer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var answer any
	var err error
	switch r.URL.Path {
	case "/apis/authentication.k8s.io/v1/tokenreviews":
		answer, err = f.reviewToken(r.Body)
	case "/apis/authorization.k8s.io/v1/subjectaccessreviews":
		answer, err = f.reviewAccess(r.Body)
	default:
		http.NotFound(w, r)
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(answer)
}

func (f *fakeReviewer) reviewToken(body io.Reader) (*authenticationv1.TokenReview, error) {
	review := &authenticationv1.TokenReview{}
	if err := json.NewDecoder(body).Decode(review); err != nil {
		return nil, err
	}
	users := map[string]string{
		scraperToken:  "system:serviceaccount:monitoring:prometheus",
		strangerToken: "system:serviceaccount:team-a:stranger",
	}
	if user, ok := users[review.Spec.Token]; ok {
		review.Status = authenticationv1.TokenReviewStatus{Authenticated: true, User: authenticationv1.UserInfo{Username: user}}
	}
	return review, nil
}

func (f *fakeReviewer) reviewAccess(body io.Reader) (*authorizationv1.SubjectAccessReview, error) {
	review := &authorizationv1.SubjectAccessReview{}
	if err := json.NewDecoder(body).Decode(review); err != nil {
		return nil, err
	}
	spec := review.Spec
	if spec.ResourceAttributes != nil {
		return nil, errors.New("a review of a resource, not of /metrics")
	}
	f.mu.Lock()
	f.access = append(f.access, spec)
	f.mu.Unlock()
	nonResource := spec.NonResourceAttributes
	review.Status.Allowed = spec.User == "system:serviceaccount:monitoring:prometheus" &&
		nonResource != nil && nonResource.Path == "/metrics" && nonResource.Verb == "get"
	return review, nil
}

// lastAccessReview is what the last SubjectAccessReview asked.
func (f *fakeReviewer) lastAccessReview() authorizationv1.SubjectAccessReviewSpec {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.access) == 0 {
		return authorizationv1.SubjectAccessReviewSpec{}
	}
	return f.access[len(f.access)-1]
}
