package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

func catCmd() *cobra.Command {
	var (
		sheet, format string
		cells, all    bool
		escape        bool
		workers       int
		pw            password
	)
	cmd := &cobra.Command{
		Use:   "cat FILE.xlsx|-",
		Short: "Print a sheet as a table, CSV, TSV or JSON lines",
		Long: `Print the rows of a sheet (the first one unless --sheet names one, by name
or 1-based index; --all-sheets prints them all). "-" reads the workbook from
standard input. Workbooks are read in the format their bytes are, whatever
their name: .xlsx/.xlsm, .xlsb, .xls (Excel 97-2003 and 5.0/95) and .ods.

Formats: table (aligned, for a terminal), csv, tsv, jsonl (one object per row:
{"sheet","row","values"}). With --cells --format jsonl, one object per
non-empty cell: {"sheet","row","col","type","value"}, type one of number,
string, bool, date, error. Numbers are printed in their shortest exact form,
dates as ISO 8601 (2024-02-29T00:00:00; a time of day as 13:45:00).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := csvsheet.CSV
			table := format == "table"
			if !table {
				var ok bool
				if f, ok = csvsheet.ParseFormat(format); !ok {
					return fmt.Errorf("--format %q: want table, csv, tsv or jsonl", format)
				}
			}
			if cells {
				if format != "jsonl" {
					return fmt.Errorf("--cells needs --format jsonl")
				}
				f = csvsheet.JSONLCells
			}
			wb, closeWB, err := openWorkbook(args[0], xlsx.ReadOptions{Workers: workers}, os.Stdin, &pw)
			if err != nil {
				return err
			}
			defer closeWB()
			sheets, err := pickSheets(wb, sheet, all)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			out := os.Stdout
			for i, s := range sheets {
				if all && (table || f == csvsheet.CSV || f == csvsheet.TSV) {
					if i > 0 {
						fmt.Fprintln(out)
					}
					fmt.Fprintf(out, "# %s\n", s.Name)
				}
				if err := catSheet(cmd.Context(), out, wb, s, csvsheet.WriteOptions{Format: f, EscapeFormulas: escape}, table); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&sheet, "sheet", "", "sheet name or 1-based index (default: the first)")
	cmd.Flags().StringVar(&format, "format", "table", "table, csv, tsv or jsonl")
	cmd.Flags().BoolVar(&cells, "cells", false, "with --format jsonl: one object per non-empty cell")
	cmd.Flags().BoolVar(&all, "all-sheets", false, "print every worksheet")
	cmd.Flags().IntVar(&workers, "workers", 0, "parsing goroutines (0: one per CPU)")
	cmd.Flags().BoolVar(&escape, "escape-formulas", false, escapeFormulasHelp)
	pw.readFlags(cmd)
	return cmd
}

const escapeFormulasHelp = "csv/tsv: put an apostrophe before text starting with = + - @ tab or CR, so a spreadsheet does not run it (CSV injection)"

// pickSheets finds the sheets a command works on: the one named (or
// numbered from 1), every worksheet, or the first worksheet.
func pickSheets(wb *xlsx.Workbook, name string, all bool) ([]xlsx.SheetInfo, error) {
	sheets := wb.Sheets()
	var out []xlsx.SheetInfo
	switch {
	case all:
		for _, s := range sheets {
			if s.Kind == xlsx.SheetKindWorksheet {
				out = append(out, s)
			}
		}
	case name != "":
		if s, ok := wb.Sheet(name); ok {
			return []xlsx.SheetInfo{s}, nil
		}
		if n, err := strconv.Atoi(name); err == nil && n >= 1 && n <= len(sheets) {
			return []xlsx.SheetInfo{sheets[n-1]}, nil
		}
		names := make([]string, len(sheets))
		for i, s := range sheets {
			names[i] = strconv.Quote(s.Name)
		}
		return nil, fmt.Errorf("no sheet %q; the workbook has %s", name, strings.Join(names, ", "))
	default:
		for _, s := range sheets {
			if s.Kind == xlsx.SheetKindWorksheet {
				return []xlsx.SheetInfo{s}, nil
			}
		}
	}
	if len(out) == 0 && !all {
		return nil, fmt.Errorf("the workbook has no worksheet")
	}
	return out, nil
}

func catSheet(ctx context.Context, w io.Writer, wb *xlsx.Workbook, s xlsx.SheetInfo, opts csvsheet.WriteOptions, table bool) error {
	rows, err := wb.Rows(ctx, s.Index)
	if err != nil {
		return err
	}
	defer rows.Close()
	if table {
		return writeTable(w, rows)
	}
	_, err = csvsheet.WriteWith(ctx, w, rows, opts)
	return err
}

// oneLine keeps a table cell on one line.
var oneLine = strings.NewReplacer("\n", "⏎", "\r", "", "\t", " ")

// writeTable prints rows aligned under column letters, with row numbers,
// each column as wide as its widest value in the first rows (at most
// maxWidth; longer values are cut with an ellipsis).
func writeTable(w io.Writer, rows *xlsx.Rows) error {
	const sample, maxWidth = 200, 40
	type row struct {
		num   int
		cells map[int]string
	}
	var buffered []row
	widths := map[int]int{}
	maxCol, numWidth := 0, 1
	flushHead := func() {
		var b strings.Builder
		fmt.Fprintf(&b, "%*s", numWidth, "")
		for c := 1; c <= maxCol; c++ {
			fmt.Fprintf(&b, "  %-*s", widths[c], xlsx.ColumnName(c))
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	printRow := func(r row) {
		var b strings.Builder
		fmt.Fprintf(&b, "%*d", numWidth, r.num)
		for c := 1; c <= maxCol; c++ {
			v := r.cells[c]
			if utf8.RuneCountInString(v) > widths[c] {
				v = string([]rune(v)[:max(widths[c]-1, 0)]) + "…"
			}
			pad := widths[c] - utf8.RuneCountInString(v)
			b.WriteString("  ")
			if _, isNum := strconv.ParseFloat(v, 64); isNum == nil {
				b.WriteString(strings.Repeat(" ", pad) + v)
			} else {
				b.WriteString(v + strings.Repeat(" ", pad))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	toRow := func(r xlsx.Row) row {
		out := row{num: r.Num, cells: map[int]string{}}
		for i := range r.Cells {
			c := &r.Cells[i]
			out.cells[c.Col()] = oneLine.Replace(c.String())
		}
		return out
	}
	n := 0
	for rows.Next() {
		r := toRow(rows.Row())
		n++
		if n <= sample {
			buffered = append(buffered, r)
			for c, v := range r.cells {
				widths[c] = min(max(widths[c], utf8.RuneCountInString(v), len(xlsx.ColumnName(c))), maxWidth)
				maxCol = max(maxCol, c)
			}
			numWidth = max(numWidth, len(strconv.Itoa(r.num))+1)
			if n == sample {
				flushHead()
				for _, b := range buffered {
					printRow(b)
				}
				buffered = nil
			}
			continue
		}
		printRow(r)
	}
	if n < sample {
		if n > 0 {
			flushHead()
		}
		for _, b := range buffered {
			printRow(b)
		}
	}
	return rows.Err()
}

const excelTableHelp = "make each sheet an Excel table (banded rows, filter buttons, structured references) instead of a header with an autofilter"
