package xlsx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sheetstream/sheetstream/internal/xmlscan"
)

// readStyles is what the reader needs of a styles part: how each cell
// format (the s attribute of a cell) classifies numbers.
type readStyles struct {
	classes []fmtClass
	ids     []int    // number format id per cell format
	codes   []string // number format code per cell format ("" for General or an unknown built-in)
}

func (s *readStyles) class(xf int) fmtClass {
	if s == nil || xf < 0 || xf >= len(s.classes) {
		return fmtNumber
	}
	return s.classes[xf]
}

// loadStyles reads the styles part once, on first use. A workbook without
// one formats every number as General.
func (wb *Workbook) loadStyles() (*readStyles, error) {
	wb.stylesOnce.Do(func() {
		wb.styles = &readStyles{}
		if wb.stylesPart == "" || wb.parts[normPart(wb.stylesPart)] == nil {
			return
		}
		if binaryPart(wb.stylesPart) {
			wb.styles, wb.stylesErr = wb.readStylesBin()
			return
		}
		buf, err := wb.readPart(wb.stylesPart)
		if err != nil {
			wb.stylesErr = err
			return
		}
		wb.styles, wb.stylesErr = parseStyles(wb.scanner(buf))
		if wb.stylesErr != nil {
			wb.stylesErr = wb.errorf(wb.stylesPart, wb.stylesErr)
		}
	})
	return wb.styles, wb.stylesErr
}

func parseStyles(sc *xmlscan.Scanner) (*readStyles, error) {
	custom := map[int]string{}
	var scratch []byte
	var ids []int
	// numFmt also appears in differential formats (dxfs), where its id
	// means nothing for cells: only those in numFmts count.
	inCellXfs, inNumFmts := false, false
	for k := sc.Next(); k != xmlscan.EOF; k = sc.Next() {
		switch k {
		case xmlscan.Start, xmlscan.Empty:
			switch string(sc.Name()) {
			case "numFmts":
				inNumFmts = k == xmlscan.Start
			case "numFmt":
				if !inNumFmts {
					continue
				}
				id, _ := sc.Attr("numFmtId")
				code, _ := sc.Attr("formatCode")
				n, err := strconv.Atoi(string(id))
				if err != nil {
					continue
				}
				scratch, _ = xmlscan.DecodeAttr(scratch[:0], code)
				custom[n] = string(scratch)
			case "cellXfs":
				inCellXfs = k == xmlscan.Start
			case "xf":
				if !inCellXfs {
					continue
				}
				id := 0
				if v, ok := sc.Attr("numFmtId"); ok {
					id, _ = strconv.Atoi(string(v))
				}
				ids = append(ids, id)
			}
		case xmlscan.End:
			if sc.Is("cellXfs") {
				inCellXfs = false
			} else if sc.Is("numFmts") {
				inNumFmts = false
			}
		}
	}
	if err := sc.Err(); err != nil {
		return &readStyles{}, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	return newReadStyles(ids, custom), nil
}

// newReadStyles classifies each cell format by its number format id:
// a custom format's code, or the built-in format's.
func newReadStyles(ids []int, custom map[int]string) *readStyles {
	st := &readStyles{classes: make([]fmtClass, len(ids)), ids: ids, codes: make([]string, len(ids))}
	classes := make(map[int]fmtClass, len(custom))
	for id, code := range custom {
		classes[id] = classifyFormat(code)
	}
	for i, id := range ids {
		if c, ok := classes[id]; ok {
			st.classes[i], st.codes[i] = c, custom[id]
		} else {
			st.classes[i], st.codes[i] = builtinClass(id), builtinCodes[id]
		}
	}
	return st
}

// builtinCodes are the codes of the number formats Excel does not store
// in the file, by id (ECMA-376 Part 1, 18.8.30), in the en-US locale; the
// East Asian ones differ by locale and are left out.
var builtinCodes = map[int]string{
	1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00", 9: "0%", 10: "0.00%", 11: "0.00E+00", 12: "# ?/?", 13: "# ??/??",
	14: "mm-dd-yy", 15: "d-mmm-yy", 16: "d-mmm", 17: "mmm-yy", 18: "h:mm AM/PM", 19: "h:mm:ss AM/PM", 20: "h:mm",
	21: "h:mm:ss", 22: "m/d/yy h:mm", 37: "#,##0 ;(#,##0)", 38: "#,##0 ;[Red](#,##0)", 39: "#,##0.00;(#,##0.00)",
	40: "#,##0.00;[Red](#,##0.00)", 45: "mm:ss", 46: "[h]:mm:ss", 47: "mmss.0", 48: "##0.0E+0", 49: "@",
}

// NumberFormat is the number format code of a cell's style (Value.Style):
// a custom format's code as the file has it, or a built-in one's
// (ECMA-376's en-US codes); "" for General, for a built-in format whose
// code depends on the locale, and in .ods files, whose data styles are
// not read as codes.
func (wb *Workbook) NumberFormat(style int) string {
	st, err := wb.loadStyles()
	if err != nil || st == nil || style < 0 || style >= len(st.codes) || strings.EqualFold(st.codes[style], "General") {
		return ""
	}
	return st.codes[style]
}
