// Command sheetstream moves tables between databases, CSV and Excel XLSX.
//
//	sheetstream convert data.csv data.xlsx
//
// See sheetstream help for the commands.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := &cobra.Command{
		Version:       version(),
		Use:           "sheetstream",
		Short:         "Move tables between databases, CSV and Excel XLSX, fast and in constant memory",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(exportCmd(), importCmd(), convertCmd(), catCmd(), infoCmd(), serveCmd())
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "sheetstream:", err)
		os.Exit(1)
	}
}

// version is the module version and the commit the binary was built
// from, as the Go toolchain recorded them: "v1.2.0", or for a build from
// a checkout "(devel) commit 56600d7 (modified) 2026-11-23T18:00:00Z".
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (built without module information)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		v += " commit " + rev[:min(12, len(rev))]
		if settings["vcs.modified"] == "true" {
			v += " (modified)"
		}
		if t := settings["vcs.time"]; t != "" {
			v += " " + t
		}
	}
	return v + " " + info.GoVersion
}
