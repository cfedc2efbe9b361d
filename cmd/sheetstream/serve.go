//go:build !lite

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/sheetstream/sheetstream/examples"
	"github.com/sheetstream/sheetstream/server"
	"github.com/sheetstream/sheetstream/sqlsheet"
)

func serveCmd() *cobra.Command {
	var config, listen string
	var demo bool
	jobWorkers := 0
	cmd := &cobra.Command{
		Use:   "serve --config FILE.yaml",
		Short: "Serve named exports over HTTP, with a web page to browse them",
		Long: `Serve the exports a YAML file defines (every key is in the configuration
reference: https://github.com/sheetstream/sheetstream/blob/main/docs/service.md#configuration-reference):

  GET /                                  a web page: exports, parameters, preview, download
  GET /api/exports                       the exports and their parameters, as JSON
  GET /exports/NAME.xlsx?param=...       the download, streamed while the query runs
  GET /exports/NAME.csv?sheet=N&...      one sheet as CSV (formulas escaped)
  GET /api/exports/NAME/preview?limit=50 the first rows, typed, as JSON
  GET /healthz, GET /metrics             health check and Prometheus metrics
  POST /api/exports/NAME/jobs?param=...  the export as a background job (with jobs: and storage:)
  GET /api/jobs, GET|DELETE /api/jobs/ID, GET /api/jobs/ID/file
  GET /api/session                       who the caller is (and the page's CSRF token)
  GET /auth/login, POST /auth/logout     the page's login through auth.oidc's issuer

With --demo it creates the demo shop's database (as "export --demo" does)
and serves the exports of examples/exports.yaml over it, or those of
--config, which may then name no database; background jobs then queue
in a SQLite file beside the demo database and their files go to a folder
there.

It listens on 127.0.0.1:8080 unless the file or --listen says otherwise. An
address other machines reach needs a token (token or token_env) or auth:
(an OpenID Connect issuer, API tokens or a trusted proxy), or public: true
in the file to serve without one on purpose.
SIGTERM or Ctrl-C lets running downloads finish, up to shutdown_timeout.`,
		Args: cobra.NoArgs,
		Example: `  sheetstream serve --demo
  sheetstream serve --config exports.yaml --listen 127.0.0.1:9000`,
		RunE: func(cmd *cobra.Command, args []string) error {
			var cfg *server.Config
			var err error
			demoDir := ""
			switch {
			case demo:
				cfg, demoDir, err = demoConfig(cmd.Context(), config)
			case config == "":
				return fmt.Errorf("serve needs --config FILE.yaml (or --demo)")
			default:
				cfg, err = server.LoadConfig(config)
			}
			if err != nil {
				return err
			}
			if demoDir != "" {
				defer os.RemoveAll(demoDir)
			}
			if listen != "" {
				cfg.Listen = listen
			}
			if cmd.Flags().Changed("job-workers") {
				cfg.JobWorkers = &jobWorkers
			}
			srv, log, err := newService(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			defer srv.Close()
			ln, err := net.Listen("tcp", cfg.Listen)
			if err != nil {
				return err
			}
			if err := cfg.CheckListener(ln.Addr()); err != nil {
				ln.Close()
				return err
			}
			if cfg.Token == "" && !cfg.Auth.Enabled() && !ln.Addr().(*net.TCPAddr).IP.IsLoopback() {
				log.Warn("serving without a token on purpose (public: true): anyone who reaches this address reads every export", "listen", ln.Addr().String())
			}
			hs := srv.HTTPServer()
			done := make(chan error, 1)
			go func() { done <- hs.Serve(srv.LimitListener(ln)) }()
			if demoDir != "" {
				fmt.Fprintf(os.Stderr, "sheetstream: the demo shop (500 customers, 50,000 orders) in %s\n", filepath.Join(demoDir, "demo.db"))
			}
			if cfg.SMTP == nil && cfg.MailDir != "" && cfg.Jobs != "" {
				fmt.Fprintf(os.Stderr, "sheetstream: mails go to %s as .eml files (no smtp: in the configuration)\n", cfg.MailDir)
			}
			fmt.Fprintf(os.Stderr, "sheetstream: serving %d export(s) on http://%s/\n", len(cfg.Exports), ln.Addr())
			select {
			case err := <-done:
				return err
			case <-cmd.Context().Done():
			}
			log.Info("shutting down: waiting for running downloads", "timeout", time.Duration(cfg.ShutdownTimeout))
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(cfg.ShutdownTimeout))
			defer cancel()
			if err := hs.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
				// Downloads still running are cut, each counted as such and
				// its transfer aborted, before the connections close.
				srv.CutDownloads()
				time.Sleep(100 * time.Millisecond)
				hs.Close()
				return fmt.Errorf("shutdown: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&config, "config", "", "configuration file (YAML)")
	cmd.Flags().StringVar(&listen, "listen", "", "address to listen on (overrides the file)")
	cmd.Flags().BoolVar(&demo, "demo", false, "serve the demo shop (examples/exports.yaml over an embedded SQLite database)")
	cmd.Flags().IntVar(&jobWorkers, "job-workers", 0, "background jobs this process runs at once (default: job_workers, else job_slots; 0: none)")
	return cmd
}

// newService sets the memory limit, logs the configuration's warnings,
// and starts the service and its job workers.
func newService(ctx context.Context, cfg *server.Config) (*server.Server, *slog.Logger, error) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(int64(cfg.MemoryLimitMiB) << 20)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	for _, warning := range cfg.Warnings {
		log.Warn(warning)
	}
	srv, err := server.New(cfg, log)
	if err != nil {
		return nil, nil, err
	}
	if err := srv.StartJobs(ctx); err != nil {
		srv.Close()
		return nil, nil, err
	}
	return srv, log, nil
}

// demoConfig creates the demo shop's database in a temporary folder and
// reads the configuration to serve over it: examples/exports.yaml, or
// the file given. The caller removes the folder.
func demoConfig(ctx context.Context, file string) (_ *server.Config, dir string, _ error) {
	raw, name := examples.Exports, "examples/exports.yaml"
	if file != "" {
		var err error
		if raw, err = os.ReadFile(file); err != nil {
			return nil, "", err
		}
		name = file
	}
	dir, err := os.MkdirTemp("", "sheetstream-demo-")
	if err != nil {
		return nil, "", err
	}
	url := "sqlite:" + filepath.Join(dir, "demo.db")
	db, err := sqlsheet.Open(url)
	if err == nil {
		err = createDemo(ctx, db)
		db.Close()
	}
	if err == nil {
		// The designed report the city-report export fills, beside the
		// database: a relative template: path finds it there (after the
		// given file's folder).
		err = examples.WriteReportTemplate(filepath.Join(dir, "city-report.xlsx"))
	}
	var cfg *server.Config
	if err == nil {
		dirs := []string{dir}
		if file != "" {
			dirs = []string{filepath.Dir(file), dir}
		}
		cfg, err = server.ParseConfig(raw, server.ParseOptions{Dirs: dirs, Database: url})
	}
	if err == nil && cfg.Jobs == "" {
		// Background exports with no setup: a SQLite queue and a folder.
		cfg.Jobs = "sqlite:" + filepath.Join(dir, "queue.db")
		cfg.Storage = "file://" + filepath.Join(dir, "exports")
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, "", fmt.Errorf("%s: %w", name, err)
	}
	return cfg, dir, nil
}
