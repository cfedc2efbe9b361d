package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// convertFlags are convert's flags, as given.
type convertFlags struct {
	noInfer, noHeader, excelTable bool
	escape                        bool
	sheet, delimiter              string
	encoding                      string
	maxRecordMiB                  int
	pw                            password
}

func convertCmd() *cobra.Command {
	var f convertFlags
	cmd := &cobra.Command{
		Use:   "convert IN OUT",
		Short: "Convert CSV or TSV to XLSX, or XLSX to CSV, TSV or JSON lines (use - for stdin or stdout)",
		Long: `Convert a CSV or TSV file to an XLSX workbook, or a sheet of a workbook
(.xlsx, .xlsm, .xlsb, .xls, .ods: the first sheet, or --sheet NAME|INDEX) to CSV, TSV or JSON
lines (.csv, .tsv, .jsonl), as "sheetstream cat" prints them.

The input format comes from IN's extension (.csv, .tsv, .tab) or --delimiter;
"-" reads stdin (a workbook if it is one, else CSV) and writes stdout. Numbers, booleans and ISO 8601
dates become typed cells unless --no-infer is given; the header row is bold
and frozen. Rows past Excel's limit continue on "Sheet1 (2)" and so on.

Every flag: https://github.com/sheetstream/sheetstream/blob/main/docs/cli.md#convert`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runConvert(cmd.Context(), &f, args[0], args[1])
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.noInfer, "no-infer", false, "keep every field as text")
	fl.BoolVar(&f.noHeader, "no-header", false, "the first row is data, not a header")
	fl.BoolVar(&f.excelTable, "excel-table", false, excelTableHelp)
	fl.StringVar(&f.sheet, "sheet", "", `the sheet written (default "Sheet1"), or read from a workbook: name or 1-based index (default: the first)`)
	fl.StringVar(&f.delimiter, "delimiter", "", `field delimiter (default from the extension; "tab" or \t for tabs)`)
	fl.StringVar(&f.encoding, "encoding", "", encodingHelp)
	fl.IntVar(&f.maxRecordMiB, "max-record-mib", 64, maxRecordHelp)
	fl.BoolVar(&f.escape, "escape-formulas", false, escapeFormulasHelp)
	f.pw.writeFlags(cmd) // to XLSX: encrypt with it; from an encrypted workbook: open with it
	return cmd
}

// runConvert converts in to out: a workbook's sheet to text, or text to
// a workbook.
func runConvert(ctx context.Context, f *convertFlags, in, out string) error {
	// Standard input is a workbook or CSV, whichever comes.
	stdin := bufio.NewReaderSize(os.Stdin, 64<<10)
	if isWorkbook(in) || in == "-" && stdinIsWorkbook(stdin) {
		return convertWorkbook(ctx, in, out, f.sheet, f.escape, stdin, &f.pw)
	}
	if !strings.EqualFold(filepath.Ext(out), ".xlsx") && out != "-" {
		return fmt.Errorf("%s: only .xlsx output is supported", out)
	}
	comma, err := delimiterOf(in, f.delimiter)
	if err != nil {
		return err
	}
	var src io.Reader = stdin
	var size int64
	var head []byte // the text's start, for checkCommas
	if in == "-" {
		head, _ = stdin.Peek(64 << 10)
	} else {
		file, err := os.Open(in)
		if err != nil {
			return err
		}
		defer file.Close()
		if fi, err := file.Stat(); err == nil {
			size = fi.Size()
		}
		src = file
		head = make([]byte, 64<<10)
		n, _ := file.ReadAt(head, 0)
		head = head[:n]
	}
	if f.delimiter == "" && comma == ',' {
		if err := checkCommas(inputName(in), head); err != nil {
			return err
		}
	}
	secret, err := f.pw.forWriting()
	if err != nil {
		return err
	}
	bar := newProgress(size, "converting", true)
	var st csvsheet.Stats
	err = writeWorkbook(out, xlsx.Options{Password: secret}, func(w *xlsx.Writer) error {
		var err error
		st, err = csvsheet.Convert(ctx, countingReader(src, bar), w, csvsheet.Options{
			Comma: comma, Encoding: f.encoding, NoInfer: f.noInfer, NoHeader: f.noHeader, Sheet: f.sheet, ExcelTable: f.excelTable,
			MaxRecordSize: f.maxRecordMiB << 20,
		})
		return err
	})
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return fmt.Errorf("%s: %w", in, withRecordHint(err))
	}
	if out != "-" {
		fmt.Fprintf(os.Stderr, "wrote %s: %d rows in %d sheet(s)\n", out, st.Rows, len(st.Sheets))
	}
	return nil
}

// withRecordHint says, after a record over the limit, how to raise it.
func withRecordHint(err error) error {
	if errors.Is(err, csvsheet.ErrRecordTooLong) {
		return fmt.Errorf("%w; --max-record-mib raises the limit", err)
	}
	return err
}

const maxRecordHelp = `the longest CSV record read, in MiB: a quote left open would otherwise read the rest of the file into memory`

const encodingHelp = `the text's character set, such as windows-1252, latin1, utf-16le or shift_jis (default UTF-8; a byte-order mark wins)`

// delimiterOf is the field delimiter --delimiter gives, or else the one
// the input's extension implies: tabs for .tsv and .tab, commas for the
// rest.
func delimiterOf(in, delimiter string) (rune, error) {
	switch {
	case delimiter == `\t` || delimiter == "tab":
		return '\t', nil
	case delimiter != "":
		r := []rune(delimiter)
		if len(r) != 1 {
			return 0, fmt.Errorf("--delimiter must be one character")
		}
		return r[0], nil
	case strings.EqualFold(filepath.Ext(in), ".tsv") || strings.EqualFold(filepath.Ext(in), ".tab"):
		return '\t', nil
	}
	return ',', nil
}

// checkCommas refuses comma-separated text whose first line holds no
// comma but semicolons, tabs or bars: most likely a file in that
// delimiter (Excel writes semicolons where the comma is the decimal
// mark), which read with commas would load as one column.
func checkCommas(name string, head []byte) error {
	line := head
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	if bytes.IndexByte(line, ',') >= 0 {
		return nil
	}
	for _, d := range []struct {
		c          byte
		name, flag string
	}{{';', "semicolons", ";"}, {'\t', "tabs", "tab"}, {'|', "bars", "|"}} {
		if n := bytes.Count(line, []byte{d.c}); n > 0 {
			return fmt.Errorf("%s: the first line has no commas but %d %s: give --delimiter '%s' (or --delimiter , to read each line as one field)", name, n, d.name, d.flag)
		}
	}
	return nil
}

// isWorkbook reports whether a file's extension names a workbook, which
// the reader opens in whatever format its bytes are.
func isWorkbook(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".xlsx", ".xlsm", ".xltx", ".xltm", ".xlsb", ".xls", ".ods":
		return true
	}
	return false
}

// convertWorkbook writes one sheet of a workbook as text, in the format
// out's extension names.
func convertWorkbook(ctx context.Context, in, out, sheet string, escape bool, stdin io.Reader, pw *password) error {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(out)), ".")
	if out == "-" {
		ext = "csv"
	}
	f, ok := csvsheet.ParseFormat(ext)
	if !ok {
		return fmt.Errorf("%s: write .csv, .tsv or .jsonl from a workbook", out)
	}
	wb, closeWB, err := openWorkbook(in, xlsx.ReadOptions{}, stdin, pw)
	if err != nil {
		return err
	}
	defer closeWB()
	sheets, err := pickSheets(wb, sheet, false)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	rows, err := wb.Rows(ctx, sheets[0].Index)
	if err != nil {
		return err
	}
	defer rows.Close()
	o, err := createOutput(out)
	if err != nil {
		return err
	}
	st, err := csvsheet.WriteWith(ctx, o.Writer(), rows, csvsheet.WriteOptions{Format: f, EscapeFormulas: escape})
	if err != nil {
		o.abort()
		return err
	}
	if err := o.commit(); err != nil {
		return err
	}
	if out != "-" {
		fmt.Fprintf(os.Stderr, "wrote %s: %d rows, %d cells from sheet %q\n", out, st.Rows, st.Cells, sheets[0].Name)
	}
	return nil
}
