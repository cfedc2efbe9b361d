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
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := &cobra.Command{
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
