package xlsx_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/xlsx"
)

// FuzzParsePivot: the short form never panics, and what it reads says
// itself back the same (String, then ParsePivot).
func FuzzParsePivot(f *testing.F) {
	for _, s := range []string{"city::sum(amount)", "region+city:year:sum(amount),average(amount)", "a:b:count(c),min(d),max(e),countnums(f),stddev(g),var(h)",
		"::", "a::", "a::sum()", "a::nope(x)", "a:b+c:sum(x)", " a + b : : SUM ( x ) ", "a::sum(x))", "a::sum((x)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := xlsx.ParsePivot(s)
		if err != nil {
			if !errors.Is(err, xlsx.ErrPivot) {
				t.Fatalf("%q: an error that is not ErrPivot: %v", s, err)
			}
			return
		}
		again, err := xlsx.ParsePivot(p.String())
		if err != nil || again.String() != p.String() {
			t.Fatalf("%q: %q reads back as %q, %v", s, p.String(), again.String(), err)
		}
	})
}

// FuzzPivotItems: any texts as the items and header of a pivot make a
// workbook (or an error, never a panic) whose pivot parts are
// well-formed XML and whose pivot sheet reads back.
func FuzzPivotItems(f *testing.F) {
	f.Add("city", "Oslo", "oslo", "amount")
	f.Add("a&b", "<x>", "\"q\" 'r'", "v")
	f.Add("k", "", "\x00\x01", "n")
	f.Add("dup", "A", "a", "dup")
	f.Fuzz(func(t *testing.T, key, a, b, value string) {
		if key == "" || value == "" || key == value {
			return
		}
		var buf bytes.Buffer
		w, _ := xlsx.NewWriter(&buf, xlsx.Options{})
		if err := w.AddPivotTable(xlsx.PivotTable{Source: "Data", Rows: []string{key}, Values: []xlsx.PivotValue{{Column: value}}}); err != nil {
			return
		}
		s, _ := w.AddSheet("Data", xlsx.SheetOptions{})
		if s.WriteRow([]xlsx.Cell{xlsx.String(key), xlsx.String(value)}) != nil {
			return // a header no cell holds
		}
		for i, item := range []string{a, b, a} {
			if s.WriteRow([]xlsx.Cell{xlsx.String(item), xlsx.Int(int64(i))}) != nil {
				return
			}
		}
		if err := w.Close(); err != nil {
			return
		}
		zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			if !strings.Contains(f.Name, "pivot") || strings.HasSuffix(f.Name, ".rels") {
				continue
			}
			rc, _ := f.Open()
			data, _ := io.ReadAll(rc)
			d := xml.NewDecoder(bytes.NewReader(data))
			for {
				if _, err := d.Token(); err == io.EOF {
					break
				} else if err != nil {
					t.Fatalf("%s: %v\n%s", f.Name, err, data)
				}
			}
		}
		wb, err := xlsx.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), xlsx.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := wb.Rows(context.Background(), 1)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			n++
		}
		if err := rows.Err(); err != nil || n < 3 {
			t.Fatalf("the pivot sheet: %d rows, %v", n, err)
		}
	})
}
