"""openpyxl in write_only mode. Usage: openpyxl_write.py W OUT [ROWS]"""
import sys

import openpyxl

from workloads import header, rows

name, out = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else None
wb = openpyxl.Workbook(write_only=True)
ws = wb.create_sheet()
if header(name):
    ws.append(header(name))
for values in rows(name, n):
    ws.append(values)
wb.save(out)
