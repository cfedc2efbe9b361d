package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

func catCmd() *cobra.Command {
	var (
		sheet, format string
		cells, all    bool
		escape        bool
		records       bool
		head, tail    int
		workers       int
		pw            password
		text          textFlags
	)
	cmd := &cobra.Command{
		Use:   "cat FILE.xlsx|.xlsm|.xlsb|.xls|.ods|.csv|.tsv|-",
		Short: "Print a sheet as a table, CSV, TSV or JSON lines",
		Long: `Print the rows of a sheet (the first one unless --sheet names one, by name
or 1-based index; --all-sheets prints them all). "-" reads the workbook from
standard input. Workbooks are read in the format their bytes are, whatever
their name: .xlsx/.xlsm, .xlsb, .xls (Excel 97-2003 and 5.0/95) and .ods.
CSV and TSV (.csv, .tsv, .tab, or with --delimiter) are typed by column
as convert types them, with convert's --delimiter, --quote, --lazy-quotes,
--decimal and --encoding.

Formats: table (aligned, for a terminal: fitted to its width, numbers as
Excel shows them, to 15 significant digits), csv, tsv, jsonl (one object per
row: {"sheet","row","values"}; with --records, one object per row keyed by
the header). With --cells --format jsonl, one object per non-empty cell:
{"sheet","row","col","type","value"}, type one of number, string, bool,
date, error. CSV, TSV and JSON print numbers in their shortest exact form and
dates as what they hold: 2024-02-29 for a day, 2024-02-29 13:45:00 for a
date-time (2024-02-29T13:45:00 in JSON), 13:45:00 for a time of day.`,
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
			if records && (format != "jsonl" || cells) {
				return fmt.Errorf("--records needs --format jsonl (without --cells)")
			}
			if head < 0 || tail < 0 || head > 0 && tail > 0 {
				return fmt.Errorf("give --head N or --tail N (N > 0), not both")
			}
			var wb *xlsx.Workbook
			var closeWB func() error
			var err error
			if text.asked(cmd) || isText(args[0]) {
				wb, closeWB, err = text.workbook(cmd.Context(), args[0])
			} else {
				wb, closeWB, err = openWorkbook(args[0], xlsx.ReadOptions{Workers: workers}, os.Stdin, &pw)
			}
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
				opts := csvsheet.WriteOptions{Format: f, EscapeFormulas: escape, Head: head, Tail: tail, Records: records}
				if err := catSheet(cmd.Context(), out, wb, s, opts, table); err != nil {
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
	cmd.Flags().IntVar(&head, "head", 0, "print the header (the first row) and the first N rows under it, in every format")
	cmd.Flags().IntVar(&tail, "tail", 0, "print the header (the first row) and the last N rows")
	cmd.Flags().BoolVar(&records, "records", false, `with --format jsonl: one object per row after the first, keyed by the first row's names ({"city":"Lisbon","orders":6588})`)
	cmd.Flags().IntVar(&workers, "workers", 0, "parsing goroutines (0: one per CPU)")
	cmd.Flags().BoolVar(&escape, "escape-formulas", false, escapeFormulasHelp)
	pw.readFlags(cmd)
	text.register(cmd)
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
		return writeTable(w, rows, opts.Head, opts.Tail)
	}
	_, err = csvsheet.WriteWith(ctx, w, rows, opts)
	return err
}

const excelTableHelp = "make each sheet an Excel table (banded rows, filter buttons, structured references) instead of a header with an autofilter"

// textFlags read delimited text where a command also takes workbooks
// (cat), as convert reads it.
type textFlags struct {
	delimiter, encoding, quote, decimal string
	lazyQuotes                          bool
}

func (f *textFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.delimiter, "delimiter", "", `CSV/TSV: the field delimiter (default from the extension; "tab" or \t for tabs)`)
	fl.StringVar(&f.encoding, "encoding", "", encodingHelp)
	fl.StringVar(&f.quote, "quote", `"`, quoteHelp)
	fl.StringVar(&f.decimal, "decimal", ".", decimalHelp)
	fl.BoolVar(&f.lazyQuotes, "lazy-quotes", false, lazyQuotesHelp)
}

// asked says whether a flag of delimited text was given.
func (f *textFlags) asked(cmd *cobra.Command) bool {
	for _, name := range []string{"delimiter", "encoding", "quote", "decimal", "lazy-quotes"} {
		if cmd.Flags().Changed(name) {
			return true
		}
	}
	return false
}

// isText says whether a file's extension names delimited text.
func isText(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv", ".tsv", ".tab":
		return true
	}
	return false
}

// workbook types the text at path ("-": standard input) by column, as
// convert does, into a workbook in an unlinked temporary file, and
// opens it.
func (f *textFlags) workbook(ctx context.Context, path string) (*xlsx.Workbook, func() error, error) {
	comma, err := delimiterOf(path, f.delimiter)
	if err != nil {
		return nil, nil, err
	}
	opts := csvsheet.Options{Comma: comma, Encoding: f.encoding, LazyQuotes: f.lazyQuotes, Sheet: "Sheet1"}
	if err := textMarks(f.quote, f.decimal, &opts); err != nil {
		return nil, nil, err
	}
	var in io.ReadSeeker = os.Stdin
	name := "standard input"
	if path != "-" {
		if err := checkInputPath(path); err != nil {
			return nil, nil, err
		}
		file, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		defer file.Close()
		in, name = file, path
	} else {
		spool, err := os.CreateTemp("", "sheetstream-stdin-*.csv")
		if err != nil {
			return nil, nil, err
		}
		os.Remove(spool.Name())
		defer spool.Close()
		if _, err := io.Copy(spool, os.Stdin); err != nil {
			return nil, nil, fmt.Errorf("standard input: %w", err)
		}
		in = spool
	}
	book, err := os.CreateTemp("", "sheetstream-cat-*.xlsx")
	if err != nil {
		return nil, nil, err
	}
	os.Remove(book.Name()) // unlinked: gone when closed
	for pass := 1; ; pass++ {
		if _, err := in.Seek(0, io.SeekStart); err != nil {
			book.Close()
			return nil, nil, err
		}
		if err := book.Truncate(0); err != nil {
			book.Close()
			return nil, nil, err
		}
		book.Seek(0, io.SeekStart)
		w, err := xlsx.NewWriter(book, xlsx.Options{})
		if err != nil {
			book.Close()
			return nil, nil, err
		}
		_, err = csvsheet.Convert(ctx, in, w, opts)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		var retype *csvsheet.RetypeError
		if errors.As(err, &retype) && pass == 1 {
			opts.Kinds = retype.Kinds // a later row changed a column's type
			continue
		}
		if err != nil {
			book.Close()
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		break
	}
	fi, err := book.Stat()
	if err != nil {
		book.Close()
		return nil, nil, err
	}
	wb, err := xlsx.NewReader(book, fi.Size(), xlsx.ReadOptions{})
	if err != nil {
		book.Close()
		return nil, nil, err
	}
	return wb, func() error { wb.Close(); return book.Close() }, nil
}
