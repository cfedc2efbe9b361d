package mailer

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// SMTPConfig is how to reach an SMTP server.
type SMTPConfig struct {
	// URL is smtp://HOST:PORT (plain, upgraded with STARTTLS as StartTLS
	// says; port 587 when none) or smtps://HOST:PORT (TLS from the first
	// byte; port 465 when none).
	URL string
	// From is the sender's address ("Reports <reports@example.com>").
	From string
	// Username and Password authenticate, when Username is set, with the
	// best mechanism the server offers.
	Username, Password string
	// StartTLS is "auto" (upgrade when the server offers it; the
	// default), "require" (fail when it does not) or "never".
	StartTLS string
	// Timeout bounds connecting and each command (default 30 s).
	Timeout time.Duration
	// RootCAs verify the server's certificate (the system's when nil).
	RootCAs *x509.CertPool
}

// SMTP sends messages through an SMTP server, a connection a message.
type SMTP struct {
	cfg    SMTPConfig
	host   string
	port   int
	tls    bool // smtps
	policy gomail.TLSPolicy
}

// NewSMTP checks cfg and returns its Sender; nothing is dialled yet.
//
// Errors: a URL that is not smtp:// or smtps:// with a host, a port out
// of range, a From that is not an address, a StartTLS other than auto,
// require and never.
func NewSMTP(cfg SMTPConfig) (*SMTP, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" || u.User != nil || (u.Path != "" && u.Path != "/") {
		return nil, fmt.Errorf("smtp url %q: want smtp://HOST:PORT or smtps://HOST:PORT (credentials go in username_env and password_env)", redact(cfg.URL))
	}
	s := &SMTP{cfg: cfg, host: u.Hostname(), tls: u.Scheme == "smtps", port: 587}
	if s.tls {
		s.port = 465
	}
	if p := u.Port(); p != "" {
		if s.port, err = strconv.Atoi(p); err != nil || s.port < 1 || s.port > 65535 {
			return nil, fmt.Errorf("smtp url %q: port %q", redact(cfg.URL), p)
		}
	}
	if _, err := build(cfg.From, &Message{To: "check@example.com"}); err != nil {
		return nil, fmt.Errorf("smtp from: %w", err)
	}
	switch cfg.StartTLS {
	case "", "auto":
		s.policy = gomail.TLSOpportunistic
	case "require":
		s.policy = gomail.TLSMandatory
	case "never":
		s.policy = gomail.NoTLS
	default:
		return nil, fmt.Errorf("smtp starttls %q: want auto, require or never", cfg.StartTLS)
	}
	if s.cfg.Timeout <= 0 {
		s.cfg.Timeout = 30 * time.Second
	}
	return s, nil
}

// redact is a URL without its user information, for messages.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a URL that does not parse)"
	}
	u.User = nil
	return u.String()
}

func (s *SMTP) String() string {
	scheme := "smtp"
	if s.tls {
		scheme = "smtps"
	}
	return scheme + "://" + net.JoinHostPort(s.host, strconv.Itoa(s.port))
}

// Send dials the server and sends m.
func (s *SMTP) Send(ctx context.Context, m *Message) error {
	msg, err := build(s.cfg.From, m)
	if err != nil {
		return err
	}
	opts := []gomail.Option{
		gomail.WithPort(s.port), gomail.WithTimeout(s.cfg.Timeout),
		gomail.WithTLSConfig(&tls.Config{ServerName: s.host, RootCAs: s.cfg.RootCAs, MinVersion: tls.VersionTLS12}),
	}
	if s.tls {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPortPolicy(s.policy))
		// WithTLSPortPolicy chooses a port by the policy: ours stands.
		opts = append(opts, gomail.WithPort(s.port))
	}
	if s.cfg.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(s.cfg.Username), gomail.WithPassword(s.cfg.Password))
	}
	client, err := gomail.NewClient(s.host, opts...)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*s.cfg.Timeout+time.Duration(len(msg.GetAttachments()))*s.cfg.Timeout)
	defer cancel()
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		return classify(m.To, err)
	}
	return nil
}

// classify marks a permanent refusal of a message to to: a 5xx reply to
// the envelope or the data. A refused login is not one (the credentials
// can be mended while the delivery waits), nor is anything short of a
// reply (a server down, a timeout).
func classify(to string, err error) error {
	var se *gomail.SendError
	if errors.As(err, &se) && se.ErrorCode() >= 500 && se.ErrorCode() < 600 {
		switch se.Reason {
		case gomail.ErrSMTPMailFrom, gomail.ErrSMTPRcptTo, gomail.ErrSMTPData, gomail.ErrSMTPDataClose:
			return &RefusedError{Code: se.ErrorCode(), Err: fmt.Errorf("the server refused the mail to %s: %w", to, err)}
		}
	}
	return fmt.Errorf("mail to %s: %w", to, err)
}
