#!/usr/bin/env bash
# Renders examples/charts with LibreOffice for the README: the dashboard is
# written, converted to PDF by LibreOffice (headless; the sheet prints on
# one landscape page), and the page turned into docs/charts.png by
# pdftoppm (poppler-utils).
#
#   scripts/charts-screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go run ./examples/charts "$dir/charts.xlsx"
soffice -env:UserInstallation=file://"$dir"/profile --headless --norestore --convert-to pdf --outdir "$dir" "$dir/charts.xlsx" >/dev/null
pdftoppm -png -r 80 -f 1 -l 1 "$dir/charts.pdf" "$dir/page"
mkdir -p docs
cp "$dir/page-1.png" docs/charts.png
echo "wrote docs/charts.png"
