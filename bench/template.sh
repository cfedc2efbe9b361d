#!/usr/bin/env bash
# Template benchmark (#35): W1 (1M rows x 10) written plain and into a
# designed template (sswrite -template: a table with a totals row and a chart),
# alternately, in one run. Prints medians, peak RSS and the ratio; the
# template must cost no more than 10% and stay within 40 MiB.
#
#   bench/template.sh [-n runs]
exec "$(dirname "$0")/plain-vs.sh" template -template xl/tables/table1.xml "A1:J1000002" "$@"
