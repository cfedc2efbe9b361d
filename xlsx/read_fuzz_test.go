package xlsx

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sheetstream/sheetstream/internal/xmlscan"
)

// readEverything reads all sheets and returns the cells as text, or the
// first error. It must never panic, whatever the input.
func readEverything(data []byte, opts ReadOptions) (string, error) {
	wb, err := NewReader(bytes.NewReader(data), int64(len(data)), opts)
	if err != nil {
		return "", err
	}
	var out strings.Builder
	for _, s := range wb.Sheets() {
		rows, err := wb.Rows(context.Background(), s.Index)
		if err != nil {
			return out.String(), err
		}
		for rows.Next() {
			r := rows.Row()
			for i := range r.Cells {
				c := &r.Cells[i]
				out.WriteString(CellName(r.Num, c.Col()) + "=" + c.Type().String() + ":" + c.String() + string(c.Formula()) + "\n")
				c.Time()
			}
		}
		rows.MergedCells()
		rows.Hyperlinks()
		rows.Close()
		if err := rows.Err(); err != nil {
			return out.String(), err
		}
	}
	return out.String(), nil
}

// FuzzSheetXML reads arbitrary worksheet XML. Cut into tiny chunks and
// parsed by several workers, it must give what one chunk gives.
func FuzzSheetXML(f *testing.F) {
	for _, s := range []string{
		`<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c><c r="B1" t="s"><v>0</v></c></row></sheetData></worksheet>`,
		`<x:worksheet><x:sheetData><x:row><x:c t="inlineStr"><x:is><x:r><x:t>a</x:t></x:r><x:rPh><x:t>b</x:t></x:rPh></x:is></x:c></x:row></x:sheetData><x:mergeCells><x:mergeCell ref="A1:B2"/></x:mergeCells></x:worksheet>`,
		`<worksheet><dimension ref="A1"/><sheetData><row r="2"><c r="C2" s="1" t="d"><v>2020-01-01</v></c><c t="str"><f>A1</f><v>&amp;&#65;</v></c><c t="e"><v>#N/A</v></c></row><row/></sheetData><hyperlinks><hyperlink ref="A1" r:id="rId1"/></hyperlinks></worksheet>`,
		`<worksheet><sheetData><row r="1"><c r="A1" t="b"><v>1</v></c><c r="B1"><f t="shared" si="0"/><v>1e308</v></c></row></sheetData></worksheet>`,
		// Row boundaries, which whole chunks read on a fast path.
		"<worksheet><sheetData><row r=\"1\" spans=\"1:2\"><c><v>1</v></c></row>\n <row r='3' x14ac:dyDescent=\"0.25\"><c><v>2</v></c></row><row><c><v>3</v></c></row>" +
			`<row x:r="7"><c><v>4</v></c></row><row r="8" r="9"><c><v>5</v></c></row><row r="10" a="<"><c><v>6</v></c></row><row r="11"/></sheetData></worksheet>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, sheet []byte) {
		data := pkg(t, minimal("", map[string]string{
			"xl/worksheets/sheet1.xml":            string(sheet),
			"xl/sharedStrings.xml":                `<sst><si><t>s0</t></si></sst>`,
			"xl/styles.xml":                       `<styleSheet><cellXfs><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>`,
			"xl/worksheets/_rels/sheet1.xml.rels": `<Relationships><Relationship Id="rId1" Type="x/hyperlink" Target="http://a" TargetMode="External"/></Relationships>`,
		}))
		whole, errWhole := readEverything(data, ReadOptions{Workers: 1, ChunkSize: 1 << 20})
		cut, errCut := readEverything(data, ReadOptions{Workers: 3, ChunkSize: 3})
		if (errWhole == nil) != (errCut == nil) || (errWhole == nil && whole != cut) {
			// Cutting before a <row> inside a comment or CDATA may differ;
			// anything else is a bug.
			if !bytes.Contains(sheet, []byte("<!")) {
				t.Errorf("whole: %q %v\ncut: %q %v", whole, errWhole, cut, errCut)
			}
		}
	})
}

// FuzzPackage reads arbitrary bytes as a package.
func FuzzPackage(f *testing.F) {
	f.Add(pkg(f, minimal(`<row r="1"><c r="A1"><v>1</v></c></row>`, nil)))
	f.Add(pkg(f, minimal(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`, map[string]string{
		"xl/sharedStrings.xml": `<sst><si><r><t>a</t></r></si></sst>`,
		"xl/styles.xml":        `<styleSheet><numFmts><numFmt numFmtId="164" formatCode="yyyy"/></numFmts><cellXfs><xf numFmtId="164"/></cellXfs></styleSheet>`,
		"docProps/app.xml":     `<Properties><Application>X</Application></Properties>`,
	})))
	f.Add([]byte("PK\x05\x06" + strings.Repeat("\x00", 18)))
	f.Fuzz(func(t *testing.T, data []byte) {
		readEverything(data, ReadOptions{Limits: Limits{MaxTotalSize: 16 << 20}})
	})
}

// FuzzSharedStrings reads arbitrary shared strings parts.
func FuzzSharedStrings(f *testing.F) {
	f.Add([]byte(`<sst count="2" uniqueCount="2"><si><t>a_x000D_b</t></si><si><r><t>c</t></r><rPh><t>d</t></rPh></si></sst>`))
	f.Add([]byte(`<sst><sstItem><t>old</t></sstItem><si/><si><t xml:space="preserve"> _xD83D__xDE00_ </t></si></sst>`))
	f.Fuzz(func(t *testing.T, sst []byte) {
		var table sstTable
		table.offs = []uint32{0}
		if err := table.read(bytes.NewReader(sst), Limits{}.withDefaults()); err != nil {
			return
		}
		for i := range table.len() {
			if _, ok := table.get(i); !ok {
				t.Fatalf("string %d of %d missing", i, table.len())
			}
		}
	})
}

// FuzzStyles reads arbitrary styles parts and number formats.
func FuzzStyles(f *testing.F) {
	f.Add([]byte(`<styleSheet><numFmts><numFmt numFmtId="164" formatCode="[$-409]h:mm AM/PM;@"/></numFmts><cellXfs><xf numFmtId="164"/><xf/></cellXfs></styleSheet>`), "yyyy-mm-dd")
	f.Add([]byte(`<styleSheet><cellXfs><xf numFmtId="99999999999"/></cellXfs></styleSheet>`), `[h]:mm:ss;"x"\m[`)
	f.Fuzz(func(t *testing.T, styles []byte, code string) {
		classifyFormat(code)
		var sc xmlscan.Scanner
		sc.Reset(styles)
		st, err := parseStyles(&sc)
		if err == nil {
			for i := -1; i <= len(st.classes); i++ {
				st.class(i)
			}
		}
	})
}

// FuzzTextRoundTrip writes text with the writer and reads it back: what
// the writer accepts must come back unchanged, shared and inline.
func FuzzTextRoundTrip(f *testing.F) {
	for _, s := range []string{"plain", "_x0041_", "a\r\nb\t", "\x01_x005F_", " lead", "é€😀", "<&>\"'", "_x0000\x1d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		for _, mode := range []StringMode{StringsShared, StringsInline} {
			var buf bytes.Buffer
			w, _ := NewWriter(&buf, Options{Strings: mode})
			sh, _ := w.AddSheet("S", SheetOptions{})
			if err := sh.WriteRow([]Cell{String(s)}); err != nil {
				return // text the writer refuses, with a reason
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			got, err := readEverything(buf.Bytes(), ReadOptions{})
			want := "A1=string:" + s + "\n"
			if err != nil || got != want {
				t.Errorf("mode %d: %q read back as %q, %v", mode, s, got, err)
			}
		}
	})
}

// FuzzValueBinary: any bytes either fail to read as a value or read as
// one whose binary form reads back the same.
func FuzzValueBinary(f *testing.F) {
	for _, v := range []Value{{col: 1, typ: TypeNumber, num: 1.5}, {col: 3, typ: TypeString, text: []byte("x")},
		{col: 16384, typ: TypeDate, class: fmtTime, date1904: true, num: 0.5, formula: []byte("NOW()")},
		{col: 48, typ: TypeNumber, num: math.NaN()},
		{col: 2, typ: TypeDate, class: fmtDate, num: 45306, text: []byte("2024-01-15"), typed: true},
		{col: 4, typ: TypeDate, class: fmtDateTime, num: 45306.5}, {col: 5, typ: TypeDate, class: fmtDateTime, num: 45306.5, text: []byte("x"), typed: true}} {
		b, _ := v.AppendBinary(nil)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v Value
		if v.UnmarshalBinary(data) != nil {
			return
		}
		b, _ := v.AppendBinary(nil)
		var again Value
		err := again.UnmarshalBinary(b)
		b2, _ := again.AppendBinary(nil)
		if err != nil || !bytes.Equal(b, b2) {
			t.Fatalf("%+v came back %+v, %v", v, again, err)
		}
	})
}
