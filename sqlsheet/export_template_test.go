package sqlsheet

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/xlsx"
)

// TestTemplateSheet: ExportTo fills a template's table
// through TemplateSheet (the header checked by Fill first); Export
// needs a writer.
func TestTemplateSheet(t *testing.T) {
	ctx := context.Background()
	db, err := Open("sqlite:" + filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE t (name TEXT, n INTEGER); INSERT INTO t VALUES ('a', 1), ('b', 2), ('c', 3)`); err != nil {
		t.Fatal(err)
	}
	if _, err := Export(ctx, db, nil, []Query{{SQL: "SELECT * FROM t"}}, Options{}); err == nil || !strings.Contains(err.Error(), "needs a writer") {
		t.Errorf("no writer: %v", err)
	}
	var design bytes.Buffer
	w, _ := xlsx.NewWriter(&design, xlsx.Options{Strings: xlsx.StringsShared})
	sh, _ := w.AddSheet("Data", xlsx.SheetOptions{})
	if err := sh.AddTable(xlsx.Range{FirstRow: 1, FirstCol: 1, LastRow: 2, LastCol: 2}, xlsx.Table{Name: "T"}); err != nil {
		t.Fatal(err)
	}
	sh.WriteRow([]xlsx.Cell{xlsx.String("name"), xlsx.String("n")})
	sh.WriteRow([]xlsx.Cell{xlsx.Blank(), xlsx.Blank()})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	fill := func(sql string) ([]byte, Stats, error) {
		var out bytes.Buffer
		tw, err := xlsx.NewTemplateWriter(&out, bytes.NewReader(design.Bytes()), int64(design.Len()), xlsx.TemplateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		st, err := ExportTo(ctx, db, TemplateSheet(tw, "Data"), []Query{{SQL: sql}}, Options{})
		if err != nil {
			tw.Abort()
			return nil, st, err
		}
		err = tw.Close()
		return out.Bytes(), st, err
	}
	book, st, err := fill("SELECT name, n FROM t ORDER BY name")
	if err != nil || st.Rows != 3 {
		t.Fatalf("%d rows, %v", st.Rows, err)
	}
	wb, err := xlsx.NewReader(bytes.NewReader(book), int64(len(book)), xlsx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := wb.Rows(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		for _, c := range rows.Row().Cells {
			got = append(got, c.String())
		}
	}
	rows.Close()
	if strings.Join(got, ",") != "name,n,a,1,b,2,c,3" {
		t.Errorf("filled: %q", got)
	}
	if _, _, err := fill("SELECT n, name FROM t"); err == nil || !strings.Contains(err.Error(), `the table's column is "name"`) {
		t.Errorf("a header the table refuses: %v", err)
	}
}
