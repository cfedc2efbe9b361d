#!/usr/bin/env bash
# Template benchmark (#35): W1 (1M rows x 10) written plain and into a
# designed template (sswrite -template: a table with a totals row and a chart),
# alternately, in one run. Prints medians, peak RSS and the ratio; the
# template must cost no more than 10% and stay within 40 MiB.
#
#   bench/template.sh [-n runs]
set -euo pipefail
cd "$(dirname "$0")"
runs=5
while getopts "n:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    *) exit 2 ;;
  esac
done
mkdir -p bin out/template
go build -o bin/sswrite ./cmd/sswrite
dir=out/template
results=$dir/template.tsv
printf 'step\trun\twall_s\tmaxrss_kb\n' > "$results"
timed() { # step run command...
  local step=$1 run=$2
  shift 2
  /usr/bin/time -f '%e\t%M' -o "$dir/time.txt" "$@"
  printf '%s\t%s\t%s\n' "$step" "$run" "$(cat "$dir/time.txt")" >> "$results"
}
for run in $(seq 1 "$runs"); do
  timed plain "$run" bin/sswrite -workload W1 -o "$dir/w1.xlsx"
  timed template "$run" bin/sswrite -workload W1 -template -o "$dir/w1-template.xlsx"
done
unzip -p "$dir/w1-template.xlsx" xl/tables/table1.xml | grep -q "A1:J1000002"
python3 - "$results" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
med = {}
for step in ("plain", "template"):
    r = [x for x in rows if x["step"] == step]
    med[step] = (statistics.median(float(x["wall_s"]) for x in r), max(int(x["maxrss_kb"]) for x in r) / 1024)
    print(f"W1 {step:6} {med[step][0]:6.2f} s  peak RSS {med[step][1]:5.1f} MiB")
print(f"template / plain = {med['template'][0] / med['plain'][0]:.2f}x")
PY
