package sqlsheet_test

import (
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/sqlsheet"
)

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
		{pyread.Str("id"), pyread.Str("small"), pyread.Str("big"), pyread.Str("amount"), pyread.Str("precise"), pyread.Str("f"), pyread.Str("flag"), pyread.Str("day"), pyread.Str("at"), pyread.Str("atz"),
			pyread.Str("clock"), pyread.Str("span"), pyread.Str("raw"), pyread.Str("doc"), pyread.Str("uid"), pyread.Str("tags"), pyread.Str("name"), pyread.Str("old")},
		{pyread.Num(1), pyread.Num(-32768), pyread.Str("9223372036854775807"), pyread.Num(1234.5), pyread.Str("12345678901234567890.5"), pyread.Num(0.1), pyread.Bool(true),
			pyread.DateTime("2024-02-29T00:00:00"), pyread.DateTime("2024-02-29T13:45:30.123000") /* Excel resolves milliseconds */, pyread.DateTime("2024-03-01T00:30:00"), pyread.TimeOfDay("13:45:30.500000"),
			pyread.Duration(26*3600 + 3*60 + 4), pyread.Str("AP8="), pyread.Str(`{"a": [1, 2]}`), pyread.Str("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), pyread.Str("{x,y}"),
			pyread.Str("Grüße"), pyread.Str("1800-01-01")},
		{pyread.Num(2), pyread.Num(7), pyread.Num(-9007199254740992), pyread.Num(-0.5), pyread.Num(42), pyread.Str("NaN"), pyread.Bool(false), pyread.DateTime("9999-12-31T00:00:00"),
			pyread.DateTime("1900-01-01T00:00:00"), pyread.DateTime("2024-06-01T11:00:00"), pyread.TimeOfDay("00:00:00"), pyread.Str("1 mon"), pyread.Str(""), pyread.Str("null"), nil, pyread.Str("{}"),
			pyread.Str(long[:32767*2]), nil},
		{pyread.Num(3)},
	})
	checkSheet(t, r, "Params", [][]*pyread.Value{{pyread.Str("next"), pyread.Str("echo")}, {pyread.Num(42), pyread.Str("hi")}})
	infinite := [][]*pyread.Value{{pyread.Str("id"), pyread.Str("day"), pyread.Str("at")},
		{pyread.Num(1), pyread.DateTime("2024-01-01T00:00:00"), pyread.DateTime("2024-01-01T11:00:00")}, {pyread.Num(2), pyread.Str("infinity"), pyread.Str("-infinity")}, {pyread.Num(3), pyread.DateTime("2024-01-02T00:00:00"), nil}}
	checkSheet(t, r, "Infinite", infinite)
	// Again without sampling, so that every row goes through the pipeline.
	path, _ = export(t, db, []sqlsheet.Query{{SQL: queries[2].SQL, Sheet: "Infinite"}},
		sqlsheet.Options{Location: time.FixedZone("UTC+1", 3600), SampleRows: -1})
	checkSheet(t, pyread.Read(t, path)[path], "Infinite", infinite)
}
