package xlsx

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// quoteSheetName returns name as a formula reference needs it: quoted
// (with inner apostrophes doubled) unless it is a plain identifier that
// cannot be read as a cell reference.
func quoteSheetName(name string) string {
	plain := true
	for i, r := range name {
		ok := r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && ('0' <= r && r <= '9' || r == '.')
		if !ok {
			plain = false
			break
		}
	}
	if plain {
		if _, _, err := ParseCellName(strings.ToUpper(name)); err == nil {
			plain = false
		}
	}
	if plain {
		return name
	}
	return "'" + strings.ReplaceAll(name, "'", "''") + "'"
}

type nameEntry struct {
	name, refersTo string
	local          int // sheet index, -1 for global
	hidden         bool
}

// definedNames lists the workbook's names as Excel orders them: by name
// without the _xlnm. prefix, then by scope.
func (w *Writer) definedNames() []nameEntry {
	var out []nameEntry
	for _, s := range w.sheets {
		if s.autoFilter != (Range{}) {
			ref := quoteSheetName(s.name) + "!" + string(s.autoFilter.append(nil, true))
			out = append(out, nameEntry{"_xlnm._FilterDatabase", ref, s.index, true})
		}
	}
	for _, s := range w.sheets {
		out = append(out, s.printNames()...)
	}
	for _, n := range w.names {
		local := -1
		if n.Sheet != "" {
			local = w.sheetIndex(n.Sheet)
		}
		out = append(out, nameEntry{n.Name, n.RefersTo, local, n.Hidden})
	}
	key := func(e nameEntry) string { return strings.ToLower(strings.TrimPrefix(e.name, "_xlnm.")) }
	slices.SortStableFunc(out, func(a, b nameEntry) int {
		if c := cmp.Compare(key(a), key(b)); c != 0 {
			return c
		}
		return cmp.Compare(a.local, b.local)
	})
	return out
}

func (w *Writer) workbookXML() []byte {
	b := []byte(xmlHeader)
	b = append(b, `<workbook xmlns="`+nsMain+`" xmlns:r="`+nsRelations+`">`...)
	b = append(b, `<fileVersion appName="xl" lastEdited="4" lowestEdited="4" rupBuild="4505"/><workbookPr`...)
	if w.opts.Date1904 {
		b = append(b, ` date1904="1"`...)
	}
	b = append(b, ` defaultThemeVersion="124226"/>`...)
	if p := w.opts.ProtectWorkbook; p != nil {
		b = append(b, "<workbookProtection"...)
		if p.Password != "" {
			b = appendHashAttrs(b, "workbook", w.workbookPassword)
		}
		b = append(b, ` lockStructure="1"`...)
		if p.Windows {
			b = append(b, ` lockWindows="1"`...)
		}
		b = append(b, "/>"...)
	}
	b = append(b, `<bookViews><workbookView xWindow="240" yWindow="15" windowWidth="16095" windowHeight="9660"`...)
	// firstSheet is the first tab shown in the tab bar (hidden ones
	// are skipped), activeTab the one open.
	first := slices.IndexFunc(w.sheets, func(s *Sheet) bool { return s.opts.State == SheetVisible })
	if first > 0 {
		b = appendIntAttr(b, "firstSheet", first)
	}
	if a := w.activeSheet(); a > 0 {
		b = appendIntAttr(b, "activeTab", a)
	}
	b = append(b, `/></bookViews><sheets>`...)
	for _, s := range w.sheets {
		b = append(b, `<sheet name="`...)
		b = appendAttr(b, s.name)
		b = append(b, '"')
		b = appendIntAttr(b, "sheetId", s.index+1)
		switch s.opts.State {
		case SheetHidden:
			b = append(b, ` state="hidden"`...)
		case SheetVeryHidden:
			b = append(b, ` state="veryHidden"`...)
		}
		b = append(b, ` r:id="rId`...)
		b = strconv.AppendInt(b, int64(s.index+1), 10)
		b = append(b, `"/>`...)
	}
	b = append(b, "</sheets>"...)
	if names := w.definedNames(); len(names) > 0 {
		b = append(b, "<definedNames>"...)
		for _, n := range names {
			b = append(b, `<definedName name="`...)
			b = appendAttr(b, n.name)
			b = append(b, '"')
			if n.local >= 0 {
				b = appendIntAttr(b, "localSheetId", n.local)
			}
			if n.hidden {
				b = append(b, ` hidden="1"`...)
			}
			b = append(b, '>')
			b, _ = appendText(b, n.refersTo)
			b = append(b, "</definedName>"...)
		}
		b = append(b, "</definedNames>"...)
	}
	// Excel 2007's calculation engine id, so newer versions recalculate
	// every formula when they open the file.
	b = append(b, `<calcPr calcId="124519" fullCalcOnLoad="1"/>`...)
	if len(w.pivots) > 0 {
		b = append(b, "<pivotCaches>"...)
		hasSST := len(w.sst.entries) > 0
		for _, p := range w.pivots {
			b = appendIntAttr(append(b, "<pivotCache"...), "cacheId", p.id)
			b = append(b, ` r:id="rId`...)
			b = strconv.AppendInt(b, int64(w.pivotRelID(p, hasSST)), 10)
			b = append(b, `"/>`...)
		}
		b = append(b, "</pivotCaches>"...)
	}
	return append(b, "</workbook>"...)
}
