"""Tests of the Python package, against the installed wheel (or the
package folder on PYTHONPATH with its shared library built), read back by
independent readers: python-calamine, openpyxl, fastexcel."""

import datetime
import decimal
import io
import os
import subprocess
import sys
import textwrap

import pyarrow as pa
import pytest
from python_calamine import CalamineWorkbook

import sheetstream


def calamine_rows(path, sheet=0):
    wb = CalamineWorkbook.from_path(str(path))
    name = wb.sheet_names[sheet] if isinstance(sheet, int) else sheet
    return wb.get_sheet_by_name(name).to_python()


def test_every_arrow_type_round_trips(tmp_path):
    day = datetime.date(2025, 3, 1)
    at = datetime.datetime(2025, 3, 1, 13, 45, 30, 250000)
    table = pa.table({
        "i8": pa.array([1, None, -3], pa.int8()),
        "i32": pa.array([1, 2, None], pa.int32()),
        "i64": pa.array([10**12, None, 3], pa.int64()),
        "u16": pa.array([1, 2, 3], pa.uint16()),
        "f32": pa.array([0.5, None, 2.0], pa.float32()),
        "f64": pa.array([1.25, 2.5, None], pa.float64()),
        "ok": pa.array([True, None, False]),
        "s": pa.array(["é", None, "c"]),
        "ls": pa.array(["a", "b", None], pa.large_string()),
        "day": pa.array([day, None, day + datetime.timedelta(days=2)], pa.date32()),
        "at": pa.array([at, None, at], pa.timestamp("us")),
        "at_ns": pa.array([at, at, None], pa.timestamp("ns")),
        "clock": pa.array([datetime.time(13, 5, 7), None, datetime.time(0, 0, 1)], pa.time64("us")),
        "took": pa.array([datetime.timedelta(minutes=90), None, datetime.timedelta(seconds=1)], pa.duration("ms")),
        "price": pa.array([decimal.Decimal("1.50"), None, decimal.Decimal("-2.25")], pa.decimal128(9, 2)),
        "kind": pa.array(["red", "blue", None]).dictionary_encode(),
    })
    path = tmp_path / "types.xlsx"
    assert sheetstream.write_excel(table, path) == 3
    back = sheetstream.read_excel(path)
    types = {f.name: str(f.type) for f in back.schema}
    assert types == {
        "i8": "int64", "i32": "int64", "i64": "int64", "u16": "int64", "f32": "double", "f64": "double",
        "ok": "bool", "s": "string", "ls": "string", "day": "date32[day]", "at": "timestamp[us]",
        "at_ns": "timestamp[us]", "clock": "time64[us]", "took": "duration[us]", "price": "double", "kind": "string",
    }
    rows = back.to_pylist()
    assert rows[0]["i64"] == 10**12 and rows[2]["i8"] == -3 and rows[0]["f32"] == 0.5
    assert rows[0]["s"] == "é" and rows[1]["s"] is None and rows[1]["ls"] == "b"
    assert rows[2]["day"] == datetime.date(2025, 3, 3)
    assert rows[0]["at"] == at and rows[1]["at_ns"] == at
    assert rows[0]["clock"] == datetime.time(13, 5, 7)
    assert rows[0]["took"] == datetime.timedelta(minutes=90)
    assert rows[2]["price"] == -2.25 and rows[1]["kind"] == "blue"
    for name in table.column_names:  # nulls stay nulls
        assert back.column(name).null_count == table.column(name).null_count, name
    # python-calamine reads the same cells.
    cal = calamine_rows(path)
    assert cal[0][:3] == ["i8", "i32", "i64"]
    assert cal[1][2] == 10**12 and cal[3][0] == -3 and cal[1][7] == "é"


def test_pandas_and_polars(tmp_path):
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    df = pd.DataFrame({
        "when": pd.to_datetime(["2025-01-02 03:04:05", None, "2025-12-31 23:59:59"]),
        "day": [datetime.date(2025, 1, 2), None, datetime.date(2025, 12, 31)],
        "paid": [True, False, None],
        "amount": [1.5, None, 3.25],
        "name": ["a", None, "c"],
    })
    path = tmp_path / "pandas.xlsx"
    sheetstream.write_excel(df, path)
    back = sheetstream.read_excel(path).to_pandas()
    assert list(back.columns) == ["when", "day", "paid", "amount", "name"]
    assert back["when"][0] == pd.Timestamp("2025-01-02 03:04:05") and pd.isna(back["when"][1])
    assert back["paid"].tolist()[:2] == [True, False] and pd.isna(back["paid"][2])
    assert pd.isna(back["amount"][1]) and back["name"][2] == "c"

    frame = pl.DataFrame({"n": [1, 2, 3], "x": [0.5, None, 1.5], "s": ["a", "b", None]})
    path = tmp_path / "polars.xlsx"
    assert sheetstream.write_excel(frame, path, table=True) == 3
    again = pl.from_arrow(sheetstream.read_excel(path))
    assert again.equals(frame)


def test_several_sheets_files_and_bytes(tmp_path):
    a = pa.table({"x": [1, 2]})
    b = pa.table({"y": ["p", "q", "r"]})
    buf = io.BytesIO()
    sheetstream.write_excel({"First": a, "Second": b}, buf)
    data = buf.getvalue()
    assert sheetstream.sheet_names(data) == ["First", "Second"]
    assert sheetstream.read_excel(io.BytesIO(data), sheet="Second").column("y").to_pylist() == ["p", "q", "r"]
    assert sheetstream.read_excel(data, sheet=0).column("x").to_pylist() == [1, 2]
    path = tmp_path / "two.xlsx"
    path.write_bytes(data)
    assert calamine_rows(path, "Second") == [["y"], ["p"], ["q"], ["r"]]
    with pytest.raises(sheetstream.SheetstreamError, match='no sheet named "Third"'):
        sheetstream.read_excel(path, sheet="Third")


def test_options_and_misfits(tmp_path):
    rows = [{"n": i, "v": str(i)} for i in range(50)] + [{"n": 1.5, "v": "x"}]
    table = pa.table({"n": pa.array([r["n"] for r in rows], pa.float64()), "v": [r["v"] for r in rows]})
    path = tmp_path / "late.xlsx"
    sheetstream.write_excel(table, path)
    with pytest.raises(sheetstream.SheetstreamError, match=r"cell A52 .*does not fit its column \(int64\)"):
        sheetstream.read_excel(path, sample_rows=10)
    fixed = sheetstream.read_excel(path, sample_rows=10, dtypes={"n": pa.float64()})
    assert fixed.column("n").to_pylist()[-1] == 1.5
    part = sheetstream.read_excel(path, skip_rows=2, n_rows=3, columns=["v"])
    assert part.column("v").to_pylist() == ["2", "3", "4"]
    plain = sheetstream.read_excel(path, header_row=None, n_rows=2)
    assert plain.column_names == ["A", "B"] and plain.column("A").to_pylist() == ["n", "0"]
    # widen: the late fraction widens its column instead (from a file
    # object too, read twice), and so does a late text in a column of
    # numbers (the numbers then as their text).
    wide = sheetstream.read_excel(io.BytesIO(path.read_bytes()), sample_rows=10, widen=True)
    assert wide.schema.field("n").type == pa.float64() and wide.column("n").to_pylist()[-1] == 1.5
    assert wide.column("n").to_pylist()[:3] == [0.0, 1.0, 2.0]
    import openpyxl
    book = openpyxl.Workbook()
    book.active.append(["n", "k"])
    for i in range(50):
        book.active.append([i, i * 10])
    book.active.append([2.5, "later"])
    book.save(tmp_path / "mixed.xlsx")
    wide = sheetstream.read_excel(tmp_path / "mixed.xlsx", sample_rows=10, dtypes={"n": "int64"}, widen=True)
    assert wide.schema.field("n").type == pa.float64() and wide.column("n").to_pylist()[-1] == 2.5
    assert wide.schema.field("k").type == pa.string()
    assert wide.column("k").to_pylist()[-2:] == ["490", "later"]


def test_encrypted(tmp_path):
    path = tmp_path / "secret.xlsx"
    sheetstream.write_excel(pa.table({"x": [1]}), path, password="correct horse")
    with open(path, "rb") as f:
        assert f.read(8) == bytes.fromhex("D0CF11E0A1B11AE1")  # a compound file: encrypted
    assert sheetstream.read_excel(path, password="correct horse").column("x").to_pylist() == [1]
    with pytest.raises(sheetstream.SheetstreamError, match="password"):
        sheetstream.read_excel(path, password="wrong")


def test_hostile_files_raise(tmp_path):
    for name, data in [("random.xlsx", os.urandom(4096)), ("text.xlsx", b"id,name\n1,a\n"),
                       ("cut.xlsx", b"PK\x03\x04" + os.urandom(100)), ("empty.xlsx", b"")]:
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(sheetstream.SheetstreamError):
            sheetstream.read_excel(path)
    with pytest.raises(TypeError):
        sheetstream.read_excel(12)
    with pytest.raises(TypeError):
        sheetstream.write_excel([1, 2], tmp_path / "x.xlsx")


def test_equal_to_fastexcel(tmp_path):
    fastexcel = pytest.importorskip("fastexcel")
    table = pa.table({
        "id": pa.array(range(1000), pa.int64()),
        "x": pa.array([i / 7 for i in range(1000)]),
        "s": pa.array([f"name {i}" for i in range(1000)]),
        "ok": pa.array([i % 2 == 0 for i in range(1000)]),
    })
    path = tmp_path / "fe.xlsx"
    sheetstream.write_excel(table, path)
    ours = sheetstream.read_excel(path)
    theirs = fastexcel.read_excel(str(path)).load_sheet(0).to_arrow()
    assert ours.column_names == theirs.column_names
    for name in ours.column_names:
        assert ours.column(name).to_pylist() == theirs.column(name).to_pylist(), name


def test_read_batches_memory(tmp_path):
    """Reading batches of a large sheet: the process grows far less than
    the sheet."""
    path = tmp_path / "big.xlsx"
    n = 400_000
    sheetstream.write_excel(pa.table({
        "id": pa.array(range(n), pa.int64()),
        "x": pa.array([i * 0.5 for i in range(n)]),
        "s": pa.array([f"text number {i}" for i in range(n)]),
    }), path)
    script = textwrap.dedent(f"""
        import resource, sheetstream
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        rows = 0
        for batch in sheetstream.read_batches({str(path)!r}, batch_size=16384):
            rows += batch.num_rows
        grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        print(rows, grew // 1024)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         env=dict(os.environ)).stdout.split()
    rows, grew_mib = int(out[0]), int(out[1])
    assert rows == n
    assert grew_mib < 64, f"grew {grew_mib} MiB reading {n} rows"


def legacy_corpus():
    """../shared/corpus-legacy beside the checkout, as the Go tests find
    it; CI must have it."""
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "..", "shared", "corpus-legacy")
    if not os.path.exists(os.path.join(path, "MANIFEST.tsv")):
        if os.environ.get("CI"):
            pytest.fail("the shared corpus-legacy must sit beside the checkout in CI")
        pytest.skip("no ../shared/corpus-legacy")
    return path


@pytest.mark.parametrize("name", [
    "readxl/testthat__sheets__dates-1904.xls",
    "readxl/testthat__sheets__utf8-sheet-names.xls",
    "sheetjs_test_files/issue2717.ods",
    "sheetjs_test_files/apachepoi_DateFormats.xls.xlsb",
])
def test_legacy_formats(name):
    """.xls, .ods and .xlsb read as python-calamine reads them: every cell
    it sees is a non-null value here, and no more."""
    path = os.path.join(legacy_corpus(), name)
    table = sheetstream.read_excel(path, header_row=None, sample_rows=1_000_000)
    cal = calamine_rows(path)
    want = sum(1 for row in cal for v in row if v != "")
    got = sum(len(col) - col.null_count for col in table.columns)
    assert got == want, f"{name}: {got} values, python-calamine {want}"
