package xlsx

import (
	"fmt"
	"strconv"

	"github.com/sheetstream/sheetstream/internal/xmlscan"
)

// readStyles is what the reader needs of a styles part: how each cell
// format (the s attribute of a cell) classifies numbers.
type readStyles struct {
	classes []fmtClass
	ids     []int // number format id per cell format
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
	custom := map[int]fmtClass{}
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
				custom[n] = classifyFormat(string(scratch))
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
func newReadStyles(ids []int, custom map[int]fmtClass) *readStyles {
	st := &readStyles{classes: make([]fmtClass, len(ids)), ids: ids}
	for i, id := range ids {
		if c, ok := custom[id]; ok {
			st.classes[i] = c
		} else {
			st.classes[i] = builtinClass(id)
		}
	}
	return st
}
