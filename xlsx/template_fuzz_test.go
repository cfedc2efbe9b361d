package xlsx_test

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/xlsx"
)

// FuzzTemplate fills any package as a template: a hostile one is refused
// with an error (named, never a panic), or filled into a package that
// archive/zip reads whole: every part reads with its CRC right, except a
// part copied as the template has it that the template's own reader
// cannot read either (copied parts are not inflated, so a damaged one is
// passed on as it was).
func FuzzTemplate(f *testing.F) {
	for _, name := range []string{"rust_xlsxwriter/table01.xlsx", "rust_xlsxwriter/table08.xlsx", "rust_xlsxwriter/chart_bar01.xlsx", "PhpSpreadsheet/PivotTableSimple.xlsx"} {
		b, err := os.ReadFile(filepath.Join("testdata", "excel", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("PK\x03\x04 not really"))
	// Placeholders that become typed cells, in a sheet the rows fill and
	// one they do not.
	var book bytes.Buffer
	w, _ := xlsx.NewWriter(&book, xlsx.Options{Strings: xlsx.StringsShared})
	for _, name := range []string{"Data", "Cover"} {
		sh, _ := w.AddSheet(name, xlsx.SheetOptions{})
		sh.WriteRow([]xlsx.Cell{xlsx.String("{{n}}"), xlsx.String("{{ d }}"), xlsx.String("{{rows}} of {{x}}"), xlsx.String("{{rows}}"), xlsx.String("{{now}}")})
	}
	if err := w.Close(); err != nil {
		f.Fatal(err)
	}
	f.Add(book.Bytes())
	f.Fuzz(func(t *testing.T, tpl []byte) {
		var out bytes.Buffer
		w, err := xlsx.NewTemplateWriter(&out, bytes.NewReader(tpl), int64(len(tpl)), xlsx.TemplateOptions{Values: map[string]any{"x": "<&>", "n": 42.5, "d": time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}})
		if err != nil {
			return
		}
		sheets := w.Sheets()
		if len(sheets) == 0 {
			_ = w.Close()
			return
		}
		sh, err := w.Fill(sheets[0], nil)
		if err != nil {
			_ = w.Close()
			return
		}
		for i := range 3 {
			if err := sh.WriteRow([]xlsx.Cell{xlsx.Int(int64(i)), xlsx.String("a<b")}); err != nil {
				w.Abort()
				return
			}
		}
		if err := w.Close(); err != nil {
			return
		}
		zr, err := zip.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
		if err != nil {
			t.Fatalf("the filled package is not a zip: %v", err)
		}
		in, err := zip.NewReader(bytes.NewReader(tpl), int64(len(tpl)))
		if err != nil {
			t.Fatalf("the template was taken but archive/zip refuses it: %v", err)
		}
		readable := func(zr *zip.Reader, name string) error {
			rc, err := zr.Open(name)
			if err != nil {
				return err
			}
			defer rc.Close()
			_, err = io.Copy(io.Discard, rc)
			return err
		}
		for _, file := range zr.File {
			if err := readable(zr, file.Name); err != nil && readable(in, file.Name) == nil {
				t.Fatalf("%s: %v, where the template's part reads", file.Name, err)
			}
		}
	})
}
