package mailer_test

import (
	"bytes"
	"context"
	"crypto/x509"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/mailpit"
	"github.com/sheetstream/sheetstream/mailer"
)

func message(to string, attach []byte) *mailer.Message {
	m := &mailer.Message{To: to, Subject: "Orders for Oslo — Monday", Body: "Hello,\nthe orders are attached.\n", ID: "job-1." + to + "@sheetstream"}
	if attach != nil {
		m.Attachment = &mailer.Attachment{Name: "orders.xlsx", ContentType: mailer.ContentTypeOf("orders.xlsx"), Data: attach}
	}
	return m
}

// TestSMTP: a message with an attachment arrives as sent (subject, body,
// Message-ID, the attachment's bytes), over STARTTLS with the server's
// certificate verified against the test CA and a login; a wrong password
// is not a permanent refusal (the credentials can be mended), a
// recipient the server refuses is; a server down is a temporary failure.
func TestSMTP(t *testing.T) {
	srv := mailpit.Start(t, mailpit.Options{TLS: true, Users: map[string]string{"reports": "s3cret"}, AllowedRecipients: `@example\.com$`})
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(srv.CA)
	cfg := mailer.SMTPConfig{URL: "smtp://" + srv.SMTP, From: "Reports <reports@example.com>", Username: "reports", Password: "s3cret",
		StartTLS: "require", RootCAs: pool, Timeout: 5 * time.Second}
	s, err := mailer.NewSMTP(cfg)
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte("PK\x03\x04 a workbook's bytes "), 4000)
	ctx := context.Background()
	if err := s.Send(ctx, message("anna@example.com", data)); err != nil {
		t.Fatal(err)
	}
	got := srv.Wait(t, 1, 5*time.Second)
	if len(got) != 1 {
		t.Fatalf("%d messages", len(got))
	}
	m := got[0]
	if m.Subject != "Orders for Oslo — Monday" || m.To[0].Address != "anna@example.com" || m.From.Address != "reports@example.com" ||
		m.MessageID != "job-1.anna@example.com@sheetstream" || !strings.Contains(m.Text, "the orders are attached.") {
		t.Errorf("%+v", m)
	}
	if len(m.Attachments) != 1 || m.Attachments[0].FileName != "orders.xlsx" ||
		m.Attachments[0].ContentType != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
		t.Fatalf("attachments %+v", m.Attachments)
	}
	if part := srv.Part(t, m, m.Attachments[0]); !bytes.Equal(part, data) {
		t.Errorf("the attachment's %d bytes differ from the %d sent", len(part), len(data))
	}

	refused := s.Send(ctx, message("mallory@elsewhere.test", nil))
	if !mailer.Permanent(refused) || !strings.Contains(refused.Error(), "mallory@elsewhere.test") {
		t.Errorf("a refused recipient: %v (permanent %v)", refused, mailer.Permanent(refused))
	}
	if err := s.Send(ctx, message("not an address", nil)); !mailer.Permanent(err) {
		t.Errorf("an address that does not parse: %v", err)
	}
	wrong := cfg
	wrong.Password = "guess"
	w, _ := mailer.NewSMTP(wrong)
	if err := w.Send(ctx, message("anna@example.com", nil)); err == nil || mailer.Permanent(err) {
		t.Errorf("a wrong password: %v (permanent %v)", err, mailer.Permanent(err))
	}
	untrusted := cfg
	untrusted.RootCAs = x509.NewCertPool()
	u, _ := mailer.NewSMTP(untrusted)
	if err := u.Send(ctx, message("anna@example.com", nil)); err == nil || mailer.Permanent(err) {
		t.Errorf("an untrusted certificate: %v", err)
	}
	srv.Stop()
	if err := s.Send(ctx, message("anna@example.com", nil)); err == nil || mailer.Permanent(err) {
		t.Errorf("the server down: %v", err)
	}
}

// TestNewSMTP: what the configuration gets wrong is said by name.
func TestNewSMTP(t *testing.T) {
	for _, c := range []struct {
		cfg  mailer.SMTPConfig
		want string
	}{
		{mailer.SMTPConfig{URL: "http://mail.example.com", From: "a@example.com"}, "want smtp://HOST:PORT"},
		{mailer.SMTPConfig{URL: "smtp://user:pw@mail.example.com", From: "a@example.com"}, "username_env"},
		{mailer.SMTPConfig{URL: "smtp://mail.example.com:99999", From: "a@example.com"}, "port"},
		{mailer.SMTPConfig{URL: "smtp://mail.example.com", From: "nobody"}, "from"},
		{mailer.SMTPConfig{URL: "smtp://mail.example.com", From: "a@example.com", StartTLS: "maybe"}, "starttls"},
	} {
		if _, err := mailer.NewSMTP(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "pw@") {
			t.Errorf("%+v: %v", c.cfg, err)
		}
	}
	s, err := mailer.NewSMTP(mailer.SMTPConfig{URL: "smtps://mail.example.com", From: "a@example.com"})
	if err != nil || s.String() != "smtps://mail.example.com:465" {
		t.Errorf("%v %v", s, err)
	}
}

// TestFolder: a message is an .eml file a mail parser reads back, and a
// retried delivery (the same ID) is the same file.
func TestFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mail")
	f, err := mailer.NewFolder(dir, "reports@example.com")
	if err != nil {
		t.Fatal(err)
	}
	m := message("anna@example.com", []byte("xlsx"))
	for range 2 {
		if err := f.Send(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	if len(files) != 1 {
		t.Fatalf("%d files: %v", len(files), files)
	}
	raw, _ := os.ReadFile(files[0])
	parsed, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if parsed.Header.Get("To") != "<anna@example.com>" || parsed.Header.Get("Message-ID") != "<job-1.anna@example.com@sheetstream>" ||
		!strings.Contains(parsed.Header.Get("Content-Type"), "multipart/mixed") {
		t.Errorf("headers: %v", parsed.Header)
	}
	if err := f.Send(context.Background(), message("two words", nil)); !mailer.Permanent(err) {
		t.Errorf("a bad address: %v", err)
	}
}

// TestEncodedSize: base64 in 76-character lines with CRLF, as go-mail
// writes it.
func TestEncodedSize(t *testing.T) {
	for n, want := range map[int64]int64{0: 0, 1: 6, 57: 78, 58: 84, 3 << 20: 4194304 + 55189*2} {
		if got := mailer.EncodedSize(n); got != want {
			t.Errorf("%d bytes: %d, want %d", n, got, want)
		}
	}
}
