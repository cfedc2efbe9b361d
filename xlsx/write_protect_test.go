package xlsx_test

import (
	"errors"
	"io"
	"regexp"
	"slices"
	"testing"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/xlsx"
)

// TestProtection writes a protected form (input cells unlocked, a
// formula hidden, an editable range with its own password) in a
// workbook whose structure is locked; openpyxl reads the settings back,
// the validator checks the file, and LibreOffice checks the sheet's
// password: a wrong one must not lift the protection, the right one must.
func TestProtection(t *testing.T) {
	const password = "Pässwörd 42"
	book := writeBook(t, xlsx.Options{ProtectWorkbook: &xlsx.WorkbookProtection{Password: password}}, func(w *xlsx.Writer) error {
		input, err := w.AddStyle(xlsx.Style{Protection: xlsx.CellProtection{Unlocked: true}})
		if err != nil {
			return err
		}
		secret, err := w.AddStyle(xlsx.Style{Protection: xlsx.CellProtection{Hidden: true}})
		if err != nil {
			return err
		}
		sh, err := w.AddSheet("Form", xlsx.SheetOptions{Protect: &xlsx.SheetProtection{
			Password: password, FormatCells: true, Sort: true,
			EditableRanges: []xlsx.EditableRange{{Name: "Notes", Range: rng("D1:D10"), Password: "notes"}},
		}})
		if err != nil {
			return err
		}
		if err := sh.WriteRow([]xlsx.Cell{xlsx.String("Quantity"), xlsx.Int(3).WithStyle(input)}); err != nil {
			return err
		}
		return sh.WriteRow([]xlsx.Cell{xlsx.String("Total"), xlsx.Formula("B1*9.5").WithStyle(secret)})
	})
	path, res := auditBook(t, "protected.xlsx", book)
	p := res.Protection["Form"]
	if p == nil || !p.Sheet || p.Algorithm == nil || *p.Algorithm != "SHA-512" || p.SpinCount == nil || *p.SpinCount != 100000 || !p.HasHash ||
		!p.FormatCells || !p.Sort || p.InsertRows || !slices.Equal(p.Unlocked, []string{"B1"}) || !slices.Equal(p.Hidden, []string{"B2"}) {
		t.Errorf("sheet protection: %+v", p)
	}
	// openpyxl skips editable ranges: the part says.
	sheetXML := part(t, book, "xl/worksheets/sheet1.xml")
	if !regexp.MustCompile(`<protectedRange algorithmName="SHA-512" hashValue="[A-Za-z0-9+/=]{88}" saltValue="[A-Za-z0-9+/=]{24}" spinCount="100000" sqref="D1:D10" name="Notes"/>`).MatchString(sheetXML) {
		t.Errorf("editable range: %s", sheetXML)
	}
	if wp := res.WorkbookProtection; wp == nil || !wp.Structure || wp.Windows || wp.Algorithm == nil || *wp.Algorithm != "SHA-512" {
		t.Errorf("workbook protection: %+v", wp)
	}
	// LibreOffice checks the sheet's hash (it does not load a workbook's
	// structure protection; that hash is made the same way).
	if u := pyread.Unprotect(t, path, password); !u.Protected || u.WrongUnlocks || !u.RightUnlocks {
		t.Errorf("LibreOffice on the sheet's protection: %+v", u)
	}
}

// TestProtectionErrors: a bad editable range or password is refused when
// the sheet is added.
func TestProtectionErrors(t *testing.T) {
	for name, p := range map[string]xlsx.SheetProtection{
		"range":         {EditableRanges: []xlsx.EditableRange{{Range: xlsx.Range{FirstRow: 0, FirstCol: 1, LastRow: 1, LastCol: 1}}}},
		"repeated name": {EditableRanges: []xlsx.EditableRange{{Name: "A", Range: rng("A1")}, {Name: "A", Range: rng("B1")}}},
		"password":      {Password: "nul\x00"},
	} {
		t.Run(name, func(t *testing.T) {
			w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
			defer w.Close()
			if _, err := w.AddSheet("S", xlsx.SheetOptions{Protect: &p}); !errors.Is(err, xlsx.ErrRange) {
				t.Errorf("error %v", err)
			}
		})
	}
}
