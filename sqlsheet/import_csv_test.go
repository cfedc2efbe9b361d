package sqlsheet_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
)

// testImportCSV loads delimited text: typed columns as convert infers
// them, a byte-order mark, quoting, a field spanning lines, a messy
// export found with HeaderAuto and StopAtEmpty, another encoding, and a
// bad field named by row and field. want is the typed table as the
// database's driver reads it back.
func testImportCSV(t *testing.T, url string, want []string) {
	db, err := sqlsheet.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	typed := "\ufeffid,amount,ratio,day,flag,note,card\n" +
		"1,1.50,0.14285714285714285,2024-02-29,true,\"a, b 中文 😀\",4111111111111111\n" +
		"2,-3,2.5e3,1999-12-31,FALSE,\"two\nlines\",\n" +
		"3,,,,,,0042\n"
	db.Exec(`DROP TABLE IF EXISTS csv_typed`)
	st, err := sqlsheet.ImportFrom(ctx, db, csvTable(t, typed, csvsheet.Options{}), sqlsheet.ImportOptions{Table: "csv_typed"})
	if err != nil {
		t.Fatal(err)
	}
	var cols []string
	for _, c := range st.Columns {
		cols = append(cols, c.Name+" "+c.Type.String())
	}
	if want := []string{"id integer", "amount float", "ratio float", "day date", "flag boolean", "note text", "card text"}; !slices.Equal(cols, want) || st.Rows != 3 {
		t.Errorf("%d rows, columns %v, want %v", st.Rows, cols, want)
	}
	if got := dump(t, db, "csv_typed"); !slices.Equal(got, want) {
		t.Errorf("typed:\n got %q\nwant %q", got, want)
	}

	// An export with a title, a blank record and totals under the table.
	messy := "Sales export,,\n,,\nRegion,Units,Revenue\nNorth,10,1250.5\nSouth,7,980\n,,\nTotal,17,2230.5\n"
	db.Exec(`DROP TABLE IF EXISTS csv_messy`)
	st, err = sqlsheet.ImportFrom(ctx, db, csvTable(t, messy, csvsheet.Options{}),
		sqlsheet.ImportOptions{Table: "csv_messy", HeaderRow: sqlsheet.HeaderAuto, StopAtEmpty: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := dump(t, db, "csv_messy"); st.HeaderRow != 3 || !slices.Equal(got, []string{"North|10|1250.5", "South|7|980"}) {
		t.Errorf("messy: header row %d, rows %q", st.HeaderRow, got)
	}

	// Windows-1252 text, tab-separated.
	db.Exec(`DROP TABLE IF EXISTS csv_latin`)
	latin := "n\tword\n1\t\xe9t\xe9 \x80\n"
	if _, err := sqlsheet.ImportFrom(ctx, db, csvTable(t, latin, csvsheet.Options{Comma: '\t'}), sqlsheet.ImportOptions{Table: "csv_latin"}); !errors.Is(err, csvsheet.ErrNotUTF8) {
		t.Errorf("windows-1252 read as UTF-8: %v", err)
	}
	if _, err := sqlsheet.ImportFrom(ctx, db, csvTable(t, latin, csvsheet.Options{Comma: '\t', Encoding: "windows-1252"}), sqlsheet.ImportOptions{Table: "csv_latin"}); err != nil {
		t.Fatal(err)
	}
	if got := dump(t, db, "csv_latin"); !slices.Equal(got, []string{"1|été €"}) {
		t.Errorf("windows-1252: %q", got)
	}

	// A field the column cannot hold: all or nothing, named by row and field.
	db.Exec(`DROP TABLE IF EXISTS csv_bad`)
	_, err = sqlsheet.ImportFrom(ctx, db, csvTable(t, "id,v\n1,2\n2,x\n", csvsheet.Options{}),
		sqlsheet.ImportOptions{Table: "csv_bad", Types: map[string]sqlsheet.ColumnType{"v": sqlsheet.ColumnInteger}})
	var ie *sqlsheet.ImportError
	if !errors.As(err, &ie) || ie.Row != 3 || ie.Col != 2 || ie.Sheet != "" || !strings.Contains(err.Error(), `row 3, field 2 (column "v")`) {
		t.Errorf("bad field: %v", err)
	}
	if _, err := db.Exec(`SELECT * FROM csv_bad`); err == nil {
		t.Error("a failed import left its table")
	}
}

func TestImportCSVSQLite(t *testing.T) {
	testImportCSV(t, "sqlite:"+filepath.Join(t.TempDir(), "csv.db"), []string{
		"1|1.5|0.14285714285714285|2024-02-29 00:00:00.000|1|a, b 中文 😀|4111111111111111",
		"2|-3|2500|1999-12-31 00:00:00.000|0|two\nlines|NULL",
		"3|NULL|NULL|NULL|NULL|NULL|0042",
	})
}

func TestImportCSVPostgres(t *testing.T) {
	testImportCSV(t, postgresURL(t), []string{
		"1|1.5|0.14285714285714285|2024-02-29 00:00:00.000|true|a, b 中文 😀|4111111111111111",
		"2|-3|2500|1999-12-31 00:00:00.000|false|two\nlines|NULL",
		"3|NULL|NULL|NULL|NULL|NULL|0042",
	})
}

func TestImportCSVMySQL(t *testing.T) {
	testImportCSV(t, testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server"), []string{
		"1|1.5|0.14285714285714285|2024-02-29 00:00:00.000|1|a, b 中文 😀|4111111111111111",
		"2|-3|2500|1999-12-31 00:00:00.000|0|two\nlines|NULL",
		"3|NULL|NULL|NULL|NULL|NULL|0042",
	})
}

// TestImportCSVTextAsWritten: a column that mixes kinds loads as text,
// and each field as the file writes it, not as its inferred value spells
// itself again ("2024-01-15" stays, not "2024-01-15T00:00:00"; "true",
// "1.50", "1e3" too), through the one-pass load and the spooled one.
func TestImportCSVTextAsWritten(t *testing.T) {
	text := "due,flag,amount\n2024-01-15,true,1.50\nTBD,maybe,n/a\n15:30,False,1e3\n2024-01-15T08:00:00.5,TRUE,0.1000\n"
	want := []string{"15:30|False|1e3", "2024-01-15|true|1.50", "2024-01-15T08:00:00.5|TRUE|0.1000", "TBD|maybe|n/a"}
	for _, maxErrors := range []int{0, 1} { // MaxErrors takes the two-pass way
		db, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "text.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		st, err := sqlsheet.ImportFrom(context.Background(), db, csvTable(t, text, csvsheet.Options{}), sqlsheet.ImportOptions{Table: "mixed", MaxErrors: maxErrors})
		if err != nil || len(st.Columns) != 3 || st.Columns[0].Type != sqlsheet.ColumnText {
			t.Fatalf("%+v, %v", st, err)
		}
		if got := dump(t, db, "mixed"); !slices.Equal(got, want) {
			t.Errorf("MaxErrors %d: rows %q, want %q", maxErrors, got, want)
		}
	}
}

// TestImportCSVMicroseconds loads timestamps and times with microseconds
// from CSV into a new table of each database and reads them back as
// text: a sheet's dates keep milliseconds, a CSV's keep what they have.
func TestImportCSVMicroseconds(t *testing.T) {
	text := "id,at,clock\n1,2024-01-01 08:00:00.123456,08:00:00.654321\n2,1999-12-31T23:59:59.5,23:59:59\n"
	for _, target := range []struct {
		engine sqlsheet.Engine
		query  string
		want   []string
	}{
		{sqlsheet.EngineSQLite, "SELECT CAST(at AS TEXT), CAST(clock AS TEXT) FROM us ORDER BY id",
			[]string{"2024-01-01 08:00:00.123456|08:00:00.654321", "1999-12-31 23:59:59.5|23:59:59"}},
		{sqlsheet.EnginePostgres, "SELECT at::text, clock::text FROM us ORDER BY id",
			[]string{"2024-01-01 08:00:00.123456|08:00:00.654321", "1999-12-31 23:59:59.5|23:59:59"}},
		{sqlsheet.EngineMySQL, "SELECT CAST(at AS CHAR), CAST(clock AS CHAR) FROM us ORDER BY id",
			[]string{"2024-01-01 08:00:00.123456|08:00:00.654321", "1999-12-31 23:59:59.500000|23:59:59.000000"}},
	} {
		t.Run(target.engine.String(), func(t *testing.T) {
			db := openEngine(t, target.engine)
			mustExec(t, db, "DROP TABLE IF EXISTS us")
			st, err := sqlsheet.ImportFrom(context.Background(), db, csvTable(t, text, csvsheet.Options{}), sqlsheet.ImportOptions{Table: "us"})
			if err != nil || st.Rows != 2 {
				t.Fatalf("%+v, %v", st, err)
			}
			if got := queryRows(t, db, target.query); !slices.Equal(got, target.want) {
				t.Errorf("rows %q, want %q", got, target.want)
			}
		})
	}
}
