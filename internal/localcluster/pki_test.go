package localcluster

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"
)

var testNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// testCAPEM makes a throwaway CA: its certificate, its key as PKCS#8 and as SEC 1.
func testCAPEM(t *testing.T, cn string) (certPEM, pkcs8PEM, sec1PEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: cn},
		NotBefore:             testNow.Add(-24 * time.Hour),
		NotAfter:              testNow.Add(20 * 365 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	p8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	sec1, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: p8}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: sec1})
}

func testCA(t *testing.T, cn string) CA {
	t.Helper()
	cert, key, _ := testCAPEM(t, cn)
	ca, err := ParseCA(cert, key)
	if err != nil {
		t.Fatal(err)
	}
	return ca
}

func TestParseCA(t *testing.T) {
	cert, p8, sec1 := testCAPEM(t, "hco test CA")
	for _, c := range []struct {
		name      string
		cert, key []byte
		wantErr   string
	}{
		{"PKCS#8", cert, p8, ""},
		{"SEC 1", cert, sec1, ""},
		{"garbage certificate", []byte("not PEM"), p8, "no PEM CERTIFICATE block"},
		{"key as certificate", p8, p8, "no PEM CERTIFICATE block"},
		{"bad certificate DER", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("x")}), p8, "CA certificate:"},
		{"garbage key", cert, []byte("not PEM"), "CA key: no PEM block"},
		{"certificate as key", cert, cert, `PEM block "CERTIFICATE"`},
		{"RSA block type", cert, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: []byte("x")}), `PEM block "RSA PRIVATE KEY"`},
		{"bad PKCS#8 DER", cert, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("x")}), "CA key:"},
		{"SEC 1 bytes as PKCS#8", cert, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: mustPEMBytes(t, sec1)}), "CA key:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ca, err := ParseCA(c.cert, c.key)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want one with %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ca.Cert.Subject.CommonName != "hco test CA" || string(ca.CertPEM) != string(c.cert) {
				t.Errorf("CA %q with PEM %q, want the one given", ca.Cert.Subject.CommonName, ca.CertPEM)
			}
			// The key must be the certificate's, or nothing it signs would verify.
			pub, ok := ca.Key.Public().(*ecdsa.PublicKey)
			if !ok || !pub.Equal(ca.Cert.PublicKey) {
				t.Errorf("key %T does not match the certificate", ca.Key.Public())
			}
		})
	}
}

func mustPEMBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	block, _ := pem.Decode(b)
	if block == nil {
		t.Fatal("no PEM block")
	}
	return block.Bytes
}

func TestIssue(t *testing.T) {
	ca := testCA(t, "hco test CA")
	pool := x509.NewCertPool()
	pool.AddCert(ca.Cert)
	l := testLayout(t, 3)
	for _, c := range []struct {
		name      string
		node      string
		req       func(Node) CertRequest
		usage     x509.ExtKeyUsage
		wrongUse  x509.ExtKeyUsage
		wantDNS   []string
		wantIPs   []string
		verifyDNS string
	}{
		{"n2 client", "n2", KubeletClient, x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth, nil, nil, ""},
		{"n2 serving", "n2", KubeletServing, x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth, []string{"n2.hco.test"}, []string{"10.118.1.2"}, "n2.hco.test"},
		{"n3 serving, short label", "n3", KubeletServing, x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth, []string{"n3", "n3.hco.test"}, []string{"10.118.2.2"}, "n3"},
	} {
		n := testWorker(t, l, c.node)
		r := c.req(n)
		t.Run(c.name, func(t *testing.T) {
			certPEM, keyPEM, err := ca.Issue(r, testNow)
			if err != nil {
				t.Fatal(err)
			}
			cert, err := x509.ParseCertificate(mustPEMBytes(t, certPEM))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cert.Verify(x509.VerifyOptions{Roots: pool, CurrentTime: testNow, KeyUsages: []x509.ExtKeyUsage{c.usage}, DNSName: c.verifyDNS}); err != nil {
				t.Errorf("verify for %v: %v", c.usage, err)
			}
			if _, err := cert.Verify(x509.VerifyOptions{Roots: pool, CurrentTime: testNow, KeyUsages: []x509.ExtKeyUsage{c.wrongUse}}); err == nil {
				t.Errorf("verifies for %v too", c.wrongUse)
			}
			if _, err := cert.Verify(x509.VerifyOptions{Roots: pool, CurrentTime: testNow.Add(11 * 365 * 24 * time.Hour), KeyUsages: []x509.ExtKeyUsage{c.usage}}); err == nil {
				t.Error("still valid 11 years on")
			}
			if cert.Subject.CommonName != "system:node:"+n.Name {
				t.Errorf("CN %q, want system:node:%s", cert.Subject.CommonName, n.Name)
			}
			if !slices.Equal(cert.Subject.Organization, []string{"system:nodes"}) {
				t.Errorf("O %q, want [system:nodes]", cert.Subject.Organization)
			}
			if cert.IsCA {
				t.Error("a leaf certificate is a CA")
			}
			// Compared as a set: a name given twice names nothing more.
			if got := slices.Compact(slices.Sorted(slices.Values(cert.DNSNames))); !slices.Equal(got, c.wantDNS) {
				t.Errorf("DNS SANs %q, want %q", cert.DNSNames, c.wantDNS)
			}
			var ips []string
			for _, ip := range cert.IPAddresses {
				ips = append(ips, ip.String())
			}
			if !slices.Equal(ips, c.wantIPs) {
				t.Errorf("IP SANs %q, want %q", ips, c.wantIPs)
			}

			key, err := x509.ParsePKCS8PrivateKey(mustPEMBytes(t, keyPEM))
			if err != nil {
				t.Fatal(err)
			}
			ek, ok := key.(*ecdsa.PrivateKey)
			if !ok || ek.Curve != elliptic.P256() || !ek.PublicKey.Equal(cert.PublicKey) {
				t.Errorf("key %T is not the certificate's P-256 key", key)
			}
		})
	}
}

func TestCertMatches(t *testing.T) {
	ca := testCA(t, "hco test CA")
	other := testCA(t, "another CA")
	l := testLayout(t, 3)
	n2, n3 := testWorker(t, l, "n2"), testWorker(t, l, "n3")

	serving := KubeletServing(n2)
	servingPEM, servingKey, err := ca.Issue(serving, testNow)
	if err != nil {
		t.Fatal(err)
	}
	clientPEM, clientKey, err := ca.Issue(KubeletClient(n2), testNow)
	if err != nil {
		t.Fatal(err)
	}
	byOther, byOtherKey, err := other.Issue(serving, testNow)
	if err != nil {
		t.Fatal(err)
	}

	movedIP := KubeletServing(n2)
	movedIP.IPs = []netip.Addr{netip.MustParseAddr("10.118.1.3")}
	extraIP := KubeletServing(n2)
	extraIP.IPs = append(extraIP.IPs, netip.MustParseAddr("10.118.1.3"))
	renamed := KubeletServing(n2)
	renamed.DNSNames = []string{"n2.other.test", "n2.other.test"}
	otherOrg := KubeletServing(n2)
	otherOrg.Organization = []string{"system:masters"}

	for _, c := range []struct {
		name string
		ca   CA
		cert []byte
		key  []byte
		r    CertRequest
		now  time.Time
		want bool
	}{
		{"serving, as issued", ca, servingPEM, servingKey, serving, testNow, true},
		{"client, as issued", ca, clientPEM, clientKey, KubeletClient(n2), testNow, true},
		{"serving for another node", ca, servingPEM, servingKey, KubeletServing(n3), testNow, false},
		{"client for another node", ca, clientPEM, clientKey, KubeletClient(n3), testNow, false},
		{"other IP", ca, servingPEM, servingKey, movedIP, testNow, false},
		{"one more IP", ca, servingPEM, servingKey, extraIP, testNow, false},
		{"other DNS names", ca, servingPEM, servingKey, renamed, testNow, false},
		{"other organization", ca, servingPEM, servingKey, otherOrg, testNow, false},
		{"client certificate for the serving request", ca, clientPEM, clientKey, serving, testNow, false},
		{"signed by another CA", ca, byOther, byOtherKey, serving, testNow, false},
		{"checked against another CA", other, servingPEM, servingKey, serving, testNow, false},
		{"garbage", ca, []byte("garbage"), servingKey, serving, testNow, false},
		{"not DER", ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("x")}), servingKey, serving, testNow, false},
		{"empty", ca, nil, servingKey, serving, testNow, false},
		{"another key", ca, servingPEM, clientKey, serving, testNow, false},
		{"expired", ca, servingPEM, servingKey, serving, testNow.Add(11 * 365 * 24 * time.Hour), false},
		{"not yet valid", ca, servingPEM, servingKey, serving, testNow.Add(-2 * time.Hour), false},
	} {
		if got := CertMatches(c.ca, c.cert, c.key, c.r, c.now); got != c.want {
			t.Errorf("%s: CertMatches = %v, want %v", c.name, got, c.want)
		}
	}
}
