package main

import (
	"fmt"
	"os"
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
		noHeader                  bool
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
sheet, row and column, and the database is left as it was.`,
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
			opts := sqlsheet.ImportOptions{Table: table, Mode: mode, NoHeader: noHeader}
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
	pw.readFlags(cmd)
	return cmd
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
