package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

func importCmd() *cobra.Command {
	var (
		pw                        password
		dbURL, table, sheet       string
		create, appendTo, replace bool
		noHeader, stopAtEmpty     bool
		rangeText, headerRow      string
		columns, types            []string
		allText                   bool
	)
	cmd := &cobra.Command{
		Use:   "import FILE.xlsx|- --db URL --table T",
		Short: "Load a sheet into a database table, all or nothing",
		Long: `Load a sheet (the first, or --sheet NAME|INDEX) into a table.

--create (the default) makes a new table with column types inferred from
the cells: integer, float, boolean, date, timestamp, time or text. --append
adds to an existing table, matching the header to its columns by name.
--replace swaps the table for the sheet once every row is in. Rows go in
one transaction (COPY for PostgreSQL, batched INSERTs for SQLite and
MySQL): a cell that does not fit stops the import with an error naming
sheet, row and column, and the database is left as it was.

Reports rarely start at A1: --range A4:F (open-ended ranges allowed) takes
a rectangle, --header-row N the header's row within it (0: no header;
"auto": the first row of text right above data, which is printed),
--stop-at-empty ends the table at its first empty row, and --columns
loads only the named columns.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if dbURL == "" || table == "" {
				return fmt.Errorf("import needs --db and --table")
			}
			mode := sqlsheet.Create
			switch {
			case btoi(create)+btoi(appendTo)+btoi(replace) > 1:
				return fmt.Errorf("choose one of --create, --append, --replace")
			case appendTo:
				mode = sqlsheet.Append
			case replace:
				mode = sqlsheet.Replace
			}
			wb, closeWB, err := openWorkbook(args[0], xlsx.ReadOptions{}, os.Stdin, &pw)
			if err != nil {
				return err
			}
			defer closeWB()
			sheets, err := pickSheets(wb, sheet, false)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			db, err := sqlsheet.Open(dbURL)
			if err != nil {
				return err
			}
			defer db.Close()
			opts := sqlsheet.ImportOptions{Table: table, Mode: mode, NoHeader: noHeader, StopAtEmpty: stopAtEmpty, Columns: columns, AllText: allText}
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
			bar := newProgress(-1, "importing rows", false)
			if bar != nil {
				opts.Progress = func(rows int64) { bar.Set64(rows) }
			}
			st, err := sqlsheet.Import(cmd.Context(), db, wb, sheets[0].Index, opts)
			if bar != nil {
				bar.Finish()
			}
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			cols := make([]string, len(st.Columns))
			for i, c := range st.Columns {
				cols[i] = c.Name + " " + c.Type.String()
			}
			if opts.HeaderRow == sqlsheet.HeaderAuto {
				fmt.Fprintf(os.Stderr, "header: row %d\n", st.HeaderRow)
			}
			fmt.Fprintf(os.Stderr, "imported %d rows from sheet %q into %s (%s)\n", st.Rows, sheets[0].Name, table, strings.Join(cols, ", "))
			if st.ErrorCells > 0 {
				fmt.Fprintf(os.Stderr, "note: %d error values (#N/A...) loaded as NULL\n", st.ErrorCells)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dbURL, "db", "", "database URL: sqlite:path.db, postgres://..., mysql://...")
	cmd.Flags().StringVar(&table, "table", "", "target table")
	cmd.Flags().StringVar(&sheet, "sheet", "", "sheet name or 1-based index (default: the first)")
	cmd.Flags().BoolVar(&create, "create", false, "create the table (the default; fails if it exists)")
	cmd.Flags().BoolVar(&appendTo, "append", false, "append to an existing table")
	cmd.Flags().BoolVar(&replace, "replace", false, "replace the table once every row is in")
	cmd.Flags().BoolVar(&noHeader, "no-header", false, "the first row is data; columns are col1, col2...")
	cmd.Flags().StringVar(&rangeText, "range", "", "the table's cells, such as A4:F (open-ended) or B:D")
	cmd.Flags().StringVar(&headerRow, "header-row", "", `the header's row within the range, 1-based; 0: no header; "auto": found (default: the first row that is not empty)`)
	cmd.Flags().BoolVar(&stopAtEmpty, "stop-at-empty", false, "end the table at its first empty row")
	cmd.Flags().StringSliceVar(&columns, "columns", nil, "load only these columns, by header name (comma-separated)")
	cmd.Flags().StringArrayVar(&types, "type", nil, "NAME=TYPE: create column NAME as text, integer, float, boolean, date, timestamp or time instead of the inferred type; repeatable")
	cmd.Flags().BoolVar(&allText, "all-text", false, "create every column as text")
	pw.readFlags(cmd)
	return cmd
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
