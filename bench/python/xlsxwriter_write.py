"""XlsxWriter in constant_memory mode. Usage: xlsxwriter_write.py W OUT [ROWS]"""
import sys

import xlsxwriter

from workloads import header, rows

name, out = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else None
wb = xlsxwriter.Workbook(out, {"constant_memory": True})
ws = wb.add_worksheet()
r = 0
if header(name):
    ws.write_row(0, 0, header(name))
    r = 1
for values in rows(name, n):
    ws.write_row(r, 0, values)
    r += 1
wb.close()
