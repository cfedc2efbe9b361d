"""The Python package against its peers (bench/python.sh): one step per
process, so that each peak RSS is its own.

  arrow_bench.py write-w1 PATH ROWS       W1 written by XlsxWriter (constant memory)
  arrow_bench.py read-ss PATH             sheetstream.read_excel into a pyarrow.Table
  arrow_bench.py read-fastexcel PATH      fastexcel's load_sheet(0).to_arrow()
  arrow_bench.py compare PATH             both readers' values, column by column
  arrow_bench.py batches PATH             read_batches: how much the process grows
  arrow_bench.py write-ss PATH OUT        a polars DataFrame of W1 by sheetstream.write_excel
  arrow_bench.py write-polars PATH OUT    the same by polars' own write_excel
  arrow_bench.py check-written PATH OUT   OUT read back by python-calamine equals PATH's rows
Each prints one line: the step's own seconds (the work, not the setup).
"""
import resource
import sys
import time

import workloads


def main():
    step, path = sys.argv[1], sys.argv[2]
    if step == "write-w1":
        import xlsxwriter
        wb = xlsxwriter.Workbook(path, {"constant_memory": True})
        ws = wb.add_worksheet()
        ws.write_row(0, 0, workloads.header("W1"))
        for i, row in enumerate(workloads.rows("W1", int(sys.argv[3]))):
            ws.write_row(i + 1, 0, row)
        wb.close()
        return
    import sheetstream
    if step == "read-ss":
        start = time.perf_counter()
        t = sheetstream.read_excel(path)
        print(f"{time.perf_counter() - start:.3f} rows={t.num_rows}")
    elif step == "read-fastexcel":
        import fastexcel
        start = time.perf_counter()
        t = fastexcel.read_excel(path).load_sheet(0).to_arrow()
        print(f"{time.perf_counter() - start:.3f} rows={t.num_rows}")
    elif step == "compare":
        import fastexcel
        ours = sheetstream.read_excel(path)
        theirs = fastexcel.read_excel(path).load_sheet(0).to_arrow()
        assert ours.column_names == theirs.column_names, (ours.column_names, theirs.column_names)
        for name in ours.column_names:
            a, b = ours.column(name).to_pylist(), theirs.column(name).to_pylist()
            assert a == b, f"column {name} differs"
        print(f"equal rows={ours.num_rows} types={[str(f.type) for f in ours.schema]} fastexcel={[str(f.type) for f in theirs.schema]}")
    elif step == "batches":
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start, rows = time.perf_counter(), 0
        for batch in sheetstream.read_batches(path):
            rows += batch.num_rows
        grew = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
        print(f"{time.perf_counter() - start:.3f} rows={rows} grew={grew:.1f}MiB")
    elif step in ("write-ss", "write-polars"):
        import polars as pl
        df = pl.from_arrow(sheetstream.read_excel(path))
        start = time.perf_counter()
        if step == "write-ss":
            sheetstream.write_excel(df, sys.argv[3])
        else:
            df.write_excel(sys.argv[3])
        print(f"{time.perf_counter() - start:.3f} rows={df.height}")
    elif step == "check-written":
        from python_calamine import CalamineWorkbook
        src = sheetstream.read_excel(path)
        wb = CalamineWorkbook.from_path(sys.argv[3])
        rows = wb.get_sheet_by_index(0).to_python()
        assert rows[0] == src.column_names, rows[0]
        want = src.to_pylist()
        assert len(rows) - 1 == len(want), (len(rows), len(want))
        for i in (0, len(want) // 2, len(want) - 1):
            assert list(want[i].values()) == rows[i + 1], (i, want[i], rows[i + 1])
        print(f"equal rows={len(want)}")
    else:
        raise SystemExit("unknown step " + step)


if __name__ == "__main__":
    main()
