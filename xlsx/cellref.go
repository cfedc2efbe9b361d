package xlsx

import (
	"fmt"
	"strconv"
	"strings"
)

// Excel's grid.
const (
	MaxRows    = 1 << 20 // 1,048,576
	MaxColumns = 1 << 14 // 16,384
	// MaxCellChars is the longest text a cell holds, in UTF-16 code units.
	MaxCellChars = 32767
)

// columnNames holds "A".."XFD" packed: name i (0-based) sits at
// columnNames[i*3:] with length columnLens[i]. Built once; cell encoding
// appends from it instead of computing letters per cell.
var (
	columnNames [MaxColumns * 3]byte
	columnLens  [MaxColumns]uint8
)

func init() {
	for i := range MaxColumns {
		var tmp [3]byte
		n := 0
		for c := i + 1; c > 0; c = (c - 1) / 26 {
			tmp[2-n] = byte('A' + (c-1)%26)
			n++
		}
		copy(columnNames[i*3:], tmp[3-n:])
		columnLens[i] = uint8(n)
	}
}

func appendColumn(b []byte, col0 int) []byte {
	return append(b, columnNames[col0*3:col0*3+int(columnLens[col0])]...)
}

func appendCellRef(b []byte, row, col0 int) []byte {
	b = appendColumn(b, col0)
	return strconv.AppendInt(b, int64(row), 10)
}

// ColumnName returns the letters of a 1-based column number: 1 is "A",
// 28 is "AB". It returns "" outside 1..MaxColumns.
func ColumnName(col int) string {
	if col < 1 || col > MaxColumns {
		return ""
	}
	return string(appendColumn(nil, col-1))
}

// CellName returns the A1-style name of a 1-based row and column.
func CellName(row, col int) string {
	if row < 1 || row > MaxRows || col < 1 || col > MaxColumns {
		return ""
	}
	return string(appendCellRef(nil, row, col-1))
}

// ParseCellName splits an A1-style name ("$" signs allowed) into its
// 1-based row and column.
func ParseCellName(name string) (row, col int, err error) {
	s := strings.ReplaceAll(name, "$", "")
	i := 0
	for i < len(s) && i < 3 && s[i] >= 'A' && s[i] <= 'Z' {
		col = col*26 + int(s[i]-'A'+1)
		i++
	}
	if i == 0 || i == len(s) {
		return 0, 0, fmt.Errorf("%w: %q", ErrRange, name)
	}
	r, err := strconv.Atoi(s[i:])
	if err != nil || s[i] == '+' || s[i] == '-' || r < 1 || r > MaxRows || col > MaxColumns {
		return 0, 0, fmt.Errorf("%w: %q", ErrRange, name)
	}
	return r, col, nil
}

// Range is a rectangle of cells, 1-based and inclusive.
type Range struct {
	FirstRow, FirstCol, LastRow, LastCol int
}

// ParseRange reads "A1:C10" or a single cell "B2".
func ParseRange(s string) (Range, error) {
	a, b, found := strings.Cut(s, ":")
	r1, c1, err := ParseCellName(a)
	if err != nil {
		return Range{}, err
	}
	r2, c2 := r1, c1
	if found {
		if r2, c2, err = ParseCellName(b); err != nil {
			return Range{}, err
		}
	}
	return Range{min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)}, nil
}

func (r Range) valid() bool {
	return r.FirstRow >= 1 && r.FirstCol >= 1 && r.LastRow <= MaxRows && r.LastCol <= MaxColumns &&
		r.FirstRow <= r.LastRow && r.FirstCol <= r.LastCol
}

// String returns "A1:C10", or "B2" for a single cell; a range with a
// row or column outside the sheet reads as its numbers.
func (r Range) String() string {
	inside := func(row, col int) bool { return row >= 1 && row <= MaxRows && col >= 1 && col <= MaxColumns }
	if !inside(r.FirstRow, r.FirstCol) || !inside(r.LastRow, r.LastCol) {
		return fmt.Sprintf("rows %d-%d, columns %d-%d", r.FirstRow, r.LastRow, r.FirstCol, r.LastCol)
	}
	return string(r.append(nil, false))
}

func (r Range) append(b []byte, absolute bool) []byte {
	one := func(b []byte, row, col int) []byte {
		if absolute {
			b = append(b, '$')
		}
		b = appendColumn(b, col-1)
		if absolute {
			b = append(b, '$')
		}
		return strconv.AppendInt(b, int64(row), 10)
	}
	b = one(b, r.FirstRow, r.FirstCol)
	if r.FirstRow != r.LastRow || r.FirstCol != r.LastCol {
		b = append(b, ':')
		b = one(b, r.LastRow, r.LastCol)
	}
	return b
}

func (r Range) overlaps(o Range) bool {
	return r.FirstRow <= o.LastRow && o.FirstRow <= r.LastRow && r.FirstCol <= o.LastCol && o.FirstCol <= r.LastCol
}

// QuoteSheetName returns a sheet's name as a formula or a chart's range
// refers to it: as it is when plain, else in single quotes with quotes
// doubled ('My data', 'It”s').
func QuoteSheetName(name string) string { return quoteSheetName(name) }

// TruncateText cuts s to the MaxCellChars UTF-16 code units a cell holds
// (Excel counts characters so), on a rune boundary, and says whether it
// cut anything.
func TruncateText(s string) (string, bool) {
	if len(s) <= MaxCellChars {
		return s, false // a byte at least per code unit
	}
	units := 0
	for i, r := range s {
		w := 1
		if r > 0xFFFF {
			w = 2
		}
		if units+w > MaxCellChars {
			return s[:i], true
		}
		units += w
	}
	return s, false
}
