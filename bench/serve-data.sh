# Sourced by serve.sh and faults.sh: the table t of $rows rows and ten
# columns in a SQLite file ($db) and in a throwaway PostgreSQL server
# ($SHEETSTREAM_PG_URL), stopped on exit with the server in $server.
# The same ten columns in both databases: id, label, a quarter of id, and
# seven more numbers, text and dates.
rm -f "$db"
python3 - "$db" "$rows" <<'PY'
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
con.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, label TEXT, quarter REAL, m7 INTEGER, m13 INTEGER, city TEXT, day DATE, at DATETIME, flag BOOLEAN, note TEXT)")
con.executemany("INSERT INTO t VALUES (?,?,?,?,?,?,?,?,?,?)", (
    (i, "row %d" % i, i * 0.25, i * 7 % 100000, i * 13 % 1000, "city-%d" % (i % 50),
     "2025-%02d-%02d" % (i % 12 + 1, i % 28 + 1), "2025-01-01 %02d:%02d:%02d" % (i % 24, i % 60, i % 60), i % 2, "x%d" % i)
    for i in range(1, int(sys.argv[2]) + 1)))
con.commit()
PY
eval "$(../scripts/postgres.sh)"
trap '../scripts/postgres.sh stop "$SHEETSTREAM_PG_DIR"; [ -n "${server:-}" ] && kill $server 2>/dev/null || true' EXIT
psql -q "$SHEETSTREAM_PG_URL" -c "DROP TABLE IF EXISTS t; CREATE TABLE t AS SELECT g AS id, 'row ' || g AS label, g * 0.25 AS quarter, g * 7 % 100000 AS m7, g * 13 % 1000 AS m13, 'city-' || (g % 50) AS city, make_date(2025, g % 12 + 1, g % 28 + 1) AS day, TIMESTAMP '2025-01-01' + make_interval(hours => g % 24, mins => g % 60, secs => g % 60) AS at, g % 2 = 1 AS flag, 'x' || g AS note FROM generate_series(1, $rows) g; ALTER TABLE t ADD PRIMARY KEY (id)"
