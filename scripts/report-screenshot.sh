#!/usr/bin/env bash
# Renders examples/report with LibreOffice for the README: the report is
# written, converted to PDF by LibreOffice (headless), and its first page
# turned into docs/report.png by pdftoppm (poppler-utils).
#
#   scripts/report-screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go run ./examples/report "$dir/report.xlsx"
soffice -env:UserInstallation=file://"$dir"/profile --headless --norestore --convert-to pdf --outdir "$dir" "$dir/report.xlsx" >/dev/null
pdftoppm -png -r 64 -f 1 -l 1 "$dir/report.pdf" "$dir/page"
mkdir -p docs
cp "$dir/page-1.png" docs/report.png
echo "wrote docs/report.png"
