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
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

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
	workers := cap(s.slots)
	if s.cfg.JobWorkers != nil {
		workers = max(0, *s.cfg.JobWorkers)
	}
	var schedules []*jobs.Schedule
	for _, sc := range s.cfg.Schedules {
		schedules = append(schedules, sc.schedule)
	}
	q, err := jobs.Open(ctx, jobs.Config{
		Queue: s.cfg.Jobs, Storage: store, Workers: workers, Run: s.runJob,
		JobTimeout: time.Duration(s.cfg.JobTimeout), MaxAttempts: s.cfg.MaxAttempts, Log: s.log,
		Schedules: schedules,
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
	var b *bound
	if c := req.Caller; c != nil {
		b = &bound{subject: c.Subject, email: c.Email, groups: c.Groups, claims: c.Claims}
	}
	vals, err := e.valuesFor(req.Params, b)
	if err != nil {
		return 0, jobs.Permanent(err)
	}
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	defer func() { <-s.slots }()
	d := s.dbs[e.Database]
	select {
	case d.conns <- struct{}{}:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	defer func() { <-d.conns }()
	st, err := s.writeXLSX(ctx, e, vals, w)
	if err != nil {
		if ctx.Err() != nil {
			return st.Rows, ctx.Err()
		}
		// The details go to the log under an id; the job keeps the id.
		id := errorID()
		s.log.Error("export job failed", "export", e.Name, "rows", st.Rows, "error_id", id, "err", s.redact(err))
		shown := fmt.Errorf("the export failed (error_id %s; the server log has the details)", id)
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
	return s.jobs.Submit(ctx, jobs.Request{Export: e.Name, Params: params, File: e.Name + ".xlsx", Keep: time.Duration(e.Keep)}, idempotencyKey)
}

// jobJSON is a job as the API shows it.
type jobJSON struct {
	jobs.Job
	// ErrorID names, for the server's log, the error a failed attempt
	// reported.
	ErrorID  string `json:"error_id,omitempty"`
	Download string `json:"download,omitempty"`
}

// errorIDIn finds the error id runJob put in a job's error.
var errorIDIn = regexp.MustCompile(`\(error_id ([0-9a-f]+);`)

func (s *Server) jobView(j jobs.Job) jobJSON {
	v := jobJSON{Job: j}
	if m := errorIDIn.FindStringSubmatch(j.Error); m != nil {
		v.ErrorID = m[1]
	}
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
	j, err := s.jobs.Submit(r.Context(), jobs.Request{Export: e.Name, Params: query, File: e.Name + ".xlsx",
		Keep: time.Duration(e.Keep), Owner: id.Subject,
		Caller: &jobs.Caller{Subject: id.Subject, Email: id.Email, Groups: id.Groups, Claims: id.Claims}}, key)
	if err != nil {
		s.internalError(w, "the job could not be queued", err, "name", e.Name)
		return
	}
	s.log.Info("export job queued", "job", j.ID[:strings.IndexByte(j.ID, '-')], "export", e.Name)
	s.audit(w, r, auditRecord{Event: "job", Export: e.Name, Job: j.ID[:strings.IndexByte(j.ID, '-')], Params: query, Outcome: "queued"})
	w.Header().Set("Location", "/api/jobs/"+j.ID)
	writeJSON(w, http.StatusAccepted, map[string]any{"id": j.ID, "state": j.State, "url": "/api/jobs/" + j.ID})
}

// job finds the job of the request's {id}, answering 404 itself: also
// for another owner's job, unless the caller is an admin.
func (s *Server) job(w http.ResponseWriter, r *http.Request) (jobs.Job, bool) {
	j, err := s.jobs.Get(r.Context(), r.PathValue("id"))
	if err == nil && !s.admin(r) && j.Owner != identity(r).Subject {
		err = jobs.ErrNotFound
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
	owner := identity(r).Subject
	if s.admin(r) {
		owner = "" // every owner's
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
	out := make([]jobJSON, len(list))
	for i, j := range list {
		out[i] = s.jobView(j)
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
			err = &ParamError{name, "is not a parameter of a job's file (link)"}
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
	link, err := s.store.Presign(r.Context(), j.Key, time.Duration(s.cfg.LinkTTL), j.File)
	if err != nil {
		s.internalError(w, "the file could not be linked", err)
		return
	}
	s.audit(w, r, auditRecord{Event: "job_file", Export: j.Export, Job: j.ID[:strings.IndexByte(j.ID, '-')], Bytes: j.Bytes, Outcome: "ok"})
	if _, asked := query["link"]; asked {
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
