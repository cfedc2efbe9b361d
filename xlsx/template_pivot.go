package xlsx

// A designer's pivot table over a filled sheet, computed as the rows go
// by: its cache, its table definition and its cells are written anew
// when the template is closed, as a Writer's own pivot's are. A pivot
// this cannot reproduce (hidden items, calculated fields, groups, shown
// values as percentages...) keeps its cache refreshed when Excel opens
// the file, as before.

import (
	"bytes"
	"encoding/xml"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// templatePivot is a designer's pivot table and the pivot computing it.
type templatePivot struct {
	p                      *pivot
	source                 *TemplateSheet
	tablePart, cachePart   string
	sheetPart, recordsPart string // recordsPart: "" when the cache saves none
	recordsID              string // the cache's relationship to its records
	top, left              int    // the location's first cell
	old                    Range  // the location as the designer left it
	failed                 bool   // fall back to refreshing on open
	// cellsXML are the rendered cells' XML by row and column, a NUL where
	// a style attribute may go.
	cellsXML map[int]map[int][]byte
}

// The parts of a designer's pivot table and cache this reads; anything
// else in them is left to Excel's refresh.
type (
	designerTable struct {
		Name    string `xml:"name,attr"`
		CacheID int    `xml:"cacheId,attr"`
		DataOn  bool   `xml:"dataOnRows,attr"`
		Headers *bool  `xml:"showHeaders,attr"`
		RowGT   *bool  `xml:"rowGrandTotals,attr"`
		ColGT   *bool  `xml:"colGrandTotals,attr"`
		Loc     struct {
			Ref string `xml:"ref,attr"`
		} `xml:"location"`
		Fields []struct {
			Compact  *bool  `xml:"compact,attr"`
			Outline  *bool  `xml:"outline,attr"`
			Sort     string `xml:"sortType,attr"`
			Subtotal *bool  `xml:"defaultSubtotal,attr"`
			Items    []struct {
				X      int    `xml:"x,attr"`
				Gone   bool   `xml:"m,attr"` // no longer in the source
				Hidden bool   `xml:"h,attr"`
				Type   string `xml:"t,attr"`
			} `xml:"items>item"`
		} `xml:"pivotFields>pivotField"`
		Rows []struct {
			X int `xml:"x,attr"`
		} `xml:"rowFields>field"`
		Cols []struct {
			X int `xml:"x,attr"`
		} `xml:"colFields>field"`
		Pages []struct {
			Fld  int  `xml:"fld,attr"`
			Item *int `xml:"item,attr"`
		} `xml:"pageFields>pageField"`
		Data []struct {
			Name     string `xml:"name,attr"`
			Fld      int    `xml:"fld,attr"`
			Subtotal string `xml:"subtotal,attr"`
			NumFmt   int    `xml:"numFmtId,attr"`
			ShowAs   string `xml:"showDataAs,attr"`
		} `xml:"dataFields>dataField"`
		Filters []struct{} `xml:"filters>filter"`
		Style   struct {
			Name string `xml:"name,attr"`
		} `xml:"pivotTableStyleInfo"`
		Ext struct {
			HideValuesRow bool `xml:"hideValuesRow,attr"`
		} `xml:"extLst>ext>pivotTableDefinition"`
	}
	designerCache struct {
		RecordsID string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		Source    struct {
			Type string `xml:"type,attr"`
			WS   struct {
				Ref   string `xml:"ref,attr"`
				Sheet string `xml:"sheet,attr"`
				Name  string `xml:"name,attr"`
			} `xml:"worksheetSource"`
		} `xml:"cacheSource"`
		Fields []struct {
			Name     string    `xml:"name,attr"`
			Formula  string    `xml:"formula,attr"`
			Database *bool     `xml:"databaseField,attr"`
			Group    *struct{} `xml:"fieldGroup"`
			Shared   struct {
				Items []struct {
					XMLName xml.Name
					V       string `xml:"v,attr"`
				} `xml:",any"`
			} `xml:"sharedItems"`
		} `xml:"cacheFields>cacheField"`
	}
)

var pivotFuncByXML = func() map[string]PivotFunc {
	m := map[string]PivotFunc{"": PivotSum}
	for f, d := range pivotFuncs {
		m[d.xml] = PivotFunc(f)
	}
	return m
}()

// findPivots finds the designer's pivot tables whose cache reads the
// sheet being filled, and starts a pivot for each it can compute.
func (t *TemplateWriter) findPivots(ts *TemplateSheet) error {
	sheetOf := map[string]string{} // pivot table part -> its sheet's part
	for _, part := range t.parts {
		targets, _, err := t.rels(part)
		if err != nil {
			return err
		}
		for _, target := range targets {
			if strings.HasPrefix(target, "xl/pivotTables/") {
				sheetOf[target] = part
			}
		}
	}
	names := make([]string, 0, len(sheetOf))
	for name := range sheetOf {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		tp, err := t.designerPivot(ts, name, sheetOf[name])
		if err != nil {
			return err
		}
		if tp != nil {
			t.pivots = append(t.pivots, tp)
		}
	}
	return nil
}

// designerPivot reads one pivot table and its cache: a computed pivot
// when its cache reads the filled rows and it uses nothing this does
// not compute, else nil.
func (t *TemplateWriter) designerPivot(ts *TemplateSheet, tablePart, sheetPart string) (*templatePivot, error) {
	if slices.ContainsFunc(t.filled, func(f *TemplateSheet) bool { return f.part == sheetPart }) || sheetPart == ts.part {
		return nil, nil // its sheet is filled: its cells are rows
	}
	targets, types, err := t.rels(tablePart)
	if err != nil {
		return nil, err
	}
	cachePart := ""
	for id, typ := range types {
		if typ == "pivotCacheDefinition" {
			cachePart = targets[id]
		}
	}
	if cachePart == "" || t.files[cachePart] == nil {
		return nil, nil
	}
	cx, err := t.readPart(cachePart, 64<<20)
	if err != nil {
		return nil, err
	}
	var cache designerCache
	if xml.Unmarshal(cx, &cache) != nil || cache.Source.Type != "worksheet" {
		return nil, nil
	}
	ws := cache.Source.WS
	byTable := ws.Name != "" && ts.table != nil && slices.ContainsFunc(ts.table.names, func(n string) bool { return strings.EqualFold(n, ws.Name) })
	if !byTable {
		ref, err := ParseRange(ws.Ref)
		if ws.Name != "" || !strings.EqualFold(ws.Sheet, ts.name) || err != nil || ref.FirstCol != ts.firstCol || ref.FirstRow != ts.firstRow-1 {
			return nil, nil
		}
	}
	tx, err := t.readPart(tablePart, 64<<20)
	if err != nil {
		return nil, err
	}
	var d designerTable
	if xml.Unmarshal(tx, &d) != nil {
		return nil, nil
	}
	def, why := d.pivotTable(&cache)
	if why != "" {
		return nil, nil
	}
	loc, err := ParseRange(d.Loc.Ref)
	if err != nil || len(def.Filters) > 0 && loc.FirstRow < len(def.Filters)+2 {
		return nil, nil
	}
	tp := &templatePivot{source: ts, tablePart: tablePart, cachePart: cachePart, sheetPart: sheetPart, top: loc.FirstRow, left: loc.FirstCol, old: loc}
	if cache.RecordsID != "" {
		ct, _, err := t.rels(cachePart)
		if err != nil {
			return nil, err
		}
		if tp.recordsPart = ct[cache.RecordsID]; tp.recordsPart == "" || t.files[tp.recordsPart] == nil {
			return nil, nil
		}
		tp.recordsID, def.Records = cache.RecordsID, true
	}
	p := &pivot{def: def, w: t.clock, id: d.CacheID}
	// The rendered cells' styles are the template's: these mark bold
	// and date cells only.
	p.styles.bold, p.styles.date = 1, 2
	p.styles.values = make([]StyleID, len(def.Values))
	p.styles.indents = []StyleID{0}
	for _, df := range d.Data {
		p.numFmtIDs = append(p.numFmtIDs, df.NumFmt)
	}
	if def.Records {
		if p.spool, err = newPivotRecords(t.opts.TempDir); err != nil {
			return nil, err
		}
	}
	header := make([]Cell, len(cache.Fields))
	for i, f := range cache.Fields {
		header[i] = String(f.Name)
	}
	if p.start(ts.name, header) != nil {
		p.spool.discard()
		return nil, nil
	}
	tp.p = p
	return tp, nil
}

// pivotTable is the designer's pivot as a PivotTable, or why it is not
// one this computes as Excel would.
func (d *designerTable) pivotTable(cache *designerCache) (PivotTable, string) {
	var def PivotTable
	n := len(cache.Fields)
	for _, f := range cache.Fields {
		if f.Formula != "" || f.Group != nil || (f.Database != nil && !*f.Database) || f.Name == "" {
			return def, "a calculated or grouped field: " + f.Name
		}
	}
	switch {
	case d.DataOn:
		return def, "the values on rows"
	case d.Headers != nil && !*d.Headers:
		return def, "its field captions hidden"
	case len(d.Filters) > 0:
		return def, "label or value filters"
	case len(d.Fields) != n:
		return def, "its fields are not its cache's"
	case len(d.Rows) == 0:
		return def, "no row field"
	case len(d.Data) == 0:
		return def, "no value"
	}
	name := func(x int) (string, string) {
		if x < 0 || x >= n {
			return "", "field " + strconv.Itoa(x) + " on an axis"
		}
		f := d.Fields[x]
		if f.Sort == "descending" {
			return "", "descending items: " + cache.Fields[x].Name
		}
		for _, it := range f.Items {
			if it.Hidden || it.Type != "" && it.Type != "default" {
				return "", "items hidden, or other subtotals than the default: " + cache.Fields[x].Name
			}
		}
		return cache.Fields[x].Name, ""
	}
	noTotals := func(x int) { // any axis field's "default" item
		if f := d.Fields[x]; f.Subtotal != nil && !*f.Subtotal {
			def.NoSubtotals = append(def.NoSubtotals, cache.Fields[x].Name)
		}
	}
	axis := func(x int, into *[]string) string {
		s, why := name(x)
		if why == "" {
			noTotals(x)
			*into = append(*into, s)
		}
		return why
	}
	for _, x := range d.Rows {
		if why := axis(x.X, &def.Rows); why != "" {
			return def, why
		}
	}
	for k, c := range d.Cols {
		if c.X == -2 && k == len(d.Cols)-1 {
			continue // the values, innermost, as this renders them
		}
		if why := axis(c.X, &def.Columns); why != "" {
			return def, why
		}
	}
	for _, pg := range d.Pages {
		s, why := name(pg.Fld)
		if why != "" {
			return def, why
		}
		noTotals(pg.Fld)
		if pg.Item != nil {
			c, ok := chosenItem(d, cache, pg.Fld, *pg.Item)
			if !ok {
				return def, "a filter's item that its cache lacks: " + s
			}
			if def.FilterItems == nil {
				def.FilterItems = map[string]Cell{}
			}
			def.FilterItems[s] = c
		}
		def.Filters = append(def.Filters, s)
	}
	for _, df := range d.Data {
		f, ok := pivotFuncByXML[df.Subtotal]
		switch {
		case !ok:
			return def, "a summary this does not compute: " + df.Subtotal
		case df.ShowAs != "" && df.ShowAs != "normal":
			return def, "a value shown as " + df.ShowAs
		case df.Fld < 0 || df.Fld >= n:
			return def, "a value of no field"
		}
		def.Values = append(def.Values, PivotValue{Column: cache.Fields[df.Fld].Name, Func: f, Name: df.Name})
		if df.Name == "" {
			def.Values[len(def.Values)-1].Name = pivotFuncs[f].caption + " of " + cache.Fields[df.Fld].Name
		}
	}
	first := d.Fields[d.Rows[0].X]
	switch {
	case first.Compact == nil || *first.Compact:
		def.Layout = PivotCompact
	case first.Outline == nil || *first.Outline:
		def.Layout = PivotOutline
	default:
		def.Layout = PivotTabular
	}
	// rowGrandTotals is the Grand Total row, colGrandTotals the column.
	bottom, right := d.RowGT == nil || *d.RowGT, d.ColGT == nil || *d.ColGT
	switch {
	case right && bottom:
		def.GrandTotals = PivotTotalsBoth
	case bottom:
		def.GrandTotals = PivotTotalsRow
	case right:
		def.GrandTotals = PivotTotalsColumn
	default:
		def.GrandTotals = PivotTotalsNone
	}
	def.Name, def.Style, def.MaxKeys, def.HideValuesRow = d.Name, d.Style.Name, DefaultPivotKeys, d.Ext.HideValuesRow
	return def, ""
}

// chosenItem is the cell of the item a designer's filter shows: the
// item's place among the field's items names a shared item of the cache.
func chosenItem(d *designerTable, cache *designerCache, fld, item int) (Cell, bool) {
	items := d.Fields[fld].Items
	if item < 0 || item >= len(items) {
		return Cell{}, false
	}
	shared := cache.Fields[fld].Shared.Items
	x := items[item].X
	if x < 0 || x >= len(shared) {
		return Cell{}, false
	}
	v := shared[x].V
	switch shared[x].XMLName.Local {
	case "s":
		return String(v), true
	case "n":
		f, err := strconv.ParseFloat(v, 64)
		return Float(f), err == nil
	case "b":
		return Bool(v == "1" || v == "true"), true
	case "d":
		t, err := time.Parse("2006-01-02T15:04:05", v)
		return Time(t), err == nil
	case "e":
		return Error(ErrorCode(v)), true
	case "m":
		return Cell{}, true
	}
	return Cell{}, false
}

// addPivotRow hands a filled row to the sheet's pivots; one that fails
// (past MaxKeys) falls back to being refreshed on open.
func (ts *TemplateSheet) addPivotRow(cells []Cell) {
	for _, tp := range ts.t.pivots {
		if tp.source == ts && !tp.failed && tp.p.add(cells) != nil {
			tp.fail()
		}
	}
}

// fail gives the computed pivot up: Excel refreshes it on open.
func (tp *templatePivot) fail() {
	tp.failed = true
	tp.p.spool.discard()
	tp.p.children, tp.p.accs = nil, nil
}

// finishPivots computes the pivots whose rows are all written: their
// sheets' cells, table definitions and caches as rewrites of their
// parts, and their records streamed into the package.
func (t *TemplateWriter) finishPivots(rewrite map[string]func([]byte) []byte, rewriteSheets map[string]bool) error {
	bySheet := map[string][]*templatePivot{}
	for _, tp := range t.pivots {
		if tp.failed || rewriteSheets[tp.sheetPart] || tp.source.next != nil || t.styles == nil {
			tp.fail() // its sheet has typed placeholders, its rows rolled over, no styles
			continue
		}
		p := tp.p
		pl := p.plan(tp.top, tp.left)
		tp.cellsXML = map[int]map[int][]byte{}
		row := 0
		err := p.render(pl, func(cells []Cell) error {
			row++
			return t.pivotCells(tp, row, cells)
		})
		if err != nil {
			return err
		}
		table := p.definition(pl)
		rewrite[tp.tablePart] = func([]byte) []byte { return table }
		rewrite[tp.cachePart] = func(x []byte) []byte { return tp.cacheXML(t.growOtherPart(x)) }
		bySheet[tp.sheetPart] = append(bySheet[tp.sheetPart], tp)
		if tp.recordsPart != "" {
			if err := p.writeRecords(t.out, t.pool, tp.recordsPart); err != nil {
				return err
			}
			t.written[tp.recordsPart] = true
		}
	}
	for part, tps := range bySheet {
		rewrite[part] = func(x []byte) []byte {
			for _, tp := range tps {
				x = tp.sheetXML(x)
			}
			return x
		}
	}
	return nil
}

// pivotCells adds a rendered row's cells to tp.cellsXML as the
// template's cell XML, by row and column: text shared or inline as the
// template's, dates in a date format, and a cell's style where the
// designer left one.
func (t *TemplateWriter) pivotCells(tp *templatePivot, row int, cells []Cell) error {
	out := tp.cellsXML
	for i := range cells {
		c := &cells[i]
		if c.kind == kindEmpty {
			continue
		}
		col := tp.left + i
		b := appendCellRef(append([]byte(nil), `<c r="`...), row, col-1)
		b = append(b, '"')
		if c.style == tp.p.styles.date {
			b = appendIntAttr(b, "s", t.styles.dateStyle(0, kindDate))
		} else {
			b = append(b, "\x00"...) // the designer's style goes here
		}
		var err error
		switch c.kind {
		case kindString:
			b, err = t.appendTextCell(b, c.s, true)
		case kindBool:
			b = append(append(append(b, ` t="b"><v>`...), c.boolDigit()), "</v></c>"...)
		case kindError:
			b = append(append(append(b, ` t="e"><v>`...), c.errorCode()...), "</v></c>"...)
		default:
			v := float64(c.i)
			if c.kind == kindFloat {
				v = c.num
			}
			b, err = appendXMLNumber(append(b, "><v>"...), v, false)
			b = append(b, "</v></c>"...)
		}
		if err != nil {
			return &CellError{Sheet: tp.p.def.Name, Row: row, Col: col, Err: err}
		}
		if out[row] == nil {
			out[row] = map[int][]byte{}
		}
		out[row][col] = b
	}
	return nil
}

var (
	sheetDataRe = regexp.MustCompile(`(?s)<sheetData\s*/>|<sheetData\b[^>]*>(.*?)</sheetData>`)
	rowElemRe   = regexp.MustCompile(`(?s)<row\b[^>]*/>|<row\b[^>]*>.*?</row>`)
	cellElemRe  = regexp.MustCompile(`(?s)<c\b[^>]*/>|<c\b[^>]*>.*?</c>`)
	cellStyleAt = regexp.MustCompile(`\ss="(\d+)"`)
)

// sheetXML puts the computed cells on the pivot's sheet: the cells the
// designer's pivot took and the new one takes are replaced, keeping a
// replaced cell's style for the new cell in its place.
func (tp *templatePivot) sheetXML(x []byte) []byte {
	m := sheetDataRe.FindSubmatchIndex(x)
	if m == nil {
		return x
	}
	last := tp.top
	for r := range tp.cellsXML {
		last = max(last, r)
	}
	width := tp.p.labelColumns() + len(tp.p.values)
	for _, cols := range tp.cellsXML {
		for c := range cols {
			width = max(width, c-tp.left+1)
		}
	}
	clear := func(row, col int) bool {
		in := func(r Range) bool {
			return row >= r.FirstRow && row <= r.LastRow && col >= r.FirstCol && col <= r.LastCol
		}
		filters := Range{FirstRow: tp.top - len(tp.p.filters) - 1, FirstCol: tp.left, LastRow: tp.top - 1, LastCol: tp.left + 1}
		return in(tp.old) || in(Range{FirstRow: tp.top, FirstCol: tp.left, LastRow: last, LastCol: tp.left + width - 1}) || len(tp.p.filters) > 0 && in(filters)
	}
	rows := map[int][]byte{} // row -> its opening tag
	cells := map[int]map[int][]byte{}
	var body []byte
	if m[2] >= 0 {
		body = x[m[2]:m[3]]
	}
	prevRow := 0
	for _, r := range rowElemRe.FindAll(body, -1) {
		open := r[:bytes.IndexByte(r, '>')+1]
		n, _ := strconv.Atoi(attrs(string(open))["r"])
		if n == 0 {
			n = prevRow + 1
		}
		prevRow = n
		tag := bytes.TrimSuffix(bytes.TrimSuffix(open, []byte(">")), []byte("/"))
		rows[n] = append(tag, '>')
		cells[n] = map[int][]byte{}
		prevCol := 0
		for _, c := range cellElemRe.FindAll(r[len(open):], -1) {
			col := prevCol + 1
			if _, c, err := ParseCellName(attrs(string(c[:bytes.IndexByte(c, '>')+1]))["r"]); err == nil {
				col = c
			}
			prevCol = col
			cells[n][col] = c
		}
	}
	for r, cols := range cells {
		for c, old := range cols {
			if !clear(r, c) {
				continue
			}
			delete(cols, c)
			if nc, ok := tp.cellsXML[r][c]; ok {
				style := ""
				if s := cellStyleAt.FindSubmatch(old[:bytes.IndexByte(old, '>')+1]); s != nil {
					style = ` s="` + string(s[1]) + `"`
				}
				tp.cellsXML[r][c] = bytes.Replace(nc, []byte("\x00"), []byte(style), 1)
			}
		}
	}
	for r, cols := range tp.cellsXML {
		if rows[r] == nil {
			rows[r] = []byte(`<row r="` + strconv.Itoa(r) + `">`)
			cells[r] = map[int][]byte{}
		}
		for c, nc := range cols {
			cells[r][c] = bytes.Replace(nc, []byte("\x00"), nil, 1)
		}
	}
	nums := make([]int, 0, len(rows))
	for r := range rows {
		nums = append(nums, r)
	}
	slices.Sort(nums)
	out := append([]byte(nil), x[:m[0]]...)
	out = append(out, "<sheetData>"...)
	for _, r := range nums {
		out = append(out, rows[r]...)
		cols := make([]int, 0, len(cells[r]))
		for c := range cells[r] {
			cols = append(cols, c)
		}
		slices.Sort(cols)
		for _, c := range cols {
			out = append(out, cells[r][c]...)
		}
		out = append(out, "</row>"...)
	}
	out = append(out, "</sheetData>"...)
	out = append(out, x[m[1]:]...)
	return dimensionRe.ReplaceAll(out, nil)
}

var cacheSourceRe = regexp.MustCompile(`(?s)<(?:\w+:)?cacheSource\b.*?</(?:\w+:)?cacheSource>|<(?:\w+:)?cacheSource\b[^>]*/>`)

// cacheXML is the computed cache's definition with the designer's source
// (grown over the rows) and relationship to its records.
func (tp *templatePivot) cacheXML(designer []byte) []byte {
	ours := tp.p.cacheDefinition(tp.source.row)
	src := cacheSourceRe.Find(designer)
	if src == nil || bytes.Contains(src, []byte(":worksheetSource")) {
		return designer
	}
	ours = cacheSourceRe.ReplaceAllLiteral(ours, src)
	if tp.recordsID != "" {
		ours = bytes.Replace(ours, []byte(` r:id="rId1"`), []byte(` r:id="`+escapeAttr(tp.recordsID)+`"`), 1)
	}
	return ours
}

func escapeAttr(s string) string { return string(appendAttr(nil, s)) }
