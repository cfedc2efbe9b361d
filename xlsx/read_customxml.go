package xlsx

// CustomXML reads the workbook's custom XML data parts (customXml/item1.xml
// and so on), in the order the workbook's relationships list them: data
// that applications store in a workbook beside the sheets, such as the
// column types sqlsheet records. Each part is read whole, under
// Limits.MaxPartSize.
//
// Errors: *ReadError naming a part that is missing, too large or not
// readable.
func (wb *Workbook) CustomXML() ([][]byte, error) {
	var parts [][]byte
	for _, name := range wb.customXML {
		data, err := wb.readPart(name)
		if err != nil {
			return nil, err
		}
		parts = append(parts, data)
	}
	return parts, nil
}
