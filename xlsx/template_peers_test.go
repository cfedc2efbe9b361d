package xlsx_test

// Templates designed with other tools than Excel: openpyxl writes its
// charts in the default namespace (<f>, not <c:f>), XlsxWriter's
// constant_memory mode writes text as inline strings, LibreOffice writes
// its own prefixes and order. Each is filled, and must grow as Excel's do.

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/xlsx"
)

// peerTemplates writes, with the test readers' Python, a template per
// tool: a sheet "Orders" with a header A1:C1 and two rows (an Excel
// table where the tool writes one), a column chart over the rows and, in
// E1, a cell that is only {{target}} (openpyxl and XlsxWriter's
// constant_memory mode write it as an inline string).
const peerTemplates = `
import sys, openpyxl, xlsxwriter
from openpyxl.chart import BarChart, Reference
from openpyxl.worksheet.table import Table

out = sys.argv[1]

wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Orders"
ws.append(["city", "units", "amount"])
ws.append(["Oslo", 1, 10.5])
ws.append(["Rome", 2, 20.5])
ws["E1"] = "{{target}}"
ws.add_table(Table(displayName="Orders", ref="A1:C3"))
chart = BarChart()
chart.add_data(Reference(ws, min_col=3, min_row=1, max_row=3), titles_from_data=True)
chart.set_categories(Reference(ws, min_col=1, min_row=2, max_row=3))
ws.add_chart(chart, "G2")
wb.save(out + "/openpyxl.xlsx")

# constant_memory writes text inline, and takes no table: the rows go
# below the last row.
wb = xlsxwriter.Workbook(out + "/xlsxwriter.xlsx", {"constant_memory": True})
ws = wb.add_worksheet("Orders")
ws.write_row(0, 0, ["city", "units", "amount"])
ws.write_string(0, 4, "{{target}}")
ws.write_row(1, 0, ["Oslo", 1, 10.5])
ws.write_row(2, 0, ["Rome", 2, 20.5])
chart = wb.add_chart({"type": "column"})
chart.add_series({"categories": "=Orders!$A$2:$A$3", "values": "=Orders!$C$2:$C$3"})
ws.insert_chart("G2", chart)
wb.close()

# The same with a table, in XlsxWriter's usual mode (shared strings).
wb = xlsxwriter.Workbook(out + "/xlsxwriter-table.xlsx")
ws = wb.add_worksheet("Orders")
ws.write_string(0, 4, "{{target}}")
ws.add_table("A1:C3", {"name": "Orders", "data": [["Oslo", 1, 10.5], ["Rome", 2, 20.5]],
    "columns": [{"header": "city"}, {"header": "units"}, {"header": "amount"}]})
chart = wb.add_chart({"type": "column"})
chart.add_series({"categories": "=Orders!$A$2:$A$3", "values": "=Orders!$C$2:$C$3"})
ws.insert_chart("G2", chart)
wb.close()
`

// TestTemplatesOfOtherTools: a template made by openpyxl, by XlsxWriter
// (constant memory: inline strings) and by LibreOffice (re-saving the
// openpyxl one) is filled with 50 rows: the table and the chart's series
// grow to them, {{target}} becomes the number 1500, and openpyxl and the
// validator take the result.
func TestTemplatesOfOtherTools(t *testing.T) {
	python := pyread.Python(t)
	dir := t.TempDir()
	if out, err := exec.Command(python, "-c", peerTemplates, dir).CombinedOutput(); err != nil {
		t.Fatalf("making the templates: %v\n%s", err, out)
	}
	templates := []string{"openpyxl.xlsx", "xlsxwriter.xlsx", "xlsxwriter-table.xlsx"}
	if soffice := os.Getenv("SHEETSTREAM_SOFFICE"); soffice != "" {
		lo := filepath.Join(dir, "lo")
		os.MkdirAll(lo, 0o755)
		cmd := exec.Command(soffice, "--headless", "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", lo, filepath.Join(dir, "openpyxl.xlsx"))
		cmd.Env = append(os.Environ(), "HOME="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("LibreOffice: %v\n%s", err, out)
		}
		os.Rename(filepath.Join(lo, "openpyxl.xlsx"), filepath.Join(dir, "libreoffice.xlsx"))
		templates = append(templates, "libreoffice.xlsx")
	} else {
		testenv.Get(t, "SHEETSTREAM_SOFFICE", "installs LibreOffice")
	}
	rows := make([][]xlsx.Cell, 50)
	for i := range rows {
		rows[i] = []xlsx.Cell{xlsx.String("city " + string(rune('A'+i%26))), xlsx.Int(int64(i)), xlsx.Float(float64(i) + 0.5)}
	}
	for _, name := range templates {
		t.Run(name, func(t *testing.T) {
			book := fillTemplate(t, filepath.Join(dir, name), "Orders", xlsx.TemplateOptions{Values: map[string]any{"target": 1500}}, nil, rows)
			filled := writeTemp(t, name, book)
			tpl := filepath.Join(dir, name)
			both := pyread.Read(t, tpl, filled)
			res := both[filled]
			if res == nil || res.Error != "" {
				t.Fatalf("openpyxl: %+v", res)
			}
			// The validator finds nothing the template did not have.
			for _, e := range res.Audit {
				if !slices.Contains(both[tpl].Audit, e) {
					t.Errorf("openxml-audit: %s (the template has %q)", e, both[tpl].Audit)
				}
			}
			lastRow := "51" // the table's body replaced
			if name == "xlsxwriter.xlsx" {
				lastRow = "53" // below the template's last row
				if tb := res.Tables["Orders"]; len(tb) != 0 {
					t.Errorf("a table appeared: %+v", tb)
				}
			} else if tb := res.Tables["Orders"]; len(tb) != 1 || tb[0].Ref != "A1:C51" {
				t.Errorf("the table: %+v", tb)
			}
			charts := res.Charts["Orders"]
			if len(charts) != 1 || len(charts[0].Series) != 1 || charts[0].Series[0].Values == nil ||
				!strings.HasSuffix(strings.ReplaceAll(*charts[0].Series[0].Values, "'", ""), "Orders!$C$2:$C$"+lastRow) {
				var got []string
				for _, c := range charts {
					for _, s := range c.Series {
						if s.Values != nil {
							got = append(got, *s.Values)
						}
					}
				}
				t.Errorf("the chart's values: %q, want Orders!$C$2:$C$%s", got, lastRow)
			}
			found := false
			for _, r := range pyread.Cells(t, filled) {
				for _, c := range r.Cells["Orders"] {
					if c.Row == 1 && c.Col == 5 {
						found = true
						if c.Value.String() != "n:1500" {
							t.Errorf("E1, {{target}}: %v, want the number 1500", c.Value)
						}
					}
				}
			}
			if !found {
				t.Error("E1, {{target}}: empty")
			}
		})
	}
}

func writeTemp(t *testing.T, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOpenTemplate: OpenTemplate opens the file and closes it when the
// writer is closed or aborted; a folder is refused by name.
func TestOpenTemplate(t *testing.T) {
	fds := func() int {
		entries, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip("no /proc/self/fd")
		}
		return len(entries)
	}
	path := filepath.Join("testdata", "excel", "rust_xlsxwriter", "table01.xlsx")
	before := fds()
	for _, finish := range []string{"close", "abort"} {
		var out strings.Builder
		w, err := xlsx.OpenTemplate(&out, path, xlsx.TemplateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if finish == "close" {
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		} else {
			w.Abort()
		}
	}
	if after := fds(); after != before {
		t.Errorf("open descriptors: %d before, %d after", before, after)
	}
	if _, err := xlsx.OpenTemplate(io.Discard, t.TempDir(), xlsx.TemplateOptions{}); !errors.Is(err, xlsx.ErrTemplate) || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("a folder: %v", err)
	}
}
