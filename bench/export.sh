#!/usr/bin/env bash
# Export benchmark E1: 1,000,000 rows x 10 columns (integers, floats, text
# and a date) from SQLite and from PostgreSQL to XLSX with `sheetstream
# export`, against the CSV floors (sqlite3 -csv, psql \copy ... to stdout
# csv) and DuckDB's xlsx COPY (its excel extension, from PyPI, over the
# same rows in a DuckDB table), alternately, in one run. E2: 1,100,000
# rows from SQLite, which must roll over to a second sheet; python-calamine
# counts the rows of both.
#
#   bench/export.sh [-n runs] [-r rows]
set -euo pipefail
cd "$(dirname "$0")"
runs=3
rows=1000000
while getopts "n:r:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    r) rows=$OPTARG ;;
    *) exit 2 ;;
  esac
done
cache="${XDG_CACHE_HOME:-$HOME/.cache}/sheetstream"
venv="$cache/bench-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import duckdb_extension_excel, python_calamine' 2>/dev/null ||
  "$venv/bin/pip" install -q --disable-pip-version-check "duckdb==1.5.5" "duckdb-extension-excel==1.5.5" python-calamine
command -v sqlite3 >/dev/null || apt-get install -y -qq sqlite3 >/dev/null
mkdir -p bin out/export
(cd .. && go build -o bench/bin/sheetstream ./cmd/sheetstream)
dir=out/export

# The same rows in every database: i from 0.
cols="i AS id, i * 7 % 100000 AS a, i * 13 % 1000 AS b, i * 31 % 1000000 AS c, i * 1.25 + 0.5 AS ratio,
  (i % 100) / 100.0 AS pct, 1.0 / (i % 7 + 1) AS frac, 'name-' || i AS name, 'city-' || (i % 100) AS city"
sqlite_table() { # db rows
  rm -f "$1"
  sqlite3 "$1" "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, c INTEGER, ratio REAL, pct REAL, frac REAL, name TEXT, city TEXT, day DATE);
    INSERT INTO t WITH RECURSIVE g(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM g WHERE i < $2 - 1)
    SELECT $cols, date('2000-01-01', '+' || (i % 9000) || ' days') FROM g;"
}
echo "== data: $rows rows" >&2
sqlite_table "$dir/e1.db" "$rows"
"$venv/bin/python" - "$dir/e1.duckdb" "$rows" "$cols" <<'PY'
import duckdb, os, sys
path, rows, cols = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if os.path.exists(path):
    os.remove(path)
con = duckdb.connect(path)
con.execute(f"CREATE TABLE t AS SELECT {cols}, DATE '2000-01-01' + CAST(i % 9000 AS INTEGER) AS day FROM (SELECT range AS i FROM range({rows}))")
PY
eval "$(../scripts/postgres.sh)"
trap '../scripts/postgres.sh stop "$SHEETSTREAM_PG_DIR"' EXIT
psql -q "$SHEETSTREAM_PG_URL" -c "DROP TABLE IF EXISTS t; CREATE TABLE t AS SELECT $cols, DATE '2000-01-01' + i % 9000 AS day FROM generate_series(0, $rows - 1) i; ALTER TABLE t ADD PRIMARY KEY (id);" 2>/dev/null

cat > "$dir/duckdb_copy.py" <<'PY'
import duckdb, duckdb_extension_excel, os, sys
ext = os.path.join(os.path.dirname(duckdb_extension_excel.__file__), "extensions", "v" + duckdb.__version__, "excel.duckdb_extension")
con = duckdb.connect(sys.argv[1], read_only=True, config={"allow_unsigned_extensions": "true"})
con.execute(f"LOAD '{ext}'")
con.execute(f"COPY (SELECT * FROM t ORDER BY id) TO '{sys.argv[2]}' (FORMAT xlsx, HEADER true)")
PY
results=$dir/export.tsv
printf 'tool\trun\twall_s\tuser_s\tsys_s\tmaxrss_kb\n' > "$results"
for run in $(seq 1 "$runs"); do
  for t in sqlite3-csv sheetstream-sqlite psql-csv sheetstream-postgres duckdb-xlsx; do
    case $t in
      sqlite3-csv) /usr/bin/time -f '%e\t%U\t%S\t%M' -o "$dir/time.txt" sqlite3 -csv -header "$dir/e1.db" "SELECT * FROM t ORDER BY id" > "$dir/e1.csv" ;;
      psql-csv) /usr/bin/time -f '%e\t%U\t%S\t%M' -o "$dir/time.txt" psql -q "$SHEETSTREAM_PG_URL" -c "\\copy (SELECT * FROM t ORDER BY id) to stdout csv header" > "$dir/e1-pg.csv" ;;
      sheetstream-sqlite) /usr/bin/time -f '%e\t%U\t%S\t%M' -o "$dir/time.txt" bin/sheetstream export --db "sqlite:$dir/e1.db" --query "SELECT * FROM t ORDER BY id" -o "$dir/e1-sqlite.xlsx" 2>/dev/null ;;
      sheetstream-postgres) /usr/bin/time -f '%e\t%U\t%S\t%M' -o "$dir/time.txt" bin/sheetstream export --db "$SHEETSTREAM_PG_URL" --query "SELECT * FROM t ORDER BY id" -o "$dir/e1-pg.xlsx" 2>/dev/null ;;
      duckdb-xlsx) rm -f "$dir/e1-duckdb.xlsx"; /usr/bin/time -f '%e\t%U\t%S\t%M' -o "$dir/time.txt" "$venv/bin/python" "$dir/duckdb_copy.py" "$dir/e1.duckdb" "$dir/e1-duckdb.xlsx" ;;
    esac
    printf '%s\t%s\t%s\n' "$t" "$run" "$(cat "$dir/time.txt")" >> "$results"
    echo "E1 $t run $run: $(cut -f1 "$dir/time.txt")s" >&2
  done
done
"$venv/bin/python" - "$rows" "$dir" <<'PY' >&2
import python_calamine, sys
rows, d = int(sys.argv[1]), sys.argv[2]
for f in ("e1-sqlite.xlsx", "e1-pg.xlsx", "e1-duckdb.xlsx"):
    data = python_calamine.CalamineWorkbook.from_path(f"{d}/{f}").get_sheet_by_index(0).to_python()
    assert len(data) == rows + 1, (f, len(data))
    assert [int(v) for v in data[rows][:4]] == [rows - 1, (rows - 1) * 7 % 100000, (rows - 1) * 13 % 1000, (rows - 1) * 31 % 1000000], (f, data[rows])
print("E1 outputs valid: %d rows each" % rows)
PY

echo "== E2: rollover past 1,048,576 rows" >&2
sqlite_table "$dir/e2.db" 1100000
/usr/bin/time -f '%e\t%U\t%S\t%M' -o "$dir/time.txt" bin/sheetstream export --db "sqlite:$dir/e2.db" --table t --sheet Data -o "$dir/e2.xlsx" 2>/dev/null
e2=$(cut -f1,4 "$dir/time.txt")
"$venv/bin/python" - "$dir/e2.xlsx" <<'PY' >&2
import python_calamine, sys
wb = python_calamine.CalamineWorkbook.from_path(sys.argv[1])
sizes = [len(wb.get_sheet_by_name(n).to_python()) for n in wb.sheet_names]
assert wb.sheet_names == ["Data", "Data (2)"] and sizes == [1048576, 1100000 - 1048575 + 1], (wb.sheet_names, sizes)
print("E2 valid: sheets %s with %s rows (headers included)" % (wb.sheet_names, sizes))
PY

python3 - "$results" "$e2" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
med = {}
for t in dict.fromkeys(r["tool"] for r in rows):
    rs = [r for r in rows if r["tool"] == t]
    med[t] = (statistics.median(float(r["wall_s"]) for r in rs), max(int(r["maxrss_kb"]) for r in rs) / 1024)
print("| tool | wall s (median) | peak RSS MiB | ratio |")
print("|---|---:|---:|---|")
ratios = {"sheetstream-sqlite": "sqlite3-csv", "sheetstream-postgres": "psql-csv"}
for t, (wall, rss) in med.items():
    note = ""
    if t in ratios:
        note = "%.2fx its CSV floor; DuckDB takes %.1fx as long" % (wall / med[ratios[t]][0], med["duckdb-xlsx"][0] / wall)
    print("| %s | %.2f | %.1f | %s |" % (t, wall, rss, note))
wall, rss = sys.argv[2].split("\t")
print("| E2: sheetstream-sqlite, 1,100,000 rows -> Data, Data (2) | %s | %.1f | |" % (wall, int(rss) / 1024))
PY
