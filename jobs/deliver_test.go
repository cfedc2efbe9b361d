package jobs

import (
	"context"
	"errors"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/mailpit"
	"github.com/sheetstream/sheetstream/mailer"
)

// events collects OnMail's events.
type events struct {
	mu  sync.Mutex
	all []MailEvent
	ch  chan MailEvent
}

func (e *events) on(m MailEvent) {
	e.mu.Lock()
	e.all = append(e.all, m)
	e.mu.Unlock()
	select {
	case e.ch <- m:
	default:
	}
}

func (e *events) outcomes() map[string]string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := map[string]string{}
	for _, m := range e.all {
		out[m.To] = m.Outcome
	}
	return out
}

// TestDeliverRecipients: a slot's recipients each get a job of their own
// parameters and a mail of its file alone: attached under attach_limit,
// as a signed link over it (the link names the job, a changed signature
// or expiry does not); a recipient the server refuses fails alone, as
// does an address that does not parse; the slot submitted again sends
// nobody a second mail.
func TestDeliverRecipients(t *testing.T) {
	srv := mailpit.Start(t, mailpit.Options{AllowedRecipients: `@example\.com$`})
	for name, q := range queues(t, func(c *Config) {
		c.Mailer, _ = mailer.NewSMTP(mailer.SMTPConfig{URL: "smtp://" + srv.SMTP, From: "reports@example.com", StartTLS: "never", Timeout: 5 * time.Second})
		c.PublicURL = "https://reports.example.com/"
	}) {
		t.Run(name, func(t *testing.T) {
			ev := &events{ch: make(chan MailEvent, 100)}
			q.cfg.OnMail = ev.on
			sched := &Schedule{Name: "by-city-" + name, Every: time.Hour,
				Request: Request{Export: "sized", File: "orders.xlsx", Owner: "schedule:by-city", Params: map[string]string{"size": "100"},
					Deliver: &Delivery{AttachLimit: 1000, Subject: "Orders for {{.Params.city}}", Body: "Your {{.Rows}} bytes.\n"}},
				Recipients: func(context.Context, time.Time) ([]Recipient, error) {
					return []Recipient{
						{Email: "anna." + name + "@example.com", Params: map[string]string{"city": "Oslo"}},
						{Email: "bob." + name + "@example.com", Params: map[string]string{"city": "Lisbon", "size": "5000"}},
						{Email: "carol." + name + "@elsewhere.test", Params: map[string]string{"city": "Rome"}},
						{Email: "not an address", Params: map[string]string{"city": "Nowhere"}},
					}, nil
				}}
			if err := sched.Check(); err != nil {
				t.Fatal(err)
			}
			slot := time.Date(2026, 11, 30, 6, 30, 0, 0, time.UTC)
			for range 2 {
				if err := q.submitSlot(context.Background(), sched, slot); err != nil {
					t.Fatal(err)
				}
			}
			deadline := time.Now().Add(30 * time.Second)
			for len(ev.outcomes()) < 4 && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			got := ev.outcomes()
			want := map[string]string{"anna." + name + "@example.com": "sent", "bob." + name + "@example.com": "linked",
				"carol." + name + "@elsewhere.test": "failed", "not an address": "failed"}
			for to, outcome := range want {
				if got[to] != outcome {
					t.Errorf("%s: %q, want %q (%v)", to, got[to], outcome, ev.all)
				}
			}
			time.Sleep(300 * time.Millisecond) // a second mail would be on its way
			var mine []mailpit.Message
			for _, m := range srv.Messages(t) {
				if strings.Contains(m.To[0].Address, "."+name+"@") {
					mine = append(mine, m)
				}
			}
			if len(mine) != 2 {
				t.Fatalf("%d mails: %+v", len(mine), mine)
			}
			for _, m := range mine {
				switch {
				case strings.HasPrefix(m.To[0].Address, "anna."):
					if m.Subject != "Orders for Oslo" || len(m.Attachments) != 1 || m.Attachments[0].FileName != "orders.xlsx" {
						t.Fatalf("anna's mail: %+v", m)
					}
					if part := string(srv.Part(t, m, m.Attachments[0])); !strings.HasPrefix(part, "city=Oslo;") || len(part) != 100 {
						t.Errorf("anna's file: %q", part)
					}
				case strings.HasPrefix(m.To[0].Address, "bob."):
					if m.Subject != "Orders for Lisbon" || len(m.Attachments) != 0 || !strings.HasPrefix(m.Text, "Your 5000 bytes.") {
						t.Fatalf("bob's mail: %+v", m)
					}
					link := regexp.MustCompile(`https://reports\.example\.com/api/jobs/(\d+-[0-9a-f]+)/file\?(\S+)`).FindStringSubmatch(m.Text)
					if link == nil {
						t.Fatalf("no link in %q", m.Text)
					}
					v, _ := url.ParseQuery(link[2])
					j, err := q.CheckLink(context.Background(), link[1], v.Get("expires"), v.Get("signature"))
					if err != nil || j.Params["city"] != "Lisbon" || fileOf(t, q, j)[:12] != "city=Lisbon;" {
						t.Errorf("the link: %v %+v", err, j)
					}
					forged := strings.Map(func(r rune) rune {
						if r == 'a' {
							return 'b'
						}
						return r
					}, v.Get("signature"))
					if _, err := q.CheckLink(context.Background(), link[1], v.Get("expires"), forged); !errors.Is(err, ErrNotFound) {
						t.Errorf("a forged signature: %v", err)
					}
					if _, err := q.CheckLink(context.Background(), link[1], v.Get("expires")+"0", v.Get("signature")); !errors.Is(err, ErrNotFound) {
						t.Errorf("a changed expiry: %v", err)
					}
				default:
					t.Errorf("a mail to %s", m.To[0].Address)
				}
			}
			mails, err := q.Mails(context.Background(), sched.Name, 10)
			if err != nil {
				t.Fatal(err)
			}
			states := map[string]string{}
			for _, m := range mails {
				states[m.To] = m.State
			}
			if len(mails) != 4 || states["not an address"] != "failed" || states["anna."+name+"@example.com"] != "sent" || states["bob."+name+"@example.com"] != "linked" || states["carol."+name+"@elsewhere.test"] != "failed" {
				t.Errorf("the schedule's mails: %+v", mails)
			}
			if st := q.Stats(); st.MailsSent != 2 || st.MailsFailed != 2 {
				t.Errorf("stats: %+v", st)
			}
		})
	}
}

// TestDeliverServerDown: the mail server down for a slot: each of its
// mails is retried with River's backoff and arrives once the server is
// back, once.
func TestDeliverServerDown(t *testing.T) {
	srv := mailpit.Start(t, mailpit.Options{})
	srv.Stop()
	ev := &events{ch: make(chan MailEvent, 100)}
	qs := queues(t, func(c *Config) {
		c.Mailer, _ = mailer.NewSMTP(mailer.SMTPConfig{URL: "smtp://" + srv.SMTP, From: "reports@example.com", StartTLS: "never", Timeout: 2 * time.Second})
		c.OnMail = ev.on
	})
	q := qs["sqlite"]
	sched := &Schedule{Name: "down", Every: time.Hour,
		Request: Request{Export: "ok", File: "ok.xlsx", Owner: "schedule:down", Deliver: &Delivery{}},
		Recipients: func(context.Context, time.Time) ([]Recipient, error) {
			return []Recipient{{Email: "dana@example.com", Params: map[string]string{"city": "Oslo"}},
				{Email: "eve@example.com", Params: map[string]string{"city": "Reykjavik"}}}, nil
		}}
	if err := sched.Check(); err != nil {
		t.Fatal(err)
	}
	if err := q.submitSlot(context.Background(), sched, time.Date(2026, 12, 1, 7, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	for failed := map[string]bool{}; len(failed) < 2; {
		select {
		case e := <-ev.ch:
			if e.Outcome != "retry" {
				t.Fatalf("a first attempt: %+v", e)
			}
			failed[e.To] = true
		case <-time.After(30 * time.Second):
			t.Fatal("no attempt")
		}
	}
	srv.Restart()
	srv.Wait(t, 2, 60*time.Second)
	time.Sleep(time.Second) // a third would be on its way
	msgs := srv.Messages(t)
	if len(msgs) != 2 {
		t.Fatalf("%d mails: %+v", len(msgs), msgs)
	}
	for _, m := range msgs {
		city := map[string]string{"dana@example.com": "Oslo", "eve@example.com": "Reykjavik"}[m.To[0].Address]
		if part := string(srv.Part(t, m, m.Attachments[0])); city == "" || !strings.Contains(part, "city="+city) {
			t.Errorf("%s got %q", m.To[0].Address, part)
		}
	}
	if !slices.ContainsFunc(ev.all, func(e MailEvent) bool { return e.Outcome == "sent" && e.Attempt >= 2 }) {
		t.Errorf("events: %+v", ev.all)
	}
}
