// Package server is sheetstream's export service: named, parameterized
// queries from a configuration file, streamed to many clients at once as
// XLSX downloads, with JSON previews, Prometheus metrics and a small web
// page to browse them.
//
// Each download writes the workbook straight into the HTTP response while
// the query runs: no temporary file, and memory per download bounded by
// the writer's chunks in flight. At most Config.MaxConcurrent exports run
// at once; the rest wait up to Config.QueueTimeout, then get 429 with
// Retry-After. A client that goes away cancels its query. A query that
// fails after the response began is aborted at the transport level (the
// chunked body never ends properly), so no client can take a cut-off file
// for a complete one.
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
	"strconv"
	"strings"
	"time"

	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

//go:embed web
var webFS embed.FS

// Server serves the exports of a Config. Create it with New.
type Server struct {
	cfg     *Config
	dbs     map[string]*sql.DB // by URL
	exports map[string]*Export
	slots   chan struct{}
	metrics *metrics
	log     *slog.Logger
	mux     *http.ServeMux
}

// New opens the configured databases (read-only where the database allows
// it) and builds the handler.
func New(cfg *Config, log *slog.Logger) (*Server, error) {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{cfg: cfg, dbs: map[string]*sql.DB{}, exports: map[string]*Export{},
		slots: make(chan struct{}, cfg.MaxConcurrent), metrics: newMetrics(), log: log}
	for _, e := range cfg.Exports {
		if s.dbs[e.Database] == nil {
			db, err := sqlsheet.OpenReadOnly(e.Database)
			if err != nil {
				s.Close()
				return nil, fmt.Errorf("export %q: %w", e.Name, err)
			}
			s.dbs[e.Database] = db
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
	for _, db := range s.dbs {
		errs = append(errs, db.Close())
	}
	return errors.Join(errs...)
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
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

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	for url, db := range s.dbs {
		if err := db.PingContext(ctx); err != nil {
			s.log.Error("health check", "database", redact(url), "err", err)
			jsonError(w, http.StatusServiceUnavailable, "a database does not answer")
			return
		}
	}
	w.Header().Set("Content-Type", "text/plain")
	io.WriteString(w, "ok\n")
}

// redact hides a URL's password in logs.
func redact(u string) string {
	if at := strings.LastIndexByte(u, '@'); at > 0 {
		if colon := strings.Index(u, "://"); colon >= 0 {
			return u[:colon+3] + "…@" + u[at+1:]
		}
	}
	return u
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"exports": s.cfg.Exports})
}

// acquire waits for a free export slot up to the queue timeout.
func (s *Server) acquire(ctx context.Context) bool {
	select {
	case s.slots <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(time.Duration(s.cfg.QueueTimeout))
	defer t.Stop()
	s.metrics.queued.Add(1)
	defer s.metrics.queued.Add(-1)
	select {
	case s.slots <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

func (s *Server) release() { <-s.slots }

func (s *Server) busy(w http.ResponseWriter) {
	s.metrics.rejected.Add(1)
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(time.Duration(s.cfg.QueueTimeout).Seconds()))))
	jsonError(w, http.StatusTooManyRequests, "too many exports are running; try again shortly")
}

// lookup finds the export and reads its parameters, answering 404 or 400
// itself.
func (s *Server) lookup(w http.ResponseWriter, r *http.Request, name string, reserved ...string) (*Export, map[string]any, bool) {
	e := s.exports[name]
	if e == nil {
		jsonError(w, http.StatusNotFound, fmt.Sprintf("no export named %q", name))
		return nil, nil, false
	}
	vals, err := e.values(r.URL.Query(), reserved...)
	if err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return nil, nil, false
	}
	return e, vals, true
}

// run exports e into w: in a read-only transaction with a statement
// timeout on PostgreSQL and MySQL; on SQLite through read-only
// connections (sqlsheet's own, or query_only ones from the pool).
func (s *Server) run(ctx context.Context, e *Export, vals map[string]any, w *xlsx.Writer, opts sqlsheet.Options) (sqlsheet.Stats, error) {
	db := s.dbs[e.Database]
	kind := sqlsheet.Kind(db)
	queries := make([]sqlsheet.Query, len(e.Sheets))
	for i, sh := range e.Sheets {
		sqlText, args := sh.query.render(kind == "postgres", vals)
		if kind == "sqlite" {
			for j, a := range args {
				if t, ok := a.(time.Time); ok {
					// SQLite keeps dates as ISO text.
					args[j] = strings.TrimSuffix(t.Format("2006-01-02 15:04:05"), " 00:00:00")
				}
			}
		}
		queries[i] = sqlsheet.Query{SQL: sqlText, Args: args, Sheet: sh.Name}
	}
	opts.ReadOnly, opts.StatementTimeout = true, time.Duration(s.cfg.StatementTimeout)
	return sqlsheet.Export(ctx, db, w, queries, opts)
}

// countingWriter counts the bytes that reached the client.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func (s *Server) download(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutSuffix(r.PathValue("file"), ".xlsx")
	if !ok {
		jsonError(w, http.StatusNotFound, "downloads are /exports/NAME.xlsx")
		return
	}
	e, vals, ok := s.lookup(w, r, name)
	if !ok {
		return
	}
	if !s.acquire(r.Context()) {
		s.busy(w)
		return
	}
	defer s.release()
	start := time.Now()
	s.metrics.inFlight.Add(1)
	defer s.metrics.inFlight.Add(-1)

	h := w.Header()
	h.Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.xlsx"`, e.Name))
	h.Set("Cache-Control", "no-store")
	cw := &countingWriter{w: w}
	var st sqlsheet.Stats
	xw, err := xlsx.NewWriter(cw, downloadOptions(e))
	if err == nil {
		st, err = s.run(r.Context(), e, vals, xw, sqlsheet.Options{})
		s.metrics.rows(e.Name, st.Rows)
		if err == nil {
			err = xw.Close()
		}
	}
	s.metrics.bytes(e.Name, cw.n)
	elapsed := time.Since(start)
	switch {
	case err == nil:
		s.metrics.done(e.Name, "ok", elapsed)
		s.log.Info("export", "name", e.Name, "rows", st.Rows, "bytes", cw.n, "duration", elapsed)
	case r.Context().Err() != nil:
		s.metrics.done(e.Name, "cancelled", elapsed)
		s.log.Info("export cancelled by the client", "name", e.Name, "rows", st.Rows, "bytes", cw.n)
	default:
		s.metrics.done(e.Name, "error", elapsed)
		s.log.Error("export failed", "name", e.Name, "rows", st.Rows, "bytes", cw.n, "err", err)
		if cw.n == 0 {
			// Nothing sent yet: a proper error response is still possible.
			h.Del("Content-Disposition")
			jsonError(w, http.StatusInternalServerError, "the export failed: "+err.Error())
			return
		}
		// Part of a workbook is out: end the connection without the
		// final chunk, so the client sees a failed transfer.
		panic(http.ErrAbortHandler)
	}
}

// downloadOptions trade a single download's speed and size for the
// service's memory and CPU: many downloads run at once, so each deflates
// on one worker, at the fastest level (half the encoder state of the
// default, and the CPU goes further), in small chunks with a small shared
// strings budget.
func downloadOptions(e *Export) xlsx.Options {
	return xlsx.Options{
		Properties:          xlsx.Properties{Title: e.Title},
		Compression:         xlsx.CompressionFastest,
		Workers:             1,
		ChunkSize:           64 << 10,
		SharedStringsBudget: 128 << 10,
	}
}

// preview answers the first rows of the first sheet as JSON, typed as the
// download types them: they go through the same writer and are read back.
func (s *Server) preview(w http.ResponseWriter, r *http.Request) {
	e, vals, ok := s.lookup(w, r, r.PathValue("name"), "limit")
	if !ok {
		return
	}
	limit := 50
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > s.cfg.PreviewLimit {
			jsonError(w, http.StatusBadRequest, fmt.Sprintf("parameter \"limit\": want 1 to %d", s.cfg.PreviewLimit))
			return
		}
		limit = n
	}
	if !s.acquire(r.Context()) {
		s.busy(w)
		return
	}
	defer s.release()
	first := *e
	first.Sheets = e.Sheets[:1]
	var buf bytes.Buffer
	xw, _ := xlsx.NewWriter(&buf, xlsx.Options{})
	_, err := s.run(r.Context(), &first, vals, xw, sqlsheet.Options{MaxRows: int64(limit), SampleRows: -1})
	if err == nil {
		err = xw.Close()
	}
	if err != nil {
		s.log.Error("preview failed", "name", e.Name, "err", err)
		jsonError(w, http.StatusInternalServerError, "the preview failed: "+err.Error())
		return
	}
	out, err := previewJSON(r.Context(), buf.Bytes())
	if err != nil {
		jsonError(w, http.StatusInternalServerError, err.Error())
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
