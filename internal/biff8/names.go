package biff8

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sheetstream/sheetstream/internal/biff12"
)

// Record types of the workbook's defined names.
const (
	ExternSheet = 0x0017
	Name        = 0x0018
	SupBook     = 0x01AE
)

// builtinNames are the names Excel gives built-in defined names (a NAME
// record's one-character code), as OOXML spells them.
var builtinNames = [...]string{"_xlnm.Consolidate_Area", "_xlnm.Auto_Open", "_xlnm.Auto_Close", "_xlnm.Extract",
	"_xlnm.Database", "_xlnm.Criteria", "_xlnm.Print_Area", "_xlnm.Print_Titles", "_xlnm.Recorder", "_xlnm.Data_Form",
	"_xlnm.Auto_Activate", "_xlnm.Auto_Deactivate", "_xlnm.Sheet_Title", "_xlnm._FilterDatabase"}

// DefinedName is a NAME record: its name, the sheet it is local to (its
// index, or -1), whether it is hidden, and its formula's tokens.
type DefinedName struct {
	Name    string
	Sheet   int
	Hidden  bool
	Formula []byte
}

// ReadName reads a BIFF8 NAME record.
func ReadName(rec Record) (DefinedName, error) {
	d := rec.Data
	if len(d) < 15 {
		return DefinedName{}, fmt.Errorf("%w: a NAME record of %d bytes", ErrTruncated, len(d))
	}
	flags := binary.LittleEndian.Uint16(d)
	cch, cce := int(d[3]), int(binary.LittleEndian.Uint16(d[4:]))
	n := DefinedName{Sheet: int(binary.LittleEndian.Uint16(d[8:])) - 1, Hidden: flags&0x0001 != 0}
	c := NewCursor(Record{Data: d[14:], Conts: rec.Conts})
	text, err := c.Chars(nil, cch, 1<<10)
	if err != nil {
		return n, err
	}
	n.Name = string(text)
	if flags&0x0020 != 0 && len(text) == 1 && int(text[0]) < len(builtinNames) {
		n.Name = builtinNames[text[0]]
	}
	if cce = min(cce, c.Len()); cce > 0 {
		rest, err := c.read(cce)
		if err != nil {
			return n, err
		}
		n.Formula = append([]byte(nil), rest...)
	}
	return n, nil
}

// XTI is one EXTERNSHEET entry: the supporting book and sheets a 3-D
// reference's ixti names.
type XTI struct {
	Book              int
	FirstTab, LastTab int
}

// ReadExternSheet reads a BIFF8 EXTERNSHEET record.
func ReadExternSheet(rec Record) []XTI {
	c := NewCursor(rec)
	n, err := c.Uint16()
	if err != nil {
		return nil
	}
	out := make([]XTI, 0, min(int(n), 1<<12))
	for range n {
		b, err := c.read(6)
		if err != nil {
			break
		}
		out = append(out, XTI{int(binary.LittleEndian.Uint16(b)), int(int16(binary.LittleEndian.Uint16(b[2:]))), int(int16(binary.LittleEndian.Uint16(b[4:])))})
	}
	return out
}

// FormulaText turns a defined name's formula into text such as
// "Sheet1!$A$1:$B$2" or "Sheet1!$1:$1,Sheet1!$A:$A" for the tokens
// defined names use: 3-D and plain references and areas, unions, memory
// functions around them, and constants. sheet names the sheet of an
// ixti (whose book is this workbook), "" for one it cannot name; ok is
// false for other tokens.
func FormulaText(f []byte, sheet func(ixti int) (string, bool)) (string, bool) {
	return formulaText(f, sheet, biff8Grid)
}

// FormulaTextBIFF12 is FormulaText for .xlsb formulas, whose rows take
// four bytes and columns fourteen bits.
func FormulaTextBIFF12(f []byte, sheet func(ixti int) (string, bool)) (string, bool) {
	return formulaText(f, sheet, biff12Grid)
}

// grid is the size of a sheet and of a reference's fields in a format.
type grid struct {
	rowBytes int
	lastRow  uint32
	colMask  uint16
	lastCol  uint16
}

var (
	biff8Grid  = grid{rowBytes: 2, lastRow: 0xFFFF, colMask: 0xFF, lastCol: 0xFF}
	biff12Grid = grid{rowBytes: 4, lastRow: 0xFFFFF, colMask: 0x3FFF, lastCol: 0x3FFF}
)

func (g grid) row(b []byte) uint32 {
	if g.rowBytes == 4 {
		return binary.LittleEndian.Uint32(b)
	}
	return uint32(binary.LittleEndian.Uint16(b))
}

func formulaText(f []byte, sheet func(ixti int) (string, bool), g grid) (string, bool) {
	var stack []string
	pop := func() (string, bool) {
		if len(stack) == 0 {
			return "", false
		}
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		return s, true
	}
	le := binary.LittleEndian
	for i := 0; i < len(f); {
		ptg := f[i]
		i++
		need := func(n int) bool { return i+n <= len(f) }
		switch base := ptg & 0x1F; {
		case ptg == 0x10 || ptg == 0x0F: // union, intersection
			b, ok1 := pop()
			a, ok2 := pop()
			if !ok1 || !ok2 {
				return "", false
			}
			sep := ","
			if ptg == 0x0F {
				sep = " "
			}
			stack = append(stack, a+sep+b)
		case ptg == 0x15: // parentheses
			a, ok := pop()
			if !ok {
				return "", false
			}
			stack = append(stack, "("+a+")")
		case ptg == 0x1E && need(2):
			stack = append(stack, strconv.Itoa(int(le.Uint16(f[i:]))))
			i += 2
		case ptg == 0x1F && need(8):
			stack = append(stack, strconv.FormatFloat(math.Float64frombits(le.Uint64(f[i:])), 'g', -1, 64))
			i += 8
		case ptg == 0x1D && need(1):
			stack = append(stack, map[bool]string{true: "TRUE", false: "FALSE"}[f[i] != 0])
			i++
		case ptg == 0x1C && need(1):
			stack = append(stack, biff12.ErrorText(f[i]))
			i++
		case ptg&0x60 != 0 && (base == 0x09 || base == 0x0E || base == 0x0F) && need(2):
			i += 2 // PtgMemFunc and the like: the expression they hold follows
		case ptg&0x60 != 0 && base >= 0x06 && base <= 0x08 && need(6):
			i += 6 // PtgMemArea, PtgMemErr, PtgMemNoMem
		case ptg&0x60 != 0 && (base == 0x1A || base == 0x1B) && need(2): // 3-D reference or area
			ixti := int(le.Uint16(f[i:]))
			name, ok := sheet(ixti)
			if !ok {
				return "", false
			}
			i += 2
			var ref string
			if base == 0x1A && need(g.rowBytes+2) {
				ref = g.cellRef(g.row(f[i:]), le.Uint16(f[i+g.rowBytes:]))
				i += g.rowBytes + 2
			} else if base == 0x1B && need(2*g.rowBytes+4) {
				ref = g.areaRef(g.row(f[i:]), g.row(f[i+g.rowBytes:]), le.Uint16(f[i+2*g.rowBytes:]), le.Uint16(f[i+2*g.rowBytes+2:]))
				i += 2*g.rowBytes + 4
			} else {
				return "", false
			}
			if name == "" {
				stack = append(stack, "#REF!")
			} else {
				stack = append(stack, quoteSheet(name)+"!"+ref)
			}
		case ptg&0x60 != 0 && base == 0x1C && need(2+g.rowBytes+2): // PtgRefErr3d
			stack = append(stack, "#REF!")
			i += 2 + g.rowBytes + 2
		case ptg&0x60 != 0 && base == 0x1D && need(2+2*g.rowBytes+4): // PtgAreaErr3d
			stack = append(stack, "#REF!")
			i += 2 + 2*g.rowBytes + 4
		case ptg&0x60 != 0 && base == 0x04 && need(g.rowBytes+2):
			stack = append(stack, g.cellRef(g.row(f[i:]), le.Uint16(f[i+g.rowBytes:])))
			i += g.rowBytes + 2
		case ptg&0x60 != 0 && base == 0x05 && need(2*g.rowBytes+4):
			stack = append(stack, g.areaRef(g.row(f[i:]), g.row(f[i+g.rowBytes:]), le.Uint16(f[i+2*g.rowBytes:]), le.Uint16(f[i+2*g.rowBytes+2:])))
			i += 2*g.rowBytes + 4
		default:
			return "", false
		}
	}
	if len(stack) != 1 {
		return "", false
	}
	return stack[0], true
}

// column names a 0-based column.
func column(c int) string {
	var b []byte
	for c++; c > 0; c = (c - 1) / 26 {
		b = append([]byte{byte('A' + (c-1)%26)}, b...)
	}
	return string(b)
}

// cellRef writes a reference's row and column fields (the column's top
// bits say which are relative).
func (g grid) cellRef(row uint32, col uint16) string {
	return g.colPart(col) + rowPart(row, col)
}

func (g grid) colPart(col uint16) string {
	s := column(int(col & g.colMask))
	if col&0x4000 == 0 {
		s = "$" + s
	}
	return s
}

func rowPart(row uint32, col uint16) string {
	s := strconv.Itoa(int(row) + 1)
	if col&0x8000 == 0 {
		s = "$" + s
	}
	return s
}

// areaRef writes an area; whole rows and whole columns as Excel does.
func (g grid) areaRef(r1, r2 uint32, c1, c2 uint16) string {
	switch {
	case c1&g.colMask == 0 && c2&g.colMask == g.lastCol:
		return rowPart(r1, c1) + ":" + rowPart(r2, c2)
	case r1 == 0 && r2 == g.lastRow:
		return g.colPart(c1) + ":" + g.colPart(c2)
	}
	return g.cellRef(r1, c1) + ":" + g.cellRef(r2, c2)
}

// looksLikeRef reports whether a sheet name reads as a cell reference
// (Bot10, R1C1, R, C), which Excel quotes too.
func looksLikeRef(name string) bool {
	upper := strings.ToUpper(name)
	if upper == "R" || upper == "C" {
		return true
	}
	i := 0
	for i < len(upper) && upper[i] >= 'A' && upper[i] <= 'Z' {
		i++
	}
	j := i
	for j < len(upper) && upper[j] >= '0' && upper[j] <= '9' {
		j++
	}
	if i >= 1 && i <= 3 && j > i && j == len(upper) {
		return true
	}
	// R1C1 style: R, digits, C, digits.
	if len(upper) > 0 && upper[0] == 'R' {
		k := 1
		for k < len(upper) && upper[k] >= '0' && upper[k] <= '9' {
			k++
		}
		if k < len(upper) && upper[k] == 'C' {
			k++
			for k < len(upper) && upper[k] >= '0' && upper[k] <= '9' {
				k++
			}
			return k == len(upper)
		}
	}
	return false
}

// quoteSheet quotes a sheet name in a reference when it needs it.
func quoteSheet(name string) string {
	plain := name != ""
	for i, r := range name {
		if !(r == '_' || r == '.' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r > 0x7F || i > 0 && r >= '0' && r <= '9') {
			plain = false
		}
	}
	if plain && !looksLikeRef(name) {
		return name
	}
	return "'" + strings.ReplaceAll(name, "'", "''") + "'"
}
