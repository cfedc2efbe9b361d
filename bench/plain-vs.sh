#!/usr/bin/env bash
# W1 (1M rows x 10) written plain and with one sswrite feature, alternately,
# in one run: prints the medians, peak RSS and the feature's time ratio to
# plain. table.sh, chart.sh and template.sh run it; the feature's file must
# have PART holding PATTERN.
#
#   bench/plain-vs.sh STEP SSWRITE-FLAG PART PATTERN [-n runs]
set -euo pipefail
cd "$(dirname "$0")"
step=$1 flag=$2 part=$3 pattern=$4
shift 4
runs=5
while getopts "n:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    *) exit 2 ;;
  esac
done
dir=out/$step
mkdir -p bin "$dir"
go build -o bin/sswrite ./cmd/sswrite
results=$dir/$step.tsv
printf 'step\trun\twall_s\tmaxrss_kb\n' > "$results"
timed() { # step run command...
  local step=$1 run=$2
  shift 2
  /usr/bin/time -f '%e\t%M' -o "$dir/time.txt" "$@"
  printf '%s\t%s\t%s\n' "$step" "$run" "$(cat "$dir/time.txt")" >> "$results"
}
for run in $(seq 1 "$runs"); do
  timed plain "$run" bin/sswrite -workload W1 -o "$dir/w1.xlsx"
  timed "$step" "$run" bin/sswrite -workload W1 "$flag" -o "$dir/w1-$step.xlsx"
done
unzip -p "$dir/w1-$step.xlsx" "$part" | grep -q "$pattern"
python3 - "$results" "$step" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
step = sys.argv[2]
med = {}
for s in ("plain", step):
    r = [x for x in rows if x["step"] == s]
    med[s] = (statistics.median(float(x["wall_s"]) for x in r), max(int(x["maxrss_kb"]) for x in r) / 1024)
    print(f"W1 {s:6} {med[s][0]:6.2f} s  peak RSS {med[s][1]:5.1f} MiB")
print(f"{step} / plain = {med[step][0] / med['plain'][0]:.2f}x")
PY
