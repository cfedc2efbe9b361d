package sqlsheet

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/testenv"
)

// readAll runs a query on the session and reads every row's values as
// text, saying whether it went through COPY.
func readAll(t *testing.T, s *pgSession, q Query) (rows []string, copied bool) {
	t.Helper()
	ctx := context.Background()
	r, err := s.query(ctx, q, "S")
	if err != nil {
		t.Fatal(err)
	}
	_, copied = r.(*copyResult)
	cols := make([]*column, len(r.columns()))
	for i, c := range r.columns() {
		cols[i] = &column{name: c.name}
	}
	for r.Next() {
		if err := r.scan(cols); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, c := range cols {
			v := c.val
			fmt.Fprintf(&b, "%d:%d/%v/%q/%v|", v.tag, v.i, v.f, v.b, v.t)
		}
		rows = append(rows, b.String())
	}
	if err := r.end(r.Err()); err != nil {
		t.Fatal(err)
	}
	return rows, copied
}

// TestPostgresCopy: a query's rows read through COPY ... (FORMAT binary)
// equal, value by value, those read through pgx's rows (every type COPY
// is used for, NULLs, numerics of every shape, infinite dates, long and
// multi-byte text, more rows than a chunk holds); a query with
// parameters, or a column of another type, goes through rows; a
// statement COPY refuses falls back to rows inside the read-only
// transaction, which stays usable.
func TestPostgresCopy(t *testing.T) {
	db, err := Open(testenv.Get(t, "SHEETSTREAM_PG_URL", "starts a PostgreSQL server"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	var version int
	if err := db.QueryRow("SHOW server_version_num").Scan(&version); err != nil {
		t.Fatal(err)
	}
	numerics := []string{"0", "0.0", "0.00000", "-0.5", "1", "10000", "9999.9999", "0.0001", "0.00001", "100000000",
		"123456789012345678901234567890.123456789", "-0.00000000000000000001", "1.50", "-12345.6789000", "NaN", "99999999.99999999"}
	if version >= 140000 {
		numerics = append(numerics, "Infinity", "-Infinity")
	}
	var values []string
	for i, n := range numerics {
		values = append(values, fmt.Sprintf("(%d, '%s'::numeric)", i, n))
	}
	table := `SELECT g AS id, g::int2 % 100 AS small, g * 1000000007::int8 AS big, (g / 7.0)::float4 AS f4, g / 3.0::float8 AS f8,
		(g * 1.25)::numeric(12,2) AS amount, g % 3 = 0 AS flag, DATE '2000-01-01' + g % 9000 AS day,
		TIMESTAMP '2020-02-29 13:45:30.123456' + g * INTERVAL '1 minute' AS at, TIMESTAMPTZ '2024-01-01 00:00+00' + g * INTERVAL '1 hour' AS atz,
		decode(md5(g::text), 'hex') AS raw, jsonb_build_object('g', g, 'é', 'ü') AS doc, md5(g::text)::uuid AS uid,
		repeat('Grüße ', g % 50) AS name, ('c' || g % 10)::varchar(5) AS code, NULLIF(g % 4, 0) AS maybe, 'x'::char(3) AS padded
		FROM generate_series(1, 20000) g`
	withPostgres(ctx, db, Options{ReadOnly: true}, func(sess session) error {
		s := sess.(*pgSession)
		for _, q := range []string{
			table + " ORDER BY g",
			"SELECT * FROM (VALUES " + strings.Join(values, ", ") + ") v(i, n) ORDER BY i",
			"SELECT 'infinity'::date AS d, '-infinity'::timestamp AS t, NULL::numeric AS n, ''::text AS e;",
			"SELECT 1 AS one -- a trailing comment",
		} {
			viaCopy, copied := readAll(t, s, Query{SQL: q})
			if !copied {
				t.Fatalf("not through COPY: %.80s", q)
			}
			// The same through rows: a parameter keeps COPY away.
			viaRows, copied := readAll(t, s, Query{SQL: "SELECT * FROM (" + strings.TrimRight(strings.TrimSpace(strings.Split(q, "--")[0]), ";") + "\n) q WHERE $1::int = 1", Args: []any{1}})
			if copied {
				t.Fatal("a query with parameters went through COPY")
			}
			if len(viaCopy) != len(viaRows) || len(viaCopy) == 0 {
				t.Fatalf("%d rows through COPY, %d through rows: %.80s", len(viaCopy), len(viaRows), q)
			}
			for i := range viaCopy {
				if viaCopy[i] != viaRows[i] {
					t.Fatalf("row %d of %.60s\nCOPY %s\nrows %s", i+1, q, viaCopy[i], viaRows[i])
				}
			}
		}
		// The numerics' text is the server's own.
		var texts []string
		rows, err := db.Query("SELECT n::text FROM (VALUES " + strings.Join(values, ", ") + ") v(i, n) ORDER BY i")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			rows.Scan(&s)
			texts = append(texts, s)
		}
		rows.Close()
		got, _ := readAll(t, s, Query{SQL: "SELECT n FROM (VALUES " + strings.Join(values, ", ") + ") v(i, n) ORDER BY i"})
		for i, text := range texts {
			if !strings.Contains(got[i], fmt.Sprintf("%q", text)) {
				t.Errorf("numeric %s: %s, the server writes %q", numerics[i], got[i], text)
			}
		}
		// Another type: rows. A statement COPY refuses: rows, and the
		// transaction goes on.
		if _, copied := readAll(t, s, Query{SQL: "SELECT INTERVAL '1 day' AS span"}); copied {
			t.Error("an interval went through COPY")
		}
		if got, copied := readAll(t, s, Query{SQL: "SHOW server_version_num"}); copied || len(got) != 1 {
			t.Errorf("SHOW: %v, copied %v", got, copied)
		}
		if got, _ := readAll(t, s, Query{SQL: "SELECT 41 + 1 AS n"}); len(got) != 1 || !strings.HasPrefix(got[0], "1:42/") {
			t.Errorf("after the refused COPY: %v", got)
		}
		return nil
	})
}

// FuzzCopyStream: the binary copy reader cuts any byte stream into rows
// or fails with an error, never a panic or a row of the wrong width.
func FuzzCopyStream(f *testing.F) {
	tuple := func(fields ...[]byte) []byte {
		b := binary.BigEndian.AppendUint16(nil, uint16(len(fields)))
		for _, v := range fields {
			if v == nil {
				b = binary.BigEndian.AppendUint32(b, 0xffffffff)
				continue
			}
			b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
			b = append(b, v...)
		}
		return b
	}
	head := append(append([]byte{}, copySignature...), 0, 0, 0, 0, 0, 0, 0, 0)
	ok := append(append(append(append([]byte{}, head...), tuple([]byte{0, 0, 0, 7}, nil)...), tuple([]byte{0, 0, 0, 8}, []byte("x"))...), 0xff, 0xff)
	f.Add(ok, 3)
	f.Add(ok[:len(ok)-2], 1)
	f.Add(append(append([]byte{}, head...), 0, 5), 2)
	f.Fuzz(func(t *testing.T, data []byte, split int) {
		r := &copyResult{oids: []uint32{23, 25}, scratch: make([][]byte, 2), chunks: make(chan []byte, len(data)+1), done: make(chan error, 1), free: make(chan []byte, 4)}
		if split <= 0 {
			split = 1
		}
		for len(data) > 0 {
			n := min(split, len(data))
			r.chunks <- bytes.Clone(data[:n])
			data = data[n:]
		}
		close(r.chunks)
		r.done <- nil
		cols := []*column{{name: "a"}, {name: "b"}}
		for r.Next() {
			if len(r.fields) != 2 {
				t.Fatalf("a row of %d fields", len(r.fields))
			}
			r.scan(cols)
		}
	})
}

// FuzzNumericText: any numeric's binary form becomes digits, a sign and
// a point, or the special values, or an error.
func FuzzNumericText(f *testing.F) {
	f.Add([]byte{0, 2, 0, 1, 0, 0, 0, 4, 0, 12, 0x04, 0xd2})
	f.Add([]byte{0, 0, 0, 0, 0xc0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, v []byte) {
		b, err := appendNumericText(nil, v)
		if err != nil {
			return
		}
		s := string(b)
		if s == "NaN" || s == "Infinity" || s == "-Infinity" {
			return
		}
		for i, c := range s {
			if !(c >= '0' && c <= '9' || c == '.' || c == '-' && i == 0) {
				t.Fatalf("%q from %v", s, v)
			}
		}
	})
}
