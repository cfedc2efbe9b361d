package xlsx

import (
	"archive/zip"
	"bytes"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/klauspost/compress/flate"

	"github.com/sheetstream/sheetstream/internal/zipstream"
)

// emit adds XML to the chunk being filled.
func (ts *TemplateSheet) emit(b []byte) error {
	ts.buf = append(ts.buf, b...)
	return ts.flushFull()
}

// flushFull hands a full chunk to the deflate workers.
func (ts *TemplateSheet) flushFull() error {
	if len(ts.buf) < ts.t.pool.ChunkSize() {
		return nil
	}
	var err error
	if ts.buf, err = ts.stream.Submit(ts.buf); err != nil {
		return ts.t.fail(fmt.Errorf("%w: sheet %q: %v", ErrTemplate, ts.name, err))
	}
	return nil
}

// Name is the sheet's name.
func (ts *TemplateSheet) Name() string { return ts.name }

// LastRow is the number of the last row written (the row before the
// first one before any).
func (ts *TemplateSheet) LastRow() int { return ts.row }

// WriteRow writes cells as the next row, the first cell in the table's
// first column (column A without a table), each in its column's style
// from the template's first body row (dates and times given a date
// format if that style has none; a Cell's own StyleID, which names a
// Writer's style, is not used). Text joins the template's shared strings
// as TemplateOptions.Strings says.
//
// Past row 1,048,576 (the rows after the body move down: they must fit
// too) the rows roll over to a new plain sheet after the filled one,
// "NAME (2)" (then "NAME (3)"...), its first row the header (Fill's, or
// the table's column names) and its cells in the same column styles; the
// table, ranges and charts cover the template's sheet only.
//
// Errors, in a *CellError naming the sheet, row and column: those of
// Sheet.WriteRow for a cell's value, ErrTooManyColumns, and the first
// error of the writer.
func (ts *TemplateSheet) WriteRow(cells []Cell) error {
	for ts.next != nil {
		ts = ts.next // the rows rolled over
	}
	t := ts.t
	if t.err != nil {
		return t.err
	}
	if t.current != ts {
		return &CellError{Sheet: ts.name, Err: ErrSheetDone}
	}
	row := ts.row + 1
	if row+ts.afterSpan > MaxRows {
		next, err := ts.rollover()
		if err != nil {
			return err
		}
		ts, row = next, next.row+1
	}
	start := len(ts.buf)
	b := ts.buf
	b = append(b, `<row r="`...)
	b = strconv.AppendInt(b, int64(row), 10)
	b = append(b, `">`...)
	prev := 0 // the column of the cell before: the next one needs no reference
	for i := range cells {
		c := &cells[i]
		if c.kind == kindEmpty {
			continue
		}
		col := ts.firstCol + i
		if col > MaxColumns {
			return &CellError{Sheet: ts.name, Row: row, Err: fmt.Errorf("%w: the row reaches column %d", ErrTooManyColumns, col)}
		}
		var err error
		b, err = ts.appendCell(b, row, col, i, c, col != prev+1)
		prev = col
		if err != nil {
			ts.buf = b[:start] // the row is not written
			return &CellError{Sheet: ts.name, Row: row, Col: col, Err: err}
		}
	}
	ts.buf = append(b, "</row>"...)
	ts.row = row
	if len(t.pivots) > 0 {
		ts.addPivotRow(cells)
	}
	return ts.flushFull()
}

func (ts *TemplateSheet) appendCell(b []byte, row, col, i int, c *Cell, ref bool) ([]byte, error) {
	style := 0
	if i < len(ts.colStyles) {
		style = ts.colStyles[i]
	}
	k := c.kind
	if k == kindFormula {
		k = c.cached
	}
	if k >= kindDateTime && k <= kindDuration {
		style = ts.t.styles.dateStyle(style, k)
	}
	if ref {
		b = append(b, `<c r="`...)
		b = appendCellRef(b, row, col-1)
		b = append(b, '"')
	} else {
		b = append(b, "<c"...)
	}
	if style > 0 {
		b = appendIntAttr(b, "s", style)
	}
	var err error
	switch c.kind {
	case kindBlank:
		return append(b, "/>"...), nil
	case kindInt:
		b = strconv.AppendInt(append(b, "><v>"...), c.i, 10)
	case kindUint:
		b = strconv.AppendUint(append(b, "><v>"...), c.uint(), 10)
	case kindFloat, kindFloat32:
		if b, err = appendXMLNumber(append(b, "><v>"...), c.num, c.kind == kindFloat32); err != nil {
			return b, err
		}
	case kindDecimal:
		if b, err = appendDecimal(append(b, "><v>"...), c.decimal()); err != nil {
			return b, err
		}
	case kindBool:
		b = append(append(b, ` t="b"><v>`...), c.boolDigit())
	case kindDateTime, kindDate, kindTimeOfDay, kindDuration:
		v, err := ts.t.timeValue(k, c)
		if err != nil {
			return b, err
		}
		b, _ = appendXMLNumber(append(b, "><v>"...), v, false)
	case kindError:
		if !c.errorCode().valid() {
			return b, fmt.Errorf("%w: %q", ErrErrorCode, c.errorCode())
		}
		b = append(append(b, ` t="e"><v>`...), c.errorCode()...)
	case kindString, kindRich:
		text := c.text()
		if c.kind == kindRich {
			text, _ = c.Value().(string)
		}
		return ts.t.appendTextCell(b, text, c.kind == kindString)
	case kindFormula:
		b = append(b, '>')
		b = append(b, "<f>"...)
		if b, err = appendText(b, c.formula()); err != nil {
			return b, err
		}
		b = append(b, "</f></c>"...)
		return b, nil
	}
	return append(b, "</v></c>"...), nil
}

// timeValue is a time cell's serial in the template's calendar, as a
// Writer with the template's zone and calendar computes it.
func (t *TemplateWriter) timeValue(k cellKind, c *Cell) (float64, error) {
	return t.clock.timeValue(k, c)
}

// finish writes what follows the rows: the rows after the body, moved
// under them, and the rest of the sheet with its ranges grown.
func (ts *TemplateSheet) finish() error {
	t := ts.t
	if t.current != ts {
		return nil
	}
	t.current = nil
	g := ts.grower()
	for _, r := range ts.after {
		if err := ts.emit(g.moveRow(r)); err != nil {
			return err
		}
	}
	tail := g.growSheetTail(ts.tail)
	tail = t.sheetPlaceholders(tail, true)
	ts.buf = append(ts.buf, tail...)
	crc, size, err := ts.stream.Close(ts.buf)
	ts.buf = nil
	if err != nil {
		return t.fail(err)
	}
	return t.fail2(ts.entry.Close(crc, size))
}

func (t *TemplateWriter) fail2(err error) error {
	if err != nil {
		return t.fail(err)
	}
	return nil
}

func (t *TemplateWriter) finishCurrent() error {
	if t.current == nil {
		return nil
	}
	return t.current.finish()
}

// grower extends ranges that end at the template's last body row (or, in
// a sheet without a table, its last used row) to the last row written,
// and moves the rows after it.
type grower struct {
	sheet      string
	old, delta int // the old last row, and how far it and the rows below move
	// oneRow: the body was one row, so a reference to a single cell of
	// it (a chart's or a name's) means the body and grows into a range.
	oneRow bool
}

func (ts *TemplateSheet) grower() grower {
	last := ts.row
	if ts.table != nil {
		last = max(ts.row, ts.firstRow) // a table keeps one body row
	}
	last = max(last, ts.firstRow-1)
	return grower{sheet: ts.name, old: ts.oldLast, delta: last - ts.oldLast, oneRow: ts.oldLast == ts.firstRow}
}

var (
	refRe     = regexp.MustCompile(`(\$?)([A-Z]{1,3})(\$?)([0-9]{1,7})\b`)
	rowAttrRe = regexp.MustCompile(`(<row\b[^>]*\br=")([0-9]+)"`)
	cellRefRe = regexp.MustCompile(`(<c\b[^>]*\br=")([A-Z]{1,3})([0-9]+)"`)
	formulaRe = regexp.MustCompile(`(<f\b[^>]*>)([^<]*)(</f>)`)
	sqrefRe   = regexp.MustCompile(`\b(sqref|ref)="([^"]*)"`)
)

// moveRow moves a row after the body down, its cells' references and
// formulas with it.
func (g grower) moveRow(r []byte) []byte {
	r = rowAttrRe.ReplaceAllFunc(r, func(m []byte) []byte {
		sub := rowAttrRe.FindSubmatch(m)
		n, _ := strconv.Atoi(string(sub[2]))
		return []byte(string(sub[1]) + strconv.Itoa(n+g.delta) + `"`)
	})
	r = cellRefRe.ReplaceAllFunc(r, func(m []byte) []byte {
		sub := cellRefRe.FindSubmatch(m)
		n, _ := strconv.Atoi(string(sub[3]))
		return []byte(string(sub[1]) + string(sub[2]) + strconv.Itoa(n+g.delta) + `"`)
	})
	return g.growFormulas(r)
}

// growFormulas moves the rows a formula refers to: a row after the body
// moves down, the body's last row becomes the last row written, so that
// SUM(B2:B10) over a body of rows 2..10 sums every row written.
func (g grower) growFormulas(b []byte) []byte {
	return formulaRe.ReplaceAllFunc(b, func(m []byte) []byte {
		sub := formulaRe.FindSubmatch(m)
		return append(append(append([]byte(nil), sub[1]...), g.growRefs(string(sub[2]))...), sub[3]...)
	})
}

// growRefs grows the A1 references of a formula or range list: a range
// that ends at or after the old last row ends as much lower, a cell or a
// range's start after it moves down.
func (g grower) growRefs(s string) string { return g.grow(s, false) }

// growRange grows a range that stands for the body, as growRefs does,
// and a single cell of a one-row body into a range down the rows.
func (g grower) growRange(s string) string { return g.grow(s, true) }

func (g grower) grow(s string, cells bool) string {
	if g.delta == 0 {
		return s
	}
	locs := refRe.FindAllStringSubmatchIndex(s, -1)
	var b strings.Builder
	prev := 0
	for _, loc := range locs {
		n, err := strconv.Atoi(s[loc[8]:loc[9]])
		if err != nil {
			continue
		}
		// Not a reference: part of a name (LOG10, Table1), a function
		// (ATAN2(...)), or another sheet's (Other!A5).
		if loc[0] > 0 && (isNameByte(s[loc[0]-1]) || s[loc[0]-1] == '!') || loc[1] < len(s) && (s[loc[1]] == '(' || isNameByte(s[loc[1]])) {
			continue
		}
		rangeEnd := loc[0] > 0 && s[loc[0]-1] == ':'
		rangeStart := loc[1] < len(s) && s[loc[1]] == ':'
		switch {
		case n > g.old, n == g.old && rangeEnd:
			n += g.delta
		case cells && g.oneRow && n == g.old && !rangeStart && g.delta > 0:
			// A cell of a one-row body: the range from it down.
			b.WriteString(s[prev:loc[1]])
			b.WriteString(":" + s[loc[0]:loc[8]] + strconv.Itoa(n+g.delta))
			prev = loc[1]
			continue
		default:
			continue
		}
		b.WriteString(s[prev:loc[8]])
		b.WriteString(strconv.Itoa(n))
		prev = loc[9]
	}
	b.WriteString(s[prev:])
	return b.String()
}

// growSheetTail grows the sqref and ref ranges after the sheet's data:
// conditional formats, data validations, merged cells, the autofilter.
func (g grower) growSheetTail(b []byte) []byte {
	b = sqrefRe.ReplaceAllFunc(b, func(m []byte) []byte {
		sub := sqrefRe.FindSubmatch(m)
		return []byte(string(sub[1]) + `="` + g.growRefs(string(sub[2])) + `"`)
	})
	return g.growFormulas(b)
}

// growSheetRefs grows references to the filled sheet in a formula or
// range of another part ("Sales!$B$2:$B$10", "'My data'!A1:A10").
func (g grower) growSheetRefs(s string) string {
	// Quoted even where the name needs no quotes: openpyxl writes
	// 'Orders'!$C$2:$C$3.
	q := regexp.QuoteMeta("'" + strings.ReplaceAll(g.sheet, "'", "''") + "'")
	plain := regexp.QuoteMeta(g.sheet)
	re := regexp.MustCompile(`(?:` + q + `|` + plain + `)!(\$?[A-Z]{1,3}\$?[0-9]{1,7}(?::\$?[A-Z]{1,3}\$?[0-9]{1,7})?)`)
	return re.ReplaceAllStringFunc(s, func(m string) string {
		bang := strings.LastIndexByte(m, '!')
		return m[:bang+1] + g.growRange(m[bang+1:])
	})
}

// Close finishes the sheet being filled and writes the rest of the
// workbook: the parts the rows change, rewritten, and every other part as
// the template has it. A template's content type becomes a workbook's.
//
// Errors: the writer's first error, and errors reading the template or
// writing out.
func (t *TemplateWriter) Close() error {
	if t.closed {
		return t.err
	}
	t.closed = true
	defer t.closePool()
	defer t.discardPivots()
	if t.encrypted != nil {
		defer t.encrypted.discard()
	}
	if t.err != nil {
		return t.err
	}
	if err := t.finishCurrent(); err != nil {
		return err
	}
	// Sheets showing a placeholder (a typed value's cell, an inline
	// string, the header or footer) are rewritten; finding them, by
	// reading each once, first adds the date styles they need.
	typed := t.typedPlaceholders(true)
	rewriteSheets := map[string]bool{}
	if t.styles == nil {
		// A typed placeholder, shared or inline, may need a date style;
		// a workbook without styles can take only those a shared one
		// needs to fail on.
		st, err := t.loadStyles()
		switch {
		case err == nil:
			t.styles = st
		case len(typed) > 0:
			return t.fail(err)
		}
	}
	for _, p := range t.parts {
		if t.written[p] || t.files[p] == nil {
			continue
		}
		has, err := t.sheetNeedsRewrite(t.files[p], typed)
		if err != nil {
			return t.fail(err)
		}
		rewriteSheets[p] = has
	}
	rewrite := map[string]func([]byte) []byte{
		"[Content_Types].xml": t.contentTypes,
		t.book:                t.workbookXML,
	}
	// The designer's pivots computed from the rows: their cells may add
	// a date style and shared strings.
	if err := t.finishPivots(rewrite, rewriteSheets); err != nil {
		return t.fail(err)
	}
	if t.styles != nil && t.styles.changed {
		rewrite[t.styles.part] = func([]byte) []byte { return t.styles.xml() }
	}
	relsOfBook := path.Join(path.Dir(t.book), "_rels", path.Base(t.book)+".rels")
	rewrite[relsOfBook] = dropCalcChain
	if len(t.added) > 0 {
		// The sheets rows rolled over to join the package; their
		// relationship ids are chosen before the workbook names them.
		rels, err := t.readPart(relsOfBook, 16<<20)
		if err != nil {
			return t.fail(err)
		}
		withSheets := t.addedSheetsRels(rels)
		rewrite[relsOfBook] = func(x []byte) []byte { return dropCalcChain(withSheets) }
		rewrite["[Content_Types].xml"] = func(x []byte) []byte { return t.addedSheetsTypes(t.contentTypes(x)) }
		rewrite[t.book] = func(x []byte) []byte { return t.addedSheetsXML(t.workbookXML(x)) }
	}
	for _, ts := range t.filled {
		if ts.table != nil {
			tb, ts := ts.table, ts
			rewrite[tb.part] = func(x []byte) []byte { return ts.tableXML(x) }
		}
		for _, o := range ts.below {
			g := ts.grower()
			rewrite[o.part] = func(x []byte) []byte { return g.growSheetTail(x) }
		}
	}
	// Parts that may refer to the filled ranges are read; those the rows
	// leave as they were are copied as they are.
	maybe := map[string]func([]byte) []byte{}
	for _, f := range t.zr.File {
		name := f.Name
		switch {
		case name == t.sstPart:
			if t.sst != nil && len(t.sst.entries) > 0 {
				rewrite[name] = t.sharedStringsXML
			} else {
				maybe[name] = t.placeholders
			}
		case strings.HasSuffix(name, "sharedStrings.xml"):
			maybe[name] = t.placeholders
		case strings.HasPrefix(name, "xl/charts/chart") || strings.HasPrefix(name, "xl/pivotCache/pivotCacheDefinition"):
			maybe[name] = t.growOtherPart
		}
	}
	for _, f := range t.zr.File {
		name := f.Name
		if t.written[name] || strings.HasSuffix(name, "calcChain.xml") {
			continue // the calculation chain: Excel rebuilds it
		}
		if rewriteSheets[name] {
			if err := t.rewriteSheet(f, typed); err != nil {
				return t.fail(err)
			}
			continue
		}
		fn, must := rewrite[name]
		if !must {
			fn = maybe[name]
		}
		if fn == nil {
			if err := t.copyRaw(f); err != nil {
				return t.fail(err)
			}
			continue
		}
		x, err := t.readPart(name, 256<<20)
		if err != nil {
			return t.fail(err)
		}
		y := fn(x)
		if !must && bytes.Equal(x, y) {
			if err := t.copyRaw(f); err != nil {
				return t.fail(err)
			}
			continue
		}
		if err := t.writeWhole(name, y); err != nil {
			return t.fail(err)
		}
	}
	if err := t.out.Close(); err != nil {
		return t.fail(err)
	}
	if t.encrypted != nil {
		return t.fail2(t.encrypted.Close())
	}
	return nil
}

// copyRaw copies a part as the template has it, compressed bytes and all.
func (t *TemplateWriter) copyRaw(f *zip.File) error {
	raw, err := f.OpenRaw()
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrTemplate, f.Name, err)
	}
	t.written[f.Name] = true
	return t.out.CopyRaw(f.Name, f.Method, raw, f.CompressedSize64, f.CRC32, f.UncompressedSize64)
}

// writeWhole deflates a rewritten part into the output.
func (t *TemplateWriter) writeWhole(name string, data []byte) error {
	var buf bytes.Buffer
	fw, err := flate.NewWriter(&buf, 6)
	if err != nil {
		return err
	}
	if _, err := fw.Write(data); err != nil {
		return err
	}
	if err := fw.Close(); err != nil {
		return err
	}
	t.written[name] = true
	return t.out.WriteFile(name, buf.Bytes(), zipstream.CRC32(0, data), uint64(len(data)))
}

var calcChainRelRe = regexp.MustCompile(`<Relationship\b[^>]*calcChain[^>]*/>`)

func dropCalcChain(x []byte) []byte { return calcChainRelRe.ReplaceAll(x, nil) }

var (
	calcChainCTRe = regexp.MustCompile(`<Override\b[^>]*calcChain[^>]*/>`)
	calcPrRe      = newNSPattern(`<§calcPr\b[^>]*?(/?)>`)
	definedNameRe = newNSPattern(`(<§definedName\b[^>]*>)([^<]*)(</§definedName>)`)
)

// contentTypes drops the calculation chain's and makes a template's main
// part a workbook's.
func (t *TemplateWriter) contentTypes(x []byte) []byte {
	x = calcChainCTRe.ReplaceAll(x, nil)
	x = bytes.ReplaceAll(x, []byte("spreadsheetml.template.main+xml"), []byte("spreadsheetml.sheet.main+xml"))
	return bytes.ReplaceAll(x, []byte("application/vnd.ms-excel.template.macroEnabled.main+xml"), []byte("application/vnd.ms-excel.sheet.macroEnabled.main+xml"))
}

// workbookXML grows the defined names (print areas and titles among
// them) over the filled ranges and has Excel recalculate on open.
func (t *TemplateWriter) workbookXML(x []byte) []byte {
	prefix := nsPrefix(x, nsMain, "")
	definedName := definedNameRe.with(prefix)
	for _, ts := range t.filled {
		g := ts.grower()
		x = definedName.ReplaceAllFunc(x, func(m []byte) []byte {
			sub := definedName.FindSubmatch(m)
			return []byte(string(sub[1]) + g.growSheetRefs(string(sub[2])) + string(sub[3]))
		})
	}
	return calcPrRe.with(prefix).ReplaceAllFunc(x, func(m []byte) []byte {
		s := string(m)
		s = regexp.MustCompile(`\s*fullCalcOnLoad="[^"]*"`).ReplaceAllString(s, "")
		return []byte(strings.Replace(s, "<"+prefix+"calcPr", "<"+prefix+`calcPr fullCalcOnLoad="1"`, 1))
	})
}

var (
	chartFRe      = newNSPattern(`<§f>([^<]*)</§f>(<§(?:num|str)Cache>.*?</§(?:num|str)Cache>)?`)
	worksheetSrc  = newNSPattern(`<§worksheetSource\b[^>]*/>`)
	pivotDefRe    = newNSPattern(`<§pivotCacheDefinition\b[^>]*>`)
	refreshLoadRe = regexp.MustCompile(`\s*refreshOnLoad="[^"]*"`)
)

// growOtherPart grows a chart's series and a pivot cache's source over the
// filled ranges: a chart's grown series drop their cached values (Excel
// reads the cells), a pivot cache is refreshed when Excel opens the file.
func (t *TemplateWriter) growOtherPart(x []byte) []byte {
	chartPrefix, mainPrefix := nsPrefix(x, nsChart, "c:"), nsPrefix(x, nsMain, "")
	chartF, source, pivotDef := chartFRe.with(chartPrefix), worksheetSrc.with(mainPrefix), pivotDefRe.with(mainPrefix)
	for _, ts := range t.filled {
		g := ts.grower()
		x = chartF.ReplaceAllFunc(x, func(m []byte) []byte {
			sub := chartF.FindSubmatch(m)
			grown := g.growSheetRefs(xmlUnescape(string(sub[1])))
			if grown == xmlUnescape(string(sub[1])) {
				return m
			}
			return appendElem(nil, chartPrefix+"f", grown)
		})
		grew := false
		x = source.ReplaceAllFunc(x, func(m []byte) []byte {
			a := attrs(string(m))
			if a["name"] != "" && a["ref"] == "" && ts.table != nil && slices.ContainsFunc(ts.table.names, func(n string) bool { return strings.EqualFold(n, a["name"]) }) {
				grew = true // the source is the table by name: it follows it
				return m
			}
			if !strings.EqualFold(a["sheet"], ts.name) || a["ref"] == "" {
				return m
			}
			grown := g.growRange(a["ref"])
			if grown == a["ref"] {
				return m
			}
			grew = true
			return bytes.Replace(m, []byte(`ref="`+a["ref"]+`"`), []byte(`ref="`+grown+`"`), 1)
		})
		if grew {
			x = pivotDef.ReplaceAllFunc(x, func(p []byte) []byte {
				s := refreshLoadRe.ReplaceAllString(string(p), "")
				return []byte(strings.Replace(s, "<"+mainPrefix+"pivotCacheDefinition", "<"+mainPrefix+`pivotCacheDefinition refreshOnLoad="1"`, 1))
			})
		}
	}
	return x
}

// tableXML grows the table over the rows written: its ref, autofilter
// and, the totals row moved under them.
func (ts *TemplateSheet) tableXML(x []byte) []byte {
	tb := ts.table
	last := max(ts.row, ts.firstRow) + tb.totals
	ref := tb.ref
	ref.LastRow = last
	filter := ref
	filter.LastRow = last - tb.totals
	prefix := nsPrefix(x, nsMain, "")
	x = tableRefRe.with(prefix).ReplaceAll(x, []byte("${1}"+ref.String()+`"`))
	return autoFilterRefRe.with(prefix).ReplaceAll(x, []byte("${1}"+filter.String()+`"`))
}

var (
	tableRefRe      = newNSPattern(`(<§table\b[^>]*\bref=")[^"]*"`)
	autoFilterRefRe = newNSPattern(`(<§autoFilter\b[^>]*\bref=")[^"]*"`)
)

var placeholderRe = regexp.MustCompile(`\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}`)

// placeholders replaces {{name}} in text, escaped for XML; unknown names
// are left as they are.
func (t *TemplateWriter) placeholders(x []byte) []byte { return t.fillPlaceholders(x, true, false) }

// fillPlaceholders is placeholders with {{rows}} left while the rows are
// not known; in a header or footer a value's & is doubled, as Excel reads
// a single one as the start of a code.
func (t *TemplateWriter) fillPlaceholders(x []byte, rowsKnown, headerFooter bool) []byte {
	if !bytes.Contains(x, []byte("{{")) {
		return x
	}
	return placeholderRe.ReplaceAllFunc(x, func(m []byte) []byte {
		name := string(placeholderRe.FindSubmatch(m)[1])
		v, ok := t.placeholderValue(name, rowsKnown)
		if !ok {
			return m
		}
		text := placeholderText(v)
		if headerFooter {
			text = strings.ReplaceAll(text, "&", "&&")
		}
		out, err := appendText(nil, text)
		if err != nil {
			return m // text XML cannot carry: the placeholder stays
		}
		return out
	})
}

// sheetTextRe is a sheet's own text: its inline strings, its header and
// footer.
var sheetTextRe = regexp.MustCompile(`(?s)<headerFooter\b.*?</headerFooter>|<is>.*?</is>`)

// sheetPlaceholders fills the placeholders of a sheet's own text (its
// shared text is the shared strings table's).
func (t *TemplateWriter) sheetPlaceholders(x []byte, rowsKnown bool) []byte {
	if !bytes.Contains(x, []byte("{{")) {
		return x
	}
	return sheetTextRe.ReplaceAllFunc(x, func(m []byte) []byte {
		return t.fillPlaceholders(m, rowsKnown, bytes.HasPrefix(m, []byte("<headerFooter")))
	})
}

// sharedString finds text's index among the rows' shared strings,
// adding it if it is new and fits; ok is false when it goes inline.
func (t *TemplateWriter) sharedString(text string) (i uint32, ok bool, err error) {
	if t.sst == nil {
		return 0, false, nil
	}
	if i, found := t.sst.index[text]; found {
		t.sst.refs++
		return i, true, nil
	}
	if !t.sst.fits(len(text)) || t.sstBase+len(t.sst.entries) >= 1<<31-1 {
		return 0, false, nil
	}
	if t.scratch, err = appendText(t.scratch[:0], text); err != nil {
		return 0, false, err
	}
	t.sst.refs++
	return t.sst.add(text), true, nil
}

// sharedStringsXML is the template's table (its placeholders filled)
// with the rows' strings after its own.
func (t *TemplateWriter) sharedStringsXML(x []byte) []byte {
	x = t.placeholders(x)
	if t.sst == nil || len(t.sst.entries) == 0 {
		return x
	}
	start := bytes.Index(x, []byte("<sst"))
	end := bytes.LastIndex(x, []byte("</sst>"))
	tagEnd := bytes.IndexByte(x[max(start, 0):], '>') + start + 1
	if start < 0 || end < tagEnd {
		return x
	}
	tag := sstCountRe.ReplaceAllFunc(x[start:tagEnd], func(m []byte) []byte {
		sub := sstCountRe.FindSubmatch(m)
		n, _ := strconv.ParseUint(string(sub[3]), 10, 64)
		if string(sub[2]) == "uniqueCount" {
			n = uint64(t.sstBase + len(t.sst.entries))
		} else {
			n += t.sst.refs
		}
		return append(append(append([]byte(nil), sub[1]...), strconv.FormatUint(n, 10)...), '"')
	})
	out := make([]byte, 0, len(x)+t.sst.used)
	out = append(append(append(out, x[:start]...), tag...), x[tagEnd:end]...)
	for _, e := range t.sst.entries {
		out = appendT(append(out, "<si>"...), e.s)
		out = append(out, "</si>"...)
	}
	return append(out, x[end:]...)
}

// sstCountRe finds the counts on the shared strings table's start tag.
var sstCountRe = regexp.MustCompile(`(\b(count|uniqueCount)=")(\d*)"`)

// Abort stops the writer without finishing the file, releasing its
// workers; Close after it returns the error that stopped it, if any.
func (t *TemplateWriter) Abort() {
	if t.current != nil && t.current.stream != nil {
		t.current.stream.Abort()
		t.current = nil
	}
	if !t.closed {
		t.closed = true
		t.fail(fmt.Errorf("%w: aborted", ErrTemplate))
	}
	t.closePool()
	t.discardPivots()
	if t.encrypted != nil {
		t.encrypted.discard()
	}
}

// discardPivots removes the computed pivots' record spools.
func (t *TemplateWriter) discardPivots() {
	for _, tp := range t.pivots {
		tp.p.spool.discard()
	}
}

func (t *TemplateWriter) closePool() {
	if t.current != nil && t.current.stream != nil {
		t.current.stream.Abort()
		t.current = nil
	}
	if t.pool != nil {
		t.pool.Close()
		t.pool = nil
	}
	if t.file != nil {
		t.file.Close() // OpenTemplate's
		t.file = nil
	}
}
