package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// sources keeps --query and --table in the order given, so sheets come
// out in that order.
type sources struct{ list []sqlsheet.Query }

type sourceFlag struct {
	s     *sources
	table bool
}

func (f sourceFlag) String() string { return "" }
func (f sourceFlag) Type() string   { return "string" }
func (f sourceFlag) Set(v string) error {
	q := sqlsheet.Query{SQL: v}
	if f.table {
		parts := strings.Split(v, ".")
		for i, p := range parts {
			parts[i] = `"` + strings.ReplaceAll(p, `"`, `""`) + `"`
		}
		q = sqlsheet.Query{SQL: "SELECT * FROM " + strings.Join(parts, "."), Sheet: v, Table: v}
	}
	f.s.list = append(f.s.list, q)
	return nil
}

// queryFlag attaches a repeatable flag's value (--chart, --pivot) to
// the --query or --table before it, or to every query when it comes
// first.
type queryFlag[T any] struct {
	s     *sources
	all   *[]T
	typ   string
	parse func(string) (T, error)
	field func(*sqlsheet.Query) *[]T // the query's list the value joins
}

func (f queryFlag[T]) String() string { return "" }
func (f queryFlag[T]) Type() string   { return f.typ }
func (f queryFlag[T]) Set(v string) error {
	x, err := f.parse(v)
	if err != nil {
		return err
	}
	if n := len(f.s.list); n > 0 {
		list := f.field(&f.s.list[n-1])
		*list = append(*list, x)
	} else {
		*f.all = append(*f.all, x)
	}
	return nil
}

// parseEach reads each value of a repeatable flag.
func parseEach[T any](flag string, values []string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, v := range values {
		x, err := parse(v)
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", flag, err)
		}
		out = append(out, x)
	}
	return out, nil
}

const chartHelp = `a chart beside the rows, TYPE:CATEGORIES:VALUES[,VALUES...] of column names
(e.g. column:month:revenue,cost; line::revenue without categories); repeatable.
Types: column, column-stacked, bar, line, line-markers, area, pie, doughnut,
scatter, scatter-smooth, radar, stock and their variants (docs/cli.md#charts)`

const pivotHelp = `a pivot table on a sheet of its own ("Pivot", "Pivot 2"...), computed as the rows are written:
ROWS:COLUMNS:FUNC(COL)[,FUNC(COL)...] of column names, ROWS and COLUMNS joined with + (COLUMNS may be empty);
FUNC is sum, count, average, min, max, countnums, stddev or var (e.g. city::sum(amount),average(amount);
region+city:year:sum(amount)); repeatable (docs/cli.md#pivot-tables)`

// exportFlags are export's flags, as given.
type exportFlags struct {
	src                    sources
	dbURL, out, tz, null   string
	binary                 string
	sheets                 []string
	demo, strict, forceNum bool
	noSchema, excelTable   bool
	provenance             bool
	charts                 []sqlsheet.Chart  // for every query: given before any
	pivots                 []xlsx.PivotTable // the same
	template               string
	sets                   []string
	setTexts               []string
	templatePasswordFile   string
	byPosition             bool
	format                 string
	pw                     password
}

func exportCmd() *cobra.Command {
	var f exportFlags
	cmd := &cobra.Command{
		Use:   "export --db URL (--query SQL | --table T)... -o OUT.xlsx|.csv|.tsv|.jsonl|.parquet|.arrow|.feather",
		Short: "Export query results from SQLite, PostgreSQL or MySQL to XLSX",
		Long: `Export the results of SQL queries to an XLSX workbook, one sheet per query.

Database URLs: sqlite:path/to.db, postgres://user:pass@host/db, mysql://user:pass@host/db.
Cells are typed from the column types; each sheet gets a bold frozen header, an
autofilter and fitted column widths; results past 1,048,575 rows continue on
"NAME (2)". --demo exports sample data from an embedded SQLite database.

Every flag, and how types are mapped:
https://github.com/sheetstream/sheetstream/blob/main/docs/cli.md#export`,
		Example: `  sheetstream export --demo
  sheetstream export --db sqlite:shop.db --table orders -o orders.xlsx
  sheetstream export --db postgres://localhost/shop --query "SELECT * FROM sales" --sheet Sales -o sales.xlsx`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExport(cmd.Context(), &f)
		},
	}
	f.register(cmd)
	return cmd
}

func (f *exportFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.dbURL, "db", "", "database URL (sqlite:, postgres://, mysql://)")
	fl.Var(sourceFlag{&f.src, false}, "query", "SQL query; repeat for more sheets")
	fl.Var(sourceFlag{&f.src, true}, "table", "export a whole table (SELECT * FROM T); repeatable")
	fl.StringSliceVar(&f.sheets, "sheet", nil, "sheet name for each query or table, in order")
	fl.StringVarP(&f.out, "output", "o", "", `output file ("-" for stdout); its extension says the format: .xlsx, .xlsm, .csv, .tsv, .jsonl, .parquet, .arrow, .feather`)
	fl.StringVar(&f.format, "format", "", "xlsx, csv, tsv, jsonl, parquet, arrow or feather (default: from -o's extension; xlsx for stdout)")
	fl.StringVar(&f.tz, "tz", "UTC", "time zone that timestamps with a zone are converted to")
	fl.StringVar(&f.null, "null", "", "text written for NULL (default: empty cell)")
	fl.StringVar(&f.binary, "binary", "placeholder", "binary columns as placeholder, hex or base64")
	fl.BoolVar(&f.strict, "strict", false, "fail on text longer than a cell holds instead of truncating")
	fl.BoolVar(&f.forceNum, "force-numbers", false, "write integers beyond 2^53 and long decimals as numbers (Excel rounds them)")
	fl.BoolVar(&f.excelTable, "excel-table", false, excelTableHelp)
	fl.Var(queryFlag[sqlsheet.Chart]{&f.src, &f.charts, "TYPE:CATEGORIES:VALUES", sqlsheet.ParseChart, func(q *sqlsheet.Query) *[]sqlsheet.Chart { return &q.Charts }}, "chart", chartHelp+"\n(a --chart after a --query or --table is that one's; before any, every query's)")
	fl.Var(queryFlag[xlsx.PivotTable]{&f.src, &f.pivots, "ROWS:COLUMNS:FUNC(COL)", xlsx.ParsePivot, func(q *sqlsheet.Query) *[]xlsx.PivotTable { return &q.Pivots }}, "pivot", pivotHelp+"\n(a --pivot after a --query or --table is that one's; before any, every query's)")
	fl.StringVar(&f.template, "template", "", "fill this workbook (.xlsx, .xlsm, .xltx, .xltm) instead of new sheets: each query's rows go into the table of the sheet --sheet names (or below its last row), everything else kept")
	fl.StringArrayVar(&f.sets, "set", nil, "with --template: NAME=VALUE for {{NAME}} in the template's text (a number or ISO date fills a cell that is only {{NAME}} typed); repeatable")
	fl.StringArrayVar(&f.setTexts, "set-text", nil, "with --template: NAME=VALUE kept as text, however it reads; repeatable")
	fl.StringVar(&f.templatePasswordFile, "template-password-file", "", "with --template: the encrypted template's password, on the first line of FILE (else "+passwordEnv+" or the terminal)")
	fl.BoolVar(&f.byPosition, "by-position", false, "with --template: match the table's columns to the query's by position, not by name")
	fl.BoolVar(&f.noSchema, "no-schema", false, "leave out the schema part (each column's SQL type and the table's primary key, for import)")
	fl.BoolVar(&f.demo, "demo", false, "export sample data from an embedded SQLite database")
	fl.BoolVar(&f.provenance, "provenance", false, "add a last sheet \"Provenance\": the database (without its password), who ran the export and when, each sheet's rows and query")
	f.pw.writeFlags(cmd)
}

// options turns the flags into the library's options.
func (f *exportFlags) options() (sqlsheet.Options, error) {
	opts := sqlsheet.Options{Null: f.null, Strict: f.strict, ForceNumbers: f.forceNum, NoSchema: f.noSchema, ExcelTable: f.excelTable}
	loc, err := time.LoadLocation(f.tz)
	if err != nil {
		return opts, fmt.Errorf("--tz: %w", err)
	}
	opts.Location = loc
	switch f.binary {
	case "placeholder":
	case "hex":
		opts.Binary = sqlsheet.BinaryHex
	case "base64":
		opts.Binary = sqlsheet.BinaryBase64
	default:
		return opts, fmt.Errorf("--binary must be placeholder, hex or base64")
	}
	return opts, nil
}

// runExport opens the database (creating the demo's), names the sheets
// and writes the workbook.
func runExport(ctx context.Context, f *exportFlags) error {
	if f.demo {
		if f.out == "" {
			f.out = "sheetstream-demo.xlsx"
		}
		if f.dbURL == "" {
			dir, err := os.MkdirTemp("", "sheetstream-demo-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(dir)
			f.dbURL = "sqlite:" + filepath.Join(dir, "demo.db")
		}
	}
	if f.dbURL == "" {
		return fmt.Errorf("--db is required (or --demo)")
	}
	if f.out == "" {
		return fmt.Errorf("-o is required")
	}
	if f.out != "-" {
		if err := checkOutputPath(f.out); err != nil {
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
	// An export only reads: a SQLite file must exist and is opened
	// read-only (the demo writes its database first).
	open := sqlsheet.OpenReadOnly
	if f.demo {
		open = sqlsheet.Open
	}
	db, err := open(f.dbURL)
	if err != nil {
		return err
	}
	defer db.Close()
	queries := f.src.list
	if f.demo {
		if err := createDemo(ctx, db); err != nil {
			return fmt.Errorf("demo database: %w", err)
		}
		if len(queries) == 0 {
			queries = slices.Clone(demoQueries) // --sheet renames them
		}
	}
	if len(queries) == 0 {
		return fmt.Errorf("give at least one --query or --table")
	}
	if len(f.sheets) > len(queries) {
		return fmt.Errorf("%d --sheet names for %d queries", len(f.sheets), len(queries))
	}
	for i, name := range f.sheets {
		queries[i].Sheet = name
	}
	for i := range queries {
		queries[i].Charts = append(slices.Clone(f.charts), queries[i].Charts...)
		queries[i].Pivots = append(slices.Clone(f.pivots), queries[i].Pivots...)
	}
	format, err := exportFormat(f.out, f.format)
	if err != nil {
		return err
	}
	if format != "xlsx" {
		switch {
		case len(queries) > 1:
			return fmt.Errorf("%s: a %s file holds one query's rows, and %d are given: export one --query or --table, or write .xlsx", f.out, format, len(queries))
		case f.template != "":
			return fmt.Errorf("%s: --template fills a workbook: write .xlsx", f.out)
		case f.pw.asked():
			return fmt.Errorf("%s: only a workbook is encrypted: write .xlsx", f.out)
		case len(queries[0].Charts) > 0:
			return fmt.Errorf("%s: a %s file has no charts: write .xlsx, or leave out --chart", f.out, format)
		case f.provenance:
			return fmt.Errorf("%s: --provenance adds a sheet: write .xlsx", f.out)
		case len(queries[0].Pivots) > 0:
			return fmt.Errorf("%s: a %s file has no pivot tables: write .xlsx, or leave out --pivot", f.out, format)
		}
		return writeQueryFile(ctx, db, queries[0], f.out, format, opts)
	}
	secret, err := f.pw.forWriting()
	if err != nil {
		return err
	}
	if f.template != "" {
		values, err := parseSets(f.sets, f.setTexts)
		if err != nil {
			return err
		}
		tplPassword, err := templatePassword(f.template, f.templatePasswordFile, &f.pw)
		if err != nil {
			return err
		}
		if f.provenance {
			return fmt.Errorf("--provenance adds a sheet, which --template does not: name the provenance in the template with --set placeholders")
		}
		for _, q := range queries {
			if len(q.Pivots) > 0 {
				return fmt.Errorf("--pivot adds a sheet, which --template does not: design the pivot in the template (its cache is refreshed when opened)")
			}
		}
		topts := xlsx.TemplateOptions{Options: xlsx.Options{Password: secret}, Values: values, ByPosition: f.byPosition, TemplatePassword: tplPassword}
		return writeTemplateExport(ctx, db, queries, f.template, f.out, topts, opts)
	}
	if len(f.sets) > 0 || len(f.setTexts) > 0 || f.byPosition || f.templatePasswordFile != "" {
		return fmt.Errorf("--set, --set-text, --by-position and --template-password-file go with --template")
	}
	var prov *sqlsheet.Provenance
	if f.provenance {
		prov = &sqlsheet.Provenance{Export: "sheetstream export", Caller: whoRuns(), Database: sqlsheet.RedactURL(f.dbURL)}
	}
	err = writeExport(ctx, db, queries, f.out, secret, prov, opts)
	if err != nil && len(f.charts) > 0 && len(queries) > 1 && errors.Is(err, xlsx.ErrNoColumn) {
		err = fmt.Errorf("%w (a --chart given before any --query is every query's: give it after the --query or --table it is for)", err)
	}
	return err
}

// exportFormat is the format export writes: --format, else out's
// extension (a workbook for stdout); an extension it cannot write is an
// error naming those it can.
func exportFormat(out, flag string) (string, error) {
	if flag != "" {
		switch f := strings.ToLower(flag); f {
		case "xlsx", "csv", "tsv", "jsonl", "parquet", "arrow", "feather":
			return f, nil
		}
		return "", fmt.Errorf("--format %q: want xlsx, csv, tsv, jsonl, parquet, arrow or feather", flag)
	}
	if out == "-" {
		return "xlsx", nil
	}
	switch ext := strings.ToLower(filepath.Ext(out)); ext {
	case ".xlsx", ".xlsm":
		return "xlsx", nil
	case ".csv", ".tsv", ".jsonl", ".parquet", ".arrow", ".feather":
		return ext[1:], nil
	case ".ndjson":
		return "jsonl", nil
	case "":
		return "", fmt.Errorf("%s: give the file an extension saying its format (.xlsx, .csv, .tsv, .jsonl, .parquet or .arrow), or --format", out)
	default:
		return "", fmt.Errorf("%s: export writes .xlsx, .xlsm, .csv, .tsv, .jsonl, .parquet, .arrow or .feather, not %s (--format names one for any file name)", out, ext)
	}
}

// writeQueryFile writes one query's rows to out as CSV, TSV or JSON
// lines (objects keyed by the column names), as the service's CSV
// download does but without escaping formulas: the file is the data; or
// as Parquet or Arrow (typed columns).
func writeQueryFile(ctx context.Context, db *sql.DB, q sqlsheet.Query, out, format string, opts sqlsheet.Options) error {
	start := time.Now()
	o, err := createOutput(out)
	if err != nil {
		return err
	}
	dst, finish := queryDestination(o.Writer(), format)
	st, err := sqlsheet.ExportTo(ctx, db, dst, []sqlsheet.Query{q}, opts)
	if ferr := finish(err); err == nil {
		err = ferr
	}
	if err != nil {
		o.abort()
		return err
	}
	if err := o.commit(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s: %d rows as %s in %.2fs\n", outputWhere(out), st.Rows, strings.ToUpper(format), time.Since(start).Seconds())
	return nil
}

// queryDestination is where writeQueryFile's rows go in format, and
// what finishes it once the export has ended (with err, if it failed).
func queryDestination(w io.Writer, format string) (sqlsheet.Destination, func(err error) error) {
	if columnarFormat("."+format) != "" {
		return columnarDestination(w, format)
	}
	f, _ := csvsheet.ParseFormat(format)
	rows := csvsheet.NewRowWriter(w, csvsheet.WriteOptions{Format: f, Records: f == csvsheet.JSONL})
	return sqlsheet.Lines(rows), func(err error) error {
		if err != nil {
			return nil
		}
		return rows.Flush()
	}
}

// outputWhere names an output for a person: its absolute path, or stdout.
func outputWhere(out string) string {
	if out == "-" {
		return "stdout"
	}
	if abs, err := filepath.Abs(out); err == nil {
		return abs
	}
	return out
}

// writeExport writes the queries to out and says what it wrote.
// With prov, a last sheet says where the rows came from.
func writeExport(ctx context.Context, db *sql.DB, queries []sqlsheet.Query, out, password string, prov *sqlsheet.Provenance, opts sqlsheet.Options) error {
	bar := newProgress(-1, "exporting rows", false)
	if bar != nil {
		opts.Progress = func(rows int64) { bar.Set64(rows) }
	}
	start := time.Now()
	var st sqlsheet.Stats
	err := writeWorkbook(out, xlsx.Options{Password: password}, func(w *xlsx.Writer) error {
		var err error
		st, err = sqlsheet.Export(ctx, db, w, queries, opts)
		if err == nil && prov != nil {
			prov.At = time.Now()
			err = sqlsheet.WriteProvenance(w, *prov, queries, st)
		}
		return err
	})
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s: %d rows in %d sheet(s) (%s) in %.2fs\n",
		outputWhere(out), st.Rows, len(st.Sheets), strings.Join(st.Sheets, ", "), time.Since(start).Seconds())
	if w := st.Warnings; w.Total() > 0 {
		fmt.Fprintf(os.Stderr, "note: %d values written as text to keep them exact (%d numbers beyond 15 digits, %d dates outside 1900-9999), %d texts cut to 32,767 characters\n",
			w.BigNumbers+w.DatesOutOfRange, w.BigNumbers, w.DatesOutOfRange, w.Truncated)
	}
	return nil
}

// whoRuns names the user running the command, for a provenance sheet:
// USER@HOST as the system knows them.
func whoRuns() string {
	name := "?"
	if u, err := user.Current(); err == nil {
		name = u.Username
	}
	if host, err := os.Hostname(); err == nil {
		name += "@" + host
	}
	return name
}
