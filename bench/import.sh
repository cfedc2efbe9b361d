#!/usr/bin/env bash
# Import benchmark I1: W1 (1M rows x 10 mixed columns, as sheetstream
# writes it) loaded into a new table of SQLite, PostgreSQL and MariaDB by
# `sheetstream import`, from the XLSX file and from the same rows as CSV,
# against each database's own CSV loader (sqlite3 .import --csv, psql
# \copy, LOAD DATA LOCAL INFILE into a table of the same types) and
# DuckDB's read_xlsx into a DuckDB table, alternately, in one run.
# pandas (read_excel + to_sql into SQLite), what people do in Python, runs
# once. Every loaded table is checked: its row count, its column types
# and a typed sample of rows against the CSV.
#
#   bench/import.sh [-n runs] [-r rows]
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
"$venv/bin/python" -c 'import duckdb_extension_excel, python_calamine, pandas, openpyxl' 2>/dev/null ||
  "$venv/bin/pip" install -q --disable-pip-version-check "duckdb==1.5.5" "duckdb-extension-excel==1.5.5" python-calamine \
    "pandas==2.3.3" "openpyxl==3.1.5"
command -v sqlite3 >/dev/null || apt-get install -y -qq sqlite3 >/dev/null
mkdir -p bin out/import
go build -o bin/sswrite ./cmd/sswrite
(cd .. && go build -o bench/bin/sheetstream ./cmd/sheetstream)
dir=out/import

echo "== data: W1, $rows rows, as XLSX and CSV" >&2
bin/sswrite -workload W1 -rows "$rows" -o "$dir/w1.xlsx"
bin/sheetstream convert "$dir/w1.xlsx" "$dir/w1.csv" 2>/dev/null
eval "$(../scripts/postgres.sh)"
eval "$(../scripts/mysql.sh)"
trap '../scripts/postgres.sh stop "$SHEETSTREAM_PG_DIR"; ../scripts/mysql.sh stop "$SHEETSTREAM_MYSQL_DIR"' EXIT
my=${SHEETSTREAM_MYSQL_URL#mysql://root@}
my_port=${my%%/*}
my_port=${my_port#*:}
mariadb_bin=$(command -v mariadb)
mariadb() { "$mariadb_bin" --local-infile=1 -h 127.0.0.1 -P "$my_port" -u root sheetstream "$@"; }
export PGOPTIONS="-c client_min_messages=warning"
# Each PostgreSQL load starts on a settled server: no autovacuum of the
# table loaded just before, and its dirty pages checkpointed, so that no
# tool pays for the one before it.
psql -q "$SHEETSTREAM_PG_URL" -c "ALTER SYSTEM SET autovacuum = off" -c "SELECT pg_reload_conf()" >/dev/null
pg_settle() { psql -q "$SHEETSTREAM_PG_URL" -c "CHECKPOINT"; }
typed="col1 BIGINT, col2 BIGINT, col3 BIGINT, col4 BIGINT, col5 DOUBLE PRECISION, col6 DOUBLE PRECISION, col7 DOUBLE PRECISION, col8 TEXT, col9 TEXT, col10 TEXT"

cat > "$dir/duckdb_read.py" <<'PY'
import duckdb, duckdb_extension_excel, os, sys
ext = os.path.join(os.path.dirname(duckdb_extension_excel.__file__), "extensions", "v" + duckdb.__version__, "excel.duckdb_extension")
if os.path.exists(sys.argv[1]):
    os.remove(sys.argv[1])
con = duckdb.connect(sys.argv[1], config={"allow_unsigned_extensions": "true"})
con.execute(f"LOAD '{ext}'")
con.execute(f"CREATE TABLE t AS SELECT * FROM read_xlsx('{sys.argv[2]}')")
PY
cat > "$dir/pandas_load.py" <<'PY'
import os, sqlite3, sys
import pandas as pd
if os.path.exists(sys.argv[1]):
    os.remove(sys.argv[1])
df = pd.read_excel(sys.argv[2], engine="openpyxl")
with sqlite3.connect(sys.argv[1]) as con:
    df.to_sql("t", con, index=False)
PY

results=$dir/import.tsv
printf 'tool\trun\twall_s\tuser_s\tsys_s\tmaxrss_kb\n' > "$results"
# Every load starts with the files written before it on disk (sync), so
# that no tool pays for the write-back of the one before it: sqlite3's
# 88 MB file was still being flushed during the load that followed it.
timed() { # tool run command...
  local t=$1 run=$2
  shift 2
  sync
  /usr/bin/time -f '%e\t%U\t%S\t%M' -o "$dir/time.txt" "$@" > /dev/null 2> "$dir/err.txt" || { cat "$dir/err.txt" >&2; exit 1; }
  printf '%s\t%s\t%s\n' "$t" "$run" "$(cat "$dir/time.txt")" >> "$results"
  echo "I1 $t run $run: $(cut -f1 "$dir/time.txt")s" >&2
}
ss=bin/sheetstream
for run in $(seq 1 "$runs"); do
  rm -f "$dir"/*.db
  timed sqlite3-csv "$run" sqlite3 "$dir/floor.db" ".import --csv $dir/w1.csv t"
  timed sheetstream-sqlite-xlsx "$run" $ss import "$dir/w1.xlsx" --db "sqlite:$dir/xlsx.db" --table t
  timed sheetstream-sqlite-csv "$run" $ss import "$dir/w1.csv" --db "sqlite:$dir/csv.db" --table t
  psql -q "$SHEETSTREAM_PG_URL" -c "DROP TABLE IF EXISTS floor; CREATE TABLE floor ($typed)"
  pg_settle
  timed psql-copy-csv "$run" psql -q "$SHEETSTREAM_PG_URL" -c "\\copy floor from $dir/w1.csv csv header"
  pg_settle
  timed sheetstream-postgres-xlsx "$run" $ss import "$dir/w1.xlsx" --db "$SHEETSTREAM_PG_URL" --table t_xlsx --replace
  pg_settle
  timed sheetstream-postgres-csv "$run" $ss import "$dir/w1.csv" --db "$SHEETSTREAM_PG_URL" --table t_csv --replace
  mariadb -e "DROP TABLE IF EXISTS floor; CREATE TABLE floor (${typed//TEXT/MEDIUMTEXT}) CHARACTER SET utf8mb4"
  timed mysql-load-data-csv "$run" "$mariadb_bin" --local-infile=1 -h 127.0.0.1 -P "$my_port" -u root sheetstream \
    -e "LOAD DATA LOCAL INFILE '$dir/w1.csv' INTO TABLE floor CHARACTER SET utf8mb4 FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' IGNORE 1 LINES"
  timed sheetstream-mysql-xlsx "$run" $ss import "$dir/w1.xlsx" --db "$SHEETSTREAM_MYSQL_URL" --table t_xlsx --replace
  timed sheetstream-mysql-csv "$run" $ss import "$dir/w1.csv" --db "$SHEETSTREAM_MYSQL_URL" --table t_csv --replace
  timed duckdb-read_xlsx "$run" "$venv/bin/python" "$dir/duckdb_read.py" "$dir/duckdb.db" "$dir/w1.xlsx"
done
echo "== pandas read_excel + to_sql, once" >&2
timed pandas-sqlite 1 "$venv/bin/python" "$dir/pandas_load.py" "$dir/pandas.db" "$dir/w1.xlsx"

echo "== checking every loaded table" >&2
sample="SELECT * FROM %s WHERE col1 IN (0, 1, 7, $((rows / 2)), $((rows - 1))) ORDER BY col1"
{
  for t in xlsx csv pandas; do
    echo "sqlite-$t	$(sqlite3 "$dir/$t.db" "SELECT COUNT(*) FROM t")	$(sqlite3 "$dir/$t.db" "SELECT typeof(col1), typeof(col5), typeof(col8) FROM t LIMIT 1" | tr '|' ' ')"
    sqlite3 -csv "$dir/$t.db" "$(printf "$sample" t)" | sed "s/^/sample sqlite-$t	/"
  done
  echo "sqlite-floor	$(sqlite3 "$dir/floor.db" "SELECT COUNT(*) FROM t")	text text text"
  for t in t_xlsx t_csv floor; do
    echo "postgres-$t	$(psql -qAt "$SHEETSTREAM_PG_URL" -c "SELECT COUNT(*) FROM $t")	$(psql -qAt "$SHEETSTREAM_PG_URL" -c "SELECT pg_typeof(col1), pg_typeof(col5), pg_typeof(col8) FROM $t LIMIT 1" | tr '|' ' ')"
    psql -qA --csv -t "$SHEETSTREAM_PG_URL" -c "$(printf "$sample" $t)" | sed "s/^/sample postgres-$t	/"
    echo "mysql-$t	$(mariadb -N -e "SELECT COUNT(*) FROM $t")	$(mariadb -N -e "SELECT GROUP_CONCAT(data_type ORDER BY ordinal_position SEPARATOR ' ') FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = '$t' AND column_name IN ('col1', 'col5', 'col8')")"
    mariadb -N -e "$(printf "$sample" $t)" | tr '\t' ',' | sed "s/^/sample mysql-$t	/"
  done
  "$venv/bin/python" - "$dir/duckdb.db" "$rows" <<'PY'
import duckdb, sys
con = duckdb.connect(sys.argv[1], read_only=True)
n = con.execute("SELECT COUNT(*) FROM t").fetchone()[0]
types = [r[1] for r in con.execute("DESCRIBE t").fetchall()]
print(f"duckdb\t{n}\t{types[0]} {types[4]} {types[7]}")
PY
} > "$dir/check.txt"
python3 - "$dir/check.txt" "$dir/w1.csv" "$rows" <<'PY' >&2
import csv, sys
lines, path, rows = open(sys.argv[1]).read().splitlines(), sys.argv[2], int(sys.argv[3])
want = {}
wanted = {0, 1, 7, rows // 2, rows - 1}
with open(path) as f:
    for i, rec in enumerate(csv.reader(f)):
        if i - 1 in wanted:
            want[int(rec[0])] = rec
typed = {"sqlite": "integer real text", "postgres": "bigint double precision text",
         "mysql": "bigint double mediumtext", "duckdb": "DOUBLE DOUBLE VARCHAR"}
bad = []
for line in lines:
    if line.startswith("sample "):
        who, rec = line[7:].split("\t", 1)
        got = next(csv.reader([rec]))
        exp = want[int(float(got[0]))]
        for g, e in zip(got, exp):
            try:
                ok = abs(float(g) - float(e)) <= 1e-9 * max(1, abs(float(e)))
            except ValueError:
                ok = g == e
            if not ok:
                bad.append(f"{who}: {got} != {exp}")
                break
        continue
    who, n, types = line.split("\t")
    if int(n) != rows:
        bad.append(f"{who}: {n} rows")
    kind = who.split("-")[0]
    if "floor" not in who and "pandas" not in who and types != typed[kind]:
        bad.append(f"{who}: types {types}")
    print(f"{who}: {n} rows, types {types}")
if bad:
    sys.exit("CHECK FAILED:\n" + "\n".join(bad))
print("every table holds the rows, typed")
PY

python3 - "$results" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
runs = {}
for r in rows:
    runs.setdefault(r["tool"], []).append(r)
med = {t: statistics.median(float(r["wall_s"]) for r in rs) for t, rs in runs.items()}
rss = {t: max(int(r["maxrss_kb"]) for r in rs) / 1024 for t, rs in runs.items()}
floors = {"sqlite": "sqlite3-csv", "postgres": "psql-copy-csv", "mysql": "mysql-load-data-csv"}
print("| tool | wall s (median) | peak RSS MiB | ratio |")
print("|---|---:|---:|---|")
for t in runs:
    note = ""
    if t.startswith("sheetstream-"):
        engine = t.split("-")[1]
        floor = floors[engine]
        # Ratios of one run each, then their median: machine noise hits
        # the tools of a run alike.
        ratio = statistics.median(float(a["wall_s"]) / float(b["wall_s"]) for a, b in zip(runs[t], runs[floor]))
        note = f"{ratio:.2f}x {floor}"
        if t.endswith("xlsx"):
            note += f"; DuckDB read_xlsx takes {med['duckdb-read_xlsx'] / med[t]:.1f}x as long, pandas {med['pandas-sqlite'] / med[t]:.0f}x"
    print(f"| {t} | {med[t]:.2f} | {rss[t]:.1f} | {note} |")
PY
