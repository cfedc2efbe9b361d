//go:build lite

package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

// A lite build (go build -tags lite) leaves out the export service and
// its libraries (net/http's server, River, OpenID Connect, the AWS SDK):
// the library's commands in a binary of their own, which starts in about
// half the memory. The service's commands say where they are.
func serviceCmd(use string) *cobra.Command {
	return &cobra.Command{
		Use:                use,
		Hidden:             true,
		DisableFlagParsing: true, // whatever the full build's flags, the same answer
		RunE: func(*cobra.Command, []string) error {
			return fmt.Errorf("%s: this sheetstream is built without the service (-tags lite); build it without the tag: go build ./cmd/sheetstream", use)
		},
	}
}

func serveCmd() *cobra.Command   { return serviceCmd("serve") }
func workerCmd() *cobra.Command  { return serviceCmd("worker") }
func migrateCmd() *cobra.Command { return serviceCmd("migrate") }
func jobsCmd() *cobra.Command    { return serviceCmd("jobs") }
func tokenCmd() *cobra.Command   { return serviceCmd("token") }
