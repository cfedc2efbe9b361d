"""Read workbooks back with independent readers, for sheetstream's tests.

Usage: readback.py [--no-audit] FILE.xlsx... ; prints one JSON object keyed by file:
  audit:     openxml-audit's errors (Open XML SDK rules, Office 2019)
  warnings:  its findings below error severity
  sheets:    sheet names in order, with openpyxl's visibility state
  openpyxl:  values per sheet (data_only: formulas give their cached value)
  formulas:  formula text per sheet and cell (openpyxl, normal mode)
  calamine:  values per sheet from python-calamine
  merged, links, freeze, widths, dims: layout as openpyxl sees it
readback.py --cells FILE... prints instead, per file, openpyxl's
non-empty cells in data-only mode: {sheet: [[row, col, value]]}.
readback.py --calamine FILE... and --xlrd FILE.xls... print the same
from python-calamine (any format it reads) and xlrd (.xls), with the
sheet names and visibility under "sheets".
Each value is [type, value]: n (number), s (text), b (bool), d (date-time
ISO 8601), t (time of day), dur (seconds), e (error), or null for empty.
"""
import contextlib
import datetime
import json
import signal
import sys
import warnings

import openpyxl
import python_calamine
from openxml_audit import OpenXmlValidator, ValidationSeverity

warnings.simplefilter("ignore")


def typed(v):
    if v is None:
        return None
    if isinstance(v, bool):
        return ["b", v]
    if isinstance(v, (int, float)):
        return ["n", v]
    if isinstance(v, datetime.datetime):
        return ["d", v.isoformat()]
    if isinstance(v, datetime.date):
        return ["d", datetime.datetime(v.year, v.month, v.day).isoformat()]
    if isinstance(v, datetime.time):
        return ["t", v.isoformat()]
    if isinstance(v, datetime.timedelta):
        return ["dur", v.total_seconds()]
    if isinstance(v, str) and v in ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA"):
        return ["e", v]
    return ["s", str(v)]


def typed_text(v):
    """typed, but text that looks like an error code stays text."""
    if isinstance(v, str):
        return ["s", v]
    return typed(v)


def trim(rows):
    out = [list(r) for r in rows]
    for r in out:
        while r and r[-1] is None:
            r.pop()
    while out and not out[-1]:
        out.pop()
    return out


def read(path, validator):
    res = {"audit": [], "warnings": []}
    if validator is None:
        res["audit_skipped"] = True
    else:
      try:
        r = validator.validate(path)
        res["audit"] = [str(e) for e in r.errors if e.severity == ValidationSeverity.ERROR]
        res["warnings"] = [str(e) for e in r.errors if e.severity != ValidationSeverity.ERROR]
      except Exception as e:  # a crash of the validator is a finding too
        res["audit"] = ["validator failed: %r" % e]
    wb = openpyxl.load_workbook(path, data_only=True)
    res["sheets"] = [[ws.title, ws.sheet_state] for ws in wb.worksheets]
    res["openpyxl"] = {}
    for key in ("merged", "links", "freeze", "widths", "dims", "hidden_cols", "hidden_rows", "heights", "tables", "validations", "print", "protection", "outline", "cond_formats", "notes", "images", "charts"):
        res[key] = {}
    for cs in wb.chartsheets:
        res["charts"][cs.title] = [chart(c) for c in cs._charts]
    for ws in wb.worksheets:
        res["openpyxl"][ws.title] = trim([[typed(c.value) for c in row] for row in ws.iter_rows()])
        res["merged"][ws.title] = sorted(str(m) for m in ws.merged_cells.ranges)
        res["links"][ws.title] = {c.coordinate: (c.hyperlink.target or "#" + (c.hyperlink.location or ""))
                                  for row in ws.iter_rows() for c in row if c.hyperlink}
        res["freeze"][ws.title] = ws.freeze_panes
        res["widths"][ws.title] = {k: d.width for k, d in ws.column_dimensions.items() if d.customWidth}
        res["hidden_cols"][ws.title] = sorted(k for k, d in ws.column_dimensions.items() if d.hidden)
        res["hidden_rows"][ws.title] = sorted(k for k, d in ws.row_dimensions.items() if d.hidden)
        res["heights"][ws.title] = {str(k): d.height for k, d in ws.row_dimensions.items() if d.height}
        res["dims"][ws.title] = ws.auto_filter.ref
        res["tables"][ws.title] = [table(t) for t in ws.tables.values()]
        res["images"][ws.title] = [image(i) for i in ws._images]
        res["charts"][ws.title] = [chart(c) for c in ws._charts]
        res["notes"][ws.title] = {c.coordinate: [c.comment.text, c.comment.author]
                                  for row in ws.iter_rows() for c in row if c.comment is not None}
        res["cond_formats"][ws.title] = [cond_rule(str(cf.sqref), r) for cf in ws.conditional_formatting for r in cf.rules]
        op = ws.sheet_properties.outlinePr
        res["outline"][ws.title] = {
            "rows": {str(k): [d.outlineLevel or 0, bool(d.hidden), bool(d.collapsed)] for k, d in ws.row_dimensions.items() if d.outlineLevel or d.collapsed},
            "cols": {k: [d.outlineLevel or 0, bool(d.collapsed)] for k, d in ws.column_dimensions.items() if d.outlineLevel},
            "level_row": ws.sheet_format.outlineLevelRow or 0, "level_col": ws.sheet_format.outlineLevelCol or 0,
            "summary_below": op is None or op.summaryBelow is None or bool(op.summaryBelow),
            "summary_right": op is None or op.summaryRight is None or bool(op.summaryRight),
        }
        sp = ws.protection
        res["protection"][ws.title] = {
            "sheet": bool(sp.sheet), "algorithm": sp.algorithmName, "spin_count": sp.spinCount,
            "has_hash": bool(sp.hashValue), "format_cells": not sp.formatCells, "insert_rows": not sp.insertRows,
            "sort": not sp.sort,
            "unlocked": sorted(c.coordinate for row in ws.iter_rows() for c in row if c.protection is not None and not c.protection.locked),
            "hidden": sorted(c.coordinate for row in ws.iter_rows() for c in row if c.protection is not None and c.protection.hidden),
        }
        ps, po, pm = ws.page_setup, ws.print_options, ws.page_margins
        fit = ws.sheet_properties.pageSetUpPr
        res["print"][ws.title] = {
            "area": ws.print_area, "title_rows": ws.print_title_rows, "title_cols": ws.print_title_cols,
            "orientation": ps.orientation, "paper": ps.paperSize, "scale": ps.scale,
            "fit": bool(fit is not None and fit.fitToPage), "fit_wide": ps.fitToWidth, "fit_tall": ps.fitToHeight,
            "first_page": ps.firstPageNumber, "black_and_white": bool(ps.blackAndWhite),
            "gridlines": bool(po.gridLines), "headings": bool(po.headings),
            "center": [bool(po.horizontalCentered), bool(po.verticalCentered)],
            "margins": [pm.left, pm.right, pm.top, pm.bottom, pm.header, pm.footer],
            "header": [ws.oddHeader.left.text, ws.oddHeader.center.text, ws.oddHeader.right.text],
            "footer": [ws.oddFooter.left.text, ws.oddFooter.center.text, ws.oddFooter.right.text],
            "row_breaks": [b.id for b in ws.row_breaks.brk], "col_breaks": [b.id for b in ws.col_breaks.brk],
        }
        res["validations"][ws.title] = [{
            "type": dv.type, "operator": dv.operator, "formula1": dv.formula1, "formula2": dv.formula2,
            "sqref": str(dv.sqref), "allow_blank": bool(dv.allow_blank), "hide_drop_down": bool(dv.showDropDown),
            "prompt_title": dv.promptTitle, "prompt": dv.prompt, "error_title": dv.errorTitle, "error": dv.error,
            "error_style": dv.errorStyle} for dv in ws.data_validations.dataValidation]
    wp = wb.security
    res["workbook_protection"] = None if wp is None else {
        "structure": bool(wp.lockStructure), "windows": bool(wp.lockWindows), "algorithm": wp.workbookAlgorithmName}
    wbf = openpyxl.load_workbook(path)
    res["formulas"] = {ws.title: {c.coordinate: c.value for row in ws.iter_rows() for c in row
                                  if isinstance(c.value, str) and c.value.startswith("=")}
                       for ws in wbf.worksheets}
    res["arrays"] = {ws.title: {c.coordinate: [c.value.ref, c.value.text] for row in ws.iter_rows() for c in row
                                if type(c.value).__name__ == "ArrayFormula"}
                     for ws in wbf.worksheets}
    cal = python_calamine.CalamineWorkbook.from_path(path)
    res["calamine"] = {}
    for name in cal.sheet_names:
        rows = cal.get_sheet_by_name(name).to_python(skip_empty_area=False)
        res["calamine"][name] = trim([[None if v == "" else typed(v) for v in row] for row in rows])
    return res


def image(i):
    a = i.anchor
    out = {"format": (i.format or "").lower(), "width": i.width, "height": i.height}
    if hasattr(a, "_from"):
        out["from"] = [a._from.col, a._from.colOff, a._from.row, a._from.rowOff]
    if hasattr(a, "to") and a.to is not None:
        out["to"] = [a.to.col, a.to.colOff, a.to.row, a.to.rowOff]
    out["edit_as"] = getattr(a, "editAs", None)
    return out


def rich_text(t):
    """The text of a title: its rich runs or the cell it refers to."""
    if t is None or t.tx is None:
        return None
    if t.tx.strRef is not None:
        return "=" + t.tx.strRef.f
    if t.tx.rich is not None:
        return "".join(r.t for p in t.tx.rich.p for r in (p.r or []))
    return None


def data_ref(d):
    """A series' data source: its reference, from a number or string ref."""
    if d is None:
        return None
    for kind in ("numRef", "strRef"):
        r = getattr(d, kind, None)
        if r is not None:
            return r.f
    return None


def chart(c):
    """A chart as openpyxl read it: its kind, series and axes; a combined
    chart's second kind in "combined"."""
    out = {"type": c.tagname, "title": rich_text(c.title), "series": [], "style": c.style}
    for s in c.series:
        cat = getattr(s, "cat", None) or getattr(s, "xVal", None)
        val = getattr(s, "val", None) or getattr(s, "yVal", None)
        name = None
        if s.tx is not None:
            name = ("=" + s.tx.strRef.f) if s.tx.strRef is not None else s.tx.v
        out["series"].append({"values": data_ref(val), "categories": data_ref(cat), "name": name,
                              "trendline": s.trendline.trendlineType if getattr(s, "trendline", None) is not None else None})
    for ax in ("x_axis", "y_axis"):
        a = getattr(c, ax, None)
        if a is not None:
            out[ax] = {"kind": a.tagname, "title": rich_text(a.title),
                       "min": a.scaling.min, "max": a.scaling.max, "delete": bool(a.delete)}
    out["combined"] = [o.tagname for o in getattr(c, "_charts", [])[1:]]
    return out


def color(c):
    return c.rgb if c is not None and isinstance(c.rgb, str) else None


def cond_rule(sqref, r):
    out = {"sqref": sqref, "type": r.type, "priority": r.priority, "operator": r.operator,
           "formula": list(r.formula or []), "text": r.text, "rank": r.rank, "percent": bool(r.percent),
           "bottom": bool(r.bottom), "above_average": r.aboveAverage is None or bool(r.aboveAverage),
           "stop": bool(r.stopIfTrue)}
    if r.dxf is not None:
        font, fill = r.dxf.font, r.dxf.fill
        out["dxf"] = {"bold": bool(font and font.b), "font_color": color(font.color) if font else None,
                      "fill": color(fill.bgColor) if fill is not None and fill.bgColor is not None else None,
                      "num_fmt": r.dxf.numFmt.formatCode if r.dxf.numFmt is not None else None}
    if r.colorScale is not None:
        out["colors"] = [color(c) for c in r.colorScale.color]
    if r.dataBar is not None:
        out["colors"] = [color(r.dataBar.color)]
    if r.iconSet is not None:
        out["icons"] = [r.iconSet.iconSet, bool(r.iconSet.reverse), r.iconSet.showValue is not None and not r.iconSet.showValue]
    return out


def table(t):
    info = t.tableStyleInfo
    return {
        "name": t.displayName, "ref": t.ref, "header_rows": t.headerRowCount, "totals_rows": t.totalsRowCount or 0,
        "filter": t.autoFilter.ref if t.autoFilter is not None else None,
        "style": info.name if info is not None else None,
        "stripes": [bool(info.showRowStripes), bool(info.showColumnStripes)] if info is not None else None,
        "columns": [{"name": c.name, "function": c.totalsRowFunction, "label": c.totalsRowLabel,
                     "formula": c.calculatedColumnFormula.attr_text if c.calculatedColumnFormula is not None else None}
                    for c in t.tableColumns],
    }


class TooSlow(Exception):
    pass


def too_slow(signum, frame):
    raise TooSlow("openpyxl took over %d s" % CELLS_TIMEOUT)


# A few corpus files (a sheet with a cell near XFD1048576, say) keep
# openpyxl busy for minutes; they are reported as unreadable, not waited on.
CELLS_TIMEOUT = 10


def cells(path):
    signal.signal(signal.SIGALRM, too_slow)
    signal.alarm(CELLS_TIMEOUT)
    wb = None
    try:
        # Normal mode: read-only mode trusts the sheet's dimension and
        # drops cells outside it.
        wb = openpyxl.load_workbook(path, data_only=True)
        out = {}
        for ws in wb.worksheets:
            # ws._cells holds the cells the file has, without the empty
            # grid iter_rows would make up.
            out[ws.title] = [[r, c, ["e", cell.value] if cell.data_type == "e" else typed_text(cell.value)]
                             for (r, c), cell in sorted(ws._cells.items()) if cell.value is not None]
        return {"cells": out}
    finally:
        signal.alarm(0)
        if wb is not None:
            wb.close()


def calamine_cells(path):
    cal = python_calamine.CalamineWorkbook.from_path(path)
    out = {"sheets": [[s.name, str(s.visible)] for s in cal.sheets_metadata], "cells": {}}
    for name in cal.sheet_names:
        # Without skip_empty_area the rows start at A1.
        rows = cal.get_sheet_by_name(name).to_python(skip_empty_area=False)
        out["cells"][name] = [[r + 1, c + 1, typed(v)] for r, row in enumerate(rows)
                              for c, v in enumerate(row) if v != ""]
    return out


def xlrd_cells(path):
    import xlrd
    book = xlrd.open_workbook(path, on_demand=True, logfile=sys.stderr)
    out = {"sheets": [[s, ""] for s in book.sheet_names()], "cells": {}}
    for i, name in enumerate(book.sheet_names()):
        sh = book.sheet_by_index(i)
        cells = []
        for r in range(sh.nrows):
            for c in range(sh.ncols):
                cell = sh.cell(r, c)
                t, v = cell.ctype, cell.value
                if t in (xlrd.XL_CELL_EMPTY, xlrd.XL_CELL_BLANK) or (t == xlrd.XL_CELL_TEXT and v == ""):
                    continue
                if t == xlrd.XL_CELL_DATE:
                    try:
                        v = typed(xlrd.xldate.xldate_as_datetime(v, book.datemode))
                    except Exception:
                        v = ["n", v]
                elif t == xlrd.XL_CELL_BOOLEAN:
                    v = ["b", bool(v)]
                elif t == xlrd.XL_CELL_ERROR:
                    v = ["e", xlrd.error_text_from_code.get(v, "#ERR")]
                elif t == xlrd.XL_CELL_TEXT:
                    v = ["s", v]
                else:
                    v = ["n", v]
                cells.append([r + 1, c + 1, v])
        out["cells"][name] = cells
        book.unload_sheet(i)
    return out


def main():
    paths = sys.argv[1:]
    if paths and paths[0] in ("--calamine", "--xlrd"):
        reader = calamine_cells if paths[0] == "--calamine" else xlrd_cells
        out = {}
        # xlrd prints its warnings to stdout; keep it for the JSON.
        with contextlib.redirect_stdout(sys.stderr):
            for path in paths[1:]:
                try:
                    out[path] = reader(path)
                except Exception as e:
                    out[path] = {"error": "%s: %s" % (type(e).__name__, e)}
        json.dump(out, sys.stdout)
        return
    if paths and paths[0] == "--cells":
        out = {}
        # openpyxl prints some complaints to stdout; keep it for the JSON.
        with contextlib.redirect_stdout(sys.stderr):
            for path in paths[1:]:
                try:
                    out[path] = cells(path)
                except Exception as e:
                    out[path] = {"error": "%s: %s" % (type(e).__name__, e)}
        json.dump(out, sys.stdout)
        return
    validator = OpenXmlValidator()
    if paths and paths[0] == "--no-audit":
        # The validator is pure Python: minutes for a sheet of 50,000 rows.
        validator, paths = None, paths[1:]
    out = {}
    for path in paths:
        try:
            out[path] = read(path, validator)
        except Exception as e:
            out[path] = {"error": "%s: %s" % (type(e).__name__, e)}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
