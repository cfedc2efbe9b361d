package examples

// The designer's pivot table, as Excel would save it in a template (over
// the Orders table by the table's name, which xlsx.Writer's own pivots,
// over a sheet's range, do not do): the parts as ECMA-376 Part 1 §18.10
// describes them, a cache over the Orders table listing no items or
// records yet, and a pivot table on the "By customer" sheet summing the
// amounts by customer. Filling the template computes both from the rows
// (the cache's items and records, the table's cells), and marks the
// cache to be refreshed on open, as for a pivot table Excel saved.

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
)

const (
	nsMain = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"`
	nsRel  = `xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	relNS  = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
	ctNS   = "application/vnd.openxmlformats-officedocument.spreadsheetml."
)

// pivotParts are the parts a pivot table over the Orders table adds, the
// pivot table on the sheet whose part is sheetPart.
func pivotParts(sheetPart string) map[string]string {
	field := func(name string, numeric bool) string {
		if numeric {
			return `<cacheField name="` + name + `" numFmtId="0"><sharedItems containsSemiMixedTypes="0" containsString="0" containsNumber="1"/></cacheField>`
		}
		return `<cacheField name="` + name + `" numFmtId="0"><sharedItems/></cacheField>`
	}
	return map[string]string{
		"xl/pivotCache/pivotCacheDefinition1.xml": xmlHead + `<pivotCacheDefinition ` + nsMain + ` ` + nsRel + ` r:id="rId1" refreshOnLoad="1" createdVersion="3" refreshedVersion="3" minRefreshableVersion="3" recordCount="0">` +
			`<cacheSource type="worksheet"><worksheetSource name="Orders"/></cacheSource><cacheFields count="5">` +
			field("Order", true) + field("Date", false) + field("Customer", false) + field("Quantity", true) + field("Amount", true) +
			`</cacheFields></pivotCacheDefinition>`,
		"xl/pivotCache/pivotCacheRecords1.xml":               xmlHead + `<pivotCacheRecords ` + nsMain + ` ` + nsRel + ` count="0"/>`,
		"xl/pivotCache/_rels/pivotCacheDefinition1.xml.rels": relsXML(`<Relationship Id="rId1" Type="` + relNS + `/pivotCacheRecords" Target="pivotCacheRecords1.xml"/>`),
		"xl/pivotTables/pivotTable1.xml": xmlHead + `<pivotTableDefinition ` + nsMain + ` name="ByCustomer" cacheId="1" applyNumberFormats="0" applyBorderFormats="0" applyFontFormats="0" applyPatternFormats="0" applyAlignmentFormats="0" applyWidthHeightFormats="1" dataCaption="Values" updatedVersion="3" minRefreshableVersion="3" createdVersion="3" useAutoFormatting="1" itemPrintTitles="1" indent="0" outline="1" outlineData="1">` +
			`<location ref="A3:B4" firstHeaderRow="1" firstDataRow="1" firstDataCol="1"/>` +
			`<pivotFields count="5"><pivotField showAll="0"/><pivotField showAll="0"/>` +
			`<pivotField axis="axisRow" showAll="0"><items count="1"><item t="default"/></items></pivotField>` +
			`<pivotField showAll="0"/><pivotField dataField="1" showAll="0"/></pivotFields>` +
			`<rowFields count="1"><field x="2"/></rowFields><rowItems count="1"><i t="grand"><x/></i></rowItems><colItems count="1"><i/></colItems>` +
			`<dataFields count="1"><dataField name="Sum of Amount" fld="4" baseField="0" baseItem="0" numFmtId="4"/></dataFields>` +
			`<pivotTableStyleInfo name="PivotStyleLight16" showRowHeaders="1" showColHeaders="1" showRowStripes="0" showColStripes="0" showLastColumn="1"/>` +
			`</pivotTableDefinition>`,
		"xl/pivotTables/_rels/pivotTable1.xml.rels": relsXML(`<Relationship Id="rId1" Type="` + relNS + `/pivotCacheDefinition" Target="../pivotCache/pivotCacheDefinition1.xml"/>`),
		relsPath(sheetPart):                         relsXML(`<Relationship Id="rId1" Type="` + relNS + `/pivotTable" Target="../pivotTables/pivotTable1.xml"/>`),
	}
}

const xmlHead = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"

func relsXML(rels string) string {
	return xmlHead + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + rels + `</Relationships>`
}

func relsPath(part string) string {
	i := strings.LastIndexByte(part, '/')
	return part[:i] + "/_rels" + part[i:] + ".rels"
}

// addPivotTable adds the pivot table to the workbook at path, on the
// sheet whose part is sheetPart (which must have no relationships yet).
func addPivotTable(path, sheetPart string) error {
	in, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	defer in.Close()
	added := pivotParts(sheetPart)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range in.File {
		if _, clash := added[f.Name]; clash {
			return fmt.Errorf("%s: the designed workbook has %s already", path, f.Name)
		}
		rc, err := f.Open()
		if err != nil {
			return err
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return err
		}
		s := string(b)
		switch f.Name {
		case "[Content_Types].xml":
			s = strings.Replace(s, "</Types>",
				`<Override PartName="/xl/pivotCache/pivotCacheDefinition1.xml" ContentType="`+ctNS+`pivotCacheDefinition+xml"/>`+
					`<Override PartName="/xl/pivotCache/pivotCacheRecords1.xml" ContentType="`+ctNS+`pivotCacheRecords+xml"/>`+
					`<Override PartName="/xl/pivotTables/pivotTable1.xml" ContentType="`+ctNS+`pivotTable+xml"/></Types>`, 1)
		case "xl/_rels/workbook.xml.rels":
			s = strings.Replace(s, "</Relationships>", `<Relationship Id="rIdPivotCache1" Type="`+relNS+`/pivotCacheDefinition" Target="pivotCache/pivotCacheDefinition1.xml"/></Relationships>`, 1)
		case "xl/workbook.xml":
			// pivotCaches follows calcPr (and what comes between it and
			// the end here: nothing).
			s = strings.Replace(s, "</workbook>", `<pivotCaches><pivotCache cacheId="1" r:id="rIdPivotCache1"/></pivotCaches></workbook>`, 1)
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			return err
		}
		if _, err := io.WriteString(w, s); err != nil {
			return err
		}
	}
	for _, name := range []string{"xl/pivotCache/pivotCacheDefinition1.xml", "xl/pivotCache/pivotCacheRecords1.xml", "xl/pivotCache/_rels/pivotCacheDefinition1.xml.rels",
		"xl/pivotTables/pivotTable1.xml", "xl/pivotTables/_rels/pivotTable1.xml.rels", relsPath(sheetPart)} {
		w, err := zw.Create(name)
		if err != nil {
			return err
		}
		if _, err := io.WriteString(w, added[name]); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
