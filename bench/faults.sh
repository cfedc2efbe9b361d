#!/usr/bin/env bash
# Fault and load run of sheetstream serve, from SQLite and from PostgreSQL
# (a throwaway server with its default max_connections of 100):
#
#   load:   256 downloads at once of a 20,000-row export;
#   faults: 64 downloads at once of a 100,000-row export, plus 8 clients
#           that stop reading after the headers (of a 400,000-row export,
#           more than socket buffers hold), 8 that disconnect after 64 KiB,
#           and (PostgreSQL) the backends of 4 running downloads killed
#           one second in;
#   held:   (SQLite) 4, then 200 clients that announce a request body
#           they never send, with max_concurrent: 4, and then 200
#           connections that send nothing, each beside 8 downloads.
#
# Every download a client read to a clean end is validated with
# python-calamine; one that ended otherwise must have been seen by its
# client as a failed transfer. Printed as markdown tables: how downloads
# ended, time to recover (until no download is in flight after the last
# good one ended: the stalled clients' slots are freed by write_timeout),
# a download right after, peak server RSS, goroutines before and after.
#
#   bench/faults.sh [-l load-rows] [-f fault-rows] [-s (no load)] [-b (held only)]
set -euo pipefail
cd "$(dirname "$0")"
load_rows=20000
fault_rows=100000
skip_load=
held_only=
while getopts "l:f:sb" opt; do
  case $opt in
    l) load_rows=$OPTARG ;;
    f) fault_rows=$OPTARG ;;
    s) skip_load=1 ;;
    b) held_only=1; skip_load=1 ;;
    *) exit 2 ;;
  esac
done
cache="${XDG_CACHE_HOME:-$HOME/.cache}/sheetstream"
venv="$cache/bench-venv"
[ -x "$venv/bin/python" ] || { python3 -m venv "$venv"; "$venv/bin/pip" install -q python-calamine; }
mkdir -p bin out/faults
go build -o bin/ ./cmd/loadtest
(cd .. && go build -o bench/bin/sheetstream ./cmd/sheetstream)
port=18182
base="http://127.0.0.1:$port"

start_server() { # config name
  bin/sheetstream serve --config "$1" --listen 127.0.0.1:$port 2>"out/faults/server-$2.log" &
  server=$!
  for _ in $(seq 50); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.1; done
}
stop_server() {
  kill "$server"; wait "$server" 2>/dev/null || true
  server=
}
config() { # file
  cat > "$1" <<YAML
max_concurrent: 256
queue_timeout: 300s
write_timeout: 5s
exports:
  - name: sqlite
    database: sqlite:$PWD/$db
    sheets: [{name: Data, sql: SELECT * FROM t ORDER BY id}]
  - name: postgres
    database: "$SHEETSTREAM_PG_URL&application_name=sheetstream_bench"
    sheets: [{name: Data, sql: SELECT * FROM t ORDER BY id}]
  # Four times the rows, for the clients that stop reading: more than the
  # kernel's socket buffers hold, so that the server must notice them.
  - name: sqlite4
    database: sqlite:$PWD/$db
    sheets: [{name: Data, sql: "SELECT t.* FROM t, (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4) ORDER BY id"}]
  - name: postgres4
    database: "$SHEETSTREAM_PG_URL&application_name=sheetstream_bench"
    sheets: [{name: Data, sql: "SELECT t.* FROM t, generate_series(1, 4) ORDER BY id"}]
YAML
}

# Load: 256 at once.
if [ -z "$skip_load" ]; then
rows=$load_rows
db=out/faults/load.db
. ./serve-data.sh
config out/faults/load.yaml
psql -Atq "$SHEETSTREAM_PG_URL" -c "SHOW max_connections" | sed 's/^/PostgreSQL max_connections: /' >&2
echo "| database | downloads at once | rows each | wall s | MiB/s | TTFB p50 s | TTFB p99 s | total p50 s | total p99 s | server peak RSS MiB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for name in sqlite postgres; do
  start_server out/faults/load.yaml "load-$name"
  rm -rf "out/faults/load-$name"
  line=$(bin/loadtest -url "$base/exports/$name.xlsx" -c 256 -pid "$server" -out "out/faults/load-$name")
  stop_server
  c=$(echo "$line" | cut -f1); rest=$(echo "$line" | cut -f2-)
  echo "| $name | $c | $rows | $(echo "$rest" | tr '\t' '|' | sed 's/|/ | /g') |"
  "$venv/bin/python" python/validate_downloads.py "$rows" out/faults/load-$name/*.xlsx >&2
done
../scripts/postgres.sh stop "$SHEETSTREAM_PG_DIR"
trap - EXIT
fi

# Faults.
if [ -z "$held_only" ]; then
echo
rows=$fault_rows
db=out/faults/faults.db
. ./serve-data.sh
config out/faults/faults.yaml
# Kill 4 backends while they send rows (state active), retrying for up to
# 6 s: a backend that has sent all its rows waits idle in its transaction,
# and killing it then would not cut a download.
kill_cmd="k=0; for i in \$(seq 30); do n=\$(psql -Atq '$SHEETSTREAM_PG_URL' -c \"SELECT count(pg_terminate_backend(pid)) FROM (SELECT pid FROM pg_stat_activity WHERE application_name = 'sheetstream_bench' AND state = 'active' AND query = 'SELECT * FROM t ORDER BY id' LIMIT \$((4 - k))) s\"); k=\$((k + n)); [ \$k -ge 4 ] && break; sleep 0.2; done; echo PostgreSQL backends killed: \$k"
echo "| database | clients | how the downloads ended | wall s | recovered after s | peak RSS MiB | a download after | goroutines before -> after |"
echo "|---|---|---|---:|---:|---:|---|---|"
for name in sqlite postgres; do
  start_server out/faults/faults.yaml "faults-$name"
  rm -rf "out/faults/faults-$name"
  extra=()
  clients="64 + 8 stalled + 8 dropped"
  if [ "$name" = postgres ]; then
    extra=(-kill-after 1s -kill-cmd "$kill_cmd")
    clients="$clients, 4 backends killed"
  fi
  line=$(bin/loadtest -url "$base/exports/$name.xlsx" -stall-url "$base/exports/${name}4.xlsx" -c 64 -stall 8 -drop 8 "${extra[@]}" -metrics "$base/metrics" -pid "$server" -out "out/faults/faults-$name")
  stop_server
  echo "| $name | $clients | $(echo "$line" | tr '\t' '|' | sed 's/|/ | /g') |"
  shopt -s nullglob
  complete=(out/faults/faults-$name/*.xlsx)
  "$venv/bin/python" python/validate_downloads.py "$rows" "${complete[@]}" >&2
  { grep -c "export abandoned" "out/faults/server-faults-$name.log" || true; } | sed "s/^/$name: stalled downloads abandoned by the server: /" >&2
done
fi

# Held connections: bodies never sent, and connections that send nothing.
echo
rows=20000
db=out/faults/held.db
. ./serve-data.sh
cat > out/faults/held.yaml <<YAML
max_concurrent: 4
write_timeout: 5s
exports:
  - name: sqlite
    database: sqlite:$PWD/$db
    sheets: [{name: Data, sql: SELECT * FROM t ORDER BY id}]
YAML
echo "| case | body clients answered | 8 downloads beside them | peak open connections | server peak RSS MiB | goroutines before -> held -> after |"
echo "|---|---|---|---:|---:|---|"
for c in "4 bodies never sent:-body 4" "200 bodies never sent:-body 200" "200 idle connections:-idle 200"; do
  label=${c%%:*}; flags=${c#*:}
  start_server out/faults/held.yaml held
  line=$(bin/loadtest -url "$base/exports/sqlite.xlsx" -c 8 $flags -metrics "$base/metrics" -pid "$server")
  stop_server
  echo "| $label | $(echo "$line" | tr '\t' '|' | sed 's/|/ | /g') |"
done
