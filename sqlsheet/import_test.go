package sqlsheet_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

var (
	day  = time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)
	when = time.Date(2024, 2, 29, 13, 45, 30, 250e6, time.UTC)
)

func typedRows() [][]xlsx.Cell {
	str := xlsx.String
	return [][]xlsx.Cell{
		{str("id"), str("price"), str("ok"), str("day"), str("at"), str("clock"), str("name"), str("mixed"), str("")},
		{xlsx.Int(1), xlsx.Float(9.99), xlsx.Bool(true), xlsx.Date(day), xlsx.Time(when), xlsx.TimeOfDay(when), str("Grüße, \"quoted\""), xlsx.Int(5), str("no header")},
		{xlsx.Int(2), xlsx.Int(3), xlsx.Bool(false), xlsx.Date(day.AddDate(0, 0, 1)), xlsx.Date(day), xlsx.TimeOfDay(day), str(""), str("text"), xlsx.Blank()},
		{xlsx.Int(9007199254740992), xlsx.Blank(), xlsx.Blank(), xlsx.Blank(), xlsx.Blank(), xlsx.Blank(), xlsx.Error(xlsx.ErrorNA), xlsx.Blank(), xlsx.Blank()},
	}
}

// testImport runs the import checks on the database at url; want is the
// imported table as that database's driver reads it back.
func testImport(t *testing.T, url string, want []string) {
	db, err := sqlsheet.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	db.Exec(`DROP TABLE IF EXISTS imported`)
	wb := importBook(t, typedRows())
	st, err := sqlsheet.Import(ctx, db, wb, 0, sqlsheet.ImportOptions{Table: "imported"})
	if err != nil {
		t.Fatal(err)
	}
	types := make([]string, len(st.Columns))
	for i, c := range st.Columns {
		types[i] = c.Name + ":" + c.Type.String()
	}
	wantTypes := "id:integer price:float ok:boolean day:date at:timestamp clock:time name:text mixed:text col9:text"
	if strings.Join(types, " ") != wantTypes || st.Rows != 3 || st.ErrorCells != 1 {
		t.Errorf("stats %d rows, %d errors, columns %s; want %s", st.Rows, st.ErrorCells, types, wantTypes)
	}
	got := dump(t, db, "imported")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("table:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Create refuses an existing table.
	if _, err := sqlsheet.Import(ctx, db, wb, 0, sqlsheet.ImportOptions{Table: "imported"}); err == nil {
		t.Error("Create over an existing table succeeded")
	}

	// Append matches columns by name; a cell that does not fit aborts with
	// its address and leaves the table as it was.
	bad := importBook(t, [][]xlsx.Cell{
		{xlsx.String("ID"), xlsx.String("name")},
		{xlsx.Int(10), xlsx.String("ten")},
		{xlsx.String("eleven"), xlsx.String("x")},
	})
	_, err = sqlsheet.Import(ctx, db, bad, 0, sqlsheet.ImportOptions{Table: "imported", Mode: sqlsheet.Append})
	var ie *sqlsheet.ImportError
	var re *xlsx.ReadError
	if !errors.Is(err, sqlsheet.ErrBadCell) || !errors.As(err, &ie) || ie.Row != 3 || ie.Col != 1 || ie.Column == "" ||
		!strings.Contains(err.Error(), `cell A3`) || errors.As(err, &re) {
		t.Errorf("bad append: %v, want an ImportError naming A3 and its column, not a ReadError", err)
	}
	if n := len(dump(t, db, "imported")); n != 3 {
		t.Errorf("after a failed append the table has %d rows, want 3", n)
	}
	good := importBook(t, [][]xlsx.Cell{{xlsx.String("ID"), xlsx.String("name")}, {xlsx.Int(10), xlsx.String("ten")}})
	if st, err := sqlsheet.Import(ctx, db, good, 0, sqlsheet.ImportOptions{Table: "imported", Mode: sqlsheet.Append}); err != nil || st.Rows != 1 {
		t.Errorf("append: %d rows, %v", st.Rows, err)
	}

	// Replace: a failing sheet leaves the old table; a good one swaps it.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := sqlsheet.Import(cancelled, db, good, 0, sqlsheet.ImportOptions{Table: "imported", Mode: sqlsheet.Replace}); err == nil {
		t.Error("a cancelled replace succeeded")
	}
	if n := len(dump(t, db, "imported")); n != 4 {
		t.Errorf("after a failed replace the table has %d rows, want 4", n)
	}
	if st, err := sqlsheet.Import(ctx, db, good, 0, sqlsheet.ImportOptions{Table: "imported", Mode: sqlsheet.Replace, DryRun: true}); err != nil || st.Removed != 4 {
		t.Errorf("dry run of replace: %d removed (want 4), %v", st.Removed, err)
	}
	if st, err := sqlsheet.Import(ctx, db, good, 0, sqlsheet.ImportOptions{Table: "imported", Mode: sqlsheet.Replace}); err != nil || st.Rows != 1 {
		t.Errorf("replace: %d rows, %v", st.Rows, err)
	}
	if got := dump(t, db, "imported"); len(got) != 1 || got[0] != "10|ten" {
		t.Errorf("after replace: %q", got)
	}
}

func TestImportSQLite(t *testing.T) {
	testImport(t, "sqlite:"+filepath.Join(t.TempDir(), "import.db"), []string{
		`1|9.99|1|2024-02-29 00:00:00.000|2024-02-29 13:45:30.250|13:45:30.25|Grüße, "quoted"|5|no header`,
		`2|3|0|2024-03-01 00:00:00.000|2024-02-29 00:00:00.000|00:00:00|NULL|text|NULL`,
		`9007199254740992|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL`,
	})
}

func TestImportPostgres(t *testing.T) {
	testImport(t, postgresURL(t), []string{
		`1|9.99|true|2024-02-29 00:00:00.000|2024-02-29 13:45:30.250|13:45:30.25|Grüße, "quoted"|5|no header`,
		`2|3|false|2024-03-01 00:00:00.000|2024-02-29 00:00:00.000|00:00:00|NULL|text|NULL`,
		`9007199254740992|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL`,
	})
}

func TestImportMySQL(t *testing.T) {
	testImport(t, testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server"), []string{
		`1|9.99|1|2024-02-29 00:00:00.000|2024-02-29 13:45:30.250|13:45:30.250000|Grüße, "quoted"|5|no header`,
		`2|3|0|2024-03-01 00:00:00.000|2024-02-29 00:00:00.000|00:00:00.000000|NULL|text|NULL`,
		`9007199254740992|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL`,
	})
}

// TestImportAppendDefaults: appending loads only the columns the header
// names, so the table's defaults fill the rest.
func TestImportAppendDefaults(t *testing.T) {
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "defaults.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db, `CREATE TABLE people (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, note TEXT DEFAULT 'n/a')`,
		`INSERT INTO people (name) VALUES ('first')`)
	wb := importBook(t, [][]xlsx.Cell{{xlsx.String("Name")}, {xlsx.String("second")}, {xlsx.String("third")}})
	if _, err := sqlsheet.Import(context.Background(), db, wb, 0, sqlsheet.ImportOptions{Table: "people", Mode: sqlsheet.Append}); err != nil {
		t.Fatal(err)
	}
	if got := dump(t, db, "people"); strings.Join(got, ",") != "1|first|n/a,2|second|n/a,3|third|n/a" {
		t.Errorf("people: %q", got)
	}
	twice := importBook(t, [][]xlsx.Cell{{xlsx.String("name"), xlsx.String("NAME")}, {xlsx.String("a"), xlsx.String("b")}})
	if _, err := sqlsheet.Import(context.Background(), db, twice, 0, sqlsheet.ImportOptions{Table: "people", Mode: sqlsheet.Append}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a column named twice: %v", err)
	}
}

// TestImportProgress reports the rows loaded as they go in.
func TestImportProgress(t *testing.T) {
	rows := [][]xlsx.Cell{{xlsx.String("v")}}
	for i := range 20000 {
		rows = append(rows, []xlsx.Cell{xlsx.Int(int64(i))})
	}
	wb := importBook(t, rows)
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var seen []int64
	st, err := sqlsheet.Import(context.Background(), db, wb, 0, sqlsheet.ImportOptions{Table: "p", Progress: func(n int64) { seen = append(seen, n) }})
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != 20000 || len(seen) < 3 || seen[len(seen)-1] != 20000 || !slices.IsSorted(seen) {
		t.Errorf("rows %d, progress %v", st.Rows, seen)
	}
}

// TestImportSQLiteLongText loads rows whose text overflows the loader's
// batches (1 MiB of text each) again and again, with dates beside it:
// every row arrives whole and in order.
func TestImportSQLiteLongText(t *testing.T) {
	rows := [][]xlsx.Cell{{xlsx.String("id"), xlsx.String("text"), xlsx.String("day")}}
	var want []string
	day := time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)
	for i := range 150 {
		text := strings.Repeat(string(rune('a'+i%26)), 20000+i*67)
		rows = append(rows, []xlsx.Cell{xlsx.Int(int64(i)), xlsx.String(text), xlsx.Date(day.AddDate(0, 0, i))})
		want = append(want, fmt.Sprintf("%d|%s|%s", i, text, day.AddDate(0, 0, i).Format("2006-01-02 15:04:05.000")))
	}
	wb := importBook(t, rows)
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "long.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, err := sqlsheet.Import(context.Background(), db, wb, 0, sqlsheet.ImportOptions{Table: "long"})
	if err != nil || st.Rows != 150 {
		t.Fatalf("%d rows, %v", st.Rows, err)
	}
	got := dump(t, db, "long")
	if !slices.Equal(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("%d rows; row %d differs: %.60q, want %.60q", len(got), i, got[i], want[i])
			}
		}
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
}

// TestImportSparseRows loads rows that leave cells out, in the middle and
// at the end, between full rows, over several of the loader's batches
// (whose values are reused): a missing cell is NULL, never a value of an
// earlier row.
func TestImportSparseRows(t *testing.T) {
	rows := [][]xlsx.Cell{{xlsx.String("id"), xlsx.String("x"), xlsx.String("name"), xlsx.String("tag")}}
	var want []string
	for i := range 4000 {
		id, x, name, tag := xlsx.Int(int64(i)), xlsx.Float(float64(i)+0.5), xlsx.String(fmt.Sprintf("n%d", i%7)), xlsx.String(fmt.Sprintf("t%d", i))
		switch i % 7 % 3 { // a period the batches' 512 rows do not divide
		case 0:
			rows = append(rows, []xlsx.Cell{id, x, name, tag})
			want = append(want, fmt.Sprintf("%d|%g|n%d|t%d", i, float64(i)+0.5, i%7, i))
		case 1:
			rows = append(rows, []xlsx.Cell{id, {}, {}, tag})
			want = append(want, fmt.Sprintf("%d|NULL|NULL|t%d", i, i))
		case 2:
			rows = append(rows, []xlsx.Cell{id})
			want = append(want, fmt.Sprintf("%d|NULL|NULL|NULL", i))
		}
	}
	wb := importBook(t, rows)
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "sparse.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if st, err := sqlsheet.Import(context.Background(), db, wb, 0, sqlsheet.ImportOptions{Table: "sparse"}); err != nil || st.Rows != 4000 {
		t.Fatalf("%d rows, %v", st.Rows, err)
	}
	got := dump(t, db, "sparse")
	for i := range max(len(got), len(want)) {
		if i >= len(got) || i >= len(want) || got[i] != want[i] {
			t.Fatalf("%d rows, want %d; first difference at row %d", len(got), len(want), i)
		}
	}
}

// TestImportIntegerEdges appends numbers at both ends of a BIGINT's range:
// -2^63 loads, 2^63 (one past the largest) is refused, never wrapped.
func TestImportIntegerEdges(t *testing.T) {
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "edges.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db, `CREATE TABLE n (v BIGINT)`)
	low := importBook(t, [][]xlsx.Cell{{xlsx.String("v")}, {xlsx.Float(-(1 << 63))}, {xlsx.Float(1<<63 - 1024)}, {xlsx.Int(-42)}})
	if _, err := sqlsheet.Import(context.Background(), db, low, 0, sqlsheet.ImportOptions{Table: "n", Mode: sqlsheet.Append}); err != nil {
		t.Fatal(err)
	}
	if got := dump(t, db, "n"); strings.Join(got, ",") != fmt.Sprintf("%d,-42,%d", int64(math.MinInt64), int64(1<<63-1024)) {
		t.Errorf("n: %q", got)
	}
	high := importBook(t, [][]xlsx.Cell{{xlsx.String("v")}, {xlsx.Int(7)}, {xlsx.Float(1 << 63)}})
	_, err = sqlsheet.Import(context.Background(), db, high, 0, sqlsheet.ImportOptions{Table: "n", Mode: sqlsheet.Append})
	if !errors.Is(err, sqlsheet.ErrBadCell) || !strings.Contains(err.Error(), "A3") {
		t.Errorf("2^63: %v, want ErrBadCell naming A3", err)
	}
	if got := dump(t, db, "n"); len(got) != 3 {
		t.Errorf("a failed append changed the table: %q", got)
	}
}
