//go:build !lite

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/sheetstream/sheetstream/jobs"
	"github.com/sheetstream/sheetstream/server"
	"github.com/spf13/cobra"
)

// jobsCmd drives a running service's background exports, for scripts:
// each subcommand prints the job (or list) as JSON on standard output.
func jobsCmd() *cobra.Command {
	var service, config string
	cmd := &cobra.Command{
		Use:   "jobs submit|status|cancel|list (--url URL | --config FILE.yaml)",
		Short: "Submit, follow, cancel and list a service's background exports",
		Long: `Drive the background exports of a running sheetstream serve at --url (or
SHEETSTREAM_URL), with the bearer token in SHEETSTREAM_TOKEN if it needs one;
or, with --config, the queue its configuration names, directly (no service
needs to run; workers elsewhere run the jobs).
Each subcommand prints JSON on standard output:

  sheetstream jobs submit orders since=2025-01-01 city=Oslo [--wait]
  sheetstream jobs status ID
  sheetstream jobs cancel ID
  sheetstream jobs list [--limit 20]

Every flag: https://github.com/sheetstream/sheetstream/blob/main/docs/cli.md#jobs`,
	}
	cmd.PersistentFlags().StringVar(&service, "url", os.Getenv("SHEETSTREAM_URL"), "the service, such as http://127.0.0.1:8080 (default $SHEETSTREAM_URL)")
	cmd.PersistentFlags().StringVar(&config, "config", "", "the service's configuration file: use its queue directly instead of --url")
	var wait bool
	var key string
	submit := &cobra.Command{
		Use:   "submit EXPORT [NAME=VALUE]...",
		Short: "Queue an export; with --wait, wait for it to end (exit status 1 if it failed)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			q := url.Values{}
			for _, a := range args[1:] {
				name, value, ok := strings.Cut(a, "=")
				if !ok {
					return fmt.Errorf("%q: give parameters as NAME=VALUE", a)
				}
				q.Add(name, value)
			}
			if config != "" {
				return withQueue(cmd.Context(), config, func(srv *server.Server) error {
					params := map[string]string{}
					for name, vs := range q {
						params[name] = vs[0]
					}
					j, err := srv.SubmitJob(cmd.Context(), args[0], params, key)
					if err != nil || !wait {
						printJSON(j, err == nil)
						return err
					}
					return waitQueued(cmd.Context(), srv, j.ID)
				})
			}
			hdr := http.Header{}
			if key != "" {
				hdr.Set("Idempotency-Key", key)
			}
			var sub struct{ ID string }
			body, err := callService(cmd.Context(), service, "POST", "/api/exports/"+url.PathEscape(args[0])+"/jobs?"+q.Encode(), hdr, &sub)
			if err != nil {
				return err
			}
			if !wait {
				os.Stdout.Write(body)
				return nil
			}
			return waitJob(cmd.Context(), service, sub.ID)
		},
	}
	submit.Flags().BoolVar(&wait, "wait", false, "wait until the job ends and print it then")
	submit.Flags().StringVar(&key, "idempotency-key", "", "submitting again with the same key returns the same job")
	status := &cobra.Command{
		Use:   "status ID",
		Short: "Print a job",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if config != "" {
				return withQueue(cmd.Context(), config, func(srv *server.Server) error {
					j, err := srv.Jobs().Get(cmd.Context(), args[0])
					printJSON(j, err == nil)
					return err
				})
			}
			body, err := callService(cmd.Context(), service, "GET", "/api/jobs/"+url.PathEscape(args[0]), nil, nil)
			os.Stdout.Write(body)
			return err
		},
	}
	cancel := &cobra.Command{
		Use:   "cancel ID",
		Short: "Cancel a queued or running job",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if config != "" {
				return withQueue(cmd.Context(), config, func(srv *server.Server) error {
					j, err := srv.Jobs().Cancel(cmd.Context(), args[0])
					printJSON(j, err == nil)
					return err
				})
			}
			body, err := callService(cmd.Context(), service, "DELETE", "/api/jobs/"+url.PathEscape(args[0]), nil, nil)
			os.Stdout.Write(body)
			return err
		},
	}
	var limit int
	list := &cobra.Command{
		Use:   "list",
		Short: "Print the newest jobs",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if config != "" {
				return withQueue(cmd.Context(), config, func(srv *server.Server) error {
					list, err := srv.Jobs().List(cmd.Context(), jobs.AllOwners, limit, "")
					printJSON(map[string]any{"jobs": list}, err == nil)
					return err
				})
			}
			body, err := callService(cmd.Context(), service, "GET", fmt.Sprintf("/api/jobs?limit=%d", limit), nil, nil)
			os.Stdout.Write(body)
			return err
		},
	}
	list.Flags().IntVar(&limit, "limit", 20, "how many (1 to 100)")
	cmd.AddCommand(submit, status, cancel, list)
	return cmd
}

// callService calls the service's API and decodes a JSON answer into out;
// an answer other than 2xx is an error carrying the service's message.
func callService(ctx context.Context, service, method, path string, hdr http.Header, out any) ([]byte, error) {
	if service == "" {
		return nil, fmt.Errorf("give the service's --url (or set SHEETSTREAM_URL)")
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(service, "/")+path, nil)
	if err != nil {
		return nil, fmt.Errorf("--url: %w", err)
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	if token := os.Getenv("SHEETSTREAM_TOKEN"); token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		var e struct{ Error string }
		if json.Unmarshal(body, &e) == nil && e.Error != "" {
			return nil, fmt.Errorf("%s %s: %d: %s", method, path, resp.StatusCode, e.Error)
		}
		return nil, fmt.Errorf("%s %s: %s", method, path, resp.Status)
	}
	if out != nil {
		if err := json.Unmarshal(body, out); err != nil {
			return body, fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return body, nil
}

// waitJob polls a job until it ends, prints it, and fails unless done.
func waitJob(ctx context.Context, service, id string) error {
	for {
		var j struct{ State, Error string }
		body, err := callService(ctx, service, "GET", "/api/jobs/"+url.PathEscape(id), nil, &j)
		if err != nil {
			return err
		}
		switch j.State {
		case "done":
			os.Stdout.Write(body)
			return nil
		case "failed", "cancelled":
			os.Stdout.Write(body)
			return fmt.Errorf("job %s %s: %s", id, j.State, strings.TrimSpace(j.Error))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// withQueue opens the queue a configuration names, without workers, for f.
func withQueue(ctx context.Context, config string, f func(*server.Server) error) error {
	cfg, err := server.LoadConfig(config)
	if err != nil {
		return err
	}
	if cfg.Jobs == "" {
		return fmt.Errorf("%s: no jobs: queue", config)
	}
	none := 0
	cfg.JobWorkers, cfg.Schedules = &none, nil
	srv, err := server.New(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return err
	}
	defer srv.Close()
	return f(srv)
}

// printJSON prints v as JSON on standard output, if ok.
func printJSON(v any, ok bool) {
	if ok {
		json.NewEncoder(os.Stdout).Encode(v)
	}
}

// waitQueued polls a job in the queue until it ends, prints it, and
// fails unless it is done.
func waitQueued(ctx context.Context, srv *server.Server, id string) error {
	for {
		j, err := srv.Jobs().Get(ctx, id)
		if err != nil {
			return err
		}
		switch j.State {
		case jobs.Done:
			printJSON(j, true)
			return nil
		case jobs.Failed, jobs.Cancelled:
			printJSON(j, true)
			return fmt.Errorf("job %s %s: %s", id, j.State, j.Error)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}
