#!/usr/bin/env bash
# Outputs of two sheetstream binaries compared part by part, for a change
# that must not alter them (issue #42's redesign, #29's before it):
#
#   bench/identical.sh OLD_BINARY NEW_BINARY
#
# It runs each binary on the same jobs: the demo export (.xlsx, .csv,
# .jsonl), a convert of examples/orders.csv (typed and as an Excel table,
# with a chart), a template fill, and, through `serve --demo`, a download
# (.xlsx and .csv) and a preview of every export of examples/exports.yaml.
# Workbooks are unzipped and compared part by part, leaving out
# docProps/core.xml and customXml/itemProps*.xml (a timestamp and random
# item ids: they differ between two runs of one binary).
# Exit status 1 and the differing parts when anything differs.
set -euo pipefail
old=$(realpath "$1") new=$(realpath "$2")
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

run() { # run BIN OUTDIR PORT
	local bin=$1 out=$2 port=$3
	mkdir -p "$out"
	(cd "$out" && "$bin" export --demo -o demo.xlsx 2>/dev/null)
	(cd "$out" && "$bin" export --demo --query "SELECT * FROM orders ORDER BY id" -o orders.csv 2>/dev/null)
	(cd "$out" && "$bin" export --demo --query "SELECT * FROM customers ORDER BY id" -o customers.jsonl 2>/dev/null)
	"$bin" convert "$root/examples/orders.csv" "$out/convert.xlsx" 2>/dev/null
	"$bin" convert --excel-table --chart column:city:quantity "$root/examples/orders.csv" "$out/convert-table.xlsx" 2>/dev/null
	(cd "$out" && "$bin" export --demo --excel-table --query "SELECT * FROM customers" --sheet Customers -o table.xlsx 2>/dev/null)
	mkdir -p "$out/serve"
	(cd "$out/serve" && exec "$bin" serve --demo --listen "127.0.0.1:$port" >serve.log 2>&1) &
	local pid=$!
	for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/api/exports" >/dev/null && break; sleep 0.2; done
	for e in orders cities all-orders city-report; do
		curl -sf "http://127.0.0.1:$port/exports/$e.xlsx" -o "$out/serve-$e.xlsx" || echo "no $e.xlsx" >"$out/serve-$e.xlsx.err"
		curl -sf "http://127.0.0.1:$port/exports/$e.csv?sheet=1" -o "$out/serve-$e.csv" || echo "no $e.csv" >"$out/serve-$e.csv.err"
		curl -sf "http://127.0.0.1:$port/api/exports/$e/preview?limit=100" -o "$out/preview-$e.json" || echo "no preview" >"$out/preview-$e.json.err"
	done
	curl -sf "http://127.0.0.1:$port/exports/orders.xlsx?city=Oslo&since=2025-02-01" -o "$out/serve-orders-oslo.xlsx"
	curl -sf "http://127.0.0.1:$port/api/exports/orders/preview?city=Oslo&limit=7" -o "$out/preview-orders-oslo.json"
	kill $pid; wait $pid 2>/dev/null
	rm -rf "$out/serve"
	for f in "$out"/*.xlsx; do
		mkdir "$f.d" && (cd "$f.d" && unzip -q "$f" && rm -f docProps/core.xml customXml/itemProps*.xml) && rm "$f"
	done
}
run "$old" "$work/old" 18391
run "$new" "$work/new" 18392
if diff -r "$work/old" "$work/new" >"$work/diff"; then
	echo "identical: $(find "$work/old" -type f | wc -l) files"
else
	head -50 "$work/diff"
	exit 1
fi
