"""sheetstream: read and write Excel workbooks as Apache Arrow, fast and in
constant memory.

The work is done by sheetstream's Go library, loaded as a shared library
(_sheetstream.so, built into the wheel); rows cross into Python through
the Arrow C stream interface, a record batch at a time, never as a Python
object per cell. The GIL is released while Go reads or writes. One Go
runtime runs per process, started on import.

    import sheetstream
    table = sheetstream.read_excel("orders.xlsx")           # a pyarrow.Table
    for batch in sheetstream.read_batches("big.xlsx"):      # constant memory
        ...
    sheetstream.write_excel(df, "out.xlsx")                  # polars, pandas, pyarrow
    sheetstream.sheet_names("orders.xlsx")
"""

import ctypes
import json
import os
import shutil
import tempfile

import pyarrow as pa

__all__ = ["read_excel", "read_batches", "write_excel", "sheet_names", "SheetstreamError"]


class SheetstreamError(Exception):
    """An error of sheetstream's, with its message: the file, sheet and
    cell it is about."""


_lib = ctypes.CDLL(os.path.join(os.path.dirname(os.path.abspath(__file__)), "_sheetstream.so"))
_lib.ss_read.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_char_p, ctypes.c_void_p]
_lib.ss_read.restype = ctypes.c_void_p
_lib.ss_sheet_names.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
_lib.ss_sheet_names.restype = ctypes.c_void_p
_lib.ss_write.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int64)]
_lib.ss_write.restype = ctypes.c_void_p
_lib.ss_free.argtypes = [ctypes.c_void_p]
_lib.ss_free.restype = None

_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capsule_pointer.restype = ctypes.c_void_p

# struct ArrowArrayStream: get_schema, get_next, get_last_error, release,
# private_data.
_STREAM_SIZE = 5 * ctypes.sizeof(ctypes.c_void_p)


def _check(err):
    if err:
        message = ctypes.string_at(err).decode("utf-8", "replace")
        _lib.ss_free(err)
        raise SheetstreamError(message)


def _source(source):
    """(path, data, size, keep) for a path, bytes or a binary file object;
    keep holds what data points into until the call returns."""
    if isinstance(source, (str, os.PathLike)):
        return os.fsencode(source), None, 0, None
    if hasattr(source, "read"):
        source = source.read()
    if isinstance(source, (bytearray, memoryview)):
        source = bytes(source)
    if not isinstance(source, bytes):
        raise TypeError(f"source: a path, bytes or a binary file object, not {type(source).__name__}")
    keep = ctypes.c_char_p(source)
    return None, ctypes.cast(keep, ctypes.c_void_p), len(source), keep


def _dtype_name(t):
    names = {
        pa.int64(): "int64", pa.float64(): "float64", pa.string(): "string", pa.bool_(): "bool",
        pa.date32(): "date32", pa.timestamp("us"): "timestamp", pa.time64("us"): "time64", pa.duration("us"): "duration",
    }
    if isinstance(t, str):
        return t
    if t in names:
        return names[t]
    raise TypeError(f"dtype {t}: sheetstream reads int64, float64, string, bool, date32, timestamp[us], time64[us] or duration[us]")


def read_batches(source, *, batch_size=65536, sheet=0, header_row=0, dtypes=None, skip_rows=0, n_rows=None,
                 password=None, sample_rows=1000, widen=False):
    """Reads a sheet as a pyarrow.RecordBatchReader of batch_size rows, in
    memory that does not grow with the sheet.

    source is a path, bytes or a binary file object (.xlsx, .xlsm, .xlsb,
    .xls, .ods; an encrypted one with password). sheet is an index or a
    name; header_row the header's row (0-based; None: no header, columns
    A, B, C...); skip_rows the rows left out under the header; n_rows the
    most rows read; dtypes fixes columns' types by name (a pyarrow type or
    its name: int64, float64, string, bool, date32, timestamp, time64,
    duration), otherwise chosen from the first sample_rows values. A later
    cell that does not fit its column raises SheetstreamError naming it
    (when the batch it is in is read), unless widen is true: the sheet is
    then read once through first, and such columns widen as far as their
    cells need (int64 to float64, date32 to timestamp, else string).
    """
    path, data, size, keep = _source(source)
    request = {
        "index": sheet if isinstance(sheet, int) else 0,
        "sheet": sheet if isinstance(sheet, str) else None,
        "header_row": header_row, "skip_rows": skip_rows, "n_rows": n_rows or 0,
        "batch_size": batch_size, "password": password or "", "sample_rows": sample_rows, "widen": bool(widen),
        "dtypes": {name: _dtype_name(t) for name, t in (dtypes or {}).items()},
    }
    stream = ctypes.create_string_buffer(_STREAM_SIZE)
    _check(_lib.ss_read(path, data, size, json.dumps(request).encode(), ctypes.addressof(stream)))
    del keep
    reader = pa.RecordBatchReader._import_from_c(ctypes.addressof(stream))
    return pa.RecordBatchReader.from_batches(reader.schema, _batches(reader))


def _batches(reader):
    """reader's batches, its errors (which cross the C stream as OSError)
    as SheetstreamError."""
    try:
        yield from reader
    except (OSError, pa.ArrowException) as e:
        raise SheetstreamError(str(e)) from None


def read_excel(source, *, sheet=0, header_row=0, columns=None, dtypes=None, skip_rows=0, n_rows=None, password=None,
               sample_rows=1000, widen=False):
    """Reads a sheet into a pyarrow.Table (see read_batches for the
    arguments); columns selects columns by name or index.

    To polars: pl.from_arrow(read_excel(p)); to pandas: read_excel(p).to_pandas().
    """
    reader = read_batches(source, sheet=sheet, header_row=header_row, dtypes=dtypes, skip_rows=skip_rows,
                          n_rows=n_rows, password=password, sample_rows=sample_rows, widen=widen)
    table = reader.read_all()
    if columns is not None:
        table = table.select(list(columns))
    return table


def sheet_names(source, *, password=None):
    """The workbook's sheet names, in order."""
    path, data, size, keep = _source(source)
    names = ctypes.c_void_p()
    _check(_lib.ss_sheet_names(path, data, size, (password or "").encode(), ctypes.byref(names)))
    del keep
    try:
        return json.loads(ctypes.string_at(names).decode())
    finally:
        _lib.ss_free(names)


def _stream_capsule(data):
    """An Arrow C stream capsule of data: anything with
    __arrow_c_stream__ (pyarrow, polars, pandas 2.2+), or an older pandas
    DataFrame through pyarrow."""
    if hasattr(data, "__arrow_c_stream__"):
        return data.__arrow_c_stream__()
    if hasattr(data, "to_arrow"):
        return data.to_arrow().__arrow_c_stream__()
    try:
        import pandas
    except ImportError:
        pandas = None
    if pandas is not None and isinstance(data, pandas.DataFrame):
        return pa.Table.from_pandas(data, preserve_index=False).__arrow_c_stream__()
    raise TypeError(f"data: an object with __arrow_c_stream__ (pyarrow, polars, pandas), not {type(data).__name__}")


def write_excel(data, target, *, sheet="Sheet1", table=False, autofit=True, freeze_header=True, password=None):
    """Writes data to a new workbook at target (a path or a binary file
    object) and returns the rows written.

    data is anything with __arrow_c_stream__ (pyarrow tables and readers,
    polars and pandas DataFrames), or a dict of sheet name to such data.
    Each sheet gets a bold header of the column names (frozen unless
    freeze_header is False), fitted column widths (unless autofit is
    False), an autofilter or, with table, an Excel table; rows past
    Excel's 1,048,576 continue on "NAME (2)". password encrypts the
    workbook (AES-256, as Excel does).
    """
    sheets = data if isinstance(data, dict) else {sheet: data}
    names = list(sheets)
    capsules = [_stream_capsule(sheets[name]) for name in names]
    pointers = (ctypes.c_void_p * len(capsules))(*[_capsule_pointer(c, b"arrow_array_stream") for c in capsules])
    request = json.dumps({"sheets": names, "table": table, "autofit": autofit, "freeze_header": freeze_header,
                          "password": password or ""}).encode()
    rows = ctypes.c_int64()
    if hasattr(target, "write"):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "out.xlsx")
            _check(_lib.ss_write(os.fsencode(path), pointers, len(capsules), request, ctypes.byref(rows)))
            with open(path, "rb") as f:
                shutil.copyfileobj(f, target)
    else:
        _check(_lib.ss_write(os.fsencode(target), pointers, len(capsules), request, ctypes.byref(rows)))
    del capsules
    return rows.value
