#!/usr/bin/env bash
# Renders examples/template with LibreOffice for the README: the template
# is filled from the demo shop, converted to PDF by LibreOffice (headless),
# and the Orders sheet's first page (the PDF's second, after the cover)
# turned into docs/template.png, the pivot table's sheet (the last page)
# into docs/template-pivot.png, by pdftoppm (poppler-utils).
#
#   scripts/template-screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go run ./examples/template "$dir/report.xlsx"
soffice -env:UserInstallation=file://"$dir"/profile --headless --norestore --convert-to pdf --outdir "$dir" "$dir/report.xlsx" >/dev/null
pdftoppm -png -r 64 -f 2 -l 2 "$dir/report.pdf" "$dir/page"
mkdir -p docs
cp "$dir"/page-*2.png docs/template.png
last=$(pdfinfo "$dir/report.pdf" | awk '/^Pages:/ {print $2}')
pdftoppm -png -r 64 -f "$last" -l "$last" "$dir/report.pdf" "$dir/pivot"
cp "$dir"/pivot-*.png docs/template-pivot.png
echo "wrote docs/template.png and docs/template-pivot.png"
