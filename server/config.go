package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/sheetstream/sheetstream/auth"
	"github.com/sheetstream/sheetstream/jobs"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// Config is the service's configuration file: where to listen, the
// databases, limits, and the named exports — the only queries the service
// ever runs.
//
//	listen: 127.0.0.1:8080
//	database: sqlite:shop.db          # the default for every export
//	token_env: SHEETSTREAM_TOKEN      # bearer token (or token: ...)
//	public: false                     # true: allow a non-loopback listen without a token
//	allowed_hosts: [sheets.example.com] # Host names besides IPs and localhost
//	max_concurrent: 8                 # exports running at once
//	memory_budget_mib: 128            # what running exports may use together (3 MiB each)
//	max_connections: 10               # per database
//	queue_timeout: 10s                # waiting for a slot or connection, then 429
//	statement_timeout: 5m             # PostgreSQL and MySQL
//	write_timeout: 30s                # a client that takes no bytes that long loses its download
//	shutdown_timeout: 30s
//	memory_limit_mib: 192             # soft limit for the Go heap
//	exports:
//	  - name: orders
//	    title: Orders
//	    description: Orders since a date.
//	    params:
//	      - {name: since, type: date, default: "2025-01-01"}
//	      - {name: city, type: text, required: false}
//	    sheets:
//	      - name: Orders
//	        sql: SELECT * FROM orders WHERE ordered_at >= :since AND (:city = '' OR city = :city)
type Config struct {
	Listen string `yaml:"listen"`
	// Database is the default database URL of every export. ${VAR} in it
	// is replaced by the environment variable VAR (a password, say), and
	// DatabaseEnv names a variable holding the whole URL instead.
	Database    string `yaml:"database"`
	DatabaseEnv string `yaml:"database_env"`
	Token       string `yaml:"token"`
	TokenEnv    string `yaml:"token_env"`
	// Public allows listening on an address other hosts reach without a
	// token: anyone who can connect can then read every export.
	Public bool `yaml:"public"`
	// AllowedHosts are the names clients may use in the Host header,
	// besides IP addresses, localhost and the listen address's host;
	// "*" allows any. Without this check a web page could read the
	// exports through DNS rebinding.
	AllowedHosts  []string `yaml:"allowed_hosts"`
	MaxConcurrent int      `yaml:"max_concurrent"`
	// MemoryBudgetMiB is the memory running exports may use together
	// (default 128): each takes DownloadMemory of it, so at most
	// MemoryBudgetMiB / DownloadMemory run at once, whatever
	// max_concurrent says; the rest wait in the queue.
	MemoryBudgetMiB int `yaml:"memory_budget_mib"`
	// MaxConnections caps the open connections to each database (default
	// 10); exports wait for one, up to queue_timeout.
	MaxConnections   int      `yaml:"max_connections"`
	QueueTimeout     Duration `yaml:"queue_timeout"`
	StatementTimeout Duration `yaml:"statement_timeout"`
	// WriteTimeout is how long a download may wait for the client to take
	// its next chunk (default 30s); then the download is abandoned, its
	// query cancelled and its slot freed.
	WriteTimeout    Duration `yaml:"write_timeout"`
	ShutdownTimeout Duration `yaml:"shutdown_timeout"`
	// PreviewLimit caps ?limit= of previews (default 1000).
	PreviewLimit int    `yaml:"preview_limit"`
	rawDatabase  string // as the file has it, for the permission warning

	// MemoryLimitMiB is the Go runtime's soft memory limit for serve
	// (default 192; the GOMEMLIMIT environment variable wins): the garbage
	// collector works harder near it instead of letting the heap double.
	MemoryLimitMiB int       `yaml:"memory_limit_mib"`
	Exports        []*Export `yaml:"exports"`
	// TempDir holds encrypted downloads until they are complete (default:
	// the system's temporary directory).
	TempDir string `yaml:"temp_dir"`
	// MaxConnectionsHTTP caps the HTTP connections open at once (default
	// 512); more wait to be accepted until one closes.
	MaxConnectionsHTTP int `yaml:"max_connections_http"`

	// Jobs is the queue background exports run on: sqlite:PATH for one
	// host, postgres://... for a fleet of workers ("": no jobs; serve
	// --demo gives one beside its database). Storage is where their files
	// go: file:///folder or s3://BUCKET/PREFIX?endpoint=...&region=...
	Jobs    string `yaml:"jobs"`
	Storage string `yaml:"storage"`
	// JobWorkers is how many jobs this process runs at once (default:
	// JobSlots; 0 with the key given: none, an API-only service). Each
	// running job takes a job slot and an export slot.
	JobWorkers *int `yaml:"job_workers"`
	// JobTimeout bounds one attempt of a job (default statement_timeout
	// plus 5 minutes); a job whose worker vanished is retried a minute
	// after it.
	JobTimeout Duration `yaml:"job_timeout"`
	// MaxAttempts is how often a failing job is tried (default 3).
	MaxAttempts int `yaml:"max_attempts"`
	// MaxJobsPerIdentity caps the jobs one identity may have queued or
	// running at once (default 10); past it a submission is answered 429
	// with Retry-After. The shared token is not capped.
	MaxJobsPerIdentity int `yaml:"max_jobs_per_identity"`
	// JobSlots caps the export slots jobs may hold at once (default: one
	// less than the slots, at least 1), so that downloads and previews
	// always find one.
	JobSlots int `yaml:"job_slots"`
	// LinkTTL is how long a finished job's download link works (default
	// 15m), where the storage makes links (S3).
	LinkTTL Duration `yaml:"link_ttl"`
	// PublicURL is the address users reach the service at
	// (https://reports.example.com; default: the listen address's), which
	// begins the links mails carry and webhooks' download.
	PublicURL string `yaml:"public_url"`
	// SMTP is the mail server schedules' deliver.email sends through;
	// without it, MailDir is a folder the mails are written to as .eml
	// files (serve --demo's).
	SMTP    *SMTPConfig `yaml:"smtp"`
	MailDir string      `yaml:"mail_dir"`
	// Schedules run exports as jobs at their slots (needs jobs:).
	Schedules []*ScheduleConfig `yaml:"schedules"`
	// Auth establishes identities (static tokens, a trusted proxy's
	// headers); with it, each export answers only those its allow list
	// names.
	Auth auth.Config `yaml:"auth"`
	// AuditLog, when set, is a file the audit trail is appended to, one
	// JSON line per download, preview, job and refused request, each
	// synced to disk (the log has every record too).
	AuditLog string `yaml:"audit_log"`
	// RateLimit bounds what one identity may start (0: no bound; the
	// shared token and an open service are not bounded).
	RateLimit RateLimit `yaml:"rate_limit"`

	// Warnings are what LoadConfig found unsafe but not wrong, such as a
	// token in a file other users may read; serve logs them.
	Warnings []string `yaml:"-"`
}

// Export is one named export.
type Export struct {
	Name        string   `yaml:"name" json:"name"`
	Title       string   `yaml:"title" json:"title"`
	Description string   `yaml:"description" json:"description"`
	Database    string   `yaml:"database" json:"-"`
	DatabaseEnv string   `yaml:"database_env" json:"-"`
	Params      []*Param `yaml:"params" json:"params"`
	Sheets      []*Sheet `yaml:"sheets" json:"sheets"`
	// PasswordEnv names an environment variable holding a password: the
	// export's files are then encrypted with it (never from the URL).
	// An encrypted file is complete only at its end, so its download
	// starts when the export ends; until then it is held in memory (1
	// MiB) and then in a temporary file in temp_dir.
	PasswordEnv string `yaml:"password_env" json:"-"`
	// Keep is how long this export's background jobs and their files are
	// kept once finished (default 7d).
	Keep Duration `yaml:"keep" json:"-"`
	// Preview says whether /api/exports/NAME/preview shows the export's
	// rows (default true, but false for an encrypted export: a preview is
	// plain JSON, and an encrypted export's rows leave only encrypted).
	Preview *bool `yaml:"preview" json:"preview"`
	// Allow names who may use the export when auth: is configured:
	// "group:NAME", "user:SUBJECT-OR-EMAIL", "any" (any identity). Nobody
	// when empty; the shared token may use every export.
	Allow       []string `yaml:"allow" json:"-"`
	rawDatabase string   // as the file has it, for the permission warning
	Encrypted   bool     `yaml:"-" json:"encrypted,omitempty"`
	// Table makes every sheet of the export an Excel table (banded rows,
	// filter buttons, structured references) instead of a header row
	// with an autofilter; a sheet's own table: true does it for that
	// sheet.
	Table bool `yaml:"table" json:"-"`
	// Template is a workbook (.xlsx, .xlsm, .xltx, .xltm) the export's
	// rows fill, each sheet's query the template sheet its name names
	// (its table's body, or below its last row), every other part kept;
	// {{param}} in its text takes the request's parameters, {{rows}} and
	// {{now}}. Not with charts. A relative path is a file of the
	// configuration file's folder.
	Template string `yaml:"template" json:"-"`
	// TemplateName is the template's file name, which /api/exports and
	// the page show (never the server's path to it).
	TemplateName string `yaml:"-" json:"template,omitempty"`
	// TemplatePasswordEnv names an environment variable holding the
	// password of an encrypted template.
	TemplatePasswordEnv string `yaml:"template_password_env" json:"-"`
	// Notify: the JSON of each of the export's finished jobs, however
	// started (the API, the page, the command line), is POSTed to
	// webhook, signed as a schedule's are (a schedule's own notify wins
	// for its jobs); its download is an absolute URL under public_url.
	Notify *NotifyConfig `yaml:"notify" json:"-"`
	// Provenance adds a last sheet to each workbook (downloads, jobs):
	// the export, its parameters (secret ones redacted), who asked,
	// when, the rows of each sheet and the queries' text.
	Provenance bool `yaml:"provenance" json:"provenance,omitempty"`

	password         string
	templatePassword string
	notify           *jobs.Notify
}

// Sheet is one query of an export and the sheet its rows go to.
type Sheet struct {
	Name  string `yaml:"name" json:"name"`
	SQL   string `yaml:"sql" json:"-"`
	Table bool   `yaml:"table" json:"-"` // an Excel table: see Export.Table
	// Charts are drawn beside the sheet's rows from its columns, each
	// "TYPE:CATEGORIES:VALUES[,VALUES...]" ("column:month:revenue,cost")
	// or a mapping {type, categories, values, title}; .xlsx downloads
	// only (a CSV has no charts).
	Charts []ChartConfig `yaml:"charts" json:"charts,omitempty"`
	// Pivots are pivot tables computed over the sheet's rows, each on a
	// sheet of its own after it: "ROWS:COLUMNS:FUNC(COL)[,...]" or a
	// mapping {rows, columns, filters, values: ["sum(amount)"], name,
	// layout: compact|outline|tabular};
	// .xlsx downloads and jobs only.
	Pivots []PivotConfig `yaml:"pivots" json:"pivots,omitempty"`

	query *boundQuery
}

// PivotConfig is one pivot table of a sheet, as the configuration gives
// it.
type PivotConfig struct {
	xlsx.PivotTable
}

// UnmarshalYAML reads "ROWS:COLUMNS:FUNC(COL),..." or {rows, columns,
// filters, values, name}.
func (c *PivotConfig) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		p, err := xlsx.ParsePivot(n.Value)
		if err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		c.PivotTable = p
		return nil
	}
	var m struct {
		Rows    []string `yaml:"rows"`
		Columns []string `yaml:"columns"`
		Filters []string `yaml:"filters"`
		Values  []string `yaml:"values"`
		Name    string   `yaml:"name"`
		Layout  string   `yaml:"layout"`
	}
	if err := n.Decode(&m); err != nil {
		return err
	}
	p, err := xlsx.ParsePivot(strings.Join(m.Rows, "+") + ":" + strings.Join(m.Columns, "+") + ":" + strings.Join(m.Values, ","))
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	p.Filters = m.Filters
	switch m.Layout {
	case "", "compact":
	case "outline":
		p.Layout = xlsx.PivotOutline
	case "tabular":
		p.Layout = xlsx.PivotTabular
	default:
		return fmt.Errorf("line %d: pivot layout %q: want compact, outline or tabular", n.Line, m.Layout)
	}
	if m.Name != "" {
		if err := xlsx.CheckSheetName(m.Name); err != nil {
			return fmt.Errorf("line %d: pivot name %q: %w", n.Line, m.Name, err)
		}
		p.Name, p.Sheet = m.Name, m.Name
	}
	c.PivotTable = p
	return nil
}

// MarshalJSON says the pivot as its short form (and its name), for the
// page and /api/exports.
func (c PivotConfig) MarshalJSON() ([]byte, error) {
	s := c.PivotTable.String()
	if c.Sheet != "" {
		s = c.Sheet + ": " + s
	}
	return json.Marshal(s)
}

// ChartConfig is one chart of a sheet, as the configuration gives it.
type ChartConfig struct {
	sqlsheet.Chart
}

// UnmarshalYAML reads "TYPE:CATEGORIES:VALUES" or {type, categories,
// values, title}.
func (c *ChartConfig) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		chart, err := sqlsheet.ParseChart(n.Value)
		if err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		c.Chart = chart
		return nil
	}
	var m struct {
		Type       string   `yaml:"type"`
		Categories string   `yaml:"categories"`
		Values     []string `yaml:"values"`
		Title      string   `yaml:"title"`
	}
	if err := n.Decode(&m); err != nil {
		return err
	}
	chart, err := sqlsheet.ParseChart(m.Type + ":" + m.Categories + ":" + strings.Join(m.Values, ","))
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	chart.Title = m.Title
	c.Chart = chart
	return nil
}

// MarshalJSON says the chart as the short form, for the page.
func (c ChartConfig) MarshalJSON() ([]byte, error) { return json.Marshal(c.Chart.String()) }

// ScheduleConfig is one entry of schedules: an export run as a job at
// every slot of a cron expression (cron, read in timezone, or with a
// CRON_TZ= prefix) or an interval (every).
//
//	schedules:
//	  - name: weekday-orders
//	    export: orders
//	    params: {city: Oslo}
//	    cron: "30 6 * * 1-5"
//	    timezone: Europe/Oslo
//	    key: 'orders/{{.Time.Format "2006-01-02"}}.xlsx'
type ScheduleConfig struct {
	Name     string            `yaml:"name"`
	Export   string            `yaml:"export"`
	Params   map[string]string `yaml:"params"`
	Cron     string            `yaml:"cron"`
	Every    Duration          `yaml:"every"`
	Timezone string            `yaml:"timezone"`
	// Key is a Go template of the file's storage key, relative to the
	// storage's prefix, over .Time (the slot, in timezone), .Name, .Export
	// and .Params (default: a folder of the job's own).
	Key string `yaml:"key"`
	// RunAs is the identity the schedule's jobs belong to (default
	// "schedule:NAME").
	RunAs string `yaml:"run_as"`
	// Keep is how long its jobs and files are kept (default: the
	// export's keep, else 7d).
	Keep Duration `yaml:"keep"`
	// Notify: each finished job's JSON is POSTed to webhook (redirects
	// are not followed), signed as Standard Webhooks says under the
	// secret in the environment variable secret_env (webhook-id,
	// webhook-timestamp, webhook-signature; see jobs.Notify).
	Notify *NotifyConfig `yaml:"notify"`
	// Deliver mails each slot's file (deliver.email: see EmailConfig).
	Deliver *DeliverConfig `yaml:"deliver"`

	schedule *jobs.Schedule
}

// NotifyConfig is where a schedule's or an export's finished jobs are
// told.
type NotifyConfig struct {
	Webhook   string `yaml:"webhook"`
	SecretEnv string `yaml:"secret_env"`
}

// check reads the webhook's URL and secret, naming where it is (nil for
// no notify).
func (n *NotifyConfig) check(where string) (*jobs.Notify, error) {
	if n == nil {
		return nil, nil
	}
	u, err := url.Parse(n.Webhook)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("config: %s: notify.webhook %q is not an http(s) URL", where, jobs.RedactURL(n.Webhook))
	}
	if n.SecretEnv != "" && os.Getenv(n.SecretEnv) == "" {
		return nil, fmt.Errorf("config: %s: notify.secret_env names %s, which is not set", where, n.SecretEnv)
	}
	return &jobs.Notify{Webhook: n.Webhook, SecretEnv: n.SecretEnv}, nil
}

// checkSchedules reads the schedules: each names an export whose
// parameters it gives as a request would, and a cron expression or
// interval that parses.
func (cfg *Config) checkSchedules() error {
	for i, sc := range cfg.Schedules {
		if sc == nil || !exportName.MatchString(sc.Name) {
			return fmt.Errorf("config: schedule %d: name must be letters, digits, '.', '_' or '-'", i+1)
		}
		var e *Export
		for _, x := range cfg.Exports {
			if x.Name == sc.Export {
				e = x
			}
		}
		if e == nil {
			return fmt.Errorf("config: schedule %q: no export named %q", sc.Name, sc.Export)
		}
		if sc.Params == nil {
			sc.Params = map[string]string{}
		}
		owner := sc.RunAs
		if owner == "" {
			owner = "schedule:" + sc.Name
		}
		if _, err := e.valuesFor(sc.Params, &auth.Attributes{Subject: owner}); err != nil {
			// A parameter recipients_sql's rows give is checked with them,
			// at each slot.
			var pe *ParamError
			perRecipient := sc.Deliver != nil && sc.Deliver.Email != nil && sc.Deliver.Email.RecipientsSQL != ""
			if !perRecipient || !errors.As(err, &pe) || !pe.Missing {
				return fmt.Errorf("config: schedule %q: %w", sc.Name, err)
			}
		}
		var loc *time.Location
		if sc.Timezone != "" {
			var err error
			if loc, err = time.LoadLocation(sc.Timezone); err != nil {
				return fmt.Errorf("config: schedule %q: timezone: %w", sc.Name, err)
			}
		}
		keep := time.Duration(sc.Keep)
		if keep == 0 {
			keep = time.Duration(e.Keep)
		}
		notify, err := sc.Notify.check(fmt.Sprintf("schedule %q", sc.Name))
		if err != nil {
			return err
		}
		req := e.jobRequest(sc.Params, owner, &auth.Attributes{Subject: owner})
		req.Keep = keep
		if notify != nil {
			req.Notify = notify
		}
		if req.Deliver, err = cfg.delivery(sc, e, loc); err != nil {
			return err
		}
		js := &jobs.Schedule{Name: sc.Name, Cron: sc.Cron, Every: time.Duration(sc.Every), Location: loc, Key: sc.Key, Request: req}
		if req.Deliver != nil && sc.Deliver.Email.RecipientsSQL != "" {
			// The service asks the database at each slot (New sets it);
			// here, for Check to see a schedule with recipients.
			js.Recipients = func(context.Context, time.Time) ([]jobs.Recipient, error) {
				return nil, errors.New("recipients are read by the running service")
			}
		}
		if err := js.Check(); err != nil {
			return fmt.Errorf("config: %w", err)
		}
		sc.schedule = js
	}
	return nil
}

// DefaultJobsPerHour is the jobs one identity may start an hour when
// rate_limit.jobs_per_hour is not given (a negative value: no bound).
const DefaultJobsPerHour = 120

// Duration reads "30s", "5m" and the like.
type Duration time.Duration

func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := parseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %q is not a duration such as 30s, 5m or 7d", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

// parseDuration reads time.ParseDuration's forms and whole days, "30d".
func parseDuration(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 0 || n > 100000 {
			return 0, fmt.Errorf("%q is not a number of days", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	return time.ParseDuration(s)
}

var exportName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// LoadConfig reads and checks a configuration file. A file other users
// may read that holds a secret itself (token:, or a database URL with a
// password) loads with a warning in Config.Warnings.
func LoadConfig(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cfg, err := ParseConfig(b, ParseOptions{Dirs: []string{filepath.Dir(path)}})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o004 != 0 {
		if secret := cfg.secretInFile(); secret != "" {
			cfg.Warnings = append(cfg.Warnings, fmt.Sprintf("%s holds %s and other users may read it (mode %04o): chmod o-r it, or use token_env / database_env / ${VAR}",
				path, secret, fi.Mode().Perm()))
		}
	}
	return cfg, nil
}

// secretInFile names a secret the file itself holds, if any: the token,
// or a database URL's password (not one taken from the environment).
func (cfg *Config) secretInFile() string {
	if cfg.Token != "" && cfg.TokenEnv == "" {
		return "the token"
	}
	for _, raw := range append([]string{cfg.rawDatabase}, cfg.rawExportDatabases()...) {
		if raw != "" && !strings.Contains(raw, "${") && sqlsheet.RedactURL(raw) != raw {
			return "a database password"
		}
	}
	return ""
}

func (cfg *Config) rawExportDatabases() []string {
	var out []string
	for _, e := range cfg.Exports {
		out = append(out, e.rawDatabase)
	}
	return out
}

// reservedParams are query words the service reads itself: an export's
// parameter may not take their names.
var reservedParams = []string{"limit", "sheet"}

// databaseURL is a database setting as configured: the URL (with ${VAR}
// replaced by the environment's VAR), or the URL the variable env names.
func databaseURL(url, env, where string) (string, error) {
	if env != "" {
		if url != "" {
			return "", fmt.Errorf("%s: give database or database_env, not both", where)
		}
		url = os.Getenv(env)
		if url == "" {
			return "", fmt.Errorf("%s: database_env names %s, which is not set", where, env)
		}
		return url, nil
	}
	var missing []string
	url = os.Expand(url, func(name string) string {
		v, ok := os.LookupEnv(name)
		if !ok || v == "" {
			missing = append(missing, name)
		}
		return v
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("%s: database names ${%s}, which is not set", where, missing[0])
	}
	return url, nil
}

// ParseConfig reads a configuration, fills in defaults and checks it:
// unknown keys, duplicate names, sheet names, parameter types and
// defaults, and that every :name in the SQL is a declared parameter.
//
// A ParseOptions, if given, says where the file comes from.
func ParseConfig(b []byte, from ...ParseOptions) (*Config, error) {
	var o ParseOptions
	if len(from) > 0 {
		o = from[0]
	}
	return parseConfig(b, o.Dirs, o.Database)
}

// ParseOptions say where a configuration comes from.
type ParseOptions struct {
	// Database is the database of a file that names none (sheetstream
	// serve --demo gives its demo database).
	Database string
	// Dirs are where relative template: paths are found (the first that
	// has the file; LoadConfig gives the configuration file's folder),
	// instead of the working directory.
	Dirs []string
}

// setDefaults fills in what the file leaves out (the configuration
// reference's defaults).
func (cfg *Config) setDefaults() {
	if cfg.MaxConnectionsHTTP <= 0 {
		cfg.MaxConnectionsHTTP = 512
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = 3
	}
	if cfg.MaxJobsPerIdentity <= 0 {
		cfg.MaxJobsPerIdentity = 10
	}
	if cfg.RateLimit.JobsPerHour == 0 {
		cfg.RateLimit.JobsPerHour = DefaultJobsPerHour
	}
	if cfg.LinkTTL <= 0 {
		cfg.LinkTTL = Duration(15 * time.Minute)
	}
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:8080"
	}
	if cfg.MaxConcurrent <= 0 {
		cfg.MaxConcurrent = 8
	}
	if cfg.MemoryBudgetMiB <= 0 {
		cfg.MemoryBudgetMiB = 128
	}
	if cfg.MaxConnections <= 0 {
		cfg.MaxConnections = 10
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = Duration(30 * time.Second)
	}
	if cfg.QueueTimeout <= 0 {
		cfg.QueueTimeout = Duration(10 * time.Second)
	}
	if cfg.StatementTimeout <= 0 {
		cfg.StatementTimeout = Duration(5 * time.Minute)
	}
	if cfg.JobTimeout <= 0 {
		cfg.JobTimeout = cfg.StatementTimeout + Duration(5*time.Minute)
	}
	if cfg.ShutdownTimeout <= 0 {
		cfg.ShutdownTimeout = Duration(30 * time.Second)
	}
	if cfg.PreviewLimit <= 0 {
		cfg.PreviewLimit = 1000
	}
	if cfg.MemoryLimitMiB <= 0 {
		cfg.MemoryLimitMiB = 192
	}
}

// parseConfig is ParseConfig.
func parseConfig(b []byte, dirs []string, database string) (*Config, error) {
	var cfg Config
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	cfg.rawDatabase = cfg.Database
	var err error
	if cfg.Database, err = databaseURL(cfg.Database, cfg.DatabaseEnv, "config"); err != nil {
		return nil, err
	}
	if cfg.Database == "" {
		cfg.Database = database
	}
	cfg.setDefaults()
	if cfg.Jobs != "" && cfg.Storage == "" {
		return nil, errors.New("config: jobs needs storage: (file:///folder or s3://bucket/prefix) for the files")
	}
	if cfg.TokenEnv != "" {
		if cfg.Token != "" {
			return nil, errors.New("config: give token or token_env, not both")
		}
		cfg.Token = os.Getenv(cfg.TokenEnv)
		if cfg.Token == "" {
			return nil, fmt.Errorf("config: token_env names %s, which is not set", cfg.TokenEnv)
		}
	}
	if len(cfg.Exports) == 0 {
		return nil, errors.New("config: no exports")
	}
	seen := map[string]bool{}
	for i, e := range cfg.Exports {
		if e == nil || !exportName.MatchString(e.Name) {
			return nil, fmt.Errorf("config: export %d: name must be letters, digits, '.', '_' or '-'", i+1)
		}
		if seen[e.Name] {
			return nil, fmt.Errorf("config: export %q is defined twice", e.Name)
		}
		seen[e.Name] = true
		e.rawDatabase = e.Database
		if e.Database, err = databaseURL(e.Database, e.DatabaseEnv, fmt.Sprintf("config: export %q", e.Name)); err != nil {
			return nil, err
		}
		if e.Database == "" {
			e.Database = cfg.Database
		}
		if e.Database == "" {
			return nil, fmt.Errorf("config: export %q: no database (set database: at the top or in the export)", e.Name)
		}
		if e.Title == "" {
			e.Title = e.Name
		}
		if e.TemplatePasswordEnv != "" {
			if e.templatePassword = os.Getenv(e.TemplatePasswordEnv); e.templatePassword == "" {
				return nil, fmt.Errorf("config: export %q: template_password_env names %s, which is not set", e.Name, e.TemplatePasswordEnv)
			}
		}
		if e.PasswordEnv != "" {
			e.password = os.Getenv(e.PasswordEnv)
			if e.password == "" {
				return nil, fmt.Errorf("config: export %q: password_env names %s, which is not set", e.Name, e.PasswordEnv)
			}
			e.Encrypted = true
		}
		if e.Preview == nil {
			e.Preview = new(!e.Encrypted)
		}
		if e.Params == nil {
			e.Params = []*Param{} // [] in /api/exports, not null
		}
		if err := e.checkAdditions(); err != nil {
			return nil, err
		}
		if e.Template != "" {
			e.Template = resolvePath(e.Template, dirs)
			e.TemplateName = filepath.Base(e.Template)
			if err := e.checkTemplate(); err != nil {
				return nil, fmt.Errorf("config: export %q: template %s: %w", e.Name, e.Template, err)
			}
		}
		params := map[string]*Param{}
		for _, p := range e.Params {
			if err := p.check(); err != nil {
				return nil, fmt.Errorf("config: export %q: %w", e.Name, err)
			}
			if params[p.Name] != nil {
				return nil, fmt.Errorf("config: export %q: parameter %q is declared twice", e.Name, p.Name)
			}
			if slices.Contains(reservedParams, strings.ToLower(p.Name)) {
				return nil, fmt.Errorf("config: export %q: parameter %q is named like a query word the service reads itself (%s)", e.Name, p.Name, strings.Join(reservedParams, ", "))
			}
			params[p.Name] = p
		}
		if len(e.Sheets) == 0 {
			return nil, fmt.Errorf("config: export %q has no sheets", e.Name)
		}
		sheetNames := map[string]bool{}
		for j, s := range e.Sheets {
			if s == nil || s.SQL == "" {
				return nil, fmt.Errorf("config: export %q, sheet %d: no sql", e.Name, j+1)
			}
			if s.Name == "" {
				s.Name = fmt.Sprintf("Sheet%d", j+1)
			}
			// The rules the writer applies, checked now rather than at
			// every download.
			if err := xlsx.CheckSheetName(s.Name); err != nil {
				return nil, fmt.Errorf("config: export %q, sheet %d: %w", e.Name, j+1, err)
			}
			if key := strings.ToLower(s.Name); sheetNames[key] {
				return nil, fmt.Errorf("config: export %q: two sheets are named %q (Excel ignores case)", e.Name, s.Name)
			} else {
				sheetNames[key] = true
			}
			q, err := parseNamed(s.SQL)
			if err != nil {
				return nil, fmt.Errorf("config: export %q, sheet %q: %w", e.Name, s.Name, err)
			}
			for _, n := range q.names {
				if params[n] == nil {
					return nil, fmt.Errorf("config: export %q, sheet %q: the SQL uses :%s, which is not a declared parameter", e.Name, s.Name, n)
				}
			}
			s.query = q
		}
	}
	// Relative paths, as template: paths: beside the configuration file.
	if cfg.MailDir != "" {
		cfg.MailDir = resolvePath(cfg.MailDir, dirs)
	}
	if cfg.SMTP != nil && cfg.SMTP.CAFile != "" {
		cfg.SMTP.CAFile = resolvePath(cfg.SMTP.CAFile, dirs)
	}
	if err := cfg.checkMail(); err != nil {
		return nil, err
	}
	if err := cfg.checkSchedules(); err != nil {
		return nil, err
	}
	if err := cfg.checkAllow(); err != nil {
		return nil, err
	}
	return &cfg, nil
}

// checkAdditions reads what an export adds to its workbook and jobs: its
// webhook, and pivots and a provenance sheet, which a template's designed
// workbook does not take.
func (e *Export) checkAdditions() error {
	var err error
	if e.notify, err = e.Notify.check(fmt.Sprintf("export %q", e.Name)); err != nil {
		return err
	}
	if e.Template == "" {
		return nil
	}
	for _, sh := range e.Sheets {
		if sh != nil && len(sh.Pivots) > 0 {
			return fmt.Errorf("config: export %q, sheet %q: pivots: with template: (design the pivot in the template: it is refreshed when opened)", e.Name, sh.Name)
		}
	}
	if e.Provenance {
		return fmt.Errorf("config: export %q: provenance: true with template: (a designed workbook keeps its own sheets: name the provenance in it with placeholders)", e.Name)
	}
	return nil
}

// checkAllow reads the exports' allow lists: each entry group:, user: or
// any; with auth configured, some export must allow someone.
func (cfg *Config) checkAllow() error {
	allowed := false
	for _, e := range cfg.Exports {
		for _, a := range e.Allow {
			kind, name, _ := strings.Cut(a, ":")
			if !(a == "any" || (kind == "group" || kind == "user") && name != "") {
				return fmt.Errorf("config: export %q: allow %q is not group:NAME, user:NAME or any", e.Name, a)
			}
			allowed = true
		}
	}
	if cfg.Auth.Enabled() && !allowed {
		return errors.New("config: auth is configured and no export allows anyone (allow: [group:NAME, user:NAME, any])")
	}
	return nil
}

// resolvePath is a relative path as a file of the first of dirs that has
// it (of the first dir when none has), an absolute one as it is.
func resolvePath(p string, dirs []string) string {
	if p == "" || filepath.IsAbs(p) || len(dirs) == 0 {
		return p
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, p)); err == nil {
			return filepath.Join(d, p)
		}
	}
	return filepath.Join(dirs[0], p)
}
