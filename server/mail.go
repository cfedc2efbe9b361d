package server

// Mail: the smtp: settings, schedules' deliver.email, the recipients a
// query names, the signed links mails carry, and the schedules' list of
// deliveries for the page.

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/sheetstream/sheetstream/auth"
	"github.com/sheetstream/sheetstream/jobs"
	"github.com/sheetstream/sheetstream/mailer"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// SMTPConfig is the mail server the service sends through.
//
//	smtp:
//	  url: smtp://mail.example.com:587     # or smtps://HOST:465
//	  from: Reports <reports@example.com>
//	  username_env: SMTP_USER
//	  password_env: SMTP_PASSWORD
//	  starttls: auto                       # auto | require | never
//	  timeout: 30s
//	  ca_file: /etc/ssl/internal-ca.pem    # besides the system's roots
type SMTPConfig struct {
	URL         string   `yaml:"url"`
	From        string   `yaml:"from"`
	UsernameEnv string   `yaml:"username_env"`
	PasswordEnv string   `yaml:"password_env"`
	StartTLS    string   `yaml:"starttls"`
	Timeout     Duration `yaml:"timeout"`
	CAFile      string   `yaml:"ca_file"`
}

// DeliverConfig is where a schedule's files go besides the storage.
type DeliverConfig struct {
	Email *EmailConfig `yaml:"email"`
}

// EmailConfig mails each slot's file.
//
//	deliver:
//	  email:
//	    to: [finance@example.com]                     # the slot's one file to each
//	    recipients_sql: SELECT email, region FROM managers   # or a job for each row
//	    subject: 'Orders {{.Time.Format "2006-01-02"}}'
//	    body: "{{.Rows}} orders for {{.Params.region}}."
//	    attach_limit: 10MiB                           # counted after base64
//	    link_ttl: 7d                                  # links to larger files
//
// recipients_sql runs at each slot on the export's database: each row's
// email column is a recipient, and its other columns set the export's
// parameters of the same names for that recipient's job alone (the
// recipient cannot change them), so each gets exactly their own rows.
type EmailConfig struct {
	To            []string `yaml:"to"`
	RecipientsSQL string   `yaml:"recipients_sql"`
	Subject       string   `yaml:"subject"`
	Body          string   `yaml:"body"`
	AttachLimit   Size     `yaml:"attach_limit"`
	LinkTTL       Duration `yaml:"link_ttl"`

	recipients *boundQuery
}

// Size reads "10MiB", "500KiB", "2MB", "1048576".
type Size int64

func (z *Size) UnmarshalYAML(n *yaml.Node) error {
	v, err := parseSize(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	*z = Size(v)
	return nil
}

func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		n      int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000}, {"B", 1}}
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range units {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(rest), u.n
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || v*float64(mult) > 1<<40 {
		return 0, fmt.Errorf("%q is not a size such as 10MiB, 500KiB or 2MB", s)
	}
	return int64(v * float64(mult)), nil
}

// checkMail reads smtp:, mail_dir: and public_url:.
func (cfg *Config) checkMail() error {
	if cfg.PublicURL != "" {
		u, err := url.Parse(cfg.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" {
			return fmt.Errorf("config: public_url %q: want the address users reach the service at, such as https://reports.example.com", cfg.PublicURL)
		}
	}
	if m := cfg.SMTP; m != nil {
		if m.UsernameEnv != "" && os.Getenv(m.UsernameEnv) == "" {
			return fmt.Errorf("config: smtp: username_env names %s, which is not set", m.UsernameEnv)
		}
		if m.PasswordEnv != "" && os.Getenv(m.PasswordEnv) == "" {
			return fmt.Errorf("config: smtp: password_env names %s, which is not set", m.PasswordEnv)
		}
		if _, err := cfg.smtpSender(); err != nil {
			return fmt.Errorf("config: %w", err)
		}
	}
	return nil
}

// smtpSender is the configured SMTP server's Sender.
func (cfg *Config) smtpSender() (*mailer.SMTP, error) {
	m := cfg.SMTP
	sc := mailer.SMTPConfig{URL: m.URL, From: m.From, StartTLS: m.StartTLS, Timeout: time.Duration(m.Timeout)}
	if m.UsernameEnv != "" {
		sc.Username = os.Getenv(m.UsernameEnv)
	}
	if m.PasswordEnv != "" {
		sc.Password = os.Getenv(m.PasswordEnv)
	}
	if m.CAFile != "" {
		pem, err := os.ReadFile(m.CAFile)
		if err != nil {
			return nil, fmt.Errorf("smtp: ca_file: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("smtp: ca_file %s holds no PEM certificate", m.CAFile)
		}
		sc.RootCAs = pool
	}
	return mailer.NewSMTP(sc)
}

// mailSender is where the service's mails go: the SMTP server, else the
// mail_dir folder as .eml files, else nowhere (nil).
func (cfg *Config) mailSender() (mailer.Sender, error) {
	switch {
	case cfg.SMTP != nil:
		return cfg.smtpSender()
	case cfg.MailDir != "":
		return mailer.NewFolder(cfg.MailDir, "sheetstream@localhost")
	}
	return nil, nil
}

// publicURL is public_url, or the listen address's.
func (cfg *Config) publicURL() string {
	if cfg.PublicURL != "" {
		return strings.TrimSuffix(cfg.PublicURL, "/")
	}
	host, port, err := net.SplitHostPort(cfg.Listen)
	if err != nil {
		return "http://" + cfg.Listen
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// delivery reads a schedule's deliver.email into the jobs' Delivery.
func (cfg *Config) delivery(sc *ScheduleConfig, e *Export, loc *time.Location) (*jobs.Delivery, error) {
	if sc.Deliver == nil || sc.Deliver.Email == nil {
		return nil, nil
	}
	m := sc.Deliver.Email
	if cfg.SMTP == nil && cfg.MailDir == "" {
		return nil, fmt.Errorf("config: schedule %q: deliver.email needs smtp: (or mail_dir:, a folder mails are written to as .eml files)", sc.Name)
	}
	if len(m.To) == 0 && m.RecipientsSQL == "" {
		return nil, fmt.Errorf("config: schedule %q: deliver.email needs a list of addresses (to) or a query of them (recipients_sql)", sc.Name)
	}
	if len(m.To) > 0 && m.RecipientsSQL != "" {
		return nil, fmt.Errorf("config: schedule %q: deliver.email has to: and recipients_sql: (one, or two schedules)", sc.Name)
	}
	if m.RecipientsSQL != "" {
		q, err := parseNamed(m.RecipientsSQL)
		if err != nil {
			return nil, fmt.Errorf("config: schedule %q: recipients_sql: %w", sc.Name, err)
		}
		for _, n := range q.names {
			if !e.hasParam(n) {
				return nil, fmt.Errorf("config: schedule %q: recipients_sql uses :%s, which is not a parameter of export %q", sc.Name, n, e.Name)
			}
		}
		m.recipients = q
	}
	d := &jobs.Delivery{To: m.To, Subject: m.Subject, Body: m.Body, AttachLimit: int64(m.AttachLimit), LinkTTL: time.Duration(m.LinkTTL)}
	if loc != nil {
		d.Location = loc.String()
	}
	if err := d.Check(); err != nil {
		return nil, fmt.Errorf("config: schedule %q: deliver.email: %w", sc.Name, err)
	}
	return d, nil
}

func (e *Export) hasParam(name string) bool {
	for _, p := range e.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// recipientsOf runs a schedule's recipients_sql: a recipient a row, the
// email column its address, the others the export's parameters (bound,
// as an identity's are: each row is checked as its job will run).
func (s *Server) recipientsOf(sc *ScheduleConfig) func(ctx context.Context, slot time.Time) ([]jobs.Recipient, error) {
	return func(ctx context.Context, slot time.Time) ([]jobs.Recipient, error) {
		e := s.exports[sc.Export]
		caller := &auth.Attributes{Subject: sc.schedule.Request.Owner}
		vals := map[string]any{}
		if len(sc.Deliver.Email.recipients.names) > 0 {
			// The schedule's parameters the query names (all of them
			// given, since the rows cannot give what the query needs).
			var err error
			if vals, err = e.valuesFor(sc.Params, caller); err != nil {
				return nil, fmt.Errorf("recipients_sql: %w", err)
			}
		}
		rows := &recipientRows{}
		sheet := &Sheet{Name: "recipients", SQL: sc.Deliver.Email.RecipientsSQL, query: sc.Deliver.Email.recipients}
		if _, err := s.run(ctx, e, []*Sheet{sheet}, vals, rows, sqlsheet.Options{MaxRows: jobs.MaxRecipients + 1}); err != nil {
			return nil, err
		}
		if rows.email < 0 {
			return nil, fmt.Errorf("recipients_sql has no email column (its columns: %s)", strings.Join(rows.names, ", "))
		}
		for _, name := range rows.names {
			if name != rows.names[rows.email] && !e.hasParam(name) {
				return nil, fmt.Errorf("recipients_sql's column %q is not a parameter of export %q (each column but email sets the parameter of its name)", name, e.Name)
			}
		}
		for i, r := range rows.list {
			params := map[string]string{}
			for k, v := range sc.Params {
				params[k] = v
			}
			for k, v := range r.Params {
				params[k] = v
			}
			// Checked as the job will check it, so that a bad row fails
			// the slot by name, not a job at its run.
			if _, err := e.valuesFor(params, caller); err != nil {
				return nil, fmt.Errorf("recipients_sql row %d (%s): %w", i+1, r.Email, err)
			}
		}
		return rows.list, nil
	}
}

// recipientRows is the destination of recipients_sql: its rows as text.
type recipientRows struct {
	names []string
	email int
	list  []jobs.Recipient
	val   xlsx.Value
}

func (r *recipientRows) AddStyle(xlsx.Style) (xlsx.StyleID, error) { return 0, nil }

func (r *recipientRows) Begin(t *sqlsheet.Table) error {
	r.email = -1
	for i, c := range t.Columns {
		r.names = append(r.names, c.Name)
		if strings.EqualFold(c.Name, "email") {
			r.email = i
		}
	}
	return nil
}

func (r *recipientRows) WriteRow(cells []xlsx.Cell) error {
	if r.email < 0 {
		return nil
	}
	rec := jobs.Recipient{Params: map[string]string{}}
	for i := range cells {
		text := ""
		if !cells[i].IsEmpty() {
			// As the reader gives the cell back: numbers as they read,
			// dates as ISO dates, booleans as TRUE or FALSE.
			r.val.SetCell(i+1, &cells[i])
			text = r.val.String()
		}
		if i == r.email {
			rec.Email = strings.TrimSpace(text)
		} else {
			rec.Params[r.names[i]] = text
		}
	}
	r.list = append(r.list, rec)
	return nil
}

func (r *recipientRows) End() error { return nil }

// auditMail records a mail's attempt in the audit trail.
func (s *Server) auditMail(e jobs.MailEvent) {
	rec := auditRecord{Event: "mail", Subject: "schedule:" + e.Schedule, Export: e.Export, Job: shortID(e.Job),
		To: e.To, Schedule: e.Schedule, Bytes: e.Bytes, Outcome: e.Outcome, Error: e.Error}
	if e.Schedule == "" {
		rec.Subject = "-"
	}
	s.record(&rec)
}

// fileOrLink: GET /api/jobs/ID/file. With expires and signature (a
// link a mail carried) the link itself is the credential: no login, for
// the file of that job alone, until it expires. Without, the caller's
// identity, as every other request.
func (s *Server) fileOrLink(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if !q.Has("signature") {
		s.withJobs(s.jobFile)(w, r)
		return
	}
	if s.jobs == nil {
		jsonError(w, http.StatusNotFound, "no such job")
		return
	}
	for name := range q {
		if name != "expires" && name != "signature" {
			jsonError(w, http.StatusBadRequest, (&ParamError{Name: name, Msg: "is not a parameter of a signed link (expires, signature)"}).Error())
			return
		}
	}
	j, err := s.jobs.CheckLink(r.Context(), r.PathValue("id"), q.Get("expires"), q.Get("signature"))
	switch {
	case errors.Is(err, jobs.ErrLinkExpired):
		s.audit(w, r, auditRecord{Event: "refused", Subject: "link", Job: shortID(r.PathValue("id")), Outcome: "410 link expired"})
		jsonError(w, http.StatusGone, "this link has expired: ask for the file again")
		return
	case errors.Is(err, jobs.ErrNotFound):
		s.audit(w, r, auditRecord{Event: "refused", Subject: "link", Outcome: "404 no such job or a bad signature"})
		jsonError(w, http.StatusNotFound, "no such job")
		return
	case err != nil:
		s.internalError(w, "the job could not be read", err)
		return
	}
	if s.exports[j.Export] == nil {
		s.audit(w, r, auditRecord{Event: "refused", Subject: "link", Export: j.Export, Job: shortID(j.ID), Outcome: "404 the export is no longer configured"})
		jsonError(w, http.StatusNotFound, "no such job")
		return
	}
	if j.State != jobs.Done {
		jsonError(w, http.StatusConflict, fmt.Sprintf("the job is %s", j.State))
		return
	}
	s.sendJobFile(w, r, j, false, "link")
}

// scheduleJSON is a schedule as the page shows it, with its latest mails.
type scheduleJSON struct {
	Name       string      `json:"name"`
	Export     string      `json:"export"`
	When       string      `json:"when"`
	Recipients string      `json:"recipients,omitempty"`
	Mails      []jobs.Mail `json:"mails"`
}

// listSchedules: GET /api/schedules, for admins: each schedule and its
// latest deliveries (recipient, state, when).
func (s *Server) listSchedules(w http.ResponseWriter, r *http.Request) {
	out := []scheduleJSON{}
	for _, sc := range s.cfg.Schedules {
		v := scheduleJSON{Name: sc.Name, Export: sc.Export, When: sc.Cron}
		if sc.Every != 0 {
			v.When = "every " + time.Duration(sc.Every).String()
		}
		v.Mails = []jobs.Mail{}
		if d := sc.Deliver; d != nil && d.Email != nil {
			if d.Email.RecipientsSQL != "" {
				v.Recipients = "a row each of recipients_sql"
			} else {
				v.Recipients = strings.Join(d.Email.To, ", ")
			}
			mails, err := s.jobs.Mails(r.Context(), sc.Name, 20)
			if err != nil {
				s.internalError(w, "the deliveries could not be read", err)
				return
			}
			v.Mails = mails
		}
		out = append(out, v)
	}
	writeJSON(w, http.StatusOK, map[string]any{"schedules": out})
}
