#!/usr/bin/env bash
# The Python package against its peers on W1 (issue 43's figures): read
# into a pyarrow.Table against fastexcel, values compared; read_batches'
# growth; a polars DataFrame written against polars' own write_excel
# (XlsxWriter), the result read back by python-calamine. Steps run
# alternately, one process each; medians of -n runs, peak RSS of each.
#
#   bench/python.sh [-n runs] [-r rows]
#
# Needs the test virtualenv (scripts/test.sh makes it; SHEETSTREAM_PYTHON
# names its python) with the package installed (pip install ./python).
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
py=${SHEETSTREAM_PYTHON:?run scripts/test.sh once, then export SHEETSTREAM_PYTHON}
dir=out/python
mkdir -p "$dir"
w1=$dir/w1-xlsxwriter-$rows.xlsx
[ -f "$w1" ] || { echo "== W1 by XlsxWriter ($rows rows)" >&2; "$py" python/arrow_bench.py write-w1 "$w1" "$rows"; }
results=$dir/results.tsv
printf 'step\trun\tstep_s\twall_s\tmaxrss_kb\tsaid\n' > "$results"
timed() { # step run args...
  local step=$1 run=$2
  shift 2
  local said
  said=$(/usr/bin/time -f '%e\t%M' -o "$dir/time.txt" "$py" python/arrow_bench.py "$step" "$@")
  printf '%s\t%s\t%s\t%s\t%s\n' "$step" "$run" "$(echo "$said" | cut -d' ' -f1)" "$(cat "$dir/time.txt")" "$said" >> "$results"
}
"$py" python/arrow_bench.py compare "$w1"
for run in $(seq 1 "$runs"); do
  timed read-ss "$run" "$w1"
  timed read-fastexcel "$run" "$w1"
  timed batches "$run" "$w1"
  timed write-ss "$run" "$w1" "$dir/out-ss.xlsx"
  timed write-polars "$run" "$w1" "$dir/out-polars.xlsx"
done
"$py" python/arrow_bench.py check-written "$w1" "$dir/out-ss.xlsx"
"$py" - "$results" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
med = {}
print("| step | its own time (median) | process wall | peak RSS | said |")
print("|---|---:|---:|---:|---|")
for step in ("read-ss", "read-fastexcel", "batches", "write-ss", "write-polars"):
    mine = [r for r in rows if r["step"] == step]
    med[step] = statistics.median(float(r["step_s"]) for r in mine)
    wall = statistics.median(float(r["wall_s"]) for r in mine)
    rss = statistics.median(int(r["maxrss_kb"]) for r in mine) / 1024
    print(f"| {step} | {med[step]:.2f} s | {wall:.2f} s | {rss:.0f} MiB | {mine[-1]['said']} |")
print()
print(f"read_excel / fastexcel: {med['read-ss'] / med['read-fastexcel']:.2f}x (goal 0.3x)")
print(f"write_excel / polars write_excel: {med['write-ss'] / med['write-polars']:.3f}x (goal 0.1x)")
PY
