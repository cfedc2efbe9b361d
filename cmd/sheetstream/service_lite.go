//go:build lite

package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

// A lite build (go build -tags lite) leaves out the export service and
// its libraries (net/http's server, River, OpenID Connect, the AWS SDK):
// the library's commands in a binary of their own, which starts in about
// half the memory. With the full build at hand it runs the service's
// commands (delegate_lite.go); without, they say where it is.
func serviceCmd(use string) *cobra.Command {
	return &cobra.Command{
		Use:                use,
		Hidden:             true,
		DisableFlagParsing: true, // whatever the full build's flags, the same answer
		RunE: func(*cobra.Command, []string) error {
			return fmt.Errorf("%s: this sheetstream is built without the service (-tags lite); build it without the tag (go build ./cmd/sheetstream) as sheetstream-full beside this one or on PATH, or name it with $SHEETSTREAM_FULL", use)
		},
	}
}

func serveCmd() *cobra.Command   { return serviceCmd("serve") }
func workerCmd() *cobra.Command  { return serviceCmd("worker") }
func migrateCmd() *cobra.Command { return serviceCmd("migrate") }
func jobsCmd() *cobra.Command    { return serviceCmd("jobs") }
func tokenCmd() *cobra.Command   { return serviceCmd("token") }
