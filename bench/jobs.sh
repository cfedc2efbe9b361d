#!/usr/bin/env bash
# Background export jobs (issue 31), on this machine:
#
#   J1: one export job of E1's million rows x 10 into a local folder and
#       into S3 (versitygw on loopback), from submit to done, -n runs each,
#       alternately; the worker's peak RSS over its RSS before the job;
#   J2: jobs per minute with 1, 2 and 3 worker processes (one job at a
#       time each) on one PostgreSQL queue, S3 storage: 24 jobs of 100,000
#       rows submitted at once;
#   J3: a worker killed with SIGKILL mid-export: the time until another
#       worker has completed the job, with job_timeout 12s.
#
# Every job's file is read back (row count). Prints markdown tables.
#
#   bench/jobs.sh [-n runs]
set -euo pipefail
cd "$(dirname "$0")"
runs=3
while getopts "n:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    *) exit 2 ;;
  esac
done
command -v sqlite3 >/dev/null || apt-get install -y -qq sqlite3 >/dev/null
command -v bc >/dev/null || apt-get install -y -qq bc >/dev/null
mkdir -p bin out/jobs
(cd .. && go build -o bench/bin/sheetstream ./cmd/sheetstream)
dir=$PWD/out/jobs
rm -rf "$dir"/*

eval "$(../scripts/postgres.sh)"
eval "$(../scripts/s3.sh)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  ../scripts/s3.sh stop "$SHEETSTREAM_S3_DIR"
  ../scripts/postgres.sh stop "$SHEETSTREAM_PG_DIR"
}
trap cleanup EXIT
export AWS_ACCESS_KEY_ID=$SHEETSTREAM_S3_ACCESS_KEY AWS_SECRET_ACCESS_KEY=$SHEETSTREAM_S3_SECRET_KEY AWS_REGION=us-east-1
s3base=${SHEETSTREAM_S3_URL%%\?*}
s3query=${SHEETSTREAM_S3_URL#*\?}

# E1's rows (bench/export.sh), and a tenth of them.
cols="i AS id, i * 7 % 100000 AS a, i * 13 % 1000 AS b, i * 31 % 1000000 AS c, i * 1.25 + 0.5 AS ratio,
  (i % 100) / 100.0 AS pct, 1.0 / (i % 7 + 1) AS frac, 'name-' || i AS name, 'city-' || (i % 100) AS city"
sqlite3 "$dir/e1.db" "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, c INTEGER, ratio REAL, pct REAL, frac REAL, name TEXT, city TEXT, day DATE);
  INSERT INTO t WITH RECURSIVE g(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM g WHERE i < 1000000 - 1)
  SELECT $cols, date('2000-01-01', '+' || (i % 9000) || ' days') FROM g;"

config() { # file queue storage
  cat > "$1" <<YAML
database: sqlite:$dir/e1.db
jobs: "$2"
storage: "$3"
job_timeout: 12s
exports:
  - {name: e1, sheets: [{name: Data, sql: SELECT * FROM t ORDER BY id}]}
  - {name: tenth, sheets: [{name: Data, sql: SELECT * FROM t WHERE id < 100000 ORDER BY id}]}
YAML
}
port=18190
api=
start_api() { # config
  bin/sheetstream serve --config "$1" --listen 127.0.0.1:$port --job-workers 0 2>>"$dir/api.log" &
  api=$!; pids+=("$api")
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
}
stop() { kill "$@" 2>/dev/null || true; for p in "$@"; do wait "$p" 2>/dev/null || true; done; }
submit() { curl -sf -X POST "http://127.0.0.1:$port/api/exports/$1/jobs" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])'; }
state() { curl -sf "http://127.0.0.1:$port/api/jobs/$1" | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["state"], j.get("rows", 0), j.get("worker", ""), j.get("attempts", 0))'; }
wait_done() { # id
  while :; do
    read -r st rows worker attempts < <(state "$1")
    case $st in done) echo "$rows"; return 0 ;; failed|cancelled) echo "job $1 $st" >&2; return 1 ;; esac
    sleep 0.05
  done
}
rows_of() { # id
  curl -sfL "http://127.0.0.1:$port/api/jobs/$1/file" -o "$dir/file.xlsx"
  bin/sheetstream info "$dir/file.xlsx" --json | python3 -c 'import json,sys; print(sum(s.get("rows", 1) - 1 for s in json.load(sys.stdin)["sheets"]))'
}
rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
hwm_kib() { awk '/^VmHWM/ {print $2}' "/proc/$1/status"; }

# J1: folder against S3, alternately.
echo "| storage | runs | submit to done, median s | worker RSS before MiB | worker peak RSS MiB | peak over before MiB | rows read back |"
echo "|---|---:|---:|---:|---:|---:|---:|"
declare -A times
for run in $(seq "$runs"); do
  for st in folder s3; do
    storage="file://$dir/files"
    [ $st = s3 ] && storage="$s3base/j1-$run?$s3query"
    config "$dir/j1.yaml" "sqlite:$dir/j1-$st-$run.db" "$storage"
    start_api "$dir/j1.yaml"
    bin/sheetstream worker --config "$dir/j1.yaml" --job-workers 1 2>>"$dir/worker.log" &
    w=$!; pids+=("$w")
    sleep 1.5
    before=$(rss_kib "$w")
    t0=$(date +%s.%N)
    id=$(submit e1)
    n=$(wait_done "$id")
    t1=$(date +%s.%N)
    peak=$(hwm_kib "$w")
    back=$(rows_of "$id")
    stop "$w" "$api"
    times[$st]+="$(echo "$t1 - $t0" | bc) "
    echo "$st run $run: $(echo "$t1 - $t0" | bc) s, rss $before -> $peak KiB, rows $n / read back $back" >&2
    last_before[$run]=$before
    eval "before_$st=$before peak_$st=$peak back_$st=$back"
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for st in folder s3; do
  m=$(echo "${times[$st]}" | median)
  eval "b=\$before_$st p=\$peak_$st r=\$back_$st"
  printf "| %s | %d | %.2f | %.1f | %.1f | %.1f | %s |\n" "$st" "$runs" "$m" "$(echo "$b/1024" | bc -l)" "$(echo "$p/1024" | bc -l)" "$(echo "($p-$b)/1024" | bc -l)" "$r"
done
mf=$(echo "${times[folder]}" | median); ms=$(echo "${times[s3]}" | median)
echo
echo "S3 / folder: $(echo "scale=2; $ms / $mf" | bc)x"

# J2: throughput with 1, 2, 3 workers on PostgreSQL.
echo
echo "| worker processes | jobs | wall s | jobs per minute | all read back |"
echo "|---:|---:|---:|---:|---|"
base=${SHEETSTREAM_PG_URL%%\?*}; pgq=${SHEETSTREAM_PG_URL#*\?}
for n in 1 2 3; do
  db="jobs_j2_$n"
  psql -Atq "$SHEETSTREAM_PG_URL" -c "CREATE DATABASE $db"
  config "$dir/j2.yaml" "${base%/*}/$db?$pgq" "$s3base/j2-$n?$s3query"
  start_api "$dir/j2.yaml"
  ws=()
  for _ in $(seq "$n"); do
    bin/sheetstream worker --config "$dir/j2.yaml" --job-workers 1 2>>"$dir/worker.log" &
    ws+=($!); pids+=($!)
  done
  sleep 2
  ids=()
  t0=$(date +%s.%N)
  for _ in $(seq 24); do ids+=("$(submit tenth)"); done
  for id in "${ids[@]}"; do wait_done "$id" >/dev/null; done
  t1=$(date +%s.%N)
  ok=yes
  for id in "${ids[@]:0:3}"; do [ "$(rows_of "$id")" = 100000 ] || ok=no; done
  stop "${ws[@]}" "$api"
  wall=$(echo "$t1 - $t0" | bc)
  printf "| %d | 24 | %.1f | %.1f | %s |\n" "$n" "$wall" "$(echo "24 * 60 / $wall" | bc -l)" "$ok (3 sampled)"
done

# J3: SIGKILL and rescue.
echo
db=jobs_j3
psql -Atq "$SHEETSTREAM_PG_URL" -c "CREATE DATABASE $db"
config "$dir/j3.yaml" "${base%/*}/$db?$pgq" "$s3base/j3?$s3query"
start_api "$dir/j3.yaml"
declare -A byPid
for _ in 1 2; do
  bin/sheetstream worker --config "$dir/j3.yaml" --job-workers 1 2>>"$dir/worker.log" &
  byPid[$!]=1; pids+=($!)
done
sleep 2
id=$(submit e1)
victim=
while [ -z "$victim" ]; do
  read -r st rows worker attempts < <(state "$id")
  [ "$st" = running ] && victim=${worker##*:}
  sleep 0.05
done
sleep 0.5
t0=$(date +%s.%N)
kill -9 "$victim"
n=$(wait_done "$id")
t1=$(date +%s.%N)
read -r st rows worker attempts < <(state "$id")
back=$(rows_of "$id")
echo "| job_timeout | killed after | rescued and done after s | attempts | rows read back |"
echo "|---|---|---:|---:|---:|"
printf "| 12s | 0.5 s of running | %.1f | %s | %s |\n" "$(echo "$t1 - $t0" | bc)" "$attempts" "$back"
