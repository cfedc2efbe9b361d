package server

// Background exports: the API over the jobs package, and the Runner that
// makes a job's workbook as a download would.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sheetstream/sheetstream/auth"
	"github.com/sheetstream/sheetstream/internal/sqliteapi"
	"github.com/sheetstream/sheetstream/jobs"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/storage"
	"github.com/sheetstream/sheetstream/xlsx"
)

// openJobs opens the configured queue and storage. Workers run jobs
// once StartJobs is called.
func (s *Server) openJobs(ctx context.Context) error {
	store, err := storage.Open(ctx, s.cfg.Storage)
	if err != nil {
		return err
	}
	workers := cap(s.jobSlots)
	if s.cfg.JobWorkers != nil {
		workers = max(0, *s.cfg.JobWorkers)
	}
	var schedules []*jobs.Schedule
	for _, sc := range s.cfg.Schedules {
		if sc.Deliver != nil && sc.Deliver.Email != nil && sc.Deliver.Email.RecipientsSQL != "" {
			sc.schedule.Recipients = s.recipientsOf(sc)
		}
		schedules = append(schedules, sc.schedule)
	}
	mail, err := s.cfg.mailSender()
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	q, err := jobs.Open(ctx, jobs.Config{
		Queue: s.cfg.Jobs, Storage: store, Workers: workers, Run: s.runJob,
		JobTimeout: time.Duration(s.cfg.JobTimeout), MaxAttempts: s.cfg.MaxAttempts, Log: s.log,
		Schedules: schedules, Mailer: mail, PublicURL: s.cfg.publicURL(), OnMail: s.auditMail,
	})
	if err != nil {
		return err
	}
	s.jobs, s.store = q, store
	s.metrics.jobs = q
	return nil
}

// StartJobs starts the job workers, if the service has jobs and workers.
func (s *Server) StartJobs(ctx context.Context) error {
	if s.jobs == nil {
		return nil
	}
	return s.jobs.Start(ctx)
}

// runJob makes a job's workbook: the export with its parameters, read as
// a download reads them, in an export slot (a job's memory counts against
// the same budget as downloads') with a connection of its database.
func (s *Server) runJob(ctx context.Context, req jobs.Request, w io.Writer) (int64, error) {
	e := s.exports[req.Export]
	if e == nil {
		return 0, jobs.Permanent(fmt.Errorf("no export named %q (the configuration changed?)", req.Export))
	}
	vals, err := e.valuesFor(req.Params, req.Caller)
	if err != nil {
		return 0, jobs.Permanent(err)
	}
	release, _ := s.acquire(ctx, e, true, time.Time{})
	if release == nil {
		return 0, ctx.Err()
	}
	defer release()
	// The watch downloads have: a job that makes no byte within
	// write_timeout (a query silent that long), or whose storage takes no
	// bytes that long, is stopped and its slot freed.
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	jw := &jobWatch{w: w, timeout: time.Duration(s.cfg.WriteTimeout), cancel: cancel}
	if e.password == "" { // an encrypted file comes out whole at its end
		defer jw.watchOutput()()
	}
	w = jw
	var prov *sqlsheet.Provenance
	if e.Provenance {
		caller := req.Owner
		email := ""
		if req.Caller != nil {
			caller, email = req.Caller.Subject, req.Caller.Email
		}
		prov = e.provenance(req.Params, caller, email)
		if req.Schedule != "" {
			prov.Caller = fmt.Sprintf("%s (schedule %s, slot %s)", prov.Caller, req.Schedule, req.Slot)
		}
	}
	st, err := s.writeXLSX(ctx, e, vals, prov, w)
	if err != nil {
		switch cause := context.Cause(ctx); {
		case errors.Is(cause, errNothingMade):
			s.log.Warn("export job stopped: its query produced nothing within write_timeout", "export", e.Name, "write_timeout", time.Duration(s.cfg.WriteTimeout))
			return st.Rows, jobs.Permanent(fmt.Errorf("%w (write_timeout %s)", errNothingMade, time.Duration(s.cfg.WriteTimeout)))
		case errors.Is(cause, errStorageStalled):
			s.log.Warn("export job stopped: the storage took no bytes within write_timeout", "export", e.Name, "storage", s.store.String())
			return st.Rows, cause
		case ctx.Err() != nil:
			return st.Rows, ctx.Err()
		}
		// The details go to the log under an id; the job keeps the id.
		id := errorID()
		s.log.Error("export job failed", "export", e.Name, "rows", st.Rows, "error_id", id, "err", s.redact(err))
		shown := jobs.WithErrorID(fmt.Errorf("the export failed (error_id %s; the server log has the details)", id), id)
		if permanentError(err) {
			return st.Rows, jobs.Permanent(shown)
		}
		return st.Rows, shown
	}
	return st.Rows, nil
}

// permanentError says whether an export error is one a retry cannot
// mend: SQL that does not prepare (syntax, missing tables or columns),
// data a sheet cannot hold, a statement past its timeout.
func permanentError(err error) bool {
	var cell *xlsx.CellError
	var pg *pgconn.PgError
	var lite *sqliteapi.Error
	switch {
	case errors.As(err, &cell), errors.Is(err, sqlsheet.ErrStatementTimeout), errors.Is(err, sqliteapi.ErrNotReadOnly):
		return true
	case errors.As(err, &pg):
		// Syntax and access rules, data exceptions, and the statement
		// timeout (57014): the same query fails again.
		return strings.HasPrefix(pg.Code, "42") || strings.HasPrefix(pg.Code, "22") || pg.Code == "57014"
	case errors.As(err, &lite):
		return lite.Code&0xff == 1 // SQLITE_ERROR: no such table, a syntax error
	}
	return false
}

// Jobs is the service's job queue: nil when the configuration has none.
func (s *Server) Jobs() *jobs.Queue { return s.jobs }

// SubmitJob queues the export name as a background job, its parameters
// given as a query string gives them and checked as a request's are
// (a *ParamError names what is wrong).
func (s *Server) SubmitJob(ctx context.Context, name string, params map[string]string, idempotencyKey string) (jobs.Job, error) {
	if s.jobs == nil {
		return jobs.Job{}, errors.New("the configuration has no jobs: queue")
	}
	e := s.exports[name]
	if e == nil {
		return jobs.Job{}, fmt.Errorf("no export named %q", name)
	}
	if params == nil {
		params = map[string]string{}
	}
	if _, err := e.values(params); err != nil {
		return jobs.Job{}, err
	}
	return s.jobs.Submit(ctx, e.jobRequest(params, "", nil), idempotencyKey)
}

// jobRequest is the one way a job of e is asked for, over the API, from
// the command line or by a schedule: owner keys who may see it, caller is
// what its identity-bound parameters read.
func (e *Export) jobRequest(params map[string]string, owner string, caller *auth.Attributes) jobs.Request {
	return jobs.Request{Export: e.Name, Params: params, File: e.Name + ".xlsx", Keep: time.Duration(e.Keep), Owner: owner, Caller: caller, Notify: e.notify}
}

// jobJSON is a job as the API shows it.
type jobJSON struct {
	jobs.Job
	Download string `json:"download,omitempty"`
}

func (s *Server) jobView(j jobs.Job) jobJSON {
	v := jobJSON{Job: j}
	if j.State == jobs.Done {
		v.Download = "/api/jobs/" + j.ID + "/file"
	}
	return v
}

// withJobs answers 404 when the service runs no jobs.
func (s *Server) withJobs(h http.HandlerFunc) http.HandlerFunc {
	return s.auth(func(w http.ResponseWriter, r *http.Request) {
		if s.jobs == nil {
			jsonError(w, http.StatusNotFound, "this service runs no background exports (jobs: in its configuration)")
			return
		}
		h(w, r)
	})
}

// submitJob: POST /api/exports/NAME/jobs?param=... queues the export, its
// parameters read as strictly as a download's; 202 with the job.
func (s *Server) submitJob(w http.ResponseWriter, r *http.Request) {
	e, _, query, ok := s.lookup(w, r, r.PathValue("name"))
	if !ok {
		return
	}
	if s.limited(w, r, "job") {
		return
	}
	key := r.Header.Get("Idempotency-Key")
	if len(key) > 255 || checkText("Idempotency-Key", key) != nil {
		jsonError(w, http.StatusBadRequest, "the Idempotency-Key header is not a text of at most 255 bytes")
		return
	}
	id := identity(r)
	owner := id.Key()
	if !id.All {
		// Queued and running jobs per identity are capped: counted and
		// submitted under the owner's lock, so a burst cannot pass the
		// cap between the count and the insert.
		unlock := s.submitting.lock(owner)
		defer unlock()
		active, err := s.jobs.Active(r.Context(), owner, s.cfg.MaxJobsPerIdentity)
		again := false
		if err == nil && active >= s.cfg.MaxJobsPerIdentity {
			// A retry with the same Idempotency-Key adds no job: it gets
			// the one it made.
			again, err = s.jobs.Submitted(r.Context(), owner, key)
		}
		if err != nil {
			s.internalError(w, "the job could not be queued", err, "name", e.Name)
			return
		}
		if active >= s.cfg.MaxJobsPerIdentity && !again {
			s.metrics.refused("jobs")
			s.audit(w, r, auditRecord{Event: "refused", Export: e.Name, Outcome: fmt.Sprintf("429 %d jobs queued or running", active)})
			w.Header().Set("Retry-After", "30")
			jsonError(w, http.StatusTooManyRequests, fmt.Sprintf("you have %d jobs queued or running, the most this service takes from one identity (max_jobs_per_identity); try again when one ends", active))
			return
		}
	}
	j, err := s.jobs.Submit(r.Context(), e.jobRequest(query, owner, &id.Attributes), key)
	if errors.Is(err, jobs.ErrIdempotencyConflict) {
		jsonError(w, http.StatusUnprocessableEntity, "this Idempotency-Key was used for another export or other parameters; use a new key")
		return
	}
	if err != nil {
		s.internalError(w, "the job could not be queued", err, "name", e.Name)
		return
	}
	s.log.Info("export job queued", "job", shortID(j.ID), "export", e.Name)
	s.audit(w, r, auditRecord{Event: "job", Export: e.Name, Job: shortID(j.ID), Params: query, Outcome: "queued"})
	w.Header().Set("Location", "/api/jobs/"+j.ID)
	writeJSON(w, http.StatusAccepted, map[string]any{"id": j.ID, "state": j.State, "url": "/api/jobs/" + j.ID})
}

// job finds the job of the request's {id}, answering 404 itself: also
// for another owner's job, and for a job of an export its owner may no
// longer use (access withdrawn after the job ran), unless the caller is
// an admin. Every refusal is audited.
func (s *Server) job(w http.ResponseWriter, r *http.Request) (jobs.Job, bool) {
	j, err := s.jobs.Get(r.Context(), r.PathValue("id"))
	if err == nil && !s.admin(r) {
		id := identity(r)
		switch e := s.exports[j.Export]; {
		case j.Owner != id.Key():
			s.audit(w, r, auditRecord{Event: "refused", Export: j.Export, Job: shortID(j.ID), Outcome: "404 another identity's job"})
			err = jobs.ErrNotFound
		case e == nil || !s.allowed(id, e):
			s.audit(w, r, auditRecord{Event: "refused", Export: j.Export, Job: shortID(j.ID), Outcome: "404 the export is no longer allowed"})
			err = jobs.ErrNotFound
		}
	} else if errors.Is(err, jobs.ErrNotFound) {
		s.audit(w, r, auditRecord{Event: "refused", Outcome: "404 no such job"})
	}
	switch {
	case errors.Is(err, jobs.ErrNotFound):
		jsonError(w, http.StatusNotFound, "no such job")
		return j, false
	case err != nil:
		s.internalError(w, "the job could not be read", err)
		return j, false
	}
	return j, true
}

// shortID is a job id without its secret half, for logs.
func shortID(id string) string {
	num, _, _ := strings.Cut(id, "-")
	return num
}

// getJob: GET /api/jobs/ID.
func (s *Server) getJob(w http.ResponseWriter, r *http.Request) {
	if j, ok := s.job(w, r); ok {
		writeJSON(w, http.StatusOK, s.jobView(j))
	}
}

// cancelJob: DELETE /api/jobs/ID cancels a queued or running job.
func (s *Server) cancelJob(w http.ResponseWriter, r *http.Request) {
	j, ok := s.job(w, r)
	if !ok {
		return
	}
	j, err := s.jobs.Cancel(r.Context(), j.ID)
	if err != nil {
		s.internalError(w, "the job could not be cancelled", err)
		return
	}
	s.audit(w, r, auditRecord{Event: "job_cancel", Export: j.Export, Job: shortID(j.ID), Outcome: string(j.State)})
	writeJSON(w, http.StatusOK, s.jobView(j))
}

// listJobs: GET /api/jobs?limit=N&after=ID, newest first.
func (s *Server) listJobs(w http.ResponseWriter, r *http.Request) {
	query, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return
	}
	limit := 20
	for name, v := range query {
		switch name {
		case "limit":
			if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > 100 {
				jsonError(w, http.StatusBadRequest, `parameter "limit": want 1 to 100`)
				return
			}
		case "after":
		default:
			jsonError(w, http.StatusBadRequest, fmt.Sprintf("parameter %q: is not one of limit, after", name))
			return
		}
	}
	owner := identity(r).Key()
	admin := s.admin(r)
	if admin {
		owner = jobs.AllOwners
	}
	list, err := s.jobs.List(r.Context(), owner, limit+1, query["after"])
	if errors.Is(err, jobs.ErrNotFound) {
		jsonError(w, http.StatusBadRequest, `parameter "after": no such job`)
		return
	}
	if err != nil {
		s.internalError(w, "the jobs could not be listed", err)
		return
	}
	next := ""
	if len(list) > limit {
		list, next = list[:limit], list[limit-1].ID
	}
	out := make([]jobJSON, 0, len(list))
	for _, j := range list {
		// Jobs of exports the caller may no longer use are not shown.
		if e := s.exports[j.Export]; admin || e != nil && s.allowed(identity(r), e) {
			out = append(out, s.jobView(j))
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"jobs": out, "next": next})
}

// jobFile: GET /api/jobs/ID/file redirects to a signed link where the
// storage makes them (S3), or sends the file; with ?link, it answers
// {"url": the signed link, or ""} instead.
func (s *Server) jobFile(w http.ResponseWriter, r *http.Request) {
	j, ok := s.job(w, r)
	if !ok {
		return
	}
	query, err := parseQuery(r.URL.RawQuery)
	for name := range query {
		if name != "link" {
			err = &ParamError{Name: name, Msg: "is not a parameter of a job's file (link)"}
		}
	}
	if err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return
	}
	if j.State != jobs.Done {
		jsonError(w, http.StatusConflict, fmt.Sprintf("the job is %s; its file is there once it is done", j.State))
		return
	}
	_, asked := query["link"]
	s.sendJobFile(w, r, j, asked, "")
}

// sendJobFile sends a done job's file: a redirect to a signed link where
// the storage makes them, else the bytes; with asked, {"url": the link
// or ""} instead. subject names who asked in the audit trail ("" for the
// request's identity).
func (s *Server) sendJobFile(w http.ResponseWriter, r *http.Request, j jobs.Job, asked bool, subject string) {
	link, err := s.store.Presign(r.Context(), j.Key, time.Duration(s.cfg.LinkTTL), j.File)
	if err != nil {
		s.internalError(w, "the file could not be linked", err)
		return
	}
	s.audit(w, r, auditRecord{Event: "job_file", Subject: subject, Export: j.Export, Job: shortID(j.ID), Bytes: j.Bytes, Outcome: "ok"})
	if asked {
		// For the page: a signed link it can open, or "" when the file
		// comes from here (with the page's token).
		writeJSON(w, http.StatusOK, map[string]string{"url": link})
		return
	}
	if link != "" {
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, link, http.StatusFound)
		return
	}
	body, size, err := s.jobs.File(r.Context(), j)
	if errors.Is(err, storage.ErrNotFound) {
		jsonError(w, http.StatusGone, "the job's file is no longer kept")
		return
	}
	if err != nil {
		s.internalError(w, "the file could not be read", err)
		return
	}
	defer body.Close()
	h := w.Header()
	h.Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, j.File))
	h.Set("Content-Length", strconv.FormatInt(size, 10))
	h.Set("Cache-Control", "no-store")
	cw := &clientWriter{w: w, rc: http.NewResponseController(w), timeout: time.Duration(s.cfg.WriteTimeout), cancel: func(error) {}, noHold: true}
	if _, err := io.Copy(cw, body); err != nil {
		panic(http.ErrAbortHandler)
	}
}

// errStorageStalled stops a job whose storage took no bytes within
// write_timeout.
var errStorageStalled = errors.New("the storage took no bytes within write_timeout")

// jobWatch is a job's output as downloads' clientWriter watches theirs:
// the job is cancelled when it makes no byte within the timeout, or when
// one write to the storage takes longer.
type jobWatch struct {
	w       io.Writer
	timeout time.Duration
	cancel  context.CancelCauseFunc
	made    atomic.Int64
	stalled *time.Timer // armed during each write to the storage
}

func (j *jobWatch) Write(p []byte) (int, error) {
	if j.stalled == nil {
		j.stalled = time.AfterFunc(j.timeout, func() { j.cancel(errStorageStalled) })
	} else {
		j.stalled.Reset(j.timeout)
	}
	n, err := j.w.Write(p)
	j.stalled.Stop()
	j.made.Add(int64(n))
	return n, err
}

// watchOutput cancels the job if it makes no byte within the timeout;
// the returned func stops the watch.
func (j *jobWatch) watchOutput() (stop func()) {
	t := time.AfterFunc(j.timeout, func() {
		if j.made.Load() == 0 {
			j.cancel(errNothingMade)
		}
	})
	return func() { t.Stop() }
}

// keyedMutex is a mutex per key, for the few moments one is held.
type keyedMutex struct {
	mu   sync.Mutex
	held map[string]chan struct{}
}

// lock takes key's mutex and returns its unlock.
func (k *keyedMutex) lock(key string) (unlock func()) {
	for {
		k.mu.Lock()
		if k.held == nil {
			k.held = map[string]chan struct{}{}
		}
		ch, busy := k.held[key]
		if !busy {
			ch = make(chan struct{})
			k.held[key] = ch
			k.mu.Unlock()
			return func() {
				k.mu.Lock()
				delete(k.held, key)
				k.mu.Unlock()
				close(ch)
			}
		}
		k.mu.Unlock()
		<-ch
	}
}

// checkStorage stores, reads back and removes a small file.
func checkStorage(ctx context.Context, store storage.Storage) error {
	const key = ".sheetstream-health-check"
	if _, err := store.Put(ctx, key, func(w io.Writer) error { _, err := io.WriteString(w, "ok"); return err }); err != nil {
		return err
	}
	r, _, err := store.Get(ctx, key)
	if err != nil {
		return err
	}
	got, err := io.ReadAll(r)
	r.Close()
	if err == nil && string(got) != "ok" {
		err = fmt.Errorf("read back %q", got)
	}
	if derr := store.Delete(ctx, key); err == nil {
		err = derr
	}
	return err
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}
