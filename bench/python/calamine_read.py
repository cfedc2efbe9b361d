"""Read every cell of a workbook's first sheet with python-calamine (its
row iterator), fastexcel (calamine into Arrow columns) or openpyxl
(read-only mode): python calamine_read.py calamine|fastexcel|openpyxl FILE."""
import sys

mode, path = sys.argv[1], sys.argv[2]
cells = 0
if mode == "calamine":
    import python_calamine
    wb = python_calamine.CalamineWorkbook.from_path(path)
    for row in wb.get_sheet_by_index(0).iter_rows():
        cells += sum(1 for v in row if v != "")
elif mode == "fastexcel":
    import fastexcel
    table = fastexcel.read_excel(path).load_sheet(0).to_arrow()
    cells = sum(table.num_rows - col.null_count for col in table.columns)
else:
    import openpyxl
    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    for row in wb.worksheets[0].iter_rows(values_only=True):
        cells += sum(1 for v in row if v is not None)
print(cells, "cells")
