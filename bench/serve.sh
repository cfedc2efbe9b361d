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

db=out/serve/load.db
. ./serve-data.sh
# Every download is admitted (they wait for a slot rather than get 429).
cat > out/serve/config.yaml <<YAML
max_concurrent: $conc
queue_timeout: 300s
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
