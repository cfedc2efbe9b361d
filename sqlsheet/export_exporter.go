package sqlsheet

import (
	"context"
	"fmt"
	"time"

	"github.com/sheetstream/sheetstream/xlsx"
)

// exportFrom exports one query's rows from src to dst: Begin, the rows,
// End, and a workbook's schema part.
func exportFrom(ctx context.Context, src rowReader, infos []columnInfo, dst Destination, sheet string, job queryJob) (Stats, error) {
	opts := &job.opts
	e, err := newExporter(infos, dst, sheet, job)
	if err != nil {
		return Stats{}, err
	}
	err = e.run(ctx, src)
	e.st.Sheets = e.sheets()
	if opts.Progress != nil {
		opts.Progress(e.st.Rows)
	}
	if wb, ok := dst.(*workbook); ok && err == nil && !opts.NoSchema {
		zone := "UTC"
		if opts.Location != nil {
			zone = opts.Location.String()
		}
		cuts := make([]int64, len(e.cols))
		for i, c := range e.cols {
			cuts[i] = c.cut
		}
		err = addSchema(wb.w, infos, cuts, wb.table.Sheets(), wb.table.SheetRows(), job.from, zone)
	}
	return e.st, err
}

// exporter converts one query's rows into cells for its destination.
type exporter struct {
	dst  Destination
	base string
	opts *Options
	cols []*column
	st   Stats
	cv   converter
}

// newExporter begins the query's table on dst and gives its columns
// their number formats.
func newExporter(infos []columnInfo, dst Destination, base string, job queryJob) (*exporter, error) {
	if err := xlsx.CheckSheetName(base); err != nil {
		return nil, err
	}
	opts := &job.opts
	loc := opts.Location
	if loc == nil {
		loc = time.UTC
	}
	e := &exporter{dst: dst, base: base, opts: opts}
	e.cv = converter{opts: opts, loc: loc, warn: &e.st.Warnings}
	t := &Table{Name: base, ExcelTable: opts.ExcelTable, Charts: job.charts, Pivots: job.pivots, RowsPerSheet: opts.RowsPerSheet, FitRows: opts.SampleRows}
	for _, info := range infos {
		t.Columns = append(t.Columns, Column{Name: info.name, DatabaseType: info.sqlType, Precision: info.precision, Scale: info.scale})
	}
	if err := dst.Begin(t); err != nil {
		return nil, err
	}
	for _, info := range infos {
		c := &column{name: info.name, kind: info.kind}
		if f := c.kind.numFmt(info.scale); f != "" {
			var err error
			if c.style, err = dst.AddStyle(xlsx.Style{NumFmt: f}); err != nil {
				return nil, err
			}
			c.styled = c.style != 0
			if c.styleMS, err = dst.AddStyle(xlsx.Style{NumFmt: f + ".000"}); err != nil {
				return nil, err
			}
		}
		e.cols = append(e.cols, c)
	}
	return e, nil
}

// row converts the scanned row, which will be row number rowNum.
func (e *exporter) row(cells []xlsx.Cell, rowNum int) error {
	for i, c := range e.cols {
		if err := e.cv.cell(&cells[i], c); err != nil {
			return &xlsx.CellError{Sheet: e.base, Row: rowNum, Col: i + 1, Err: err}
		}
	}
	return nil
}

// position is the sheet and row the next row goes to, for messages.
func (e *exporter) position() (string, int) {
	if wb, ok := e.dst.(*workbook); ok {
		return wb.table.Position()
	}
	return e.base, int(e.st.Rows) + 2
}

// sheets are the sheets the query's rows went to: a workbook's, or the
// query's sheet name for other destinations.
func (e *exporter) sheets() []string {
	if wb, ok := e.dst.(*workbook); ok {
		return wb.table.Sheets()
	}
	return []string{e.base}
}

func (e *exporter) run(ctx context.Context, rows rowReader) error {
	// Column widths are fitted by the sheet (SheetOptions.AutoFit) to
	// the rows it writes first; only a preview holds its rows, all of
	// them, so that its query is not read further.
	n := 0
	limited := e.opts.MaxRows > 0 && e.opts.MaxRows <= 10000
	if limited {
		n = int(e.opts.MaxRows)
	}
	var sample [][]xlsx.Cell
	e.cv.clone = true
	held, ended := 0, false // the sample is bounded in bytes too
	var cost int64          // what MaxBytes counts
	capped := func() bool { return limited && e.opts.MaxBytes > 0 && cost >= e.opts.MaxBytes }
	for len(sample) < n && held < sampleBytes && !capped() {
		if !rows.Next() {
			ended = true
			break
		}
		if err := rows.scan(e.cols); err != nil {
			return fmt.Errorf("sheet %q, row %d: %w", e.base, len(sample)+2, err)
		}
		for _, c := range e.cols {
			b := c.val.cut()
			held += b
			cost += int64(max(b, 16))
		}
		cells := make([]xlsx.Cell, len(e.cols))
		if err := e.row(cells, len(sample)+2); err != nil {
			return err
		}
		sample = append(sample, cells)
	}
	e.cv.clone = false
	e.st.Partial = !ended && len(sample) < n && capped()
	for _, cells := range sample {
		if err := e.write(cells); err != nil {
			return err
		}
	}
	if !ended && !e.st.Partial && !(limited && int64(len(sample)) >= e.opts.MaxRows) {
		if err := e.pipe(ctx, rows); err != nil {
			return err
		}
	} else if err := rows.Err(); err != nil {
		sheet, _ := e.position()
		return fmt.Errorf("sheet %q: %w", sheet, err)
	}
	return e.dst.End()
}

func (e *exporter) write(cells []xlsx.Cell) error {
	if err := e.dst.WriteRow(cells); err != nil {
		return err
	}
	e.st.Rows++
	return nil
}
