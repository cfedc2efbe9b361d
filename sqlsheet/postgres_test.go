package sqlsheet_test

import (
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
)

// postgresURL is the throwaway server the test command starts.
func postgresURL(t *testing.T) string {
	return testenv.Get(t, "SHEETSTREAM_PG_URL", "starts a PostgreSQL server")
}

// TestPostgres exports every type of the mapping from a real server and
// reads the workbook back with both readers.
func TestPostgres(t *testing.T) {
	url := postgresURL(t)
	pyread.Python(t)
	db, err := sqlsheet.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if e := sqlsheet.EngineOf(db); e != sqlsheet.EnginePostgres {
		t.Errorf("EngineOf = %v", e)
	}
	long := strings.Repeat("é", 40000)
	mustExec(t, db,
		`DROP TABLE IF EXISTS types`,
		`CREATE TABLE types (id int4, small int2, big int8, amount numeric(12,2), precise numeric, f float8,
			flag bool, day date, at timestamp, atz timestamptz, clock time, span interval, raw bytea,
			doc jsonb, uid uuid, tags text[], name text, old date)`,
		`INSERT INTO types VALUES (1, -32768, 9223372036854775807, 1234.50, 12345678901234567890.5, 0.1,
			true, '2024-02-29', '2024-02-29 13:45:30.123456', '2024-02-29 23:30:00+00', '13:45:30.5', '1 day 02:03:04',
			'\x00ff', '{"a": [1, 2]}', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{x,y}', 'Grüße', '1800-01-01')`,
		`INSERT INTO types VALUES (2, 7, -9007199254740992, -0.5, 42, 'NaN', false, '9999-12-31', '1900-01-01 00:00:00',
			'2024-06-01 12:00:00+02', '00:00:00', '1 mon', '\x', 'null', NULL, '{}', '`+long+`', NULL)`,
		`INSERT INTO types (id) VALUES (3)`,
	)
	queries := []sqlsheet.Query{
		{SQL: "SELECT * FROM types ORDER BY id", Sheet: "Types"},
		{SQL: "SELECT $1::int + 1 AS next, $2::text AS echo", Args: []any{41, "hi"}, Sheet: "Params"},
		// No cell holds an infinite date: those become text, the rest
		// of the column stays dates.
		{SQL: `SELECT * FROM (VALUES (1, DATE '2024-01-01', TIMESTAMPTZ '2024-01-01 10:00+00'), (2, 'infinity'::date, '-infinity'::timestamptz),
			(3, DATE '2024-01-02', NULL)) v(id, day, at) ORDER BY id`, Sheet: "Infinite"},
	}
	path, st := export(t, db, queries, sqlsheet.Options{Location: time.FixedZone("UTC+1", 3600), Binary: sqlsheet.BinaryBase64})
	if st.Rows != 7 {
		t.Errorf("rows %d", st.Rows)
	}
	if w := st.Warnings; w.BigNumbers != 2 || w.Truncated != 1 || w.DatesOutOfRange != 1 {
		t.Errorf("warnings %+v: want 2 big numbers, 1 truncated, 1 old date", w)
	}
	r := pyread.Read(t, path)[path]
	checkSheet(t, r, "Types", [][]*pyread.Value{
		{s("id"), s("small"), s("big"), s("amount"), s("precise"), s("f"), s("flag"), s("day"), s("at"), s("atz"),
			s("clock"), s("span"), s("raw"), s("doc"), s("uid"), s("tags"), s("name"), s("old")},
		{n(1), n(-32768), s("9223372036854775807"), n(1234.5), s("12345678901234567890.5"), n(0.1), b(true),
			d("2024-02-29T00:00:00"), d("2024-02-29T13:45:30.123000") /* Excel resolves milliseconds */, d("2024-03-01T00:30:00"), tm("13:45:30.500000"),
			dur(26*3600 + 3*60 + 4), s("AP8="), s(`{"a": [1, 2]}`), s("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), s("{x,y}"),
			s("Grüße"), s("1800-01-01")},
		{n(2), n(7), n(-9007199254740992), n(-0.5), n(42), s("NaN"), b(false), d("9999-12-31T00:00:00"),
			d("1900-01-01T00:00:00"), d("2024-06-01T11:00:00"), tm("00:00:00"), s("1 mon"), s(""), s("null"), nil, s("{}"),
			s(long[:32767*2]), nil},
		{n(3)},
	})
	checkSheet(t, r, "Params", [][]*pyread.Value{{s("next"), s("echo")}, {n(42), s("hi")}})
	infinite := [][]*pyread.Value{{s("id"), s("day"), s("at")},
		{n(1), d("2024-01-01T00:00:00"), d("2024-01-01T11:00:00")}, {n(2), s("infinity"), s("-infinity")}, {n(3), d("2024-01-02T00:00:00"), nil}}
	checkSheet(t, r, "Infinite", infinite)
	// Again without sampling, so that every row goes through the pipeline.
	path, _ = export(t, db, []sqlsheet.Query{{SQL: queries[2].SQL, Sheet: "Infinite"}},
		sqlsheet.Options{Location: time.FixedZone("UTC+1", 3600), SampleRows: -1})
	checkSheet(t, pyread.Read(t, path)[path], "Infinite", infinite)
}
