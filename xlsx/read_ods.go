package xlsx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/sheetstream/sheetstream/internal/isotime"
	"github.com/sheetstream/sheetstream/internal/ods"
)

// OpenDocument spreadsheets (.ods) keep every sheet in content.xml, one
// table after another; cells carry their own value types, so no styles
// are needed to tell dates from numbers. Opening reads content.xml once
// for the sheet list; each sheet's rows are read by reading it again up
// to the sheet.

const odsContent = "content.xml"

// odsReader opens content.xml's events.
func (wb *Workbook) odsReader() (*ods.Reader, io.Closer, error) {
	rc, _, err := wb.openPart(odsContent)
	if err != nil {
		return nil, nil, err
	}
	return ods.NewReader(rc, wb.limits.MaxDepth, wb.limits.MaxRowSize, wb.limits.MaxStringSize), rc, nil
}

func malformedODS(err error) error {
	if errors.Is(err, ods.ErrMalformed) {
		return fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	return err
}

// loadODS lists the sheets of an .ods, with those an automatic table
// style hides.
func (wb *Workbook) loadODS() error {
	wb.format = FormatODS
	wb.workbookPart = odsContent
	if manifest, err := wb.readPart("META-INF/manifest.xml"); err == nil && bytes.Contains(manifest, []byte("encryption-data")) {
		return wb.errorf(odsContent, fmt.Errorf("%w: a password-protected .ods (its parts are encrypted), which sheetstream does not decrypt; save it without a password", ErrUnsupportedEncryption))
	}
	rd, closer, err := wb.odsReader()
	if err != nil {
		return err
	}
	defer closer.Close()
	hidden := map[string]bool{}
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return wb.errorf(odsContent, malformedODS(err))
		}
		switch ev.Kind {
		case ods.HiddenStyle:
			hidden[string(ev.Style)] = true
		case ods.TableStart:
			info := SheetInfo{Index: len(wb.sheets), Name: string(ev.Name), Part: odsContent}
			if hidden[string(ev.Style)] {
				info.State = SheetHidden
			}
			wb.sheets = append(wb.sheets, info)
		case ods.RowStart:
			rd.SkipRow()
		}
	}
	if len(wb.sheets) == 0 {
		return wb.errorf(odsContent, fmt.Errorf("%w: the spreadsheet holds no tables", ErrMalformed))
	}
	return nil
}

// odsSheet decodes one table's rows.
type odsSheet struct {
	p      *sheetParser
	rd     *ods.Reader
	closer io.Closer
	row    int // the next row's number, 1-based
	col    int // the next cell's column, 1-based
	inRow  bool
	repeat int // the current row's repeat count
	// A row repeated with cells: its cells, kept for the chunks after the
	// one it was read into, and how many copies are left.
	copies []Value
	left   int
	made   int64 // cells repeats made, against Limits.MaxRepeatedCells
	done   bool
}

func (wb *Workbook) openODSSheet(p *sheetParser, index int) (rowSource, error) {
	rd, closer, err := wb.odsReader()
	if err != nil {
		return nil, err
	}
	for n := -1; n < index; {
		ev, err := rd.Next()
		if err != nil {
			closer.Close()
			if err == io.EOF {
				err = fmt.Errorf("%w: table %d is missing", ErrMalformed, index+1)
			}
			return nil, p.errorf(0, 0, malformedODS(err))
		}
		switch ev.Kind {
		case ods.TableStart:
			n++
		case ods.RowStart:
			rd.SkipRow()
		}
	}
	return &odsSheet{p: p, rd: rd, closer: closer, row: 1}, nil
}

func (s *odsSheet) Close() error { return s.closer.Close() }

func (s *odsSheet) fill(c *chunk) error {
	if s.left > 0 && !s.emitCopies(c) {
		return nil
	}
	if s.done {
		return io.EOF
	}
	for {
		if !s.inRow && (len(c.cells) >= fillChunkCells || len(c.rows) >= fillChunkCells) {
			return nil
		}
		ev, err := s.rd.Next()
		if err == io.EOF {
			s.done = true
			return io.EOF
		}
		if err != nil {
			return s.p.errorf(s.row, s.col, malformedODS(err))
		}
		switch ev.Kind {
		case ods.TableEnd:
			s.done = true
			return io.EOF
		case ods.RowStart:
			s.inRow, s.col, s.repeat = true, 1, ev.Repeat
			c.rows = append(c.rows, rowSpan{num: int32(min(s.row, MaxRows+1)), start: int32(len(c.cells)), end: int32(len(c.cells))})
		case ods.Cell:
			if !s.inRow {
				continue
			}
			if err := s.cell(c, ev); err != nil {
				return err
			}
		case ods.RowEnd:
			if !s.inRow {
				continue
			}
			s.inRow = false
			sp := &c.rows[len(c.rows)-1]
			sp.end = int32(len(c.cells))
			if sp.start == sp.end {
				// Empty rows, repeated or not, only move the row number on.
				c.rows = c.rows[:len(c.rows)-1]
				s.row += s.repeat
				continue
			}
			if s.row > MaxRows {
				return s.p.errorf(s.row, 0, fmt.Errorf("%w: a row with cells past row %d", ErrMalformed, MaxRows))
			}
			s.row++
			if s.repeat > 1 {
				// The copies share the first one's cells in this chunk, and
				// a kept copy of them in the chunks after.
				cells := c.cells[sp.start:sp.end]
				if err := s.count(int64(s.repeat-1) * int64(len(cells))); err != nil {
					return err
				}
				s.copies = append(s.copies[:0], cells...)
				for i := range s.copies {
					s.copies[i].text = append([]byte(nil), s.copies[i].text...)
				}
				s.left = min(s.repeat-1, MaxRows+1-s.row)
				if !s.emitCopies(c) {
					return nil
				}
			}
		}
	}
}

// count adds cells made by repeats, within the limit.
func (s *odsSheet) count(n int64) error {
	s.made += n
	if s.made > s.p.limits.MaxRepeatedCells {
		return s.p.errorf(s.row, s.col, fmt.Errorf("%w: repeated rows and cells make more than %d cells (Limits.MaxRepeatedCells)", ErrLimit, s.p.limits.MaxRepeatedCells))
	}
	return nil
}

// emitCopies adds copies of a repeated row to c while it has room, and
// reports whether all were added.
func (s *odsSheet) emitCopies(c *chunk) bool {
	start := int32(len(c.cells))
	c.cells = append(c.cells, s.copies...)
	end := int32(len(c.cells))
	for s.left > 0 {
		if len(c.rows) >= fillChunkCells {
			return false
		}
		c.rows = append(c.rows, rowSpan{num: int32(s.row), start: start, end: end})
		s.row++
		s.left--
	}
	return true
}

// cell adds a cell, as many times as it repeats, to the current row.
func (s *odsSheet) cell(c *chunk, ev ods.Event) error {
	col := s.col
	s.col += ev.Repeat
	if ev.ColSpan > 1 || ev.RowSpan > 1 {
		rg := Range{s.row, col, min(s.row+ev.RowSpan-1, MaxRows), min(col+ev.ColSpan-1, MaxColumns)}
		if col <= MaxColumns && s.row <= MaxRows {
			c.merges = append(c.merges, rg.String())
		}
	}
	v, ok, err := s.value(c, ev)
	if err != nil {
		return s.p.errorf(s.row, col, err)
	}
	if !ok || ev.Covered && v.typ == TypeEmpty {
		return nil
	}
	if col+ev.Repeat-1 > MaxColumns {
		return s.p.errorf(s.row, col, fmt.Errorf("%w: a cell repeated past the last column (XFD)", ErrMalformed))
	}
	if ev.Link != nil && col <= MaxColumns && s.row <= MaxRows {
		l := rawLink{ref: CellName(s.row, col)}
		if target, ok := strings.CutPrefix(string(ev.Link), "#"); ok {
			l.location = target
		} else {
			l.url = target
		}
		c.links = append(c.links, l)
	}
	if err := s.count(int64(ev.Repeat - 1)); err != nil {
		return err
	}
	for i := range ev.Repeat {
		v.col = int32(col + i)
		c.cells = append(c.cells, v)
	}
	return nil
}

// odsErrors maps error texts to the codes Excel shows.
var odsErrors = func() map[string][]byte {
	m := map[string][]byte{}
	for _, t := range errorTexts {
		m[string(t)] = t
	}
	return m
}()

// value types a cell by its office:value-type; ok is false for a cell
// without a value.
func (s *odsSheet) value(c *chunk, ev ods.Event) (Value, bool, error) {
	v := Value{date1904: false}
	text := func() []byte {
		start := len(c.arena)
		c.arena = append(c.arena, ev.Text...)
		return c.arena[start:len(c.arena):len(c.arena)]
	}
	switch string(ev.ValueType) {
	case "float", "percentage", "currency":
		if code, ok := odsErrors[string(ev.Text)]; ok && ev.Formula {
			// A formula's error shown over a placeholder value, as
			// SheetJS writes one.
			v.typ, v.text = TypeError, code
			break
		}
		f, ok := parseNumber(trimSpace(ev.Value))
		if !ok {
			return v, false, fmt.Errorf("%w: number %q", ErrMalformed, ev.Value)
		}
		v.typ, v.num = TypeNumber, f
		start := len(c.arena)
		c.arena = append(c.arena, trimSpace(ev.Value)...)
		v.text = c.arena[start:len(c.arena):len(c.arena)]
	case "date":
		t, kind := isotime.Parse(strings.TrimSuffix(string(ev.Value), "Z"))
		serial, ok := excelSerial(t, false)
		if kind == isotime.None || !ok {
			// Before 1900, or a zone: Excel cannot hold it as a date.
			v.typ, v.text = TypeString, append(c.arena[len(c.arena):], ev.Value...)
			c.arena = append(c.arena, ev.Value...)
			break
		}
		v.typ, v.num, v.class = TypeDate, serial, fmtDate
	case "time":
		days, ok := odsDuration(string(ev.Value))
		if !ok {
			return v, false, fmt.Errorf("%w: time %q", ErrMalformed, ev.Value)
		}
		// A time of day, as LibreOffice writes one, is a time; longer or
		// negative spans are elapsed times.
		if days >= 0 && days < 1 {
			v.typ, v.num, v.class = TypeDate, days, fmtTime
		} else {
			v.typ, v.num, v.class = TypeNumber, days, fmtDuration
		}
	case "boolean":
		v.typ = TypeBool
		if b := string(trimSpace(ev.Value)); b == "true" || b == "1" {
			v.num = 1
		}
	case "string":
		v.typ = TypeString
		if ev.Value != nil {
			start := len(c.arena)
			c.arena = append(c.arena, ev.Value...)
			v.text = c.arena[start:len(c.arena):len(c.arena)]
		} else {
			v.text = text()
		}
	case "error":
		if code, ok := odsErrors[string(ev.Text)]; ok {
			v.typ, v.text = TypeError, code
		} else {
			v.typ, v.text = TypeString, text() // LibreOffice's own, such as Err:502
		}
	default:
		if len(ev.Text) == 0 {
			return v, false, nil
		}
		v.typ, v.text = TypeString, text()
	}
	return v, true, nil
}

// odsDuration reads an ISO 8601 duration as ODF writes times,
// [-]PnDTnHnMn.nS, in days.
func odsDuration(s string) (float64, bool) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	s, ok := strings.CutPrefix(s, "P")
	if !ok || s == "" {
		return 0, false
	}
	var seconds float64
	inTime := false
	for s != "" {
		if s[0] == 'T' {
			inTime, s = true, s[1:]
			continue
		}
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
			i++
		}
		if i == 0 || i == len(s) {
			return 0, false
		}
		n, err := strconv.ParseFloat(s[:i], 64)
		if err != nil {
			return 0, false
		}
		switch unit := s[i]; {
		case unit == 'D' && !inTime:
			seconds += n * 86400
		case unit == 'W' && !inTime:
			seconds += n * 7 * 86400
		case unit == 'H' && inTime:
			seconds += n * 3600
		case unit == 'M' && inTime:
			seconds += n * 60
		case unit == 'S' && inTime:
			seconds += n
		default:
			return 0, false // years and months have no fixed length
		}
		s = s[i+1:]
	}
	if neg {
		seconds = -seconds
	}
	if math.IsInf(seconds, 0) || math.IsNaN(seconds) {
		return 0, false
	}
	return seconds / 86400, true
}
