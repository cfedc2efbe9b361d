package xlsx_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/xlsx"
)

// FuzzTable: any table name, header text, column name, totals label and
// formulas are refused with ErrTable (and the Writer goes on) or make a
// table part that is well-formed XML, whose column names the header
// cells read back hold.
func FuzzTable(f *testing.F) {
	f.Add("Sales", "Region", "", "Total", "SUM([Amount])", "[@Amount]*2")
	f.Add("A1", "x", "x", "", "", "")
	f.Add("T_1.b", "a&b<c>\"'", "a&b<c>\"'", "l\u00e9", "[a]]", "[@[x]]+[@")
	f.Add("\\t", "", "Column1", "\x01", "]]>", "")
	f.Fuzz(func(t *testing.T, name, header, column, label, total, formula string) {
		var buf bytes.Buffer
		w, err := xlsx.NewWriter(&buf, xlsx.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close() // its goroutines end on every path
		sh, err := w.AddSheet("S", xlsx.SheetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		columns := []xlsx.TableColumn{{Name: column, TotalLabel: label}, {Total: xlsx.TotalSum}, {Formula: formula}}
		if total != "" {
			columns[1] = xlsx.TableColumn{Total: xlsx.TotalCustom, TotalFormula: total}
		}
		err = sh.AddTable(xlsx.Range{FirstRow: 1, FirstCol: 1}, xlsx.Table{Name: name, TotalsRow: true, Columns: columns})
		if err != nil {
			if !errors.Is(err, xlsx.ErrTable) {
				t.Fatalf("AddTable: %v, want ErrTable", err)
			}
			if err := sh.WriteRow([]xlsx.Cell{xlsx.String("fine")}); err != nil {
				t.Fatalf("the Writer stopped after a refused table: %v", err)
			}
			return
		}
		if err := sh.WriteRow([]xlsx.Cell{xlsx.String(header), xlsx.String("n")}); err != nil {
			if !errors.Is(err, xlsx.ErrTable) && !errors.Is(err, xlsx.ErrInvalidUTF8) && !errors.Is(err, xlsx.ErrNonCharacter) && !errors.Is(err, xlsx.ErrCellTooLong) {
				t.Fatalf("header row: %v", err)
			}
			return
		}
		if err := sh.WriteRow([]xlsx.Cell{xlsx.String("a"), xlsx.Int(1)}); err != nil {
			t.Fatalf("data row: %v", err)
		}
		if err := w.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		book := buf.Bytes()
		dec := xml.NewDecoder(strings.NewReader(part(t, book, "xl/tables/table1.xml")))
		var names []string
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("table part: %v", err)
			}
			if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "tableColumn" {
				for _, a := range se.Attr {
					if a.Name.Local == "name" {
						names = append(names, a.Value)
					}
				}
			}
		}
		wb, err := xlsx.NewReader(bytes.NewReader(book), int64(len(book)), xlsx.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := wb.Rows(context.Background(), 0)
		if err != nil || !rows.Next() {
			t.Fatalf("no header row: %v", err)
		}
		cells := rows.Row().Cells
		if len(cells) != 3 || len(names) != 3 {
			t.Fatalf("header %d cells, %d names", len(cells), len(names))
		}
		for i, c := range cells {
			if c.String() != names[i] {
				t.Errorf("header cell %d %q, column name %q", i, c.String(), names[i])
			}
		}
	})
}
