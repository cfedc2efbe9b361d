#!/usr/bin/env bash
# Excel table benchmark (#16): W1 (1M rows x 10) written plain and as an
# Excel table with a totals row (sswrite -table: sums under the number
# columns), alternately, in one run. Prints medians, peak RSS and the
# ratio; the table must cost no more than 5%.
#
#   bench/table.sh [-n runs]
exec "$(dirname "$0")/plain-vs.sh" table -table xl/tables/table1.xml "<table " "$@"
