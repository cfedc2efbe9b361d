package sqlsheet_test

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

func TestSQLite(t *testing.T) {
	pyread.Python(t)
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	long := strings.Repeat("ab", 20000)
	mustExec(t, db,
		`CREATE TABLE items (id INTEGER PRIMARY KEY, qty INT, big BIGINT, price NUMERIC(10,2), ratio REAL,
			name TEXT, active BOOLEAN, day DATE, at DATETIME, data BLOB, note VARCHAR(40))`,
		`INSERT INTO items VALUES (1, 42, 9007199254740993, 12.5, 0.125, 'Café ☕', 1, '2024-02-29', '2024-02-29 13:45:30.250', x'00ff', NULL)`,
		`INSERT INTO items VALUES (2, -7, 5, 3, -1.5, 'line1
line2', 0, '1900-03-01', '2026-01-02 03:04:05', x'', 'n')`,
		`INSERT INTO items (id) VALUES (3)`,
		`INSERT INTO items (id, qty, name) VALUES (4, 'not a number', '`+long+`')`,
	)
	path, st := export(t, db, []sqlsheet.Query{
		{SQL: "SELECT * FROM items ORDER BY id", Sheet: "Items"},
		{SQL: "SELECT 1 + 1 AS two, 'x' || 'y' AS xy, 2.5 * 2 AS five, NULL AS nada, MIN(day) AS first_day, MAX(at) AS last_at, MAX(name) AS last_name FROM items", Sheet: "Expressions"},
	}, sqlsheet.Options{Null: "(null)", Binary: sqlsheet.BinaryHex})
	if st.Rows != 5 || !slices.Equal(st.Sheets, []string{"Items", "Expressions"}) {
		t.Errorf("stats %+v", st)
	}
	if st.Warnings.BigNumbers != 1 || st.Warnings.Truncated != 1 {
		t.Errorf("warnings %+v, want one big number and one truncated text", st.Warnings)
	}
	null := pyread.Str("(null)")
	r := pyread.Read(t, path)[path]
	checkSheet(t, r, "Items", [][]*pyread.Value{
		{pyread.Str("id"), pyread.Str("qty"), pyread.Str("big"), pyread.Str("price"), pyread.Str("ratio"), pyread.Str("name"), pyread.Str("active"), pyread.Str("day"), pyread.Str("at"), pyread.Str("data"), pyread.Str("note")},
		{pyread.Num(1), pyread.Num(42), pyread.Str("9007199254740993"), pyread.Num(12.5), pyread.Num(0.125), pyread.Str("Café ☕"), pyread.Bool(true), pyread.DateTime("2024-02-29T00:00:00"), pyread.DateTime("2024-02-29T13:45:30.250000"), pyread.Str("00ff"), null},
		{pyread.Num(2), pyread.Num(-7), pyread.Num(5), pyread.Num(3), pyread.Num(-1.5), pyread.Str("line1\nline2"), pyread.Bool(false), pyread.DateTime("1900-03-01T00:00:00"), pyread.DateTime("2026-01-02T03:04:05"), pyread.Str(""), pyread.Str("n")},
		{pyread.Num(3), null, null, null, null, null, null, null, null, null, null},
		{pyread.Num(4), pyread.Str("not a number"), null, null, null, pyread.Str(long[:32767]), null, null, null, null, null},
	})
	checkSheet(t, r, "Expressions", [][]*pyread.Value{
		{pyread.Str("two"), pyread.Str("xy"), pyread.Str("five"), pyread.Str("nada"), pyread.Str("first_day"), pyread.Str("last_at"), pyread.Str("last_name")},
		{pyread.Num(2), pyread.Str("xy"), pyread.Num(5), null, pyread.DateTime("1900-03-01T00:00:00"), pyread.DateTime("2026-01-02T03:04:05"), pyread.Str("line1\nline2")},
	})
	// Widths fitted to the header and values (F holds text cut at 32,767
	// characters: capped at 60); A's are short ids under "id".
	if w := r.Widths["Items"]; w["F"] < 55 || w["F"] > 61 || w["A"] < 2 || w["A"] > 4 {
		t.Errorf("column widths not fitted: %v", w)
	}
}

func TestRollover(t *testing.T) {
	pyread.Python(t)
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "roll.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db, "CREATE TABLE t (v INTEGER)")
	for i := range 7 {
		mustExec(t, db, "INSERT INTO t VALUES ("+string(rune('0'+i))+")")
	}
	path, st := export(t, db, []sqlsheet.Query{{SQL: "SELECT v FROM t ORDER BY v", Sheet: "Nums"}},
		sqlsheet.Options{RowsPerSheet: 4, SampleRows: 2})
	// Without width fitting every row goes through the scanning pipeline.
	if _, st2 := export(t, db, []sqlsheet.Query{{SQL: "SELECT v FROM t", Sheet: "Nums"}}, sqlsheet.Options{SampleRows: -1}); st2.Rows != 7 {
		t.Errorf("with SampleRows -1: %d rows, want 7", st2.Rows)
	}
	want := []string{"Nums", "Nums (2)", "Nums (3)"}
	if !slices.Equal(st.Sheets, want) || st.Rows != 7 {
		t.Fatalf("stats %+v", st)
	}
	r := pyread.Read(t, path)[path]
	checkSheet(t, r, "Nums", [][]*pyread.Value{{pyread.Str("v")}, {pyread.Num(0)}, {pyread.Num(1)}, {pyread.Num(2)}})
	checkSheet(t, r, "Nums (2)", [][]*pyread.Value{{pyread.Str("v")}, {pyread.Num(3)}, {pyread.Num(4)}, {pyread.Num(5)}})
	checkSheet(t, r, "Nums (3)", [][]*pyread.Value{{pyread.Str("v")}, {pyread.Num(6)}})
}

func TestCancel(t *testing.T) {
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	calls := 0
	_, err = sqlsheet.Export(ctx, db, w, []sqlsheet.Query{{
		SQL: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c",
	}}, sqlsheet.Options{Progress: func(int64) {
		if calls++; calls == 3 {
			cancel()
		}
	}})
	if err == nil || !strings.Contains(err.Error(), "cancel") {
		t.Errorf("err = %v, want cancellation", err)
	}
}

func TestOpenErrors(t *testing.T) {
	for _, url := range []string{"oracle://x/y", "::::"} {
		if _, err := sqlsheet.Open(url); err == nil {
			t.Errorf("Open(%q) succeeded", url)
		}
	}
}

// TestErrorInPipeline fails on a value past the sampled rows: the error
// names the row, and the scanning goroutine is stopped cleanly.
func TestErrorInPipeline(t *testing.T) {
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "e.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db, "CREATE TABLE t (v TEXT)",
		"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000) INSERT INTO t SELECT 'ok' FROM c",
		"UPDATE t SET v = '"+strings.Repeat("y", 40000)+"' WHERE rowid = 1500")
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	_, err = sqlsheet.Export(context.Background(), db, w, []sqlsheet.Query{{SQL: "SELECT v FROM t ORDER BY rowid", Sheet: "T"}},
		sqlsheet.Options{Strict: true})
	var ce *xlsx.CellError
	if !errors.As(err, &ce) || !errors.Is(err, xlsx.ErrCellTooLong) || ce.Sheet != "T" || ce.Row != 1501 || ce.Col != 1 {
		t.Fatalf("err = %v, want a too-long cell at T!A1501", err)
	}
}

// TestMaxRowsInPipeline stops a long preview in the scanning pipeline:
// the rows and the warnings counted are those of the rows written, not of
// rows the scanner read ahead.
func TestMaxRowsInPipeline(t *testing.T) {
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	st, err := sqlsheet.Export(context.Background(), db, w, []sqlsheet.Query{{
		SQL: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50000) SELECT x + 9007199254740993 FROM c",
	}}, sqlsheet.Options{MaxRows: 15000})
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != 15000 || st.Warnings.BigNumbers != 15000 {
		t.Errorf("rows %d, big numbers %d; want 15000 of each", st.Rows, st.Warnings.BigNumbers)
	}
}
