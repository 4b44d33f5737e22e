//go:build e2e

package e2e

import (
	"bytes"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/gomega"

	"github.com/hadoopceph/hadoop-ceph-operator/test/promtext"
)

// Every HTTP request of the suite goes through request: to the Hadoop daemons' REST
// APIs and /prom, at their pods' or Services' addresses, and to the manager's /metrics.
var httpClient = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
	// The manager's certificate is the self-signed one it makes at start.
	TLSClientConfig: &tls.Config{InsecureSkipVerify: true, MinVersion: tls.VersionTLS12},
}}

// maxBody bounds what is read of an answer: a ResourceManager's /prom is about 100 KiB.
const maxBody = 16 << 20

// request sends a request with body (none when empty) and a bearer token (none when
// empty), and returns the answer's status and body, whatever the status.
func request(method, url, token, body string) (int, []byte, error) {
	var in io.Reader
	if body != "" {
		in = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, in)
	if err != nil {
		return 0, nil, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	out, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	return resp.StatusCode, out, err
}

// hostGet returns the body of a 200 answer to a GET of url.
func hostGet(url string) ([]byte, error) {
	status, body, err := request(http.MethodGet, url, "", "")
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %d %s: %s", url, status, http.StatusText(status), bytes.TrimSpace(body[:min(len(body), 512)]))
	}
	return body, nil
}

// mustGet is hostGet inside an Eventually.
func mustGet(g Gomega, url string) []byte {
	body, err := hostGet(url)
	g.Expect(err).NotTo(HaveOccurred())
	return body
}

// promGet scrapes a Prometheus endpoint that needs no token, such as a Hadoop
// daemon's /prom, and parses the scrape as Prometheus would.
func promGet(url string) (promtext.Exposition, error) {
	body, err := hostGet(url)
	if err != nil {
		return nil, err
	}
	e, err := promtext.Parse(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", url, err)
	}
	return e, nil
}
