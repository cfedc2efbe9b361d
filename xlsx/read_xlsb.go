package xlsx

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sheetstream/sheetstream/internal/biff12"
	"github.com/sheetstream/sheetstream/internal/biff8"
)

// The binary workbook (.xlsb) is the XLSX package with BIFF12 records in
// place of the XML of the workbook, shared strings, styles and sheets;
// the relationships, properties and everything else are the same.

// maxRecord bounds one BIFF12 record: the longest string the limits
// allow, as UTF-16, and room for the rest of its record.
func (wb *Workbook) maxRecord() int { return 2*wb.limits.MaxStringSize + 64<<10 }

// records opens a binary part's records.
func (wb *Workbook) records(part string) (*biff12.Reader, io.Closer, error) {
	pr, _, err := wb.openRawPart(part)
	if err != nil {
		return nil, nil, err
	}
	ra := newReadAhead(pr, 256<<10, 2)
	return biff12.NewReader(ra, wb.maxRecord()), ra, nil
}

// malformedBin wraps a record-level error of a binary part.
func malformedBin(err error) error {
	if errors.Is(err, biff12.ErrTooLarge) {
		return fmt.Errorf("%w: %w (Limits.MaxStringSize bounds records)", ErrLimit, err)
	}
	return fmt.Errorf("%w: %w", ErrMalformed, err)
}

// readWorkbookBin reads the sheet list and date system of workbook.bin.
func (wb *Workbook) readWorkbookBin() error {
	rr, closer, err := wb.records(wb.workbookPart)
	if err != nil {
		return err
	}
	defer closer.Close()
	var sheets []listedSheet
	var names []binName
	var xtis []biff8.XTI
	links, self := 0, -1
	for {
		typ, b, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return wb.errorf(wb.workbookPart, malformedBin(err))
		}
		switch typ {
		case biff12.SupSelf, biff12.SupSelf + 1, biff12.SupSelf + 2, biff12.SupSelf + 3, biff12.SupSelf + 4:
			if typ == biff12.SupSelf && self < 0 {
				self = links
			}
			links++
		case biff12.ExternSheet:
			xtis = binExternSheet(b)
		case biff12.Name:
			if n, err := binDefinedName(b); err == nil {
				names = append(names, n)
			}
		case biff12.WbProp:
			wb.date1904 = len(b) > 0 && b[0]&1 != 0
		case biff12.BundleSh:
			l, err := bundleSheet(b)
			if err != nil {
				return wb.errorf(wb.workbookPart, malformedBin(err))
			}
			sheets = append(sheets, l)
		}
	}
	if len(sheets) == 0 {
		// Excel never writes a workbook without a sheet; an empty reading
		// must not pass for the file's content.
		return wb.errorf(wb.workbookPart, fmt.Errorf("%w: the workbook lists no sheets", ErrMalformed))
	}
	all := make([]string, len(sheets))
	for i, l := range sheets {
		all[i] = l.name
	}
	wb.names = binNames(names, xtis, self, all)
	return wb.placeSheets(sheets, ".bin")
}

// binName is a BrtName: name, sheet index (-1: the workbook's), flags,
// formula tokens.
type binName struct {
	name            string
	sheet           int
	hidden, builtin bool
	formula         []byte
}

// binDefinedName reads a BrtName: flags, shortcut key, sheet, name, then
// the formula's size and tokens.
func binDefinedName(b []byte) (binName, error) {
	if len(b) < 9 {
		return binName{}, biff12.ErrTruncated
	}
	flags := binary.LittleEndian.Uint32(b)
	n := binName{hidden: flags&1 != 0, builtin: flags&0x20 != 0, sheet: int(int32(binary.LittleEndian.Uint32(b[5:])))}
	name, rest, err := biff12.String(nil, b[9:])
	if err != nil {
		return n, err
	}
	n.name = string(name)
	cce, rest, err := biff12.Uint32(rest)
	if err != nil || uint64(cce) > uint64(len(rest)) {
		return n, biff12.ErrTruncated
	}
	n.formula = bytes.Clone(rest[:cce]) // the record buffer is reused
	return n, nil
}

// binExternSheet reads a BrtExternSheet: the supporting link and sheets
// of each 3-D reference's ixti.
func binExternSheet(b []byte) []biff8.XTI {
	n, b, err := biff12.Uint32(b)
	if err != nil {
		return nil
	}
	out := make([]biff8.XTI, 0, min(int(n), len(b)/12))
	for range min(int(n), len(b)/12) {
		le := binary.LittleEndian
		out = append(out, biff8.XTI{Book: int(le.Uint32(b)), FirstTab: int(int32(le.Uint32(b[4:]))), LastTab: int(int32(le.Uint32(b[8:])))})
		b = b[12:]
	}
	return out
}

// binNames turns BrtName records into defined names, as xlsNames does.
func binNames(names []binName, xtis []biff8.XTI, self int, sheets []string) []DefinedName {
	var out []DefinedName
	for _, n := range names {
		if strings.HasPrefix(n.name, "_xlfn.") {
			continue
		}
		text, ok := biff8.FormulaTextBIFF12(n.formula, xtiSheets(xtis, self, sheets))
		if !ok {
			continue
		}
		dn := DefinedName{Name: n.name, RefersTo: text, Hidden: n.hidden}
		if n.builtin && !strings.HasPrefix(dn.Name, "_xlnm.") {
			dn.Name = "_xlnm." + dn.Name
		}
		if n.sheet >= 0 && n.sheet < len(sheets) {
			dn.Sheet = sheets[n.sheet]
		}
		out = append(out, dn)
	}
	return out
}

// bundleSheet reads a BrtBundleSh: state, tab id, relationship id, name.
func bundleSheet(b []byte) (listedSheet, error) {
	state, b, err := biff12.Uint32(b)
	if err != nil {
		return listedSheet{}, err
	}
	if _, b, err = biff12.Uint32(b); err != nil {
		return listedSheet{}, err
	}
	rid, b, err := biff12.String(nil, b)
	if err != nil {
		return listedSheet{}, err
	}
	name, _, err := biff12.String(nil, b)
	if err != nil {
		return listedSheet{}, err
	}
	l := listedSheet{name: string(name), rid: string(rid)}
	switch state {
	case 1:
		l.state = SheetHidden
	case 2:
		l.state = SheetVeryHidden
	}
	return l, nil
}

// readSSTBin reads sharedStrings.bin into wb.sst, flattening rich text.
func (wb *Workbook) readSSTBin() error {
	rr, closer, err := wb.records(wb.sstPart)
	if err != nil {
		return err
	}
	defer closer.Close()
	t := wb.sst
	for {
		typ, b, err := rr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return wb.errorf(wb.sstPart, malformedBin(err))
		}
		if typ != biff12.SSTItem {
			continue
		}
		if len(b) < 1 {
			return wb.errorf(wb.sstPart, fmt.Errorf("%w: an empty string item", ErrMalformed))
		}
		start := len(t.data)
		if t.data, _, err = biff12.String(t.data, b[1:]); err != nil {
			return wb.errorf(wb.sstPart, malformedBin(err))
		}
		if len(t.data)-start > wb.limits.MaxStringSize {
			return wb.errorf(wb.sstPart, fmt.Errorf("%w: string %d over %d bytes (Limits.MaxStringSize)", ErrLimit, t.len(), wb.limits.MaxStringSize))
		}
		if err := t.add(wb.limits); err != nil {
			return wb.errorf(wb.sstPart, err)
		}
	}
}

// readStylesBin reads the number formats and cell formats of styles.bin.
func (wb *Workbook) readStylesBin() (*readStyles, error) {
	rr, closer, err := wb.records(wb.stylesPart)
	if err != nil {
		return &readStyles{}, err
	}
	defer closer.Close()
	custom := map[int]string{}
	var ids []int
	var code []byte
	inCellXFs := false
	for {
		typ, b, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return &readStyles{}, wb.errorf(wb.stylesPart, malformedBin(err))
		}
		switch typ {
		case biff12.BeginCellXFs:
			inCellXFs = true
		case biff12.EndCellXFs:
			inCellXFs = false
		case biff12.XF:
			if inCellXFs && len(b) >= 4 {
				ids = append(ids, int(b[2])|int(b[3])<<8)
			}
		case biff12.Fmt:
			if len(b) < 2 {
				continue
			}
			if code, _, err = biff12.String(code[:0], b[2:]); err == nil {
				custom[int(b[0])|int(b[1])<<8] = string(code)
			}
		}
	}
	return newReadStyles(ids, custom), nil
}

// xlsbSheet decodes a sheet's records into rows.
type xlsbSheet struct {
	p       *sheetParser
	rr      *biff12.Reader
	closer  io.Closer
	first   bool
	pending int  // a row header read past a full chunk, 1-based; 0 if none
	row     int  // the row being filled, 1-based; 0 before the first
	col     int  // the last cell's column, 0-based, for short cells; -1 at a row's start
	ended   bool // BrtEndSheetData was read
}

func (wb *Workbook) openXLSBSheet(p *sheetParser) (rowSource, error) {
	rr, closer, err := wb.records(p.part)
	if err != nil {
		return nil, err
	}
	return &xlsbSheet{p: p, rr: rr, closer: closer, first: true}, nil
}

func (s *xlsbSheet) Close() error { return s.closer.Close() }

func (s *xlsbSheet) fail(col int, err error) error {
	return s.p.errorf(s.row, col, err)
}

func (s *xlsbSheet) fill(c *chunk) error {
	c.first, s.first = s.first, false
	if s.pending > 0 {
		s.row, s.pending = s.pending, 0
		c.rows = append(c.rows, rowSpan{num: int32(s.row), start: 0, end: 0})
	}
	closeRow := func() {
		if n := len(c.rows); n > 0 {
			c.rows[n-1].end = int32(len(c.cells))
		}
	}
	for {
		typ, b, err := s.rr.Next()
		if err == io.EOF {
			closeRow()
			if !s.ended {
				// Cut short: what was read must not pass for the sheet.
				return s.fail(0, fmt.Errorf("%w: the sheet's records end before its end (BrtEndSheetData)", ErrMalformed))
			}
			return io.EOF
		}
		if err != nil {
			closeRow()
			return s.fail(0, malformedBin(err))
		}
		switch typ {
		case biff12.RowHdr:
			rw, _, err := biff12.Uint32(b)
			if err != nil || rw >= MaxRows {
				closeRow()
				return s.fail(0, fmt.Errorf("%w: row header %d", ErrMalformed, rw))
			}
			closeRow()
			if len(c.cells) >= fillChunkCells || len(c.arena) >= 1<<20 {
				s.pending = int(rw) + 1
				return nil
			}
			s.row, s.col = int(rw)+1, -1
			c.rows = append(c.rows, rowSpan{num: int32(s.row), start: int32(len(c.cells)), end: int32(len(c.cells))})
		case biff12.EndSheetData:
			s.ended = true
		case biff12.CellBlank:
			if col, _, _, err := biff12.Cell(b); err == nil {
				s.col = int(col)
			}
		case biff12.ShortBlank:
			s.col++
		case biff12.ShortRk, biff12.ShortError, biff12.ShortBool, biff12.ShortReal, biff12.ShortSt, biff12.ShortIsst:
			if err := s.cell(c, typ, b); err != nil {
				closeRow()
				return err
			}
		case biff12.CellRk, biff12.CellError, biff12.CellBool, biff12.CellReal, biff12.CellSt, biff12.CellIsst,
			biff12.FmlaString, biff12.FmlaNum, biff12.FmlaBool, biff12.FmlaError, biff12.CellRString:
			if err := s.cell(c, typ, b); err != nil {
				closeRow()
				return err
			}
		case biff12.WsDim:
			if rg, _, err := biff12.ReadRange(b); err == nil && c.first {
				c.dim = binRange(rg).String()
			}
		case biff12.MergeCell:
			if rg, _, err := biff12.ReadRange(b); err == nil {
				c.merges = append(c.merges, binRange(rg).String())
			}
		case biff12.HLink:
			if l, err := binLink(b); err == nil {
				c.links = append(c.links, l)
			}
		}
	}
}

// binRange turns a 0-based RfX into a Range, clamped to the sheet.
func binRange(r biff12.Range) Range {
	clamp := func(v uint32, hi int) int { return int(min(v, uint32(hi-1))) + 1 }
	return Range{clamp(r.FirstRow, MaxRows), clamp(r.FirstCol, MaxColumns), clamp(r.LastRow, MaxRows), clamp(r.LastCol, MaxColumns)}
}

// binLink reads a BrtHLink: range, relationship id, location, tooltip,
// display text.
func binLink(b []byte) (rawLink, error) {
	rg, b, err := biff12.ReadRange(b)
	if err != nil {
		return rawLink{}, err
	}
	var fields [4][]byte
	for i := range fields {
		if fields[i], b, err = biff12.String(nil, b); err != nil {
			return rawLink{}, err
		}
	}
	return rawLink{ref: binRange(rg).String(), rid: string(fields[0]), location: string(fields[1]),
		tooltip: string(fields[2]), display: string(fields[3])}, nil
}

// errorTexts are the error codes' texts, made once so cells can share them.
var errorTexts = func() map[byte][]byte {
	m := map[byte][]byte{}
	for code := range 256 {
		if t := biff12.ErrorText(byte(code)); t != "" {
			m[byte(code)] = []byte(t)
		}
	}
	return m
}()

// cell decodes one cell record into c.
func (s *xlsbSheet) cell(c *chunk, typ int, b []byte) error {
	var col, style uint32
	var rest []byte
	var err error
	if typ >= biff12.ShortBlank && typ <= biff12.ShortIsst {
		// The cell after the last one, whose record names no column.
		style, rest, err = biff12.ShortCell(b)
		col = uint32(s.col + 1)
		typ -= biff12.ShortRk - biff12.CellRk // ShortRk..ShortIsst are CellRk..CellIsst, shifted
	} else {
		col, style, rest, err = biff12.Cell(b)
	}
	if err != nil {
		return s.fail(s.col+2, malformedBin(err))
	}
	s.col = int(min(col, MaxColumns))
	if col >= MaxColumns {
		return s.fail(0, fmt.Errorf("%w: column %d", ErrMalformed, col+1))
	}
	if len(c.rows) == 0 {
		return s.fail(int(col)+1, fmt.Errorf("%w: a cell before any row", ErrMalformed))
	}
	v := Value{col: int32(col) + 1, date1904: s.p.date1904, style: style}
	bad := func(err error) error { return s.fail(int(col)+1, malformedBin(err)) }
	switch typ {
	case biff12.CellRk:
		n, _, err := biff12.Uint32(rest)
		if err != nil {
			return bad(err)
		}
		s.p.typeNumber(&v, biff12.RK(n))
	case biff12.CellReal, biff12.FmlaNum:
		f, _, err := biff12.Float(rest)
		if err != nil {
			return bad(err)
		}
		s.p.typeNumber(&v, f)
	case biff12.CellBool, biff12.FmlaBool:
		if len(rest) < 1 {
			return bad(biff12.ErrTruncated)
		}
		v.typ = TypeBool
		if rest[0] != 0 {
			v.num = 1
		}
	case biff12.CellError, biff12.FmlaError:
		if len(rest) < 1 {
			return bad(biff12.ErrTruncated)
		}
		text, ok := errorTexts[rest[0]]
		if !ok {
			return s.fail(int(col)+1, fmt.Errorf("%w: error code 0x%02X", ErrMalformed, rest[0]))
		}
		v.typ, v.text = TypeError, text
	case biff12.CellIsst:
		i, _, err := biff12.Uint32(rest)
		if err != nil {
			return bad(err)
		}
		text, ok := s.p.sst.get(int(i))
		if !ok {
			return s.fail(int(col)+1, fmt.Errorf("%w: shared string index %d, the table has %d", ErrMalformed, i, s.p.sst.len()))
		}
		v.typ, v.text, v.shared = TypeString, text, true
	case biff12.CellSt, biff12.FmlaString, biff12.CellRString:
		if typ == biff12.CellRString {
			if len(rest) < 1 {
				return bad(biff12.ErrTruncated)
			}
			rest = rest[1:] // rich text flags; the runs follow the text
		}
		start := len(c.arena)
		if c.arena, _, err = biff12.String(c.arena, rest); err != nil {
			return bad(err)
		}
		if len(c.arena)-start > s.p.limits.MaxStringSize {
			return s.fail(int(col)+1, fmt.Errorf("%w: text over %d bytes (Limits.MaxStringSize)", ErrLimit, s.p.limits.MaxStringSize))
		}
		v.typ, v.text = TypeString, c.arena[start:len(c.arena):len(c.arena)]
	}
	c.cells = append(c.cells, v)
	return nil
}
