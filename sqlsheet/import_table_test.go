package sqlsheet_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// messyReport is a sheet as people make them: a title, a blank row, a
// note above the table, the table from B4, a note two columns right of
// a data row, a blank row and totals under it.
func messyReport(t *testing.T) *xlsx.Workbook {
	s, n := xlsx.String, xlsx.Int
	e := xlsx.Cell{}
	return importBook(t, [][]xlsx.Cell{
		{s("Quarterly report")},
		{},
		{e, e, e, e, e, s("note: figures in EUR")},
		{e, s("Region"), s("Units"), s("Revenue")},
		{e, s("North"), n(10), xlsx.Float(1250.5), e, s("checked by finance")},
		{e, s("South"), n(7), xlsx.Float(980)},
		{e, s("East"), n(3), xlsx.Float(99.25)},
		{},
		{e, s("Total"), n(20), xlsx.Float(2329.75)},
	})
}

func testMessy(t *testing.T, url string) {
	db, err := sqlsheet.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	wb := messyReport(t)
	want := []string{"East|3|99.25", "North|10|1250.5", "South|7|980"}
	for name, opts := range map[string]sqlsheet.ImportOptions{
		"range":         {Range: xlsx.Range{FirstRow: 4, FirstCol: 2, LastRow: 7, LastCol: 4}},
		"open range":    {Range: xlsx.Range{FirstRow: 4, FirstCol: 2, LastCol: 4}, StopAtEmpty: true},
		"header row":    {Range: xlsx.Range{FirstCol: 2, LastCol: 4}, HeaderRow: 4, StopAtEmpty: true},
		"auto":          {Range: xlsx.Range{FirstCol: 2, LastCol: 4}, HeaderRow: sqlsheet.HeaderAuto, StopAtEmpty: true},
		"auto, columns": {HeaderRow: sqlsheet.HeaderAuto, StopAtEmpty: true, Columns: []string{"region", "UNITS", "Revenue"}},
		// The header found bounds the columns: the note is not one.
		"auto, no range": {HeaderRow: sqlsheet.HeaderAuto, StopAtEmpty: true},
	} {
		db.Exec(`DROP TABLE IF EXISTS messy`)
		opts.Table = "messy"
		st, err := sqlsheet.Import(ctx, db, wb, 0, opts)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		names := []string{}
		for _, c := range st.Columns {
			names = append(names, c.Name+" "+c.Type.String())
		}
		if !slices.Equal(names, []string{"Region text", "Units integer", "Revenue float"}) || st.Rows != 3 {
			t.Errorf("%s: %d rows, columns %v", name, st.Rows, names)
		}
		if opts.HeaderRow == sqlsheet.HeaderAuto && st.HeaderRow != 4 {
			t.Errorf("%s: header found in row %d, want 4", name, st.HeaderRow)
		}
		if got := dump(t, db, "messy"); !slices.Equal(got, want) {
			t.Errorf("%s: table %q", name, got)
		}
	}
	// Without StopAtEmpty the totals row is data; with a header row that
	// is not one, the title's "text" meets numbers in a column.
	db.Exec(`DROP TABLE IF EXISTS messy`)
	st, err := sqlsheet.Import(ctx, db, wb, 0, sqlsheet.ImportOptions{Table: "messy", Range: xlsx.Range{FirstRow: 4, FirstCol: 2, LastCol: 4}})
	if err != nil || st.Rows != 4 {
		t.Errorf("without stop-at-empty: %d rows, %v", st.Rows, err)
	}
	db.Exec(`DROP TABLE IF EXISTS messy`)
	if _, err := sqlsheet.Import(ctx, db, wb, 0, sqlsheet.ImportOptions{Table: "messy", HeaderRow: sqlsheet.HeaderAuto, Columns: []string{"Profit"}}); err == nil {
		t.Error("a column the header does not have was accepted")
	}
}

func TestImportMessySQLite(t *testing.T) {
	testMessy(t, "sqlite:"+filepath.Join(t.TempDir(), "messy.db"))
}

func TestImportMessyPostgres(t *testing.T) { testMessy(t, postgresURL(t)) }

func TestImportMessyMySQL(t *testing.T) {
	testMessy(t, testenv.Get(t, "SHEETSTREAM_MYSQL_URL", "starts a MariaDB server"))
}

func TestParseTableRange(t *testing.T) {
	for in, want := range map[string]xlsx.Range{
		"A4:F100": {FirstRow: 4, FirstCol: 1, LastRow: 100, LastCol: 6},
		"A4:F":    {FirstRow: 4, FirstCol: 1, LastCol: 6},
		"b:d":     {FirstCol: 2, LastCol: 4},
		"C7":      {FirstRow: 7, FirstCol: 3},
		"3:10":    {FirstRow: 3, LastRow: 10},
	} {
		if got, err := sqlsheet.ParseTableRange(in); err != nil || got != want {
			t.Errorf("%q: %+v, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", ":B", "F:A", "A10:A2", "A0", "XFE1", "A1048577", "A-1", "1A", "A1:B2:C3"} {
		if _, err := sqlsheet.ParseTableRange(bad); !errors.Is(err, sqlsheet.ErrRange) {
			t.Errorf("%q: %v, want ErrRange", bad, err)
		}
	}
}

// FuzzParseTableRange: what it accepts is a range whose bounds are in
// order and inside the grid.
func FuzzParseTableRange(f *testing.F) {
	for _, s := range []string{"A4:F100", "A4:F", "B:D", "C7", "3:10", "XFD1048576"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := sqlsheet.ParseTableRange(s)
		if err != nil {
			return
		}
		if r.FirstCol > xlsx.MaxColumns || r.LastCol > xlsx.MaxColumns || r.FirstRow > xlsx.MaxRows || r.LastRow > xlsx.MaxRows ||
			r.LastCol > 0 && r.FirstCol > r.LastCol || r.LastRow > 0 && r.FirstRow > r.LastRow || r.FirstCol < 0 || r.FirstRow < 0 {
			t.Fatalf("%q: %+v", s, r)
		}
	})
}

// TestImportTypes overrides inferred types, by header, and makes every
// column text; a type for a column that is not there is an error.
func TestImportTypes(t *testing.T) {
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "types.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	wb := messyReport(t)
	base := sqlsheet.ImportOptions{HeaderRow: sqlsheet.HeaderAuto, StopAtEmpty: true}
	for name, c := range map[string]struct {
		types   map[string]sqlsheet.ColumnType
		allText bool
		want    []string
		rows    []string
	}{
		"override": {map[string]sqlsheet.ColumnType{"units": sqlsheet.ColumnFloat, " Region ": sqlsheet.ColumnText}, false,
			[]string{"Region text", "Units float", "Revenue float"}, []string{"East|3|99.25", "North|10|1250.5", "South|7|980"}},
		"all text": {nil, true, []string{"Region text", "Units text", "Revenue text"},
			[]string{"East|3|99.25", "North|10|1250.5", "South|7|980"}},
	} {
		db.Exec(`DROP TABLE IF EXISTS typed`)
		opts := base
		opts.Table, opts.Types, opts.AllText = "typed", c.types, c.allText
		st, err := sqlsheet.Import(ctx, db, wb, 0, opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got []string
		for _, col := range st.Columns {
			got = append(got, col.Name+" "+col.Type.String())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: columns %v", name, got)
		}
		if rows := dump(t, db, "typed"); !slices.Equal(rows, c.rows) {
			t.Errorf("%s: rows %q", name, rows)
		}
	}
	db.Exec(`DROP TABLE IF EXISTS typed`)
	opts := base
	opts.Table, opts.Types = "typed", map[string]sqlsheet.ColumnType{"Profit": sqlsheet.ColumnFloat}
	if _, err := sqlsheet.Import(ctx, db, wb, 0, opts); err == nil {
		t.Error("a type for a missing column was accepted")
	}
	opts.Types = map[string]sqlsheet.ColumnType{"Region": sqlsheet.ColumnInteger}
	if _, err := sqlsheet.Import(ctx, db, wb, 0, opts); !errors.Is(err, sqlsheet.ErrBadCell) {
		t.Errorf("text into an integer column: %v", err)
	}
	if typ, err := sqlsheet.ParseColumnType("Timestamp"); err != nil || typ != sqlsheet.ColumnTimestamp {
		t.Errorf("ParseColumnType: %v %v", typ, err)
	}
	if _, err := sqlsheet.ParseColumnType("money"); err == nil {
		t.Error("ParseColumnType took money")
	}
}

// TestImportMergedHeader: a header cell merged over several columns names
// each of them (Sales, Sales_2), with --header-row auto and a range, and a
// merged title above the header names nothing.
func TestImportMergedHeader(t *testing.T) {
	s, n, e := xlsx.String, xlsx.Int, xlsx.Cell{}
	wb, _ := writeBook(t, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("Report", xlsx.SheetOptions{})
		for _, r := range [][]xlsx.Cell{
			{e, s("Quarterly sales, merged over the table")},
			{e, s("Region"), s("Sales"), e, s("Note")},
			{e, s("North"), n(10), n(12), s("ok")},
			{e, s("South"), n(7), n(9)},
		} {
			if err == nil {
				err = sh.WriteRow(r)
			}
		}
		for _, m := range []xlsx.Range{{FirstRow: 1, FirstCol: 2, LastRow: 1, LastCol: 5}, {FirstRow: 2, FirstCol: 3, LastRow: 2, LastCol: 4}} {
			if err == nil {
				err = sh.MergeCells(m)
			}
		}
		return err
	})
	db, err := sqlsheet.Open("sqlite:" + filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for name, opts := range map[string]sqlsheet.ImportOptions{
		"auto":  {Table: "auto", HeaderRow: sqlsheet.HeaderAuto},
		"range": {Table: "ranged", Range: xlsx.Range{FirstRow: 2, FirstCol: 2, LastCol: 5}},
	} {
		st, err := sqlsheet.Import(context.Background(), db, wb, 0, opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var cols []string
		for _, c := range st.Columns {
			cols = append(cols, c.Name+" "+c.Type.String())
		}
		if want := []string{"Region text", "Sales integer", "Sales_2 integer", "Note text"}; !slices.Equal(cols, want) || st.Rows != 2 {
			t.Errorf("%s: %d rows, columns %v, want %v", name, st.Rows, cols, want)
		}
	}
}
