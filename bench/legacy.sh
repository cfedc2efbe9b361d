#!/usr/bin/env bash
# Legacy reading benchmark L1-L3 (#19): every cell of the first sheet,
# read by sheetstream and by calamine's Rust reader (open_workbook_auto,
# worksheet_range: its only reader for .xls and .ods), alternately, in
# one go; wall time, CPU time and peak RSS land in out/legacy.tsv and a
# markdown summary (median, ratio to calamine) on stdout.
#
#   bench/legacy.sh [-n runs]
#
# Inputs, made once into out/legacy/ (they take a few minutes):
#   L1.xls   65,536 x 10: W1's header and first 65,535 rows (Excel 97's
#            row limit), written by sheetstream and saved as .xls by
#            LibreOffice (soffice --convert-to xls)
#   L2.xlsb  983,040 x 10: the same rows as .xlsb, written by SheetJS
#            (npm xlsx 0.18.5, js/to_xlsb.js) from L1.xls: nothing else here
#            writes .xlsb (LibreOffice and the Python writers do not); then
#            by cmd/xlsbfull its short cell records rewritten as full ones,
#            since calamine skips short records and would read a tenth of
#            the cells, and its rows written 15 times over, since 65,536
#            rows read in hundredths of a second, too short to time
#   L3.ods   W1 whole (1,000,000 x 10), saved as .ods by LibreOffice
#            (soffice --convert-to ods)
# sheetstream runs "sheetstream info", which reads every cell of every
# sheet with its type (and formats none); calamine-read sums the numbers
# and counts the text.
set -euo pipefail
cd "$(dirname "$0")"
runs=3
while getopts "n:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    *) exit 2 ;;
  esac
done
mkdir -p bin out/legacy
echo "== setup" >&2
go build -o bin/ ./cmd/...
(cd .. && go build -o bench/bin/sheetstream ./cmd/sheetstream)
(cd rust-read && cargo build --release -q)
lo() { soffice -env:UserInstallation=file://"$PWD"/out/lo-profile --headless --norestore --convert-to "$1" --outdir out/legacy "$2" >&2; }
[ -f out/legacy/L1.xlsx ] || bin/sswrite -workload W1 -rows 65535 -o out/legacy/L1.xlsx
[ -f out/legacy/L1.xls ] || lo xls out/legacy/L1.xlsx
if [ ! -f out/legacy/L2-sheetjs.xlsb ]; then
  (cd js && npm install --no-audit --no-fund --silent)
  node --max-old-space-size=8000 js/to_xlsb.js out/legacy/L1.xls out/legacy/L2-sheetjs.xlsb
fi
[ -f out/legacy/L2.xlsb ] || bin/xlsbfull -repeat 15 out/legacy/L2-sheetjs.xlsb out/legacy/L2.xlsb
[ -f out/legacy/W1.xlsx ] || bin/sswrite -workload W1 -o out/legacy/W1.xlsx
if [ ! -f out/legacy/L3.ods ]; then
  lo ods out/legacy/W1.xlsx
  mv out/legacy/W1.ods out/legacy/L3.ods
fi
command_for() { # tool file
  case $1 in
    sheetstream) echo bin/sheetstream info "$2" ;;
    calamine) echo rust-read/target/release/calamine-read auto "$2" ;;
  esac
}
results=out/legacy.tsv
printf 'input\ttool\trun\twall_s\tuser_s\tsys_s\tmaxrss_kb\n' > "$results"
for input in L1.xls L2.xlsb L3.ods; do
  for run in $(seq 1 "$runs"); do
    for t in sheetstream calamine; do
      # shellcheck disable=SC2046
      /usr/bin/time -f '%e\t%U\t%S\t%M' -o out/time.txt $(command_for "$t" "out/legacy/$input") >/dev/null
      printf '%s\t%s\t%s\t%s\n' "$input" "$t" "$run" "$(cat out/time.txt)" >> "$results"
      echo "$input $t run $run: $(cut -f1 out/time.txt)s" >&2
    done
  done
done
# How many cells each saw.
for input in L1.xls L2.xlsb L3.ods; do
  echo "$input: sheetstream $(bin/sheetstream info --json "out/legacy/$input" | python3 -c 'import json,sys; print(sum(s["cells"] for s in json.load(sys.stdin)["sheets"]))') cells, calamine $(rust-read/target/release/calamine-read auto "out/legacy/$input" | cut -d' ' -f1) cells" >&2
done
python3 - "$results" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
print("| input | tool | wall s (median) | CPU s | peak RSS MiB | vs calamine |")
print("|---|---|---:|---:|---:|---:|")
for inp in dict.fromkeys(r["input"] for r in rows):
    med = {}
    for t in dict.fromkeys(r["tool"] for r in rows):
        rs = [r for r in rows if r["input"] == inp and r["tool"] == t]
        med[t] = (statistics.median(float(r["wall_s"]) for r in rs),
                  statistics.median(float(r["user_s"]) + float(r["sys_s"]) for r in rs),
                  max(int(r["maxrss_kb"]) for r in rs) / 1024)
    base = med["calamine"][0]
    for t, (wall, cpu, rss) in med.items():
        print("| %s | %s | %.2f | %.2f | %.1f | %.2fx |" % (inp, t, wall, cpu, rss, wall / base))
PY
