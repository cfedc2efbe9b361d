package xlsx

import "strconv"

const relTypes = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"

// relsHeader opens a relationships part.
const relsHeader = xmlHeader + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`

const packageRels = relsHeader +
	`<Relationship Id="rId3" Type="` + relTypes + `extended-properties" Target="docProps/app.xml"/>` +
	`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>` +
	`<Relationship Id="rId1" Type="` + relTypes + `officeDocument" Target="xl/workbook.xml"/>` +
	`</Relationships>`

func appendRel(b []byte, id int, typ, target string) []byte {
	return appendRelationship(b, id, typ, target, false)
}

// appendRelationship writes one relationship; an external target is a
// URL, escaped.
func appendRelationship(b []byte, id int, typ, target string, external bool) []byte {
	b = append(b, `<Relationship Id="rId`...)
	b = strconv.AppendInt(b, int64(id), 10)
	b = append(b, `" Type="`+relTypes...)
	b = append(b, typ...)
	b = append(b, `" Target="`...)
	b = appendAttr(b, target)
	if external {
		b = append(b, `" TargetMode="External`...)
	}
	return append(b, `"/>`...)
}

// relsWriter builds a part's relationships, numbered rId1, rId2... in the
// order they are added.
type relsWriter struct {
	b []byte
	n int
}

// add appends a relationship and returns its number.
func (r *relsWriter) add(typ, target string, external bool) int {
	if r.b == nil {
		r.b = []byte(relsHeader)
	}
	r.n++
	r.b = appendRelationship(r.b, r.n, typ, target, external)
	return r.n
}

// bytes is the part; nil when it has no relationship.
func (r *relsWriter) bytes() []byte {
	if r.b == nil {
		return nil
	}
	return append(r.b, "</Relationships>"...)
}

// workbookRels numbers the sheets first, then theme, styles and shared
// strings, as Excel does.
func (w *Writer) workbookRels(hasSST bool) []byte {
	b := []byte(relsHeader)
	n := len(w.sheets)
	for i, s := range w.sheets {
		if s.chartSheet {
			b = appendRel(b, i+1, "chartsheet", "chartsheets/sheet"+strconv.Itoa(s.part)+".xml")
		} else {
			b = appendRel(b, i+1, "worksheet", "worksheets/sheet"+strconv.Itoa(s.part)+".xml")
		}
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
	for _, p := range w.pivots {
		b = appendRel(b, w.pivotRelID(p, hasSST), "pivotCacheDefinition", "pivotCache/pivotCacheDefinition"+strconv.Itoa(p.id)+".xml")
	}
	return append(b, "</Relationships>"...)
}

// pivotRelID is the workbook relationship of a pivot's cache: after the
// sheets, theme, styles, shared strings, metadata and custom XML.
func (w *Writer) pivotRelID(p *pivot, hasSST bool) int {
	id := len(w.sheets) + 3 + len(w.customXML) + p.id - 1
	if hasSST {
		id++
	}
	if w.dynamicArrays.Load() {
		id++
	}
	return id
}
