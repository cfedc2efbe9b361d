package xlsx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/xmlscan"
)

// TestReadOwnWriter writes every kind of cell and reads it back.
func TestReadOwnWriter(t *testing.T) {
	for _, date1904 := range []bool{false, true} {
		var buf bytes.Buffer
		w, _ := NewWriter(&buf, Options{Date1904: date1904})
		s, _ := w.AddSheet("Types", SheetOptions{})
		when := time.Date(2024, 2, 29, 13, 45, 30, 250e6, time.UTC)
		s.WriteRow([]Cell{
			String("plain"), String("tab\tcr\r_x0041_ & <tag>"), Int(-42), Float(0.1), Float(1e-9),
			Bool(true), Bool(false), Time(when), Date(when), TimeOfDay(when),
			Duration(36 * time.Hour), Error(ErrorDiv0), Formula("1+1").WithValue(Int(2)),
			Rich([]RichRun{{Text: "bold "}, {Text: "run", Font: Font{Bold: true}}}),
			Link("https://example.com/a?b=1&c=2", "example"),
		})
		s.SkipRows(1000)
		s.WriteRow([]Cell{Blank(), String("after a gap")})
		if err := s.MergeCells(Range{1002, 1, 1002, 3}); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		got, err := readAll(t, buf.Bytes(), ReadOptions{ChunkSize: 100})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			"A1=string:plain", "B1=string:tab\tcr\r_x0041_ & <tag>", "C1=number:-42", "D1=number:0.1", "E1=number:1e-9",
			"F1=bool:TRUE", "G1=bool:FALSE", "H1=date:2024-02-29T13:45:30.250", "I1=date:2024-02-29T00:00:00",
			"J1=date:13:45:30.250", "K1=number:1.5", "L1=error:#DIV/0!", "M1=number:2",
			"N1=string:bold run", "O1=string:example", "B1002=string:after a gap",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("1904=%v:\ngot  %q\nwant %q", date1904, got, want)
		}
		wb, _ := NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), ReadOptions{})
		if wb.Date1904() != date1904 || wb.Sheets()[0].Name != "Types" || !strings.Contains(wb.Application(), "sheetstream") {
			t.Errorf("workbook: 1904 %v, sheets %v, app %q", wb.Date1904(), wb.Sheets(), wb.Application())
		}
		rows, _ := wb.Rows(context.Background(), 0)
		n := 0
		for rows.Next() {
			if f := rows.Row().Cells; rows.Row().Num == 1 && string(f[12].Formula()) != "1+1" {
				t.Errorf("formula %q", f[12].Formula())
			}
			if rows.Row().Num == 1 && !rows.Row().Cells[10].Elapsed() {
				t.Error("a duration's format is not elapsed time")
			}
			n++
		}
		if n != 2 || rows.Err() != nil {
			t.Errorf("%d rows, %v", n, rows.Err())
		}
		if m := rows.MergedCells(); len(m) != 1 || m[0] != (Range{1002, 1, 1002, 3}) {
			t.Errorf("merged %v", m)
		}
		if l := rows.Hyperlinks(); len(l) != 1 || l[0].URL != "https://example.com/a?b=1&c=2" || l[0].Range.FirstCol != 15 {
			t.Errorf("links %+v", l)
		}
		rows.Close()
	}
}

// TestChunking checks that cutting the XML anywhere gives the same rows,
// including rows and cells without r attributes across chunk boundaries.
func TestChunking(t *testing.T) {
	var sd strings.Builder
	for r := 1; r <= 300; r++ {
		if r%3 == 0 {
			fmt.Fprintf(&sd, `<row><c><v>%d</v></c><c t="inlineStr"><is><t>r%d</t></is></c></row>`, r, r)
		} else {
			fmt.Fprintf(&sd, `<x:row r="%d"><x:c r="B%d" t="str"><x:f>A1</x:f><x:v>s&amp;%d</x:v></x:c></x:row>`, r, r, r)
		}
	}
	data := pkg(t, minimal(sd.String(), nil))
	want, err := readAll(t, data, ReadOptions{Workers: 1, ChunkSize: 1 << 20})
	if err != nil || len(want) != 400 {
		t.Fatalf("%d cells, %v", len(want), err)
	}
	if want[0] != "B1=string:s&1" || want[2] != "A3=number:3" || want[3] != "B3=string:r3" {
		t.Errorf("first cells %q", want[:4])
	}
	for _, size := range []int{1, 7, 64, 500} {
		for _, workers := range []int{1, 3} {
			got, err := readAll(t, data, ReadOptions{Workers: workers, ChunkSize: size})
			if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("chunk %d, workers %d: %v, %d cells differ", size, workers, err, len(got))
			}
		}
	}
}

func TestSparseCorner(t *testing.T) {
	data := pkg(t, minimal(`<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>`, map[string]string{
		"xl/worksheets/sheet1.xml": `<worksheet><dimension ref="A1:XFD1048576"/><sheetData><row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData></worksheet>`,
	}))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, err := readAll(t, data, ReadOptions{})
	runtime.ReadMemStats(&after)
	if err != nil || len(got) != 1 || got[0] != "XFD1048576=number:1" {
		t.Fatalf("%q %v", got, err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("one cell at XFD1048576 allocated %d MiB", grew>>20)
	}
}

func TestReadErrors(t *testing.T) {
	big := strings.Repeat("x", 2000)
	cases := []struct {
		name  string
		parts map[string]string
		opts  ReadOptions
		want  error
		where string // part, sheet or cell the message must name
	}{
		{"doctype", minimal(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`, map[string]string{
			"xl/sharedStrings.xml": `<!DOCTYPE x [<!ENTITY a "aaaa">]><sst><si><t>&a;</t></si></sst>`}),
			ReadOptions{}, xmlscan.ErrDoctype, "xl/sharedStrings.xml"},
		{"undefined entity", minimal(`<row r="1"><c r="A1" t="inlineStr"><is><t>&nbsp;</t></is></c></row>`, nil),
			ReadOptions{}, xmlscan.ErrEntity, `sheet "S"`},
		{"too deep", minimal(strings.Repeat("<a>", 200)+strings.Repeat("</a>", 200), nil),
			ReadOptions{}, xmlscan.ErrTooDeep, `sheet "S"`},
		{"string too long", minimal(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`, map[string]string{
			"xl/sharedStrings.xml": `<sst><si><t>` + big + `</t></si></sst>`}),
			ReadOptions{Limits: Limits{MaxStringSize: 1000}}, ErrLimit, "xl/sharedStrings.xml"},
		{"too many strings", minimal(``, map[string]string{
			"xl/sharedStrings.xml": `<sst>` + strings.Repeat(`<si><t>a</t></si>`, 11) + `</sst>`}),
			ReadOptions{Limits: Limits{MaxSharedStrings: 10}}, ErrLimit, "MaxSharedStrings"},
		{"total size", minimal(strings.Repeat(`<row><c><v>1</v></c></row>`, 1000), nil),
			ReadOptions{Limits: Limits{MaxTotalSize: 5000}}, ErrLimit, "MaxTotalSize"},
		{"part size", minimal(``, map[string]string{"xl/styles.xml": `<styleSheet>` + big + `</styleSheet>`}),
			ReadOptions{Limits: Limits{MaxPartSize: 1000}}, ErrLimit, "xl/styles.xml"},
		{"row too big", minimal(`<row r="1">`+strings.Repeat(`<c><v>1</v></c>`, 500)+`</row><row r="2"/>`, nil),
			ReadOptions{ChunkSize: 100, Limits: Limits{MaxRowSize: 1000}}, ErrLimit, `sheet "S"`},
		{"bad number", minimal(`<row r="3"><c r="B3"><v>1x</v></c></row>`, nil), ReadOptions{}, ErrMalformed, "cell B3"},
		{"bad shared index", minimal(`<row r="2"><c r="C2" t="s"><v>7</v></c></row>`, nil), ReadOptions{}, ErrMalformed, "cell C2"},
		{"bad row", minimal(`<row r="2000000"><c><v>1</v></c></row>`, nil), ReadOptions{}, ErrMalformed, `row number "2000000"`},
		{"bad ref", minimal(`<row r="1"><c r="1A"><v>1</v></c></row>`, nil), ReadOptions{}, ErrMalformed, `cell reference "1A"`},
		{"bad type", minimal(`<row r="1"><c r="A1" t="zz"><v>1</v></c></row>`, nil), ReadOptions{}, ErrMalformed, "cell A1"},
		{"truncated", minimal(`<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"`, map[string]string{
			"xl/worksheets/sheet1.xml": `<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"`}),
			ReadOptions{}, ErrMalformed, `sheet "S"`},
		{"no workbook", map[string]string{"a.txt": "x"}, ReadOptions{}, ErrNotXLSX, "xl/workbook.xml"},
		{"missing sheet", minimal(``, map[string]string{"xl/worksheets/sheet1.xml": ""}), ReadOptions{}, ErrMissingPart, "sheet1.xml"},
		{"duplicate", minimal(``, map[string]string{"XL/Worksheets/Sheet1.xml": "<worksheet/>"}), ReadOptions{}, ErrDuplicatePart, "sheet1.xml"},
		// Cells without r count on from the previous one: one past XFD
		// is an error naming the row, never column 16,385.
		{"column past XFD without r", minimal(`<row r="7"><c r="XFC7"><v>1</v></c><c><v>2</v></c><c><v>3</v></c></row>`, nil),
			ReadOptions{}, ErrMalformed, "row 7, column 16385"},
		{"column past XFD without r, fast path off", minimal(`<row r="7"><c r="XFD7"><f>1</f><v>1</v></c><c><f>2</f><v>2</v></c></row>`, nil),
			ReadOptions{}, ErrMalformed, "past the last column"},
		{"row past the last without r", minimal(`<row r="1048576"><c r="A1048576"><v>1</v></c></row><row><c><v>2</v></c></row>`, nil),
			ReadOptions{}, ErrMalformed, "row 1048577"},
		{"style index over 32 bits", minimal(`<row r="1"><c r="A1" s="4294967296"><v>1</v></c></row>`, nil), ReadOptions{}, ErrMalformed, "cell A1"},
		{"shared index over 32 bits", minimal(`<row r="1"><c r="B1" t="s"><v>4294967296</v></c></row>`, nil), ReadOptions{}, ErrMalformed, "cell B1"},
		{"too many merged ranges", minimal(`<row r="1"><c r="A1"><v>1</v></c></row></sheetData><mergeCells>`+strings.Repeat(`<mergeCell ref="A1:B2"/>`, 11)+`</mergeCells><sheetData>`, nil),
			ReadOptions{Limits: Limits{MaxMergedCells: 10}}, ErrLimit, "MaxMergedCells"},
		{"too many hyperlinks", minimal(`<row r="1"><c r="A1"><v>1</v></c></row></sheetData><hyperlinks>`+strings.Repeat(`<hyperlink ref="A1" location="S!A1"/>`, 11)+`</hyperlinks><sheetData>`, nil),
			ReadOptions{Limits: Limits{MaxHyperlinks: 10}}, ErrLimit, "MaxHyperlinks"},
		// .xlsb: BIFF12 records in a zip. Never an empty workbook.
		{"xlsb", map[string]string{
			"[Content_Types].xml": `<Types/>`,
			"_rels/.rels":         `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.bin"/></Relationships>`,
			"xl/workbook.bin":     "\x83\x01\x00", "xl/worksheets/sheet1.bin": "\x81\x01\x00"}, ReadOptions{}, ErrMalformed, "xl/workbook.bin: malformed content: the workbook lists no sheets"},
		{"xlsb without package rels", map[string]string{"[Content_Types].xml": `<Types/>`, "xl/workbook.bin": "\x83\x01\x00"},
			ReadOptions{}, ErrMalformed, "workbook.bin"},
		{"xml workbook over binary sheets", minimal(``, map[string]string{
			"xl/_rels/workbook.xml.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
				`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.bin"/></Relationships>`,
			"xl/worksheets/sheet1.bin": "\x81\x01\x00"}), ReadOptions{}, ErrXLSB, `sheet "S"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readAll(t, pkg(t, c.parts), c.opts)
			var re *ReadError
			if !errors.Is(err, c.want) || !errors.As(err, &re) || !strings.Contains(err.Error(), c.where) {
				t.Errorf("got %v; want %v naming %q", err, c.want, c.where)
			}
		})
	}
}

func TestReadTolerates(t *testing.T) {
	cases := []struct {
		name  string
		parts map[string]string
		want  string
	}{
		{"backslash paths and no package rels", map[string]string{
			"xl\\workbook.xml":             minimal("", nil)["xl/workbook.xml"],
			"xl\\_rels\\workbook.xml.rels": minimal("", nil)["xl/_rels/workbook.xml.rels"],
			"xl\\worksheets\\sheet1.xml":   `<worksheet><sheetData><row r="1"><c r="A1"><v>5</v></c></row></sheetData></worksheet>`,
			"[Content_Types].xml":          "<Types/>",
		}, "A1=number:5"},
		{"UTF-16 with BOM", minimal("", map[string]string{
			"xl/worksheets/sheet1.xml": utf16le(`<?xml version="1.0" encoding="UTF-16"?><worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>é€</t></is></c></row></sheetData></worksheet>`)}),
			"A1=string:é€"},
		{"rich text and phonetic runs", minimal(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`, map[string]string{
			"xl/sharedStrings.xml": `<sst><si><r><t>漢</t></r><r><rPr><b/></rPr><t xml:space="preserve">字_x000D_</t></r><rPh sb="0" eb="1"><t>かん</t></rPh></si></sst>`}),
			"A1=string:漢字\r"},
		{"CDATA and CRLF", minimal(`<row r="1"><c r="A1" t="inlineStr"><is><t><![CDATA[a<b]]>&#x41;&#66;`+"\r\n"+`z</t></is></c></row>`, nil),
			"A1=string:a<bAB\nz"},
		{"t=d and errors", minimal(`<row r="1"><c r="A1" t="d"><v>2024-02-29T12:00:00Z</v></c><c r="B1" t="e"><v>#N/A</v></c><c r="C1" t="b"><v>true</v></c></row>`, nil),
			"A1=date:2024-02-29T12:00:00,B1=error:#N/A,C1=bool:TRUE"},
		{"custom and built-in date formats", minimal(`<row r="1"><c r="A1" s="1"><v>45351.5</v></c><c r="B1" s="2"><v>0.75</v></c><c r="C1" s="3"><v>45351</v></c><c r="D1" s="4"><v>45351</v></c></row>`, map[string]string{
			"xl/styles.xml": `<styleSheet><numFmts><numFmt numFmtId="164" formatCode="[$-409]mmmm d, yyyy;@"/><numFmt numFmtId="165" formatCode="&quot;d&quot;0.00"/></numFmts>` +
				`<cellStyleXfs><xf numFmtId="14"/></cellStyleXfs><cellXfs><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="20"/><xf numFmtId="165"/><xf numFmtId="14"/></cellXfs>` +
				`<dxfs><dxf><numFmt numFmtId="165" formatCode="yyyy"/></dxf></dxfs></styleSheet>`}),
			"A1=date:2024-02-29T12:00:00,B1=date:18:00:00,C1=number:45351,D1=date:2024-02-29T00:00:00"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := readAll(t, pkg(t, c.parts), ReadOptions{})
			if err != nil || strings.Join(got, ",") != c.want {
				t.Errorf("got %q, %v; want %s", got, err, c.want)
			}
		})
	}
}

func utf16le(s string) string {
	b := []byte{0xFF, 0xFE}
	for _, r := range s {
		if r > 0xFFFF {
			panic("BMP only")
		}
		b = append(b, byte(r), byte(r>>8))
	}
	return string(b)
}

func TestNotXLSX(t *testing.T) {
	cfb := append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 600)...)
	enc := append(append([]byte{}, cfb...), encryptionInfo...)
	odt := pkg(t, map[string]string{"mimetype": "application/vnd.oasis.opendocument.text", "content.xml": "<x/>"})
	biff2 := []byte{0x09, 0x00, 0x04, 0x00, 0x02, 0x00, 0x10, 0x00}
	for name, c := range map[string]struct {
		data []byte
		want error
	}{
		"empty": {nil, ErrNotXLSX}, "text": {[]byte("a,b\n1,2\n"), ErrNotXLSX}, "html": {[]byte("<html></html>"), ErrNotXLSX},
		"damaged compound file": {cfb, ErrMalformed}, "encrypted": {enc, ErrEncrypted}, "odt": {odt, ErrODF}, "biff2": {biff2, ErrLegacyXLS},
	} {
		_, err := NewReader(bytes.NewReader(c.data), int64(len(c.data)), ReadOptions{})
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
}

// TestRowsCloseEarly stops reading mid-sheet, by Close and by cancelling
// the context: no goroutine may be left behind.
func TestRowsCloseEarly(t *testing.T) {
	var sd strings.Builder
	for r := 1; r <= 20000; r++ {
		fmt.Fprintf(&sd, `<row r="%d"><c r="A%d"><v>%d</v></c></row>`, r, r, r)
	}
	data := pkg(t, minimal(sd.String(), nil))
	before := runtime.NumGoroutine()
	for _, cancel := range []bool{false, true} {
		wb, _ := NewReader(bytes.NewReader(data), int64(len(data)), ReadOptions{ChunkSize: 256, Workers: 2})
		ctx, stop := context.WithCancel(context.Background())
		rows, err := wb.Rows(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 10 && rows.Next(); i++ {
		}
		if cancel {
			stop()
			for rows.Next() {
			}
			if !errors.Is(rows.Err(), context.Canceled) {
				t.Errorf("after cancel: %v", rows.Err())
			}
		}
		rows.Close()
		stop()
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines left behind", n-before)
	}
}

func TestClassifyFormat(t *testing.T) {
	for code, want := range map[string]fmtClass{
		"General": fmtNumber, "0.00": fmtNumber, "0.00E+00": fmtNumber, `#,##0 "days"`: fmtNumber, `0.0\m`: fmtNumber,
		"[Red]0.00": fmtNumber, "@": fmtNumber, "yyyy-mm-dd": fmtDate, "d-mmm-yy": fmtDate, "[$-409]mmmm d, yyyy;@": fmtDate,
		"mm:ss": fmtTime, "h:mm AM/PM": fmtTime, "hh:mm:ss.000": fmtTime, "[h]:mm:ss": fmtDuration, "[mm]:ss": fmtDuration,
		"yyyy/mm/dd\\ hh:mm:ss;@": fmtDateTime, "mmm": fmtDate, "yyyy-mm-dd hh:mm:ss": fmtDateTime, "m/d/yy h:mm AM/PM": fmtDateTime,
		"[$-409]d-mmm-yy h:mm": fmtDateTime, `"Date: "0`: fmtNumber, "[HH]": fmtDuration,
	} {
		if got := classifyFormat(code); got != want {
			t.Errorf("classifyFormat(%q) = %d, want %d", code, got, want)
		}
	}
}

// TestStyleIndexUnsigned: a style index past int32 (but within the
// unsigned 32 bits the format allows) reads as itself, never negative.
func TestStyleIndexUnsigned(t *testing.T) {
	data := pkg(t, minimal(`<row r="1"><c r="A1" s="2147483648"><v>1</v></c><c r="B1" s="4294967295"><v>2</v></c></row>`, nil))
	wb, err := NewReader(bytes.NewReader(data), int64(len(data)), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := wb.Rows(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	cells := rows.Row().Cells
	if cells[0].Style() != 2147483648 || cells[1].Style() != 4294967295 || cells[0].Type() != TypeNumber {
		t.Errorf("styles %d, %d", cells[0].Style(), cells[1].Style())
	}
}

// TestValueOf: a cell made a Value directly reads as the same cell
// written and read back (type, number, text, time, formula), except that
// a link is its text alone.
func TestValueOf(t *testing.T) {
	when := time.Date(2024, 2, 29, 13, 45, 30, 250e6, time.UTC)
	cells := []Cell{
		String("plain"), Int(-42), Uint(1 << 60), Float(0.1), Float32(0.5), Decimal("1.50"), Float(0.14285714285714285),
		Bool(true), Bool(false), Time(when), Date(when), TimeOfDay(when), Duration(36 * time.Hour),
		Error(ErrorNA), Formula("1+1").WithValue(Int(2)), Formula(`"a"&"b"`).WithValue(String("ab")),
		Rich([]RichRun{{Text: "bold "}, {Text: "run", Font: Font{Bold: true}}}),
	}
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Options{})
	s, _ := w.AddSheet("Values", SheetOptions{})
	if err := s.WriteRow(cells); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	wb, err := NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := wb.Rows(context.Background(), 0)
	defer rows.Close()
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	read := rows.Row().Cells
	for i, c := range cells {
		got, want := ValueOf(i+1, c), read[i]
		if got.Col() != want.Col() || got.Type() != want.Type() || got.Float() != want.Float() || got.String() != want.String() ||
			got.TimeOfDay() != want.TimeOfDay() || got.Elapsed() != want.Elapsed() || !bytes.Equal(got.Formula(), want.Formula()) {
			t.Errorf("%s: ValueOf %v %v %q, read %v %v %q", CellName(1, i+1), got.Type(), got.Float(), got.String(), want.Type(), want.Float(), want.String())
		}
	}
	if v := ValueOf(1, Date(time.Date(1850, 1, 2, 0, 0, 0, 0, time.UTC))); v.Type() != TypeString || v.String() != "1850-01-02T00:00:00" {
		t.Errorf("a date before 1900: %v %q", v.Type(), v.String())
	}
}

// TestCustomXML: custom XML parts come back in order, byte for byte,
// and what is not an XML document is refused.
func TestCustomXML(t *testing.T) {
	parts := [][]byte{[]byte(`<a xmlns="urn:x">1 &amp; 2</a>`), []byte(`<?xml version="1.0"?><b/>`)}
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Options{})
	for _, p := range parts {
		if err := w.AddCustomXML(p); err != nil {
			t.Fatal(err)
		}
	}
	for _, bad := range []string{"", "text", "<a>\x00</a>", "<a>\xff</a>"} {
		if err := w.AddCustomXML([]byte(bad)); !errors.Is(err, ErrCustomXML) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	wb, err := NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := wb.CustomXML()
	if err != nil || len(got) != 2 || !bytes.Equal(got[0], parts[0]) || !bytes.Equal(got[1], parts[1]) {
		t.Errorf("CustomXML: %q, %v", got, err)
	}
	if err := w.AddCustomXML(parts[0]); err == nil {
		t.Error("AddCustomXML after Close")
	}
}

// TestValueBinary: every value read from a sheet comes back from its
// binary form the same; truncated forms are errors.
func TestValueBinary(t *testing.T) {
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Options{})
	s, _ := w.AddSheet("V", SheetOptions{})
	when := time.Date(2024, 2, 29, 13, 45, 30, 0, time.UTC)
	s.WriteRow([]Cell{String("é"), Int(-7), Float(0.1), Bool(true), Time(when), TimeOfDay(when), Duration(time.Hour),
		Error(ErrorNA), Formula("1+1").WithValue(Int(2)), {}, Blank(), String("")})
	w.Close()
	n := 0
	books := [][]byte{buf.Bytes()}
	for _, name := range excelSavedBooks(t) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		books = append(books, data)
	}
	for _, book := range books {
		wb, err := NewReader(bytes.NewReader(book), int64(len(book)), ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range wb.Sheets() {
			rows, _ := wb.Rows(context.Background(), i)
			for rows.Next() {
				for _, v := range rows.Row().Cells {
					b, _ := v.AppendBinary(nil)
					var got Value
					if err := got.UnmarshalBinary(b); err != nil || !reflect.DeepEqual(normalize(got), normalize(v)) {
						t.Fatalf("%s: %+v came back %+v, %v", CellName(rows.Row().Num, v.Col()), v, got, err)
					}
					for cut := range len(b) {
						if got.UnmarshalBinary(b[:cut]) == nil {
							t.Fatalf("%s: %d of %d bytes read as a value", CellName(rows.Row().Num, v.Col()), cut, len(b))
						}
					}
					n++
				}
			}
			rows.Close()
		}
	}
	if n < 200 {
		t.Errorf("only %d values", n)
	}
}

// normalize makes empty text and formulas nil, as the binary form does.
func normalize(v Value) Value {
	v.shared = false // a value's bytes are its own once unmarshalled
	if len(v.text) == 0 {
		v.text = nil
	}
	if len(v.formula) == 0 {
		v.formula = nil
	}
	return v
}

// excelSavedBooks are the Excel-saved workbooks in testdata (the twins' files).
func excelSavedBooks(t *testing.T) []string {
	names, err := filepath.Glob("testdata/excel/*/*.xlsx")
	if err != nil || len(names) == 0 {
		t.Fatal("no workbook in testdata/excel", err)
	}
	return names
}

// TestSharedTextOutlivesRows keeps every string cell's Bytes past Next,
// through many small chunks: only shared strings say they last, and they
// still read the same at the end.
func TestSharedTextOutlivesRows(t *testing.T) {
	const n = 2000
	var sheet, sst strings.Builder
	sst.WriteString(`<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`)
	for i := range n {
		fmt.Fprintf(&sst, "<si><t>shared-%d</t></si>", i)
		fmt.Fprintf(&sheet, `<row r="%d"><c t="s"><v>%d</v></c><c t="inlineStr"><is><t>inline-%d</t></is></c><c t="str"><v>str-%d</v></c></row>`, i+1, i, i, i)
	}
	sst.WriteString(`</sst>`)
	data := pkg(t, minimal(sheet.String(), map[string]string{"xl/sharedStrings.xml": sst.String()}))
	wb, err := NewReader(bytes.NewReader(data), int64(len(data)), ReadOptions{ChunkSize: 512})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := wb.Rows(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var kept [][]byte
	for rows.Next() {
		for i := range rows.Row().Cells {
			c := &rows.Row().Cells[i]
			if c.SharedText() != (c.Col() == 1) {
				t.Fatalf("%s %q: SharedText %v", CellName(rows.Row().Num, c.Col()), c.Bytes(), c.SharedText())
			}
			if c.SharedText() {
				kept = append(kept, c.Bytes())
			}
		}
	}
	if err := rows.Close(); err != nil || rows.Err() != nil {
		t.Fatal(err, rows.Err())
	}
	if len(kept) != n {
		t.Fatalf("%d shared strings read, want %d", len(kept), n)
	}
	for i, b := range kept {
		if want := fmt.Sprintf("shared-%d", i); string(b) != want {
			t.Fatalf("row %d: kept %q, want %q", i+1, b, want)
		}
	}
}

// TestFastRowBreak reads the boundaries between rows the fast path takes,
// and leaves everything else to the scanner.
func TestFastRowBreak(t *testing.T) {
	for _, tc := range []struct {
		xml      string
		consumed bool
		num      int
	}{
		{`</row><row r="5"><c>`, true, 5},
		{"</row>\n  <row r=\"12\" spans=\"1:3\" x14ac:dyDescent=\"0.25\">", true, 12},
		{`</row><row r='7' ht="20" customHeight="1">`, true, 7},
		{`</row><row>`, true, 0},
		{`</row><row spans="1:2">`, true, 0},
		{`</row><row r="1048576">`, true, 1048576},
		{`</row><row r="1048577">`, false, 0},
		{`</row><row r="0">`, false, 0},
		{`</row><row r="x">`, false, 0},
		{`</row><row r="">`, false, 0},
		{`</row><row r="1" r="2">`, false, 0},
		{`</row><row x:r="3">`, false, 0},
		{`</row><row r="3"/>`, false, 0},
		{`</row><row r = "3">`, false, 0},
		{`</row><row r=3>`, false, 0},
		{`</row><row hidden>`, false, 0},
		{`</row><rows r="3">`, false, 0},
		{`</row><x:row r="3">`, false, 0},
		{`</row></sheetData>`, false, 0},
		{`</row ><row r="3">`, false, 0},
		{`</row><row r="7" a="<">`, false, 0},
		{`</row><row r="7"`, false, 0},
		{`</row><row r="7`, false, 0},
		{`</row>`, false, 0},
	} {
		n, num := fastRowBreak([]byte(tc.xml))
		if (n > 0) != tc.consumed || num != tc.num || tc.consumed && tc.xml[n-1] != '>' {
			t.Errorf("%q: consumed %d bytes, row %d; want consumed %v, row %d", tc.xml, n, num, tc.consumed, tc.num)
		}
	}
}

// TestCellAttrSpaces reads cells whose attributes have white space around
// '=', which XML allows: the fast path leaves them to the scanner, which
// reads the reference (it once took "r\t" for an unknown attribute).
func TestCellAttrSpaces(t *testing.T) {
	data := pkg(t, minimal("<row r=\"1\"><c r\t=\"C1\"><v>1</v></c><c r = 'E1' t =\"b\"><v>1</v></c></row>", nil))
	got, err := readAll(t, data, ReadOptions{})
	if want := []string{"C1=number:1", "E1=bool:TRUE"}; err != nil || !slices.Equal(got, want) {
		t.Fatalf("got %q, %v; want %q", got, err, want)
	}
}

// TestNumberFormat: a cell's number format code as the file has it: a
// custom code, a built-in one's en-US code, "" for General.
func TestNumberFormat(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pct, _ := w.AddStyle(Style{NumFmt: "0.00%"})
	day, _ := w.AddStyle(Style{NumFmt: "dd/mm/yyyy"})
	sh, _ := w.AddSheet("S", SheetOptions{})
	sh.WriteRow([]Cell{Float(0.25).WithStyle(pct), Float(45000).WithStyle(day), Float(3), Date(time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC))})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	wb, err := NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := wb.Rows(context.Background(), 0)
	var got []string
	for rows.Next() {
		for _, c := range rows.Row().Cells {
			got = append(got, wb.NumberFormat(c.Style()))
		}
	}
	if len(got) != 4 || fmt.Sprintf("%q", got[:3]) != `["0.00%" "dd/mm/yyyy" ""]` || !strings.Contains(got[3], "yyyy") {
		t.Errorf("codes %q", got)
	}
	if st, _ := wb.loadStyles(); builtinCodes[14] != "mm-dd-yy" || st == nil {
		t.Errorf("built-in 14: %q", builtinCodes[14])
	}
}
