package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

func importCmd() *cobra.Command {
	var (
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
		maxErrors, maxRecordMiB   int
	)
	cmd := &cobra.Command{
		Use:   "import FILE.xlsx|.xlsb|.xls|.ods|.csv|.tsv|- --db URL --table T",
		Short: "Load a sheet or CSV file into a database table, all or nothing",
		Long: `Load a sheet (the first, or --sheet NAME|INDEX) or a CSV or TSV file into
a table. The format comes from the file's extension, or --format; "-"
reads standard input (a workbook if it is one, else CSV). Text is UTF-8,
with or without a byte-order mark, unless --encoding names another; its
types are inferred as "convert" infers them, and its rows are its records.

--create (the default) makes a new table with column types inferred from
the cells: integer, float, boolean, date, timestamp, time or text. --append
adds to an existing table, matching the header to its columns by name.
--replace swaps the table for the sheet once every row is in. --merge
--key COL[,COL] matches rows to an existing table's on the key: new keys
are inserted, rows with other values updated, the rest left (a key twice
in the input is an error naming both rows). --dry-run, with any of these,
checks every row against the table and says what would happen, changing
nothing. Rows go in one transaction (SQLite through its own API,
PostgreSQL with COPY, MySQL with LOAD DATA LOCAL): a cell that does not
fit stops the import with an error naming sheet, row and column, and a
row the table refuses (a key it has, a CHECK constraint) one naming the
row, and the database is left as it was; --max-errors N skips up to N
such rows instead, and --rejects FILE.csv keeps them with the reason.

A workbook sheetstream exported records each column's SQL type, the
table's primary key and its number of rows; a new table gets the types
back (NUMERIC(12,2) stays NUMERIC(12,2), timestamptz stays timestamptz),
a row of NULLs (an empty row in the sheet) comes back as a row, and
--merge finds the key there (--key is then optional; without either,
--merge matches on the target table's primary key). --infer ignores
them.

Reports rarely start at A1: --range A4:F (open-ended ranges allowed) takes
a rectangle, --header-row N the header's row within it (0: no header;
"auto": the first row of text right above data, which is printed),
--stop-at-empty ends the table at its first empty row, and --columns
loads only the named columns.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) (retErr error) {
			if dbURL == "" || table == "" {
				return fmt.Errorf("import needs --db and --table")
			}
			mode := sqlsheet.Create
			switch {
			case btoi(create)+btoi(appendTo)+btoi(replace)+btoi(merge) > 1:
				return fmt.Errorf("choose one of --create, --append, --replace, --merge")
			case !merge && len(key) > 0:
				return fmt.Errorf("--key is for --merge")
			case merge:
				mode = sqlsheet.Merge
			case appendTo:
				mode = sqlsheet.Append
			case replace:
				mode = sqlsheet.Replace
			}
			src, closeSrc, err := importSource(args[0], format, sheet, &pw, csvsheet.Options{Encoding: encoding, NoInfer: allText, MaxRecordSize: maxRecordMiB << 20}, delimiter)
			if err != nil {
				return err
			}
			defer closeSrc()
			db, err := sqlsheet.Open(dbURL)
			if err != nil {
				return err
			}
			defer db.Close()
			opts := sqlsheet.ImportOptions{Table: table, Mode: mode, Key: key, DryRun: dryRun, Infer: infer, NoHeader: noHeader, StopAtEmpty: stopAtEmpty, Columns: columns, AllText: allText}
			for _, tv := range types {
				name, typ, ok := strings.Cut(tv, "=")
				if !ok || strings.TrimSpace(name) == "" {
					return fmt.Errorf("--type %q: give NAME=TYPE", tv)
				}
				ct, err := sqlsheet.ParseColumnType(typ)
				if err != nil {
					return fmt.Errorf("--type %q: %w", tv, err)
				}
				if opts.Types == nil {
					opts.Types = map[string]sqlsheet.ColumnType{}
				}
				opts.Types[name] = ct
			}
			if rangeText != "" {
				if opts.Range, err = sqlsheet.ParseTableRange(rangeText); err != nil {
					return fmt.Errorf("--range: %w", err)
				}
			}
			switch headerRow {
			case "":
			case "auto":
				opts.HeaderRow = sqlsheet.HeaderAuto
			default:
				n, err := strconv.Atoi(headerRow)
				if err != nil || n < 0 {
					return fmt.Errorf("--header-row: %q is not a row number or auto", headerRow)
				}
				opts.HeaderRow, opts.NoHeader = n, noHeader || n == 0
			}
			if maxErrors < 0 || rejectsPath != "" && maxErrors == 0 {
				return fmt.Errorf("--rejects needs --max-errors N, N above 0")
			}
			opts.MaxErrors = maxErrors
			if rejectsPath != "" {
				rejects, err := os.OpenFile(rejectsPath, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
				if err != nil {
					return err
				}
				defer rejects.Close()
				w := bufio.NewWriter(rejects)
				opts.Rejects = w
				defer func() {
					if err := w.Flush(); err != nil && retErr == nil {
						retErr = fmt.Errorf("%s: %w", rejectsPath, err)
					}
					if retErr != nil {
						os.Remove(rejectsPath) // nothing was loaded: no rows were rejected
					}
				}()
			}
			bar := newProgress(-1, "importing rows", false)
			if bar != nil {
				opts.Progress = func(rows int64) { bar.Set64(rows) }
			}
			st, err := sqlsheet.ImportFrom(cmd.Context(), db, src, opts)
			if bar != nil {
				bar.Finish()
			}
			if err != nil {
				return fmt.Errorf("%s: %w", inputName(args[0]), withRecordHint(err))
			}
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
			if merge && len(key) == 0 {
				fmt.Fprintf(os.Stderr, "key: %s (the exported table's, or the target's primary key)\n", strings.Join(st.MergeKey, ", "))
			}
			from := inputName(args[0])
			if name := src.SheetName(); name != "" {
				from = fmt.Sprintf("sheet %q", name)
			}
			fmt.Fprintln(os.Stderr, importSummary(st, mode, dryRun, from, table, strings.Join(cols, ", ")))
			if st.Rejected > 0 {
				where := "; give --rejects FILE.csv to keep them"
				if rejectsPath != "" {
					where = ", written to " + rejectsPath
				}
				fmt.Fprintf(os.Stderr, "rejected %d rows%s\n", st.Rejected, where)
			}
			if st.ErrorCells > 0 {
				fmt.Fprintf(os.Stderr, "note: %d error values (#N/A...) loaded as NULL\n", st.ErrorCells)
			}
			if len(st.Binary) > 0 {
				what := "left NULL in the new table"
				if mode == sqlsheet.Append || mode == sqlsheet.Merge {
					what = "left as the table has them"
				}
				fmt.Fprintf(os.Stderr, "note: binary columns %s, which the file holds as placeholders or text, not bytes: %s\n", strings.Join(st.Binary, ", "), what)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dbURL, "db", "", "database URL: sqlite:path.db, postgres://..., mysql://...")
	cmd.Flags().StringVar(&table, "table", "", "target table (schema.table for another schema or database)")
	cmd.Flags().StringVar(&sheet, "sheet", "", "sheet name or 1-based index (default: the first)")
	cmd.Flags().BoolVar(&create, "create", false, "create the table (the default; fails if it exists)")
	cmd.Flags().BoolVar(&appendTo, "append", false, "append to an existing table")
	cmd.Flags().BoolVar(&replace, "replace", false, "replace the table once every row is in")
	cmd.Flags().BoolVar(&merge, "merge", false, "merge into an existing table on --key: insert new keys, update changed rows, leave the rest")
	cmd.Flags().StringSliceVar(&key, "key", nil, "the columns that identify a row, for --merge (comma-separated; default: the exported table's key, or the target's primary key)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "read and check every row against the table, say what would change, and change nothing")
	cmd.Flags().BoolVar(&noHeader, "no-header", false, "the first row is data; columns are col1, col2...")
	cmd.Flags().StringVar(&rangeText, "range", "", "the table's cells, such as A4:F (open-ended) or B:D")
	cmd.Flags().StringVar(&headerRow, "header-row", "", `the header's row within the range, 1-based; 0: no header; "auto": found (default: the first row that is not empty)`)
	cmd.Flags().BoolVar(&stopAtEmpty, "stop-at-empty", false, "end the table at its first empty row")
	cmd.Flags().StringSliceVar(&columns, "columns", nil, "load only these columns, by header name (comma-separated)")
	cmd.Flags().StringArrayVar(&types, "type", nil, "NAME=TYPE: create column NAME as text, integer, float, decimal, boolean, date, timestamp, timestamptz or time instead of the inferred type; repeatable")
	cmd.Flags().BoolVar(&allText, "all-text", false, "create every column as text")
	cmd.Flags().BoolVar(&infer, "infer", false, "infer column types from the cells even when the workbook records them (a sheetstream export's schema part)")
	cmd.Flags().IntVar(&maxErrors, "max-errors", 0, "skip up to N rows holding a cell their column cannot, or that the table refuses (default 0: the first such row fails the import)")
	cmd.Flags().StringVar(&rejectsPath, "rejects", "", "write the rows --max-errors skipped, with the reason, to this CSV file")
	cmd.Flags().StringVar(&format, "format", "", "the input's format: xlsx, xlsb, xls, ods (workbooks: read as their bytes say), csv or tsv (default: from the extension; standard input is sniffed)")
	cmd.Flags().StringVar(&delimiter, "delimiter", "", `CSV field delimiter (default from the extension; "tab" or \t for tabs)`)
	cmd.Flags().StringVar(&encoding, "encoding", "", encodingHelp)
	cmd.Flags().IntVar(&maxRecordMiB, "max-record-mib", 64, maxRecordHelp)
	pw.readFlags(cmd)
	return cmd
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
		} else if ext == ".tsv" || ext == ".tab" {
			format = "tsv"
		} else if ext == ".csv" || ext == ".txt" || path == "-" {
			format = "csv"
		} else {
			return nil, nil, fmt.Errorf("%s: give --format: the extension names no format (xlsx, xlsb, xls, ods, csv, tsv)", path)
		}
	case "xlsx", "xlsm", "xlsb", "xls", "ods", "csv", "tsv":
	default:
		return nil, nil, fmt.Errorf("--format %q: xlsx, xlsb, xls, ods, csv or tsv", format)
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
