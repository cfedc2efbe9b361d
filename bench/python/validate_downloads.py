"""Check downloaded exports with python-calamine: every file has the
expected row count, and sampled rows hold the values the query makes.
Usage: validate_downloads.py ROWS FILE..."""
import sys

import python_calamine

rows = int(sys.argv[1])
for path in sys.argv[2:]:
    data = python_calamine.CalamineWorkbook.from_path(path).get_sheet_by_index(0).to_python()
    assert len(data) == rows + 1, (path, len(data))
    assert [str(v) for v in data[0]][:2] == ["id", "label"], (path, data[0])
    for i in (1, rows // 2, rows):
        r = data[i]
        assert int(r[0]) == i and r[1] == "row %d" % i and float(r[2]) == i * 0.25, (path, i, r)
print("%d files valid" % (len(sys.argv) - 2))
