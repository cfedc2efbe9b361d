package jobs

// Mail delivery: a finished job's file mailed to each of its recipients,
// attached up to a size and linked past it. Each mail is a River job of
// its own (unique by the export job and the recipient), so that it is
// retried with backoff while the mail server is down or answers 4xx,
// never queued twice, and a permanent refusal (a bad address) fails that
// mail alone, by name.

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/sheetstream/sheetstream/mailer"
)

// Delivery says who a finished job's file is mailed to, and how.
type Delivery struct {
	// To are the recipients, each sent a mail of their own.
	To []string `json:"to"`
	// Subject and Body are text/templates over .Time (the slot, or the
	// job's end, in Location), .Name (the schedule), .Export, .Params,
	// .Rows, .File and .Link (the signed link, when the file goes as
	// one; the body then ends with it anyway).
	Subject string `json:"subject,omitempty"`
	Body    string `json:"body,omitempty"`
	// AttachLimit is the largest attachment, counted as it travels
	// (base64: mailer.EncodedSize); a larger file goes as a signed link
	// (DefaultAttachLimit when 0).
	AttachLimit int64 `json:"attach_limit,omitempty"`
	// LinkTTL is how long such a link works (DefaultLinkTTL when 0).
	LinkTTL time.Duration `json:"link_ttl,omitempty"`
	// Location is the time zone .Time is shown in (UTC when "").
	Location string `json:"location,omitempty"`
}

// The defaults of a Delivery.
const (
	DefaultAttachLimit = 10 << 20
	DefaultLinkTTL     = 7 * 24 * time.Hour
	DefaultSubject     = `{{.Export}}{{with .Name}} ({{.}}){{end}}: {{.Rows}} rows, {{.Time.Format "2006-01-02 15:04 MST"}}`
	DefaultBody        = "The export {{.Export}}{{with .Name}} of the schedule {{.}}{{end}} ran at {{.Time.Format \"2006-01-02 15:04 MST\"}}: {{.Rows}} rows{{if .Params}}, for{{range $k, $v := .Params}} {{$k}}={{$v}}{{end}}{{end}}.\n"
)

// Check reads the delivery's templates and recipients' addresses.
func (d *Delivery) Check() error {
	for _, to := range d.To {
		if _, err := mailAddress(to); err != nil {
			return err
		}
	}
	if _, _, err := d.templates(); err != nil {
		return err
	}
	if d.Location != "" {
		if _, err := time.LoadLocation(d.Location); err != nil {
			return fmt.Errorf("timezone: %w", err)
		}
	}
	return nil
}

// templates are the subject's and body's templates, the defaults where
// none is given.
func (d *Delivery) templates() (subject, body *template.Template, err error) {
	s, b := d.Subject, d.Body
	if s == "" {
		s = DefaultSubject
	}
	if b == "" {
		b = DefaultBody
	}
	if subject, err = template.New("subject").Option("missingkey=zero").Parse(s); err != nil {
		return nil, nil, fmt.Errorf("subject: %w", err)
	}
	if body, err = template.New("body").Option("missingkey=zero").Parse(b); err != nil {
		return nil, nil, fmt.Errorf("body: %w", err)
	}
	// Rendered once over a sample, so that a field that does not exist
	// fails when the configuration is read, not at the first slot.
	sample := mailData{Time: time.Unix(0, 0).UTC(), Name: "schedule", Export: "export", Params: map[string]string{}, File: "export.xlsx", Link: "https://example.com/link"}
	if err := subject.Execute(io.Discard, sample); err != nil {
		return nil, nil, fmt.Errorf("subject: %w", err)
	}
	if err := body.Execute(io.Discard, sample); err != nil {
		return nil, nil, fmt.Errorf("body: %w", err)
	}
	return subject, body, nil
}

// mailData is what the templates see.
type mailData struct {
	Time   time.Time
	Name   string
	Export string
	Params map[string]string
	Rows   int64
	File   string
	Link   string
}

// mailAddress checks an address as a mail's To would take it.
func mailAddress(to string) (string, error) {
	if err := (&mailer.Message{To: to}).Check(); err != nil {
		return "", err
	}
	return to, nil
}

// Recipient is one row of a schedule's recipients: the address its mail
// goes to, and the export's parameters it binds (the recipient's own
// rows).
type Recipient struct {
	Email  string
	Params map[string]string
}

// mailArgs is one mail of a finished job: unique by the job and the
// recipient.
type mailArgs struct {
	Job      int64  `json:"job" river:"unique"`
	To       string `json:"to" river:"unique"`
	Schedule string `json:"schedule,omitempty" river:"unique"`
	Slot     string `json:"slot,omitempty" river:"unique"`
	Export   string `json:"export"`
	// Refused is why a recipient's address was refused before any job
	// ran (Job is then 0): the mail fails with it, listed by name.
	Refused string `json:"refused,omitempty"`
}

func (mailArgs) Kind() string { return "sheetstream_mail" }

// mailAttempts is how often a mail is tried: River's backoff (the
// attempt's fourth power in seconds) makes that about seven hours.
const mailAttempts = 12

// mailOutput is what a mail's attempt records.
type mailOutput struct {
	Sent    bool   `json:"sent,omitempty"`
	Linked  bool   `json:"linked,omitempty"` // the file went as a link
	Failed  bool   `json:"failed,omitempty"` // for good
	Error   string `json:"error,omitempty"`
	Attempt int    `json:"attempt"`
}

// MailEvent is a mail's attempt, for the audit trail.
type MailEvent struct {
	Job      string // the export job's public id
	Export   string
	Schedule string
	To       string
	// Outcome is "sent" (attached), "linked" (sent with a link),
	// "retry" (to be tried again) or "failed" (for good).
	Outcome string
	Error   string
	Bytes   int64
	Attempt int
}

// deliver queues the mails of a job that is done: one a recipient,
// skipped when already queued (a rescued job that finishes twice).
func (q *Queue) deliver(ctx context.Context, jobID int64, args exportArgs) {
	d := args.Deliver
	if d == nil {
		return
	}
	for _, to := range d.To {
		if _, err := q.client.Insert(context.WithoutCancel(ctx),
			mailArgs{Job: jobID, To: to, Schedule: args.Schedule, Slot: args.Slot, Export: args.Export},
			&river.InsertOpts{MaxAttempts: mailAttempts, UniqueOpts: river.UniqueOpts{ByArgs: true}}); err != nil {
			q.cfg.Log.Error("queueing a mail", "job", jobID, "to", to, "err", err)
		}
	}
}

type mailWorker struct {
	river.WorkerDefaults[mailArgs]
	q *Queue
}

func (w *mailWorker) Timeout(*river.Job[mailArgs]) time.Duration { return 2 * time.Minute }

// Work sends one recipient the finished job's file.
func (w *mailWorker) Work(ctx context.Context, job *river.Job[mailArgs]) error {
	q := w.q
	args := job.Args
	event := MailEvent{Export: args.Export, Schedule: args.Schedule, To: args.To, Attempt: job.Attempt}
	fail := func(err error) error {
		event.Outcome, event.Error = "failed", err.Error()
		q.count(func(s *Stats) { s.MailsFailed++ })
		q.mailEvent(event)
		river.RecordOutput(ctx, mailOutput{Failed: true, Error: err.Error(), Attempt: job.Attempt})
		return river.JobCancel(err)
	}
	if args.Refused != "" {
		return fail(errors.New(args.Refused))
	}
	if q.cfg.Mailer == nil {
		return fail(errors.New("this service sends no mail (no smtp: or mail_dir: in its configuration)"))
	}
	row, err := q.client.JobGet(ctx, args.Job)
	if errors.Is(err, river.ErrNotFound) {
		return fail(fmt.Errorf("job %d is gone (removed after its keep)", args.Job))
	}
	if err != nil {
		return err
	}
	if row.FinalizedAt == nil && row.State != rivertype.JobStateRetryable {
		return river.JobSnooze(time.Second)
	}
	j, err := q.view(row)
	if err != nil {
		return fail(err)
	}
	event.Job = j.ID
	if j.State != Done {
		return fail(fmt.Errorf("the export job is %s: there is no file to send", j.State))
	}
	var ea exportArgs
	if err := json.Unmarshal(row.EncodedArgs, &ea); err != nil || ea.Deliver == nil {
		return fail(fmt.Errorf("job %d has no delivery", args.Job))
	}
	msg, linked, err := q.mail(ctx, j, ea, args.To)
	if err != nil {
		if errors.Is(err, errNoPublicURL) || mailer.Permanent(err) {
			return fail(err)
		}
		return w.retry(ctx, job, event, err)
	}
	if err := q.cfg.Mailer.Send(ctx, msg); err != nil {
		if mailer.Permanent(err) {
			return fail(err)
		}
		return w.retry(ctx, job, event, err)
	}
	event.Outcome, event.Bytes = "sent", j.Bytes
	if linked {
		event.Outcome = "linked"
	}
	q.count(func(s *Stats) { s.MailsSent++ })
	q.mailEvent(event)
	q.cfg.Log.Info("mail sent", "job", j.ID, "to", args.To, "via", q.cfg.Mailer.String(), "linked", linked)
	return river.RecordOutput(ctx, mailOutput{Sent: true, Linked: linked, Attempt: job.Attempt})
}

// retry records a failed attempt that another may mend; the last one
// fails the mail.
func (w *mailWorker) retry(ctx context.Context, job *river.Job[mailArgs], event MailEvent, err error) error {
	q := w.q
	if job.Attempt >= job.MaxAttempts {
		event.Outcome = "failed"
		q.count(func(s *Stats) { s.MailsFailed++ })
	} else {
		event.Outcome = "retry"
		q.count(func(s *Stats) { s.MailsRetried++ })
	}
	event.Error = err.Error()
	q.mailEvent(event)
	river.RecordOutput(ctx, mailOutput{Error: err.Error(), Attempt: job.Attempt})
	return err
}

func (q *Queue) mailEvent(e MailEvent) {
	if q.cfg.OnMail != nil {
		q.cfg.OnMail(e)
	}
}

var errNoPublicURL = errors.New("the file is over the mail's attach_limit and the service has no public_url to link it from")

// mail makes the message of job j (of args) to one recipient: the file
// attached when it fits AttachLimit, else a signed link to it.
func (q *Queue) mail(ctx context.Context, j Job, args exportArgs, to string) (*mailer.Message, bool, error) {
	d := args.Deliver
	subject, body, err := d.templates()
	if err != nil {
		return nil, false, mailer.Refused(err)
	}
	loc := time.UTC
	if d.Location != "" {
		if l, err := time.LoadLocation(d.Location); err == nil {
			loc = l
		}
	}
	at := time.Now()
	if j.Finished != nil {
		at = *j.Finished
	}
	if t, err := time.Parse(time.RFC3339, j.Slot); err == nil {
		at = t
	}
	data := mailData{Time: at.In(loc), Name: j.Schedule, Export: j.Export, Params: j.Params, Rows: j.Rows, File: j.File}
	limit := d.AttachLimit
	if limit <= 0 {
		limit = DefaultAttachLimit
	}
	msg := &mailer.Message{To: to, ID: mailID(j.ID, to)}
	linked := mailer.EncodedSize(j.Bytes) > limit
	if linked {
		ttl := d.LinkTTL
		if ttl <= 0 {
			ttl = DefaultLinkTTL
		}
		link, err := q.Link(j, args.LinkKey, ttl)
		if err != nil {
			return nil, false, err
		}
		data.Link = link
	} else {
		file, _, err := q.File(ctx, j)
		if err != nil {
			return nil, false, fmt.Errorf("reading the job's file: %w", err)
		}
		b, err := io.ReadAll(io.LimitReader(file, limit+1))
		file.Close()
		if err != nil {
			return nil, false, fmt.Errorf("reading the job's file: %w", err)
		}
		msg.Attachment = &mailer.Attachment{Name: j.File, ContentType: mailer.ContentTypeOf(j.File), Data: b}
	}
	var sb, bb bytes.Buffer
	if err := subject.Execute(&sb, data); err != nil {
		return nil, false, mailer.Refused(fmt.Errorf("subject: %w", err))
	}
	if err := body.Execute(&bb, data); err != nil {
		return nil, false, mailer.Refused(fmt.Errorf("body: %w", err))
	}
	msg.Subject = strings.Join(strings.Fields(sb.String()), " ")
	msg.Body = bb.String()
	if linked && !strings.Contains(msg.Body, data.Link) {
		fmt.Fprintf(&bb, "\nThe file %s (%s) is too large to attach: download it until %s from\n%s\n",
			j.File, sizeText(j.Bytes), time.Now().Add(d.linkTTL()).In(loc).Format("2006-01-02 15:04 MST"), data.Link)
		msg.Body = bb.String()
	}
	return msg, linked, nil
}

func (d *Delivery) linkTTL() time.Duration {
	if d.LinkTTL > 0 {
		return d.LinkTTL
	}
	return DefaultLinkTTL
}

// mailID is the Message-ID of a job's mail to one recipient: the same on
// every attempt.
func mailID(jobID, to string) string {
	sum := sha256.Sum256([]byte(jobID + "\n" + strings.ToLower(to)))
	num, _, _ := strings.Cut(jobID, "-")
	return "sheetstream." + num + "." + hex.EncodeToString(sum[:8]) + "@sheetstream"
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
	case n >= 1<<10:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// Link is a signed link to job j's file, working for ttl: PublicURL's
// /api/jobs/ID/file with expires (Unix seconds) and signature (the
// HMAC-SHA256 of the id and the expiry under the job's link key, which
// never leaves the queue's database). CheckLink verifies one.
func (q *Queue) Link(j Job, linkKey string, ttl time.Duration) (string, error) {
	if q.cfg.PublicURL == "" {
		return "", errNoPublicURL
	}
	if linkKey == "" {
		return "", errors.New("the job has no link key (queued by an older version)")
	}
	expires := strconv.FormatInt(time.Now().Add(ttl).Unix(), 10)
	v := url.Values{"expires": {expires}, "signature": {linkSignature(linkKey, j.ID, expires)}}
	return strings.TrimSuffix(q.cfg.PublicURL, "/") + "/api/jobs/" + url.PathEscape(j.ID) + "/file?" + v.Encode(), nil
}

func linkSignature(key, id, expires string) string {
	mac := hmac.New(sha256.New, []byte(key))
	mac.Write([]byte(id + "\n" + expires))
	return hex.EncodeToString(mac.Sum(nil))
}

// ErrLinkExpired: a signed link past its expiry.
var ErrLinkExpired = errors.New("the link has expired")

// CheckLink returns the job a signed link (Link's) names, if its
// signature holds and it has not expired: ErrNotFound for a signature
// that does not hold (or a job that is gone), ErrLinkExpired past its
// expiry.
func (q *Queue) CheckLink(ctx context.Context, id, expires, signature string) (Job, error) {
	row, err := q.row(ctx, id)
	if err != nil {
		return Job{}, err
	}
	var args exportArgs
	if json.Unmarshal(row.EncodedArgs, &args) != nil || args.LinkKey == "" {
		return Job{}, ErrNotFound
	}
	j, err := q.view(row)
	if err != nil {
		return Job{}, err
	}
	want := linkSignature(args.LinkKey, j.ID, expires)
	if subtle.ConstantTimeCompare([]byte(want), []byte(signature)) != 1 {
		return Job{}, ErrNotFound
	}
	at, err := strconv.ParseInt(expires, 10, 64)
	if err != nil || time.Now().Unix() > at {
		return Job{}, ErrLinkExpired
	}
	return j, nil
}

// Mail is one delivery as the page lists it.
type Mail struct {
	Job      string     `json:"job"` // the export job's number
	To       string     `json:"to"`
	Slot     string     `json:"slot,omitempty"`
	State    string     `json:"state"` // queued, sending, sent, linked, retrying, failed
	Attempts int        `json:"attempts"`
	Error    string     `json:"error,omitempty"`
	Created  time.Time  `json:"created"`
	Finished *time.Time `json:"finished,omitempty"`
}

// Mails lists a schedule's latest deliveries, newest first.
func (q *Queue) Mails(ctx context.Context, schedule string, limit int) ([]Mail, error) {
	params := river.NewJobListParams().Kinds((mailArgs{}).Kind()).
		Where(q.scheduleIs, river.NamedArgs{"schedule": schedule}).
		OrderBy(river.JobListOrderByID, river.SortOrderDesc).First(min(max(limit, 1), 1000))
	res, err := q.client.JobList(ctx, params)
	if err != nil {
		return nil, err
	}
	out := make([]Mail, 0, len(res.Jobs))
	for _, row := range res.Jobs {
		var args mailArgs
		json.Unmarshal(row.EncodedArgs, &args)
		var meta struct {
			Output *mailOutput `json:"output"`
		}
		json.Unmarshal(row.Metadata, &meta)
		m := Mail{Job: strconv.FormatInt(args.Job, 10), To: args.To, Slot: args.Slot, Attempts: row.Attempt,
			Created: row.CreatedAt, Finished: row.FinalizedAt}
		if n := len(row.Errors); n > 0 {
			m.Error = row.Errors[n-1].Error
		}
		switch o := meta.Output; {
		case o != nil && o.Sent && o.Linked:
			m.State, m.Error = "linked", ""
		case o != nil && o.Sent:
			m.State, m.Error = "sent", ""
		case row.State == rivertype.JobStateCancelled || row.State == rivertype.JobStateDiscarded:
			m.State = "failed"
			if o != nil && o.Error != "" {
				m.Error = o.Error
			}
		case row.State == rivertype.JobStateRunning:
			m.State = "sending"
		case row.State == rivertype.JobStateRetryable:
			m.State = "retrying"
		default:
			m.State = "queued"
		}
		out = append(out, m)
	}
	return out, nil
}
