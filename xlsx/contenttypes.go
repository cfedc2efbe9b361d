package xlsx

import "strconv"

const contentTypeBase = "application/vnd.openxmlformats-officedocument."

func appendOverride(b []byte, part, typ string) []byte {
	b = append(b, `<Override PartName="`...)
	b = append(b, part...)
	b = append(b, `" ContentType="`...)
	b = append(b, typ...)
	return append(b, `"/>`...)
}

func (w *Writer) contentTypes(hasSST bool) []byte {
	b := []byte(xmlHeader + `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
		`<Default Extension="xml" ContentType="application/xml"/>`)
	b = appendOverride(b, "/xl/workbook.xml", contentTypeBase+"spreadsheetml.sheet.main+xml")
	for i := range w.sheets {
		b = appendOverride(b, "/xl/worksheets/sheet"+strconv.Itoa(i+1)+".xml", contentTypeBase+"spreadsheetml.worksheet+xml")
	}
	b = appendOverride(b, "/xl/theme/theme1.xml", contentTypeBase+"theme+xml")
	b = appendOverride(b, "/xl/styles.xml", contentTypeBase+"spreadsheetml.styles+xml")
	if hasSST {
		b = appendOverride(b, "/xl/sharedStrings.xml", contentTypeBase+"spreadsheetml.sharedStrings+xml")
	}
	b = appendOverride(b, "/docProps/core.xml", "application/vnd.openxmlformats-package.core-properties+xml")
	b = appendOverride(b, "/docProps/app.xml", contentTypeBase+"extended-properties+xml")
	return append(b, "</Types>"...)
}
