#!/usr/bin/env bash
# W1 (1M rows x 10) converted from CSV to XLSX with and without pivot
# tables (issue 44), alternating, medians of -n runs, wall time and peak
# RSS (/usr/bin/time -f %M): a pivot by city (50 cities) of a sum and an
# average; a pivot by name and city (1,000 x 50: 50,000 keys); one by a
# column of 100,000 distinct values (100,000 keys: the default bound,
# reached and kept); and one by a column of a million distinct values,
# which must be refused past the bound, quickly and in bounded memory.
#
#   bench/pivot.sh [-n runs]
set -euo pipefail
cd "$(dirname "$0")"
runs=3
while getopts "n:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    *) exit 2 ;;
  esac
done
mkdir -p bin out/pivot
dir=out/pivot
go build -o bin/sswrite ./cmd/sswrite
(cd .. && CGO_ENABLED=0 go build -o bench/bin/sheetstream ./cmd/sheetstream)
if [ ! -f "$dir/w1.csv" ]; then
  bin/sswrite -workload W1 -rows 1000000 -o "$dir/w1.xlsx"
  bin/sheetstream convert "$dir/w1.xlsx" "$dir/w1.csv" 2>/dev/null
fi
results=$dir/pivot.tsv
printf 'step\trun\twall_s\tmaxrss_kb\texit\n' > "$results"
timed() { # step run command...
  local step=$1 run=$2 code=0
  shift 2
  /usr/bin/time -f '%e\t%M' -o "$dir/time.txt" "$@" > /dev/null 2> "$dir/stderr.txt" || code=$?
  printf '%s\t%s\t%s\t%s\n' "$step" "$run" "$(cat "$dir/time.txt" | tail -1)" "$code" >> "$results"
}
for run in $(seq 1 "$runs"); do
  timed plain "$run" bin/sheetstream convert "$dir/w1.csv" "$dir/plain.xlsx"
  timed by-city "$run" bin/sheetstream convert "$dir/w1.csv" "$dir/city.xlsx" --pivot 'col9::sum(col5),average(col5)'
  timed by-name-city "$run" bin/sheetstream convert "$dir/w1.csv" "$dir/namecity.xlsx" --pivot 'col8+col9::sum(col5)'
  timed by-100k "$run" bin/sheetstream convert "$dir/w1.csv" "$dir/100k.xlsx" --pivot 'col2::sum(col5)'
  timed refused "$run" bin/sheetstream convert "$dir/w1.csv" "$dir/refused.xlsx" --pivot 'col10::sum(col5)'
done
grep -q "too many distinct keys" "$dir/stderr.txt" || { echo "the million-key pivot was not refused: $(cat "$dir/stderr.txt")" >&2; exit 1; }
python3 - "$results" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
steps = []
for r in rows:
    if r["step"] not in steps:
        steps.append(r["step"])
med = {s: (statistics.median(float(r["wall_s"]) for r in rows if r["step"] == s),
           statistics.median(int(r["maxrss_kb"]) for r in rows if r["step"] == s) / 1024,
           {r["exit"] for r in rows if r["step"] == s}) for s in steps}
base = med["plain"][0]
print("| step | wall (median) | against plain | peak RSS (median) | exit |")
print("|---|---:|---:|---:|---|")
for s in steps:
    w, m, e = med[s]
    print(f"| {s} | {w:.2f} s | {w / base:.2f}x | {m:.1f} MiB | {','.join(sorted(e))} |")
PY
