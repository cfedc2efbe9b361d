package sqlsheet

import "github.com/sheetstream/sheetstream/xlsx"

// TemplateRows is an Options.Rows that fills sheet of a template: the
// query's header (its first call) opens the sheet with TemplateWriter.Fill,
// which checks it against the sheet's table before any row is written,
// and each row after it is the sheet's next. The template's column styles
// replace the number formats the cells name, so Export's writer may be
// nil.
func TemplateRows(tw *xlsx.TemplateWriter, sheet string) func(cells []xlsx.Cell) error {
	var ts *xlsx.TemplateSheet
	return func(cells []xlsx.Cell) error {
		if ts != nil {
			return ts.WriteRow(cells)
		}
		header := make([]string, len(cells))
		for i, c := range cells {
			header[i], _ = c.Value().(string)
		}
		var err error
		ts, err = tw.Fill(sheet, header)
		return err
	}
}
