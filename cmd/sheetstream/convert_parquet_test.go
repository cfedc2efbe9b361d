package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
)

// TestConvertParquet: a sheet to .parquet, read by pyarrow with the
// columns in the sheet's order and typed; a Parquet file pyarrow writes
// (int8 to uint64, a time zone, a decimal, a dictionary, binary, nested
// refused) to .xlsx, read by python-calamine.
func TestConvertParquet(t *testing.T) {
	python := pyread.Python(t)
	bin := buildCLI(t)
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "orders.csv")
	os.WriteFile(csvPath, []byte("zeta,day,price,paid,note,at\n1,2025-03-01,9.5,true,a,2025-03-01T10:00:00\n2,2025-03-02,10.25,false,,2025-03-01T10:00:01.5\n3,,11,true,c,\n"), 0o644)
	book := filepath.Join(dir, "orders.xlsx")
	if out, err := exec.Command(bin, "convert", csvPath, book).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	target := filepath.Join(dir, "orders.parquet")
	if out, err := exec.Command(bin, "convert", book, target).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	// Straight from the CSV: the same file.
	direct := filepath.Join(dir, "direct.parquet")
	if out, err := exec.Command(bin, "convert", csvPath, direct).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	same := `import sys, pyarrow.parquet as pq
print(pq.read_table(sys.argv[1]).equals(pq.read_table(sys.argv[2])))`
	if out, err := exec.Command(python, "-c", same, target, direct).Output(); err != nil || strings.TrimSpace(string(out)) != "True" {
		t.Errorf("CSV to Parquet differs from CSV to XLSX to Parquet: %v %s", err, out)
	}
	// Not UTF-8: refused as the workbook refuses it, nothing written.
	latin := filepath.Join(dir, "latin.csv")
	os.WriteFile(latin, []byte{'n', 'a', 'm', 'e', '\n', 'c', 'a', 'f', 0xe9, '\n'}, 0o644)
	if out, err := exec.Command(bin, "convert", latin, filepath.Join(dir, "latin.parquet")).CombinedOutput(); err == nil || !strings.Contains(string(out), "not UTF-8") {
		t.Errorf("latin-1 text to Parquet: %v %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "latin.parquet")); err == nil {
		t.Error("latin.parquet written")
	}
	read := `import sys, json, pyarrow.parquet as pq
t = pq.read_table(sys.argv[1])
print(json.dumps({"types": [str(f.type) for f in t.schema], "names": t.schema.names, "rows": t.to_pylist()}, default=str))`
	out, err := exec.Command(python, "-c", read, target).Output()
	if err != nil {
		t.Fatalf("pyarrow: %v", err)
	}
	var got struct {
		Types, Names []string
		Rows         []map[string]any
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Names, ",") != "zeta,day,price,paid,note,at" ||
		strings.Join(got.Types, ",") != "int64,date32[day],double,bool,string,timestamp[us]" || len(got.Rows) != 3 {
		t.Fatalf("%s", out)
	}
	if r := got.Rows[1]; r["price"] != 10.25 || r["paid"] != false || r["note"] != nil || r["day"] != "2025-03-02" || r["at"] != "2025-03-01 10:00:01.500000" {
		t.Errorf("row 2 %v", r)
	}

	pq := filepath.Join(dir, "typed.parquet")
	write := `import sys, datetime, decimal, pyarrow as pa, pyarrow.parquet as pq
t = pa.table({
    "i8": pa.array([-1, None, 3], pa.int8()),
    "u64": pa.array([2**64 - 1, 5, None], pa.uint64()),
    "at": pa.array([datetime.datetime(2025, 3, 1, 12, 0), None, datetime.datetime(2025, 3, 2, 6, 30)], pa.timestamp("ms", tz="UTC")),
    "ns": pa.array([datetime.datetime(2025, 3, 1, 12, 0, 0, 123456), None, None], pa.timestamp("ns")),
    "price": pa.array([decimal.Decimal("1.50"), decimal.Decimal("-2.25"), None], pa.decimal128(9, 2)),
    "big": pa.array([decimal.Decimal("-12345678901234567890.123"), None, None], pa.decimal128(38, 3)),
    "kind": pa.array(["red", "blue", "red"]).dictionary_encode(),
    "blob": pa.array([b"\x00\x01", None, b""], pa.binary()),
    "day": pa.array([datetime.date(2025, 1, 2), None, None], pa.date32()),
    "clock": pa.array([datetime.time(13, 5, 7), None, None], pa.time64("us")),
    "f": pa.array([float("nan"), 0.5, None], pa.float32()),
})
pq.write_table(t, sys.argv[1], row_group_size=2)
pq.write_table(pa.table({"xs": pa.array([[1, 2], None, []], pa.list_(pa.int64()))}), sys.argv[2])`
	nested := filepath.Join(dir, "nested.parquet")
	if out, err := exec.Command(python, "-c", write, pq, nested).CombinedOutput(); err != nil {
		t.Fatalf("pyarrow: %v %s", err, out)
	}
	typed := filepath.Join(dir, "typed.xlsx")
	if out, err := exec.Command(bin, "convert", pq, typed).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	res := pyread.Calamine(t, typed)[typed]
	if res.Error != "" {
		t.Fatal(res.Error)
	}
	cells := map[[2]int]*pyread.Value{}
	for _, c := range res.Cells["typed"] {
		cells[[2]int{c.Row, c.Col}] = c.Value
	}
	for _, want := range []struct {
		row, col int
		v        *pyread.Value
	}{
		{1, 1, pyread.Str("i8")}, {2, 1, pyread.Num(-1)}, {4, 1, pyread.Num(3)},
		{2, 2, pyread.Str("18446744073709551615")}, {3, 2, pyread.Num(5)},
		{2, 3, pyread.DateTime("2025-03-01T12:00:00")},
		{2, 4, pyread.DateTime("2025-03-01T12:00:00.123000")}, // python-calamine reads milliseconds
		{2, 5, pyread.Num(1.5)}, {3, 5, pyread.Num(-2.25)},
		{2, 6, pyread.Str("-12345678901234567890.123")}, // past 15 digits: text, every digit kept
		{2, 7, pyread.Str("red")}, {3, 7, pyread.Str("blue")},
		{2, 8, pyread.Str("AAE=")},
		{2, 9, pyread.DateTime("2025-01-02T00:00:00")},
		{2, 10, pyread.TimeOfDay("13:05:07")},
		{3, 11, pyread.Num(0.5)},
	} {
		if v := cells[[2]int{want.row, want.col}]; v == nil || !v.Equal(want.v) {
			t.Errorf("%d,%d: %v, want %v", want.row, want.col, v, want.v)
		}
	}
	for _, rc := range [][2]int{{3, 1}, {4, 2}, {3, 3}, {4, 5}} {
		if v := cells[rc]; v != nil {
			t.Errorf("%v: %v for a null", rc, v)
		}
	}
	out, err = exec.Command(bin, "convert", nested, filepath.Join(dir, "nested.xlsx")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), `column "xs"`) || !strings.Contains(string(out), "nested column") {
		t.Errorf("a list column: %v %s", err, out)
	}
}

// TestExportImportParquet: export --query -o .parquet and .arrow carry
// the database's types (pyarrow reads them), and import takes the
// Parquet file back into a table of the same types and rows.
func TestExportImportParquet(t *testing.T) {
	python := pyread.Python(t)
	bin := buildCLI(t)
	dir := t.TempDir()
	query := "SELECT o.id, o.ordered_at, o.quantity, o.unit_price, o.paid, o.shipped_on, o.note FROM orders o ORDER BY o.id"
	pq := filepath.Join(dir, "orders.parquet")
	arrowPath := filepath.Join(dir, "orders.arrow")
	for _, out := range []string{pq, arrowPath} {
		if msg, err := exec.Command(bin, "export", "--demo", "--query", query, "-o", out).CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, msg)
		}
	}
	read := `import sys, json, pyarrow.parquet as pq, pyarrow.ipc as ipc
a = pq.read_table(sys.argv[1])
b = ipc.open_file(sys.argv[2]).read_all()
print(json.dumps({"types": [str(f.type) for f in a.schema], "same": a.equals(b), "rows": a.num_rows, "first": a.slice(0, 1).to_pylist()[0]}, default=str))`
	out, err := exec.Command(python, "-c", read, pq, arrowPath).Output()
	if err != nil {
		t.Fatalf("pyarrow: %v", err)
	}
	var got struct {
		Types []string
		Same  bool
		Rows  int
		First map[string]any
	}
	json.Unmarshal(out, &got)
	if strings.Join(got.Types, ",") != "int64,timestamp[us],int64,double,bool,date32[day],string" || !got.Same || got.Rows != 50000 || got.First["id"] != float64(1) {
		t.Fatalf("%s", out)
	}
	db := "sqlite:" + filepath.Join(dir, "back.db")
	if msg, err := exec.Command(bin, "import", pq, "--db", db, "--table", "orders").CombinedOutput(); err != nil ||
		!strings.Contains(string(msg), "imported 50000 rows") ||
		!strings.Contains(string(msg), "(id integer, ordered_at timestamp, quantity integer, unit_price float, paid boolean, shipped_on date, note text)") {
		t.Fatalf("import: %v %s", err, msg)
	}
	back, err := exec.Command(bin, "export", "--db", db, "--query", query, "-o", filepath.Join(dir, "again.parquet")).CombinedOutput()
	if err != nil {
		t.Fatalf("%v %s", err, back)
	}
	same := `import sys, pyarrow.parquet as pq
print(pq.read_table(sys.argv[1]).equals(pq.read_table(sys.argv[2])))`
	if out, err := exec.Command(python, "-c", same, pq, filepath.Join(dir, "again.parquet")).Output(); err != nil || strings.TrimSpace(string(out)) != "True" {
		t.Errorf("exported, imported and exported again: %v %s", err, out)
	}
}

// TestConvertWiden: a fraction past the rows a column is typed from
// fails the conversion naming its cell, and leaves no file; with
// --widen the column is float64 and holds it, as pyarrow reads.
func TestConvertWiden(t *testing.T) {
	python := pyread.Python(t)
	bin := buildCLI(t)
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("n,label\n")
	for i := range 1500 {
		fmt.Fprintf(&b, "%d,x%d\n", i, i)
	}
	b.WriteString("2.5,last\n")
	csvPath, book := filepath.Join(dir, "late.csv"), filepath.Join(dir, "late.xlsx")
	os.WriteFile(csvPath, []byte(b.String()), 0o644)
	if out, err := exec.Command(bin, "convert", csvPath, book).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	target := filepath.Join(dir, "late.parquet")
	out, err := exec.Command(bin, "convert", book, target).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "A1502") || !strings.Contains(string(out), "does not fit its column (int64)") {
		t.Errorf("without --widen: %v %s", err, out)
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("a file written by a failed conversion")
	}
	if out, err := exec.Command(bin, "convert", "--widen", book, target).CombinedOutput(); err != nil {
		t.Fatalf("--widen: %v %s", err, out)
	}
	read := `import sys, pyarrow.parquet as pq
t = pq.read_table(sys.argv[1])
print(t.schema.field("n").type, t.num_rows, t.column("n")[0].as_py(), t.column("n")[-1].as_py())`
	got, err := exec.Command(python, "-c", read, target).Output()
	if err != nil || strings.TrimSpace(string(got)) != "double 1501 0.0 2.5" {
		t.Errorf("pyarrow: %v %s", err, got)
	}
}
