package xlsx

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

// binRecords builds BIFF12 records for tests, as Excel frames them.
type binRecords []byte

func (b binRecords) add(typ int, payload ...[]byte) binRecords {
	varint := func(out []byte, v, max int) []byte {
		for i := 0; i < max; i++ {
			c := byte(v & 0x7f)
			v >>= 7
			if v > 0 {
				c |= 0x80
			}
			out = append(out, c)
			if v == 0 {
				break
			}
		}
		return out
	}
	body := slices.Concat(payload...)
	b = varint(b, typ, 2)
	b = varint(b, len(body), 4)
	return append(b, body...)
}

func u32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func u16(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }
func f64(v float64) []byte {
	return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v))
}
func wide(s string) []byte {
	units := utf16.Encode([]rune(s))
	out := u32(uint32(len(units)))
	for _, u := range units {
		out = binary.LittleEndian.AppendUint16(out, u)
	}
	return out
}
func binCell(col, style uint32) []byte { return slices.Concat(u32(col), u32(style)) }
func rfx(r1, r2, c1, c2 uint32) []byte { return slices.Concat(u32(r1), u32(r2), u32(c1), u32(c2)) }

// xlsbParts is a two-sheet .xlsb package around the first sheet's records.
func xlsbParts(sheet binRecords) map[string]string {
	const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
	wb := binRecords(nil).add(131).
		add(153, u32(0), u32(0)).
		add(156, u32(0), u32(1), wide("rId1"), wide("Data")).
		add(156, u32(1), u32(2), wide("rId2"), wide("Hidden")).
		add(357).
		add(362, u32(1), u32(0), u32(0), u32(0)).
		// Print_Area on Data: A1:E3; and a name whose formula calls a
		// function, which is left out.
		add(39, u32(0x20), []byte{0}, u32(0), wide("Print_Area"), u32(15), []byte{0x3B, 0, 0}, u32(0), u32(2), u16(0), u16(4), u32(0)).
		add(39, u32(0), []byte{0}, u32(0xFFFFFFFF), wide("Total"), u32(3), []byte{0x41, 4, 0}, u32(0)).
		add(132)
	styles := binRecords(nil).add(615, u32(1)).add(44, u16(164), wide(`yyyy\-mm\-dd`)).add(616).
		add(617, u32(3)).add(47, u16(0), u16(0), make([]byte, 12)).add(47, u16(0), u16(164), make([]byte, 12)).
		add(47, u16(0), u16(20), make([]byte, 12)).add(618)
	sst := binRecords(nil).add(159, u32(2), u32(2)).add(19, []byte{0}, wide("shared")).
		add(19, []byte{1}, wide("rich 漢字"), u32(1), u16(0), u16(0)).add(160)
	hidden := binRecords(nil).add(129).add(145).add(0, u32(0), make([]byte, 13)).add(2, binCell(0, 0), u32(7<<2|2)).add(146).add(130)
	return map[string]string{
		"[Content_Types].xml": `<Types/>`,
		"_rels/.rels":         `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="` + rel + `officeDocument" Target="xl/workbook.bin"/></Relationships>`,
		"xl/_rels/workbook.bin.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="` + rel + `worksheet" Target="worksheets/sheet1.bin"/>` +
			`<Relationship Id="rId2" Type="` + rel + `worksheet" Target="worksheets/sheet2.bin"/>` +
			`<Relationship Id="rId3" Type="` + rel + `styles" Target="styles.bin"/>` +
			`<Relationship Id="rId4" Type="` + rel + `sharedStrings" Target="sharedStrings.bin"/></Relationships>`,
		"xl/worksheets/_rels/sheet1.bin.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId9" Type="` + rel + `hyperlink" Target="https://example.com/x" TargetMode="External"/></Relationships>`,
		"xl/workbook.bin":          string(wb),
		"xl/styles.bin":            string(styles),
		"xl/sharedStrings.bin":     string(sst),
		"xl/worksheets/sheet1.bin": string(sheet),
		"xl/worksheets/sheet2.bin": string(hidden),
	}
}

// xlsbSheet1 is a sheet with a cell of every record kind.
func xlsbSheet1() binRecords {
	row := func(r uint32) []byte { return slices.Concat(u32(r), make([]byte, 13)) }
	return binRecords(nil).add(129).
		add(148, rfx(0, 2, 0, 4)).
		add(145).
		add(0, row(0)).
		add(2, binCell(0, 0), u32(42<<2|2)).     // RK integer
		add(2, binCell(1, 0), u32(12345<<2|3)).  // RK integer / 100
		add(5, binCell(2, 0), f64(1.5)).         // double
		add(6, binCell(3, 0), wide("inline é")). // inline string
		add(7, binCell(4, 0), u32(1)).           // shared string
		add(0, row(2)).
		add(1, binCell(0, 0)).                             // blank: no cell
		add(4, binCell(1, 0), []byte{1}).                  // bool
		add(3, binCell(2, 0), []byte{0x07}).               // #DIV/0!
		add(9, binCell(3, 1), f64(45351), u16(0), u32(0)). // formula, date result
		add(8, binCell(4, 0), wide("calc"), u16(0), u32(0)).
		add(11, binCell(5, 0), []byte{0x2A}, u16(0), u32(0)).
		add(10, binCell(6, 0), []byte{0}, u16(0), u32(0)).
		add(5, binCell(7, 2), f64(0.75)). // h:mm, a time of day
		add(62, binCell(8, 0), []byte{1}, wide("rich"), u32(0)).
		add(146).
		add(176, rfx(2, 2, 0, 1)).
		add(494, rfx(0, 0, 4, 4), wide("rId9"), wide(""), wide("tip"), wide("shown")).
		add(130)
}

func TestReadXLSB(t *testing.T) {
	data := pkg(t, xlsbParts(xlsbSheet1()))
	wb, err := NewReader(strings.NewReader(string(data)), int64(len(data)), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if wb.Format() != FormatXLSB {
		t.Errorf("format %v", wb.Format())
	}
	if got, want := wb.DefinedNames(), []DefinedName{{Name: "_xlnm.Print_Area", RefersTo: "Data!$A$1:$E$3", Sheet: "Data"}}; !slices.Equal(got, want) {
		t.Errorf("names %+v, want %+v", got, want)
	}
	want := []SheetInfo{{Index: 0, Name: "Data", Part: "xl/worksheets/sheet1.bin"}, {Index: 1, Name: "Hidden", State: SheetHidden, Part: "xl/worksheets/sheet2.bin"}}
	if got := wb.Sheets(); !slices.Equal(got, want) {
		t.Errorf("sheets %+v, want %+v", got, want)
	}
	got, err := readAll(t, data, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantCells := []string{"A1=number:42", "B1=number:123.45", "C1=number:1.5", "D1=string:inline é", "E1=string:rich 漢字",
		"B3=bool:TRUE", "C3=error:#DIV/0!", "D3=date:2024-02-29T00:00:00", "E3=string:calc", "F3=error:#N/A", "G3=bool:FALSE",
		"H3=date:18:00:00", "I3=string:rich"}
	if !slices.Equal(got, wantCells) {
		t.Errorf("cells\n got %q\nwant %q", got, wantCells)
	}
	rows, err := wb.Rows(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var shared []string // the cells whose text is the shared strings table's
	for rows.Next() {
		for _, c := range rows.Row().Cells {
			if c.SharedText() {
				shared = append(shared, CellName(rows.Row().Num, c.Col()))
			}
		}
	}
	rows.Close()
	if !slices.Equal(shared, []string{"E1"}) {
		t.Errorf("shared strings in %v, want E1", shared)
	}
	if dim, ok := rows.Dimension(); !ok || dim.String() != "A1:E3" {
		t.Errorf("dimension %v %v", dim, ok)
	}
	if m := rows.MergedCells(); len(m) != 1 || m[0].String() != "A3:B3" {
		t.Errorf("merged %v", m)
	}
	if l := rows.Hyperlinks(); len(l) != 1 || l[0].URL != "https://example.com/x" || l[0].Range.String() != "E1" || l[0].Tooltip != "tip" || l[0].Display != "shown" {
		t.Errorf("links %+v", l)
	}
}

func TestReadXLSBErrors(t *testing.T) {
	full := xlsbSheet1()
	huge := binRecords(nil).add(129).add(145)
	huge = append(huge, 0x06, 0xFF, 0xFF, 0xFF, 0x7F) // a string cell claiming 256 MiB
	cases := []struct {
		name  string
		sheet binRecords
		want  error
		where string
	}{
		{"truncated", full[:len(full)-60], ErrMalformed, `sheet "Data"`},
		{"record over the limit", huge, ErrLimit, "MaxStringSize"},
		{"shared string out of range", binRecords(nil).add(145).add(0, u32(4), make([]byte, 13)).add(7, binCell(1, 0), u32(99)), ErrMalformed, "cell B5"},
		{"row past the last", binRecords(nil).add(145).add(0, u32(MaxRows), make([]byte, 13)), ErrMalformed, "row header"},
		{"column past the last", binRecords(nil).add(145).add(0, u32(0), make([]byte, 13)).add(5, binCell(MaxColumns, 0), f64(1)), ErrMalformed, "column 16385"},
		{"cell before any row", binRecords(nil).add(145).add(5, binCell(0, 0), f64(1)), ErrMalformed, "before any row"},
		{"string longer than its record", binRecords(nil).add(145).add(0, u32(0), make([]byte, 13)).add(6, binCell(0, 0), u32(50), []byte("ab")), ErrMalformed, "cell A1"},
		{"unknown error code", binRecords(nil).add(145).add(0, u32(0), make([]byte, 13)).add(3, binCell(0, 0), []byte{0x99}), ErrMalformed, "error code 0x99"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readAll(t, pkg(t, xlsbParts(c.sheet)), ReadOptions{})
			var re *ReadError
			if !errors.Is(err, c.want) || !errors.As(err, &re) || !strings.Contains(err.Error(), c.where) {
				t.Errorf("got %v; want %v naming %q", err, c.want, c.where)
			}
		})
	}
}

// TestReadXLSBChunks reads a sheet long enough to fill several chunks:
// every row once, in order, whole.
func TestReadXLSBChunks(t *testing.T) {
	sheet := binRecords(nil).add(145)
	const n = 5000
	for r := range uint32(n) {
		sheet = sheet.add(0, u32(r*2), make([]byte, 13))
		for c := range uint32(3) {
			sheet = sheet.add(5, binCell(c, 0), f64(float64(r*10+c)))
		}
	}
	got, err := readAll(t, pkg(t, xlsbParts(sheet.add(146))), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3*n {
		t.Fatalf("%d cells, want %d", len(got), 3*n)
	}
	for i, s := range got {
		r, c := i/3, i%3
		if want := CellName(r*2+1, c+1) + "=number:" + strconv.Itoa(r*10+c); s != want {
			t.Fatalf("cell %d: %s, want %s", i, s, want)
		}
	}
}

// FuzzXLSBSheet reads any records as a sheet: no panic, and every row
// and cell in the sheet's bounds, in order.
func FuzzXLSBSheet(f *testing.F) {
	f.Add([]byte(xlsbSheet1()))
	f.Add([]byte(binRecords(nil).add(0, u32(3), make([]byte, 13)).add(7, binCell(1, 0), u32(0))))
	f.Fuzz(func(t *testing.T, sheet []byte) {
		data := pkg(t, xlsbParts(sheet))
		wb, err := NewReader(strings.NewReader(string(data)), int64(len(data)), ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := wb.Rows(context.Background(), 0)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			r := rows.Row()
			if r.Num < 1 || r.Num > MaxRows {
				t.Fatalf("row %d", r.Num)
			}
			for i := range r.Cells {
				if c := r.Cells[i].Col(); c < 1 || c > MaxColumns {
					t.Fatalf("row %d: column %d", r.Num, c)
				}
			}
		}
	})
}

// TestReadXLSBShortCells reads the short cell records Excel 2016 and
// SheetJS write, whose column is the one after the previous cell's.
func TestReadXLSBShortCells(t *testing.T) {
	sheet := binRecords(nil).add(145).
		add(0, u32(0), make([]byte, 13)).
		add(6, binCell(1, 0), wide("b")).
		add(17, u32(0), wide("c")).
		add(13, u32(0), u32(5<<2|2)).
		add(12, u32(0)).
		add(16, u32(1), f64(45351)).
		add(18, u32(0), u32(0)).
		add(15, u32(0), []byte{1}).
		add(14, u32(0), []byte{0x2A}).
		add(0, u32(1), make([]byte, 13)).
		add(13, u32(0), u32(7<<2|2)).
		add(146)
	got, err := readAll(t, pkg(t, xlsbParts(sheet)), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"B1=string:b", "C1=string:c", "D1=number:5", "F1=date:2024-02-29T00:00:00", "G1=string:shared", "H1=bool:TRUE", "I1=error:#N/A", "A2=number:7"}
	if !slices.Equal(got, want) {
		t.Errorf("cells\n got %q\nwant %q", got, want)
	}
}
