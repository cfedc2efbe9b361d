#!/usr/bin/env bash
# Chart benchmark (#34): W1 (1M rows x 10) written plain and with a scatter
# chart of column E against column A over every row (sswrite -chart),
# alternately, in one run. Prints medians, peak RSS and the ratio; the
# chart must cost no more than 10% and stay within 40 MiB.
#
#   bench/chart.sh [-n runs]
exec "$(dirname "$0")/plain-vs.sh" chart -chart xl/charts/chart1.xml "<c:scatterChart>" "$@"
