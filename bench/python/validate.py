"""Checks a benchmark output with python-calamine: the row count and a
sample of values must match the workload. Usage: validate.py W FILE [ROWS]"""
import sys

import python_calamine

from workloads import DEFAULT_ROWS, header, rows

name, path = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else DEFAULT_ROWS[name]
sheet = python_calamine.CalamineWorkbook.from_path(path).get_sheet_by_index(0).to_python()
offset = 1 if header(name) else 0
if len(sheet) != n + offset:
    sys.exit("%s: %d rows, want %d" % (path, len(sheet), n + offset))
if offset and sheet[0] != header(name):
    sys.exit("%s: header %r" % (path, sheet[0]))
sample = {0, 1, 7, n // 3, n // 2, n - 1}
for i, want in enumerate(rows(name, n)):
    if i not in sample:
        continue
    got = sheet[i + offset]
    for j, w in enumerate(want):
        g = got[j]
        ok = abs(g - w) <= 1e-9 * max(1, abs(w)) if isinstance(w, (int, float)) else g == w
        if not ok:
            sys.exit("%s: row %d col %d: got %r, want %r" % (path, i, j, g, w))
