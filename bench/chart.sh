#!/usr/bin/env bash
# Chart benchmark (#34): W1 (1M rows x 10) written plain and with a scatter
# chart of column E against column A over every row (sswrite -chart),
# alternately, in one run. Prints medians, peak RSS and the ratio; the
# chart must cost no more than 10% and stay within 40 MiB.
#
#   bench/chart.sh [-n runs]
set -euo pipefail
cd "$(dirname "$0")"
runs=5
while getopts "n:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    *) exit 2 ;;
  esac
done
mkdir -p bin out/chart
go build -o bin/sswrite ./cmd/sswrite
dir=out/chart
results=$dir/chart.tsv
printf 'step\trun\twall_s\tmaxrss_kb\n' > "$results"
timed() { # step run command...
  local step=$1 run=$2
  shift 2
  /usr/bin/time -f '%e\t%M' -o "$dir/time.txt" "$@"
  printf '%s\t%s\t%s\n' "$step" "$run" "$(cat "$dir/time.txt")" >> "$results"
}
for run in $(seq 1 "$runs"); do
  timed plain "$run" bin/sswrite -workload W1 -o "$dir/w1.xlsx"
  timed chart "$run" bin/sswrite -workload W1 -chart -o "$dir/w1-chart.xlsx"
done
unzip -l "$dir/w1-chart.xlsx" | grep -q xl/charts/chart1.xml
python3 - "$results" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
med = {}
for step in ("plain", "chart"):
    r = [x for x in rows if x["step"] == step]
    med[step] = (statistics.median(float(x["wall_s"]) for x in r), max(int(x["maxrss_kb"]) for x in r) / 1024)
    print(f"W1 {step:6} {med[step][0]:6.2f} s  peak RSS {med[step][1]:5.1f} MiB")
print(f"chart / plain = {med['chart'][0] / med['plain'][0]:.2f}x")
PY
