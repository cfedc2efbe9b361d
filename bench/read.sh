#!/usr/bin/env bash
# Reading benchmark R1: every cell of W1 (1,000,000 rows x 10 columns,
# with a header) read with its type, from W1 as sheetstream writes it and
# as XlsxWriter writes it. Each tool runs alternately, several times, in
# one go; the wall time, CPU time and peak RSS land in out/read.tsv and a
# markdown summary (median, ratio to calamine's streaming reader) on
# stdout.
#
#   bench/read.sh [-t tool,...] [-n runs]
#
# Tools: sheetstream (sheetstream cat --format csv > /dev/null, every cell
# formatted), sheetstream-1w (one parse worker), calamine-cells
# (worksheet_cells_reader), calamine-range (worksheet_range),
# python-calamine, fastexcel (PyPI: calamine into Arrow), fastexcel-reader
# (dhatim, Java), excelize (Rows), openpyxl (read-only; slow: -n 1).
set -euo pipefail
cd "$(dirname "$0")"
tools=sheetstream,sheetstream-1w,calamine-cells,calamine-range,python-calamine,fastexcel,fastexcel-reader,excelize
runs=3
while getopts "t:n:" opt; do
  case $opt in
    t) tools=$OPTARG ;;
    n) runs=$OPTARG ;;
    *) exit 2 ;;
  esac
done
mkdir -p bin out
cache="${XDG_CACHE_HOME:-$HOME/.cache}/sheetstream"
venv="$cache/bench-venv"

echo "== setup" >&2
go build -o bin/ ./cmd/...
(cd .. && go build -o bench/bin/sheetstream ./cmd/sheetstream)
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import xlsxwriter, openpyxl, python_calamine, fastexcel, pyarrow' 2>/dev/null ||
  "$venv/bin/pip" install -q --disable-pip-version-check xlsxwriter openpyxl python-calamine fastexcel pyarrow matplotlib
[[ $tools != *calamine-* ]] || (cd rust-read && cargo build --release -q)
[[ $tools != *fastexcel-reader* ]] || (cd java && mvn -q package dependency:build-classpath -Dmdep.outputFile=cp.txt >&2)
[ -f out/R1-sheetstream.xlsx ] || bin/sswrite -workload W1 -o out/R1-sheetstream.xlsx
[ -f out/R1-xlsxwriter.xlsx ] || "$venv/bin/python" python/xlsxwriter_write.py W1 out/R1-xlsxwriter.xlsx

command_for() { # tool file
  case $1 in
    sheetstream) echo bin/sheetstream cat --format csv "$2" ;;
    sheetstream-1w) echo bin/sheetstream cat --workers 1 --format csv "$2" ;;
    calamine-cells) echo rust-read/target/release/calamine-read cells "$2" ;;
    calamine-range) echo rust-read/target/release/calamine-read range "$2" ;;
    python-calamine) echo "$venv/bin/python" python/calamine_read.py calamine "$2" ;;
    openpyxl) echo "$venv/bin/python" python/calamine_read.py openpyxl "$2" ;;
    fastexcel) echo "$venv/bin/python" python/calamine_read.py fastexcel "$2" ;;
    excelize) echo bin/excelizeread "$2" ;;
    fastexcel-reader) echo java -cp "java/target/fastexcel-bench-1.jar:$(cat java/cp.txt)" bench.FastexcelRead "$2" ;;
    *) echo "unknown tool $1" >&2; exit 2 ;;
  esac
}

results=out/read.tsv
printf 'input\ttool\trun\twall_s\tuser_s\tsys_s\tmaxrss_kb\n' > "$results"
IFS=, read -ra T <<< "$tools"
for input in sheetstream xlsxwriter; do
  for run in $(seq 1 "$runs"); do
    for t in "${T[@]}"; do
      # shellcheck disable=SC2046
      /usr/bin/time -f '%e\t%U\t%S\t%M' -o out/time.txt $(command_for "$t" "out/R1-$input.xlsx") >/dev/null
      printf '%s\t%s\t%s\t%s\n' "$input" "$t" "$run" "$(cat out/time.txt)" >> "$results"
      echo "R1 $input $t run $run: $(cut -f1 out/time.txt)s" >&2
    done
  done
done
python3 - "$results" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
print("| W1 written by | tool | wall s (median) | CPU s | peak RSS MiB | vs calamine-cells |")
print("|---|---|---:|---:|---:|---:|")
for inp in ("sheetstream", "xlsxwriter"):
    med = {}
    for t in dict.fromkeys(r["tool"] for r in rows):
        rs = [r for r in rows if r["input"] == inp and r["tool"] == t]
        med[t] = (statistics.median(float(r["wall_s"]) for r in rs),
                  statistics.median(float(r["user_s"]) + float(r["sys_s"]) for r in rs),
                  max(int(r["maxrss_kb"]) for r in rs) / 1024)
    base = med.get("calamine-cells", (None,))[0]
    for t, (wall, cpu, rss) in med.items():
        ratio = "%.2fx" % (wall / base) if base else "-"
        print("| %s | %s | %.2f | %.2f | %.1f | %s |" % (inp, t, wall, cpu, rss, ratio))
PY
