#!/usr/bin/env bash
# Runs the benchmark suite: every tool on every workload, alternately,
# several times; validates every output with python-calamine; writes the
# raw results to out/results.tsv and the report (markdown on stdout,
# out/chart.png) with report.py.
#
#   bench/run.sh [-w W1,W2,W3] [-t tool,...] [-n runs] [-r rows]
#
# Tools: sheetstream, sheetstream-1w (one deflate worker), excelize,
# rust_xlsxwriter, rust_xlsxwriter-zmij, libxlsxwriter, xlsxwriter, openpyxl,
# fastexcel-java (dhatim fastexcel, from Maven Central).
# Everything is installed from the package registries by setup below.
set -euo pipefail
cd "$(dirname "$0")"
workloads=W1,W2,W3
tools=sheetstream,sheetstream-1w,excelize,rust_xlsxwriter,rust_xlsxwriter-zmij,libxlsxwriter,xlsxwriter,openpyxl,fastexcel-java
runs=3
rows=""
while getopts "w:t:n:r:" opt; do
  case $opt in
    w) workloads=$OPTARG ;;
    t) tools=$OPTARG ;;
    n) runs=$OPTARG ;;
    r) rows=$OPTARG ;;
    *) exit 2 ;;
  esac
done
mkdir -p bin out
cache="${XDG_CACHE_HOME:-$HOME/.cache}/sheetstream"
venv="$cache/bench-venv"

setup() {
  echo "== setup" >&2
  go build -o bin/ ./cmd/...
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check xlsxwriter openpyxl python-calamine matplotlib
  fi
  if [[ $tools == *rust_xlsxwriter* ]] && [ ! -x rust/target/rxw-bench-zmij ]; then
    (cd rust && cargo build --release -q && cp target/release/rxw-bench target/rxw-bench-default &&
      cargo build --release -q --features fast && cp target/release/rxw-bench target/rxw-bench-zmij)
  fi
  if [[ $tools == *fastexcel-java* ]]; then
    (cd java && mvn -q package dependency:build-classpath -Dmdep.outputFile=cp.txt >&2)
  fi
  if [[ $tools == *libxlsxwriter* ]]; then
    [ -f /usr/include/xlsxwriter.h ] || apt-get install -y -qq libxlsxwriter-dev >&2
    gcc -O2 -o bin/lxw_write c/lxw_write.c -lxlsxwriter
  fi
}

command_for() { # tool workload out
  local t=$1 w=$2 o=$3
  case $t in
    sheetstream) echo bin/sswrite -workload "$w" -o "$o" ${rows:+-rows $rows} ;;
    sheetstream-1w) echo bin/sswrite -workers 1 -workload "$w" -o "$o" ${rows:+-rows $rows} ;;
    excelize) echo bin/excelizewrite -workload "$w" -o "$o" ${rows:+-rows $rows} ;;
    rust_xlsxwriter) echo rust/target/rxw-bench-default "$w" "$o" $rows ;;
    rust_xlsxwriter-zmij) echo rust/target/rxw-bench-zmij "$w" "$o" $rows ;;
    libxlsxwriter) echo bin/lxw_write "$w" "$o" $rows ;;
    xlsxwriter) echo "$venv/bin/python" python/xlsxwriter_write.py "$w" "$o" $rows ;;
    openpyxl) echo "$venv/bin/python" python/openpyxl_write.py "$w" "$o" $rows ;;
    fastexcel-java) echo java -cp "java/target/fastexcel-bench-1.jar:$(cat java/cp.txt)" bench.FastexcelWrite "$w" "$o" $rows ;;
    *) echo "unknown tool $t" >&2; exit 2 ;;
  esac
}

setup
results=out/results.tsv
printf 'workload\ttool\trun\twall_s\tuser_s\tsys_s\tmaxrss_kb\tbytes\n' > "$results"
IFS=, read -ra W <<< "$workloads"
IFS=, read -ra T <<< "$tools"
for w in "${W[@]}"; do
  for run in $(seq 1 "$runs"); do
    for t in "${T[@]}"; do
      o="out/$w-$t.xlsx"
      rm -f "$o"
      # shellcheck disable=SC2046
      /usr/bin/time -f '%e\t%U\t%S\t%M' -o out/time.txt $(command_for "$t" "$w" "$o") >/dev/null
      if [ "$run" = 1 ]; then
        "$venv/bin/python" python/validate.py "$w" "$o" $rows || { echo "INVALID OUTPUT: $t $w" >&2; exit 1; }
      fi
      printf '%s\t%s\t%s\t%s\t%s\n' "$w" "$t" "$run" "$(cat out/time.txt)" "$(stat -c %s "$o")" >> "$results"
      echo "$w $t run $run: $(cut -f1 out/time.txt)s" >&2
    done
  done
done
"$venv/bin/python" report.py "$results" out/chart.png
