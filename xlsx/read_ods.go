package xlsx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/sheetstream/sheetstream/internal/isotime"
	"github.com/sheetstream/sheetstream/internal/ods"
	"github.com/sheetstream/sheetstream/internal/xmlscan"
)

// OpenDocument spreadsheets (.ods) keep every sheet in content.xml, one
// table after another; cells carry their own value types, so no styles
// are needed to tell dates from numbers. Opening reads content.xml once
// for the sheet list; each sheet's rows are read by reading it again up
// to the sheet.

const odsContent = "content.xml"

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
	rc, _, err := wb.openPart(odsContent)
	if err != nil {
		return err
	}
	ra := newReadAhead(rc, 256<<10, 2)
	defer ra.Close()
	rd := ods.NewReader(ra, wb.limits.MaxDepth, wb.limits.MaxRowSize, wb.limits.MaxStringSize)
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
			wb.odsTables = append(wb.odsTables, odsTable{content: ev.Offset, empty: ev.Empty})
			info := SheetInfo{Index: len(wb.sheets), Name: string(ev.Name), Part: odsContent}
			if hidden[string(ev.Style)] {
				info.State = SheetHidden
			}
			wb.sheets = append(wb.sheets, info)
			if err := rd.SkipTable(); err != nil {
				return wb.errorf(odsContent, malformedODS(err))
			}
		case ods.RowStart:
			rd.SkipRow()
		}
	}
	if len(wb.sheets) == 0 {
		return wb.errorf(odsContent, fmt.Errorf("%w: the spreadsheet holds no tables", ErrMalformed))
	}
	return nil
}

// odsTable is where a table's content starts in content.xml.
type odsTable struct {
	content int64
	empty   bool
}

// odsRows reads one table of content.xml as the XML sheets are read: one
// goroutine inflates the part and cuts it into pieces before rows,
// keeping those of the table; workers turn pieces into rows. A worker
// does not know where its piece starts, so its rows are numbered from the
// chunk's start (with the empty rows between them as gaps) and Next
// places them.
func (wb *Workbook) odsRows(ctx context.Context, info SheetInfo, p *sheetParser) (*Rows, error) {
	rc, _, err := wb.openPart(odsContent)
	if err != nil {
		return nil, err
	}
	n := wb.opts.Workers + 2
	r := wb.newRows(ctx, info, rc, n)
	r.needEnd = true
	jobs := make(chan *chunk, n)
	made := &atomic.Int64{}
	for range wb.opts.Workers {
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			rd := ods.NewPieceReader(wb.limits.MaxDepth, wb.limits.MaxStringSize)
			for c := range jobs {
				p.parseODS(c, rd, made)
				c.ready <- struct{}{}
			}
		}()
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		r.splitODS(rc, jobs, p, wb.odsTables[info.Index])
	}()
	return r, nil
}

// splitODS inflates content.xml and hands out the pieces of the target
// table's content, from after its start tag on; the worker that meets
// its end tag marks its chunk the last, and Next stops there.
func (r *Rows) splitODS(rc io.Reader, jobs chan<- *chunk, p *sheetParser, table odsTable) {
	defer close(r.order)
	defer close(jobs)
	sp := xmlscan.NewSplitter(rc, r.wb.opts.ChunkSize, r.wb.limits.MaxRowSize, "table-row", "table")
	var buf []byte
	var at int64 // offset of the current piece in content.xml
	first := true
	send := func(content []byte, err error) bool {
		var c *chunk
		select {
		case c = <-r.free:
		case <-r.ctx.Done():
			return false
		}
		c.reset()
		if len(content) == len(buf) && len(content) > 0 {
			// The whole piece: the chunk takes the splitter's buffer and
			// gives its own for the next piece, instead of a copy.
			c.xml, buf = content, c.xml[:0]
		} else {
			c.xml = append(c.xml[:0], content...)
		}
		c.first, first = first, false
		if err != nil || content == nil {
			c.err, c.last = err, err == nil
			c.ready <- struct{}{}
			r.order <- c
			return false
		}
		jobs <- c
		r.order <- c
		return true
	}
	if table.empty {
		send(nil, nil)
		return
	}
	for {
		piece, err := sp.Next(buf)
		buf = piece
		if err == io.EOF {
			send(nil, p.errorf(0, 0, fmt.Errorf("%w: content.xml ends inside the table", ErrMalformed)))
			return
		}
		if err != nil {
			if errors.Is(err, xmlscan.ErrPieceTooLarge) {
				err = fmt.Errorf("%w: a row over %d bytes of XML (Limits.MaxRowSize): %w", ErrLimit, r.wb.limits.MaxRowSize, err)
			}
			send(nil, p.errorf(0, 0, err))
			return
		}
		start, end := at, at+int64(len(piece))
		at = end
		if end <= table.content {
			continue
		}
		if !send(piece[max(table.content-start, 0):], nil) {
			return
		}
	}
}

// parseODS turns a piece of a table's content into rows numbered from
// the chunk's start.
func (p *sheetParser) parseODS(c *chunk, rd *ods.Reader, made *atomic.Int64) {
	rd.ResetPiece(c.xml)
	rel, gap := 0, 0 // rows before the current one in this chunk; empty rows since the last row with cells
	cur, col, repeat := 0, 1, 1
	inRow := false
	fail := func(col int, err error) {
		c.err = p.errorf(-cur, col, err) // Next makes the row absolute
	}
	count := func(n int64) bool {
		if made.Add(n) > p.limits.MaxRepeatedCells {
			fail(0, fmt.Errorf("%w: repeated rows and cells make more than %d cells (Limits.MaxRepeatedCells)", ErrLimit, p.limits.MaxRepeatedCells))
			return false
		}
		return true
	}
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fail(col, malformedODS(err))
			return
		}
		switch ev.Kind {
		case ods.TableEnd:
			c.last = true
			if inRow {
				fail(col, fmt.Errorf("%w: a row cut short", ErrMalformed))
			}
			return
		case ods.RowStart:
			inRow, col, repeat, cur = true, 1, ev.Repeat, rel+1
			c.rows = append(c.rows, rowSpan{start: int32(len(c.cells)), end: int32(len(c.cells)), gap: int32(min(gap, MaxRows+1))})
		case ods.Cell:
			if !inRow {
				continue
			}
			added, err := p.odsCell(c, ev, cur, col)
			if err != nil {
				fail(col, err)
				return
			}
			if added && ev.Repeat > 1 && !count(int64(ev.Repeat-1)) {
				return
			}
			col += ev.Repeat
		case ods.RowEnd:
			if !inRow {
				continue
			}
			inRow = false
			rel += repeat
			sp := &c.rows[len(c.rows)-1]
			sp.end = int32(len(c.cells))
			if sp.start == sp.end {
				c.rows = c.rows[:len(c.rows)-1]
				gap += repeat
				continue
			}
			gap = 0
			if repeat > 1 {
				sp.repeat = int32(min(repeat-1, MaxRows))
				if !count(int64(repeat-1) * int64(sp.end-sp.start)) {
					return
				}
			}
		}
	}
	if inRow {
		fail(col, fmt.Errorf("%w: a row cut short", ErrMalformed))
		return
	}
	if gap > 0 {
		// Empty rows at the end of the piece still move the row number on.
		c.rows = append(c.rows, rowSpan{start: int32(len(c.cells)), end: int32(len(c.cells)), gap: int32(min(gap, MaxRows+1) - 1)})
	}
}

// odsCell adds a cell, as many times as it repeats, to the current row
// (row cur of the chunk, column col), with its merge and link, and
// reports whether it had a value.
func (p *sheetParser) odsCell(c *chunk, ev ods.Event, cur, col int) (bool, error) {
	if (ev.ColSpan > 1 || ev.RowSpan > 1) && col <= MaxColumns {
		c.relMerges = append(c.relMerges, Range{cur, col, cur + min(ev.RowSpan, MaxRows) - 1, min(col+ev.ColSpan-1, MaxColumns)})
	}
	v, ok, err := odsValue(c, ev)
	if err != nil || !ok {
		return false, err
	}
	if col+ev.Repeat-1 > MaxColumns {
		return false, fmt.Errorf("%w: a cell repeated past the last column (XFD)", ErrMalformed)
	}
	if ev.Link != nil {
		l := rawLink{relRow: cur, col: col}
		if target, ok := strings.CutPrefix(string(ev.Link), "#"); ok {
			l.location = target
		} else {
			l.url = target
		}
		c.relLinks = append(c.relLinks, l)
	}
	for i := range ev.Repeat {
		v.col = int32(col + i)
		c.cells = append(c.cells, v)
	}
	return true, nil
}

// odsErrors maps error texts to the codes Excel shows.
var odsErrors = func() map[string][]byte {
	m := map[string][]byte{}
	for _, t := range errorTexts {
		m[string(t)] = t
	}
	return m
}()

// odsValue types a cell by its office:value-type; ok is false for a cell
// without a value.
func odsValue(c *chunk, ev ods.Event) (Value, bool, error) {
	v := Value{date1904: false}
	text := func() []byte {
		start := len(c.arena)
		c.arena = append(c.arena, ev.Text...)
		return c.arena[start:len(c.arena):len(c.arena)]
	}
	switch string(ev.ValueType) {
	case "float", "percentage", "currency":
		if ev.Formula {
			if code, ok := odsErrors[string(ev.Text)]; ok {
				// A formula's error shown over a placeholder value, as
				// SheetJS writes one.
				v.typ, v.text = TypeError, code
				break
			}
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
		if kind == isotime.DateTime {
			v.class = fmtDateTime
		}
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
