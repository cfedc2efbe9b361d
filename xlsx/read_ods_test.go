package xlsx

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// odsParts is an .ods package around the tables of content.xml's body.
func odsParts(tables string) map[string]string {
	return map[string]string{
		"mimetype":              "application/vnd.oasis.opendocument.spreadsheet",
		"META-INF/manifest.xml": `<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>`,
		"content.xml": `<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ` +
			`xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ` +
			`xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0">` +
			`<office:automatic-styles><style:style style:name="ta1" style:family="table"><style:table-properties table:display="true"/></style:style>` +
			`<style:style style:name="ta2" style:family="table"><style:table-properties table:display="false"/></style:style></office:automatic-styles>` +
			`<office:body><office:spreadsheet>` + tables + `</office:spreadsheet></office:body></office:document-content>`,
	}
}

const odsTables = `<table:table table:name="Data &amp; more" table:style-name="ta1">` +
	`<table:table-column table:number-columns-repeated="3"/>` +
	`<table:table-row><table:table-cell office:value-type="float" office:value="1.5"><text:p>1.5</text:p></table:table-cell>` +
	`<table:table-cell office:value-type="percentage" office:value="0.25"/><table:table-cell table:number-columns-repeated="2"/>` +
	`<table:table-cell office:value-type="string"><text:p>two  <text:s text:c="2"/>spaces</text:p><text:p>and <text:span>a</text:span> line</text:p>` +
	`<office:annotation><text:p>a note</text:p></office:annotation></table:table-cell>` +
	`<table:table-cell office:value-type="date" office:date-value="2024-02-29"/><table:table-cell office:value-type="date" office:date-value="2024-02-29T13:45:00"/>` +
	`<table:table-cell office:value-type="time" office:time-value="PT25H30M00S"/><table:table-cell office:value-type="time" office:time-value="PT06H30M00S"/><table:table-cell office:value-type="boolean" office:boolean-value="true"/>` +
	`<table:table-cell table:formula="of:=1/0" office:value-type="float" office:value="0" calcext:value-type="error"><text:p>#DIV/0!</text:p></table:table-cell>` +
	`<table:table-cell table:formula="of:=BESSELI(-1;-1)" office:value-type="float" office:value="0"><text:p>#NUM!</text:p></table:table-cell>` +
	`<table:table-cell table:number-columns-repeated="16368"/></table:table-row>` +
	`<table:table-row table:number-rows-repeated="3"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>` +
	`<table:table-row table:number-rows-repeated="3"><table:table-cell office:value-type="string" office:string-value="rep" table:number-columns-repeated="2"/></table:table-row>` +
	`<table:table-header-rows><table:table-row><table:table-cell table:number-columns-spanned="2" table:number-rows-spanned="2" office:value-type="string">` +
	`<text:p><text:a xlink:href="https://example.com/">link</text:a></text:p></table:table-cell><table:covered-table-cell/>` +
	`<table:table-cell office:value-type="date" office:date-value="1850-01-01"/></table:table-row></table:table-header-rows>` +
	`<table:table-row table:number-rows-repeated="1048560"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>` +
	`</table:table>` +
	`<table:table table:name="Hidden" table:style-name="ta2"><table:table-row><table:table-cell office:value-type="float" office:value="7"/></table:table-row></table:table>`

func TestReadODS(t *testing.T) {
	data := pkg(t, odsParts(odsTables))
	wb, err := NewReader(bytes.NewReader(data), int64(len(data)), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if wb.Format() != FormatODS {
		t.Errorf("format %v", wb.Format())
	}
	want := []SheetInfo{{Index: 0, Name: "Data & more", Part: "content.xml"}, {Index: 1, Name: "Hidden", State: SheetHidden, Part: "content.xml"}}
	if got := wb.Sheets(); !slices.Equal(got, want) {
		t.Errorf("sheets %+v, want %+v", got, want)
	}
	got, err := readAll(t, data, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantCells := []string{"A1=number:1.5", "B1=number:0.25", "E1=string:two   spaces\nand a line", "F1=date:2024-02-29T00:00:00",
		"G1=date:2024-02-29T13:45:00", "H1=number:1.0625", "I1=date:06:30:00", "J1=bool:TRUE", "K1=error:#DIV/0!", "L1=error:#NUM!",
		"A5=string:rep", "B5=string:rep", "A6=string:rep", "B6=string:rep", "A7=string:rep", "B7=string:rep",
		"A8=string:link", "C8=string:1850-01-01"}
	if !slices.Equal(got, wantCells) {
		t.Errorf("cells\n got %q\nwant %q", got, wantCells)
	}
	rows, err := wb.Rows(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		if c := rows.Row().Cells[0]; rows.Row().Num == 1 && c.Type() == TypeNumber && c.Col() == 8 && !c.Elapsed() {
			t.Error("a time value is not an elapsed time")
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if m := rows.MergedCells(); len(m) != 1 || m[0].String() != "A8:B9" {
		t.Errorf("merged %v", m)
	}
	if l := rows.Hyperlinks(); len(l) != 1 || l[0].URL != "https://example.com/" || l[0].Range.String() != "A8" {
		t.Errorf("links %+v", l)
	}
	// The second table, read from where the first one ends.
	hidden, err := wb.Rows(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer hidden.Close()
	if !hidden.Next() || hidden.Row().Num != 1 || hidden.Row().Cells[0].String() != "7" || hidden.Next() || hidden.Err() != nil {
		t.Errorf("second table: %v %v", hidden.Row(), hidden.Err())
	}
}

// TestReadODSRepeats reads a row repeated far past one chunk: each copy
// once, in order, in bounded memory; and a repeat count past the limit
// fails naming the limit.
func TestReadODSRepeats(t *testing.T) {
	const n = 100000
	table := `<table:table table:name="S"><table:table-row table:number-rows-repeated="100000">` +
		`<table:table-cell office:value-type="float" office:value="3" table:number-columns-repeated="2"/></table:table-row>` +
		`<table:table-row><table:table-cell office:value-type="string"><text:p>end</text:p></table:table-cell></table:table-row></table:table>`
	data := pkg(t, odsParts(table))
	got, err := readAll(t, data, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2*n+1 || got[0] != "A1=number:3" || got[2*n-1] != "B100000=number:3" || got[2*n] != "A100001=string:end" {
		t.Fatalf("%d cells: %q ... %q", len(got), got[:2], got[len(got)-2:])
	}
	for i := range n {
		if want := CellName(i+1, 2) + "=number:3"; got[2*i+1] != want {
			t.Fatalf("cell %d: %s, want %s", 2*i+1, got[2*i+1], want)
		}
	}
	_, err = readAll(t, data, ReadOptions{Limits: Limits{MaxRepeatedCells: 1000}})
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "MaxRepeatedCells") {
		t.Errorf("over the limit: %v", err)
	}
}

func TestReadODSErrors(t *testing.T) {
	cases := []struct {
		name  string
		parts map[string]string
		want  error
		where string
	}{
		{"no tables", odsParts(""), ErrMalformed, "no tables"},
		{"bad number", odsParts(`<table:table table:name="S"><table:table-row><table:table-cell/><table:table-cell office:value-type="float" office:value="x"/></table:table-row></table:table>`),
			ErrMalformed, "cell B1"},
		{"repeated past the last column", odsParts(`<table:table table:name="S"><table:table-row><table:table-cell office:value-type="float" office:value="1" table:number-columns-repeated="20000"/></table:table-row></table:table>`),
			ErrMalformed, "past the last column"},
		{"broken XML", odsParts(`<table:table table:name="S"><table:table-row><table:table-cell office:value-type="string"><text:p>a</text:p></table:table-cel`),
			ErrMalformed, "content.xml"},
		{"encrypted", func() map[string]string {
			p := odsParts(odsTables)
			p["META-INF/manifest.xml"] = `<manifest:manifest><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data/></manifest:file-entry></manifest:manifest>`
			return p
		}(), ErrUnsupportedEncryption, "password-protected .ods"},
		{"a text document", func() map[string]string {
			p := odsParts(odsTables)
			p["mimetype"] = "application/vnd.oasis.opendocument.text"
			return p
		}(), ErrODF, "opendocument.text"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readAll(t, pkg(t, c.parts), ReadOptions{})
			var re *ReadError
			if !errors.Is(err, c.want) || !errors.As(err, &re) || !strings.Contains(err.Error(), c.where) {
				t.Errorf("got %v; want %v naming %q", err, c.want, c.where)
			}
		})
	}
}

// FuzzODSContent reads any tables: no panic, rows in order, cells in
// the sheet's bounds.
func FuzzODSContent(f *testing.F) {
	f.Add(odsTables)
	f.Add(`<table:table table:name="S"><table:table-row table:number-rows-repeated="5"><table:table-cell office:value-type="time" office:time-value="-P1DT2H"/></table:table-row></table:table>`)
	f.Fuzz(func(t *testing.T, tables string) {
		data := pkg(t, odsParts(tables))
		wb, err := NewReader(bytes.NewReader(data), int64(len(data)), ReadOptions{Limits: Limits{MaxRepeatedCells: 1 << 16}})
		if err != nil {
			return
		}
		for _, s := range wb.Sheets() {
			rows, err := wb.Rows(context.Background(), s.Index)
			if err != nil {
				return
			}
			last := 0
			for rows.Next() {
				r := rows.Row()
				if r.Num <= last || r.Num > MaxRows {
					t.Fatalf("row %d after %d", r.Num, last)
				}
				last = r.Num
				for i := range r.Cells {
					if c := r.Cells[i].Col(); c < 1 || c > MaxColumns || i > 0 && c <= r.Cells[i-1].Col() {
						t.Fatalf("row %d: column %d", r.Num, c)
					}
				}
			}
			rows.Close()
		}
	})
}
