package localcluster

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"os"
	"path/filepath"
	"time"
)

// ControlPlaneCert is one certificate of the first node's, in pki/<Name>.crt and .key,
// and the processes that must restart when it is issued again (a client certificate
// reaches its process through a kubeconfig, whose change restarts it anyway).
type ControlPlaneCert struct {
	Name    string
	Request CertRequest
	Users   []string
}

// ControlPlaneCerts are the first node's certificates.
func ControlPlaneCerts(cp ControlPlane) []ControlPlaneCert {
	domain := cp.Settings.ClusterDomain
	loopback := netip.MustParseAddr("127.0.0.1")
	client := func(name, cn string, org ...string) ControlPlaneCert {
		return ControlPlaneCert{Name: name, Request: CertRequest{CommonName: cn, Organization: org}}
	}
	node := "system:node:" + cp.NodeName
	return []ControlPlaneCert{
		// kubernetes.default.svc resolves to the kubernetes Service's address through the
		// cluster DNS, so a client that uses the name verifies as well as one that uses
		// an address.
		{Name: "apiserver", Users: []string{"kube-apiserver"}, Request: CertRequest{
			CommonName: "kube-apiserver", Server: true,
			DNSNames: []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc",
				"kubernetes.default.svc." + domain},
			IPs: []netip.Addr{loopback, cp.Settings.APIServiceIP},
		}},
		{Name: "kubelet-serving", Users: []string{"kubelet"}, Request: CertRequest{
			CommonName: node, Organization: []string{"system:nodes"}, Server: true,
			DNSNames: []string{cp.NodeName, "localhost"},
			IPs:      []netip.Addr{loopback, cp.NodeIP},
		}},
		// The API server's identity towards the kubelets (logs, exec).
		{Name: "apiserver-kubelet-client", Users: []string{"kube-apiserver"},
			Request: CertRequest{CommonName: "kube-apiserver-kubelet-client"}},
		client("admin", "kubernetes-admin", "system:masters"),
		client("controller-manager", "system:kube-controller-manager"),
		client("scheduler", "system:kube-scheduler"),
		client("kubelet", node, "system:nodes"),
		// The API server's built-in binding system:node-proxier authorises this user.
		client("kube-proxy", "system:kube-proxy"),
		client("coredns", CoreDNSUser),
	}
}

// KeyPair is a PEM certificate and its key.
type KeyPair struct{ Cert, Key []byte }

// PKI is the first node's CA and certificates, by name.
type PKI struct {
	CA    CA
	Certs map[string]KeyPair
}

// EnsurePKI makes the cluster's CA and service-account key under dir when missing,
// keeps every certificate of ControlPlaneCerts that still names what it should, and
// issues the others. It returns the PKI and the processes whose certificates it issued.
func EnsurePKI(dir string, cp ControlPlane, now time.Time) (PKI, []string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return PKI{}, nil, err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return PKI{}, nil, err
	}
	ca, err := ensureCA(dir, now)
	if err != nil {
		return PKI{}, nil, err
	}
	if err := ensureServiceAccountKey(dir); err != nil {
		return PKI{}, nil, err
	}
	p := PKI{CA: ca, Certs: map[string]KeyPair{}}
	var restart []string
	for _, c := range ControlPlaneCerts(cp) {
		before, _ := os.ReadFile(filepath.Join(dir, c.Name+".crt"))
		cert, key, err := certificate(ca, dir, c.Name, c.Request)
		if err != nil {
			return PKI{}, nil, fmt.Errorf("certificate %s: %w", c.Name, err)
		}
		if string(before) != string(cert) {
			restart = append(restart, c.Users...)
		}
		p.Certs[c.Name] = KeyPair{Cert: cert, Key: key}
	}
	return p, restart, nil
}

// ensureCA reads the CA under dir, or makes one: a P-256 key, ten years.
func ensureCA(dir string, now time.Time) (CA, error) {
	crt, key := filepath.Join(dir, "ca.crt"), filepath.Join(dir, "ca.key")
	certPEM, errC := os.ReadFile(crt)
	keyPEM, errK := os.ReadFile(key)
	if errC == nil && errK == nil {
		return ParseCA(certPEM, keyPEM)
	}
	if !errors.Is(errC, fs.ErrNotExist) && errC != nil {
		return CA{}, errC
	}
	if errC == nil {
		// A certificate without its key cannot sign: every certificate it signed goes too.
		return CA{}, fmt.Errorf("%s exists without %s: remove the cluster (hack/cluster/down.sh) to start over", crt, key)
	}
	certPEM, keyPEM, err := NewCA("hco-local-cluster-ca", now)
	if err != nil {
		return CA{}, err
	}
	if err := os.WriteFile(key, keyPEM, 0o600); err != nil {
		return CA{}, err
	}
	if err := os.WriteFile(crt, certPEM, 0o644); err != nil {
		return CA{}, err
	}
	return ParseCA(certPEM, keyPEM)
}

// NewCA makes a self-signed CA: a P-256 key, valid for ten years from now.
func NewCA(cn string, now time.Time) (certPEM, keyPEM []byte, err error) {
	return newKeyAndCert(&x509.Certificate{
		Subject:               pkix.Name{CommonName: cn},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(10 * 365 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}, nil, nil)
}

// ensureServiceAccountKey makes sa.key and sa.pub, with which the API server signs
// and checks ServiceAccount tokens, when missing.
func ensureServiceAccountKey(dir string) error {
	priv, pub := filepath.Join(dir, "sa.key"), filepath.Join(dir, "sa.pub")
	if _, err := os.Stat(pub); err == nil {
		return nil
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return err
	}
	pubDER, err := x509.MarshalPKIXPublicKey(key.Public())
	if err != nil {
		return err
	}
	if err := os.WriteFile(priv, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		return err
	}
	return os.WriteFile(pub, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}), 0o644)
}
