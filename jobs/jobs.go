// Package jobs runs exports in the background on River, a job queue in a
// database: SQLite for one host (the embedded default), PostgreSQL for a
// fleet of workers on any number of machines. Each job writes its file
// into a storage.Storage (a local folder or an S3 bucket), where it
// appears only once complete.
//
// A job belongs to the identity that submitted it (Request.Owner) from
// the start: lists filter by owner, and the service answers another
// owner's job as if it did not exist. Its public id is River's row id
// with a random secret, so ids cannot be guessed or enumerated.
//
// A worker killed mid-export leaves its job running in the queue until
// River rescues it (see RescueMargin for when), and retries it on another
// worker, which first removes what the killed
// attempt left in the storage. An export error that retrying cannot mend
// (bad SQL, a missing table, a cell Excel cannot hold) is wrapped with
// Permanent by the Runner and fails the job at once; others retry with
// backoff up to Config.MaxAttempts.
package jobs

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"
	_ "modernc.org/sqlite" // the SQLite queue's database/sql driver

	"github.com/sheetstream/sheetstream/auth"
	"github.com/sheetstream/sheetstream/mailer"
	"github.com/sheetstream/sheetstream/storage"
)

// Request is what a job exports: a configured export with its parameters,
// as the query string gave them, for an owner.
type Request struct {
	Export string            `json:"export"`
	Params map[string]string `json:"params"`
	Owner  string            `json:"owner,omitempty"`
	// File is the name the finished file is offered under ("orders.xlsx").
	File string `json:"file"`
	// Schedule and Slot name the schedule and the due time (RFC 3339, UTC)
	// a scheduled job runs for.
	Schedule string `json:"schedule,omitempty"`
	Slot     string `json:"slot,omitempty"`
	// Keep is how long the job and its file are kept once finished
	// (DefaultKeep when 0).
	Keep time.Duration `json:"keep,omitempty"`
	// Notify is told when the job ends.
	Notify *Notify `json:"notify,omitempty"`
	// Deliver mails the file when the job is done (Config.Mailer).
	Deliver *Delivery `json:"deliver,omitempty"`
	// Caller is what the job keeps of the identity that submitted it:
	// what its export's identity-bound parameters read when it runs.
	Caller *auth.Attributes `json:"caller,omitempty"`
}

// Runner writes the workbook a request asks for into w and returns its
// data rows. An error retrying cannot mend is wrapped with Permanent.
// ReportRows(ctx, n) as it goes shows the job's clients its rows so far.
type Runner func(ctx context.Context, req Request, w io.Writer) (rows int64, err error)

// Job is a job as clients see it.
type Job struct {
	ID       string            `json:"id"`
	Export   string            `json:"export"`
	Params   map[string]string `json:"params"`
	Owner    string            `json:"owner,omitempty"`
	State    State             `json:"state"`
	Rows     int64             `json:"rows"`
	Bytes    int64             `json:"bytes"`
	Attempts int               `json:"attempts"`
	Worker   string            `json:"worker,omitempty"` // HOST:PID of the last attempt
	Error    string            `json:"error,omitempty"`
	// ErrorID names, in the runner's log, the details of the error the
	// last failed attempt reported (see WithErrorID).
	ErrorID  string     `json:"error_id,omitempty"`
	Created  time.Time  `json:"created"`
	Started  *time.Time `json:"started,omitempty"`
	Finished *time.Time `json:"finished,omitempty"`
	// File is the name the file is offered under; Key where it is stored.
	File     string `json:"file"`
	Key      string `json:"-"`
	Schedule string `json:"schedule,omitempty"`
	Slot     string `json:"slot,omitempty"`
}

// State is where a job is: one of the constants below, whichever of
// River's states it is in.
type State string

// The states of a job.
const (
	Queued    State = "queued"
	Running   State = "running"
	Done      State = "done"
	Failed    State = "failed"
	Cancelled State = "cancelled"
)

// ErrNotFound: no job has that id.
var ErrNotFound = errors.New("no such job")

// ErrIdempotencyConflict: an idempotency key that its owner used before
// for another export or other parameters.
var ErrIdempotencyConflict = errors.New("the idempotency key was used for another request")

// AllOwners, as List's owner, lists every owner's jobs: it is never an
// identity's key, so no identity (not even an empty one) can stand for
// it.
const AllOwners = "\x00every owner"

// Config opens a Queue.
type Config struct {
	// Queue is the queue's database: sqlite:PATH (one host) or
	// postgres://... (a fleet).
	Queue string
	// Storage receives the jobs' files.
	Storage storage.Storage
	// Workers is how many jobs this process runs at once; 0 submits and
	// reads jobs without working any.
	Workers int
	// Run writes a job's workbook; needed with Workers.
	Run Runner
	// JobTimeout bounds one attempt (default 10 minutes). A job whose
	// worker vanished is rescued a minute after it.
	JobTimeout time.Duration
	// MaxAttempts is how often a job that fails is tried (default 3).
	MaxAttempts int
	// FetchPoll is how often idle workers look for jobs (default 1 s).
	FetchPoll time.Duration
	// Schedules are exports to run at their slots; every process on the
	// queue keeps them (one job per slot however many processes there
	// are), each ScheduleTick (default 1 s).
	Schedules    []*Schedule
	ScheduleTick time.Duration
	// CleanupEvery is how often expired jobs and files are removed
	// (default an hour; negative: never, but by calling Cleanup).
	CleanupEvery time.Duration
	// Mailer sends the mails of jobs with a Delivery; PublicURL (the
	// address users reach the service at) begins the links to files too
	// large to attach, and the webhooks' download.
	Mailer    mailer.Sender
	PublicURL string
	// OnMail, when set, hears of every mail's attempt (the audit trail).
	OnMail func(MailEvent)
	Log    *slog.Logger
}

// RescueMargin is how long past JobTimeout a running job must have gone
// silent before River takes it for its vanished worker's and retries it:
// a quarter of the timeout, at least 5 s and at most a minute. River's
// rescuer looks every 30 s, so a killed worker's job starts again within
// JobTimeout + RescueMargin + 30 s, plus the first retry's backoff (about
// a second).
func RescueMargin(jobTimeout time.Duration) time.Duration {
	return min(time.Minute, max(5*time.Second, jobTimeout/4))
}

// Stats are what this process's workers did, for metrics.
type Stats struct {
	Done, Failed, Retried, Cancelled int64 // attempts that ended so
	Seconds                          float64
	Bytes                            int64 // stored
	Rescued                          int64 // attempts that took over a vanished worker's job
	// Mails sent, attempts that will be retried, mails failed for good.
	MailsSent, MailsRetried, MailsFailed int64
}

// Queue submits, runs and reads export jobs.
type Queue struct {
	cfg    Config
	client queueClient
	close  func()
	worker string
	// ownerIs is the SQL condition on a job's owner in the queue's dialect;
	// keyIs on its storage key.
	ownerIs       string
	keyIs         string
	idempotencyIs string
	scheduleIs    string // a mail job's schedule
	webhookClient *http.Client
	statsMu       sync.Mutex
	stats         Stats
	countSQL      string
	schedules     scheduleDB
	stopSched     context.CancelFunc
	// query runs SQL returning (text, integer) rows on the queue's
	// database, for Counts.
	query func(ctx context.Context, sql string) (map[string]int64, error)
}

// countSQL counts the export jobs by River state, and those cancelled
// because they failed for good (their output says so) as "failed", in
// each dialect.
const (
	countSQLite   = "SELECT CASE WHEN state = 'cancelled' AND json_extract(metadata, '$.output.failed') THEN 'failed' ELSE state END, count(*) FROM river_job WHERE kind = 'sheetstream_export' GROUP BY 1"
	countPostgres = "SELECT CASE WHEN state = 'cancelled' AND metadata->'output'->>'failed' = 'true' THEN 'failed' ELSE state::text END, count(*) FROM river_job WHERE kind = 'sheetstream_export' GROUP BY 1"
)

// Counts returns how many jobs the queue holds in each state (queued,
// running, done, failed, cancelled), over every worker: the queue's
// depth and its history. It also tells whether the queue answers.
func (q *Queue) Counts(ctx context.Context) (map[State]int64, error) {
	byRiver, err := q.query(ctx, q.countSQL)
	if err != nil {
		return nil, err
	}
	out := map[State]int64{Queued: 0, Running: 0, Done: 0, Failed: 0, Cancelled: 0}
	for state, n := range byRiver {
		// The count's SQL names a job cancelled because it failed for
		// good "failed".
		failed := state == "failed"
		if failed {
			state = string(rivertype.JobStateCancelled)
		}
		out[stateOf(rivertype.JobState(state), failed)] += n
	}
	return out, nil
}

// stateOf is River's state of a job as the job's own: a job River
// cancelled because it failed for good (its output says so) failed.
func stateOf(s rivertype.JobState, failedForGood bool) State {
	switch s {
	case rivertype.JobStateRunning:
		return Running
	case rivertype.JobStateCompleted:
		return Done
	case rivertype.JobStateDiscarded:
		return Failed
	case rivertype.JobStateCancelled:
		if failedForGood {
			return Failed
		}
		return Cancelled
	}
	return Queued // available, scheduled, pending, retryable
}

// Stats returns what this process's workers have done.
func (q *Queue) Stats() Stats {
	q.statsMu.Lock()
	defer q.statsMu.Unlock()
	return q.stats
}

func (q *Queue) count(f func(*Stats)) {
	q.statsMu.Lock()
	f(&q.stats)
	q.statsMu.Unlock()
}

// Storage is where the queue's jobs put their files.
func (q *Queue) Storage() storage.Storage { return q.cfg.Storage }

// queueClient is what the package uses of River's client, whichever the
// driver (its type depends on the driver's transaction type).
type queueClient interface {
	Start(ctx context.Context) error
	Stop(ctx context.Context) error
	Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
	JobGet(ctx context.Context, id int64) (*rivertype.JobRow, error)
	JobCancel(ctx context.Context, id int64) (*rivertype.JobRow, error)
	JobList(ctx context.Context, params *river.JobListParams) (*river.JobListResult, error)
	JobDelete(ctx context.Context, id int64) (*rivertype.JobRow, error)
}

// exportArgs are a job's arguments in the queue.
type exportArgs struct {
	Request
	// Secret is the random half of the job's public id.
	Secret string `json:"secret"`
	// Key is where the file goes in the storage.
	Key string `json:"key"`
	// Idempotency is the client's Idempotency-Key, with the owner: a job
	// submitted twice with it is one job.
	Idempotency string `json:"idempotency,omitempty" river:"unique"`
	// LinkKey signs the links to the job's file a mail carries; unlike
	// Secret it is in no URL.
	LinkKey string `json:"link_key,omitempty"`
}

func (exportArgs) Kind() string { return "sheetstream_export" }

// output is what a finished attempt records: a done job's rows and
// bytes, or that the job failed for good, and why.
type output struct {
	Rows   int64  `json:"rows"`
	Bytes  int64  `json:"bytes"`
	Failed bool   `json:"failed,omitempty"` // for good: no retry
	Error  string `json:"error,omitempty"`
	// ErrorID is the failed attempt's WithErrorID.
	ErrorID string `json:"error_id,omitempty"`
	// Attempt is the attempt that recorded the output, done or failed:
	// an attempt that recorded none was rescued from a worker that
	// vanished.
	Attempt int `json:"attempt,omitempty"`
}

// Open opens the queue's database, creates or migrates River's tables, and
// makes a Queue; Start starts its workers.
func Open(ctx context.Context, cfg Config) (*Queue, error) {
	if cfg.Storage == nil {
		return nil, errors.New("no storage")
	}
	if cfg.Workers > 0 && cfg.Run == nil {
		return nil, errors.New("workers need a Runner")
	}
	if cfg.JobTimeout <= 0 {
		cfg.JobTimeout = 10 * time.Minute
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = 3
	}
	if cfg.FetchPoll <= 0 {
		cfg.FetchPoll = time.Second
	}
	if cfg.ScheduleTick <= 0 {
		cfg.ScheduleTick = time.Second
	}
	if cfg.CleanupEvery == 0 {
		cfg.CleanupEvery = time.Hour
	}
	names := map[string]bool{}
	for _, s := range cfg.Schedules {
		if err := s.Check(); err != nil {
			return nil, err
		}
		if names[s.Name] {
			return nil, fmt.Errorf("two schedules are named %q", s.Name)
		}
		names[s.Name] = true
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	host, _ := os.Hostname()
	q := &Queue{cfg: cfg, worker: host + ":" + strconv.Itoa(os.Getpid()), webhookClient: &http.Client{Timeout: 20 * time.Second, CheckRedirect: noRedirects}}
	workers := river.NewWorkers()
	river.AddWorker(workers, &exportWorker{q: q})
	river.AddWorker(workers, &webhookWorker{q: q})
	river.AddWorker(workers, &mailWorker{q: q})
	river.AddWorker(workers, &cleanupWorker{q: q})
	rc := &river.Config{
		// River records the client's id as the job's worker: HOST:PID,
		// and a suffix that keeps two clients of one process apart.
		ID:                   q.worker + "/" + randomHex(3),
		JobTimeout:           cfg.JobTimeout,
		RescueStuckJobsAfter: cfg.JobTimeout + RescueMargin(cfg.JobTimeout),
		MaxAttempts:          cfg.MaxAttempts,
		FetchPollInterval:    cfg.FetchPoll,
		FetchCooldown:        min(100*time.Millisecond, cfg.FetchPoll),
		Logger:               cfg.Log,
		Workers:              workers,
		// River would delete finished jobs after a day, whatever their
		// keep, leaving their files behind: Cleanup removes them, each
		// export job with its file after its keep, the rest after
		// DefaultKeep.
		CompletedJobRetentionPeriod: -1,
		CancelledJobRetentionPeriod: -1,
		DiscardedJobRetentionPeriod: -1,
	}
	if cfg.Workers > 0 {
		rc.Queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: cfg.Workers}}
		// Expired jobs and files go every CleanupEvery, on the elected
		// leader (removing is idempotent: a pass twice does no harm).
		if cfg.CleanupEvery > 0 {
			rc.PeriodicJobs = []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(cfg.CleanupEvery),
				func() (river.JobArgs, *river.InsertOpts) { return cleanupArgs{}, nil }, &river.PeriodicJobOpts{RunOnStart: true})}
		}
	}
	var err error
	switch {
	case strings.HasPrefix(cfg.Queue, "sqlite:"):
		err = q.openSQLite(ctx, strings.TrimPrefix(cfg.Queue, "sqlite:"), rc)
	case strings.HasPrefix(cfg.Queue, "postgres://"), strings.HasPrefix(cfg.Queue, "postgresql://"):
		err = q.openPostgres(ctx, cfg.Queue, rc)
	default:
		err = fmt.Errorf("queue %q: the queue is sqlite:PATH or postgres://URL", cfg.Queue)
	}
	if err != nil {
		return nil, err
	}
	return q, nil
}

func (q *Queue) openSQLite(ctx context.Context, path string, rc *river.Config) error {
	if err := privateFiles(path); err != nil {
		return fmt.Errorf("queue sqlite:%s: %w", path, err)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
	if err != nil {
		return fmt.Errorf("queue sqlite:%s: %w", path, err)
	}
	// SQLite takes one writer at a time: River's documentation asks for a
	// single connection.
	db.SetMaxOpenConns(1)
	driver := riversqlite.New(db)
	if err := migrate(ctx, driver); err != nil {
		db.Close()
		return fmt.Errorf("queue sqlite:%s: %w", path, err)
	}
	for _, table := range []string{scheduleTable, revokedTable, progressTable} {
		if _, err := db.ExecContext(ctx, table); err != nil {
			db.Close()
			return fmt.Errorf("queue sqlite:%s: %w", path, err)
		}
	}
	q.schedules = sqliteSchedules{db}
	client, err := river.NewClient(driver, rc)
	if err != nil {
		db.Close()
		return err
	}
	q.client, q.close = client, func() { db.Close() }
	q.query = func(ctx context.Context, query string) (map[string]int64, error) {
		rows, err := db.QueryContext(ctx, query)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := map[string]int64{}
		for rows.Next() {
			var k string
			var n int64
			if err := rows.Scan(&k, &n); err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, rows.Err()
	}
	q.ownerIs = "json_extract(metadata, '$.owner') = @owner"
	q.keyIs = "json_extract(args, '$.key') = @key"
	q.idempotencyIs = "json_extract(args, '$.idempotency') = @idem"
	q.scheduleIs = "json_extract(args, '$.schedule') = @schedule"
	q.countSQL = countSQLite
	return nil
}

func (q *Queue) openPostgres(ctx context.Context, url string, rc *river.Config) error {
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	driver := riverpgxv5.New(pool)
	if err := migrateLocked(ctx, pool, driver); err != nil {
		pool.Close()
		return fmt.Errorf("queue: %w", err)
	}
	q.schedules = pgSchedules{pool}
	client, err := river.NewClient(driver, rc)
	if err != nil {
		pool.Close()
		return err
	}
	q.client, q.close = client, pool.Close
	q.query = func(ctx context.Context, query string) (map[string]int64, error) {
		rows, err := pool.Query(ctx, query)
		if err != nil {
			return nil, err
		}
		out := map[string]int64{}
		var k string
		var n int64
		_, err = pgx.ForEachRow(rows, []any{&k, &n}, func() error { out[k] = n; return nil })
		return out, err
	}
	q.ownerIs = "metadata->>'owner' = @owner"
	q.keyIs = "args->>'key' = @key"
	q.idempotencyIs = "args->>'idempotency' = @idem"
	q.scheduleIs = "args->>'schedule' = @schedule"
	q.countSQL = countPostgres
	return nil
}

// privateFiles creates the SQLite queue's file readable by its owner
// only (0600), and makes an existing one and its -wal and -shm files so:
// the queue holds job parameters, callers' claims and webhook settings.
// SQLite gives the -wal and -shm files it creates the database file's
// permissions.
func privateFiles(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// migrateLocked migrates under a PostgreSQL advisory lock: the processes
// of a fleet start together, and River's migrations are not safe to run
// twice at once.
func migrateLocked(ctx context.Context, pool *pgxpool.Pool, driver *riverpgxv5.Driver) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	const lock = "SELECT pg_advisory_lock(hashtext('sheetstream: river migrations'))"
	if _, err := conn.Exec(ctx, lock); err != nil {
		return err
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(hashtext('sheetstream: river migrations'))")
	if err := migrate(ctx, driver); err != nil {
		return err
	}
	if _, err = conn.Exec(ctx, scheduleTable); err != nil {
		return err
	}
	if _, err = conn.Exec(ctx, revokedTable); err != nil {
		return err
	}
	_, err = conn.Exec(ctx, progressTable)
	return err
}

// migrate creates or updates River's tables.
func migrate[TTx any](ctx context.Context, driver riverdriver.Driver[TTx]) error {
	m, err := rivermigrate.New(driver, nil)
	if err != nil {
		return err
	}
	_, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	return err
}

// Start starts the workers (a Queue with Workers 0 starts none) and the
// schedules.
func (q *Queue) Start(ctx context.Context) error {
	if len(q.cfg.Schedules) > 0 {
		sctx, stop := context.WithCancel(context.WithoutCancel(ctx))
		q.stopSched = stop
		go q.runSchedules(sctx)
	}
	if q.cfg.Workers == 0 {
		return nil
	}
	return q.client.Start(ctx)
}

// Close stops the workers, letting running jobs finish until ctx ends
// (then they are cancelled, and retried later), and closes the database.
func (q *Queue) Close(ctx context.Context) error {
	if q.stopSched != nil {
		q.stopSched()
	}
	var err error
	if q.cfg.Workers > 0 {
		err = q.client.Stop(ctx)
	}
	q.close()
	return err
}

// Submit queues a job. With an idempotency key, a job the same owner
// submitted with the same key is returned instead of a second one.
func (q *Queue) Submit(ctx context.Context, req Request, idempotencyKey string) (Job, error) {
	secret := randomHex(16)
	args := exportArgs{Request: req, Secret: secret, Key: "jobs/" + secret + "/" + req.File, LinkKey: randomHex(32)}
	opts := &river.InsertOpts{MaxAttempts: q.cfg.MaxAttempts, Metadata: ownerMetadata(req.Owner)}
	if idempotencyKey != "" {
		args.Idempotency = idempotency(req.Owner, idempotencyKey)
		opts.UniqueOpts = river.UniqueOpts{ByArgs: true}
	}
	res, err := q.client.Insert(ctx, args, opts)
	if err != nil {
		return Job{}, err
	}
	if res.UniqueSkippedAsDuplicate {
		var first exportArgs
		if err := json.Unmarshal(res.Job.EncodedArgs, &first); err != nil {
			return Job{}, fmt.Errorf("job %d: %w", res.Job.ID, err)
		}
		if first.Export != req.Export || !maps.Equal(first.Params, req.Params) {
			return Job{}, ErrIdempotencyConflict
		}
	}
	return q.view(res.Job)
}

// idempotency is what makes a job submitted twice one job: its owner and
// the client's key.
func idempotency(owner, key string) string { return strconv.Quote(owner) + " " + key }

// Submitted says whether owner submitted a job with idempotencyKey that
// the queue still holds: submitting again returns it, adding nothing.
func (q *Queue) Submitted(ctx context.Context, owner, idempotencyKey string) (bool, error) {
	if idempotencyKey == "" {
		return false, nil
	}
	params := river.NewJobListParams().Kinds((exportArgs{}).Kind()).First(1).
		Where(q.idempotencyIs, river.NamedArgs{"idem": idempotency(owner, idempotencyKey)})
	res, err := q.client.JobList(ctx, params)
	if err != nil {
		return false, err
	}
	return len(res.Jobs) > 0, nil
}

// Active counts owner's jobs that are queued or running, up to limit.
func (q *Queue) Active(ctx context.Context, owner string, limit int) (int, error) {
	if owner == "" {
		return 0, errors.New("Active needs an owner")
	}
	params := river.NewJobListParams().Kinds((exportArgs{}).Kind()).
		States(rivertype.JobStateAvailable, rivertype.JobStateScheduled, rivertype.JobStatePending,
			rivertype.JobStateRetryable, rivertype.JobStateRunning).
		Where(q.ownerIs, river.NamedArgs{"owner": owner}).First(min(max(limit, 1), 1000))
	res, err := q.client.JobList(ctx, params)
	if err != nil {
		return 0, err
	}
	return len(res.Jobs), nil
}

// ownerMetadata records the owner in the job's metadata, by which lists
// filter.
func ownerMetadata(owner string) []byte {
	b, _ := json.Marshal(map[string]string{"owner": owner})
	return b
}

// Get returns the job with the public id.
func (q *Queue) Get(ctx context.Context, id string) (Job, error) {
	row, err := q.row(ctx, id)
	if err != nil {
		return Job{}, err
	}
	j, err := q.view(row)
	q.addProgress(ctx, &j, row.ID)
	return j, err
}

// row finds the job a public id names, checking its secret in constant
// time.
func (q *Queue) row(ctx context.Context, id string) (*rivertype.JobRow, error) {
	num, secret, ok := strings.Cut(id, "-")
	n, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil || n <= 0 || len(secret) != 32 {
		return nil, ErrNotFound
	}
	row, err := q.client.JobGet(ctx, n)
	if errors.Is(err, river.ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	var args exportArgs
	if row.Kind != (exportArgs{}).Kind() || json.Unmarshal(row.EncodedArgs, &args) != nil ||
		subtle.ConstantTimeCompare([]byte(args.Secret), []byte(secret)) != 1 {
		return nil, ErrNotFound
	}
	return row, nil
}

// Cancel cancels a queued or running job (a running export's query is
// cancelled and its upload aborted); a finished job is returned as it is.
func (q *Queue) Cancel(ctx context.Context, id string) (Job, error) {
	row, err := q.row(ctx, id)
	if err != nil {
		return Job{}, err
	}
	if row, err = q.client.JobCancel(ctx, row.ID); err != nil {
		return Job{}, err
	}
	return q.view(row)
}

// List returns an owner's jobs (AllOwners for every owner's; an empty
// owner is an error), newest first, at most limit, after the job with id
// after ("" for the newest).
func (q *Queue) List(ctx context.Context, owner string, limit int, after string) ([]Job, error) {
	if owner == "" {
		return nil, errors.New("List needs an owner (AllOwners for every owner's)")
	}
	params := river.NewJobListParams().Kinds((exportArgs{}).Kind()).
		OrderBy(river.JobListOrderByID, river.SortOrderDesc).First(min(max(limit, 1), 1000))
	if owner != AllOwners {
		params = params.Where(q.ownerIs, river.NamedArgs{"owner": owner})
	}
	if after != "" {
		row, err := q.row(ctx, after)
		if err != nil {
			return nil, err
		}
		params = params.After(river.JobListCursorFromJob(row))
	}
	res, err := q.client.JobList(ctx, params)
	if err != nil {
		return nil, err
	}
	out := make([]Job, 0, len(res.Jobs))
	for _, row := range res.Jobs {
		j, err := q.view(row)
		if err != nil {
			return nil, err
		}
		q.addProgress(ctx, &j, row.ID)
		out = append(out, j)
	}
	return out, nil
}

// File opens a done job's file.
func (q *Queue) File(ctx context.Context, j Job) (io.ReadCloser, int64, error) {
	if j.State != Done {
		return nil, 0, fmt.Errorf("job %s is %s, not done", j.ID, j.State)
	}
	return q.cfg.Storage.Get(ctx, j.Key)
}

// view makes a job row into what clients see.
func (q *Queue) view(row *rivertype.JobRow) (Job, error) {
	var args exportArgs
	if err := json.Unmarshal(row.EncodedArgs, &args); err != nil {
		return Job{}, fmt.Errorf("job %d: %w", row.ID, err)
	}
	j := Job{ID: strconv.FormatInt(row.ID, 10) + "-" + args.Secret, Export: args.Export, Params: args.Params,
		Owner: args.Owner, Attempts: row.Attempt, Created: row.CreatedAt, Started: row.AttemptedAt,
		Finished: row.FinalizedAt, File: args.File, Key: args.Key, Schedule: args.Schedule, Slot: args.Slot}
	if j.Params == nil {
		j.Params = map[string]string{}
	}
	if n := len(row.AttemptedBy); n > 0 {
		j.Worker, _, _ = strings.Cut(row.AttemptedBy[n-1], "/")
	}
	if n := len(row.Errors); n > 0 {
		j.Error = row.Errors[n-1].Error
	}
	var meta struct {
		Output *output `json:"output"`
		Worker string  `json:"worker"`
	}
	json.Unmarshal(row.Metadata, &meta)
	failed := false
	if o := meta.Output; o != nil {
		j.Rows, j.Bytes, failed = o.Rows, o.Bytes, o.Failed
		if o.Error != "" && (o.Attempt == row.Attempt || o.Failed) {
			// As the Runner said it, not as River wraps it.
			j.Error, j.ErrorID = o.Error, o.ErrorID
		}
	}
	j.State = stateOf(row.State, failed)
	if j.State == Done {
		j.Error, j.ErrorID = "", "" // an earlier attempt's
	}
	return j, nil
}

type permanent struct{ err error }

func (p permanent) Error() string { return p.err.Error() }
func (p permanent) Unwrap() error { return p.err }

// Permanent marks an error retrying cannot mend: the job fails at once.
func Permanent(err error) error { return permanent{err} }

type withID struct {
	err error
	id  string
}

func (w withID) Error() string { return w.err.Error() }
func (w withID) Unwrap() error { return w.err }

// WithErrorID attaches id, which names err's details in the runner's own
// log, to the error a Runner returns: the job records it as Job.ErrorID
// beside the message. It goes inside or outside Permanent alike.
func WithErrorID(err error, id string) error { return withID{err, id} }

// outputOf is what an attempt records of its failure.
func outputOf(err error, attempt int) output {
	o := output{Error: err.Error(), Attempt: attempt}
	var p permanent
	o.Failed = errors.As(err, &p)
	var w withID
	if errors.As(err, &w) {
		o.ErrorID = w.id
	}
	return o
}

// rescued says whether job's previous attempt ended without recording
// its output: River's rescuer took the job from a worker that vanished.
func rescued(job *rivertype.JobRow) bool {
	if job.Attempt <= 1 {
		return false
	}
	var meta struct {
		Output *output `json:"output"`
	}
	json.Unmarshal(job.Metadata, &meta)
	return meta.Output == nil || meta.Output.Attempt < job.Attempt-1
}

// exportWorker works export jobs.
type exportWorker struct {
	river.WorkerDefaults[exportArgs]
	q *Queue
}

// Work removes what an earlier attempt left, streams the workbook into
// the storage, and records its rows and bytes.
func (w *exportWorker) Work(ctx context.Context, job *river.Job[exportArgs]) error {
	q := w.q
	start := time.Now()
	if rescued(job.JobRow) {
		q.count(func(s *Stats) { s.Rescued++ })
	}
	if job.Attempt > 1 {
		// What an earlier attempt left goes, unless another job writing
		// to the same key (a schedule's fixed key) is running: what is
		// there is its.
		shared, err := q.keyUsed(ctx, job.Args.Key, job.ID, false)
		if err != nil {
			river.RecordOutput(ctx, outputOf(err, job.Attempt))
			return err
		}
		if !shared {
			if n, err := q.cfg.Storage.Abandon(ctx, job.Args.Key); err != nil {
				river.RecordOutput(ctx, outputOf(err, job.Attempt))
				return err
			} else if n > 0 {
				q.cfg.Log.Info("removed what an earlier attempt left", "job", job.ID, "left", n)
			}
		}
	}
	var rows int64
	runCtx, stopProgress := q.watchProgress(ctx, job.ID)
	size, err := q.cfg.Storage.Put(ctx, job.Args.Key, func(out io.Writer) error {
		var err error
		rows, err = q.cfg.Run(runCtx, job.Args.Request, out)
		return err
	})
	stopProgress()
	elapsed := time.Since(start).Seconds()
	if err != nil {
		// The facts go in the job's output, which Counts and view read;
		// River keeps the error's text among the attempts'.
		o := outputOf(err, job.Attempt)
		river.RecordOutput(ctx, o)
		if o.Failed {
			q.count(func(s *Stats) { s.Failed++; s.Seconds += elapsed })
			q.notify(ctx, job.ID, job.Args.Notify)
			return river.JobCancel(err)
		}
		if job.Attempt >= job.MaxAttempts && ctx.Err() == nil {
			q.notify(ctx, job.ID, job.Args.Notify) // the last attempt: the job fails
		}
		q.count(func(s *Stats) {
			switch {
			case ctx.Err() != nil:
				s.Cancelled++ // cancelled, timed out, or its worker stopping
			case job.Attempt < job.MaxAttempts:
				s.Retried++
			default:
				s.Failed++
			}
			s.Seconds += elapsed
		})
		return err
	}
	q.count(func(s *Stats) { s.Done++; s.Seconds += elapsed; s.Bytes += size })
	q.notify(ctx, job.ID, job.Args.Notify)
	q.deliver(ctx, job.ID, job.Args)
	q.cfg.Log.Info("export job done", "job", job.ID, "export", job.Args.Export, "rows", rows, "bytes", size)
	return river.RecordOutput(ctx, output{Rows: rows, Bytes: size, Attempt: job.Attempt})
}

// keyUsed says whether an export job other than id stores its file under
// key: with newer, any job queued after id (the file under the key is
// then, or will be, that job's); without, a job running now.
func (q *Queue) keyUsed(ctx context.Context, key string, id int64, newer bool) (bool, error) {
	params := river.NewJobListParams().Kinds((exportArgs{}).Kind()).First(1)
	if newer {
		params = params.Where(q.keyIs+" AND id > @id", river.NamedArgs{"key": key, "id": id})
	} else {
		params = params.States(rivertype.JobStateRunning).Where(q.keyIs+" AND id <> @id", river.NamedArgs{"key": key, "id": id})
	}
	res, err := q.client.JobList(ctx, params)
	if err != nil {
		return false, err
	}
	return len(res.Jobs) > 0, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
