package xlsx_test

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/xlsx"
)

// FuzzReportStrings sends any text through every string input of the
// report features that reaches XML: a note's text and author, a
// validation's list, titles and messages, a header and footer, a
// conditional format's text, an editable range's name. Each is refused
// with an error or ends up in parts that are all well-formed XML.
func FuzzReportStrings(f *testing.F) {
	for _, seed := range []string{"plain", `<&>"'`, "&L&P&R&D", "a,b", "\x00", "]]>", "\u2028\ufffe", strings.Repeat("é", 300), "&K00FF00x&&"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var buf bytes.Buffer
		w, err := xlsx.NewWriter(&buf, xlsx.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		sh, err := w.AddSheet("S", xlsx.SheetOptions{
			Print:   &xlsx.PrintSetup{Header: text, Footer: "&C" + text},
			Protect: &xlsx.SheetProtection{EditableRanges: []xlsx.EditableRange{{Name: text, Range: rng("C1")}}},
		})
		if err != nil {
			// The print setup or the range's name was refused: try the
			// sheet without them.
			if sh, err = w.AddSheet("S", xlsx.SheetOptions{}); err != nil {
				t.Fatalf("the Writer stopped after a refused sheet: %v", err)
			}
		}
		// Refusals leave the Writer usable; what is accepted must be
		// written as XML.
		_ = sh.AddNote(1, 1, xlsx.Note{Text: text, Author: text})
		_ = sh.AddValidation(rng("A1:A5"), xlsx.Validation{Type: xlsx.ValidateList, List: []string{text, "x"},
			InputTitle: text, InputMessage: text, ErrorTitle: text, ErrorMessage: text})
		_ = sh.AddConditionalFormat(rng("B1:B5"), xlsx.ConditionalFormat{Type: xlsx.CondContains, Text: text, Format: redFill})
		_ = sh.AddConditionalFormat(rng("B1:B5"), xlsx.ConditionalFormat{Type: xlsx.CondCell, Operator: xlsx.EqualTo, Value1: xlsx.String(text)})
		if err := sh.WriteRow([]xlsx.Cell{xlsx.Int(1)}); err != nil {
			t.Fatalf("a row after the refusals: %v", err)
		}
		if err := w.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range zr.File {
			rc, _ := file.Open()
			dec := xml.NewDecoder(rc)
			for {
				_, err := dec.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s: %v (text %q)", file.Name, err, text)
				}
			}
			rc.Close()
		}
	})
}
