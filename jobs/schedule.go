package jobs

// Scheduled exports: each due slot of a schedule becomes exactly one job
// across every process on the queue.
//
// River's own periodic jobs live in the elected leader's memory in its
// open-source edition: a slot falls due while no leader is elected, or
// twice across a leader change. So schedules are kept here, durably, in a
// table of the queue's database (sheetstream_schedule: each schedule's
// next due instant). Every process looks at it every Config.ScheduleTick;
// for a due schedule it inserts the slot's job as a River unique job (the
// schedule and the slot are its unique arguments, so a second process's
// insert of the same slot is skipped), then advances the schedule with a
// compare-and-set on the instant it read. A process that dies between the
// two leaves the schedule due; the next one's insert is skipped as a
// duplicate and it advances the schedule: one job per slot either way.
//
// A schedule down for several slots (every process stopped) runs once,
// for the latest slot it missed, not once per slot. Cron schedules are
// evaluated on the wall clock of their time zone, one slot per wall-clock
// time: a slot that falls in a daylight-saving gap (02:30 on the night
// clocks go forward) runs at the instant that wall time maps to, and one
// that occurs twice (the night they go back) runs once.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/robfig/cron/v3"

	"github.com/sheetstream/sheetstream/storage"
)

// Schedule runs an export at every slot of a cron expression or an
// interval.
type Schedule struct {
	// Name names the schedule (unique); its jobs record it.
	Name string
	// Request is the export to run (Request.Owner: the identity it runs as).
	Request Request
	// Cron is a five-field cron expression ("30 6 * * 1-5"), or a
	// descriptor (@daily), optionally prefixed with CRON_TZ=Zone; Every is
	// an interval instead (slots at its multiples since the Unix epoch).
	Cron  string
	Every time.Duration
	// Location is the time zone cron fields are read in (default UTC; a
	// CRON_TZ prefix wins).
	Location *time.Location
	// Key, when set, is a text/template of the file's storage key over
	// .Time (the slot, in Location), .Name, .Export, .Params and
	// .Recipient (with Recipients: each recipient's file needs a key of
	// its own).
	Key string
	// Recipients, when set, are asked at each slot who gets the export:
	// a job for each, its parameters the schedule's with the recipient's
	// over them, its file mailed to the recipient alone
	// (Request.Deliver's other settings apply). A failure leaves the slot
	// due, to be tried again at the next tick.
	Recipients func(ctx context.Context, slot time.Time) ([]Recipient, error)

	spec slots
	key  *template.Template
}

// slots computes a schedule's due instants.
type slots interface {
	// next is the first slot after t.
	next(t time.Time) time.Time
}

// cronSlots reads cron fields on the wall clock of loc.
type cronSlots struct {
	s   cron.Schedule
	loc *time.Location
}

// next evaluates the cron fields on wall-clock time (as if UTC, which has
// no daylight-saving changes) and maps the wall-clock slot to an instant
// in loc: each wall-clock time is one slot, whatever the clocks do.
func (c cronSlots) next(t time.Time) time.Time {
	wall := t.In(c.loc)
	naive := time.Date(wall.Year(), wall.Month(), wall.Day(), wall.Hour(), wall.Minute(), wall.Second(), 0, time.UTC)
	for {
		naive = c.s.Next(naive)
		if naive.IsZero() {
			return naive
		}
		at := time.Date(naive.Year(), naive.Month(), naive.Day(), naive.Hour(), naive.Minute(), naive.Second(), 0, c.loc)
		if at.After(t) {
			return at
		}
		// The wall time is one the clocks skipped back over, already
		// passed as an instant: the next one.
	}
}

// everySlots are multiples of an interval since the Unix epoch.
type everySlots time.Duration

func (e everySlots) next(t time.Time) time.Time {
	d := time.Duration(e)
	return t.Truncate(d).Add(d)
}

var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// Check reads the schedule's cron expression or interval and key
// template, and returns what is wrong with them, naming the schedule.
func (s *Schedule) Check() error {
	if s.Name == "" {
		return errors.New("a schedule needs a name")
	}
	switch {
	case s.Cron != "" && s.Every != 0:
		return fmt.Errorf("schedule %q: give cron or every, not both", s.Name)
	case s.Every != 0:
		if s.Every < time.Second {
			return fmt.Errorf("schedule %q: every %v is under a second", s.Name, s.Every)
		}
		s.spec = everySlots(s.Every)
	case s.Cron != "":
		expr, loc := s.Cron, s.Location
		if loc == nil {
			loc = time.UTC
		}
		if rest, ok := strings.CutPrefix(expr, "CRON_TZ="); ok {
			zone, fields, _ := strings.Cut(rest, " ")
			l, err := time.LoadLocation(zone)
			if err != nil {
				return fmt.Errorf("schedule %q: CRON_TZ=%s: %w", s.Name, zone, err)
			}
			expr, loc = strings.TrimSpace(fields), l
		}
		parsed, err := cronParser.Parse(expr)
		if err != nil {
			return fmt.Errorf("schedule %q: cron %q: %w", s.Name, s.Cron, err)
		}
		s.spec, s.Location = cronSlots{parsed, loc}, loc
	default:
		return fmt.Errorf("schedule %q: give cron (such as \"30 6 * * 1-5\") or every (such as 15m)", s.Name)
	}
	if s.Location == nil {
		s.Location = time.UTC
	}
	if s.Key != "" {
		t, err := template.New(s.Name).Option("missingkey=error").Parse(s.Key)
		if err != nil {
			return fmt.Errorf("schedule %q: key: %w", s.Name, err)
		}
		s.key = t
		if _, err := s.keyFor(time.Unix(0, 0), ""); err != nil {
			return err
		}
		if s.Recipients != nil {
			a, _ := s.keyFor(time.Unix(0, 0), "a@example.com")
			b, _ := s.keyFor(time.Unix(0, 0), "b@example.com")
			if a == b {
				return fmt.Errorf("schedule %q: key: every recipient's file needs a key of its own: use {{.Recipient}} in it", s.Name)
			}
		}
	}
	if s.Recipients != nil && s.Request.Deliver == nil {
		return fmt.Errorf("schedule %q: recipients without a delivery", s.Name)
	}
	if d := s.Request.Deliver; d != nil {
		if err := d.Check(); err != nil {
			return fmt.Errorf("schedule %q: deliver: %w", s.Name, err)
		}
	}
	return nil
}

// MaxRecipients bounds the recipients of one slot: a query that returns
// more fails the slot rather than queue a job for each.
const MaxRecipients = 10000

// Next is the schedule's first slot after t.
func (s *Schedule) Next(t time.Time) time.Time { return s.spec.next(t) }

// keyFor is the storage key of the slot's file for a recipient ("" for
// the default).
func (s *Schedule) keyFor(slot time.Time, recipient string) (string, error) {
	if s.key == nil {
		return "", nil
	}
	var b strings.Builder
	data := map[string]any{"Time": slot.In(s.Location), "Name": s.Name, "Export": s.Request.Export, "Params": s.Request.Params, "Recipient": recipient}
	if err := s.key.Execute(&b, data); err != nil {
		return "", fmt.Errorf("schedule %q: key: %w", s.Name, err)
	}
	if err := storage.CheckKey(b.String()); err != nil {
		return "", fmt.Errorf("schedule %q: key: %w", s.Name, err)
	}
	return b.String(), nil
}

// scheduleTable holds each schedule's next due instant (Unix
// milliseconds) and the spec it was computed from.
const scheduleTable = `CREATE TABLE IF NOT EXISTS sheetstream_schedule (
	name TEXT PRIMARY KEY,
	spec TEXT NOT NULL,
	next_run_at BIGINT NOT NULL
)`

// scheduleDB is the few statements the scheduler runs, in the queue's
// dialect.
type scheduleDB interface {
	exec(ctx context.Context, query string, args ...any) (int64, error)
	next(ctx context.Context, name string) (spec string, at int64, found bool, err error)
	// count runs a query of one integer (? placeholders).
	count(ctx context.Context, query string, args ...any) (int64, error)
}

type sqliteSchedules struct{ db *sql.DB }

func (s sqliteSchedules) exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := s.db.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (s sqliteSchedules) next(ctx context.Context, name string) (string, int64, bool, error) {
	var spec string
	var at int64
	err := s.db.QueryRowContext(ctx, "SELECT spec, next_run_at FROM sheetstream_schedule WHERE name = ?", name).Scan(&spec, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, false, nil
	}
	return spec, at, err == nil, err
}

func (s sqliteSchedules) count(ctx context.Context, query string, args ...any) (int64, error) {
	var n int64
	err := s.db.QueryRowContext(ctx, query, args...).Scan(&n)
	return n, err
}

type pgSchedules struct{ pool *pgxpool.Pool }

func (s pgSchedules) count(ctx context.Context, query string, args ...any) (int64, error) {
	var n int64
	err := s.pool.QueryRow(ctx, dollars(query), args...).Scan(&n)
	return n, err
}

// dollars rewrites ? placeholders as $1, $2...
func dollars(query string) string {
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func (s pgSchedules) exec(ctx context.Context, query string, args ...any) (int64, error) {
	tag, err := s.pool.Exec(ctx, dollars(query), args...)
	return tag.RowsAffected(), err
}

func (s pgSchedules) next(ctx context.Context, name string) (string, int64, bool, error) {
	var spec string
	var at int64
	err := s.pool.QueryRow(ctx, "SELECT spec, next_run_at FROM sheetstream_schedule WHERE name = $1", name).Scan(&spec, &at)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", 0, false, nil
	}
	return spec, at, err == nil, err
}

// specOf is what a schedule's slots depend on: a changed one is due anew.
func specOf(s *Schedule) string {
	if s.Every != 0 {
		return "every " + s.Every.String()
	}
	return "cron " + s.Cron + " in " + s.Location.String()
}

// runSchedules looks at the schedules every tick until ctx ends.
func (q *Queue) runSchedules(ctx context.Context) {
	tick := time.NewTicker(q.cfg.ScheduleTick)
	defer tick.Stop()
	for {
		for _, s := range q.cfg.Schedules {
			if err := q.scheduleOnce(ctx, s, time.Now()); err != nil && ctx.Err() == nil {
				q.cfg.Log.Error("schedule", "schedule", s.Name, "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// scheduleOnce makes the job of a due slot of s, if one is due at now.
func (q *Queue) scheduleOnce(ctx context.Context, s *Schedule, now time.Time) error {
	spec, at, found, err := q.schedules.next(ctx, s.Name)
	if err != nil {
		return err
	}
	if !found || spec != specOf(s) {
		// New, or changed: due at its next slot from now.
		first := s.Next(now).UnixMilli()
		if !found {
			_, err = q.schedules.exec(ctx, "INSERT INTO sheetstream_schedule (name, spec, next_run_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING", s.Name, specOf(s), first)
		} else {
			_, err = q.schedules.exec(ctx, "UPDATE sheetstream_schedule SET spec = ?, next_run_at = ? WHERE name = ? AND spec = ?", specOf(s), first, s.Name, spec)
		}
		return err
	}
	due := time.UnixMilli(at)
	if due.After(now) {
		return nil
	}
	// The latest slot missed: one run, however many were.
	slot := due
	for range 100000 {
		n := s.Next(slot)
		if n.IsZero() || n.After(now) {
			break
		}
		slot = n
	}
	if err := q.submitSlot(ctx, s, slot); err != nil {
		return err
	}
	_, err = q.schedules.exec(ctx, "UPDATE sheetstream_schedule SET next_run_at = ? WHERE name = ? AND next_run_at = ?", s.Next(now).UnixMilli(), s.Name, at)
	return err
}

// submitSlot inserts the job of a slot, once: the schedule and the slot are
// its unique arguments; with Recipients, a job for each recipient, the
// recipient among those arguments.
func (q *Queue) submitSlot(ctx context.Context, s *Schedule, slot time.Time) error {
	req := s.Request
	req.Schedule, req.Slot = s.Name, slot.UTC().Format(time.RFC3339)
	unique := "schedule " + strconv.Quote(s.Name) + " " + req.Slot
	if s.Recipients == nil {
		return q.insertSlot(ctx, s, slot, req, "", unique)
	}
	recipients, err := s.Recipients(ctx, slot)
	if err != nil {
		return fmt.Errorf("schedule %q: recipients: %w", s.Name, err)
	}
	if len(recipients) > MaxRecipients {
		return fmt.Errorf("schedule %q: recipients: %d rows, over the %d one slot may have", s.Name, len(recipients), MaxRecipients)
	}
	seen := map[string]bool{}
	for _, r := range recipients {
		if _, err := mailAddress(r.Email); err != nil {
			// One bad row fails its own delivery, by name, not the slot:
			// a mail that fails at once, listed with the others.
			_, err := q.client.Insert(ctx, mailArgs{To: r.Email, Schedule: s.Name, Slot: req.Slot, Export: req.Export, Refused: err.Error()},
				&river.InsertOpts{MaxAttempts: 1, UniqueOpts: river.UniqueOpts{ByArgs: true}})
			if err != nil {
				return fmt.Errorf("schedule %q: %w", s.Name, err)
			}
			continue
		}
		addr := strings.ToLower(r.Email)
		if seen[addr] {
			q.cfg.Log.Warn("a recipient twice in one slot: the first row's export is sent", "schedule", s.Name, "to", r.Email)
			continue
		}
		seen[addr] = true
		one := req
		one.Params = maps.Clone(req.Params)
		if one.Params == nil {
			one.Params = map[string]string{}
		}
		maps.Copy(one.Params, r.Params)
		d := *req.Deliver
		d.To = []string{r.Email}
		one.Deliver = &d
		if err := q.insertSlot(ctx, s, slot, one, r.Email, unique+" to "+strconv.Quote(addr)); err != nil {
			return err
		}
	}
	return nil
}

// insertSlot inserts one job of a slot, unique by its idempotency text.
func (q *Queue) insertSlot(ctx context.Context, s *Schedule, slot time.Time, req Request, recipient, unique string) error {
	key, err := s.keyFor(slot, recipient)
	if err != nil {
		return err
	}
	secret := randomHex(16)
	args := exportArgs{Request: req, Secret: secret, Key: key, Idempotency: unique, LinkKey: randomHex(32)}
	if args.Key == "" {
		args.Key = "jobs/" + secret + "/" + req.File
	}
	res, err := q.client.Insert(ctx, args, &river.InsertOpts{MaxAttempts: q.cfg.MaxAttempts,
		Metadata: ownerMetadata(req.Owner), UniqueOpts: river.UniqueOpts{ByArgs: true}})
	if err != nil {
		return fmt.Errorf("schedule %q: %w", s.Name, err)
	}
	if !res.UniqueSkippedAsDuplicate {
		q.cfg.Log.Info("scheduled export queued", "schedule", s.Name, "slot", req.Slot, "job", res.Job.ID, "recipient", recipient)
	}
	return nil
}
