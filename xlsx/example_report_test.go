package xlsx_test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io"
	"log"

	"github.com/sheetstream/sheetstream/xlsx"
)

// A drop-down list on a column, declared before its rows are written:
// validations go after the rows.
func ExampleSheet_AddValidation() {
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	sheet, _ := w.AddSheet("Tasks", xlsx.SheetOptions{})
	err := sheet.AddValidation(xlsx.Range{FirstRow: 2, FirstCol: 2, LastCol: 2}, xlsx.Validation{
		Type:         xlsx.ValidateList,
		List:         []string{"Open", "Done"},
		ErrorMessage: "Open or Done",
	})
	fmt.Println(err)
	sheet.WriteRow([]xlsx.Cell{xlsx.String("Task"), xlsx.String("Status")})
	sheet.WriteRow([]xlsx.Cell{xlsx.String("Write the report"), xlsx.String("Open")})
	fmt.Println(w.Close())
	// Output:
	// <nil>
	// <nil>
}

// A colour scale and a rule that marks negative amounts, over a column
// whose range ends with the sheet.
func ExampleSheet_AddConditionalFormat() {
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	sheet, _ := w.AddSheet("Amounts", xlsx.SheetOptions{})
	column := xlsx.Range{FirstRow: 1, FirstCol: 1, LastCol: 1}
	sheet.AddConditionalFormat(column, xlsx.ConditionalFormat{Type: xlsx.CondColorScale, MinColor: "F8696B", MaxColor: "63BE7B"})
	err := sheet.AddConditionalFormat(column, xlsx.ConditionalFormat{
		Type: xlsx.CondCell, Operator: xlsx.LessThan, Value1: xlsx.Int(0),
		Format: xlsx.Style{Font: xlsx.Font{Color: "9C0006", Bold: true}},
	})
	fmt.Println(err)
	for _, v := range []int64{120, -40, 75} {
		sheet.WriteRow([]xlsx.Cell{xlsx.Int(v)})
	}
	fmt.Println(w.Close())
	// Output:
	// <nil>
	// <nil>
}

// A note on a header cell and a picture beside it.
func ExampleSheet_AddNote() {
	var logo bytes.Buffer
	png.Encode(&logo, image.NewGray(image.Rect(0, 0, 32, 32)))

	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	sheet, _ := w.AddSheet("Sales", xlsx.SheetOptions{})
	fmt.Println(sheet.AddNote(1, 2, xlsx.Note{Text: "Before discounts", Author: "Finance"}))
	fmt.Println(sheet.AddImage(1, 4, xlsx.Image{Data: logo.Bytes(), AltText: "logo"}))
	sheet.WriteRow([]xlsx.Cell{xlsx.String("Region"), xlsx.String("Amount")})
	fmt.Println(w.Close())
	// Output:
	// <nil>
	// <nil>
	// <nil>
}

// A protected form whose input cells stay editable, printed landscape
// with its header row on every page.
func ExampleSheetProtection() {
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	input, _ := w.AddStyle(xlsx.Style{Protection: xlsx.CellProtection{Unlocked: true}})
	sheet, err := w.AddSheet("Form", xlsx.SheetOptions{
		Protect: &xlsx.SheetProtection{Password: "s3cret", Sort: true},
		Print:   &xlsx.PrintSetup{Landscape: true, RepeatRows: xlsx.Lines{First: 1, Last: 1}, Footer: "&CPage &P of &N"},
	})
	if err != nil {
		log.Fatal(err)
	}
	sheet.WriteRow([]xlsx.Cell{xlsx.String("Quantity"), xlsx.Int(0).WithStyle(input)})
	fmt.Println(w.Close())
	// Output: <nil>
}
