package xlsx

// Rows past a sheet's last row roll over to new plain sheets placed after
// the filled one: the package gains a worksheet part, its relationship,
// its content type and its <sheet> in the workbook.

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// addedSheet is a sheet the rows rolled over to.
type addedSheet struct {
	after      string // the sheet it follows
	name, part string
	relID      string
}

const (
	rolloverHead = xmlHeader + `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">`
	rolloverTail = `</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`
)

// rollover finishes a full sheet and opens the plain sheet its rows go on
// to, its header written.
func (ts *TemplateSheet) rollover() (*TemplateSheet, error) {
	t := ts.t
	if err := ts.finish(); err != nil {
		return nil, err
	}
	at := slices.Index(t.names, ts.name)
	base := ts.name
	if ts.origin != nil {
		base = ts.origin.name
	}
	name := ""
	for n := 1; ; n++ {
		name = NumberedSheetName(base, n)
		if !slices.ContainsFunc(t.names, func(s string) bool { return strings.EqualFold(s, name) }) {
			break
		}
	}
	part := ""
	for n := len(t.names) + 1; ; n++ {
		part = path.Join(path.Dir(ts.part), "sheet"+strconv.Itoa(n)+".xml")
		if t.files[part] == nil && !t.written[part] {
			break
		}
	}
	next := &TemplateSheet{t: t, name: name, part: part, firstCol: 1, colStyles: ts.colStyles, header: ts.header, origin: ts.origin}
	if next.origin == nil {
		next.origin = ts
	}
	head := []byte(rolloverHead)
	if len(ts.header) > 0 {
		head = append(head, `<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>`...)
	}
	head = append(head, `<sheetFormatPr defaultRowHeight="15"/><sheetData>`...)
	if len(ts.header) > 0 {
		head = append(head, `<row r="1">`...)
		for _, h := range ts.header {
			var err error
			if head, err = t.appendTextCell(append(head, "<c"...), h, true); err != nil {
				return nil, t.fail(&CellError{Sheet: name, Row: 1, Err: err})
			}
		}
		head = append(head, "</row>"...)
		next.row = 1
	}
	next.firstRow = next.row + 1
	next.oldLast = next.row
	next.tail = []byte(rolloverTail)
	var err error
	if next.entry, err = t.out.Create(part); err != nil {
		return nil, t.fail(err)
	}
	next.stream = t.pool.NewStream(next.entry)
	next.buf = t.pool.Buffer()
	t.written[part] = true
	t.filled = append(t.filled, next)
	t.names = slices.Insert(t.names, at+1, name)
	t.parts = slices.Insert(t.parts, at+1, part)
	t.added = append(t.added, addedSheet{after: ts.name, name: name, part: part})
	t.current = next
	ts.next = next
	if err := next.emit(head); err != nil {
		return nil, err
	}
	return next, nil
}

// appendTextCell ends a text cell whose start tag b has open (`<c` and
// its reference and style): a shared string when shared and the table
// takes it, else inline.
func (t *TemplateWriter) appendTextCell(b []byte, text string, shared bool) ([]byte, error) {
	if err := checkTextLen(text); err != nil {
		return b, err
	}
	if shared {
		if i, ok, err := t.sharedString(text); err != nil {
			return b, err
		} else if ok {
			b = append(b, ` t="s"><v>`...)
			return append(strconv.AppendUint(b, uint64(t.sstBase)+uint64(i), 10), "</v></c>"...), nil
		}
	}
	if !validAttrText(text) {
		return b, fmt.Errorf("%w: text XML cannot carry", ErrInvalidUTF8)
	}
	b = append(b, ` t="inlineStr"><is>`...)
	return append(appendT(b, text), "</is></c>"...), nil
}

var (
	sheetIDRe      = regexp.MustCompile(`\bsheetId="(\d+)"`)
	localSheetIDRe = regexp.MustCompile(`(\blocalSheetId=")(\d+)"`)
	activeTabRe    = regexp.MustCompile(`(\bactiveTab=")(\d+)"`)
	relIDRe        = regexp.MustCompile(`\bId="([^"]*)"`)
)

// addedSheetsXML puts the rolled-over sheets in the workbook, each after
// the sheet it follows; the sheets after it move one place, and so do the
// defined names and the active tab that count them.
func (t *TemplateWriter) addedSheetsXML(x []byte) []byte {
	for _, a := range t.added {
		elems := sheetElemRe.FindAllIndex(x, -1)
		at := -1
		maxID := 0
		for k, e := range elems {
			el := attrs(string(x[e[0]:e[1]]))
			if el["name"] == a.after {
				at = k
			}
			if m := sheetIDRe.FindSubmatch(x[e[0]:e[1]]); m != nil {
				n, _ := strconv.Atoi(string(m[1]))
				maxID = max(maxID, n)
			}
		}
		if at < 0 {
			continue
		}
		el := []byte(`<sheet name="`)
		el = appendAttr(el, a.name)
		el = append(el, `" sheetId="`...)
		el = strconv.AppendInt(el, int64(maxID+1), 10)
		el = append(el, `" r:id="`...)
		el = append(el, a.relID...)
		el = append(el, `"/>`...)
		pos := elems[at][1]
		x = slices.Concat(x[:pos:pos], el, x[pos:])
		shift := func(re *regexp.Regexp) {
			x = re.ReplaceAllFunc(x, func(m []byte) []byte {
				sub := re.FindSubmatch(m)
				n, _ := strconv.Atoi(string(sub[2]))
				if n > at {
					n++
				}
				return append(append(append([]byte(nil), sub[1]...), strconv.Itoa(n)...), '"')
			})
		}
		shift(localSheetIDRe)
		shift(activeTabRe)
	}
	return x
}

// addedSheetsRels gives the rolled-over sheets their relationships from
// the workbook, each an id the part does not use.
func (t *TemplateWriter) addedSheetsRels(x []byte) []byte {
	used := map[string]bool{}
	for _, m := range relIDRe.FindAllSubmatch(x, -1) {
		used[string(m[1])] = true
	}
	var rels []byte
	n := 1
	for i := range t.added {
		a := &t.added[i]
		for ; ; n++ {
			a.relID = "rIdRows" + strconv.Itoa(n)
			if !used[a.relID] {
				break
			}
		}
		used[a.relID] = true
		target := "/" + a.part
		if dir := path.Dir(t.book) + "/"; strings.HasPrefix(a.part, dir) {
			target = strings.TrimPrefix(a.part, dir)
		}
		rels = append(rels, `<Relationship Id="`+a.relID+`" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="`...)
		rels = appendAttr(rels, target)
		rels = append(rels, `"/>`...)
	}
	end := bytes.LastIndex(x, []byte("</Relationships>"))
	if end < 0 {
		return x
	}
	return slices.Concat(x[:end:end], rels, x[end:])
}

// addedSheetsTypes gives the rolled-over sheets' parts their content type.
func (t *TemplateWriter) addedSheetsTypes(x []byte) []byte {
	var over []byte
	for _, a := range t.added {
		over = append(over, `<Override PartName="/`...)
		over = appendAttr(over, a.part)
		over = append(over, `" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`...)
	}
	end := bytes.LastIndex(x, []byte("</Types>"))
	if end < 0 {
		return x
	}
	return slices.Concat(x[:end:end], over, x[end:])
}
