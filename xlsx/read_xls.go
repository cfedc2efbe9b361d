package xlsx

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sheetstream/sheetstream/internal/biff12"
	"github.com/sheetstream/sheetstream/internal/biff8"
	"github.com/sheetstream/sheetstream/internal/cfb"
)

// Excel 97-2003 (.xls) workbooks are a Workbook stream of BIFF8 records
// in a compound file (Excel 5.0/95: a Book stream of BIFF5): the
// workbook globals first (sheet list, shared strings, formats, date
// system, code page), then each sheet's records from the offset the
// sheet list gives.

// xlsBook is what reading a .xls needs after its globals.
type xlsBook struct {
	stream   sizedReaderAt
	name     string // the stream's name: Workbook, or Book for BIFF5
	biff5    bool
	codepage uint16
	offsets  []int64 // each listed sheet's BOF, by sheet index
}

// sizedReaderAt is a workbook stream: in a compound file, or the whole
// file for a BIFF5 or BIFF8 stream saved without one.
type sizedReaderAt interface {
	io.ReaderAt
	Size() int64
}

// xlsStream finds the workbook stream of a compound file, or "": the
// BIFF8 Workbook stream before a BIFF5 Book stream, which files saved
// for both Excel 97 and Excel 95 also hold.
func xlsStream(c *cfb.Reader) string {
	found := ""
	for _, e := range c.Entries() {
		if !e.Stream || strings.Contains(e.Path, "/") {
			continue
		}
		if strings.EqualFold(e.Path, "Workbook") {
			return e.Path
		}
		if strings.EqualFold(e.Path, "Book") {
			found = e.Path
		}
	}
	return found
}

// malformedXLS wraps a record-level error.
func malformedXLS(err error) error {
	if errors.Is(err, biff8.ErrTooLarge) {
		return fmt.Errorf("%w: %w", ErrLimit, err)
	}
	return fmt.Errorf("%w: %w", ErrMalformed, err)
}

// loadXLS reads the workbook globals of a .xls.
func (wb *Workbook) loadXLS(st sizedReaderAt, name string) error {
	book := &xlsBook{stream: st, name: name, codepage: 1252}
	wb.format, wb.xls = FormatXLS, book
	rr := biff8.NewReader(io.NewSectionReader(st, 0, st.Size()), 0)
	rec, err := rr.Next()
	if err != nil || !biff8.IsBOF(rec.Type) {
		return wb.errorf(name, fmt.Errorf("%w: the workbook stream does not begin with a BOF record", ErrMalformed))
	}
	switch version, _ := biff8.Version(rec); {
	case version >= 2 && version <= 4 || version == 0x0200 || version == 0x0300 || version == 0x0400:
		return wb.errorf(name, fmt.Errorf("%w: an Excel 2.x-4.0 (BIFF%d) workbook, which sheetstream does not read; save it as .xlsx", ErrLegacyXLS, max(version, version>>8)))
	case version == 0x0500:
		book.biff5 = true
	}
	sst := &sstTable{offs: []uint32{0}}
	custom := map[int]string{}
	var ids []int
	var sheets []listedSheet
	var kinds []SheetKind
	var allSheets []string // every BOUNDSHEET, modules too, as tab indexes count them
	var names []biff8.DefinedName
	var xtis []biff8.XTI
	books, selfBook := 0, -1
	var cur biff8.Cursor
	var text []byte
	dec := biff8.CodePageDecoder(book.codepage)
	for {
		rec, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return wb.errorf(name, malformedXLS(err))
		}
		if rec.Type == biff8.EOF {
			break
		}
		cur.Reset(rec)
		switch rec.Type {
		case biff8.FilePass:
			scheme := "XOR obfuscation"
			if biff8.Uint16(rec.Data, 0) == 1 {
				scheme = "RC4"
				if biff8.Uint16(rec.Data, 2) >= 2 {
					scheme = "RC4 CryptoAPI"
				}
			}
			return wb.errorf(name, fmt.Errorf("%w: a .xls encrypted with %s, which sheetstream does not decrypt; save it without a password or as .xlsx", ErrUnsupportedEncryption, scheme))
		case biff8.CodePage:
			book.codepage = biff8.Uint16(rec.Data, 0)
			dec = biff8.CodePageDecoder(book.codepage)
		case biff8.DateMode:
			wb.date1904 = biff8.Uint16(rec.Data, 0) == 1
		case biff8.Format, biff8.Format4:
			id, err := cur.Uint16()
			if err != nil {
				continue
			}
			if book.biff5 {
				text, err = cur.ByteString(text[:0], 1, dec)
			} else {
				text, err = cur.UnicodeString(text[:0], 2, wb.limits.MaxStringSize)
			}
			if err == nil {
				custom[int(id)] = string(text)
			}
		case biff8.XF:
			ids = append(ids, int(biff8.Uint16(rec.Data, 2)))
		case biff8.BoundSheet:
			if len(rec.Data) < 7 {
				return wb.errorf(name, fmt.Errorf("%w: a sheet entry of %d bytes", ErrMalformed, len(rec.Data)))
			}
			cur.Skip(6)
			if book.biff5 {
				text, err = cur.ByteString(text[:0], 1, dec)
			} else {
				text, err = cur.UnicodeString(text[:0], 1, wb.limits.MaxStringSize)
			}
			if err != nil {
				return wb.errorf(name, malformedXLS(err))
			}
			allSheets = append(allSheets, string(text))
			kind := SheetKindWorksheet
			switch rec.Data[5] {
			case 1:
				kind = SheetKindMacrosheet
			case 2:
				kind = SheetKindChartsheet
			case 6:
				continue // a Visual Basic module, not a sheet
			}
			l := listedSheet{name: string(text)}
			switch rec.Data[4] & 3 {
			case 1:
				l.state = SheetHidden
			case 2:
				l.state = SheetVeryHidden
			}
			sheets = append(sheets, l)
			kinds = append(kinds, kind)
			book.offsets = append(book.offsets, int64(biff8.Uint32(rec.Data, 0)))
		case biff8.SST:
			if err := wb.readSSTXLS(&cur, sst); err != nil {
				return err
			}
		case biff8.SupBook:
			// The workbook's own: the sheet count, then 0x0401.
			if len(rec.Data) == 4 && biff8.Uint16(rec.Data, 2) == 0x0401 && selfBook < 0 {
				selfBook = books
			}
			books++
		case biff8.ExternSheet:
			if !book.biff5 {
				xtis = biff8.ReadExternSheet(rec)
			}
		case biff8.Name:
			if !book.biff5 {
				if n, err := biff8.ReadName(rec); err == nil {
					names = append(names, n)
				}
			}
		}
	}
	if len(sheets) == 0 {
		return wb.errorf(name, fmt.Errorf("%w: the workbook lists no sheets", ErrMalformed))
	}
	for i, l := range sheets {
		wb.sheets = append(wb.sheets, SheetInfo{Index: i, Name: l.name, State: l.state, Kind: kinds[i], Part: name})
	}
	wb.names = xlsNames(names, xtis, selfBook, allSheets)
	styles := newReadStyles(ids, custom)
	wb.sstOnce.Do(func() { wb.sst = sst })
	wb.stylesOnce.Do(func() { wb.styles = styles })
	return nil
}

// xlsNames turns NAME records into defined names, their formulas into
// text; names whose formulas hold other tokens than references, unions
// and constants (functions, external books) are left out.
func xlsNames(names []biff8.DefinedName, xtis []biff8.XTI, selfBook int, sheets []string) []DefinedName {
	sheet := xtiSheets(xtis, selfBook, sheets)
	var out []DefinedName
	for _, n := range names {
		if strings.HasPrefix(n.Name, "_xlfn.") {
			continue // placeholders for functions newer than the format
		}
		text, ok := biff8.FormulaText(n.Formula, sheet)
		if !ok {
			continue
		}
		dn := DefinedName{Name: n.Name, RefersTo: text, Hidden: n.Hidden}
		if n.Sheet >= 0 && n.Sheet < len(sheets) {
			dn.Sheet = sheets[n.Sheet]
		}
		out = append(out, dn)
	}
	return out
}

// xtiSheets names the sheets a 3-D reference's ixti points to: one sheet,
// a span (First:Last), "" for a deleted one (#REF!); false for another
// workbook's.
func xtiSheets(xtis []biff8.XTI, self int, sheets []string) func(ixti int) (string, bool) {
	return func(ixti int) (string, bool) {
		if ixti >= len(xtis) || xtis[ixti].Book != self {
			return "", false
		}
		x := xtis[ixti]
		if x.FirstTab < 0 || x.FirstTab >= len(sheets) || x.LastTab >= len(sheets) {
			return "", true
		}
		if x.LastTab > x.FirstTab {
			return sheets[x.FirstTab] + ":" + sheets[x.LastTab], true
		}
		return sheets[x.FirstTab], true
	}
}

// readSSTXLS reads the SST record's strings. The counts it begins with
// are not trusted (writers get them wrong): the strings end where the
// record and its continuations do.
func (wb *Workbook) readSSTXLS(cur *biff8.Cursor, sst *sstTable) error {
	if err := cur.Skip(8); err != nil {
		return wb.errorf(wb.xls.name, malformedXLS(err))
	}
	for cur.Len() > 0 {
		var err error
		if sst.data, err = cur.UnicodeString(sst.data, 2, wb.limits.MaxStringSize); err != nil {
			return wb.errorf(wb.xls.name, fmt.Errorf("shared string %d: %w", sst.len(), malformedXLS(err)))
		}
		if err := sst.add(wb.limits); err != nil {
			return wb.errorf(wb.xls.name, err)
		}
	}
	return nil
}

// xlsSheet decodes a sheet's records into rows.
type xlsSheet struct {
	p      *sheetParser
	book   *xlsBook
	rr     *biff8.Reader
	ahead  *readAhead
	cur    biff8.Cursor
	dec    biff8.Decoder
	first  bool
	row    int // the row being filled, 1-based; 0 before the first
	held   biff8.Record
	isHeld bool
	depth  int  // substreams (embedded charts) open inside the sheet's
	chart  bool // a chart sheet: no cells
	// A formula whose text result follows in a STRING record.
	formulaCol, formulaStyle int
	formulaRow               int
}

func (wb *Workbook) openXLSSheet(p *sheetParser, index int) (rowSource, error) {
	book := wb.xls
	off := book.offsets[index]
	if off < 0 || off >= book.stream.Size() {
		return nil, wb.errorf(book.name, fmt.Errorf("%w: sheet %q starts at %d, past the stream's end (%d bytes)", ErrMalformed, p.sheet, off, book.stream.Size()))
	}
	// The compound file's sectors are read on their own goroutine while
	// this one decodes records.
	ra := newReadAhead(io.NopCloser(io.NewSectionReader(book.stream, off, book.stream.Size()-off)), 128<<10, 2)
	rr := biff8.NewReader(ra, off)
	rec, err := rr.Next()
	if err != nil {
		ra.Close()
		return nil, wb.errorf(book.name, fmt.Errorf("sheet %q: %w", p.sheet, malformedXLS(err)))
	}
	if !biff8.IsBOF(rec.Type) {
		ra.Close()
		return nil, wb.errorf(book.name, fmt.Errorf("%w: sheet %q does not begin with a BOF record", ErrMalformed, p.sheet))
	}
	s := &xlsSheet{p: p, book: book, rr: rr, ahead: ra, dec: biff8.CodePageDecoder(book.codepage), first: true}
	// A chart sheet's records cache its series' values as cells, which
	// are no cells of the sheet.
	_, kind := biff8.Version(rec)
	s.chart = kind == 0x0020
	return s, nil
}

func (s *xlsSheet) Close() error { return s.ahead.Close() }

// next returns the held record, if any, or reads one.
func (s *xlsSheet) next() (biff8.Record, error) {
	if s.isHeld {
		s.isHeld = false
		return s.held, nil
	}
	return s.rr.Next()
}

// hold keeps a record for the next fill, copied out of the reader's
// buffer.
func (s *xlsSheet) hold(rec biff8.Record) {
	s.held.Type, s.held.Pos = rec.Type, rec.Pos
	s.held.Data = append(s.held.Data[:0], rec.Data...)
	s.held.Conts = s.held.Conts[:0]
	for _, c := range rec.Conts {
		s.held.Conts = append(s.held.Conts, slices.Clone(c))
	}
	s.isHeld = true
}

// cellRecords are the records that hold cells, with a row and column
// in their first four bytes.
func cellRecord(typ uint16) bool {
	switch typ {
	case biff8.Number, biff8.RK, biff8.MulRK, biff8.LabelSST, biff8.Label, biff8.RString, biff8.BoolErr, biff8.Formula:
		return true
	}
	return false
}

func (s *xlsSheet) fill(c *chunk) error {
	c.first, s.first = s.first, false
	if s.chart {
		return io.EOF
	}
	closeRow := func() {
		if n := len(c.rows); n > 0 {
			sp := &c.rows[n-1]
			sp.end = int32(len(c.cells))
			cells := c.cells[sp.start:sp.end]
			if !slices.IsSortedFunc(cells, func(a, b Value) int { return int(a.col - b.col) }) {
				slices.SortStableFunc(cells, func(a, b Value) int { return int(a.col - b.col) })
			}
		}
	}
	for {
		rec, err := s.next()
		if err == io.EOF {
			// Cut short: what was read must not pass for the sheet.
			closeRow()
			return s.p.errorf(s.row, 0, fmt.Errorf("%w: the workbook stream ends before the sheet's EOF record", ErrMalformed))
		}
		if err != nil {
			closeRow()
			return s.p.errorf(s.row, 0, malformedXLS(err))
		}
		if biff8.IsBOF(rec.Type) {
			s.depth++
			continue
		}
		if rec.Type == biff8.EOF {
			if s.depth == 0 {
				closeRow()
				return io.EOF
			}
			s.depth--
			continue
		}
		if s.depth > 0 {
			continue
		}
		if cellRecord(rec.Type) {
			if len(rec.Data) < 6 {
				closeRow()
				return s.p.errorf(s.row, 0, fmt.Errorf("%w: a cell record of %d bytes", ErrMalformed, len(rec.Data)))
			}
			row := int(biff8.Uint16(rec.Data, 0)) + 1
			switch {
			case row < s.row:
				closeRow()
				return s.p.errorf(row, int(biff8.Uint16(rec.Data, 2))+1, fmt.Errorf("%w: a cell after row %d's, out of row order", ErrMalformed, s.row))
			case row > s.row:
				closeRow()
				if len(c.cells) >= fillChunkCells || len(c.arena) >= 1<<20 {
					s.hold(rec)
					return nil
				}
				s.row = row
				c.rows = append(c.rows, rowSpan{num: int32(row), start: int32(len(c.cells)), end: int32(len(c.cells))})
			}
			if err := s.cell(c, rec); err != nil {
				closeRow()
				return err
			}
			continue
		}
		switch rec.Type {
		case biff8.String:
			if s.formulaRow == 0 || s.formulaRow != s.row {
				continue
			}
			if err := s.text(c, rec, s.formulaCol, s.formulaStyle, 0); err != nil {
				closeRow()
				return err
			}
			s.formulaRow = 0
		case biff8.Dimensions:
			if c.first && len(rec.Data) >= 14 {
				r1, r2 := biff8.Uint32(rec.Data, 0), biff8.Uint32(rec.Data, 4)
				c1, c2 := biff8.Uint16(rec.Data, 8), biff8.Uint16(rec.Data, 10)
				if r2 > r1 && c2 > c1 {
					c.dim = binRange(biff12.Range{FirstRow: r1, LastRow: r2 - 1, FirstCol: uint32(c1), LastCol: uint32(c2) - 1}).String()
				}
			}
		case biff8.MergedCells:
			n := int(biff8.Uint16(rec.Data, 0))
			for i := range n {
				o := 2 + 8*i
				if o+8 > len(rec.Data) {
					break
				}
				d := rec.Data[o:]
				rg := biff12.Range{FirstRow: uint32(biff8.Uint16(d, 0)), LastRow: uint32(biff8.Uint16(d, 2)),
					FirstCol: uint32(biff8.Uint16(d, 4)), LastCol: uint32(biff8.Uint16(d, 6))}
				c.merges = append(c.merges, binRange(rg).String())
			}
		case biff8.HLink:
			if l, ok := xlsLink(rec.Data); ok {
				c.links = append(c.links, l)
			}
		}
	}
}

// cell decodes one cell record of the current row into c.
func (s *xlsSheet) cell(c *chunk, rec biff8.Record) error {
	d := rec.Data
	col := int(biff8.Uint16(d, 2)) + 1
	style := int(biff8.Uint16(d, 4))
	need := func(n int) error {
		if len(d) < n {
			return s.p.errorf(s.row, col, fmt.Errorf("%w: record 0x%04X of %d bytes, %d expected", ErrMalformed, rec.Type, len(d), n))
		}
		return nil
	}
	v := Value{col: int32(col), date1904: s.p.date1904, style: uint32(style)}
	switch rec.Type {
	case biff8.Number:
		if err := need(14); err != nil {
			return err
		}
		s.p.typeNumber(&v, biff8.Float(d, 6))
	case biff8.RK:
		if err := need(10); err != nil {
			return err
		}
		s.p.typeNumber(&v, biff12.RK(biff8.Uint32(d, 6)))
	case biff8.MulRK:
		// Columns from the first on, six bytes each (format, RK), then
		// the last column.
		n := (len(d) - 6) / 6
		for i := range n {
			col := int(biff8.Uint16(d, 2)) + 1 + i
			if col > MaxColumns {
				return s.p.errorf(s.row, col, fmt.Errorf("%w: column %d", ErrMalformed, col))
			}
			v := Value{col: int32(col), date1904: s.p.date1904, style: uint32(biff8.Uint16(d, 4+6*i))}
			s.p.typeNumber(&v, biff12.RK(biff8.Uint32(d, 6+6*i)))
			c.cells = append(c.cells, v)
		}
		return nil
	case biff8.LabelSST:
		if err := need(10); err != nil {
			return err
		}
		i := biff8.Uint32(d, 6)
		text, ok := s.p.sst.get(int(i))
		if !ok {
			return s.p.errorf(s.row, col, fmt.Errorf("%w: shared string index %d, the table has %d", ErrMalformed, i, s.p.sst.len()))
		}
		v.typ, v.text, v.shared = TypeString, text, true
	case biff8.Label, biff8.RString:
		return s.text(c, rec, col, style, 6)
	case biff8.BoolErr:
		if err := need(8); err != nil {
			return err
		}
		if d[7] == 0 {
			v.typ = TypeBool
			if d[6] != 0 {
				v.num = 1
			}
		} else if err := s.errorCode(&v, d[6]); err != nil {
			return err
		}
	case biff8.Formula:
		if err := need(20); err != nil {
			return err
		}
		if biff8.Uint16(d, 12) != 0xFFFF {
			s.p.typeNumber(&v, biff8.Float(d, 6))
			break
		}
		switch d[6] {
		case 0: // text, in the STRING record after this one
			s.formulaRow, s.formulaCol, s.formulaStyle = s.row, col, style
			return nil
		case 1:
			v.typ = TypeBool
			if d[8] != 0 {
				v.num = 1
			}
		case 2:
			if err := s.errorCode(&v, d[8]); err != nil {
				return err
			}
		case 3:
			v.typ = TypeString
		default:
			return s.p.errorf(s.row, col, fmt.Errorf("%w: formula result type %d", ErrMalformed, d[6]))
		}
	}
	if col > MaxColumns {
		return s.p.errorf(s.row, col, fmt.Errorf("%w: column %d", ErrMalformed, col))
	}
	c.cells = append(c.cells, v)
	return nil
}

// errorCode makes v an error cell.
func (s *xlsSheet) errorCode(v *Value, code byte) error {
	text, ok := errorTexts[code]
	if !ok {
		return s.p.errorf(s.row, int(v.col), fmt.Errorf("%w: error code 0x%02X", ErrMalformed, code))
	}
	v.typ, v.text = TypeError, text
	return nil
}

// text appends a string cell whose string starts at offset off of rec:
// LABEL and RSTRING cells, and STRING records after formulas.
func (s *xlsSheet) text(c *chunk, rec biff8.Record, col, style, off int) error {
	s.cur.Reset(rec)
	if err := s.cur.Skip(off); err != nil {
		return s.p.errorf(s.row, col, malformedXLS(err))
	}
	start := len(c.arena)
	var err error
	if s.book.biff5 {
		c.arena, err = s.cur.ByteString(c.arena, 2, s.dec)
	} else {
		c.arena, err = s.cur.UnicodeString(c.arena, 2, s.p.limits.MaxStringSize)
	}
	if err != nil {
		return s.p.errorf(s.row, col, malformedXLS(err))
	}
	if col > MaxColumns {
		return s.p.errorf(s.row, col, fmt.Errorf("%w: column %d", ErrMalformed, col))
	}
	end := len(c.arena)
	c.cells = append(c.cells, Value{col: int32(col), date1904: s.p.date1904, style: uint32(style), typ: TypeString, text: c.arena[start:end:end]})
	return nil
}

// xlsLink reads a HLINK record's range, URL, location and display text
// (MS-OSHARED 2.3.7.1); file and UNC targets are left out.
func xlsLink(d []byte) (rawLink, bool) {
	if len(d) < 32 {
		return rawLink{}, false
	}
	rg := biff12.Range{FirstRow: uint32(biff8.Uint16(d, 0)), LastRow: uint32(biff8.Uint16(d, 2)),
		FirstCol: uint32(biff8.Uint16(d, 4)), LastCol: uint32(biff8.Uint16(d, 6))}
	l := rawLink{ref: binRange(rg).String()}
	flags := biff8.Uint32(d, 28)
	p := 32
	// hyperlinkString is a 32-bit count of UTF-16 units, the last a NUL.
	hyperlinkString := func() (string, bool) {
		n := int(biff8.Uint32(d, p))
		if n < 0 || p+4+2*n > len(d) || n > 1<<16 {
			return "", false
		}
		s := biff12.AppendUTF16(nil, d[p+4:p+4+2*n])
		p += 4 + 2*n
		return strings.TrimRight(string(s), "\x00"), true
	}
	var ok bool
	if flags&0x10 != 0 { // hlstmfHasDisplayName
		if l.display, ok = hyperlinkString(); !ok {
			return l, false
		}
	}
	if flags&0x80 != 0 { // hlstmfHasFrameName
		if _, ok = hyperlinkString(); !ok {
			return l, false
		}
	}
	if flags&0x01 != 0 { // hlstmfHasMoniker
		if flags&0x100 != 0 { // saved as a string
			if l.url, ok = hyperlinkString(); !ok {
				return l, false
			}
		} else {
			urlMoniker := []byte{0xE0, 0xC9, 0xEA, 0x79, 0xF9, 0xBA, 0xCE, 0x11, 0x8C, 0x82, 0x00, 0xAA, 0x00, 0x4B, 0xA9, 0x0B}
			fileMoniker := []byte{0x03, 0x03, 0, 0, 0, 0, 0, 0, 0xC0, 0, 0, 0, 0, 0, 0, 0x46}
			if p+20 <= len(d) && string(d[p:p+16]) == string(fileMoniker) {
				var ok bool
				if l.url, p, ok = xlsFileMoniker(d, p+16); !ok {
					return l, false
				}
				goto location
			}
			if p+20 > len(d) || string(d[p:p+16]) != string(urlMoniker) {
				return l, false
			}
			// The URL is NUL-terminated UTF-16; the length also counts
			// the extended moniker's 24 bytes when they follow it.
			n := int(biff8.Uint32(d, p+16))
			p += 20
			if n < 0 || p+n > len(d) {
				return l, false
			}
			url := d[p : p+n]
			for i := 0; i+1 < len(url); i += 2 {
				if url[i] == 0 && url[i+1] == 0 {
					url = url[:i]
					break
				}
			}
			l.url = string(biff12.AppendUTF16(nil, url))
			p += n
		}
	}
location:
	if flags&0x08 != 0 { // hlstmfHasLocationStr
		if l.location, ok = hyperlinkString(); !ok {
			l.location = ""
		}
	}
	return l, l.url != "" || l.location != ""
}

// xlsFileMoniker reads a link to a file (MS-OSHARED 2.3.7.8) at p: the
// path as written, "..\\" once per level up, the Unicode path when there
// is one, else the ANSI path. It returns the offset after it.
func xlsFileMoniker(d []byte, p int) (string, int, bool) {
	if p+6 > len(d) {
		return "", p, false
	}
	up := int(biff8.Uint16(d, p))
	n := int(biff8.Uint32(d, p+2))
	p += 6
	if n < 0 || p+n+24+4 > len(d) {
		return "", p, false
	}
	path := strings.TrimRight(string(d[p:p+n]), "\x00")
	p += n + 24 // endServer, versionNumber, reserved
	size := int(biff8.Uint32(d, p))
	p += 4
	if size > 0 {
		if size < 6 || p+size > len(d) {
			return "", p, false
		}
		bytes := int(biff8.Uint32(d, p))
		if bytes < 0 || p+6+bytes > len(d) {
			return "", p, false
		}
		// The key is 3 for UTF-16; Mac Excel writes 4 over a path in
		// its own code page, which the ANSI path already gives.
		if biff8.Uint16(d, p+4) == 3 {
			path = string(biff12.AppendUTF16(nil, d[p+6:p+6+bytes]))
		}
		p += size
	}
	return strings.Repeat("..\\", up) + path, p, true
}
