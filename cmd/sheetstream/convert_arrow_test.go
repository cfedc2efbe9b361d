package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
)

// TestConvertArrow: a sheet to .feather and .arrows, read by pyarrow with
// the types arrowsheet's mapping gives; and a .feather pyarrow writes, of
// types a sheet has no equal of (int32, a time zone, a dictionary, a
// decimal, large strings, nulls), to .xlsx, read by python-calamine.
func TestConvertArrow(t *testing.T) {
	python := pyread.Python(t)
	bin := buildCLI(t)
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "orders.csv")
	os.WriteFile(csvPath, []byte("id,day,price,paid,note\n1,2025-03-01,9.5,true,a\n2,2025-03-02,10.25,false,\n3,,11,true,c\n"), 0o644)
	book := filepath.Join(dir, "orders.xlsx")
	if out, err := exec.Command(bin, "convert", csvPath, book).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	for _, ext := range []string{".feather", ".arrows"} {
		target := filepath.Join(dir, "orders"+ext)
		if out, err := exec.Command(bin, "convert", book, target).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v %s", ext, err, out)
		}
		read := `import sys, json, pyarrow as pa, pyarrow.ipc as ipc
p = sys.argv[1]
t = ipc.open_stream(open(p, "rb")).read_all() if p.endswith(".arrows") else ipc.open_file(p).read_all()
print(json.dumps({"types": [str(f.type) for f in t.schema], "names": t.schema.names, "rows": t.to_pylist()}, default=str))`
		out, err := exec.Command(python, "-c", read, target).Output()
		if err != nil {
			t.Fatalf("%s: pyarrow: %v", ext, err)
		}
		var got struct {
			Types, Names []string
			Rows         []map[string]any
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		if strings.Join(got.Types, ",") != "int64,date32[day],double,bool,string" || len(got.Rows) != 3 {
			t.Fatalf("%s: %s", ext, out)
		}
		if r := got.Rows[1]; r["price"] != 10.25 || r["paid"] != false || r["note"] != nil || r["day"] != "2025-03-02" {
			t.Errorf("%s: row 2 %v", ext, r)
		}
		if r := got.Rows[2]; r["day"] != nil || r["id"] != float64(3) {
			t.Errorf("%s: row 3 %v", ext, r)
		}
	}

	feather := filepath.Join(dir, "typed.feather")
	write := `import sys, datetime, decimal, pyarrow as pa, pyarrow.feather as feather
t = pa.table({
    "n": pa.array([1, None, 3], pa.int32()),
    "at": pa.array([datetime.datetime(2025, 3, 1, 12, 0), None, datetime.datetime(2025, 3, 2, 6, 30)], pa.timestamp("us", tz="Europe/Oslo")),
    "kind": pa.array(["red", "blue", "red"]).dictionary_encode(),
    "price": pa.array([decimal.Decimal("1.50"), decimal.Decimal("-2.25"), None], pa.decimal128(9, 2)),
    "text": pa.array(["é", None, "z" * 40], pa.large_string()),
})
feather.write_feather(t, sys.argv[1])`
	if out, err := exec.Command(python, "-c", write, feather).CombinedOutput(); err != nil {
		t.Fatalf("pyarrow: %v %s", err, out)
	}
	typed := filepath.Join(dir, "typed.xlsx")
	if out, err := exec.Command(bin, "convert", feather, typed).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	got := pyread.Calamine(t, typed)[typed]
	if got.Error != "" {
		t.Fatal(got.Error)
	}
	cells := map[[2]int]*pyread.Value{}
	for _, c := range got.Cells["typed"] {
		cells[[2]int{c.Row, c.Col}] = c.Value
	}
	for _, want := range []struct {
		row, col int
		v        *pyread.Value
	}{
		{1, 1, pyread.Str("n")}, {1, 5, pyread.Str("text")},
		{2, 1, pyread.Num(1)},
		{2, 2, pyread.DateTime("2025-03-01T13:00:00")}, // 12:00 UTC is 13:00 in Oslo
		{2, 3, pyread.Str("red")}, {3, 3, pyread.Str("blue")},
		{2, 4, pyread.Num(1.5)}, {3, 4, pyread.Num(-2.25)},
		{2, 5, pyread.Str("é")},
	} {
		if v := cells[[2]int{want.row, want.col}]; v == nil || !v.Equal(want.v) {
			t.Errorf("%d,%d: %v, want %v", want.row, want.col, v, want.v)
		}
	}
	for _, rc := range [][2]int{{3, 1}, {3, 2}, {4, 4}, {3, 5}} {
		if v := cells[rc]; v != nil {
			t.Errorf("%v: %v for a null", rc, v)
		}
	}

	// Not Arrow: a clear error naming the file, nothing written.
	bad := filepath.Join(dir, "bad.arrow")
	os.WriteFile(bad, []byte("id,name\n1,a\n"), 0o644)
	out, err := exec.Command(bin, "convert", bad, filepath.Join(dir, "bad.xlsx")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "bad.arrow: not an Arrow file") {
		t.Errorf("a CSV named .arrow: %v %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.xlsx")); err == nil {
		t.Error("bad.xlsx written")
	}
}
