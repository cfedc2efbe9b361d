package main

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

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

func exportCmd() *cobra.Command {
	var (
		src                    sources
		dbURL, out, tz, null   string
		binary                 string
		sheets                 []string
		demo, strict, forceNum bool
		noSchema, excelTable   bool
		pw                     password
	)
	cmd := &cobra.Command{
		Use:   "export --db URL (--query SQL | --table T)... -o OUT.xlsx",
		Short: "Export query results from SQLite, PostgreSQL or MySQL to XLSX",
		Long: `Export the results of SQL queries to an XLSX workbook, one sheet per query.

Database URLs: sqlite:path/to.db, postgres://user:pass@host/db, mysql://user:pass@host/db.
Cells are typed from the column types; each sheet gets a bold frozen header, an
autofilter and fitted column widths; results past 1,048,575 rows continue on
"NAME (2)". --demo exports sample data from an embedded SQLite database.`,
		Example: `  sheetstream export --demo
  sheetstream export --db sqlite:shop.db --table orders -o orders.xlsx
  sheetstream export --db postgres://localhost/shop --query "SELECT * FROM sales" --sheet Sales -o sales.xlsx`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if demo {
				if out == "" {
					out = "sheetstream-demo.xlsx"
				}
				if dbURL == "" {
					dir, err := os.MkdirTemp("", "sheetstream-demo-")
					if err != nil {
						return err
					}
					defer os.RemoveAll(dir)
					dbURL = "sqlite:" + filepath.Join(dir, "demo.db")
				}
			}
			if dbURL == "" {
				return fmt.Errorf("--db is required (or --demo)")
			}
			if out == "" {
				return fmt.Errorf("-o is required")
			}
			opts := sqlsheet.Options{Null: null, Strict: strict, ForceNumbers: forceNum, NoSchema: noSchema, ExcelTable: excelTable}
			loc, err := time.LoadLocation(tz)
			if err != nil {
				return fmt.Errorf("--tz: %w", err)
			}
			opts.Location = loc
			switch binary {
			case "placeholder":
			case "hex":
				opts.Binary = sqlsheet.BinaryHex
			case "base64":
				opts.Binary = sqlsheet.BinaryBase64
			default:
				return fmt.Errorf("--binary must be placeholder, hex or base64")
			}
			// An export only reads: a SQLite file must exist and is opened
			// read-only (the demo writes its database first).
			open := sqlsheet.OpenReadOnly
			if demo {
				open = sqlsheet.Open
			}
			db, err := open(dbURL)
			if err != nil {
				return err
			}
			defer db.Close()
			if demo {
				if err := createDemo(ctx, db); err != nil {
					return fmt.Errorf("demo database: %w", err)
				}
				if len(src.list) == 0 {
					src.list = demoQueries
				}
			}
			if len(src.list) == 0 {
				return fmt.Errorf("give at least one --query or --table")
			}
			if len(sheets) > len(src.list) {
				return fmt.Errorf("%d --sheet names for %d queries", len(sheets), len(src.list))
			}
			for i, name := range sheets {
				src.list[i].Sheet = name
			}
			secret, err := pw.forWriting()
			if err != nil {
				return err
			}
			return runExport(cmd, db, src.list, out, secret, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&dbURL, "db", "", "database URL (sqlite:, postgres://, mysql://)")
	f.Var(sourceFlag{&src, false}, "query", "SQL query; repeat for more sheets")
	f.Var(sourceFlag{&src, true}, "table", "export a whole table (SELECT * FROM T); repeatable")
	f.StringSliceVar(&sheets, "sheet", nil, "sheet name for each query or table, in order")
	f.StringVarP(&out, "output", "o", "", `output file ("-" for stdout)`)
	f.StringVar(&tz, "tz", "UTC", "time zone that timestamps with a zone are converted to")
	f.StringVar(&null, "null", "", "text written for NULL (default: empty cell)")
	f.StringVar(&binary, "binary", "placeholder", "binary columns as placeholder, hex or base64")
	f.BoolVar(&strict, "strict", false, "fail on text longer than a cell holds instead of truncating")
	f.BoolVar(&forceNum, "force-numbers", false, "write integers beyond 2^53 and long decimals as numbers (Excel rounds them)")
	f.BoolVar(&excelTable, "excel-table", false, excelTableHelp)
	f.BoolVar(&noSchema, "no-schema", false, "leave out the schema part (each column's SQL type and the table's primary key, for import)")
	f.BoolVar(&demo, "demo", false, "export sample data from an embedded SQLite database")
	pw.writeFlags(cmd)
	return cmd
}

func runExport(cmd *cobra.Command, db *sql.DB, queries []sqlsheet.Query, out, password string, opts sqlsheet.Options) error {
	bar := newProgress(-1, "exporting rows", false)
	if bar != nil {
		opts.Progress = func(rows int64) { bar.Set64(rows) }
	}
	start := time.Now()
	var st sqlsheet.Stats
	err := writeWorkbook(out, xlsx.Options{Password: password}, func(w *xlsx.Writer) error {
		var err error
		st, err = sqlsheet.Export(cmd.Context(), db, w, queries, opts)
		return err
	})
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return err
	}
	where := "stdout"
	if out != "-" {
		if abs, err := filepath.Abs(out); err == nil {
			where = abs
		}
	}
	fmt.Fprintf(os.Stderr, "wrote %s: %d rows in %d sheet(s) (%s) in %.2fs\n",
		where, st.Rows, len(st.Sheets), strings.Join(st.Sheets, ", "), time.Since(start).Seconds())
	if w := st.Warnings; w.Total() > 0 {
		fmt.Fprintf(os.Stderr, "note: %d values written as text to keep them exact (%d numbers beyond 15 digits, %d dates outside 1900-9999), %d texts cut to 32,767 characters\n",
			w.BigNumbers+w.DatesOutOfRange, w.BigNumbers, w.DatesOutOfRange, w.Truncated)
	}
	return nil
}
