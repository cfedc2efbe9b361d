#!/usr/bin/env bash
# Runs the whole suite, one part after another, and prints each part's
# markdown report: writing (run.sh: W1, W2, W3 against every writer),
# reading (read.sh: R1), database exports (export.sh: E1, E2) and the
# service under load and under faults (serve.sh: S1, faults.sh: S2),
# encryption (encrypt.sh), imports (import.sh: I1), the legacy formats
# (legacy.sh: L1-L3), Excel tables (table.sh), charts (chart.sh) and
# templates (template.sh). About 50 minutes with
# the defaults.
#
#   bench/all.sh [-n runs]
set -euo pipefail
cd "$(dirname "$0")"
runs=3
while getopts "n:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    *) exit 2 ;;
  esac
done
echo "# Writing (W1-W3)"; ./run.sh -n "$runs"
echo; echo "# Reading (R1)"; ./read.sh -n "$runs"
echo; echo "# Database exports (E1, E2)"; ./export.sh -n "$runs"
echo; echo "# Service (S1)"; ./serve.sh
echo; echo "# Service under faults and 256 downloads at once (S2)"; ./faults.sh
echo; echo "# Encrypted workbooks (W1 and R1, plain and encrypted)"; ./encrypt.sh -n "$runs"
echo; echo "# Imports (I1)"; ./import.sh -n "$runs"
echo; echo "# Legacy formats (L1-L3)"; ./legacy.sh -n "$runs"
echo; echo "# Excel tables (W1 plain and as a table with totals)"; ./table.sh -n "$runs"
echo; echo "# Charts (W1 plain and with a scatter chart over every row)"; ./chart.sh -n "$runs"
echo; echo "# Templates (W1 plain and filled into a designed template)"; ./template.sh -n "$runs"
