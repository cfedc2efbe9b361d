package sqlsheet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Where the table is on a sheet: a range (open-ended where a bound is
// left out), a header row inside it (or none, or found), and whether it
// ends at the first empty row. Reports have titles above the table,
// notes beside it and totals under it; these options find the table.

// HeaderAuto asks Import to find the header row: the first row of the
// range whose cells are all text and right under which the data starts
// (a row with a number, date or boolean).
const HeaderAuto = -1

// ErrRange reports a --range that is not a range of cells.
var ErrRange = errors.New("not a cell range such as A4:F, B:D or A4:F100")

// ParseTableRange reads a range whose bounds may be left open: "A4:F100",
// "A4:F" (rows from 4 on), "B:D" (all rows), "A4" (from A4 to the end),
// "3:10" (rows 3 to 10). Open bounds are 0 in the result.
func ParseTableRange(s string) (xlsx.Range, error) {
	first, last, twoSided := strings.Cut(strings.ToUpper(strings.TrimSpace(s)), ":")
	var r xlsx.Range
	var err error
	if r.FirstCol, r.FirstRow, err = rangeBound(first); err != nil {
		return r, fmt.Errorf("%w: %q", ErrRange, s)
	}
	if twoSided {
		if r.LastCol, r.LastRow, err = rangeBound(last); err != nil {
			return r, fmt.Errorf("%w: %q", ErrRange, s)
		}
	}
	if first == "" || r.LastCol > 0 && r.FirstCol > r.LastCol || r.LastRow > 0 && r.FirstRow > r.LastRow {
		return r, fmt.Errorf("%w: %q", ErrRange, s)
	}
	return r, nil
}

// rangeBound reads "F", "F100", "100" or "": column letters, then a row.
func rangeBound(s string) (col, row int, err error) {
	i := 0
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' {
		col = col*26 + int(s[i]-'A'+1)
		if i++; i > 3 || col > xlsx.MaxColumns {
			return 0, 0, ErrRange
		}
	}
	if i < len(s) {
		if row, err = strconv.Atoi(s[i:]); err != nil || row < 1 || row > xlsx.MaxRows || s[i] == '+' || s[i] == '-' {
			return 0, 0, ErrRange
		}
	}
	return col, row, nil
}

// tableRow is a row of the table: its number and its cells inside the
// range's columns.
type tableRow struct {
	num   int
	cells []xlsx.Value
}

// inRange keeps the cells of row inside the range's columns, in buf when
// some are left out.
func (imp *importer) inRange(row xlsx.Row, buf *[]xlsx.Value) []xlsx.Value {
	r := imp.opts.Range
	if r.FirstCol <= 1 && r.LastCol == 0 {
		return row.Cells
	}
	*buf = (*buf)[:0]
	for _, c := range row.Cells {
		if c.Col() >= r.FirstCol && (r.LastCol == 0 || c.Col() <= r.LastCol) {
			*buf = append(*buf, c)
		}
	}
	return *buf
}

// pickColumns says which columns of the header Columns keeps (nil: all).
func (imp *importer) pickColumns(header []string) ([]bool, error) {
	if len(imp.opts.Columns) == 0 {
		return nil, nil
	}
	if imp.opts.NoHeader {
		return nil, errors.New("choosing columns by name needs a header row")
	}
	keep := make([]bool, len(header))
	for _, name := range imp.opts.Columns {
		found := false
		for i, h := range header {
			if strings.EqualFold(strings.TrimSpace(name), h) {
				keep[i], found = true, true
			}
		}
		if !found {
			return nil, fmt.Errorf("no column of the header is named %q", name)
		}
	}
	return keep, nil
}

func blankRow(cells []xlsx.Value) bool {
	for i := range cells {
		switch c := &cells[i]; c.Type() {
		case xlsx.TypeEmpty:
		case xlsx.TypeString:
			if len(bytes.TrimSpace(c.Bytes())) != 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// walk calls fn with the header row (header true; never, without one) and
// each data row of the table, in order, until the range, the sheet or,
// with StopAtEmpty, the table ends, or fn stops it.
// Once the first pass has spooled the rows, they come from the spool.
func (imp *importer) walk(ctx context.Context, fn func(r tableRow, header bool) (stop bool, err error)) error {
	if imp.spooled {
		err := imp.spool.replay(ctx, func(r tableRow) error {
			stop, err := fn(r, false)
			if err == nil && stop {
				err = errWalkDone
			}
			return err
		})
		if err == errWalkDone {
			return nil
		}
		return err
	}
	return imp.walkRows(ctx, imp.opts.StopAtEmpty, fn)
}

// walkRows is walk, ending at an empty row only with stopAtEmpty: the
// header search looks past the blank rows under a title.
func (imp *importer) walkRows(ctx context.Context, stopAtEmpty bool, fn func(r tableRow, header bool) (stop bool, err error)) error {
	rng := imp.opts.Range
	start := max(rng.FirstRow, 1)
	headerNum := 0 // the header's row number, once known; 0: none
	if imp.headerRow > 0 {
		headerNum = start + imp.headerRow - 1
	}
	// Without a row given, the header is the first row that is not empty.
	firstIsHeader := imp.headerRow == 0 && !imp.opts.NoHeader && imp.opts.HeaderRow != HeaderAuto
	prev := 0 // the last row handed to fn
	// Up to lastNull, an empty row under the header is a row of NULLs
	// the export wrote (a sheet cannot tell it from a blank line; the
	// schema part counted the rows): the header must be row 1, where
	// exports put it.
	lastNull := 0
	nulls := func(to int) error { // rows of NULLs after prev, to to
		for num := prev + 1; num <= min(to, lastNull); num++ {
			stop, err := fn(tableRow{num: num}, false)
			if err != nil {
				return err
			}
			if stop {
				return errWalkDone
			}
			prev = num
		}
		return nil
	}
	var buf []xlsx.Value
	err := imp.src.EachRow(ctx, func(row xlsx.Row) error {
		if row.Num < start {
			return nil
		}
		if rng.LastRow > 0 && row.Num > rng.LastRow {
			if err := nulls(rng.LastRow); err != nil {
				return err
			}
			return errWalkDone
		}
		cells := imp.inRange(row, &buf)
		if firstIsHeader && headerNum == 0 && !blankRow(cells) {
			headerNum = row.Num
		}
		isHeader := row.Num == headerNum
		if isHeader && headerNum == 1 && !stopAtEmpty {
			lastNull = 1 + imp.exportedRows
		}
		if prev > 0 && prev < row.Num-1 {
			if err := nulls(row.Num - 1); err != nil {
				return err
			}
		}
		switch {
		case headerNum > 0 && row.Num < headerNum:
			return nil // above the header: titles and notes
		case !isHeader && blankRow(cells) && row.Num > lastNull:
			if stopAtEmpty && prev > 0 {
				return errWalkDone
			}
			return nil
		case !isHeader && stopAtEmpty && prev > 0 && row.Num > prev+1:
			return errWalkDone // rows in between were empty
		}
		stop, err := fn(tableRow{num: row.Num, cells: cells}, isHeader)
		if err != nil {
			return err
		}
		if stop {
			return errWalkDone
		}
		prev = row.Num
		return nil
	})
	if err == nil && prev > 0 {
		to := lastNull
		if rng.LastRow > 0 {
			to = min(to, rng.LastRow)
		}
		err = nulls(to) // rows of NULLs at the end
	}
	if err == errWalkDone {
		return nil
	}
	return err
}

// errWalkDone ends a walk early, without an error.
var errWalkDone = errors.New("walk done")

// findHeader is HeaderAuto's search: it sets imp.headerRow (1-based in
// the range) to the first row whose non-empty cells are all text and
// whose next row (right under it) holds a number, date or boolean; failing
// that, the first all-text row with the most cells among the first 100.
// A header found the first way also bounds the table's columns, unless
// the range gives them: see regionColumns.
func (imp *importer) findHeader(ctx context.Context) error {
	type candidate struct {
		num, cells int
		allText    bool
		cols       []int // the columns with a value
	}
	var seen []candidate
	found := 0
	var dataCols []int // the first data row's columns with a value
	err := imp.walkRows(ctx, false, func(r tableRow, _ bool) (bool, error) {
		c := candidate{num: r.num, allText: true}
		for i := range r.cells {
			switch r.cells[i].Type() {
			case xlsx.TypeString:
				c.cells++
			case xlsx.TypeEmpty:
				continue
			default:
				c.allText = false
				c.cells++
			}
			c.cols = append(c.cols, r.cells[i].Col())
		}
		if n := len(seen); n > 0 && seen[n-1].allText && seen[n-1].num == r.num-1 && !c.allText {
			found, dataCols = seen[n-1].num, c.cols
			return true, nil
		}
		seen = append(seen, c)
		return len(seen) >= 100, nil
	})
	if err != nil {
		return err
	}
	if found > 0 && imp.opts.Range.FirstCol == 0 && imp.opts.Range.LastCol == 0 {
		imp.regionColumns(seen[len(seen)-1].cols, dataCols)
	}
	if found == 0 {
		best := candidate{}
		for _, c := range seen {
			if c.allText && c.cells > best.cells {
				best = c
			}
		}
		found = best.num
	}
	if found == 0 {
		return fmt.Errorf("no header row found (a row of text above the data); give --header-row")
	}
	imp.headerRow = found - max(imp.opts.Range.FirstRow, 1) + 1
	imp.stats.HeaderRow = found
	return nil
}

// regionColumns bounds the columns of a table whose header HeaderAuto
// found, as Excel's own region of a table (Ctrl+T) takes it: the header's
// contiguous run of cells, widened by the columns right beside it that
// the first data row has a value in. A note two columns right of the
// table ("checked by finance") is then outside it, not a column.
func (imp *importer) regionColumns(header, data []int) {
	if len(header) == 0 {
		return
	}
	has := map[int]bool{}
	for _, c := range header {
		has[c] = true
	}
	first := header[0]
	last := first
	for has[last+1] {
		last++
	}
	inData := map[int]bool{}
	for _, c := range data {
		inData[c] = true
	}
	for first > 1 && inData[first-1] {
		first--
	}
	for inData[last+1] {
		last++
	}
	imp.opts.Range.FirstCol, imp.opts.Range.LastCol = first, last
	imp.colBase = first - 1
}
