package xlsx

import "strconv"

const relTypes = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"

const packageRels = xmlHeader +
	`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
	`<Relationship Id="rId3" Type="` + relTypes + `extended-properties" Target="docProps/app.xml"/>` +
	`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>` +
	`<Relationship Id="rId1" Type="` + relTypes + `officeDocument" Target="xl/workbook.xml"/>` +
	`</Relationships>`

func appendRel(b []byte, id int, typ, target string) []byte {
	b = append(b, `<Relationship Id="rId`...)
	b = strconv.AppendInt(b, int64(id), 10)
	b = append(b, `" Type="`+relTypes...)
	b = append(b, typ...)
	b = append(b, `" Target="`...)
	b = append(b, target...)
	return append(b, `"/>`...)
}

// workbookRels numbers the sheets first, then theme, styles and shared
// strings, as Excel does.
func (w *Writer) workbookRels(hasSST bool) []byte {
	b := []byte(xmlHeader + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	n := len(w.sheets)
	for i := range w.sheets {
		b = appendRel(b, i+1, "worksheet", "worksheets/sheet"+strconv.Itoa(i+1)+".xml")
	}
	b = appendRel(b, n+1, "theme", "theme/theme1.xml")
	b = appendRel(b, n+2, "styles", "styles.xml")
	next := n + 3
	if hasSST {
		b = appendRel(b, next, "sharedStrings", "sharedStrings.xml")
		next++
	}
	if w.dynamicArrays.Load() {
		b = appendRel(b, next, "sheetMetadata", "metadata.xml")
		next++
	}
	for i := range w.customXML {
		b = appendRel(b, next+i, "customXml", "../customXml/item"+strconv.Itoa(i+1)+".xml")
	}
	return append(b, "</Relationships>"...)
}
