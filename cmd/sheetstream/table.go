package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/term"
	"golang.org/x/text/width"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// The table view of cat: rows aligned under column letters, with row
// numbers, for a person at a terminal. Numbers show as Excel shows them
// (15 significant digits: 0.13079200000000002 is 0.130792), right
// aligned; columns are as wide as their widest value in the first rows
// (at most maxCellWidth, longer values cut with an ellipsis), measured in
// terminal cells (a CJK character takes two); the columns that do not fit
// the terminal's width are left out, with a marker column saying how
// many.

const (
	tableSample  = 200 // rows measured for the columns' widths
	maxCellWidth = 40
	gap          = "  "
)

// tableCell is one cell's text and whether it is a number.
type tableCell struct {
	text   string
	number bool
}

type tableRow struct {
	num   int
	cells map[int]tableCell
}

// terminalWidth is the width the table fits: $COLUMNS, else the
// terminal's, else none (0: output to a file or a pipe is not cut).
func terminalWidth() int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil && w > 0 {
		return w
	}
	return 0
}

// displayWidth is how many terminal cells s takes: East Asian wide and
// full-width characters two, combining marks and other zero-width
// characters none.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	switch {
	case r == 0x200B || r == 0xFEFF || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || unicode.Is(unicode.Cf, r):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// cut shortens s to at most w terminal cells, ending it with "…" when it
// was longer.
func cut(s string, w int) string {
	if displayWidth(s) <= w {
		return s
	}
	n := 0
	for i, r := range s {
		if n+runeWidth(r) > w-1 {
			return s[:i] + "…"
		}
		n += runeWidth(r)
	}
	return s
}

// pad fills s to w terminal cells, on the left for numbers.
func pad(s string, w int, right bool) string {
	spaces := strings.Repeat(" ", max(w-displayWidth(s), 0))
	if right {
		return spaces + s
	}
	return s + spaces
}

// tableText is a cell's text in the table.
func tableText(c *xlsx.Value) tableCell {
	switch c.Type() {
	case xlsx.TypeNumber:
		return tableCell{text: excelNumber(c.Float()), number: true}
	case xlsx.TypeDate:
		return tableCell{text: string(csvsheet.AppendCellText(nil, c)), number: true}
	}
	return tableCell{text: oneLine.Replace(c.String())}
}

// excelNumber is f as Excel's General format shows it: 15 significant
// digits at most, trailing zeros dropped.
func excelNumber(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 15, 64), 64)
	if err != nil {
		r = f
	}
	return string(xlsx.AppendNumberText(nil, r))
}

// oneLine keeps a table cell on one line.
var oneLine = strings.NewReplacer("\n", "⏎", "\r", "", "\t", " ")

// tableWriter prints a sheet's rows as the table view.
type tableWriter struct {
	w        io.Writer
	maxWidth int // the terminal's width; 0: no limit
	widths   map[int]int
	maxCol   int
	numWidth int
	shown    int // columns that fit
}

// writeTable prints rows (the header, the first row, and the first head
// or the last tail rows under it, when above zero) as the table view.
func writeTable(w io.Writer, rows *xlsx.Rows, head, tail int) error {
	t := &tableWriter{w: w, maxWidth: terminalWidth(), widths: map[int]int{}, numWidth: 1}
	var buffered []tableRow
	var header *tableRow // with tail: the first row, printed first
	n := 0
	for rows.Next() {
		if head > 0 && n > head {
			break
		}
		n++
		r := rows.Row()
		row := tableRow{num: r.Num, cells: map[int]tableCell{}}
		for i := range r.Cells {
			c := &r.Cells[i]
			if c.Type() != xlsx.TypeEmpty {
				row.cells[c.Col()] = tableText(c)
			}
		}
		switch {
		case tail > 0 && n == 1:
			header = &row
		case tail > 0:
			// The last rows: measured at the end.
			buffered = append(buffered, row)
			if len(buffered) > tail {
				buffered = buffered[1:]
			}
		case n <= tableSample:
			buffered = append(buffered, row)
			if n == tableSample {
				t.flush(buffered)
				buffered = nil
			}
		default:
			t.printRow(row)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if header != nil {
		buffered = append([]tableRow{*header}, buffered...)
	}
	if len(buffered) > 0 {
		t.flush(buffered)
	}
	return nil
}

// flush measures the rows held, prints the head line and them.
func (t *tableWriter) flush(rows []tableRow) {
	for _, r := range rows {
		for c, v := range r.cells {
			t.widths[c] = min(max(t.widths[c], displayWidth(v.text), len(xlsx.ColumnName(c))), maxCellWidth)
			t.maxCol = max(t.maxCol, c)
		}
		t.numWidth = max(t.numWidth, len(strconv.Itoa(r.num))+1)
	}
	// The columns that fit the terminal, leaving room for the marker.
	t.shown = t.maxCol
	if t.maxWidth > 0 {
		used := t.numWidth
		for c := 1; c <= t.maxCol; c++ {
			marker := 0
			if c < t.maxCol {
				marker = len(gap) + len(moreMarker(t.maxCol-c))
			}
			if used+len(gap)+t.widths[c]+marker > t.maxWidth {
				// The column is cut to the room left, its values with
				// "…", where that leaves it legible; else it is left out.
				if room := t.maxWidth - used - len(gap) - marker; room >= minCutWidth {
					t.widths[c], t.shown = room, c
					break
				}
				if c > 1 {
					t.shown = c - 1
					break
				}
			}
			used += len(gap) + t.widths[c]
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%*s", t.numWidth, "")
	for c := 1; c <= t.shown; c++ {
		b.WriteString(gap + pad(xlsx.ColumnName(c), t.widths[c], false))
	}
	if t.shown < t.maxCol {
		b.WriteString(gap + moreMarker(t.maxCol-t.shown))
	}
	fmt.Fprintln(t.w, strings.TrimRight(b.String(), " "))
	for _, r := range rows {
		t.printRow(r)
	}
}

// minCutWidth is the narrowest a column is cut to, rather than left out.
const minCutWidth = 8

// moreMarker says how many columns were left out.
func moreMarker(n int) string { return fmt.Sprintf("… %d more", n) }

func (t *tableWriter) printRow(r tableRow) {
	var b strings.Builder
	fmt.Fprintf(&b, "%*d", t.numWidth, r.num)
	for c := 1; c <= t.shown; c++ {
		v := r.cells[c]
		b.WriteString(gap + pad(cut(v.text, t.widths[c]), t.widths[c], v.number))
	}
	if t.shown < t.maxCol {
		b.WriteString(gap + "…")
	}
	fmt.Fprintln(t.w, strings.TrimRight(b.String(), " "))
}
