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
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// convertFlags are convert's flags, as given.
type convertFlags struct {
	noInfer, noHeader, excelTable bool
	escape, widen                 bool
	sheet, delimiter              string
	encoding                      string
	ragged, lazyQuotes, strict    bool
	quote, decimal                string
	dateFormats                   []string
	maxRecordMiB                  int
	charts, pivots                []string
	pw                            password
}

func convertCmd() *cobra.Command {
	var f convertFlags
	cmd := &cobra.Command{
		Use:   "convert IN.csv|.tsv|.xlsx|.xlsb|.xls|.ods|.parquet|.arrow|.feather|- OUT.xlsx|.csv|.tsv|.jsonl|.parquet|.arrow|.feather|-",
		Short: "Convert CSV or TSV to XLSX, a workbook to XLSX, or a sheet to CSV, TSV or JSON lines (use - for stdin or stdout)",
		Long: `Convert a CSV or TSV file to an XLSX workbook; a workbook (.xlsx, .xlsm, .xlsb,
.xls, .ods) to .xlsx, every worksheet (or --sheet NAME|INDEX) with its cells typed,
merged ranges, hyperlinks and sheets' visibility; or a sheet of a workbook (the
first, or --sheet) to CSV, TSV or JSON lines (.csv, .tsv, .jsonl), as "sheetstream
cat" prints them; or a sheet to Parquet (.parquet) or Arrow (.arrow, .feather:
the IPC file format; .arrows: the stream format), each column typed (int64,
float64, string, bool, date, timestamp, time, duration), and either back to .xlsx.
CSV and TSV convert straight to .parquet, .arrow or .feather too, typed as for .xlsx.

The input format comes from IN's extension (.csv, .tsv, .tab) or --delimiter;
"-" reads stdin (a workbook if it is one, else CSV) and writes stdout. Each column
is typed by its fields together (numbers, booleans, ISO 8601 dates, else
text: codes such as 0E0 among other codes stay text) unless --no-infer is
given; the header row is bold and frozen. Rows past Excel's limit continue on "Sheet1 (2)" and so on.

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
	fl.BoolVar(&f.ragged, "ragged", false, raggedHelp)
	fl.StringArrayVar(&f.dateFormats, "date-format", nil, dateFormatHelp)
	fl.BoolVar(&f.lazyQuotes, "lazy-quotes", false, lazyQuotesHelp)
	fl.StringVar(&f.quote, "quote", `"`, quoteHelp)
	fl.StringVar(&f.decimal, "decimal", ".", decimalHelp)
	fl.IntVar(&f.maxRecordMiB, "max-record-mib", 64, maxRecordHelp)
	fl.BoolVar(&f.escape, "escape-formulas", false, escapeFormulasHelp)
	fl.BoolVar(&f.strict, "strict", false, "fail on a field longer than a cell holds (32,767 characters) instead of cutting it")
	fl.StringArrayVar(&f.charts, "chart", nil, chartHelp)
	fl.StringArrayVar(&f.pivots, "pivot", nil, pivotHelp)
	fl.BoolVar(&f.widen, "widen", false, "a workbook to .parquet/.arrow: a later cell that does not fit its column's type (chosen from the first 1,000 rows) widens the column (int64 to float64, date32 to timestamp, else string) instead of failing; the sheet is read once more first")
	f.pw.writeFlags(cmd) // to XLSX: encrypt with it; from an encrypted workbook: open with it
	return cmd
}

// runConvert converts in to out: a workbook's sheet to text, or text to
// a workbook.
func runConvert(ctx context.Context, f *convertFlags, in, out string) error {
	if in != "-" {
		if err := checkInputPath(in); err != nil {
			return err
		}
	}
	if out != "-" {
		if err := checkOutputPath(out); err != nil {
			return err
		}
	}
	// Standard input is a workbook or CSV, whichever comes.
	stdin := bufio.NewReaderSize(os.Stdin, 64<<10)
	charts, err := parseEach("chart", f.charts, sqlsheet.ParseChart)
	if err != nil {
		return err
	}
	pivots, err := parseEach("pivot", f.pivots, xlsx.ParsePivot)
	if err != nil {
		return err
	}
	if len(pivots) > 0 && (isParquet(in) || arrowFormat(in) != "" || isWorkbook(in) || in == "-" && stdinIsWorkbook(stdin)) {
		return fmt.Errorf("--pivot computes pivot tables over delimited text's rows; to pivot a workbook's, convert its sheet to CSV first")
	}
	if isParquet(in) {
		if len(charts) > 0 {
			return fmt.Errorf("--chart draws charts from delimited text's columns, not a Parquet file's")
		}
		if !strings.EqualFold(filepath.Ext(out), ".xlsx") && out != "-" {
			return fmt.Errorf("%s: a Parquet file converts to .xlsx", out)
		}
		return parquetToXLSX(in, out, f)
	}
	if arrowFormat(in) != "" {
		if len(charts) > 0 {
			return fmt.Errorf("--chart draws charts from delimited text's columns, not an Arrow file's")
		}
		if !strings.EqualFold(filepath.Ext(out), ".xlsx") && out != "-" {
			return fmt.Errorf("%s: an Arrow file converts to .xlsx", out)
		}
		return arrowToXLSX(in, out, f)
	}
	if isWorkbook(in) || in == "-" && stdinIsWorkbook(stdin) {
		if len(charts) > 0 {
			return fmt.Errorf("--chart draws charts from delimited text's columns; to chart a workbook's, export or convert its sheet to CSV first")
		}
		return convertWorkbook(ctx, in, out, f, stdin)
	}
	columnar := columnarFormat(out)
	switch {
	case columnar != "" && (len(charts) > 0 || len(pivots) > 0 || f.excelTable || f.pw.asked()):
		return fmt.Errorf("%s: charts, pivot tables, Excel tables and encryption are a workbook's: write .xlsx", out)
	case columnar == "" && !strings.EqualFold(filepath.Ext(out), ".xlsx") && out != "-":
		return fmt.Errorf("%s: delimited text converts to .xlsx, .parquet, .arrow or .feather", out)
	}
	comma, err := delimiterOf(in, f.delimiter)
	if err != nil {
		return err
	}
	src, err := openText(in, stdin, !f.noInfer)
	if err != nil {
		return err
	}
	defer src.close()
	if f.delimiter == "" && comma == ',' {
		if err := checkCommas(inputName(in), src.head); err != nil {
			return err
		}
	}
	secret, err := f.pw.forWriting()
	if err != nil {
		return err
	}
	opts := csvsheet.Options{
		Comma: comma, Encoding: f.encoding, NoInfer: f.noInfer, NoHeader: f.noHeader, Sheet: f.sheet, ExcelTable: f.excelTable,
		MaxRecordSize: f.maxRecordMiB << 20, Ragged: f.ragged, LazyQuotes: f.lazyQuotes, Strict: f.strict,
		DateFormats: f.dateFormats, Charts: charts, Pivots: pivots,
	}
	if err := textMarks(f.quote, f.decimal, &opts); err != nil {
		return err
	}
	// Standard output takes the workbook only once it is whole: a second
	// pass starts it again.
	dst, toStdout := out, out == "-"
	if toStdout {
		tmp, err := os.CreateTemp("", "sheetstream-convert-*.xlsx")
		if err != nil {
			return err
		}
		tmp.Close()
		defer os.Remove(tmp.Name())
		dst = tmp.Name()
	}
	var st csvsheet.Stats
	for pass := 1; ; pass++ {
		r, err := src.reader(pass)
		if err != nil {
			return err
		}
		bar := newProgress(src.size, "converting", true)
		if columnar != "" {
			err = writeColumnar(dst, columnar, func(sink csvsheet.RowSink) error {
				var err error
				st, err = csvsheet.ConvertTo(ctx, countingReader(r, bar), sink, opts)
				return err
			})
		} else {
			err = writeWorkbook(dst, xlsx.Options{Password: secret}, func(w *xlsx.Writer) error {
				var err error
				st, err = csvsheet.Convert(ctx, countingReader(r, bar), w, opts)
				return err
			})
		}
		if bar != nil {
			bar.Finish()
		}
		var retype *csvsheet.RetypeError
		if pass == 1 && errors.As(err, &retype) {
			// One column holds what its first rows did not show: the
			// whole file was read for every column's type; convert
			// again with them.
			fmt.Fprintf(os.Stderr, "sheetstream: %s: %v; converting again with each column typed by all its rows\n", inputName(in), retype)
			opts.Kinds = retype.Kinds
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", inputName(in), withRecordHint(err))
		}
		break
	}
	if toStdout {
		return copyToStdout(dst)
	}
	if st.Cut > 0 {
		fmt.Fprintf(os.Stderr, "sheetstream: %s: %d rows had more fields than the header; --ragged cut them to it\n", inputName(in), st.Cut)
	}
	if st.Truncated > 0 {
		fmt.Fprintf(os.Stderr, "note: %d texts cut to 32,767 characters, the most a cell holds (--strict fails instead)\n", st.Truncated)
	}
	// Data rows, as import and export count them.
	under := " under a header"
	if f.noHeader {
		under = ""
	}
	if columnar != "" {
		fmt.Fprintf(os.Stderr, "wrote %s: %d rows%s as %s\n", out, st.Rows, under, strings.ToUpper(columnar))
		return nil
	}
	fmt.Fprintf(os.Stderr, "wrote %s: %d rows%s in %d sheet(s)\n", out, st.Rows, under, len(st.Sheets))
	return nil
}

// textInput is convert's text input, which a second pass reads again: a
// file from its start, standard input from a spool of what the first
// pass read.
type textInput struct {
	file  *os.File  // the file, or the spool of standard input
	stdin io.Reader // standard input, for the first pass
	spool bool
	size  int64
	head  []byte // the text's start, for checkCommas
}

func openText(in string, stdin *bufio.Reader, spool bool) (*textInput, error) {
	if in == "-" {
		t := &textInput{stdin: stdin}
		t.head, _ = stdin.Peek(64 << 10)
		if spool {
			f, err := os.CreateTemp("", "sheetstream-stdin-*.csv")
			if err != nil {
				return nil, err
			}
			os.Remove(f.Name()) // unlinked: gone when closed
			t.file, t.spool = f, true
		}
		return t, nil
	}
	file, err := os.Open(in)
	if err != nil {
		return nil, err
	}
	t := &textInput{file: file}
	if fi, err := file.Stat(); err == nil {
		t.size = fi.Size()
	}
	t.head = make([]byte, 64<<10)
	n, _ := file.ReadAt(t.head, 0)
	t.head = t.head[:n]
	return t, nil
}

// reader is the text from its start, for pass 1 or 2.
func (t *textInput) reader(pass int) (io.Reader, error) {
	switch {
	case t.stdin != nil && pass == 1 && t.spool:
		return io.TeeReader(t.stdin, t.file), nil
	case t.stdin != nil && pass == 1:
		return t.stdin, nil
	}
	if _, err := t.file.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return t.file, nil
}

func (t *textInput) close() {
	if t.file != nil {
		t.file.Close()
	}
}

// copyToStdout sends a finished file to standard output.
func copyToStdout(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(os.Stdout, f)
	return err
}

// withRecordHint says, after a record over the limit, how to raise it.
func withRecordHint(err error) error {
	if errors.Is(err, csvsheet.ErrRecordTooLong) {
		return fmt.Errorf("%w; --max-record-mib raises the limit", err)
	}
	return err
}

const maxRecordHelp = `the longest CSV record read, in MiB: a quote left open would otherwise read the rest of the file into memory`

const dateFormatHelp = `a strptime layout dates are written in, such as %d/%m/%Y, %b %d %Y or %Y/%m/%d %H:%M (repeat for several; ISO 8601 and 2024/01/31 need none)`

const raggedHelp = `cut rows with more fields than the header to its width (without it such a row is an error naming its line)`

const lazyQuotesHelp = `take a stray quote in a field as text (for files written without escaping quotes); a quoted field must then close on its own line, or its quote is text too`

const decimalHelp = `the decimal mark of numbers: . or , (with , thousands are grouped by . or a space: 1.234,56)`

// textMarks sets opts' quote and decimal mark from --quote and
// --decimal, for every command that reads delimited text.
func textMarks(quoteFlag, decimalFlag string, opts *csvsheet.Options) error {
	quote, noQuotes, err := quoteOf(quoteFlag)
	if err != nil {
		return err
	}
	decimal, err := decimalOf(decimalFlag)
	if err != nil {
		return err
	}
	opts.Quote, opts.NoQuotes, opts.Decimal = quote, noQuotes, decimal
	return nil
}

// decimalOf reads --decimal.
func decimalOf(flag string) (byte, error) {
	switch flag {
	case "", ".":
		return '.', nil
	case ",":
		return ',', nil
	}
	return 0, fmt.Errorf("--decimal %q: . or ,", flag)
}

const quoteHelp = `the quote character, or "none": quotes are ordinary characters (a TSV or CSV written without quoting)`

// quoteOf reads --quote: one ASCII character, or "none".
func quoteOf(flag string) (quote byte, none bool, err error) {
	switch {
	case strings.EqualFold(flag, "none"):
		return 0, true, nil
	case flag == "":
		return 0, false, nil
	case len(flag) == 1 && flag[0] >= ' ' && flag[0] < 0x7f:
		return flag[0], false, nil
	}
	return 0, false, fmt.Errorf("--quote %q: one ASCII character, or none", flag)
}

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
	if isPackage(head) {
		return fmt.Errorf("%s is a workbook (its bytes are a zip package or an Excel 97-2003 file), not CSV: give it its workbook extension (.xlsx, .xls, .ods...), or --format xlsx where the command takes one, and no --delimiter", name)
	}
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
			hint := ""
			if d.c == ';' {
				hint = "; numbers written 1.234,56 read with --decimal ,"
			}
			return fmt.Errorf("%s: the first line has no commas but %d %s: give --delimiter '%s' (or --delimiter , to read each line as one field)%s", name, n, d.name, d.flag, hint)
		}
	}
	return nil
}

// isPackage says whether bytes begin as a zip package (.xlsx, .xlsb,
// .ods) or a compound file (.xls) does.
func isPackage(head []byte) bool {
	return bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"))
}

// isWorkbook reports whether a file's extension names a workbook, which
// the reader opens in whatever format its bytes are.
func isWorkbook(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".xlsx", ".xlsm", ".xltx", ".xltm", ".xlsb", ".xls", ".xlt", ".ods", ".ots":
		return true
	}
	return false
}

// convertWorkbook writes one sheet of a workbook as text, in the format
// out's extension names.
func convertWorkbook(ctx context.Context, in, out string, cf *convertFlags, stdin io.Reader) error {
	sheet, pw := cf.sheet, &cf.pw
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(out)), ".")
	if out == "-" {
		ext = "csv"
	}
	if ext == "xlsx" {
		return workbookToXLSX(ctx, in, out, sheet, stdin, pw)
	}
	if arrowFormat(out) != "" || isParquet(out) {
		return workbookToColumnar(ctx, in, out, sheet, cf.widen, stdin, pw)
	}
	f, ok := csvsheet.ParseFormat(ext)
	if !ok {
		return fmt.Errorf("%s: write .xlsx, .csv, .tsv, .jsonl, .parquet, .arrow, .feather or .arrows from a workbook", out)
	}
	rows, name, done, err := openSheetRows(ctx, in, sheet, stdin, pw)
	if err != nil {
		return err
	}
	defer done()
	o, err := createOutput(out)
	if err != nil {
		return err
	}
	st, err := csvsheet.WriteWith(ctx, o.Writer(), rows, csvsheet.WriteOptions{Format: f, EscapeFormulas: cf.escape})
	if err != nil {
		o.abort()
		return err
	}
	if err := o.commit(); err != nil {
		return err
	}
	if out != "-" {
		// Data rows, as import and export count them: the first row is
		// the header.
		fmt.Fprintf(os.Stderr, "wrote %s: %d rows under a header (%d cells) from sheet %q\n", out, max(st.Rows-1, 0), st.Cells, name)
	}
	return nil
}

// openSheetRows opens the rows of a workbook's sheet (the first, or the
// one sheet names) and its name; done closes them and the workbook.
func openSheetRows(ctx context.Context, in, sheet string, stdin io.Reader, pw *password) (rows *xlsx.Rows, name string, done func(), err error) {
	wb, closeWB, err := openWorkbook(in, xlsx.ReadOptions{}, stdin, pw)
	if err != nil {
		return nil, "", nil, err
	}
	sheets, err := pickSheets(wb, sheet, false)
	if err != nil {
		closeWB()
		return nil, "", nil, fmt.Errorf("%s: %w", in, err)
	}
	if rows, err = wb.Rows(ctx, sheets[0].Index); err != nil {
		closeWB()
		return nil, "", nil, err
	}
	return rows, sheets[0].Name, func() { rows.Close(); closeWB() }, nil
}

// workbookToXLSX copies a workbook's worksheets (or the one --sheet
// names) into a new .xlsx, streaming, in constant memory: every cell
// typed as the reader sees it (numbers, text, booleans, error codes,
// dates, date-times and times of day in the default formats, elapsed
// times), number formats, merged ranges, hyperlinks and each sheet's
// visibility. Fonts, fills, borders, column widths and formulas (their
// values are kept) are not carried.
func workbookToXLSX(ctx context.Context, in, out, sheet string, stdin io.Reader, pw *password) error {
	wb, closeWB, err := openWorkbook(in, xlsx.ReadOptions{}, stdin, pw)
	if err != nil {
		return err
	}
	defer closeWB()
	sheets, err := pickSheets(wb, sheet, sheet == "")
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	secret, err := pw.forWriting()
	if err != nil {
		return err
	}
	var rowsOut, links int
	err = writeWorkbook(out, xlsx.Options{Password: secret}, func(w *xlsx.Writer) error {
		cs, err := newCellStyles(w, wb)
		if err != nil {
			return err
		}
		for _, info := range sheets {
			n, l, err := copySheet(ctx, w, wb, info, cs)
			if err != nil {
				return fmt.Errorf("sheet %q: %w", info.Name, err)
			}
			rowsOut, links = rowsOut+n, links+l
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", inputName(in), err)
	}
	if out != "-" {
		fmt.Fprintf(os.Stderr, "wrote %s: %d rows in %d sheet(s)\n", out, rowsOut, len(sheets))
		if links > 0 {
			fmt.Fprintf(os.Stderr, "sheetstream: %d hyperlinks Excel would not take were left out\n", links)
		}
	}
	return nil
}

// copySheet copies one sheet; it returns the rows written and the links
// left out.
func copySheet(ctx context.Context, w *xlsx.Writer, wb *xlsx.Workbook, info xlsx.SheetInfo, cs *cellStyles) (int, int, error) {
	rows, err := wb.Rows(ctx, info.Index)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	sh, err := w.AddSheet(info.Name, xlsx.SheetOptions{State: info.State})
	if err != nil {
		return 0, 0, err
	}
	var cells []xlsx.Cell
	n := 0
	for rows.Next() {
		row := rows.Row()
		if gap := row.Num - sh.LastRow() - 1; gap > 0 {
			if err := sh.SkipRows(gap); err != nil {
				return n, 0, err
			}
		}
		cells = cells[:0]
		for i := range row.Cells {
			v := &row.Cells[i]
			for len(cells) < v.Col()-1 {
				cells = append(cells, xlsx.Cell{})
			}
			cells = append(cells, cs.cellOf(v))
		}
		if err := sh.WriteRow(cells); err != nil {
			return n, 0, err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return n, 0, err
	}
	for _, m := range rows.MergedCells() {
		if err := sh.MergeCells(m); err != nil {
			return n, 0, err
		}
	}
	left := 0
	for _, l := range rows.Hyperlinks() {
		link := xlsx.Link(l.URL, l.Display)
		if l.URL == "" {
			link = xlsx.InternalLink(l.Location, l.Display)
		}
		for row := l.Range.FirstRow; row <= l.Range.LastRow; row++ {
			for col := l.Range.FirstCol; col <= l.Range.LastCol; col++ {
				if sh.SetHyperlink(row, col, link) != nil {
					left++
				}
			}
		}
	}
	return n, left, nil
}

// cellStyles gives copied cells the number formats they had: the source
// workbook's format codes, each added to the writer once.
type cellStyles struct {
	w       *xlsx.Writer
	wb      *xlsx.Workbook
	byCode  map[string]xlsx.StyleID
	byStyle map[int]xlsx.StyleID // the source's style index, resolved
	elapsed xlsx.StyleID         // [h]:mm:ss, for elapsed times without a code
	day     xlsx.StyleID         // yyyy-mm-dd, for a day the writer's Date cannot hold (Excel's day zero)
}

func newCellStyles(w *xlsx.Writer, wb *xlsx.Workbook) (*cellStyles, error) {
	cs := &cellStyles{w: w, wb: wb, byCode: map[string]xlsx.StyleID{}, byStyle: map[int]xlsx.StyleID{}}
	var err error
	if cs.elapsed, err = w.AddStyle(xlsx.Style{NumFmt: "[h]:mm:ss"}); err != nil {
		return nil, err
	}
	if cs.day, err = w.AddStyle(xlsx.Style{NumFmt: "yyyy-mm-dd"}); err != nil {
		return nil, err
	}
	return cs, nil
}

// format is the writer's style for the number format of the source's
// style index, and whether there is one (General has none).
func (cs *cellStyles) format(style int) (xlsx.StyleID, bool) {
	if id, ok := cs.byStyle[style]; ok {
		return id, id != 0
	}
	code := cs.wb.NumberFormat(style)
	id := xlsx.StyleID(0)
	if code != "" && code != "General" {
		if known, ok := cs.byCode[code]; ok {
			id = known
		} else if added, err := cs.w.AddStyle(xlsx.Style{NumFmt: code}); err == nil {
			cs.byCode[code], id = added, added
		}
	}
	cs.byStyle[style] = id
	return id, id != 0
}

// cellOf is a read value as a cell to write: the same value, of the same
// type, in its number format.
func (cs *cellStyles) cellOf(v *xlsx.Value) xlsx.Cell {
	switch v.Type() {
	case xlsx.TypeNumber:
		if id, ok := cs.format(v.Style()); ok {
			return xlsx.Float(v.Float()).WithStyle(id)
		}
		if v.Elapsed() {
			return xlsx.Float(v.Float()).WithStyle(cs.elapsed)
		}
		return xlsx.Float(v.Float())
	case xlsx.TypeString:
		return xlsx.String(string(v.Bytes()))
	case xlsx.TypeBool:
		return xlsx.Bool(v.Bool())
	case xlsx.TypeError:
		return xlsx.Error(xlsx.ErrorCode(v.Bytes()))
	case xlsx.TypeDate:
		var c xlsx.Cell
		switch {
		case v.DateOnly() && v.Float() < 1:
			return xlsx.Float(v.Float()).WithStyle(cs.day)
		case v.DateOnly():
			c = xlsx.Date(v.Time())
		case v.TimeOfDay():
			c = xlsx.TimeOfDay(v.Time())
		default:
			c = xlsx.Time(v.PreciseTime())
		}
		// The day's own format (dd/mm/yyyy, mmm d) where it has one: the
		// date is written from its time, so 1904-based workbooks convert
		// too.
		if id, ok := cs.format(v.Style()); ok {
			c = c.WithStyle(id)
		}
		return c
	}
	return xlsx.Cell{}
}
