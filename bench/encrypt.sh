#!/usr/bin/env bash
# Encryption benchmark: W1 (1M rows x 10) written by sheetstream plain and
# encrypted (Agile, AES-256, to a file: in place), and read back as CSV
# (R1) from both, alternately, in one run. Prints medians and ratios.
#
#   bench/encrypt.sh [-n runs]
set -euo pipefail
cd "$(dirname "$0")"
runs=3
while getopts "n:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    *) exit 2 ;;
  esac
done
mkdir -p bin out/encrypt
go build -o bin/sswrite ./cmd/sswrite
(cd .. && go build -o bench/bin/sheetstream ./cmd/sheetstream)
dir=out/encrypt
printf 'correct horse\n' > "$dir/password"
results=$dir/encrypt.tsv
printf 'step\trun\twall_s\tmaxrss_kb\n' > "$results"
timed() { # step run command...
  local step=$1 run=$2
  shift 2
  /usr/bin/time -f '%e\t%M' -o "$dir/time.txt" "$@"
  printf '%s\t%s\t%s\n' "$step" "$run" "$(cat "$dir/time.txt")" >> "$results"
}
for run in $(seq 1 "$runs"); do
  timed write-plain "$run" bin/sswrite -workload W1 -o "$dir/w1.xlsx"
  timed write-encrypted "$run" bin/sswrite -workload W1 -o "$dir/w1-enc.xlsx" -password "correct horse"
  timed read-plain "$run" sh -c "bin/sheetstream cat --format csv $dir/w1.xlsx > $dir/w1.csv"
  timed read-encrypted "$run" sh -c "bin/sheetstream cat --format csv --password-file $dir/password $dir/w1-enc.xlsx > $dir/w1-enc.csv"
done
cmp "$dir/w1.csv" "$dir/w1-enc.csv"
python3 - "$results" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
med = {}
for step in ("write-plain", "write-encrypted", "read-plain", "read-encrypted"):
    r = [x for x in rows if x["step"] == step]
    med[step] = (statistics.median(float(x["wall_s"]) for x in r), max(int(x["maxrss_kb"]) for x in r) / 1024)
    print(f"{step:16} {med[step][0]:6.2f} s  peak RSS {med[step][1]:5.1f} MiB")
print(f"write: encrypted / plain = {med['write-encrypted'][0] / med['write-plain'][0]:.2f}x")
print(f"read:  encrypted / plain = {med['read-encrypted'][0] / med['read-plain'][0]:.2f}x")
PY
