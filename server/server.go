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
// Requests are checked before any query runs: a request with a body is
// refused unread (400, the connection closed), a cross-site one too
// (403), the query string is read strictly (a malformed, repeated or
// unknown parameter, or a value its type or a cell cannot take, is a 400
// naming it), the Host header (a name that is not an IP address,
// localhost, the listen host or one of Config.AllowedHosts gets 421,
// which stops DNS rebinding), and the bearer token when one is set. At
// most Config.MaxConnectionsHTTP connections are open (LimitListener).
// Queries only read: SQLite ones on a restricted connection of their own
// (sqlsheet.Options.ReadOnly), checked when the service starts. Clients
// see errors as a generic message with an id; the log has the full error
// under the same id.
//
// The service keeps no state between requests: run as many instances as
// needed behind any load balancer, with /healthz for health checks and
// /metrics for Prometheus.
package server

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/netutil"

	"github.com/sheetstream/sheetstream/auth"
	"github.com/sheetstream/sheetstream/jobs"
	"github.com/sheetstream/sheetstream/storage"

	"github.com/sheetstream/sheetstream/sqlsheet"
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
	token   []byte // the bearer token, if one is configured

	// shutdown is cancelled when the service cuts the downloads still
	// running at shutdown (CutDownloads); cut says it was.
	shutdown context.Context
	cut      context.CancelFunc

	jobs     *jobs.Queue     // background exports, if configured
	store    storage.Storage // where their files go
	authn    *auth.Authenticator
	auditLog *auditFile // audit_log, if configured
	limits   limiters
	// unauthSampler bounds the audit records of unauthenticated requests.
	unauthSampler sampler
	// jobSlots caps the export slots jobs take, so that downloads always
	// find one (job_slots).
	jobSlots chan struct{}
	// submitting serializes the count and insert of one identity's jobs
	// (max_jobs_per_identity).
	submitting keyedMutex
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
	if len(cfg.Schedules) > 0 && cfg.Jobs == "" {
		return nil, errors.New("config: schedules need a queue and a storage (jobs and storage)")
	}
	slots := min(cfg.MaxConcurrent, max(1, cfg.MemoryBudgetMiB<<20/DownloadMemory))
	s := &Server{cfg: cfg, dbs: map[string]*database{}, exports: map[string]*Export{},
		slots: make(chan struct{}, slots), metrics: newMetrics(), log: log, hosts: allowedHosts(cfg),
		token: []byte(cfg.Token)}
	jobSlots := cfg.JobSlots
	if jobSlots <= 0 {
		jobSlots = max(1, slots-1)
	}
	s.jobSlots = make(chan struct{}, min(jobSlots, slots))
	s.shutdown, s.cut = context.WithCancel(context.Background())
	authn, err := auth.New(cfg.Auth, cfg.Token)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	s.authn = authn
	for _, w := range authn.Warnings {
		log.Warn(w)
	}
	if cfg.Auth.OIDC != nil {
		s.metrics.keyFetches = authn.KeyFetches
	}
	if cfg.AuditLog != "" {
		if s.auditLog, err = openAudit(cfg.AuditLog); err != nil {
			return nil, err
		}
	}
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
		// SQL a SQLite export's restricted read-only connection will not
		// prepare is refused now, not at its first download.
		for _, sh := range e.Sheets {
			sqlText, _ := sh.query.render(false, nil)
			if err := sqlsheet.CheckReadOnly(s.dbs[e.Database].db, sqlText); err != nil {
				s.Close()
				return nil, fmt.Errorf("export %q, sheet %q: %w", e.Name, sh.Name, sqlsheet.RedactError(err, e.Database))
			}
		}
		s.exports[e.Name] = e
	}
	if cfg.Jobs != "" {
		if err := s.openJobs(context.Background()); err != nil {
			s.Close()
			return nil, sqlsheet.RedactError(err, cfg.Jobs)
		}
		// Logouts go on a list in the queue's database, which every
		// instance on the queue reads.
		s.authn.SetRevocations(s.jobs)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /metrics", s.auth(s.adminOnly(s.metrics.serve)))
	mux.HandleFunc("GET /api/exports", s.auth(s.list))
	mux.HandleFunc("GET /api/exports/{name}/preview", s.auth(s.preview))
	mux.HandleFunc("GET /exports/{file}", s.auth(s.download))
	mux.HandleFunc("POST /api/exports/{name}/jobs", s.withJobs(s.submitJob))
	mux.HandleFunc("GET /api/jobs", s.withJobs(s.listJobs))
	mux.HandleFunc("GET /api/jobs/{id}", s.withJobs(s.getJob))
	mux.HandleFunc("DELETE /api/jobs/{id}", s.withJobs(s.cancelJob))
	mux.HandleFunc("GET /api/jobs/{id}/file", s.fileOrLink)
	mux.HandleFunc("GET /api/schedules", s.withJobs(s.adminOnly(s.listSchedules)))
	mux.HandleFunc("GET /api/session", s.auth(s.session))
	mux.HandleFunc("GET /auth/login", s.authn.Login)
	mux.HandleFunc("GET /auth/callback", s.loginCallback)
	mux.HandleFunc("POST /auth/logout", s.auth(s.logout))
	web, _ := fs.Sub(webFS, "web")
	files := http.FileServerFS(web)
	mux.Handle("GET /", files)
	mux.HandleFunc("GET /{$}", s.page(files))
	s.mux = mux
	return s, nil
}

// CutDownloads ends the downloads still running, for a shutdown that
// cannot wait for them any longer: their transfers are aborted (a client
// never takes a cut file for a complete one) and counted with status
// "shutdown". Call it before closing the http.Server.
func (s *Server) CutDownloads() { s.cut() }

// LimitListener caps the connections the service holds open at
// Config.MaxConnectionsHTTP: more wait in the kernel's accept queue until
// one closes. The timeouts of HTTPServer bound how long any connection is
// held without sending a request.
func (s *Server) LimitListener(ln net.Listener) net.Listener {
	return netutil.LimitListener(ln, s.cfg.MaxConnectionsHTTP)
}

// Close stops the job workers (a running job is cancelled, and retried
// later by another worker) and closes the databases.
func (s *Server) Close() error {
	var errs []error
	if s.jobs != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		errs = append(errs, s.jobs.Close(ctx))
		cancel()
	}
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
		ConnState:         s.metrics.connState,
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
	if r.ContentLength != 0 {
		// A body, announced (Content-Length) or chunked: no route takes
		// one. It is refused unread, and the connection closed: net/http
		// would otherwise read up to 256 KiB of it before answering, and
		// a client that announces a body it never sends would hold the
		// request, and an export slot, for as long as it liked.
		h.Set("Connection", "close")
		s.metrics.refused("body")
		jsonError(w, http.StatusBadRequest, "requests to this service carry no body")
		// net/http still reads some of the body after the handler, to
		// reuse the connection; a deadline in the past ends that at once.
		http.NewResponseController(w).SetReadDeadline(time.Now())
		return
	}
	if r.URL.Path != "/" && !isStatic(r.URL.Path) && !loginStep(r) && crossSite(r) {
		// A page of another site cannot read what it starts here, but it
		// would spend an export slot and the database's time.
		s.metrics.refused("cross-site")
		s.log.Warn("request refused: cross-site", "origin", r.Header.Get("Origin"), "sec_fetch_site", r.Header.Get("Sec-Fetch-Site"), "remote", r.RemoteAddr, "path", r.URL.Path)
		jsonError(w, http.StatusForbidden, "cross-site requests are refused; open the service's own page, or follow a link to it")
		return
	}
	rc := http.NewResponseController(w)
	// A request without a body is read in full once its headers are:
	// the read deadline has done its work, and left in place it would
	// cancel a download that outlasts it.
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Now().Add(time.Duration(s.cfg.WriteTimeout)))
	s.mux.ServeHTTP(w, r)
}

// auth establishes who is asking and hands the request on with the
// identity in its context, or answers 401. Without a token and without
// auth: (a loopback service), everyone has every right.
func (s *Server) auth(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id, err := s.identify(r)
		s.metrics.authTime.observe(time.Since(start))
		if errors.Is(err, auth.ErrCSRF) {
			s.metrics.refused("csrf")
			s.log.Warn("request refused: no CSRF token", "path", r.URL.Path, "remote", r.RemoteAddr)
			s.audit(w, r, auditRecord{Event: "refused", Subject: "-", Outcome: "403 csrf " + r.Method + " " + r.URL.Path})
			jsonError(w, http.StatusForbidden, "this request changes something and lacks the page's CSRF token (X-CSRF-Token); reload the page")
			return
		}
		if errors.Is(err, auth.ErrAmbiguous) {
			s.metrics.refused("ambiguous")
			s.log.Warn("request refused: an identity header given twice", "path", r.URL.Path, "remote", r.RemoteAddr, "err", err)
			s.auditSampled(w, r, auditRecord{Event: "refused", Subject: "-", Outcome: "400 " + err.Error()})
			jsonError(w, http.StatusBadRequest, err.Error()+": send it once")
			return
		}
		if err != nil {
			s.metrics.refused("token")
			s.log.Warn("request refused: no valid credentials", "path", r.URL.Path, "remote", r.RemoteAddr, "err", err)
			s.auditSampled(w, r, auditRecord{Event: "refused", Subject: "-", Outcome: "401 " + r.Method + " " + r.URL.Path})
			w.Header().Set("WWW-Authenticate", `Bearer realm="sheetstream"`)
			if s.authn.LoginEnabled() {
				// The page's session ended (or never was): it logs in
				// again where this says.
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusUnauthorized)
				json.NewEncoder(w).Encode(map[string]string{"error": "valid credentials are required (a bearer token, or the page's login)", "login": "/auth/login"})
				return
			}
			jsonError(w, http.StatusUnauthorized, "valid credentials are required (a bearer token)")
			return
		}
		h(w, r.WithContext(context.WithValue(r.Context(), identityKey{}, id)))
	}
}

// identityKey keys the request's identity in its context.
type identityKey struct{}

// identity is the identity auth established for r.
func identity(r *http.Request) *auth.Identity {
	id, _ := r.Context().Value(identityKey{}).(*auth.Identity)
	if id == nil {
		return &auth.Identity{Attributes: auth.Attributes{Subject: "anonymous"}, Method: "none"}
	}
	return id
}

// identify establishes r's identity: with neither a token nor auth:
// configured, an anonymous one with every right.
func (s *Server) identify(r *http.Request) (*auth.Identity, error) {
	if len(s.token) == 0 && !s.cfg.Auth.Enabled() {
		return &auth.Identity{Attributes: auth.Attributes{Subject: "anonymous"}, Method: "none", All: true}, nil
	}
	return s.authn.Authenticate(r)
}

// admin says whether r's identity may see every job and the service's
// details: the shared token, an admin group, or an open service.
func (s *Server) admin(r *http.Request) bool {
	id := identity(r)
	return id.All || s.cfg.Auth.IsAdmin(id)
}

// allowed says whether the identity may use export e: everyone may
// without auth:, else those its allow list names. user:NAME matches the
// identity's subject, its key (oidc:ISSUER|SUB, proxy:USER, token:NAME),
// or its email, which an OIDC identity has only when the issuer verified
// it (a proxy's email header and a token's configured email are trusted
// as they are).
func (s *Server) allowed(id *auth.Identity, e *Export) bool {
	if id.All || !s.cfg.Auth.Enabled() {
		return true
	}
	for _, a := range e.Allow {
		kind, name, _ := strings.Cut(a, ":")
		switch {
		case a == "any":
			return true
		case kind == "user" && (name == id.Subject || name == id.Key() || id.Email != "" && name == id.Email):
			return true
		case kind == "group" && id.InGroup(name):
			return true
		}
	}
	return false
}

// adminOnly answers 404 to identities that are not admins.
func (s *Server) adminOnly(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.admin(r) {
			jsonError(w, http.StatusNotFound, "not found")
			return
		}
		h(w, r)
	}
}

// crossSite says whether a request comes from a page of another site: a
// browser says so in Sec-Fetch-Site, or sends an Origin other than this
// service's. A link a person followed from another site (a top-level
// navigation they started) is not refused: it is how exports are shared.
func crossSite(r *http.Request) bool {
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" &&
		!(r.Header.Get("Sec-Fetch-Mode") == "navigate" && r.Header.Get("Sec-Fetch-User") == "?1" && r.Method == http.MethodGet) {
		return true
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return false
	}
	u, err := url.Parse(origin)
	return err != nil || u.Host == "" || !strings.EqualFold(u.Host, r.Host)
}

// loginStep says whether r is a step of the page's login that another
// site (the issuer) sends the browser to: a GET, which changes nothing
// but the login's own cookies, and whose callback is bound to the
// browser that started it by its state cookie and PKCE.
func loginStep(r *http.Request) bool {
	return r.Method == http.MethodGet && (r.URL.Path == "/auth/login" || r.URL.Path == "/auth/callback")
}

// isStatic says whether path is one of the page's own files, which any
// site may load (the page cannot be framed: X-Frame-Options).
func isStatic(path string) bool {
	_, err := fs.Stat(webFS, "web"+path)
	return err == nil && !strings.HasSuffix(path, "/")
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

// healthz answers liveness to anyone; to an admin (the shared token, an
// admin group, or anyone when no credentials are configured) it also
// checks that every database, the queue and the storage answer.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	if id, err := s.identify(r); err != nil || !id.All && !s.cfg.Auth.IsAdmin(id) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "ok\n")
		return
	}
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
		if s.jobs != nil && !s.health.failed {
			// The queue answers, and the storage takes and gives back a file.
			if _, err := s.jobs.Counts(ctx); err != nil {
				s.log.Error("health check", "queue", sqlsheet.RedactURL(s.cfg.Jobs), "err", err)
				s.health.failed = true
			} else if err := checkStorage(ctx, s.store); err != nil {
				s.log.Error("health check", "storage", s.store.String(), "err", err)
				s.health.failed = true
			}
		}
		cancel()
		s.health.checked = time.Now()
	}
	failed := s.health.failed
	s.health.mu.Unlock()
	if failed {
		jsonError(w, http.StatusServiceUnavailable, "a database, the job queue or the storage does not answer")
		return
	}
	w.Header().Set("Content-Type", "text/plain")
	io.WriteString(w, "ok\n")
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	id := identity(r)
	visible := []*Export{}
	for _, e := range s.cfg.Exports {
		if s.allowed(id, e) {
			visible = append(visible, e)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"exports": visible, "jobs": s.jobs != nil})
}

// wait takes a token from a semaphore (a send on sem) before the
// deadline, counting the wait as queued.
func (s *Server) wait(ctx context.Context, sem chan struct{}, deadline time.Time) bool {
	select {
	case sem <- struct{}{}:
		return true
	default:
	}
	var timeout <-chan time.Time
	if deadline.IsZero() {
		// A job: it waits as long as its context lasts, and counts in
		// the queue's depth, not the downloads'.
	} else {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timeout = t.C
		s.metrics.queued.Add(1)
		defer s.metrics.queued.Add(-1)
	}
	select {
	case sem <- struct{}{}:
		return true
	case <-timeout:
	case <-ctx.Done():
	}
	return false
}

// acquire is the one admission of downloads and jobs: an export slot
// (a job takes one of job_slots first, so that jobs never hold every
// export slot and downloads always find one), then a connection to e's
// database, each waited for until deadline (zero: as long as ctx lasts).
// On success the caller calls release; otherwise busy says what was full
// ("" when ctx ended first).
func (s *Server) acquire(ctx context.Context, e *Export, forJob bool, deadline time.Time) (release func(), busy string) {
	sems := []chan struct{}{s.slots, s.dbs[e.Database].conns}
	full := []string{"too many exports are running; try again shortly", "every connection to the export's database is busy; try again shortly"}
	if forJob {
		sems = append([]chan struct{}{s.jobSlots}, sems...)
		full = append([]string{"every job slot is busy"}, full...)
	}
	var held []chan struct{}
	release = func() {
		for i := len(held) - 1; i >= 0; i-- {
			<-held[i]
		}
	}
	for i, sem := range sems {
		if !s.wait(ctx, sem, deadline) {
			release()
			if ctx.Err() != nil {
				return nil, ""
			}
			return nil, full[i]
		}
		held = append(held, sem)
	}
	return release, ""
}

// admit is acquire for a request, waiting up to the queue timeout in
// all; when it fails it has answered 429 (or the client went away).
func (s *Server) admit(w http.ResponseWriter, r *http.Request, e *Export) (release func(), ok bool) {
	release, busy := s.acquire(r.Context(), e, false, time.Now().Add(time.Duration(s.cfg.QueueTimeout)))
	if release == nil {
		if busy != "" {
			s.busy(w, busy)
		}
		return nil, false
	}
	return release, true
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
	if e == nil || !s.allowed(identity(r), e) {
		// An export the caller may not use is answered as one that does
		// not exist, with the same headers, body and work (an audit
		// record of both): neither its name nor its existence shows.
		s.audit(w, r, auditRecord{Event: "refused", Export: name, Outcome: "404 no such export or not allowed"})
		jsonError(w, http.StatusNotFound, fmt.Sprintf("no export named %q", name))
		return nil, nil, nil, false
	}
	query, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return nil, nil, nil, false
	}
	vals, err := e.valuesFor(query, &identity(r).Attributes, reserved...)
	if errors.Is(err, ErrIdentityLacks) {
		s.audit(w, r, auditRecord{Event: "refused", Export: e.Name, Outcome: "403 " + err.Error()})
		jsonError(w, http.StatusForbidden, err.Error())
		return nil, nil, nil, false
	}
	if err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return nil, nil, nil, false
	}
	return e, vals, query, true
}

// run exports sheets of e (all of them, or one) into dst: in a
// read-only transaction with a statement timeout on PostgreSQL and MySQL;
// on SQLite through read-only connections (sqlsheet's own, or query_only
// ones from the pool).
func (s *Server) run(ctx context.Context, e *Export, sheets []*Sheet, vals map[string]any, dst sqlsheet.Destination, opts sqlsheet.Options) (sqlsheet.Stats, error) {
	db := s.dbs[e.Database].db
	engine := sqlsheet.EngineOf(db)
	queries := make([]sqlsheet.Query, len(sheets))
	for i, sh := range sheets {
		sqlText, args := sh.query.render(engine == sqlsheet.EnginePostgres, vals)
		for j, a := range args {
			switch v := a.(type) {
			case time.Time:
				if engine == sqlsheet.EngineSQLite {
					// SQLite keeps dates as ISO text.
					args[j] = strings.TrimSuffix(v.Format("2006-01-02 15:04:05"), " 00:00:00")
				}
			case []string:
				// Groups: an array on PostgreSQL, JSON text elsewhere.
				if engine != sqlsheet.EnginePostgres {
					b, _ := json.Marshal(v)
					args[j] = string(b)
				}
			}
		}
		queries[i] = sqlsheet.Query{SQL: sqlText, Args: args, Sheet: sh.Name, ExcelTable: e.Table || sh.Table}
		for _, c := range sh.Charts {
			queries[i].Charts = append(queries[i].Charts, c.Chart)
		}
		for _, p := range sh.Pivots {
			queries[i].Pivots = append(queries[i].Pivots, p.PivotTable)
		}
	}
	opts.ReadOnly, opts.StatementTimeout = true, time.Duration(s.cfg.StatementTimeout)
	return sqlsheet.ExportTo(ctx, db, dst, queries, opts)
}

// sheetIndex is the 0-based index of the sheet the parameter sheet
// names, by 1-based number or by name; a ParamError if none.
func (e *Export) sheetIndex(v string) (int, error) {
	if n, err := strconv.Atoi(v); err == nil && n >= 1 && n <= len(e.Sheets) {
		return n - 1, nil
	}
	for i, sh := range e.Sheets {
		if sh.Name == v {
			return i, nil
		}
	}
	return 0, &ParamError{Name: "sheet", Msg: fmt.Sprintf("want 1 to %d or a sheet's name", len(e.Sheets))}
}
