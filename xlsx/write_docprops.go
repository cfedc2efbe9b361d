package xlsx

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// appXML is docProps/app.xml: the application and the list of sheets and
// named ranges that Office shows in file properties.
func (w *Writer) appXML() []byte {
	var titles, chartTitles []string
	for _, s := range w.sheets {
		if s.chartSheet {
			chartTitles = append(chartTitles, s.name)
		} else {
			titles = append(titles, s.name)
		}
	}
	var named []string
	for _, n := range w.definedNames() {
		if n.hidden || strings.HasPrefix(n.name, "_xlnm.") && n.name != "_xlnm.Print_Area" && n.name != "_xlnm.Print_Titles" {
			continue
		}
		title := strings.TrimPrefix(n.name, "_xlnm.")
		if n.local >= 0 {
			title = quoteSheetName(w.sheets[n.local].name) + "!" + title
		}
		named = append(named, title)
	}
	b := []byte(xmlHeader + `<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">`)
	b = append(b, "<Application>sheetstream</Application><DocSecurity>0</DocSecurity><ScaleCrop>false</ScaleCrop><HeadingPairs>"...)
	pairs := 2
	if len(named) > 0 {
		pairs += 2
	}
	if len(chartTitles) > 0 {
		pairs += 2
	}
	b = appendIntAttr(append(b, "<vt:vector"...), "size", pairs)
	b = append(b, ` baseType="variant"><vt:variant><vt:lpstr>Worksheets</vt:lpstr></vt:variant><vt:variant><vt:i4>`...)
	b = strconv.AppendInt(b, int64(len(titles)), 10)
	b = append(b, "</vt:i4></vt:variant>"...)
	if len(chartTitles) > 0 {
		b = append(b, `<vt:variant><vt:lpstr>Charts</vt:lpstr></vt:variant><vt:variant><vt:i4>`...)
		b = strconv.AppendInt(b, int64(len(chartTitles)), 10)
		b = append(b, "</vt:i4></vt:variant>"...)
	}
	if len(named) > 0 {
		b = append(b, `<vt:variant><vt:lpstr>Named Ranges</vt:lpstr></vt:variant><vt:variant><vt:i4>`...)
		b = strconv.AppendInt(b, int64(len(named)), 10)
		b = append(b, "</vt:i4></vt:variant>"...)
	}
	b = append(b, "</vt:vector></HeadingPairs><TitlesOfParts>"...)
	b = appendIntAttr(append(b, "<vt:vector"...), "size", len(titles)+len(chartTitles)+len(named))
	b = append(b, ` baseType="lpstr">`...)
	for _, t := range slices.Concat(titles, chartTitles, named) {
		b = appendElem(b, "vt:lpstr", t)
	}
	b = append(b, "</vt:vector></TitlesOfParts>"...)
	p := w.opts.Properties
	if p.Manager != "" {
		b = appendElem(b, "Manager", p.Manager)
	}
	b = appendElem(b, "Company", p.Company)
	return append(b, "<LinksUpToDate>false</LinksUpToDate><SharedDoc>false</SharedDoc><HyperlinksChanged>false</HyperlinksChanged></Properties>"...)
}

// coreXML is docProps/core.xml, the Dublin Core properties.
func (w *Writer) coreXML() []byte {
	p := w.opts.Properties
	b := []byte(xmlHeader + `<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">`)
	opt := func(tag, v string) {
		if v != "" {
			b = appendElem(b, tag, v)
		}
	}
	opt("dc:title", p.Title)
	opt("dc:subject", p.Subject)
	b = appendElem(b, "dc:creator", p.Creator)
	opt("cp:keywords", p.Keywords)
	opt("dc:description", p.Description)
	last := p.LastModifiedBy
	if last == "" {
		last = p.Creator
	}
	b = appendElem(b, "cp:lastModifiedBy", last)
	stamp := w.created.Format(time.RFC3339)
	b = append(b, `<dcterms:created xsi:type="dcterms:W3CDTF">`+stamp+`</dcterms:created>`...)
	b = append(b, `<dcterms:modified xsi:type="dcterms:W3CDTF">`+stamp+`</dcterms:modified>`...)
	opt("cp:category", p.Category)
	opt("cp:contentStatus", p.Status)
	return append(b, "</cp:coreProperties>"...)
}
