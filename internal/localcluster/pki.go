package localcluster

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/netip"
	"slices"
	"time"
)

// CA is the cluster's certificate authority, made by hack/cluster/up.sh.
type CA struct {
	Cert    *x509.Certificate
	CertPEM []byte
	Key     crypto.Signer
}

// ParseCA reads a PEM certificate and its PKCS#8 (or SEC 1) private key.
func ParseCA(certPEM, keyPEM []byte) (CA, error) {
	cb, _ := pem.Decode(certPEM)
	if cb == nil || cb.Type != "CERTIFICATE" {
		return CA{}, errors.New("CA certificate: no PEM CERTIFICATE block")
	}
	cert, err := x509.ParseCertificate(cb.Bytes)
	if err != nil {
		return CA{}, fmt.Errorf("CA certificate: %w", err)
	}
	kb, _ := pem.Decode(keyPEM)
	if kb == nil {
		return CA{}, errors.New("CA key: no PEM block")
	}
	var key any
	switch kb.Type {
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(kb.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(kb.Bytes)
	default:
		return CA{}, fmt.Errorf("CA key: PEM block %q, want PRIVATE KEY or EC PRIVATE KEY", kb.Type)
	}
	if err != nil {
		return CA{}, fmt.Errorf("CA key: %w", err)
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return CA{}, fmt.Errorf("CA key: %T cannot sign", key)
	}
	return CA{Cert: cert, CertPEM: certPEM, Key: signer}, nil
}

// CertRequest says what a leaf certificate names.
type CertRequest struct {
	CommonName   string
	Organization []string
	Server       bool
	DNSNames     []string
	IPs          []netip.Addr
}

// Issue signs a new P-256 key's certificate with the CA and returns both as PEM.
func (ca CA) Issue(r CertRequest, now time.Time) (certPEM, keyPEM []byte, err error) {
	usage := x509.ExtKeyUsageClientAuth
	if r.Server {
		usage = x509.ExtKeyUsageServerAuth
	}
	tmpl := &x509.Certificate{
		Subject:               pkix.Name{CommonName: r.CommonName, Organization: r.Organization},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(10 * 365 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:           []x509.ExtKeyUsage{usage},
		BasicConstraintsValid: true,
		DNSNames:              r.DNSNames,
	}
	for _, ip := range r.IPs {
		tmpl.IPAddresses = append(tmpl.IPAddresses, net.IP(ip.AsSlice()))
	}
	return newKeyAndCert(tmpl, ca.Cert, ca.Key)
}

// newKeyAndCert makes a P-256 key and its certificate from tmpl, given a random
// serial, signed by parent's key (the new key itself when parent is nil: self-signed).
func newKeyAndCert(tmpl, parent *x509.Certificate, parentKey crypto.Signer) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	if tmpl.SerialNumber, err = rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127)); err != nil {
		return nil, nil, err
	}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, key.Public(), parentKey)
	if err != nil {
		return nil, nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), nil
}

// KubeletClient is the node's identity towards the API server, which the Node
// authorizer and NodeRestriction recognise by this group and name.
func KubeletClient(n Node) CertRequest {
	return CertRequest{CommonName: "system:node:" + n.Name, Organization: []string{"system:nodes"}}
}

// KubeletServing is what the API server checks when it connects to the kubelet (logs,
// exec, port-forward) at the node's InternalIP.
func KubeletServing(n Node) CertRequest {
	return CertRequest{
		CommonName:   "system:node:" + n.Name,
		Organization: []string{"system:nodes"},
		Server:       true,
		DNSNames:     dnsNames(n),
		IPs:          []netip.Addr{n.NodeIP},
	}
}

// dnsNames are the node's name and, when it differs, its hostname label.
func dnsNames(n Node) []string {
	if n.HostnameLabel == n.Name {
		return []string{n.Name}
	}
	return []string{n.Name, n.HostnameLabel}
}

// CertMatches tells whether a PEM certificate still names what r asks for, for the
// same use, was signed by ca, is valid at now and belongs to the PEM key, so that an
// unchanged node keeps its certificates across runs.
func CertMatches(ca CA, certPEM, keyPEM []byte, r CertRequest, now time.Time) bool {
	if _, err := tls.X509KeyPair(certPEM, keyPEM); err != nil {
		return false
	}
	b, _ := pem.Decode(certPEM)
	if b == nil {
		return false
	}
	c, err := x509.ParseCertificate(b.Bytes)
	if err != nil || c.CheckSignatureFrom(ca.Cert) != nil || now.After(c.NotAfter) || now.Before(c.NotBefore) {
		return false
	}
	usage := x509.ExtKeyUsageClientAuth
	if r.Server {
		usage = x509.ExtKeyUsageServerAuth
	}
	if !slices.Equal(c.ExtKeyUsage, []x509.ExtKeyUsage{usage}) {
		return false
	}
	if c.Subject.CommonName != r.CommonName || !slices.Equal(c.Subject.Organization, r.Organization) {
		return false
	}
	if !slices.Equal(c.DNSNames, r.DNSNames) || len(c.IPAddresses) != len(r.IPs) {
		return false
	}
	for i, ip := range r.IPs {
		if !c.IPAddresses[i].Equal(net.IP(ip.AsSlice())) {
			return false
		}
	}
	return true
}
