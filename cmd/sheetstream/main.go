// Command sheetstream moves tables between databases, CSV and Excel XLSX.
//
//	sheetstream convert data.csv data.xlsx
//
// See sheetstream help for the commands.
package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sheetstream/sheetstream"
	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

func main() {
	if err := delegate(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "sheetstream:", err)
		os.Exit(1)
	}
	if len(os.Args) > 1 && !serviceCommands[os.Args[1]] {
		tightGC()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := rootCmd().ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "sheetstream:", forUsers(err))
		os.Exit(1)
	}
}

// tightGC runs the garbage collector at GOGC=50 (unless GOGC is set) for
// the commands that stream one job and end: their live heaps are a few
// MiB (the reader's chunks, the writer's deflate buffers, typed rows in
// flight) and their garbage short-lived, so the default goal of twice the
// live heap is most of what they add to the binary's start, while the
// collector costs them about 1% of their CPU. Measured with the lite
// build, W1: convert CSV to XLSX 26.4 -> 23.1 MiB, cat 22.3 -> 21.0 MiB,
// in the same time (bench/RESULTS.md, M6); Parquet's page and row-group
// buffers 56 -> 47 MiB for 8% more time (A2). The service's commands keep
// the default: their heaps are their connections'.
func tightGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
}

// forUsers is an error's text for the command line, with the flags that
// mend it: the libraries' errors say what is wrong in their own terms
// (an option, a mode), and carry the facts as values a hint is chosen by.
func forUsers(err error) string {
	text := err.Error()
	var bad *sqlsheet.BadCellError
	switch {
	case errors.Is(err, sqlsheet.ErrTableExists):
		text += ": give --append, --merge or --replace"
	case errors.Is(err, sqlsheet.ErrNoKey):
		text += ": give --key COLUMN[,COLUMN...]"
	case errors.Is(err, csvsheet.ErrNotUTF8):
		text += ": give its character set with --encoding, such as windows-1252 or latin1"
	case errors.As(err, &bad) && bad.Into == sqlsheet.ColumnDate:
		text += " (a date not in ISO 8601 needs --date-format, such as %d/%m/%Y)"
	case errors.Is(err, csvsheet.ErrWideRecord):
		text += " (a stray delimiter or quote? --lazy-quotes takes stray quotes as text, --ragged cuts such rows to the header)"
	case errors.Is(err, csv.ErrBareQuote), errors.Is(err, csv.ErrQuote):
		text += ` (text written without quoting, as many TSV files are, reads with --quote none; stray quotes in quoted fields with --lazy-quotes)`
	case errors.Is(err, xlsx.ErrCellTooLong):
		text += " (without --strict such text is cut to fit, and counted)"
	case errors.Is(err, xlsx.ErrPassword):
	case errors.Is(err, xlsx.ErrEncrypted) && !errors.Is(err, errNoTerminal):
		text += " with --password-file FILE, " + passwordEnv + " or --password"
	}
	return text
}

// rootCmd is the command line: sheetstream and its commands.
func rootCmd() *cobra.Command {
	root := &cobra.Command{
		Version:       version(),
		Use:           "sheetstream",
		Short:         "Move tables between databases, CSV and Excel XLSX, fast and in constant memory",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(exportCmd(), importCmd(), convertCmd(), catCmd(), infoCmd(), serveCmd(), workerCmd(), migrateCmd(), jobsCmd(), tokenCmd())
	root.SetFlagErrorFunc(flagError)
	withUsage(root)
	return root
}

// withUsage makes every command's argument errors show its usage line,
// so that "convert a.csv" says what it takes, not only how many.
func withUsage(cmd *cobra.Command) {
	for _, c := range cmd.Commands() {
		withUsage(c)
	}
	if args := cmd.Args; args != nil {
		cmd.Args = func(c *cobra.Command, a []string) error {
			if err := args(c, a); err != nil {
				return fmt.Errorf("%w\nusage: %s (sheetstream %s --help for more)", err, c.UseLine(), c.Name())
			}
			return nil
		}
	}
}

// flagError adds to an unknown flag's error the flag of the command
// nearest to it ("--delim": did you mean --delimiter?).
func flagError(cmd *cobra.Command, err error) error {
	var unknown *pflag.NotExistError
	if !errors.As(err, &unknown) || unknown.GetSpecifiedName() == "" {
		return fmt.Errorf("%w (sheetstream %s --help lists the flags)", err, cmd.Name())
	}
	name := unknown.GetSpecifiedName()
	best, bestDist := "", 4
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		d := editDistance(name, f.Name)
		if strings.HasPrefix(f.Name, name) {
			d = min(d, 1)
		}
		if d < bestDist {
			best, bestDist = f.Name, d
		}
	})
	if best != "" {
		return fmt.Errorf("%w: did you mean --%s?", err, best)
	}
	return fmt.Errorf("%w (sheetstream %s --help lists the flags)", err, cmd.Name())
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// version is the release and the commit the binary was built from: the
// module's version when the Go toolchain recorded one ("v1.2.0", a build of
// a tagged release), else the newest release CHANGELOG.md names with the
// commit, as "v0.6.0 commit 56600d7 (modified) 2026-11-23T18:00:00Z".
var pseudoVersion = regexp.MustCompile(`\d{14}-[0-9a-f]{12}`)

func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return sheetstream.Version() + " (built without module information)"
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" || strings.Contains(v, "+dirty") || pseudoVersion.MatchString(v) {
		// A build from a checkout: Go stamps a pseudo-version such as
		// v0.0.0-20261124232412-5af987cc34a2, which names no release.
		v = sheetstream.Version()
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
