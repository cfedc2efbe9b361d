package xlsx

import (
	"crypto/rand"
	"fmt"
	"strconv"
)

// AddCustomXML stores data, an XML document, as a custom XML data part of
// the workbook: Excel keeps such parts and shows nothing of them, and
// Workbook.CustomXML reads them back. Each part gets the properties part
// Excel gives its own (a random item ID).
//
// Errors: ErrCustomXML when data is not an XML document (it must start
// with "<" and hold only characters XML allows); the Writer's first error.
func (w *Writer) AddCustomXML(data []byte) error {
	if err := w.loadErr(); err != nil {
		return err
	}
	if w.closed {
		return ErrClosed
	}
	if len(data) == 0 || data[0] != '<' || !validAttrText(string(data)) {
		return ErrCustomXML
	}
	w.customXML = append(w.customXML, append([]byte(nil), data...))
	return nil
}

// customXMLParts are each custom XML part's item, its properties and the
// relationship between them, numbered from 1.
func (w *Writer) customXMLParts() []packagePart {
	var parts []packagePart
	for i, data := range w.customXML {
		n := strconv.Itoa(i + 1)
		var id [16]byte
		rand.Read(id[:])
		guid := fmt.Sprintf("{%X-%X-%X-%X-%X}", id[0:4], id[4:6], id[6:8], id[8:10], id[10:16])
		parts = append(parts,
			packagePart{"customXml/item" + n + ".xml", data},
			packagePart{"customXml/itemProps" + n + ".xml", []byte(xmlHeader +
				`<ds:datastoreItem ds:itemID="` + guid + `" xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml"><ds:schemaRefs/></ds:datastoreItem>`)},
			packagePart{"customXml/_rels/item" + n + ".xml.rels", []byte(relsHeader +
				`<Relationship Id="rId1" Type="` + relTypes + `customXmlProps" Target="itemProps` + n + `.xml"/></Relationships>`)},
		)
	}
	return parts
}
