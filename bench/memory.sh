#!/usr/bin/env bash
# Peak RSS of the commands that must stay small (issue 46): the binary's
# baseline (`sheetstream --version`), R1 (`cat --format csv` of W1), W1's
# CSV converted to XLSX, and W1 written encrypted (`convert --password-file`
# of the CSV), each measured with /usr/bin/time -f %M, median of -n runs.
# Also a Go program that does nothing but print, for the floor of the
# runtime on this machine. Says plainly where a figure passes its bound.
# Each command runs from two builds of the same source: the full one (what
# `go install` makes), and the lite one (-tags lite: no service, so none
# of River, the AWS SDK, OpenID Connect and net/http's server, nor Arrow
# and Parquet) with the full one beside it as sheetstream-full, the pair
# `make build` makes, where the lite build hands the rest to the full
# one; both with CGO_ENABLED=0 (cgo would map libc: 2 MiB more). W1's CSV
# converted to Parquet shows the handing over: the pair runs it in the
# full build.
#
#   bench/memory.sh [-n runs] [-r rows]
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
mkdir -p bin out/memory
go build -o bin/sswrite ./cmd/sswrite
(cd .. && CGO_ENABLED=0 go build -o bench/bin/sheetstream ./cmd/sheetstream)
(cd .. && CGO_ENABLED=0 go build -tags lite -o bench/bin/sheetstream-lite ./cmd/sheetstream)
cp bin/sheetstream bin/sheetstream-full
dir=out/memory
hello=$dir/hello
mkdir -p "$hello"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hi") }\n' > "$hello/main.go"
printf 'module hello\n\ngo 1.26\n' > "$hello/go.mod"
(cd "$hello" && go build -o hello .)
bin/sswrite -workload W1 -rows "$rows" -o "$dir/w1.xlsx"
bin/sheetstream convert "$dir/w1.xlsx" "$dir/w1.csv" 2>/dev/null
printf 'correct horse\n' > "$dir/password"

results=$dir/memory.tsv
printf 'step\trun\twall_s\tmaxrss_kb\n' > "$results"
timed() { # step run command...
  local step=$1 run=$2
  shift 2
  /usr/bin/time -f '%e\t%M' -o "$dir/time.txt" "$@" > /dev/null 2>&1
  printf '%s\t%s\t%s\n' "$step" "$run" "$(cat "$dir/time.txt")" >> "$results"
}
for run in $(seq 1 "$runs"); do
  timed go-hello "$run" "$hello/hello"
  for build in sheetstream sheetstream-lite; do
    timed "version $build" "$run" bin/$build --version
    timed "cat-csv $build" "$run" sh -c "bin/$build cat --format csv $dir/w1.xlsx > /dev/null"
    timed "convert-csv $build" "$run" bin/$build convert "$dir/w1.csv" "$dir/out.xlsx"
    timed "convert-encrypted $build" "$run" bin/$build convert "$dir/w1.csv" "$dir/out-enc.xlsx" --password-file "$dir/password"
    timed "convert-parquet $build" "$run" bin/$build convert "$dir/w1.csv" "$dir/out.parquet"
  done
done
python3 - "$results" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
# The bounds of issue 46: the baseline 12 MiB, the others 24 MiB.
bounds = {"version": 12, "cat-csv": 24, "convert-csv": 24, "convert-encrypted": 24}
print("| command | wall (median) | peak RSS (median) | bound |")
print("|---|---:|---:|---:|")
over = []
steps = ["go-hello"] + [f"{s} {b}" for b in ("sheetstream", "sheetstream-lite") for s in ("version", "cat-csv", "convert-csv", "convert-encrypted", "convert-parquet")]
for step in steps:
    mine = [r for r in rows if r["step"] == step]
    wall = statistics.median(float(r["wall_s"]) for r in mine)
    rss = statistics.median(int(r["maxrss_kb"]) for r in mine) / 1024
    bound = bounds.get(step.split(" ")[0])
    step = step.replace("sheetstream-lite", "make build (lite + full)").replace(" sheetstream", " go install (full)")
    print(f"| {step} | {wall:.2f} s | {rss:.1f} MiB | {f'{bound} MiB' if bound else ''} |")
    if bound and rss > bound:
        over.append(f"{step}: {rss:.1f} MiB, over its bound of {bound} MiB")
print()
print("\n".join("OVER THE BOUND: " + o for o in over) if over else "every command is within its bound")
PY
