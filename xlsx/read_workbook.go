package xlsx

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sheetstream/sheetstream/internal/xmlscan"
)

func isTrue(v []byte) bool { return string(v) == "1" || string(v) == "true" }

// readWorkbook reads the sheet list, date system and defined names from
// the workbook part, and finds its sheets, styles and shared strings
// through the workbook's relationships.
func (wb *Workbook) readWorkbook() error {
	buf, err := wb.readPart(wb.workbookPart)
	if err != nil {
		return err
	}
	var sheets []listedSheet
	sc := wb.scanner(buf)
	var scratch []byte
	decode := func(v []byte) string {
		scratch, _ = xmlscan.DecodeAttr(scratch[:0], v)
		return string(scratch)
	}
	for k := sc.Next(); k != xmlscan.EOF; k = sc.Next() {
		if k != xmlscan.Start && k != xmlscan.Empty {
			continue
		}
		switch string(sc.Name()) {
		case "workbook":
			ns, _ := sc.Attr("xmlns")
			wb.strict = strings.Contains(string(ns), "purl.oclc.org")
		case "workbookPr":
			if v, ok := sc.Attr("date1904"); ok {
				wb.date1904 = isTrue(v)
			}
		case "sheet":
			name, _ := sc.Attr("name")
			rid, _ := sc.Attr("id")
			l := listedSheet{name: decode(name), rid: decode(rid)}
			switch v, _ := sc.Attr("state"); string(v) {
			case "hidden":
				l.state = SheetHidden
			case "veryHidden":
				l.state = SheetVeryHidden
			}
			sheets = append(sheets, l)
		case "definedName":
			if k != xmlscan.Start {
				continue
			}
			dn := DefinedName{}
			if v, ok := sc.Attr("name"); ok {
				dn.Name = decode(v)
			}
			dn.Hidden = func() bool { v, _ := sc.Attr("hidden"); return isTrue(v) }()
			local := -1
			if v, ok := sc.Attr("localSheetId"); ok {
				if n, err := strconv.Atoi(string(v)); err == nil {
					local = n
				}
			}
			dn.RefersTo = string(sc.Content(&scratch))
			scratch = scratch[:0]
			if local >= 0 && local < len(sheets) {
				dn.Sheet = sheets[local].name
			}
			wb.names = append(wb.names, dn)
		}
	}
	if err := sc.Err(); err != nil {
		return wb.errorf(wb.workbookPart, fmt.Errorf("%w: %w", ErrMalformed, err))
	}
	return wb.placeSheets(sheets, ".xml")
}

// listedSheet is a sheet as the workbook part lists it.
type listedSheet struct {
	name, rid string
	state     SheetState
}

// placeSheets finds the listed sheets' parts, and the styles and shared
// strings, through the workbook's relationships; ext is the parts' usual
// extension, for guessing when the relationships are lost.
func (wb *Workbook) placeSheets(sheets []listedSheet, ext string) error {
	rels, err := wb.readRels(wb.workbookPart)
	if err != nil && !errors.Is(err, ErrMissingPart) && !errors.Is(err, ErrMalformed) {
		return err
	}
	dir := wb.workbookPart[:strings.LastIndexByte(wb.workbookPart, '/')+1]
	for i, l := range sheets {
		info := SheetInfo{Index: i, Name: l.name, State: l.state}
		if r, ok := rels.byID(l.rid); ok && !r.external {
			info.Part = r.target
			switch {
			case strings.HasSuffix(r.typ, relChartsheet):
				info.Kind = SheetKindChartsheet
			case strings.HasSuffix(r.typ, relDialogsheet):
				info.Kind = SheetKindDialogsheet
			case strings.HasSuffix(r.typ, relMacrosheet):
				info.Kind = SheetKindMacrosheet
			}
		} else if rels == nil {
			// Relationships lost: Excel's own naming is the best guess.
			guess := dir + "worksheets/sheet" + strconv.Itoa(i+1) + ext
			if wb.parts[normPart(guess)] != nil {
				info.Part = guess
			}
		}
		wb.sheets = append(wb.sheets, info)
	}
	wb.stylesPart = rels.target(relStyles)
	wb.sstPart = rels.target(relSharedStrings)
	for _, r := range rels {
		if !r.external && strings.HasSuffix(r.typ, relCustomXML) {
			wb.customXML = append(wb.customXML, r.target)
		}
	}
	if rels == nil {
		wb.stylesPart, wb.sstPart = dir+"styles"+ext, dir+"sharedStrings"+ext
	}
	return nil
}
