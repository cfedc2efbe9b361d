package xlsx

import (
	"fmt"
	"math"
	"strings"

	"github.com/sheetstream/sheetstream/internal/isotime"
	"github.com/sheetstream/sheetstream/internal/xmlscan"
)

// sheetParser holds what parsing a chunk needs, shared read-only by the
// workers.
type sheetParser struct {
	sheet, part string
	file        string
	sst         *sstTable
	styles      *readStyles
	date1904    bool
	limits      Limits
}

func (p *sheetParser) errorf(row, col int, err error) error {
	return &ReadError{File: p.file, Part: p.part, Sheet: p.sheet, Row: row, Col: col, Err: err}
}

// parse turns a chunk's XML into rows and cells.
func (p *sheetParser) parse(c *chunk) {
	c.rows, c.cells, c.arena = c.rows[:0], c.cells[:0], c.arena[:0]
	c.merges, c.links, c.dim, c.err = c.merges[:0], c.links[:0], "", nil
	sc := &c.sc
	sc.MaxDepth = p.limits.MaxDepth
	sc.Reset(c.xml)
	inRow := false
	col := 0
	rowNum := 0
	closeRow := func() {
		if inRow {
			c.rows[len(c.rows)-1].end = int32(len(c.cells))
			inRow = false
		}
	}
	openRow := func(num int, open bool) {
		closeRow()
		rowNum = num
		c.rows = append(c.rows, rowSpan{num: int32(num), start: int32(len(c.cells)), end: int32(len(c.cells))})
		inRow = open
		col = 0
	}
	for {
		if b := sc.Rest(); inRow && len(b) > 3 && b[0] == '<' {
			if b[1] == 'c' && (b[2] == ' ' || b[2] == '>' || b[2] == '/') {
				n, next, err := p.fastCell(c, b, col)
				if err != nil {
					c.err = p.errorf(rowNum, next, err)
					closeRow()
					return
				}
				if n > 0 {
					col = next
					sc.Advance(n)
					continue
				}
			} else if b[1] == '/' {
				if n, num := fastRowBreak(b); n > 0 {
					openRow(num, true)
					sc.Advance(n)
					continue
				}
			}
		}
		k := sc.Next()
		switch k {
		case xmlscan.EOF:
			closeRow()
			if err := sc.Err(); err != nil {
				c.err = p.errorf(rowNum, 0, fmt.Errorf("%w: %w", ErrMalformed, err))
			}
			return
		case xmlscan.Start, xmlscan.Empty:
			name := sc.Name()
			if len(name) == 1 && name[0] == 'c' {
				if !inRow {
					if k == xmlscan.Start {
						sc.Skip()
					}
					continue
				}
				var err error
				col, err = p.cell(c, sc, k == xmlscan.Empty, col)
				if err != nil {
					c.err = p.errorf(rowNum, col, err)
					closeRow()
					return
				}
				continue
			}
			switch string(name) {
			case "row":
				closeRow()
				num := 0
				if v, ok := sc.Attr("r"); ok {
					n, ok := atoiBytes(v)
					if !ok || n < 1 || n > MaxRows {
						c.err = p.errorf(0, 0, fmt.Errorf("%w: row number %q", ErrMalformed, v))
						return
					}
					num = n
				}
				openRow(num, k == xmlscan.Start)
			case "dimension":
				if v, ok := sc.Attr("ref"); ok && c.first {
					c.dim = string(v)
				}
			case "mergeCell":
				if v, ok := sc.Attr("ref"); ok {
					c.merges = append(c.merges, string(v))
				}
			case "hyperlink":
				c.links = append(c.links, p.hyperlink(sc))
			}
		case xmlscan.End:
			if inRow && sc.Is("row") {
				closeRow()
			}
		}
	}
}

func (p *sheetParser) hyperlink(sc *xmlscan.Scanner) rawLink {
	var scratch []byte
	get := func(name string) string {
		v, ok := sc.Attr(name)
		if !ok {
			return ""
		}
		scratch, _ = xmlscan.DecodeAttr(scratch[:0], v)
		return string(scratch)
	}
	return rawLink{ref: get("ref"), rid: get("id"), location: get("location"), display: get("display"), tooltip: get("tooltip")}
}

// cell parses one <c> element; prev is the previous cell's column, which
// a cell without an r attribute follows.
func (p *sheetParser) cell(c *chunk, sc *xmlscan.Scanner, empty bool, prev int) (int, error) {
	var ref, style, typ []byte
	for a := sc.RawAttrs(); ; {
		name, value, rest, ok := xmlscan.NextAttr(a)
		if !ok {
			break
		}
		a = rest
		cellAttr(name, value, &ref, &style, &typ)
	}
	col, err := cellColumn(ref, prev)
	if err != nil || empty {
		return col, err
	}
	v, err := p.newValue(c, col, style)
	if err != nil {
		return col, err
	}
	var text []byte
	hasV, hasIS := false, false
	depth := sc.Depth()
	// Most cells are <c ...><v>text</v></c>.
	if t, ok := sc.Simple("v"); ok {
		text, hasV = t, true
	}
	for {
		k := sc.Next()
		if k == xmlscan.EOF {
			break
		}
		if k == xmlscan.End {
			if sc.Depth() < depth {
				break
			}
			continue
		}
		if k != xmlscan.Start {
			continue
		}
		switch string(sc.Name()) {
		case "v":
			text = sc.Content(&c.arena)
			hasV = true
		case "f":
			v.formula = sc.Content(&c.arena)
		case "is":
			text = p.inline(c, sc)
			hasIS = true
		default:
			sc.Skip()
		}
	}
	if err := sc.Err(); err != nil {
		c.cells = c.cells[:len(c.cells)-1]
		return col, err
	}
	return col, p.value(c, v, typ, text, hasV, hasIS)
}

// cellAttr keeps the attributes of a <c> the reader uses: r, s and t.
func cellAttr(name, value []byte, ref, style, typ *[]byte) {
	if len(name) != 1 {
		return
	}
	switch name[0] {
	case 'r':
		*ref = value
	case 's':
		*style = value
	case 't':
		*typ = value
	}
}

// fastCell reads the common forms of a cell straight from the bytes —
// <c r=".." s=".." t=".."/> or with <v>text</v> — in one pass. It returns
// the bytes consumed, or 0 for anything else (a formula, an inline
// string, an entity, a namespace prefix) for the general path to read.
func (p *sheetParser) fastCell(c *chunk, b []byte, prev int) (n, col int, err error) {
	var ref, style, typ []byte
	i := 2
	empty := false
	for {
		for i < len(b) && isXMLSpace(b[i]) {
			i++
		}
		if i >= len(b) {
			return 0, prev, nil
		}
		if b[i] == '>' {
			i++
			break
		}
		if b[i] == '/' {
			if i+1 >= len(b) || b[i+1] != '>' {
				return 0, prev, nil
			}
			i += 2
			empty = true
			break
		}
		name, value, next, ok := plainAttr(b, i)
		if !ok {
			return 0, prev, nil
		}
		cellAttr(name, value, &ref, &style, &typ)
		i = next
	}
	var text []byte
	hasV, hasIS := false, false
	if !empty {
		rest := b[i:]
		// plain finds the text of <open>text</close> at the start of rest.
		plain := func(open, close string) (int, bool) {
			if len(rest) < len(open) || string(rest[:len(open)]) != open {
				return 0, false
			}
			j := len(open)
			for j < len(rest) && rest[j] != '<' {
				if rest[j] == '&' || rest[j] == '\r' {
					return 0, false
				}
				j++
			}
			if len(rest) < j+len(close) || string(rest[j:j+len(close)]) != close {
				return 0, false
			}
			text = rest[len(open):j]
			return j + len(close), true
		}
		if len(rest) >= 4 && string(rest[:4]) == "</c>" {
			i += 4
		} else if n, ok := plain("<v>", "</v></c>"); ok {
			i += n
			hasV = true
		} else if n, ok := plain("<is><t>", "</t></is></c>"); ok {
			i += n
			hasIS = true
		} else {
			return 0, prev, nil
		}
	}
	if col, err = cellColumn(ref, prev); err != nil {
		return 0, col, err
	}
	if empty || !hasV && !hasIS {
		return i, col, nil
	}
	v, err := p.newValue(c, col, style)
	if err != nil {
		return 0, col, err
	}
	return i, col, p.value(c, v, typ, text, hasV, hasIS)
}

// fastRowBreak reads the common boundary between two rows straight from
// the bytes — </row><row r=".." ...>, white space allowed between the
// tags, attributes in the plain form name="value" — and returns the bytes
// consumed and the new row's number (0 without an r attribute). It
// returns n 0 for anything else, a bad row number included, for the
// general path to read. End and start tag together leave the scanner's
// depth as it was.
func fastRowBreak(b []byte) (n, num int) {
	if len(b) < 6 || string(b[:6]) != "</row>" {
		return 0, 0
	}
	i := 6
	for i < len(b) && isXMLSpace(b[i]) {
		i++
	}
	if len(b) < i+5 || string(b[i:i+4]) != "<row" || !isXMLSpace(b[i+4]) && b[i+4] != '>' {
		return 0, 0
	}
	i += 4
	for {
		for i < len(b) && isXMLSpace(b[i]) {
			i++
		}
		if i >= len(b) {
			return 0, 0
		}
		if b[i] == '>' {
			return i + 1, num
		}
		name, value, next, ok := plainAttr(b, i)
		if !ok {
			return 0, 0
		}
		i = next
		if name[len(name)-1] == 'r' && len(name) > 1 && name[len(name)-2] == ':' {
			return 0, 0 // a prefixed r, which Scanner.Attr also matches
		}
		if len(name) == 1 && name[0] == 'r' {
			v, ok := atoiBytes(value)
			if !ok || v < 1 || v > MaxRows || num != 0 {
				return 0, 0
			}
			num = v
		}
	}
}

// plainAttr reads the attribute at b[i:] of a tag the fast paths read, in
// the plain form name="value" (or '...', no white space around '=', no
// '<' in the value): its name, its value and the index after it. ok is
// false for any other form, which the scanner then reads.
func plainAttr(b []byte, i int) (name, value []byte, next int, ok bool) {
	start := i
	for i < len(b) && b[i] != '=' && !isXMLSpace(b[i]) && b[i] != '>' && b[i] != '/' && b[i] != '<' {
		i++
	}
	if i == start || i+1 >= len(b) || b[i] != '=' || (b[i+1] != '"' && b[i+1] != '\'') {
		return nil, nil, 0, false
	}
	q := b[i+1]
	j := i + 2
	for j < len(b) && b[j] != q && b[j] != '<' {
		j++
	}
	if j >= len(b) || b[j] != q {
		return nil, nil, 0, false
	}
	return b[start:i], b[i+2 : j], j + 1, true
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// cellColumn is a cell's column: its r attribute's, or the one after
// prev's when it has none.
func cellColumn(ref []byte, prev int) (int, error) {
	if ref == nil {
		if prev >= MaxColumns {
			return prev + 1, fmt.Errorf("%w: a cell after column %s, past the last column (XFD)", ErrMalformed, ColumnName(MaxColumns))
		}
		return prev + 1, nil
	}
	col, ok := refColumn(ref)
	if !ok {
		return prev, fmt.Errorf("%w: cell reference %q", ErrMalformed, ref)
	}
	return col, nil
}

// newValue starts a cell's Value from its column and s attribute, as the
// chunk's last cell: value fills it in, or takes it back when the cell
// is empty or bad. In place, since a Value is large and cells many.
func (p *sheetParser) newValue(c *chunk, col int, style []byte) (*Value, error) {
	n := 0
	if len(style) > 0 {
		var ok bool
		if n, ok = atoiBytes(style); !ok || n > math.MaxUint32 {
			return nil, fmt.Errorf("%w: style index %q", ErrMalformed, style)
		}
	}
	c.cells = append(c.cells, Value{col: int32(col), date1904: p.date1904, style: uint32(n)})
	return &c.cells[len(c.cells)-1], nil
}

// value types the chunk's last cell, v, from its t attribute and
// content, and takes it back when it holds nothing or is bad.
func (p *sheetParser) value(c *chunk, v *Value, typ, text []byte, hasV, hasIS bool) error {
	err := p.typeValue(v, typ, text, hasV, hasIS)
	if err != nil || v.typ == TypeEmpty && v.formula == nil {
		c.cells = c.cells[:len(c.cells)-1]
	}
	return err
}

// typeValue types a cell from its t attribute and content.
func (p *sheetParser) typeValue(v *Value, typ, text []byte, hasV, hasIS bool) error {
	if len(text) > p.limits.MaxStringSize {
		return fmt.Errorf("%w: text over %d bytes (Limits.MaxStringSize)", ErrLimit, p.limits.MaxStringSize)
	}
	switch string(typ) {
	case "s":
		if !hasV {
			break
		}
		i, ok := atoiBytes(trimSpace(text))
		s, found := p.sst.get(i)
		if !ok || !found { // the table holds far fewer than 2^32 strings
			return fmt.Errorf("%w: shared string index %q, the table has %d", ErrMalformed, text, p.sst.len())
		}
		v.typ, v.text, v.shared = TypeString, s, true
	case "", "n":
		if !hasV || len(text) == 0 {
			break
		}
		num := trimSpace(text)
		f, ok := parseNumber(num)
		if !ok {
			return fmt.Errorf("%w: number %q", ErrMalformed, text)
		}
		p.typeNumber(v, f)
		v.text = num
	case "b":
		if !hasV {
			break
		}
		v.typ = TypeBool
		if b := trimSpace(text); string(b) == "1" || string(b) == "true" {
			v.num = 1
		}
	case "e":
		if hasV {
			v.typ, v.text = TypeError, text
		}
	case "str", "inlineStr":
		if hasV || hasIS {
			v.typ, v.text = TypeString, unescapeX(text)
		}
	case "d":
		if !hasV {
			break
		}
		s := strings.TrimSuffix(bstr(text), "Z")
		t, kind := isotime.Parse(s)
		serial, ok := excelSerial(t, p.date1904)
		switch {
		case kind == isotime.Clock:
			v.typ, v.num, v.class = TypeDate, timeFraction(t), fmtTime
		case kind == isotime.Date && ok:
			v.typ, v.num, v.class = TypeDate, serial, fmtDate
		case kind != isotime.None && ok:
			v.typ, v.num, v.class = TypeDate, serial, fmtDateTime
		default:
			v.typ, v.text = TypeString, text
		}
	default:
		return fmt.Errorf("%w: cell type %q", ErrMalformed, typ)
	}
	return nil
}

// typeNumber makes v a number, or a date when its format shows one.
func (p *sheetParser) typeNumber(v *Value, f float64) {
	v.typ, v.num = TypeNumber, f
	if v.style != 0 {
		v.class = p.styles.class(int(v.style))
		if v.class.isDate() && validSerial(f, p.date1904) {
			v.typ = TypeDate
		}
	}
}

// inline reads an <is> element: plain or rich text, phonetic runs left
// out. One run is returned as it is; several are gathered in the arena.
func (p *sheetParser) inline(c *chunk, sc *xmlscan.Scanner) []byte {
	depth := sc.Depth()
	var first []byte
	start, runs := 0, 0
	for {
		k := sc.Next()
		if k == xmlscan.EOF || (k == xmlscan.End && sc.Depth() < depth) {
			break
		}
		if k != xmlscan.Start {
			continue
		}
		switch string(sc.Name()) {
		case "t":
			runs++
			if runs == 1 {
				first = sc.Content(&c.arena)
				continue
			}
			c.tmp = c.tmp[:0]
			t := sc.Content(&c.tmp)
			if runs == 2 {
				start = len(c.arena)
				c.arena = append(c.arena, first...)
			}
			c.arena = append(c.arena, t...)
		case "rPh":
			sc.Skip()
		}
	}
	if runs <= 1 {
		return first
	}
	return c.arena[start:]
}

// validSerial reports whether a number is a date Excel can show.
func validSerial(f float64, date1904 bool) bool {
	if date1904 {
		return f >= 0 && f < 2957003
	}
	return f >= 0 && f < 2958466
}
