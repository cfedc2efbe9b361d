package xlsx

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/sheetstream/sheetstream/internal/cfb"
)

// biffRecords builds BIFF8 records for tests, as Excel frames them.
type biffRecords []byte

func (b biffRecords) add(typ uint16, payload ...[]byte) biffRecords {
	body := slices.Concat(payload...)
	b = binary.LittleEndian.AppendUint16(b, typ)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(body)))
	return append(b, body...)
}

// xlString is an XLUnicodeString: compressed when every character fits a
// byte, UTF-16 otherwise.
func xlString(s string, lenBytes int) []byte {
	units := utf16.Encode([]rune(s))
	var out []byte
	if lenBytes == 1 {
		out = []byte{byte(len(units))}
	} else {
		out = u16(uint16(len(units)))
	}
	wide := slices.ContainsFunc(units, func(u uint16) bool { return u > 0xFF })
	if !wide {
		out = append(out, 0)
		for _, u := range units {
			out = append(out, byte(u))
		}
		return out
	}
	out = append(out, 1)
	for _, u := range units {
		out = binary.LittleEndian.AppendUint16(out, u)
	}
	return out
}

func xlsCell(row, col, xf uint16) []byte { return slices.Concat(u16(row), u16(col), u16(xf)) }

// xlsFile wraps sheets' records in a workbook stream and a compound file.
func xlsFile(t testing.TB, globals biffRecords, sheets ...biffRecords) []byte {
	t.Helper()
	// BOUNDSHEET offsets: the globals, with their BOUNDSHEET records, come
	// first; each sheet follows the one before.
	bound := func(offsets []uint32) biffRecords {
		var b biffRecords
		for i, off := range offsets {
			state := byte(0)
			if i == 1 {
				state = 1
			}
			b = b.add(0x0085, u32(off), []byte{state, 0}, xlString([]string{"Data", "Hidden 表"}[i%2], 1))
		}
		return b
	}
	head := biffRecords(nil).add(0x0809, u16(0x0600), u16(0x0005), make([]byte, 12))
	offsets := make([]uint32, len(sheets))
	size := len(head) + len(globals) + len(bound(offsets)) + 4
	for i, s := range sheets {
		offsets[i] = uint32(size)
		size += len(s)
	}
	stream := slices.Concat(head, bound(offsets), globals, biffRecords(nil).add(0x000A))
	for _, s := range sheets {
		stream = append(stream, s...)
	}
	if len(stream) < 4096 {
		stream = append(stream, make([]byte, 4096-len(stream))...)
	}
	layout := cfb.Layout{Large: "Workbook", LargeSize: int64(len(stream)), Small: map[string][]byte{"\x05SummaryInformation": make([]byte, 64)}}
	header, tail, err := layout.Build()
	if err != nil {
		t.Fatal(err)
	}
	padding := make([]byte, layout.LargeSectors()*512-int64(len(stream)))
	return slices.Concat(header, stream, padding, tail)
}

// xlsGlobals are workbook globals with formats, XFs (0 General, 1
// yyyy-mm-dd, 2 h:mm) and a shared string table whose second string is
// carried on into a CONTINUE record, switching to UTF-16 there.
func xlsGlobals() biffRecords {
	sst := slices.Concat(u32(3), u32(3), xlString("shared", 2), u16(9), []byte{0}, []byte("split"))
	return biffRecords(nil).
		add(0x0042, u16(1200)).
		add(0x0022, u16(0)).
		add(0x041E, u16(164), xlString("yyyy-mm-dd", 2)).
		add(0x00E0, u16(0), u16(0), make([]byte, 16)).
		add(0x00E0, u16(0), u16(164), make([]byte, 16)).
		add(0x00E0, u16(0), u16(20), make([]byte, 16)).
		add(0x00FC, sst).
		add(0x003C, []byte{1}, []byte(utf16le(" 漢字!")[2:]), xlString("third", 2))
}

func xlsSheet1() biffRecords {
	urlMoniker := []byte{0xE0, 0xC9, 0xEA, 0x79, 0xF9, 0xBA, 0xCE, 0x11, 0x8C, 0x82, 0x00, 0xAA, 0x00, 0x4B, 0xA9, 0x0B}
	url := []byte(utf16le("https://example.com/\x00")[2:])
	link := slices.Concat(u16(0), u16(0), u16(4), u16(4), make([]byte, 16), u32(2), u32(0x01|0x02|0x10),
		u32(6), []byte(utf16le("shown\x00")[2:]), urlMoniker, u32(uint32(len(url))), url)
	return biffRecords(nil).
		add(0x0809, u16(0x0600), u16(0x0010), make([]byte, 12)).
		add(0x0200, u32(0), u32(3), u16(0), u16(9), u16(0)).
		add(0x0203, xlsCell(0, 0, 0), f64(1.5)).
		add(0x027E, xlsCell(0, 1, 0), u32(12345<<2|3)).
		add(0x00BD, u16(0), u16(2), u16(0), u32(7<<2|2), u16(0), u32(8<<2|2), u16(4)).
		add(0x00FD, xlsCell(0, 4, 0), u32(1)).
		add(0x0204, xlsCell(0, 5, 0), xlString("label é", 2)).
		add(0x0809, u16(0x0600), u16(0x0020), make([]byte, 12)). // an embedded chart
		add(0x0203, xlsCell(0, 9, 0), f64(99)).
		add(0x000A).
		add(0x0205, xlsCell(2, 3, 0), []byte{1, 0}).
		add(0x0205, xlsCell(2, 0, 0), []byte{0x07, 1}).
		add(0x0006, xlsCell(2, 1, 1), f64(45351), u16(0), u32(0), u16(0)).
		add(0x0006, xlsCell(2, 2, 0), []byte{0, 0, 0, 0, 0, 0, 0xFF, 0xFF}, u16(0), u32(0), u16(0)).
		add(0x0207, xlString("calc", 2)).
		add(0x0006, xlsCell(2, 4, 0), []byte{1, 0, 1, 0, 0, 0, 0xFF, 0xFF}, u16(0), u32(0), u16(0)).
		add(0x0006, xlsCell(2, 5, 0), []byte{2, 0, 0x2A, 0, 0, 0, 0xFF, 0xFF}, u16(0), u32(0), u16(0)).
		add(0x0006, xlsCell(2, 6, 2), f64(0.75), u16(0), u32(0), u16(0)).
		add(0x00E5, u16(1), u16(2), u16(2), u16(7), u16(8)).
		add(0x01B8, link).
		add(0x000A)
}

func TestReadXLS(t *testing.T) {
	hidden := biffRecords(nil).add(0x0809, u16(0x0600), u16(0x0010), make([]byte, 12)).add(0x0203, xlsCell(0, 0, 0), f64(7)).add(0x000A)
	data := xlsFile(t, xlsGlobals(), xlsSheet1(), hidden)
	wb, err := NewReader(bytes.NewReader(data), int64(len(data)), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if wb.Format() != FormatXLS {
		t.Errorf("format %v", wb.Format())
	}
	want := []SheetInfo{{Index: 0, Name: "Data", Part: "Workbook"}, {Index: 1, Name: "Hidden 表", State: SheetHidden, Part: "Workbook"}}
	if got := wb.Sheets(); !slices.Equal(got, want) {
		t.Errorf("sheets %+v, want %+v", got, want)
	}
	got, err := readAll(t, data, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantCells := []string{"A1=number:1.5", "B1=number:123.45", "C1=number:7", "D1=number:8", "E1=string:split 漢字!", "F1=string:label é",
		"A3=error:#DIV/0!", "B3=date:2024-02-29T00:00:00", "C3=string:calc", "D3=bool:TRUE", "E3=bool:TRUE", "F3=error:#N/A", "G3=date:18:00:00"}
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
	if dim, ok := rows.Dimension(); !ok || dim.String() != "A1:I3" {
		t.Errorf("dimension %v %v", dim, ok)
	}
	if m := rows.MergedCells(); len(m) != 1 || m[0].String() != "H3:I3" {
		t.Errorf("merged %v", m)
	}
	if l := rows.Hyperlinks(); len(l) != 1 || l[0].URL != "https://example.com/" || l[0].Range.String() != "E1" || l[0].Display != "shown" {
		t.Errorf("links %+v", l)
	}
}

func TestReadXLSErrors(t *testing.T) {
	sheetOf := func(records biffRecords) biffRecords {
		return slices.Concat(biffRecords(nil).add(0x0809, u16(0x0600), u16(0x0010), make([]byte, 12)), records, biffRecords(nil).add(0x000A))
	}
	full := xlsSheet1()
	cases := []struct {
		name    string
		globals biffRecords
		sheet   biffRecords
		want    error
		where   string
	}{
		{"rows out of order", nil, sheetOf(biffRecords(nil).add(0x0203, xlsCell(5, 0, 0), f64(1)).add(0x0203, xlsCell(2, 1, 0), f64(1))), ErrMalformed, "cell B3"},
		{"truncated", nil, full[:len(full)-30], ErrMalformed, `sheet "Data"`},
		{"shared string out of range", nil, sheetOf(biffRecords(nil).add(0x00FD, xlsCell(1, 1, 0), u32(9))), ErrMalformed, "cell B2"},
		{"short cell", nil, sheetOf(biffRecords(nil).add(0x0203, xlsCell(0, 0, 0), u16(1))), ErrMalformed, "cell A1"},
		{"string past its record", nil, sheetOf(biffRecords(nil).add(0x0204, xlsCell(0, 2, 0), u16(40), []byte{0}, []byte("ab"))), ErrMalformed, "cell C1"},
		{"encrypted", biffRecords(nil).add(0x002F, u16(1), u16(1)), sheetOf(nil), ErrUnsupportedEncryption, "RC4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readAll(t, xlsFile(t, slices.Concat(c.globals, xlsGlobals()), c.sheet), ReadOptions{})
			var re *ReadError
			if !errors.Is(err, c.want) || !errors.As(err, &re) || !strings.Contains(err.Error(), c.where) {
				t.Errorf("got %v; want %v naming %q", err, c.want, c.where)
			}
		})
	}
	// A bare BIFF4 worksheet is named as a format sheetstream does not read.
	biff4 := biffRecords(nil).add(0x0409, u16(0), u16(0x0010))
	if _, err := NewReader(bytes.NewReader(biff4), int64(len(biff4)), ReadOptions{}); !errors.Is(err, ErrLegacyXLS) || !strings.Contains(err.Error(), "BIFF4") {
		t.Errorf("BIFF4: %v", err)
	}
}

// FuzzXLSSheet reads any records as a sheet: no panic, and every row and
// cell in the sheet's bounds.
func FuzzXLSSheet(f *testing.F) {
	f.Add([]byte(xlsSheet1()))
	f.Add([]byte(biffRecords(nil).add(0x00FD, xlsCell(1, 1, 0), u32(0)).add(0x0006, xlsCell(1, 2, 0), []byte{0, 0, 0, 0, 0, 0, 0xFF, 0xFF}, make([]byte, 8)).add(0x0207, u16(2), []byte{0, 'h', 'i'})))
	f.Fuzz(func(t *testing.T, sheet []byte) {
		data := xlsFile(t, xlsGlobals(), slices.Concat(biffRecords(nil).add(0x0809, u16(0x0600), u16(0x0010), make([]byte, 12)), sheet))
		wb, err := NewReader(bytes.NewReader(data), int64(len(data)), ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := wb.Rows(context.Background(), 0)
		var re *ReadError
		if err != nil && !errors.As(err, &re) {
			t.Fatal(err)
		}
		if err != nil {
			return // a CONTINUE record after the BOF, say
		}
		defer rows.Close()
		last := 0
		for rows.Next() {
			r := rows.Row()
			if r.Num <= last || r.Num > MaxRows {
				t.Fatalf("row %d after %d", r.Num, last)
			}
			last = r.Num
			for i := range r.Cells {
				if c := r.Cells[i].Col(); c < 1 || c > MaxColumns || i > 0 && c < r.Cells[i-1].Col() {
					t.Fatalf("row %d: column %d", r.Num, c)
				}
			}
		}
	})
}
