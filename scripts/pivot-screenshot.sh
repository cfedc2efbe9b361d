#!/usr/bin/env bash
# Renders examples/pivot with LibreOffice for docs/pivots.md and the
# README: the workbook is converted to PDF by LibreOffice (headless), which
# shows the pivot tables' cells as sheetstream computed them, and the
# "By region" sheet's page (the third from the end, before "By product"
# and "Spread") turned into docs/pivot.png by pdftoppm (poppler-utils).
#
#   scripts/pivot-screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go run ./examples/pivot "$dir/pivot.xlsx"
soffice -env:UserInstallation=file://"$dir"/profile --headless --norestore --convert-to pdf --outdir "$dir" "$dir/pivot.xlsx" >/dev/null
last=$(pdfinfo "$dir/pivot.pdf" | awk '/^Pages:/ {print $2}')
page=$((last - 2))
pdftoppm -png -r 64 -f "$page" -l "$page" "$dir/pivot.pdf" "$dir/page"
mkdir -p docs
cp "$dir"/page-*.png docs/pivot.png
echo "wrote docs/pivot.png"
