package main

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// importFlags are import's flags, as given.
type importFlags struct {
	pw                        password
	dbURL, table, sheet       string
	create, appendTo, replace bool
	merge, dryRun             bool
	key                       []string
	noHeader, stopAtEmpty     bool
	rangeText, headerRow      string
	columns, types            []string
	allText, infer            bool
	format, delimiter         string
	encoding, rejectsPath     string
	ragged, lazyQuotes        bool
	quote, decimal            string
	dateFormats               []string
	maxErrors, maxRecordMiB   int
}

func importCmd() *cobra.Command {
	var f importFlags
	cmd := &cobra.Command{
		Use:   "import FILE.xlsx|.xlsb|.xls|.ods|.csv|.tsv|.parquet|- --db URL --table T",
		Short: "Load a sheet or CSV file into a database table, all or nothing",
		Long: `Load a sheet (the first, or --sheet NAME|INDEX) or a CSV or TSV file into
a table, in one transaction: --create (the default) makes a new table with
inferred column types, --append adds to an existing one, --replace swaps
it once every row is in, --merge --key COL[,COL] inserts new keys and
updates changed rows. --dry-run checks every row and changes nothing. A
cell that does not fit, or a row the table refuses, stops the import with
an error naming it; --max-errors N skips up to N such rows instead.

Every flag, and how they work together:
https://github.com/sheetstream/sheetstream/blob/main/docs/cli.md#import`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runImport(cmd.Context(), &f, args[0])
		},
	}
	f.register(cmd)
	return cmd
}

func (f *importFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.dbURL, "db", "", "database URL: sqlite:path.db, postgres://..., mysql://...")
	fl.StringVar(&f.table, "table", "", "target table (schema.table for another schema or database)")
	fl.StringVar(&f.sheet, "sheet", "", "sheet name or 1-based index (default: the first)")
	fl.BoolVar(&f.create, "create", false, "create the table (the default; fails if it exists)")
	fl.BoolVar(&f.appendTo, "append", false, "append to an existing table")
	fl.BoolVar(&f.replace, "replace", false, "replace the table once every row is in")
	fl.BoolVar(&f.merge, "merge", false, "merge into an existing table on --key: insert new keys, update changed rows, leave the rest")
	fl.StringSliceVar(&f.key, "key", nil, "the columns that identify a row, for --merge (comma-separated; default: the exported table's key, or the target's primary key)")
	fl.BoolVar(&f.dryRun, "dry-run", false, "read and check every row against the table, say what would change, and change nothing")
	fl.BoolVar(&f.noHeader, "no-header", false, "the first row is data; columns are col1, col2...")
	fl.StringVar(&f.rangeText, "range", "", "the table's cells, such as A4:F (open-ended) or B:D")
	fl.StringVar(&f.headerRow, "header-row", "", `the header's row within the range, 1-based; 0: no header; "auto": found (default: the first row that is not empty)`)
	fl.BoolVar(&f.stopAtEmpty, "stop-at-empty", false, "end the table at its first empty row")
	fl.StringSliceVar(&f.columns, "columns", nil, "load only these columns, by header name (comma-separated)")
	fl.StringArrayVar(&f.types, "type", nil, "NAME=TYPE: create column NAME as text, integer, float, decimal, boolean, date, timestamp, timestamptz or time instead of the inferred type; repeatable")
	fl.BoolVar(&f.allText, "all-text", false, "create every column as text")
	fl.BoolVar(&f.infer, "infer", false, "infer column types from the cells even when the workbook records them (a sheetstream export's schema part)")
	fl.IntVar(&f.maxErrors, "max-errors", 0, "skip up to N rows holding a cell their column cannot, or that the table refuses (default 0: the first such row fails the import)")
	fl.StringVar(&f.rejectsPath, "rejects", "", "write the rows --max-errors skipped, with the reason, to this CSV file")
	fl.StringVar(&f.format, "format", "", "the input's format: xlsx, xlsb, xls, ods (workbooks: read as their bytes say), csv, tsv or parquet (default: from the extension; standard input is sniffed)")
	fl.StringVar(&f.delimiter, "delimiter", "", `CSV field delimiter (default from the extension; "tab" or \t for tabs)`)
	fl.StringVar(&f.encoding, "encoding", "", encodingHelp)
	fl.BoolVar(&f.ragged, "ragged", false, raggedHelp)
	fl.StringArrayVar(&f.dateFormats, "date-format", nil, dateFormatHelp)
	fl.BoolVar(&f.lazyQuotes, "lazy-quotes", false, lazyQuotesHelp)
	fl.StringVar(&f.quote, "quote", `"`, quoteHelp)
	fl.StringVar(&f.decimal, "decimal", ".", decimalHelp)
	fl.IntVar(&f.maxRecordMiB, "max-record-mib", 64, maxRecordHelp)
	f.pw.readFlags(cmd)
}

// options checks the flags and turns them into the library's options
// (without Rejects and Progress, which runImport opens).
func (f *importFlags) options() (sqlsheet.ImportOptions, error) {
	if f.dbURL == "" || f.table == "" {
		return sqlsheet.ImportOptions{}, fmt.Errorf("import needs --db and --table")
	}
	mode := sqlsheet.Create
	switch {
	case btoi(f.create)+btoi(f.appendTo)+btoi(f.replace)+btoi(f.merge) > 1:
		return sqlsheet.ImportOptions{}, fmt.Errorf("choose one of --create, --append, --replace, --merge")
	case !f.merge && len(f.key) > 0:
		return sqlsheet.ImportOptions{}, fmt.Errorf("--key is for --merge")
	case f.merge:
		mode = sqlsheet.Merge
	case f.appendTo:
		mode = sqlsheet.Append
	case f.replace:
		mode = sqlsheet.Replace
	}
	opts := sqlsheet.ImportOptions{Table: f.table, Mode: mode, Key: f.key, DryRun: f.dryRun, Infer: f.infer,
		NoHeader: f.noHeader, StopAtEmpty: f.stopAtEmpty, Columns: f.columns, AllText: f.allText}
	for _, tv := range f.types {
		name, typ, ok := strings.Cut(tv, "=")
		if !ok || strings.TrimSpace(name) == "" {
			return opts, fmt.Errorf("--type %q: give NAME=TYPE", tv)
		}
		ct, err := sqlsheet.ParseColumnType(typ)
		if err != nil {
			return opts, fmt.Errorf("--type %q: %w", tv, err)
		}
		if opts.Types == nil {
			opts.Types = map[string]sqlsheet.ColumnType{}
		}
		opts.Types[name] = ct
	}
	if f.rangeText != "" {
		var err error
		if opts.Range, err = sqlsheet.ParseTableRange(f.rangeText); err != nil {
			return opts, fmt.Errorf("--range: %w", err)
		}
	}
	switch f.headerRow {
	case "":
	case "auto":
		opts.HeaderRow = sqlsheet.HeaderAuto
	default:
		n, err := strconv.Atoi(f.headerRow)
		if err != nil || n < 0 {
			return opts, fmt.Errorf("--header-row: %q is not a row number or auto", f.headerRow)
		}
		opts.HeaderRow, opts.NoHeader = n, f.noHeader || n == 0
	}
	if f.maxErrors < 0 || f.rejectsPath != "" && f.maxErrors == 0 {
		return opts, fmt.Errorf("--rejects needs --max-errors N, N above 0")
	}
	opts.MaxErrors = f.maxErrors
	return opts, nil
}

// runImport loads path as the flags say and reports what it did.
func runImport(ctx context.Context, f *importFlags, path string) (retErr error) {
	if path != "-" {
		if err := checkInputPath(path); err != nil {
			return err
		}
	}
	if err := checkSQLitePath(f.dbURL); err != nil {
		return err
	}
	opts, err := f.options()
	if err != nil {
		return err
	}
	text := csvsheet.Options{Encoding: f.encoding, NoInfer: f.allText, MaxRecordSize: f.maxRecordMiB << 20,
		Ragged: f.ragged, LazyQuotes: f.lazyQuotes, DateFormats: f.dateFormats}
	if err := textMarks(f.quote, f.decimal, &text); err != nil {
		return err
	}
	src, closeSrc, err := importSource(path, f.format, f.sheet, &f.pw, text, f.delimiter)
	if err != nil {
		return err
	}
	defer closeSrc()
	db, cleanup, err := openImportDB(ctx, f.dbURL, opts)
	if err != nil {
		return err
	}
	defer func() {
		db.Close()
		cleanup(retErr != nil) // a SQLite file this import made and failed to fill goes
	}()
	if f.rejectsPath != "" {
		rejects, err := os.OpenFile(f.rejectsPath, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			return err
		}
		defer rejects.Close()
		w := bufio.NewWriter(rejects)
		opts.Rejects = w
		defer func() {
			if err := w.Flush(); err != nil && retErr == nil {
				retErr = fmt.Errorf("%s: %w", f.rejectsPath, err)
			}
			if retErr != nil {
				os.Remove(f.rejectsPath) // nothing was loaded: no rows were rejected
			}
		}()
	}
	bar := newProgress(-1, "importing rows", false)
	if bar != nil {
		opts.Progress = func(rows int64) { bar.Set64(rows) }
	}
	st, err := sqlsheet.ImportFrom(ctx, db, src, opts)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return fmt.Errorf("%s: %w", inputName(path), withRecordHint(err))
	}
	from := inputName(path)
	if name := src.SheetName(); name != "" {
		from = fmt.Sprintf("sheet %q", name)
	}
	f.report(st, opts, from)
	return nil
}

// openImportDB opens the database an import loads into, and makes sure
// it answers, so that an error names the database rather than the input.
// A SQLite file is created only by a real --create or --replace, and kept
// only if the import succeeds: an --append or --merge needs the file (it
// needs a table in it), and a dry run into a file that does not exist
// checks the rows against a temporary empty database. The caller closes
// db, then calls cleanup with whether the import failed.
func openImportDB(ctx context.Context, url string, opts sqlsheet.ImportOptions) (db *sql.DB, cleanup func(failed bool), err error) {
	cleanup = func(bool) {}
	if path := sqlsheet.SQLitePath(url); path != "" {
		if _, statErr := os.Stat(path); errors.Is(statErr, fs.ErrNotExist) {
			switch {
			case opts.Mode == sqlsheet.Append || opts.Mode == sqlsheet.Merge:
				return nil, cleanup, fmt.Errorf("database %s: no such file (--append and --merge load into an existing table; --create makes the file)", path)
			case opts.DryRun:
				dir, err := os.MkdirTemp("", "sheetstream-dry-run-")
				if err != nil {
					return nil, cleanup, err
				}
				fmt.Fprintf(os.Stderr, "note: %s does not exist: the dry run checks the rows against a new, empty database\n", path)
				url = "sqlite:" + filepath.Join(dir, "dry-run.db")
				cleanup = func(bool) { os.RemoveAll(dir) }
			default:
				cleanup = func(failed bool) {
					if failed {
						for _, suffix := range []string{"", "-journal", "-wal", "-shm"} {
							os.Remove(path + suffix)
						}
					}
				}
			}
		}
	}
	db, err = sqlsheet.Open(url)
	if err == nil {
		if err = db.PingContext(ctx); err != nil {
			db.Close()
		}
	}
	if err != nil {
		cleanup(true)
		return nil, func(bool) {}, fmt.Errorf("database %s: %w", sqlsheet.RedactURL(url), sqlsheet.RedactError(err, url))
	}
	return db, cleanup, nil
}

// report tells, on standard error, what the import did (or a dry run
// would do), the types it chose, and the notes a user should see.
func (f *importFlags) report(st sqlsheet.ImportStats, opts sqlsheet.ImportOptions, from string) {
	cols := make([]string, len(st.Columns))
	for i, c := range st.Columns {
		cols[i] = c.Name + " " + c.Type.String()
		if st.Schema && c.SQLType != "" {
			cols[i] = c.Name + " " + c.SQLType
		}
	}
	if st.Schema {
		fmt.Fprintln(os.Stderr, "column types: from the workbook's schema part, as exported (--infer ignores it)")
	}
	if opts.HeaderRow == sqlsheet.HeaderAuto {
		fmt.Fprintf(os.Stderr, "header: row %d\n", st.HeaderRow)
	}
	if f.merge && len(f.key) == 0 {
		fmt.Fprintf(os.Stderr, "key: %s (the exported table's, or the target's primary key)\n", strings.Join(st.MergeKey, ", "))
	}
	fmt.Fprintln(os.Stderr, importSummary(st, opts.Mode, f.dryRun, from, f.table, strings.Join(cols, ", ")))
	if st.Rejected > 0 {
		where := "; give --rejects FILE.csv to keep them"
		if f.rejectsPath != "" {
			where = ", written to " + f.rejectsPath
		}
		fmt.Fprintf(os.Stderr, "rejected %d rows%s\n", st.Rejected, where)
	}
	if st.ErrorCells > 0 {
		fmt.Fprintf(os.Stderr, "note: %d error values (#N/A...) loaded as NULL\n", st.ErrorCells)
	}
	if len(st.Binary) > 0 {
		what := "left NULL in the new table"
		if opts.Mode == sqlsheet.Append || opts.Mode == sqlsheet.Merge {
			what = "left as the table has them"
		}
		fmt.Fprintf(os.Stderr, "note: binary columns %s, which the file holds as placeholders or text, not bytes: %s\n", strings.Join(st.Binary, ", "), what)
	}
}

// inputName names an input path for people: "-" is standard input.
func inputName(path string) string {
	if path == "-" {
		return "standard input"
	}
	return path
}

// importSummary says what an import did, or a dry run would do.
func importSummary(st sqlsheet.ImportStats, mode sqlsheet.ImportMode, dryRun bool, from, table, cols string) string {
	verb := map[bool][3]string{false: {"merged", "replaced", "imported"}, true: {"would merge", "would replace", "would import"}}[dryRun]
	counts := map[bool][3]string{false: {"inserted", "updated", "unchanged"}, true: {"to insert", "to update", "to leave"}}[dryRun]
	var what string
	switch {
	case mode == sqlsheet.Merge:
		what = fmt.Sprintf("%s %d rows from %s into %s: %d %s, %d %s, %d %s", verb[0], st.Rows, from, table,
			st.Inserted, counts[0], st.Updated, counts[1], st.Unchanged, counts[2])
	case mode == sqlsheet.Replace && dryRun:
		what = fmt.Sprintf("%s %s (%d rows) with %d rows from %s", verb[1], table, st.Removed, st.Rows, from)
	case mode == sqlsheet.Replace: // the rows dropped are not counted
		what = fmt.Sprintf("%s %s with %d rows from %s", verb[1], table, st.Rows, from)
	default:
		what = fmt.Sprintf("%s %d rows from %s into %s", verb[2], st.Rows, from, table)
	}
	what += " (" + cols + ")"
	if dryRun {
		what = "dry run, nothing changed: " + what
	}
	return what
}

// importSource opens what import reads: a sheet of a workbook, or
// delimited text. Text from standard input is spooled to a temporary
// file, since the import reads it twice (types, then rows); the file is
// unlinked at once. The caller calls closeSrc when done.
func importSource(path, format, sheet string, pw *password, text csvsheet.Options, delimiter string) (src sqlsheet.Source, closeSrc func() error, err error) {
	stdin := bufio.NewReaderSize(os.Stdin, 64<<10)
	switch strings.ToLower(format) {
	case "":
		ext := strings.ToLower(filepath.Ext(path))
		if isWorkbook(path) || path == "-" && stdinIsWorkbook(stdin) {
			format = "xlsx"
		} else if ext == ".parquet" {
			format = "parquet"
		} else if ext == ".tsv" || ext == ".tab" {
			format = "tsv"
		} else if ext == ".csv" || ext == ".txt" || path == "-" {
			format = "csv"
		} else {
			return nil, nil, fmt.Errorf("%s: give --format: the extension names no format (xlsx, xlsb, xls, ods, csv, tsv, parquet)", path)
		}
	case "xlsx", "xlsm", "xlsb", "xls", "ods", "csv", "tsv", "parquet":
	default:
		return nil, nil, fmt.Errorf("--format %q: xlsx, xlsb, xls, ods, csv, tsv or parquet", format)
	}
	if format == "parquet" {
		return parquetSource(path)
	}
	if format != "csv" && format != "tsv" {
		wb, closeWB, err := openWorkbook(path, xlsx.ReadOptions{}, stdin, pw)
		if err != nil {
			return nil, nil, err
		}
		sheets, err := pickSheets(wb, sheet, false)
		if err != nil {
			closeWB()
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		return sqlsheet.SheetSource(wb, sheets[0].Index), closeWB, nil
	}
	if sheet != "" {
		return nil, nil, fmt.Errorf("%s: --sheet is for workbooks; delimited text has one table", path)
	}
	if format == "tsv" && delimiter == "" {
		delimiter = "tab"
	}
	if text.Comma, err = delimiterOf(path, delimiter); err != nil {
		return nil, nil, err
	}
	var f *os.File
	if path == "-" {
		if f, err = os.CreateTemp("", "sheetstream-stdin-*.csv"); err != nil {
			return nil, nil, err
		}
		os.Remove(f.Name())
		if _, err := io.Copy(f, stdin); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("standard input: %w", err)
		}
	} else if f, err = os.Open(path); err != nil {
		return nil, nil, err
	}
	if delimiter == "" && text.Comma == ',' {
		head := make([]byte, 64<<10)
		n, _ := f.ReadAt(head, 0)
		if err := checkCommas(inputName(path), head[:n]); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	return csvsheet.NewTable(f, text), f.Close, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
