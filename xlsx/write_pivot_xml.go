package xlsx

// A pivot table's parts: the table definition, the cache definition and
// records, and their places in the package.

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/sheetstream/sheetstream/internal/deflate"
	"github.com/sheetstream/sheetstream/internal/zipstream"
)

// definition is the pivot table's part: its location, fields, rendered
// row and column items and data fields, as the plan laid them out.
func (p *pivot) definition(pl *pivotPlan) []byte {
	b := []byte(xmlHeader)
	b = p.appendTableAttrs(b, pl)
	b = p.appendPivotFields(b)
	b = appendIntAttr(append(b, "<rowFields"...), "count", len(p.rowCols))
	b = append(b, '>')
	for _, c := range p.rowCols {
		b = appendIntAttr(append(b, "<field"...), "x", c)
		b = append(b, "/>"...)
	}
	b = append(b, "</rowFields>"...)
	b = appendRowItems(b, pl.rows)
	b = p.appendColumns(b, pl)
	if len(p.filters) > 0 {
		b = appendIntAttr(append(b, "<pageFields"...), "count", len(p.filters))
		b = append(b, '>')
		for k, f := range p.filters {
			b = appendIntAttr(append(b, "<pageField"...), "fld", f)
			if ch := p.chosen[k]; ch.item >= 0 {
				b = appendIntAttr(b, "item", slices.Index(p.fields[f].order(), ch.item))
			}
			b = append(b, ` hier="-1"/>`...)
		}
		b = append(b, "</pageFields>"...)
	}
	b = p.appendDataFields(b)
	b = append(b, `<pivotTableStyleInfo name="`...)
	b = appendAttr(b, p.def.Style)
	b = append(b, `" showRowHeaders="1" showColHeaders="1" showRowStripes="0" showColStripes="0" showLastColumn="1"/>`...)
	if p.def.HideValuesRow {
		b = append(b, `<extLst><ext uri="{962EF5D1-5CA2-4c93-8EF4-DBF5C05439D2}" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"><x14:pivotTableDefinition hideValuesRow="1"/></ext></extLst>`...)
	}
	b = append(b, `</pivotTableDefinition>`...)
	return b
}

// appendTableAttrs opens the definition: its name, cache, layout, grand
// totals and location.
func (p *pivot) appendTableAttrs(b []byte, pl *pivotPlan) []byte {
	nv := len(p.values)
	b = append(b, `<pivotTableDefinition xmlns="`+nsMain+`" name="`...)
	b = appendItemAttr(b, p.def.Name)
	b = append(b, '"')
	b = appendIntAttr(b, "cacheId", p.id)
	b = append(b, ` applyNumberFormats="0" applyBorderFormats="0" applyFontFormats="0" applyPatternFormats="0" applyAlignmentFormats="0" applyWidthHeightFormats="1" dataCaption="Values" updatedVersion="3" minRefreshableVersion="3" useAutoFormatting="1" itemPrintTitles="1" createdVersion="3" indent="0"`...)
	switch p.def.Layout {
	case PivotCompact:
		b = append(b, ` outline="1" outlineData="1"`...)
	case PivotOutline:
		b = append(b, ` compact="0" compactData="0" outline="1" outlineData="1"`...)
	default:
		b = append(b, ` compact="0" compactData="0"`...)
	}
	b = append(b, ` multipleFieldFilters="0"`...)
	// As Excel's files have them: rowGrandTotals is the Grand Total row
	// at the bottom, colGrandTotals the Grand Total column at the right.
	if p.def.GrandTotals != PivotTotalsBoth && p.def.GrandTotals != PivotTotalsRow {
		b = append(b, ` rowGrandTotals="0"`...)
	}
	if p.def.GrandTotals != PivotTotalsBoth && p.def.GrandTotals != PivotTotalsColumn {
		b = append(b, ` colGrandTotals="0"`...)
	}
	b = append(b, `><location ref="`...)
	b = append(b, (Range{FirstRow: pl.top, FirstCol: pl.left, LastRow: pl.last, LastCol: pl.left + pl.width - 1}).String()...)
	b = append(b, '"')
	switch {
	case len(p.colCols) == 0 && nv > 1 && p.def.HideValuesRow:
		b = append(b, ` firstHeaderRow="0" firstDataRow="1"`...)
	case len(p.colCols) == 0 && nv == 1:
		b = append(b, ` firstHeaderRow="1" firstDataRow="1"`...)
	default:
		b = append(b, ` firstHeaderRow="1"`...)
		b = appendIntAttr(b, "firstDataRow", pl.headerRows)
	}
	b = appendIntAttr(b, "firstDataCol", pl.lead)
	if len(p.filters) > 0 {
		b = appendIntAttr(b, "rowPageCount", len(p.filters))
		b = append(b, ` colPageCount="1"`...)
	}
	return append(b, "/>"...)
}

// appendPivotFields describes every cache field's part in the table:
// its axis and items in Excel's order, or that it is a data field.
func (p *pivot) appendPivotFields(b []byte) []byte {
	b = appendIntAttr(append(b, "<pivotFields"...), "count", len(p.fields))
	b = append(b, '>')
	for i, f := range p.fields {
		b = append(b, "<pivotField"...)
		switch {
		case slices.Contains(p.rowCols, i):
			b = append(b, ` axis="axisRow"`...)
		case slices.Contains(p.colCols, i):
			b = append(b, ` axis="axisCol"`...)
		case slices.Contains(p.filters, i):
			b = append(b, ` axis="axisPage"`...)
		}
		if slices.Contains(p.values, i) {
			b = append(b, ` dataField="1"`...)
		}
		if f.hasDate && !f.hasNumber && !f.hasString {
			b = append(b, ` numFmtId="14"`...)
		}
		switch p.def.Layout {
		case PivotOutline:
			b = append(b, ` compact="0"`...)
		case PivotTabular:
			b = append(b, ` compact="0" outline="0"`...)
		}
		b = append(b, ` showAll="0"`...)
		totals := p.subtotals(i)
		if !totals {
			b = append(b, ` defaultSubtotal="0"`...)
		}
		if !f.axis {
			b = append(b, "/>"...)
			continue
		}
		n := len(f.items)
		if totals {
			n++
		}
		b = appendIntAttr(append(b, "><items"...), "count", n)
		b = append(b, '>')
		for _, x := range f.order() {
			b = appendIntAttr(append(b, "<item"...), "x", int(x))
			b = append(b, "/>"...)
		}
		if totals {
			b = append(b, `<item t="default"/>`...)
		}
		b = append(b, `</items></pivotField>`...)
	}
	return append(b, "</pivotFields>"...)
}

// axisItem is one rendered row or column as a table definition lists
// it: its items' positions (xs), a total's type, its value field.
type axisItem struct {
	xs []int
	t  string // "", "default" (a subtotal) or "grand"
	v  int
}

// appendAxisItems lists rendered rows or columns under tag: each one's
// positions, those it shares with the one before counted in r.
func appendAxisItems(b []byte, tag string, items []axisItem) []byte {
	b = appendIntAttr(append(append(b, '<'), tag...), "count", len(items))
	b = append(b, '>')
	var prev []int
	for _, it := range items {
		if len(it.xs) == 0 && it.t == "" && it.v == 0 {
			b = append(b, "<i/>"...)
			continue
		}
		same := 0
		if it.t != "grand" {
			for same < len(it.xs)-1 && same < len(prev) && prev[same] == it.xs[same] {
				same++
			}
		}
		b = append(b, "<i"...)
		if it.t != "" {
			b = append(append(append(b, ` t="`...), it.t...), '"')
		}
		if same > 0 {
			b = appendIntAttr(b, "r", same)
		}
		if it.v > 0 {
			b = appendIntAttr(b, "i", it.v)
		}
		b = append(b, '>')
		if it.t == "grand" {
			b = append(b, "<x/>"...)
		} else {
			for _, x := range it.xs[same:] {
				b = appendX(b, x)
			}
			prev = it.xs
		}
		b = append(b, "</i>"...)
	}
	return append(append(append(b, "</"...), tag...), '>')
}

// appendRowItems lists the rendered rows.
func appendRowItems(b []byte, rows []pivotRow) []byte {
	items := make([]axisItem, len(rows))
	for k, r := range rows {
		items[k] = axisItem{xs: r.pos, t: totalType(r)}
	}
	return appendAxisItems(b, "rowItems", items)
}

func totalType(r pivotRow) string {
	switch {
	case r.grand:
		return "grand"
	case r.subtotal:
		return "default"
	}
	return ""
}

// appendColumns lists the column fields (and the values, -2, when there
// are several) and the rendered columns: each column of items or total
// once a value field.
func (p *pivot) appendColumns(b []byte, pl *pivotPlan) []byte {
	nv := len(p.values)
	colFields := slices.Clone(p.colCols)
	if nv > 1 {
		colFields = append(colFields, -2)
	}
	if len(colFields) > 0 {
		b = appendIntAttr(append(b, "<colFields"...), "count", len(colFields))
		b = append(b, '>')
		for _, c := range colFields {
			b = appendIntAttr(append(b, "<field"...), "x", c)
			b = append(b, "/>"...)
		}
		b = append(b, "</colFields>"...)
	}
	var items []axisItem
	for _, c := range pl.cols {
		for v := range nv {
			it := axisItem{xs: c.pos, t: totalType(c), v: v}
			if it.t == "" && nv > 1 {
				it.xs = append(slices.Clone(c.pos), v)
			}
			items = append(items, it)
		}
	}
	return appendAxisItems(b, "colItems", items)
}

// appendDataFields lists the values: their captions, columns,
// summaries and number formats.
func (p *pivot) appendDataFields(b []byte) []byte {
	b = appendIntAttr(append(b, "<dataFields"...), "count", len(p.values))
	b = append(b, '>')
	for v, def := range p.def.Values {
		b = append(b, `<dataField name="`...)
		b = appendItemAttr(b, def.Name)
		b = append(b, '"')
		b = appendIntAttr(b, "fld", p.values[v])
		if def.Func != PivotSum {
			b = append(b, ` subtotal="`+pivotFuncs[def.Func].xml+`"`...)
		}
		b = append(b, ` baseField="0" baseItem="0"`...)
		if v < len(p.numFmtIDs) && p.numFmtIDs[v] != 0 {
			b = appendIntAttr(b, "numFmtId", p.numFmtIDs[v]) // a template's own format
		} else if def.NumFormat != "" {
			p.w.lockShared()
			id := p.w.styles.numFmtID(def.NumFormat)
			p.w.unlockShared()
			b = appendIntAttr(b, "numFmtId", id)
		}
		b = append(b, "/>"...)
	}
	return append(b, "</dataFields>"...)
}

// appendValue is a value as a cache writes it: <n>, <s>, <b>, <d>, <e>
// or <m/> for a blank.
func (p *pivot) appendValue(b []byte, kind byte, num float64, text string) []byte {
	switch kind {
	case 's':
		b = append(b, `<s v="`...)
		b = appendItemAttr(b, text)
		return append(b, `"/>`...)
	case 'n':
		b = append(b, `<n v="`...)
		b = appendPivotNumber(b, num)
		return append(b, `"/>`...)
	case 'd':
		b = append(b, `<d v="`...)
		b = append(b, DateFromSerial(num, p.w.opts.Date1904).Format("2006-01-02T15:04:05")...)
		return append(b, `"/>`...)
	case 'b':
		b = append(b, `<b v="`...)
		b = strconv.AppendInt(b, int64(num), 10)
		return append(b, `"/>`...)
	case 'e':
		b = append(b, `<e v="`...)
		b = appendAttr(b, text)
		return append(b, `"/>`...)
	}
	return append(b, "<m/>"...)
}

// pivotRecords spools a cache's records to a temporary file.
type pivotRecords struct {
	f   *os.File
	buf []byte
}

func newPivotRecords(dir string) (*pivotRecords, error) {
	f, err := os.CreateTemp(dir, "sheetstream-pivot-*")
	if err != nil {
		return nil, fmt.Errorf("%w: spooling its records: %w", ErrPivot, err)
	}
	return &pivotRecords{f: f, buf: make([]byte, 0, 64<<10)}, nil
}

// flush writes the buffered records out when they fill the buffer (or
// always, with all).
func (r *pivotRecords) flush(all bool) error {
	if len(r.buf) < 60<<10 && !all {
		return nil
	}
	_, err := r.f.Write(r.buf)
	r.buf = r.buf[:0]
	return err
}

// discard removes the spool.
func (r *pivotRecords) discard() {
	if r != nil && r.f != nil {
		r.f.Close()
		os.Remove(r.f.Name())
		r.f = nil
	}
}

// appendItemAttr escapes a text (an item, a field's name) for an
// attribute as Excel writes one: control characters as _xHHHH_ (XML has
// no way to carry them), a literal "_xHHHH_" with its underscore
// escaped so that readers do not decode it, the rest as appendAttr.
func appendItemAttr(b []byte, s string) []byte {
	var t []byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r':
			t = appendXEscape(t, uint16(c))
		case c == '_' && isXEscape(s[i:]):
			t = append(t, "_x005F_"...)
		default:
			t = append(t, c)
		}
	}
	return appendAttr(b, string(t))
}

// appendPivotNumber writes a number of the cache as Excel does: with 15
// significant digits when they read back as the same double, else 17 (so
// 2.012 but 9.9403578528827037); integers plainly, fixed notation from
// 1e-5 to 1e15 and exponent notation elsewhere (numbers are finite here:
// a cell refuses others).
func appendPivotNumber(b []byte, v float64) []byte {
	if a := math.Abs(v); a < 1e-5 || a >= 1e15 || v == math.Trunc(v) {
		b, _ = appendXMLNumber(b, v, false)
		return b
	}
	var tmp [32]byte
	if short := strconv.AppendFloat(tmp[:0], v, 'e', 14, 64); parsesTo(short, v) {
		return strconv.AppendFloat(b, v, 'f', -1, 64)
	}
	e := strconv.AppendFloat(tmp[:0], v, 'e', 16, 64)
	exp, _ := strconv.Atoi(bstr(e[bytes.IndexByte(e, 'e')+1:]))
	start := len(b)
	b = strconv.AppendFloat(b, v, 'f', max(0, 16-exp), 64)
	if bytes.IndexByte(b[start:], '.') >= 0 {
		b = bytes.TrimRight(b, "0")
		b = bytes.TrimSuffix(b, []byte("."))
	}
	return b
}

// parsesTo tells whether text reads back as v.
func parsesTo(text []byte, v float64) bool {
	f, err := strconv.ParseFloat(bstr(text), 64) // a view: no copy a value
	return err == nil && f == v
}

func appendX(b []byte, v int) []byte {
	if v == 0 {
		return append(b, "<x/>"...)
	}
	b = appendIntAttr(append(b, "<x"...), "v", v)
	return append(b, "/>"...)
}

// cacheDefinition is the pivot cache's part: the source range, and every
// field with the kinds of its values and, on an axis, its items.
func (p *pivot) cacheDefinition(sourceRows int) []byte {
	b := []byte(xmlHeader)
	b = append(b, `<pivotCacheDefinition xmlns="`+nsMain+`" xmlns:r="`+nsRelations+`"`...)
	if p.spool != nil {
		b = append(b, ` r:id="rId1"`...)
	} else {
		b = append(b, ` saveData="0"`...)
	}
	b = append(b, ` refreshOnLoad="1" refreshedBy="sheetstream"`...)
	now, _ := excelSerial(time.Now().UTC(), false)
	b = appendFloatAttr(b, "refreshedDate", math.Round(now*1e6)/1e6)
	b = append(b, ` createdVersion="3" refreshedVersion="3" minRefreshableVersion="3"`...)
	b = appendIntAttr(b, "recordCount", p.records)
	b = append(b, `><cacheSource type="worksheet"><worksheetSource ref="`...)
	b = append(b, (Range{FirstRow: 1, FirstCol: 1, LastRow: max(sourceRows, 1), LastCol: max(p.lastCol, 1)}).String()...)
	b = append(b, `" sheet="`...)
	b = appendAttr(b, p.def.Source)
	b = append(b, `"/></cacheSource>`...)
	b = appendIntAttr(append(b, "<cacheFields"...), "count", len(p.fields))
	b = append(b, '>')
	for _, f := range p.fields {
		b = append(b, `<cacheField name="`...)
		b = appendItemAttr(b, f.name)
		b = append(b, '"')
		if f.hasDate && !f.hasNumber && !f.hasString {
			b = append(b, ` numFmtId="14"`...)
		} else {
			b = append(b, ` numFmtId="0"`...)
		}
		b = append(b, "><sharedItems"...)
		b = f.sharedAttrs(b, p.w.opts.Date1904)
		if !f.axis {
			b = append(b, "/></cacheField>"...)
			continue
		}
		b = appendIntAttr(b, "count", len(f.items))
		b = append(b, '>')
		for _, it := range f.items {
			b = p.appendValue(b, it.kind, it.num, it.text)
		}
		b = append(b, "</sharedItems></cacheField>"...)
	}
	return append(b, "</cacheFields></pivotCacheDefinition>"...)
}

// sharedAttrs describes the kinds of a field's values, as Excel writes
// them on sharedItems (its defaults say text and no numbers).
func (f *pivotField) sharedAttrs(b []byte, date1904 bool) []byte {
	other := f.hasBool || f.hasError
	if !f.hasString && !f.hasBlank && !other {
		b = append(b, ` containsSemiMixedTypes="0"`...)
	}
	if (f.hasDate || f.hasBlank) && !f.hasNumber && !f.hasString && !other {
		// Dates and blanks alone, or blanks alone.
		b = append(b, ` containsNonDate="0"`...)
	}
	if f.hasDate {
		b = append(b, ` containsDate="1"`...)
	}
	if !f.hasString && !other {
		// Excel counts booleans and errors with the text here: a field
		// of TRUE and FALSE has no attributes at all.
		b = append(b, ` containsString="0"`...)
	}
	if f.hasBlank {
		b = append(b, ` containsBlank="1"`...)
	}
	kinds := 0
	for _, k := range []bool{f.hasString, f.hasNumber || f.hasDate, other} {
		if k {
			kinds++
		}
	}
	if kinds > 1 {
		b = append(b, ` containsMixedTypes="1"`...)
	}
	if f.hasNumber && !f.hasDate {
		b = append(b, ` containsNumber="1"`...)
		if !f.nonInt {
			b = append(b, ` containsInteger="1"`...)
		}
		b = appendPivotNumber(append(b, ` minValue="`...), f.minNum)
		b = appendPivotNumber(append(b, `" maxValue="`...), f.maxNum)
		b = append(b, '"')
	}
	if f.hasDate {
		// With dates, Excel gives the dates' range, not the numbers'.
		b = append(b, ` minDate="`...)
		b = append(b, DateFromSerial(f.minDate, date1904).Format("2006-01-02T15:04:05")...)
		b = append(b, `" maxDate="`...)
		// Excel's maxDate is the day after the last one.
		b = append(b, DateFromSerial(math.Floor(f.maxDate)+1, date1904).Format("2006-01-02T15:04:05")...)
		b = append(b, '"')
	}
	if f.longText {
		b = append(b, ` longText="1"`...)
	}
	return b
}

// pivotParts are the pivot tables' and caches' parts.
func (w *Writer) pivotParts() []packagePart {
	var parts []packagePart
	for _, p := range w.pivots {
		n := strconv.Itoa(p.id)
		rels := relsHeader + `<Relationship Id="rId1" Type="` + relTypes + `pivotCacheDefinition" Target="../pivotCache/pivotCacheDefinition` + n + `.xml"/></Relationships>`
		parts = append(parts,
			packagePart{"xl/pivotTables/pivotTable" + n + ".xml", p.table},
			packagePart{"xl/pivotTables/_rels/pivotTable" + n + ".xml.rels", []byte(rels)},
			packagePart{"xl/pivotCache/pivotCacheDefinition" + n + ".xml", p.cacheDefinition(p.sourceRows)})
		if p.spool != nil {
			parts = append(parts, packagePart{"xl/pivotCache/_rels/pivotCacheDefinition" + n + ".xml.rels",
				[]byte(relsHeader + `<Relationship Id="rId1" Type="` + relTypes + `pivotCacheRecords" Target="pivotCacheRecords` + n + `.xml"/></Relationships>`)})
		}
	}
	return parts
}

// writePivotRecords streams each pivot's spooled records into the
// package, and removes the spools.
func (w *Writer) writePivotRecords() error {
	for _, p := range w.pivots {
		if p.spool == nil {
			continue
		}
		name := "xl/pivotCache/pivotCacheRecords" + strconv.Itoa(p.id) + ".xml"
		if err := p.writeRecords(w.zip, w.pool, name); err != nil {
			return w.fail(err)
		}
	}
	return nil
}

// writeRecords streams the pivot's spooled records into the package as
// the part name, and removes the spool.
func (p *pivot) writeRecords(z *zipstream.Writer, pool *deflate.Pool, name string) error {
	r := p.spool
	defer r.discard()
	err := func() error {
		if err := r.flush(true); err != nil {
			return err
		}
		if _, err := r.f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		entry, err := z.Create(name)
		if err != nil {
			return err
		}
		stream := pool.NewStream(entry)
		b := append(pool.Buffer(), xmlHeader+`<pivotCacheRecords xmlns="`+nsMain+`" xmlns:r="`+nsRelations+`"`...)
		b = appendIntAttr(b, "count", p.records)
		b = append(b, '>')
		chunk := make([]byte, 64<<10)
		for {
			n, readErr := r.f.Read(chunk)
			b = append(b, chunk[:n]...)
			if len(b) >= pool.ChunkSize() {
				var err error
				if b, err = stream.Submit(b); err != nil {
					stream.Abort()
					return err
				}
				b = b[:0]
			}
			if readErr == io.EOF {
				break
			}
			if readErr != nil {
				stream.Abort()
				return readErr
			}
		}
		b = append(b, "</pivotCacheRecords>"...)
		crc, size, err := stream.Close(b)
		if err == nil {
			err = entry.Close(crc, size)
		}
		return err
	}()
	if err != nil {
		return partError(name, err)
	}
	return nil
}

// discardPivotRecords removes the spools of a writer that did not finish.
func (w *Writer) discardPivotRecords() {
	for _, p := range w.pivots {
		p.spool.discard()
	}
	for _, s := range w.sheets {
		for _, p := range s.pivots {
			p.spool.discard()
		}
	}
	for _, list := range w.pivotWatch {
		for _, p := range list {
			p.spool.discard()
		}
	}
}
