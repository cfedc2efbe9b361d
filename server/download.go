package server

// The download path: a download's headers, the writer that carries it to
// the client (holding its first bytes back, watching for a stalled
// client or a silent export), the .xlsx and .csv answers, and how a
// download ended.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/jobs"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// clientWriter writes a download to the client, renewing the write
// deadline for every chunk, and counts the bytes that reached it. The
// first failed write (the client gone, or taking no bytes within the
// timeout) cancels the export, so that its query stops at once.
//
// The first bytes are held back (up to commitBytes, or until flush): once
// anything is written to the http.ResponseWriter the status is 200 for
// good, even while the bytes still sit in its buffer, and an export that
// fails that early deserves a proper error response instead.
type clientWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	cancel  context.CancelCauseFunc
	held    []byte
	noHold  bool  // send at once: a stored file, whose length is known
	n       int64 // bytes given to the response writer
	made    atomic.Int64
	err     error
}

// commitBytes is how much of a download is held back before the response
// is committed: the zip's first headers and the start of the first sheet.
const commitBytes = 32 << 10

// errNothingMade cancels an export that produced no byte within
// write_timeout.
var errNothingMade = errors.New("the export produced nothing within write_timeout")

func (c *clientWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	c.made.Add(int64(len(p)))
	if c.n == 0 && !c.noHold && len(c.held)+len(p) < commitBytes {
		c.held = append(c.held, p...)
		return len(p), nil
	}
	if len(c.held) > 0 {
		held := c.held
		c.held = nil
		if err := c.write(held); err != nil {
			return 0, err
		}
	}
	return len(p), c.write(p)
}

func (c *clientWriter) write(p []byte) error {
	c.rc.SetWriteDeadline(time.Now().Add(c.timeout))
	n, err := c.w.Write(p)
	c.n += int64(n)
	return c.check(err)
}

// committed says whether the response has begun: a proper error
// response is no longer possible.
func (c *clientWriter) committed() bool { return c.n > 0 }

// flush sends what is held back and what the response writer buffers.
func (c *clientWriter) flush() error {
	if c.err != nil {
		return c.err
	}
	if len(c.held) > 0 {
		held := c.held
		c.held = nil
		if err := c.write(held); err != nil {
			return err
		}
	}
	c.rc.SetWriteDeadline(time.Now().Add(c.timeout))
	return c.check(c.rc.Flush())
}

// check keeps the first failure and cancels the export on it.
func (c *clientWriter) check(err error) error {
	if err != nil {
		c.err = err
		c.cancel(err)
	}
	return err
}

// watchOutput cancels the export if it makes no byte within timeout: a
// query that runs on without a row, which no write deadline would catch.
// The returned func stops the watch.
func (c *clientWriter) watchOutput(timeout time.Duration) (stop func()) {
	t := time.AfterFunc(timeout, func() {
		if c.made.Load() == 0 {
			c.cancel(errNothingMade)
		}
	})
	return func() { t.Stop() }
}

// downloadHeaders are the headers of a download, for GET and HEAD.
func downloadHeaders(h http.Header, e *Export) {
	h.Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.xlsx"`, e.Name))
	h.Set("Cache-Control", "no-store")
	// nginx and other proxies that buffer responses must pass the
	// workbook on as it is written.
	h.Set("X-Accel-Buffering", "no")
}

func (s *Server) download(w http.ResponseWriter, r *http.Request) {
	if name, ok := strings.CutSuffix(r.PathValue("file"), ".csv"); ok {
		s.downloadCSV(w, r, name)
		return
	}
	name, ok := strings.CutSuffix(r.PathValue("file"), ".xlsx")
	if !ok {
		jsonError(w, http.StatusNotFound, "downloads are /exports/NAME.xlsx or /exports/NAME.csv")
		return
	}
	e, vals, query, ok := s.lookup(w, r, name)
	if !ok {
		return
	}
	var prov *sqlsheet.Provenance
	if e.Provenance {
		id := identity(r)
		prov = e.provenance(query, id.Subject, id.Email)
	}
	headers := func(h http.Header) { downloadHeaders(h, e) }
	// An encrypted download makes its bytes only at the end; the
	// statement timeout bounds it.
	s.stream(w, r, e, headers, e.password == "", func(ctx context.Context, cw *clientWriter) (sqlsheet.Stats, error) {
		return s.writeXLSX(ctx, e, vals, prov, cw)
	})
}

// stream runs a download: the rate limit, an export slot, then headers
// and produce, which writes the file through cw, in a context that the
// client going, a failed write and the service's shutdown cancel (and,
// with watch, an export that makes nothing within write_timeout); it
// counts, logs and audits how the download ended. A HEAD gets the
// headers alone.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, e *Export, headers func(http.Header), watch bool,
	produce func(ctx context.Context, cw *clientWriter) (sqlsheet.Stats, error)) {
	if r.Method == http.MethodHead {
		// The headers a GET would send; the query runs only for a GET.
		headers(w.Header())
		return
	}
	if s.limited(w, r, "download") {
		return
	}
	release, ok := s.admit(w, r, e)
	if !ok {
		return
	}
	defer release()
	start := time.Now()
	s.metrics.inFlight.Add(1)
	defer s.metrics.inFlight.Add(-1)

	headers(w.Header())
	ctx, cancel := context.WithCancelCause(r.Context())
	defer cancel(nil)
	// The service's shutdown cuts the download too (CutDownloads).
	defer context.AfterFunc(s.shutdown, func() { cancel(errShutdown) })()
	cw := &clientWriter{w: w, rc: http.NewResponseController(w), timeout: time.Duration(s.cfg.WriteTimeout), cancel: cancel}
	if watch {
		defer cw.watchOutput(time.Duration(s.cfg.WriteTimeout))()
	}
	st, err := produce(ctx, cw)
	s.metrics.rows(e.Name, st.Rows)
	if err == nil {
		// What is held back and what the response writer still buffers,
		// so that "ok" means every byte went out (a stalled client fails
		// here).
		err = cw.flush()
	}
	s.metrics.bytes(e.Name, cw.n)
	s.finishDownload(w, r, e, cw, downloadEnd{st: st, err: err, cause: context.Cause(ctx), elapsed: time.Since(start)})
}

// downloadCSV answers /exports/NAME.csv: one sheet's query (the only
// one, or ?sheet=N or NAME) as CSV, streamed as the query runs, with
// text that a spreadsheet would run as a formula escaped (an apostrophe
// before =, +, -, @), since a CSV is most often opened in one. Dates and
// numbers are written as cat writes them. An encrypted export downloads
// only as .xlsx.
func (s *Server) downloadCSV(w http.ResponseWriter, r *http.Request, name string) {
	e, vals, query, ok := s.lookup(w, r, name, "sheet")
	if !ok {
		return
	}
	sheet := 0
	switch v, given := query["sheet"]; {
	case e.password != "":
		jsonError(w, http.StatusBadRequest, fmt.Sprintf("export %q is encrypted: it downloads only as .xlsx", e.Name))
		return
	case given:
		var err error
		if sheet, err = e.sheetIndex(v); err != nil {
			jsonError(w, http.StatusBadRequest, err.Error())
			return
		}
	case len(e.Sheets) > 1:
		jsonError(w, http.StatusBadRequest, fmt.Sprintf("export %q has %d sheets and a CSV holds one: add ?sheet=N (1 to %d) or a sheet's name", e.Name, len(e.Sheets), len(e.Sheets)))
		return
	}
	headers := func(h http.Header) {
		h.Set("Content-Type", "text/csv; charset=utf-8")
		h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.csv"`, e.Name))
		h.Set("Cache-Control", "no-store")
		h.Set("X-Accel-Buffering", "no")
	}
	s.stream(w, r, e, headers, true, func(ctx context.Context, cw *clientWriter) (sqlsheet.Stats, error) {
		out := csvsheet.NewRowWriter(cw, csvsheet.WriteOptions{Format: csvsheet.CSV, EscapeFormulas: true})
		st, err := s.run(ctx, e, e.Sheets[sheet:sheet+1], vals, sqlsheet.Lines(out), sqlsheet.Options{})
		if err == nil {
			err = out.Flush()
		}
		return st, err
	})
}

// errShutdown cancels the downloads the service cuts at shutdown.
var errShutdown = errors.New("the service is shutting down")

// downloadEnd is how a download's export ended: cause is why its context
// ended, if it did (the client gone, a failed write, errNothingMade or
// errShutdown).
type downloadEnd struct {
	st         sqlsheet.Stats
	err, cause error
	elapsed    time.Duration
}

// finishDownload counts and logs how a download ended and, when it
// failed, answers an error if the response has not begun, or else aborts
// the transfer.
func (s *Server) finishDownload(w http.ResponseWriter, r *http.Request, e *Export, cw *clientWriter, end downloadEnd) {
	st, err, cause, elapsed := end.st, end.err, end.cause, end.elapsed
	attrs := []any{"name", e.Name, "rows", st.Rows, "bytes", cw.n, "duration", elapsed}
	outcome := "ok"
	switch {
	case cause != nil:
		outcome = "ended: " + cause.Error()
	case err != nil:
		outcome = "failed (the error log has why)"
	}
	query, _ := parseQuery(r.URL.RawQuery)
	s.audit(w, r, auditRecord{Event: "download", Export: e.Name, Params: query, Rows: st.Rows, Bytes: cw.n, Outcome: outcome})
	// An answer after a long query needs a write deadline of its own: the
	// one set when the request came may have passed.
	cw.rc.SetWriteDeadline(time.Now().Add(cw.timeout))
	switch {
	case err == nil:
		s.metrics.done(e.Name, "ok", elapsed)
		s.log.Info("export", attrs...)
		return
	case errors.Is(cause, errShutdown):
		s.metrics.done(e.Name, "shutdown", elapsed)
		s.log.Warn("export cut: the service is shutting down (shutdown_timeout)", attrs...)
	case errors.Is(cw.err, os.ErrDeadlineExceeded):
		// Before the context check: a failed write cancels the request's
		// context too.
		s.metrics.done(e.Name, "stalled", elapsed)
		s.log.Warn("export abandoned: the client took no bytes within write_timeout", append(attrs, "write_timeout", time.Duration(s.cfg.WriteTimeout))...)
	case errors.Is(cause, errNothingMade):
		s.metrics.done(e.Name, "stalled", elapsed)
		s.log.Warn("export abandoned: its query produced nothing within write_timeout", append(attrs, "write_timeout", time.Duration(s.cfg.WriteTimeout))...)
		if !cw.committed() {
			jsonError(w, http.StatusGatewayTimeout, "the export produced nothing within the service's write_timeout")
			return
		}
	case r.Context().Err() != nil:
		s.metrics.done(e.Name, "cancelled", elapsed)
		s.log.Info("export cancelled by the client", attrs...)
	case cw.err != nil:
		s.metrics.done(e.Name, "cancelled", elapsed)
		s.log.Info("export ended: the client connection failed", append(attrs, "err", cw.err)...)
	case !cw.committed():
		// Nothing sent yet: a proper error response is still possible.
		s.metrics.done(e.Name, "error", elapsed)
		w.Header().Del("Content-Disposition")
		w.Header().Del("X-Accel-Buffering")
		s.internalError(w, "the export failed", err, attrs...)
		return
	default:
		s.metrics.done(e.Name, "error", elapsed)
		s.log.Error("export failed", append(attrs, "err", s.redact(err))...)
	}
	if !cw.committed() && r.Context().Err() == nil && s.shutdown.Err() == nil {
		jsonError(w, http.StatusInternalServerError, "the export ended early")
		return
	}
	// Part of a workbook may be out: end the connection without the final
	// chunk, so that the client sees a failed transfer.
	panic(http.ErrAbortHandler)
}

// downloadOptions trade a single download's speed and size for the
// service's memory and CPU: many downloads run at once, so each deflates
// on one worker, at the fastest level (half the encoder state of the
// default, and the CPU goes further), in small chunks with a small shared
// strings budget.
func (s *Server) downloadOptions(e *Export) xlsx.Options {
	opts := xlsx.Options{
		Properties:          xlsx.Properties{Title: e.Title},
		Compression:         xlsx.CompressionFastest,
		Workers:             1,
		ChunkSize:           64 << 10,
		SharedStringsBudget: 128 << 10,
	}
	if e.password != "" {
		opts.Password, opts.SheetBufferSize, opts.TempDir = e.password, 1<<20, s.cfg.TempDir
		if opts.TempDir == "" {
			opts.TempDir = os.TempDir()
		}
	}
	return opts
}

// writeXLSX writes an export's workbook into out: its sheets, or its
// template filled with them.
// With prov, a last sheet says where the rows came from.
func (s *Server) writeXLSX(ctx context.Context, e *Export, vals map[string]any, prov *sqlsheet.Provenance, out io.Writer) (sqlsheet.Stats, error) {
	if e.Template != "" {
		return s.fillTemplate(ctx, e, vals, out)
	}
	xw, err := xlsx.NewWriter(out, s.downloadOptions(e))
	if err != nil {
		return sqlsheet.Stats{}, err
	}
	// On every way out but success: nothing more is written, and what
	// the writer holds (an encrypted package in temp_dir) is removed.
	defer xw.Abort()
	// A job's clients see its rows as they go (nothing else for a download).
	progress := func(rows int64) { jobs.ReportRows(ctx, rows) }
	st, err := s.run(ctx, e, e.Sheets, vals, sqlsheet.Workbook(xw), sqlsheet.Options{Progress: progress})
	if err == nil && prov != nil {
		// The queries as configured, their :parameters named: what a
		// reader can follow.
		queries := make([]sqlsheet.Query, len(e.Sheets))
		for i, sh := range e.Sheets {
			queries[i] = sqlsheet.Query{SQL: sh.SQL, Sheet: sh.Name}
		}
		prov.At = time.Now()
		err = sqlsheet.WriteProvenance(xw, *prov, queries, st)
	}
	if err == nil {
		err = xw.Close()
	}
	return st, err
}

// provenance is the export's provenance for the parameters as given
// (secret ones redacted) and who asked.
func (e *Export) provenance(given map[string]string, subject, email string) *sqlsheet.Provenance {
	p := &sqlsheet.Provenance{Export: e.Name, Caller: subject, Database: sqlsheet.RedactURL(e.Database)}
	if email != "" && email != subject {
		p.Caller += " <" + email + ">"
	}
	for _, par := range e.Params {
		v, ok := given[par.Name]
		switch {
		case par.From != "":
			v, ok = "(from the caller's "+par.From+")", true
		case !ok && par.Default != "":
			v, ok = par.Default+" (the default)", true
		}
		if !ok {
			continue
		}
		if par.Secret {
			v = "[redacted]"
		}
		p.Params = append(p.Params, [2]string{par.Name, v})
	}
	return p
}
