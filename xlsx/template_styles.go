package xlsx

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// templateStyles are the template's cell formats, with the date formats
// the rows need added to them: the rows take their columns' styles from
// the template, and a date in a column whose style has no date format
// gets a copy of that style with one.
type templateStyles struct {
	part    string
	x       []byte
	xfs     []string // the cellXfs entries, as the template has them
	codes   map[int]string
	added   map[[2]int]int // (style, kind) -> the added style
	extra   []string       // added entries
	changed bool
}

var (
	cellXfsRe = regexp.MustCompile(`(?s)<cellXfs\b[^>]*>(.*?)</cellXfs>`)
	xfRe      = regexp.MustCompile(`(?s)<xf\b[^>]*?(?:/>|>.*?</xf>)`)
	numFmtRe  = regexp.MustCompile(`<numFmt\b[^>]*/>`)
)

func (t *TemplateWriter) loadStyles() (*templateStyles, error) {
	targets, types, err := t.rels(t.book)
	if err != nil {
		return nil, err
	}
	st := &templateStyles{codes: map[int]string{}, added: map[[2]int]int{}}
	for id, typ := range types {
		if typ == "styles" {
			st.part = targets[id]
		}
	}
	if st.part == "" || t.files[st.part] == nil {
		return nil, fmt.Errorf("%w: the workbook has no styles part", ErrTemplate)
	}
	if st.x, err = t.readPart(st.part, 64<<20); err != nil {
		return nil, err
	}
	m := cellXfsRe.FindSubmatch(st.x)
	if m == nil {
		return nil, fmt.Errorf("%w: %s has no cell formats", ErrTemplate, st.part)
	}
	for _, xf := range xfRe.FindAll(m[1], -1) {
		st.xfs = append(st.xfs, string(xf))
	}
	for _, nf := range numFmtRe.FindAll(st.x, -1) {
		a := attrs(string(nf))
		id, _ := strconv.Atoi(a["numFmtId"])
		st.codes[id] = a["formatCode"]
	}
	return st, nil
}

// dateStyle is a style that shows a date-like cell of kind k: the column's
// style if its number format is a date's, else a copy of it with Excel's
// built-in format for the kind.
func (st *templateStyles) dateStyle(style int, k cellKind) int {
	if style < 0 || style >= len(st.xfs) {
		style = 0
	}
	xf := st.xfs[style]
	id, _ := strconv.Atoi(attrs(xf[:strings.Index(xf, ">")])["numFmtId"])
	if isDateFormatID(id) || id >= 164 && classifyFormat(st.codes[id]) != fmtNumber {
		return style
	}
	key := [2]int{style, int(k)}
	if n, ok := st.added[key]; ok {
		return n
	}
	want := map[cellKind]int{kindDate: 14, kindDateTime: 22, kindTimeOfDay: 21, kindDuration: 46}[k]
	open := strings.Index(xf, ">")
	start, end := xf[:open], xf[open:]
	if strings.HasSuffix(start, "/") {
		start, end = strings.TrimSuffix(start, "/"), "/>"
	}
	start = regexp.MustCompile(`\s*(numFmtId|applyNumberFormat)="[^"]*"`).ReplaceAllString(start, "")
	start += ` numFmtId="` + strconv.Itoa(want) + `" applyNumberFormat="1"`
	n := len(st.xfs) + len(st.extra)
	st.extra = append(st.extra, start+end)
	st.added[key] = n
	st.changed = true
	return n
}

// isDateFormatID tells Excel's built-in date and time formats.
func isDateFormatID(id int) bool { return id >= 14 && id <= 22 || id >= 45 && id <= 47 }

// xml is the styles part with the added formats.
func (st *templateStyles) xml() []byte {
	m := cellXfsRe.FindSubmatchIndex(st.x)
	var b bytes.Buffer
	open := st.x[m[0] : m[0]+bytes.IndexByte(st.x[m[0]:], '>')+1]
	open = regexp.MustCompile(`count="\d+"`).ReplaceAll(open, []byte(`count="`+strconv.Itoa(len(st.xfs)+len(st.extra))+`"`))
	b.Write(st.x[:m[0]])
	b.Write(open)
	b.Write(st.x[m[2]:m[3]])
	for _, e := range st.extra {
		b.WriteString(e)
	}
	b.Write(st.x[m[3]:])
	return b.Bytes()
}
