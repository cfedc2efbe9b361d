package csvsheet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Options control a conversion. The zero Options read CSV with a header
// row and infer types.
type Options struct {
	// Comma separates fields: ',' when zero, '\t' for TSV.
	Comma rune
	// Encoding names the text's character set as the WHATWG Encoding
	// Standard does ("windows-1252", "latin1", "utf-16le", "shift_jis"...);
	// empty means UTF-8. A byte-order mark, when present, wins.
	Encoding string
	// MaxRecordSize caps one record's text in bytes (64 MiB when zero):
	// the reader holds a record whole, so a quote left open early in a
	// large file would otherwise read the rest of the file into memory.
	// A longer record is an error wrapping ErrRecordTooLong.
	MaxRecordSize int
	// NoInfer keeps every field as text.
	NoInfer bool
	// NoHeader treats the first row as data rather than a header.
	NoHeader bool
	// Sheet names the sheet ("Sheet1" when empty). Rows past Excel's limit
	// continue on "Sheet (2)", "Sheet (3)"... with the header repeated.
	Sheet string
	// RowsPerSheet caps the rows of one sheet, header included
	// (xlsx.MaxRows when zero); below Excel's limit it is mostly for tests.
	RowsPerSheet int
	// Progress, when set, is called with the count of data rows written,
	// every few thousand rows and at the end.
	Progress func(rows int64)
	// ExcelTable makes each sheet with a header an Excel table named
	// after it (see xlsx.TableName; Table1... when that cannot be a
	// table's name), in TableStyleMedium2 with filter buttons.
	ExcelTable bool
}

// Stats describe a finished conversion.
type Stats struct {
	Rows   int64 // data rows, header excluded
	Sheets []string
}

const progressEvery = 8192

// Convert reads delimited text from r and writes it into w as one sheet,
// or several when it has more rows than a sheet holds. It does not close w.
// Errors name the line of the input.
func Convert(ctx context.Context, r io.Reader, w *xlsx.Writer, opts Options) (Stats, error) {
	var st Stats
	cr, err := newReader(r, opts)
	if err != nil {
		return st, err
	}
	perSheet := opts.RowsPerSheet
	if perSheet <= 0 || perSheet > xlsx.MaxRows {
		perSheet = xlsx.MaxRows
	}
	base := opts.Sheet
	if base == "" {
		base = "Sheet1"
	}
	if err := xlsx.CheckSheetName(base); err != nil {
		return st, err
	}
	bold, err := w.AddStyle(xlsx.Style{Font: xlsx.Font{Bold: true}})
	if err != nil {
		return st, err
	}

	var (
		header []xlsx.Cell
		sheet  *xlsx.Sheet
		cells  []xlsx.Cell
	)
	newSheet := func() error {
		name := xlsx.NumberedSheetName(base, len(st.Sheets))
		so := xlsx.SheetOptions{}
		if header != nil {
			so.FreezeRows = 1
		}
		var err error
		if sheet, err = w.AddSheet(name, so); err != nil {
			return err
		}
		st.Sheets = append(st.Sheets, name)
		if header == nil {
			return nil
		}
		if opts.ExcelTable {
			ref := xlsx.Range{FirstRow: 1, FirstCol: 1, LastCol: max(len(header), 1)}
			if err := sheet.AddTable(ref, xlsx.Table{NameFromSheet: true, Style: "TableStyleMedium2"}); err != nil {
				return err
			}
		}
		return sheet.WriteRow(header)
	}
	for first := true; ; first = false {
		record, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return st, fmt.Errorf("csv: %w", err)
		}
		if first && !opts.NoHeader {
			header = make([]xlsx.Cell, len(record))
			for i, f := range record {
				// encoding/csv makes new strings for every record, even
				// with ReuseRecord: keeping them is safe.
				header[i] = xlsx.String(f).WithStyle(bold)
			}
			if err := newSheet(); err != nil {
				return st, err
			}
			continue
		}
		if sheet == nil || sheet.LastRow() >= perSheet {
			if err := newSheet(); err != nil {
				return st, err
			}
		}
		cells = slices.Grow(cells[:0], len(record))[:len(record)]
		for i, f := range record {
			typeField(&cells[i], f, opts.NoInfer)
		}
		if err := sheet.WriteRow(cells); err != nil {
			line, _ := cr.FieldPos(0)
			return st, fmt.Errorf("line %d: %w", line, err)
		}
		st.Rows++
		if st.Rows%progressEvery == 0 {
			if err := ctx.Err(); err != nil {
				return st, err
			}
			if opts.Progress != nil {
				opts.Progress(st.Rows)
			}
		}
	}
	if sheet == nil {
		if err := newSheet(); err != nil {
			return st, err
		}
	}
	if opts.Progress != nil {
		opts.Progress(st.Rows)
	}
	return st, nil
}
