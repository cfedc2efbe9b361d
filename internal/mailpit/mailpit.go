// Package mailpit starts a real SMTP server for tests (Mailpit, built by
// the test command: scripts/mailpit.sh) and reads what it received
// through its HTTP API.
package mailpit

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/testenv"
)

// Options are a server's flags.
type Options struct {
	// TLS gives the server a certificate for 127.0.0.1 and localhost
	// (signed by a CA of its own: Server.CA) and requires STARTTLS.
	TLS bool
	// Users authenticate: name to password.
	Users map[string]string
	// AllowedRecipients is a regular expression the server refuses other
	// recipients with (550).
	AllowedRecipients string
}

// Server is a running Mailpit.
type Server struct {
	SMTP string // HOST:PORT
	API  string // http://HOST:PORT
	// CA is the PEM of the certificate authority of the server's
	// certificate, with Options.TLS.
	CA []byte

	bin  string
	args []string
	cmd  *exec.Cmd
	t    testing.TB
}

// Start starts a server on free loopback ports; it stops when the test
// ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	bin := testenv.Get(t, "SHEETSTREAM_MAILPIT", "builds Mailpit (scripts/mailpit.sh)")
	dir := t.TempDir()
	s := &Server{SMTP: freeAddr(t), bin: bin, t: t}
	api := freeAddr(t)
	s.API = "http://" + api
	s.args = []string{"--smtp", s.SMTP, "--listen", api, "--database", filepath.Join(dir, "mail.db"),
		"--disable-version-check", "--smtp-disable-rdns", "--quiet"}
	if opts.TLS {
		certFile, keyFile, ca := certificate(t, dir)
		s.CA = ca
		s.args = append(s.args, "--smtp-tls-cert", certFile, "--smtp-tls-key", keyFile, "--smtp-require-starttls")
	}
	if len(opts.Users) > 0 {
		file := filepath.Join(dir, "users")
		var lines []byte
		for name, pw := range opts.Users {
			lines = append(lines, name+":"+pw+"\n"...)
		}
		os.WriteFile(file, lines, 0o600)
		s.args = append(s.args, "--smtp-auth-file", file)
		if !opts.TLS {
			s.args = append(s.args, "--smtp-auth-allow-insecure")
		}
	}
	if opts.AllowedRecipients != "" {
		s.args = append(s.args, "--smtp-allowed-recipients", opts.AllowedRecipients)
	}
	s.Restart()
	t.Cleanup(s.Stop)
	return s
}

// Stop stops the server (what it received is kept for Restart).
func (s *Server) Stop() {
	if s.cmd != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
		s.cmd = nil
	}
}

// Restart starts the server again on the same ports and waits until it
// answers.
func (s *Server) Restart() {
	s.t.Helper()
	s.Stop()
	cmd := exec.Command(s.bin, s.args...)
	cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.cmd = cmd
	for range 200 {
		if c, err := net.Dial("tcp", s.SMTP); err == nil {
			c.Close()
			if resp, err := http.Get(s.API + "/api/v1/info"); err == nil {
				resp.Body.Close()
				return
			}
		}
		time.Sleep(25 * time.Millisecond)
	}
	s.t.Fatal("Mailpit did not start")
}

// Message is a message as the API lists it, with its text and
// attachments once read by Message.
type Message struct {
	ID        string `json:"ID"`
	MessageID string `json:"MessageID"`
	From      struct {
		Address string `json:"Address"`
	} `json:"From"`
	To []struct {
		Address string `json:"Address"`
	} `json:"To"`
	Subject     string       `json:"Subject"`
	Text        string       `json:"Text"`
	Attachments []Attachment `json:"-"`
}

// Attachment is a file a message carries.
type Attachment struct {
	PartID      string `json:"PartID"`
	FileName    string `json:"FileName"`
	ContentType string `json:"ContentType"`
	Size        int64  `json:"Size"`
}

// Messages lists what the server received, each read whole.
func (s *Server) Messages(t testing.TB) []Message {
	t.Helper()
	var list struct {
		Messages []Message `json:"messages"`
	}
	s.get(t, "/api/v1/messages?limit=1000", &list)
	out := make([]Message, len(list.Messages))
	for i, m := range list.Messages {
		var full struct {
			Message
			Attachments []Attachment `json:"Attachments"`
		}
		s.get(t, "/api/v1/message/"+m.ID, &full)
		out[i] = full.Message
		out[i].Attachments = full.Attachments
	}
	return out
}

// Part is an attachment's bytes.
func (s *Server) Part(t testing.TB, m Message, a Attachment) []byte {
	t.Helper()
	resp, err := http.Get(s.API + "/api/v1/message/" + m.ID + "/part/" + a.PartID)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("part %s: %v %s", a.PartID, err, resp.Status)
	}
	return b
}

// Wait polls until the server holds n messages (or the deadline
// passes) and returns them.
func (s *Server) Wait(t testing.TB, n int, within time.Duration) []Message {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		var list struct {
			Total int `json:"messages_count"`
		}
		s.get(t, "/api/v1/messages?limit=1", &list)
		if list.Total >= n || time.Now().After(deadline) {
			return s.Messages(t)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (s *Server) get(t testing.TB, path string, into any) {
	t.Helper()
	resp, err := http.Get(s.API + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("Mailpit %s: %s", path, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(into); err != nil {
		t.Fatalf("Mailpit %s: %v", path, err)
	}
}

func freeAddr(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return "127.0.0.1:" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// certificate writes a server certificate for 127.0.0.1 and localhost,
// signed by a new CA, and returns its files and the CA's PEM.
func certificate(t testing.TB, dir string) (certFile, keyFile string, caPEM []byte) {
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "sheetstream test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	leaf := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "localhost"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(key)
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
	return certFile, keyFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
}

// String names the server for messages.
func (s *Server) String() string { return fmt.Sprintf("Mailpit at %s (API %s)", s.SMTP, s.API) }
