#!/usr/bin/env bash
# Load test of sheetstream serve: 64 concurrent downloads of a 100K-row x
# 10-column export, from SQLite and from PostgreSQL (a throwaway server,
# as the tests start one). Every file is validated with python-calamine;
# the server's peak RSS, throughput, and p50/p99 time to first byte and
# total time are printed as a markdown table.
#
#   bench/serve.sh [-c concurrency] [-r rows]
set -euo pipefail
cd "$(dirname "$0")"
conc=64
rows=100000
while getopts "c:r:" opt; do
  case $opt in
    c) conc=$OPTARG ;;
    r) rows=$OPTARG ;;
    *) exit 2 ;;
  esac
done
cache="${XDG_CACHE_HOME:-$HOME/.cache}/sheetstream"
venv="$cache/bench-venv"
[ -x "$venv/bin/python" ] || { python3 -m venv "$venv"; "$venv/bin/pip" install -q python-calamine; }
mkdir -p bin out/serve
go build -o bin/ ./cmd/loadtest
(cd .. && go build -o bench/bin/sheetstream ./cmd/sheetstream)

# The same ten columns in both databases: id, label, a quarter of id, and
# seven more numbers, text and dates.
db=out/serve/load.db
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
eval "$(PATH="$PATH:/usr/lib/postgresql/15/bin" ../scripts/postgres.sh)"
trap 'PATH="$PATH:/usr/lib/postgresql/15/bin" ../scripts/postgres.sh stop "$SHEETSTREAM_PG_DIR"; [ -n "${server:-}" ] && kill $server 2>/dev/null || true' EXIT
psql -q "$SHEETSTREAM_PG_URL" -c "DROP TABLE IF EXISTS t; CREATE TABLE t AS SELECT g AS id, 'row ' || g AS label, g * 0.25 AS quarter, g * 7 % 100000 AS m7, g * 13 % 1000 AS m13, 'city-' || (g % 50) AS city, make_date(2025, g % 12 + 1, g % 28 + 1) AS day, TIMESTAMP '2025-01-01' + make_interval(hours => g % 24, mins => g % 60, secs => g % 60) AS at, g % 2 = 1 AS flag, 'x' || g AS note FROM generate_series(1, $rows) g; ALTER TABLE t ADD PRIMARY KEY (id)"
cat > out/serve/config.yaml <<YAML
max_concurrent: $conc
exports:
  - name: sqlite
    database: sqlite:$PWD/$db
    sheets: [{name: Data, sql: SELECT * FROM t ORDER BY id}]
  - name: postgres
    database: "$SHEETSTREAM_PG_URL"
    sheets: [{name: Data, sql: SELECT * FROM t ORDER BY id}]
YAML
echo "| database | downloads at once | wall s | MiB/s | TTFB p50 s | TTFB p99 s | total p50 s | total p99 s | server peak RSS MiB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for name in sqlite postgres; do
  # A fresh server per database, so that each peak RSS is its own.
  bin/sheetstream serve --config out/serve/config.yaml --listen 127.0.0.1:18181 2>"out/serve/server-$name.log" &
  server=$!
  for _ in $(seq 50); do curl -sf http://127.0.0.1:18181/healthz >/dev/null && break; sleep 0.1; done
  rm -rf "out/serve/$name"
  line=$(bin/loadtest -url "http://127.0.0.1:18181/exports/$name.xlsx" -c "$conc" -pid "$server" -out "out/serve/$name")
  echo "| $name | $(echo "$line" | tr '\t' '|' | sed 's/|/ | /g') |"
  kill "$server"; wait "$server" 2>/dev/null || true
  "$venv/bin/python" python/validate_downloads.py "$rows" out/serve/$name/*.xlsx >&2
done
