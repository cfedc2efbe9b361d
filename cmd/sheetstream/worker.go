//go:build !lite

package main

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"github.com/sheetstream/sheetstream/server"
	"github.com/sheetstream/sheetstream/sqlsheet"
)

// workerCmd runs job workers only: any number of them, on any number of
// machines, against one PostgreSQL queue.
func workerCmd() *cobra.Command {
	var config string
	jobWorkers := 0
	cmd := &cobra.Command{
		Use:   "worker --config FILE.yaml",
		Short: "Run background export jobs from the configured queue, without serving HTTP",
		Long: `Run the background export jobs of the queue the configuration names
(jobs: postgres://... for a fleet), writing their files to its storage:.
Run as many workers, on as many machines, as the work needs; a job whose
worker dies is taken over by another once job_timeout (and a margin) has
passed.
SIGTERM or Ctrl-C stops taking jobs and lets running ones finish for up
to 10 s (the rest are retried by other workers).

Every flag: https://github.com/sheetstream/sheetstream/blob/main/docs/cli.md#worker`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if config == "" {
				return fmt.Errorf("worker needs --config FILE.yaml")
			}
			cfg, err := server.LoadConfig(config)
			if err != nil {
				return err
			}
			if cfg.Jobs == "" {
				return fmt.Errorf("%s: no jobs: queue to work (jobs: sqlite:PATH or postgres://...)", config)
			}
			if cmd.Flags().Changed("job-workers") {
				cfg.JobWorkers = &jobWorkers
			}
			srv, log, err := newService(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			log.Info("working background exports", "queue", redactQueue(cfg.Jobs), "storage", cfg.Storage)
			<-cmd.Context().Done()
			log.Info("stopping: running jobs may finish for 10 s")
			return srv.Close()
		},
	}
	cmd.Flags().StringVar(&config, "config", "", "configuration file (YAML)")
	cmd.Flags().IntVar(&jobWorkers, "job-workers", 0, "jobs this process runs at once (default: job_workers, else job_slots)")
	return cmd
}

// migrateCmd creates or updates the queue's tables, alone.
func migrateCmd() *cobra.Command {
	var config string
	cmd := &cobra.Command{
		Use:   "migrate --config FILE.yaml",
		Short: "Create or update the job queue's tables (serve and worker also do it at start)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if config == "" {
				return fmt.Errorf("migrate needs --config FILE.yaml")
			}
			cfg, err := server.LoadConfig(config)
			if err != nil {
				return err
			}
			if cfg.Jobs == "" {
				return fmt.Errorf("%s: no jobs: queue to migrate", config)
			}
			none := 0
			cfg.JobWorkers = &none
			srv, err := server.New(cfg, slog.New(slog.NewTextHandler(os.Stderr, nil)))
			if err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "the queue's tables are up to date in %s\n", redactQueue(cfg.Jobs))
			return srv.Close()
		},
	}
	cmd.Flags().StringVar(&config, "config", "", "configuration file (YAML)")
	return cmd
}

// redactQueue is a queue URL for logs, without its password.
func redactQueue(url string) string { return sqlsheet.RedactURL(url) }
