// Package server is sheetstream's export service: named, parameterized
// queries from a configuration file, streamed to many clients at once as
// XLSX downloads, with JSON previews, Prometheus metrics and a small web
// page to browse them.
//
// Each download writes the workbook straight into the HTTP response while
// the query runs: no temporary file, and memory per download bounded by
// the writer's chunks in flight and the rows between the database and the
// writer (in count and in bytes). At most Config.MaxConcurrent exports run
// at once, fewer if Config.MemoryBudgetMiB says so, each holding one of
// Config.MaxConnections connections to its database; the rest wait up to
// Config.QueueTimeout, then get 429 with Retry-After. A client that goes
// away, or takes no bytes for Config.WriteTimeout, loses its download: its
// query is cancelled and its slot freed. A query that fails after the
// response began is aborted at the transport level (the chunked body
// never ends properly), so no client can take a cut-off file for a
// complete one.
//
// Requests are checked before any query runs: the query string strictly
// (a malformed, repeated or unknown parameter is a 400 naming it), the
// Host header (a name that is not an IP address, localhost, the listen
// host or one of Config.AllowedHosts gets 421, which stops DNS rebinding),
// and the bearer token when one is set. Clients see errors as a generic
// message with an id; the log has the full error under the same id.
//
// The service keeps no state between requests: run as many instances as
// needed behind any load balancer, with /healthz for health checks and
// /metrics for Prometheus.
package server

import (
	"bytes"
	"context"
	"crypto/subtle"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

//go:embed web
var webFS embed.FS

// DownloadMemory is what one running export is counted to use against
// Config.MemoryBudgetMiB: the deflate state and chunks of its writer
// (downloadOptions), the batches of rows between its scanner and its
// writer (bounded in bytes by sqlsheet), its sampled rows, its database
// connection's buffers and its share of the HTTP buffers and of the
// runtime. Measured: 64 downloads of 100,000 rows x 10 columns running
// at once from SQLite peaked at 200 MiB of server RSS (bench/serve.sh
// with max_connections raised to 65).
const DownloadMemory = 3 << 20

// Server serves the exports of a Config. Create it with New.
type Server struct {
	cfg     *Config
	dbs     map[string]*database // by URL
	exports map[string]*Export
	slots   chan struct{}
	metrics *metrics
	log     *slog.Logger
	mux     *http.ServeMux
	hosts   map[string]bool // allowed Host names besides IPs and localhost, lower case
	health  health
}

// database is a configured database and the connections exports may
// hold: one each, MaxConnections-1 in all, so that the health check
// always finds one.
type database struct {
	db    *sql.DB
	url   string // redacted, for logs
	conns chan struct{}
}

// New opens the configured databases (read-only where the database allows
// it; a SQLite file must exist) and builds the handler.
func New(cfg *Config, log *slog.Logger) (*Server, error) {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	slots := min(cfg.MaxConcurrent, max(1, cfg.MemoryBudgetMiB<<20/DownloadMemory))
	s := &Server{cfg: cfg, dbs: map[string]*database{}, exports: map[string]*Export{},
		slots: make(chan struct{}, slots), metrics: newMetrics(), log: log, hosts: allowedHosts(cfg)}
	for _, e := range cfg.Exports {
		if s.dbs[e.Database] == nil {
			db, err := sqlsheet.OpenReadOnly(e.Database)
			if err != nil {
				s.Close()
				return nil, fmt.Errorf("export %q: %w", e.Name, sqlsheet.RedactError(err, e.Database))
			}
			db.SetMaxOpenConns(cfg.MaxConnections)
			db.SetMaxIdleConns(min(cfg.MaxConnections, 4))
			db.SetConnMaxIdleTime(time.Minute)
			s.dbs[e.Database] = &database{db: db, url: sqlsheet.RedactURL(e.Database),
				conns: make(chan struct{}, max(1, cfg.MaxConnections-1))}
		}
		s.exports[e.Name] = e
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /metrics", s.metrics.serve)
	mux.HandleFunc("GET /api/exports", s.auth(s.list))
	mux.HandleFunc("GET /api/exports/{name}/preview", s.auth(s.preview))
	mux.HandleFunc("GET /exports/{file}", s.auth(s.download))
	web, _ := fs.Sub(webFS, "web")
	mux.Handle("GET /", http.FileServerFS(web))
	s.mux = mux
	return s, nil
}

// Close closes the databases.
func (s *Server) Close() error {
	var errs []error
	for _, d := range s.dbs {
		errs = append(errs, d.db.Close())
	}
	return errors.Join(errs...)
}

// HTTPServer is an http.Server for s with the service's timeouts: the
// request line and headers must arrive within 10 seconds, an idle
// keep-alive connection is closed after a minute, and responses have a
// write deadline of Config.WriteTimeout, which downloads renew for every
// chunk the client takes (no overall write timeout, which would cut long
// downloads).
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}

// securityHeaders keep the page and the API from being framed, sniffed
// or leaking their URLs (which carry export parameters) to other sites.
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
	"X-Content-Type-Options":  "nosniff",
	"X-Frame-Options":         "DENY",
	"Referrer-Policy":         "no-referrer",
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	for k, v := range securityHeaders {
		h.Set(k, v)
	}
	if !s.hostAllowed(r.Host) {
		s.log.Warn("request refused: Host not allowed", "host", r.Host, "remote", r.RemoteAddr, "path", r.URL.Path)
		jsonError(w, http.StatusMisdirectedRequest, "this server does not answer to that host name (allowed_hosts in its configuration)")
		return
	}
	rc := http.NewResponseController(w)
	// Every request is a GET without a body, read in full by now: the
	// read deadline has done its work, and left in place it would cancel
	// a download that outlasts it.
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Now().Add(time.Duration(s.cfg.WriteTimeout)))
	s.mux.ServeHTTP(w, r)
}

// auth checks the bearer token, when one is configured, in constant time.
func (s *Server) auth(h http.HandlerFunc) http.HandlerFunc {
	if s.cfg.Token == "" {
		return h
	}
	want := []byte("Bearer " + s.cfg.Token)
	return func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="sheetstream"`)
			jsonError(w, http.StatusUnauthorized, "a valid bearer token is required")
			return
		}
		h(w, r)
	}
}

func jsonError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// internalError answers 500 with an id the log has the error under: the
// error itself (a table name, a database's user and host) is not for
// clients.
func (s *Server) internalError(w http.ResponseWriter, msg string, err error, attrs ...any) {
	id := errorID()
	s.log.Error(msg, append(attrs, "error_id", id, "err", s.redact(err))...)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusInternalServerError)
	json.NewEncoder(w).Encode(map[string]string{"error": msg + "; the server log has the details", "error_id": id})
}

// redact takes the configured databases' passwords out of an error.
func (s *Server) redact(err error) error {
	for url := range s.dbs {
		err = sqlsheet.RedactError(err, url)
	}
	return err
}

// health is the last database check, shared by the health checks of the
// next two seconds, so that a flood of them costs the databases nothing.
type health struct {
	mu      sync.Mutex
	checked time.Time
	failed  bool
}

const healthTTL = 2 * time.Second

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	s.health.mu.Lock()
	if time.Since(s.health.checked) > healthTTL {
		s.health.failed = false
		ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 2*time.Second)
		for _, d := range s.dbs {
			if err := d.db.PingContext(ctx); err != nil {
				s.log.Error("health check", "database", d.url, "err", s.redact(err))
				s.health.failed = true
				break
			}
		}
		cancel()
		s.health.checked = time.Now()
	}
	failed := s.health.failed
	s.health.mu.Unlock()
	if failed {
		jsonError(w, http.StatusServiceUnavailable, "a database does not answer")
		return
	}
	w.Header().Set("Content-Type", "text/plain")
	io.WriteString(w, "ok\n")
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"exports": s.cfg.Exports})
}

// wait takes a token from a semaphore (a send on sem) before the
// deadline, counting the wait as queued.
func (s *Server) wait(ctx context.Context, sem chan struct{}, deadline time.Time) bool {
	select {
	case sem <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	s.metrics.queued.Add(1)
	defer s.metrics.queued.Add(-1)
	select {
	case sem <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

// admit waits, up to the queue timeout in all, for an export slot and
// then for a connection to the export's database. On success the caller
// calls the returned release; otherwise admit has answered 429 (or the
// client went away).
func (s *Server) admit(w http.ResponseWriter, r *http.Request, e *Export) (release func(), ok bool) {
	deadline := time.Now().Add(time.Duration(s.cfg.QueueTimeout))
	if !s.wait(r.Context(), s.slots, deadline) {
		s.busy(w, "too many exports are running; try again shortly")
		return nil, false
	}
	d := s.dbs[e.Database]
	if !s.wait(r.Context(), d.conns, deadline) {
		<-s.slots
		s.busy(w, "every connection to the export's database is busy; try again shortly")
		return nil, false
	}
	return func() { <-d.conns; <-s.slots }, true
}

func (s *Server) busy(w http.ResponseWriter, msg string) {
	s.metrics.rejected.Add(1)
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(time.Duration(s.cfg.QueueTimeout).Seconds()))))
	jsonError(w, http.StatusTooManyRequests, msg)
}

// lookup finds the export and reads its parameters from the query
// string, strictly, answering 404 or 400 itself.
func (s *Server) lookup(w http.ResponseWriter, r *http.Request, name string, reserved ...string) (*Export, map[string]any, map[string]string, bool) {
	e := s.exports[name]
	if e == nil {
		jsonError(w, http.StatusNotFound, fmt.Sprintf("no export named %q", name))
		return nil, nil, nil, false
	}
	query, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return nil, nil, nil, false
	}
	vals, err := e.values(query, reserved...)
	if err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return nil, nil, nil, false
	}
	return e, vals, query, true
}

// run exports e into w: in a read-only transaction with a statement
// timeout on PostgreSQL and MySQL; on SQLite through read-only
// connections (sqlsheet's own, or query_only ones from the pool).
func (s *Server) run(ctx context.Context, e *Export, vals map[string]any, w *xlsx.Writer, opts sqlsheet.Options) (sqlsheet.Stats, error) {
	db := s.dbs[e.Database].db
	engine := sqlsheet.EngineOf(db)
	queries := make([]sqlsheet.Query, len(e.Sheets))
	for i, sh := range e.Sheets {
		sqlText, args := sh.query.render(engine == sqlsheet.EnginePostgres, vals)
		if engine == sqlsheet.EngineSQLite {
			for j, a := range args {
				if t, ok := a.(time.Time); ok {
					// SQLite keeps dates as ISO text.
					args[j] = strings.TrimSuffix(t.Format("2006-01-02 15:04:05"), " 00:00:00")
				}
			}
		}
		queries[i] = sqlsheet.Query{SQL: sqlText, Args: args, Sheet: sh.Name, ExcelTable: e.Table || sh.Table}
	}
	opts.ReadOnly, opts.StatementTimeout = true, time.Duration(s.cfg.StatementTimeout)
	return sqlsheet.Export(ctx, db, w, queries, opts)
}

// clientWriter writes a download to the client, renewing the write
// deadline for every chunk, and counts the bytes that reached it. The
// first failed write (the client gone, or taking no bytes within the
// timeout) cancels the export, so that its query stops at once.
type clientWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	cancel  context.CancelFunc
	n       int64
	err     error
}

func (c *clientWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	c.rc.SetWriteDeadline(time.Now().Add(c.timeout))
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, c.check(err)
}

// flush sends what the response writer still buffers.
func (c *clientWriter) flush() error {
	if c.err != nil {
		return c.err
	}
	c.rc.SetWriteDeadline(time.Now().Add(c.timeout))
	return c.check(c.rc.Flush())
}

// check keeps the first failure and cancels the export on it.
func (c *clientWriter) check(err error) error {
	if err != nil {
		c.err = err
		c.cancel()
	}
	return err
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
	name, ok := strings.CutSuffix(r.PathValue("file"), ".xlsx")
	if !ok {
		jsonError(w, http.StatusNotFound, "downloads are /exports/NAME.xlsx")
		return
	}
	e, vals, _, ok := s.lookup(w, r, name)
	if !ok {
		return
	}
	if r.Method == http.MethodHead {
		// The headers a GET would send; the query runs only for a GET.
		downloadHeaders(w.Header(), e)
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

	downloadHeaders(w.Header(), e)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	cw := &clientWriter{w: w, rc: http.NewResponseController(w), timeout: time.Duration(s.cfg.WriteTimeout), cancel: cancel}
	var st sqlsheet.Stats
	xw, err := xlsx.NewWriter(cw, s.downloadOptions(e))
	if err == nil {
		st, err = s.run(ctx, e, vals, xw, sqlsheet.Options{})
		s.metrics.rows(e.Name, st.Rows)
		if err == nil {
			err = xw.Close()
		}
		if err == nil {
			// What the response writer still buffers, so that "ok" means
			// every byte went out (a stalled client fails here).
			err = cw.flush()
		}
	}
	s.metrics.bytes(e.Name, cw.n)
	elapsed := time.Since(start)
	attrs := []any{"name", e.Name, "rows", st.Rows, "bytes", cw.n, "duration", elapsed}
	switch {
	case err == nil:
		s.metrics.done(e.Name, "ok", elapsed)
		s.log.Info("export", attrs...)
		return
	case errors.Is(cw.err, os.ErrDeadlineExceeded):
		// Before the context check: a failed write cancels the request's
		// context too.
		s.metrics.done(e.Name, "stalled", elapsed)
		s.log.Warn("export abandoned: the client took no bytes within write_timeout", append(attrs, "write_timeout", time.Duration(s.cfg.WriteTimeout))...)
	case r.Context().Err() != nil:
		s.metrics.done(e.Name, "cancelled", elapsed)
		s.log.Info("export cancelled by the client", attrs...)
	case cw.err != nil:
		s.metrics.done(e.Name, "cancelled", elapsed)
		s.log.Info("export ended: the client connection failed", append(attrs, "err", cw.err)...)
	case cw.n == 0:
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

// preview answers the first rows of the first sheet as JSON, typed as the
// download types them: they go through the same writer and are read back.
func (s *Server) preview(w http.ResponseWriter, r *http.Request) {
	e, vals, query, ok := s.lookup(w, r, r.PathValue("name"), "limit")
	if !ok {
		return
	}
	limit := 50
	if v, given := query["limit"]; given {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > s.cfg.PreviewLimit {
			jsonError(w, http.StatusBadRequest, fmt.Sprintf("parameter \"limit\": want 1 to %d", s.cfg.PreviewLimit))
			return
		}
		limit = n
	}
	if r.Method == http.MethodHead {
		w.Header().Set("Content-Type", "application/json")
		return
	}
	release, ok := s.admit(w, r, e)
	if !ok {
		return
	}
	defer release()
	first := *e
	first.Sheets = e.Sheets[:1]
	var buf bytes.Buffer
	xw, _ := xlsx.NewWriter(&buf, xlsx.Options{Workers: 1})
	// MaxRows stops the query itself after limit rows.
	_, err := s.run(r.Context(), &first, vals, xw, sqlsheet.Options{MaxRows: int64(limit), SampleRows: -1})
	if err == nil {
		err = xw.Close()
	}
	if err != nil {
		s.internalError(w, "the preview failed", err, "name", e.Name)
		return
	}
	out, err := previewJSON(r.Context(), buf.Bytes())
	if err != nil {
		s.internalError(w, "the preview failed", err, "name", e.Name)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

type previewCell struct {
	Type  string `json:"type"`
	Value any    `json:"value"`
}

// previewJSON reads the workbook back: {"sheet", "columns", "rows"}, each
// cell {"type", "value"} with type as sheetstream cat names it.
func previewJSON(ctx context.Context, book []byte) ([]byte, error) {
	wb, err := xlsx.NewReader(bytes.NewReader(book), int64(len(book)), xlsx.ReadOptions{Workers: 1})
	if err != nil {
		return nil, err
	}
	rows, err := wb.Rows(ctx, 0)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var columns []string
	data := [][]*previewCell{}
	for rows.Next() {
		row := rows.Row()
		if row.Num == 1 {
			for _, c := range row.Cells {
				for len(columns) < c.Col()-1 {
					columns = append(columns, "")
				}
				columns = append(columns, c.String())
			}
			continue
		}
		cells := make([]*previewCell, len(columns))
		for i := range row.Cells {
			c := &row.Cells[i]
			if c.Col() > len(cells) {
				continue
			}
			pc := &previewCell{Type: c.Type().String()}
			switch c.Type() {
			case xlsx.TypeNumber:
				pc.Value = c.Float()
			case xlsx.TypeBool:
				pc.Value = c.Bool()
			default:
				pc.Value = c.String()
			}
			cells[c.Col()-1] = pc
		}
		data = append(data, cells)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{"sheet": rows.Sheet().Name, "columns": columns, "rows": data})
}
