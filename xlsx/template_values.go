package xlsx

// Placeholders: {{name}} in the template's text, filled from
// TemplateOptions.Values, {{now}} and {{rows}}. A placeholder that is a
// cell's whole text and whose value is a number, date, time or boolean
// makes the cell that value, typed, so that formulas and formats over it
// work; anywhere else a value is written as text.

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"time"

	"github.com/klauspost/compress/flate"

	"github.com/sheetstream/sheetstream/internal/zipstream"
)

// placeholderValue looks a placeholder up: Values first, then the
// built-in {{now}} and, once the rows are known, {{rows}}.
func (t *TemplateWriter) placeholderValue(name string, rowsKnown bool) (any, bool) {
	if v, ok := t.opts.Values[name]; ok {
		return v, true
	}
	switch name {
	case "now":
		return t.opts.Now.Truncate(time.Minute), true
	case "rows":
		if !rowsKnown {
			return nil, false
		}
		rows := 0
		for _, ts := range t.filled {
			rows += max(ts.row-ts.firstRow+1, 0)
		}
		return int64(rows), true
	}
	return nil, false
}

// placeholderText is a value written inside text.
func placeholderText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case time.Time:
		if v.Hour() == 0 && v.Minute() == 0 && v.Second() == 0 && v.Nanosecond() == 0 {
			return v.Format("2006-01-02")
		}
		if v.Second() == 0 && v.Nanosecond() == 0 {
			return v.Format("2006-01-02 15:04")
		}
		return v.Format("2006-01-02 15:04:05")
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(v), 'f', -1, 32)
	case bool:
		if v {
			return "TRUE"
		}
		return "FALSE"
	case Cell:
		return placeholderText(v.Value())
	}
	return fmt.Sprint(v)
}

// placeholderCell is the typed cell a value makes of a cell whose whole
// text is its placeholder; ok is false for text (and values that are not
// finite numbers), which stay shared strings.
func placeholderCell(v any) (c Cell, ok bool) {
	switch v := v.(type) {
	case int:
		return Int(int64(v)), true
	case int8:
		return Int(int64(v)), true
	case int16:
		return Int(int64(v)), true
	case int32:
		return Int(int64(v)), true
	case int64:
		return Int(v), true
	case uint8:
		return Int(int64(v)), true
	case uint16:
		return Int(int64(v)), true
	case uint32:
		return Int(int64(v)), true
	case uint:
		return Uint(uint64(v)), true
	case uint64:
		return Uint(v), true
	case float32:
		return Float32(v), !math.IsInf(float64(v), 0) && !math.IsNaN(float64(v))
	case float64:
		return Float(v), !math.IsInf(v, 0) && !math.IsNaN(v)
	case bool:
		return Bool(v), true
	case time.Time:
		if v.Hour() == 0 && v.Minute() == 0 && v.Second() == 0 && v.Nanosecond() == 0 {
			return Date(v), true
		}
		return Time(v), true
	case Cell:
		switch v.kind {
		case kindString, kindRich, kindEmpty, kindBlank, kindFormula:
			return Cell{}, false
		}
		return v, true
	}
	return Cell{}, false
}

// wholePlaceholderRe is a shared string that is one placeholder.
var wholePlaceholderRe = regexp.MustCompile(`^<si>\s*<t(?:\s[^>]*)?>\s*\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}\s*</t>\s*</si>$`)

// findWholePlaceholders notes the shared strings that are a placeholder
// and nothing else, by index: the cells showing them may become typed.
func (t *TemplateWriter) findWholePlaceholders(sst []byte) {
	i, pos := 0, 0
	for {
		k := bytes.Index(sst[pos:], []byte("<si"))
		if k < 0 {
			return
		}
		start := pos + k
		pos = start + 3
		if pos >= len(sst) || (sst[pos] != '>' && sst[pos] != ' ' && sst[pos] != '/') {
			continue
		}
		end := bytes.Index(sst[start:], []byte("</si>"))
		selfClosed := bytes.HasPrefix(sst[start:], []byte("<si/>"))
		if !selfClosed && end >= 0 {
			if m := wholePlaceholderRe.FindSubmatch(sst[start : start+end+5]); m != nil {
				if t.wholePlaceholders == nil {
					t.wholePlaceholders = map[int]string{}
				}
				t.wholePlaceholders[i] = string(m[1])
			}
		}
		i++
	}
}

// typedPlaceholders are the shared strings whose cells become typed
// values, by index; without the rows known, {{rows}} stays text.
func (t *TemplateWriter) typedPlaceholders(rowsKnown bool) map[int]Cell {
	var typed map[int]Cell
	for i, name := range t.wholePlaceholders {
		v, ok := t.placeholderValue(name, rowsKnown)
		if !ok {
			continue
		}
		if c, ok := placeholderCell(v); ok {
			if typed == nil {
				typed = map[int]Cell{}
			}
			typed[i] = c
		}
	}
	return typed
}

var (
	sharedCellRe = regexp.MustCompile(`<c\b([^>]*)>\s*<v>\s*(\d+)\s*</v>\s*</c>`)
	typeAttrRe   = regexp.MustCompile(`\s+t="[^"]*"`)
	styleAttrRe  = regexp.MustCompile(`(\s+s=")(\d*)"`)
)

// inlinePlaceholderRe is a cell whose inline string is one placeholder
// (openpyxl writes a template's text inline).
var inlinePlaceholderRe = regexp.MustCompile(`<c\b([^>]*)>\s*<is>\s*<t(?:\s[^>]*)?>\s*\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}\s*</t>\s*</is>\s*</c>`)

// typeCells makes the cells showing one placeholder, as a shared string
// (typed, by index) or as an inline string, that value, in their style
// (a date given a date format if the style has none); it reports whether
// it changed any. Without the rows known, {{rows}} stays text.
func (t *TemplateWriter) typeCells(x []byte, typed map[int]Cell, rowsKnown bool) ([]byte, bool) {
	changed := false
	if len(typed) > 0 && bytes.Contains(x, []byte(`t="s"`)) {
		x = sharedCellRe.ReplaceAllFunc(x, func(m []byte) []byte {
			sub := sharedCellRe.FindSubmatch(m)
			attr := sub[1]
			if !bytes.Contains(attr, []byte(`t="s"`)) {
				return m
			}
			idx, err := strconv.Atoi(string(sub[2]))
			if err != nil {
				return m
			}
			c, ok := typed[idx]
			if !ok {
				return m
			}
			out, ok := t.typedCellXML(attr, c)
			if !ok {
				return m
			}
			changed = true
			return out
		})
	}
	if bytes.Contains(x, []byte("inlineStr")) && bytes.Contains(x, []byte("{{")) {
		x = inlinePlaceholderRe.ReplaceAllFunc(x, func(m []byte) []byte {
			sub := inlinePlaceholderRe.FindSubmatch(m)
			v, ok := t.placeholderValue(string(sub[2]), rowsKnown)
			if !ok {
				return m
			}
			c, ok := placeholderCell(v)
			if !ok {
				return m
			}
			out, ok := t.typedCellXML(sub[1], c)
			if !ok {
				return m
			}
			changed = true
			return out
		})
	}
	return x, changed
}

// typedCellXML is a cell of attributes attr (its t= dropped) holding c's
// value in its style, a date given a date format if the style has none.
func (t *TemplateWriter) typedCellXML(attr []byte, c Cell) ([]byte, bool) {
	style := 0
	if s := styleAttrRe.FindSubmatch(attr); s != nil {
		style, _ = strconv.Atoi(string(s[2]))
	}
	kind := c.kind
	v := []byte(nil)
	var err error
	switch kind {
	case kindInt:
		v = strconv.AppendInt(v, c.i, 10)
	case kindUint:
		v = strconv.AppendUint(v, c.uint(), 10)
	case kindFloat, kindFloat32, kindDecimal:
		if v, err = appendCellNumber(v, &c); err != nil {
			return nil, false
		}
	case kindBool:
		v = append(v, c.boolDigit())
	case kindDateTime, kindDate, kindTimeOfDay, kindDuration:
		f, err := t.timeValue(kind, &c)
		if err != nil {
			return nil, false
		}
		v, _ = appendXMLNumber(v, f, false)
		if t.styles != nil {
			style = t.styles.dateStyle(style, kind)
		}
	default:
		return nil, false
	}
	a := typeAttrRe.ReplaceAll(append([]byte(nil), attr...), nil)
	if styleAttrRe.Match(a) {
		a = styleAttrRe.ReplaceAll(a, []byte("${1}"+strconv.Itoa(style)+`"`))
	} else if style > 0 {
		a = append(a, ` s="`+strconv.Itoa(style)+`"`...)
	}
	out := append([]byte("<c"), a...)
	if kind == kindBool {
		out = append(out, ` t="b"`...)
	}
	return append(append(append(out, "><v>"...), v...), "</v></c>"...), true
}

// appendCellNumber writes a float or decimal cell's number.
func appendCellNumber(b []byte, c *Cell) ([]byte, error) {
	if c.kind == kindDecimal {
		return appendDecimal(b, c.decimal())
	}
	return appendXMLNumber(b, c.num, c.kind == kindFloat32)
}

// rowChunks reads a sheet's XML in pieces that end at a row's end, so
// that no cell is cut in two, and hands each to fn.
func rowChunks(r io.Reader, fn func([]byte) error) error {
	const want = 1 << 20
	buf := make([]byte, 0, want+4096)
	for {
		if cap(buf)-len(buf) < 4096 {
			buf = append(buf, make([]byte, 4096)...)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return fn(buf)
		}
		if err != nil {
			return err
		}
		if len(buf) < want {
			continue
		}
		cut := bytes.LastIndex(buf, []byte("</row>"))
		if cut < 0 {
			continue // a row longer than the chunk: read on
		}
		cut += len("</row>")
		if err := fn(buf[:cut]); err != nil {
			return err
		}
		buf = append(buf[:0], buf[cut:]...)
	}
}

// rewriteChunk makes a chunk of a sheet's rows show its placeholders:
// typed cells and filled text; changed reports whether it did.
func (t *TemplateWriter) rewriteChunk(b []byte, typed map[int]Cell) (out []byte, changed bool) {
	out, changed = t.typeCells(b, typed, true)
	filled := t.sheetPlaceholders(out, true)
	return filled, changed || !bytes.Equal(filled, out)
}

// sheetNeedsRewrite reports whether a sheet the rows do not fill shows a
// placeholder of its own, reading it once as a stream; the date styles
// its typed cells need are added on the way, before the styles part is
// written.
func (t *TemplateWriter) sheetNeedsRewrite(f *zip.File, typed map[int]Cell) (bool, error) {
	rc, err := f.Open()
	if err != nil {
		return false, fmt.Errorf("%w: %s: %v", ErrTemplate, f.Name, err)
	}
	defer rc.Close()
	found := false
	err = rowChunks(rc, func(b []byte) error {
		if _, changed := t.rewriteChunk(b, typed); changed {
			found = true
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("%w: %s: %v", ErrTemplate, f.Name, err)
	}
	return found, nil
}

// rewriteSheet copies a sheet with its placeholders filled, a chunk of
// rows at a time.
func (t *TemplateWriter) rewriteSheet(f *zip.File, typed map[int]Cell) error {
	rc, err := f.Open()
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrTemplate, f.Name, err)
	}
	defer rc.Close()
	entry, err := t.out.Create(f.Name)
	if err != nil {
		return err
	}
	fw, err := flate.NewWriter(entry, 6)
	if err != nil {
		return err
	}
	var crc uint32
	var size uint64
	err = rowChunks(rc, func(b []byte) error {
		b, _ = t.rewriteChunk(b, typed)
		crc = zipstream.CRC32(crc, b)
		size += uint64(len(b))
		_, err := fw.Write(b)
		return err
	})
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrTemplate, f.Name, err)
	}
	if err := fw.Close(); err != nil {
		return err
	}
	t.written[f.Name] = true
	return entry.Close(crc, size)
}
