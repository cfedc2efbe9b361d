package xlsx

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/testenv"
)

// Pivot tables' twins: the corpus's pivot tables that Excel saved, each
// rebuilt with AddPivotTable from its source's cells (read from the same
// workbook) and compared part by part with Excel's: the rendered cells
// over the location, the rows and columns the table definition lists,
// each field's items in Excel's order, and the cache's fields, shared
// items and records. A pivot the API cannot express (grouped or
// calculated fields, hidden items...) or whose cache Excel saved stale
// (its records are not the source's rows) is named with the reason.

// pivotTwinFiles are the corpus's workbooks with pivot tables Excel saved.
var pivotTwinFiles = []string{
	"ClosedXML/TryToLoad/PivotTableWithTableSource.xlsx",
	"ClosedXML/TryToLoad/PivotTableWithBorder.xlsx",
	"ClosedXML/TryToLoad/LoadPivotTables.xlsx",
	"ClosedXML/TryToLoad/PivotTableWithMissingReference.xlsx",
	"ClosedXML/TryToLoad/TemplateWithTableSourcePivotTables.xlsx",
	"poi/spreadsheet/ExcelPivotTableSample.xlsx",
	"poi/spreadsheet/WithChartSheet.xlsx",
	"poi/spreadsheet/54436.xlsx",
	"poi/spreadsheet/DataTableCities.xlsx",
	"sheetjs_test_files/formula_stress_test.xlsx",
	"sheetjs_test_files/pivot_table_named_range.xlsx",
	"calamine/pivots.xlsx",
	"umya-spreadsheet/aaa.xlsx",
	"umya-spreadsheet/issue_298.xlsx",
}

// twinBook is a workbook's parts by name.
type twinBook map[string][]byte

func readTwinBook(t *testing.T, data []byte) twinBook {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := twinBook{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name], _ = io.ReadAll(rc)
		rc.Close()
	}
	return out
}

var twinRelRe = regexp.MustCompile(`<Relationship\b[^>]*>`)

// rels are a part's relationship targets by id, resolved.
func (b twinBook) rels(part string) map[string]string {
	out := map[string]string{}
	for _, r := range twinRelRe.FindAll(b[path.Join(path.Dir(part), "_rels", path.Base(part)+".rels")], -1) {
		a := attrs(string(r))
		target := a["Target"]
		if strings.HasPrefix(target, "/") {
			target = target[1:]
		} else {
			target = path.Join(path.Dir(part), target)
		}
		out[a["Id"]] = target
	}
	return out
}

// sheetParts are the workbook's sheet names by part.
func (b twinBook) sheetNames() map[string]string {
	rels := b.rels("xl/workbook.xml")
	out := map[string]string{}
	for _, m := range regexp.MustCompile(`<sheet\b[^>]*>`).FindAll(b["xl/workbook.xml"], -1) {
		a := attrs(string(m))
		out[rels[a["r:id"]]] = a["name"]
	}
	return out
}

// tableSource finds an Excel table by name: its sheet and range.
func (b twinBook) tableSource(name string) (sheet, ref string) {
	names := b.sheetNames()
	for part := range names {
		for _, target := range b.rels(part) {
			if !strings.Contains(target, "tables/table") {
				continue
			}
			root := regexp.MustCompile(`<table\b[^>]*>`).Find(b[target])
			a := attrs(string(root))
			if strings.EqualFold(a["name"], name) || strings.EqualFold(a["displayName"], name) {
				return names[part], a["ref"]
			}
		}
	}
	return "", ""
}

// twinSource reads a range of a sheet as cells, its header first; the
// cells of the last row keep trailing blanks out.
func twinSource(t *testing.T, data []byte, sheet string, r Range) ([][]Cell, error) {
	wb, err := NewReader(bytes.NewReader(data), int64(len(data)), ReadOptions{})
	if err != nil {
		return nil, err
	}
	defer wb.Close()
	idx := -1
	for _, s := range wb.Sheets() {
		if strings.EqualFold(s.Name, sheet) {
			idx = s.Index
		}
	}
	if idx < 0 {
		return nil, fmt.Errorf("no sheet %q", sheet)
	}
	rows, err := wb.Rows(context.Background(), idx)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([][]Cell, r.LastRow-r.FirstRow+1)
	for i := range out {
		out[i] = make([]Cell, r.LastCol-r.FirstCol+1)
	}
	for rows.Next() {
		row := rows.Row()
		if row.Num < r.FirstRow || row.Num > r.LastRow {
			continue
		}
		for i := range row.Cells {
			v := &row.Cells[i]
			if v.Col() < r.FirstCol || v.Col() > r.LastCol {
				continue
			}
			c := &out[row.Num-r.FirstRow][v.Col()-r.FirstCol]
			switch v.Type() {
			case TypeNumber:
				*c = Float(v.Float())
			case TypeDate:
				*c = Time(v.PreciseTime())
			case TypeString:
				*c = String(v.String())
			case TypeBool:
				*c = Bool(v.Bool())
			case TypeError:
				*c = Error(ErrorCode(v.String()))
			}
		}
	}
	return out, rows.Err()
}

// twinCells reads a sheet's cells within a range, by position from its
// first cell ("0,1": the location's first row, second column).
func twinCells(t *testing.T, data []byte, sheet string, r Range) map[string]string {
	wb, err := NewReader(bytes.NewReader(data), int64(len(data)), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer wb.Close()
	out := map[string]string{}
	for _, s := range wb.Sheets() {
		if s.Name != sheet {
			continue
		}
		rows, _ := wb.Rows(context.Background(), s.Index)
		for rows.Next() {
			row := rows.Row()
			for i := range row.Cells {
				v := &row.Cells[i]
				if row.Num >= r.FirstRow && row.Num <= r.LastRow && v.Col() >= r.FirstCol && v.Col() <= r.LastCol && v.Type() != TypeEmpty {
					text := v.String()
					if v.Type() == TypeNumber || v.Type() == TypeDate {
						text = strconv.FormatFloat(v.Float(), 'g', -1, 64)
					}
					out[fmt.Sprint(row.Num-r.FirstRow, ",", v.Col()-r.FirstCol)] = text
				}
			}
		}
		rows.Close()
	}
	return out
}

var (
	twinRowItemsRe = regexp.MustCompile(`(?s)<rowItems\b.*?</rowItems>`)
	twinColItemsRe = regexp.MustCompile(`(?s)<colItems\b.*?</colItems>|<colItems\b[^>]*/>`)
	twinItemsRe    = regexp.MustCompile(`(?s)<pivotField\b[^>]*?(?:/>|>.*?</pivotField>)`)
	twinFieldRe    = regexp.MustCompile(`(?s)<cacheField\b[^>]*?(?:/>|>.*?</cacheField>)`)
	twinSharedRe   = regexp.MustCompile(`<sharedItems\b[^>]*>`)
	twinRecordsRe  = regexp.MustCompile(`(?s)<r>.*?</r>`)
	twinXItemRe    = regexp.MustCompile(`<item\b[^>]*>`)
)

// TestPivotExcelTwins rebuilds each Excel-saved pivot of the corpus and
// compares it with Excel's, part by part.
func TestPivotExcelTwins(t *testing.T) {
	corpus := testenv.Corpus(t)
	compared := 0
	for _, file := range pivotTwinFiles {
		data, err := os.ReadFile(filepath.Join(corpus, file))
		if err != nil {
			t.Fatal(err)
		}
		book := readTwinBook(t, data)
		names := book.sheetNames()
		for part, sheet := range names {
			for _, target := range book.rels(part) {
				if !strings.HasPrefix(target, "xl/pivotTables/") {
					continue
				}
				label := file + " " + target
				why := pivotTwin(t, data, book, sheet, target)
				if why != "" {
					t.Logf("%s: not compared: %s", label, why)
					continue
				}
				compared++
			}
		}
	}
	t.Logf("%d pivot tables compared with Excel's", compared)
	if compared < 5 {
		t.Errorf("only %d of the corpus's pivot tables compared", compared)
	}
}

// pivotTwin compares one Excel pivot table with its rebuild, failing the
// test on a difference; it returns why it cannot be compared, if so.
func pivotTwin(t *testing.T, data []byte, book twinBook, sheet, tablePart string) string {
	tx := book[tablePart]
	var d designerTable
	if err := xml.Unmarshal(tx, &d); err != nil {
		return err.Error()
	}
	var cachePart string
	for _, target := range book.rels(tablePart) {
		if strings.Contains(target, "pivotCacheDefinition") {
			cachePart = target
		}
	}
	cx := book[cachePart]
	var cache designerCache
	if err := xml.Unmarshal(cx, &cache); err != nil {
		return "cache: " + err.Error()
	}
	def, why := d.pivotTable(&cache)
	if why != "" {
		return why
	}
	ws := cache.Source.WS
	srcSheet, ref := ws.Sheet, ws.Ref
	if ws.Name != "" {
		srcSheet, ref = book.tableSource(ws.Name)
	}
	r, err := ParseRange(ref)
	if err != nil || srcSheet == "" {
		return "its source is no range of this workbook: " + ws.Name + ws.Ref
	}
	rows, err := twinSource(t, data, srcSheet, r)
	if err != nil {
		return err.Error()
	}
	recordsPart := book.rels(cachePart)[cache.RecordsID]
	excelRecords := twinRecordsRe.FindAll(book[recordsPart], -1)
	if cache.RecordsID != "" && len(excelRecords) != len(rows)-1 {
		return fmt.Sprintf("Excel's cache is stale: %d records for %d rows", len(excelRecords), len(rows)-1)
	}
	if why := twinHistory(tx, cx); why != "" {
		return why
	}
	// The rebuild: the source's cells at A1, the pivot as Excel's.
	def.Sheet, def.Source, def.Records = "P", "S", cache.RecordsID != ""
	var out bytes.Buffer
	w, _ := NewWriter(&out, Options{})
	if err := w.AddPivotTable(def); err != nil {
		return err.Error()
	}
	s, _ := w.AddSheet("S", SheetOptions{})
	for _, row := range rows {
		if err := s.WriteRow(row); err != nil {
			return err.Error()
		}
	}
	if err := w.Close(); err != nil {
		return err.Error()
	}
	ours := readTwinBook(t, out.Bytes())
	label := sheet + " " + tablePart
	compareTwinTable(t, label, tx, ours["xl/pivotTables/pivotTable1.xml"])
	compareTwinCache(t, label, cx, ours["xl/pivotCache/pivotCacheDefinition1.xml"])
	if cache.RecordsID != "" {
		mine := twinRecordsRe.FindAll(ours["xl/pivotCache/pivotCacheRecords1.xml"], -1)
		for i := range min(len(mine), len(excelRecords)) {
			if twinNumbers(mine[i]) != twinNumbers(excelRecords[i]) {
				t.Errorf("%s: record %d: ours %s, Excel's %s", label, i+1, mine[i], excelRecords[i])
				break
			}
		}
	}
	// The cells over the location, Excel's and ours.
	loc, _ := ParseRange(d.Loc.Ref)
	var ourDef designerTable
	xml.Unmarshal(ours["xl/pivotTables/pivotTable1.xml"], &ourDef)
	ourLoc, _ := ParseRange(ourDef.Loc.Ref)
	theirs, mine := twinCells(t, data, sheet, loc), twinCells(t, out.Bytes(), "P", ourLoc)
	for k, v := range theirs {
		if !twinSame(mine[k], v) {
			t.Errorf("%s: cell %s of the location: ours %q, Excel's %q", label, k, mine[k], v)
		}
	}
	for k, v := range mine {
		if _, ok := theirs[k]; !ok && v != "" {
			t.Errorf("%s: cell %s of the location: ours %q, Excel's empty", label, k, v)
		}
	}
	return ""
}

// twinHistory tells what a pivot keeps of its past that a new one would
// not have: shared items of a field on no axis (it was on one once), or
// an axis field's items in an order of the user's (dragged), neither
// ascending nor by Excel's day and month lists, checked here on their
// own terms.
func twinHistory(table, cache []byte) string {
	var d designerTable
	xml.Unmarshal(table, &d)
	fields := twinFieldRe.FindAll(cache, -1)
	itemRe := regexp.MustCompile(`<([snbdem])\b([^>]*?)/?>`)
	for i, f := range fields {
		items := itemRe.FindAllSubmatch(regexp.MustCompile(`(?s)<sharedItems\b[^>]*>(.*)</sharedItems>`).Find(f), -1)
		onAxis := i < len(d.Fields) && len(d.Fields[i].Items) > 0
		if len(items) > 0 && !onAxis {
			return fmt.Sprintf("Excel's cache keeps the items of field %d, on no axis now", i)
		}
		if !onAxis {
			continue
		}
		var order []int
		for _, it := range d.Fields[i].Items {
			if it.Gone {
				return fmt.Sprintf("field %d keeps items no longer in the source", i)
			}
			if it.Type == "" {
				order = append(order, it.X)
			}
		}
		key := func(x int) (int, float64, string) {
			kind, v := string(items[x][1]), attrs(string(items[x][0]))["v"]
			switch kind {
			case "n":
				f, _ := strconv.ParseFloat(v, 64)
				return 0, f, ""
			case "d":
				return 0, 0, v
			case "s":
				for l, list := range []string{"sun mon tue wed thu fri sat", "jan feb mar apr may jun jul aug sep oct nov dec"} {
					if k := slices.Index(strings.Fields(list), strings.ToLower(v)); k >= 0 {
						return 1, float64(l*100 + k), ""
					}
				}
				return 2, 0, strings.ToLower(v)
			case "b":
				return 3, 0, v
			case "e":
				return 4, 0, v
			}
			return 5, 0, ""
		}
		for k := 1; k < len(order); k++ {
			if order[k-1] >= len(items) || order[k] >= len(items) {
				return "items beyond the cache's"
			}
			r1, f1, t1 := key(order[k-1])
			r2, f2, t2 := key(order[k])
			if r1 > r2 || r1 == r2 && (f1 > f2 || f1 == f2 && t1 > t2) {
				return fmt.Sprintf("field %d's items are in an order of the user's", i)
			}
		}
	}
	return ""
}

var twinNumberRe = regexp.MustCompile(`<n v="([^"]*)"/>`)

// twinNumbers is a record with its numbers in one notation: Excel writes
// some with 17 digits where 15 read back the same ("3.1019999999999999"
// for 3.102), as it wrote them in the cells.
func twinNumbers(rec []byte) string {
	return string(twinNumberRe.ReplaceAllFunc(rec, func(m []byte) []byte {
		f, err := strconv.ParseFloat(string(twinNumberRe.FindSubmatch(m)[1]), 64)
		if err != nil {
			return m
		}
		return []byte(`<n v="` + strconv.FormatFloat(f, 'g', -1, 64) + `"/>`)
	}))
}

// twinSame compares two cells' texts, numbers to 1e-9 relative.
func twinSame(a, b string) bool {
	x, errA := strconv.ParseFloat(a, 64)
	y, errB := strconv.ParseFloat(b, 64)
	if errA == nil && errB == nil {
		return math.Abs(x-y) <= 1e-9*max(1, math.Abs(y))
	}
	return a == b
}

// compareTwinTable compares the table definitions' location size, row
// and column items, and each field's items in order.
func compareTwinTable(t *testing.T, label string, excel, ours []byte) {
	norm := func(b []byte) string { return regexp.MustCompile(`\s+/>`).ReplaceAllString(string(b), "/>") }
	if e, o := norm(twinRowItemsRe.Find(excel)), norm(twinRowItemsRe.Find(ours)); e != o {
		t.Errorf("%s: rowItems\nours   %.600s\nExcel's %.600s", label, o, e)
	}
	if e, o := norm(twinColItemsRe.Find(excel)), norm(twinColItemsRe.Find(ours)); e != o {
		t.Errorf("%s: colItems\nours   %.600s\nExcel's %.600s", label, o, e)
	}
	ef, of := twinItemsRe.FindAll(excel, -1), twinItemsRe.FindAll(ours, -1)
	if len(ef) != len(of) {
		t.Errorf("%s: %d pivot fields, Excel %d", label, len(of), len(ef))
		return
	}
	for i := range ef {
		e, o := twinXItemRe.FindAll(ef[i], -1), twinXItemRe.FindAll(of[i], -1)
		if fmt.Sprintf("%s", e) != fmt.Sprintf("%s", o) {
			t.Errorf("%s: field %d's items\nours   %s\nExcel's %s", label, i, o, e)
		}
	}
	var ed, od designerTable
	xml.Unmarshal(excel, &ed)
	xml.Unmarshal(ours, &od)
	er, _ := ParseRange(ed.Loc.Ref)
	or, _ := ParseRange(od.Loc.Ref)
	if er.LastRow-er.FirstRow != or.LastRow-or.FirstRow || er.LastCol-er.FirstCol != or.LastCol-or.FirstCol {
		t.Errorf("%s: location %s, Excel's %s", label, od.Loc.Ref, ed.Loc.Ref)
	}
}

// compareTwinCache compares the caches' fields: names, the kinds their
// shared items declare, and an axis field's items in order.
func compareTwinCache(t *testing.T, label string, excel, ours []byte) {
	ef, of := twinFieldRe.FindAll(excel, -1), twinFieldRe.FindAll(ours, -1)
	if len(ef) != len(of) {
		t.Errorf("%s: %d cache fields, Excel's %d", label, len(of), len(ef))
		return
	}
	for i := range ef {
		ea, oa := attrs(string(twinSharedRe.Find(ef[i]))), attrs(string(twinSharedRe.Find(of[i])))
		for _, k := range []string{"containsSemiMixedTypes", "containsNonDate", "containsDate", "containsString", "containsBlank", "containsMixedTypes", "containsNumber", "containsInteger", "minValue", "maxValue", "minDate", "maxDate", "longText", "count"} {
			if (k == "minDate" || k == "maxDate") && ea["maxDate"] < ea["minDate"] {
				// Excel's range of a field of dates among other kinds
				// (calamine's "Misc") ends before it starts: no rule.
				continue
			}
			if !twinSame(ea[k], oa[k]) {
				t.Errorf("%s: cache field %d (%s) %s=%q, Excel's %q", label, i, attrs(string(ef[i][:bytes.IndexByte(ef[i], '>')+1]))["name"], k, oa[k], ea[k])
			}
		}
		items := regexp.MustCompile(`<sharedItems\b[^>]*?(?:/>|>(.*?)</sharedItems>)`)
		e, o := items.FindSubmatch(ef[i]), items.FindSubmatch(of[i])
		if e != nil && o != nil && len(e[1]) > 0 && !bytes.Equal(e[1], o[1]) {
			t.Errorf("%s: cache field %d's items\nours   %.400s\nExcel's %.400s", label, i, o[1], e[1])
		}
	}
}
