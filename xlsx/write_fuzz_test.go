package xlsx_test

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/xlsx"
)

var xEscape = regexp.MustCompile(`_x([0-9A-Fa-f]{4})_`)

// escapedUnderscore matches where Excel's rule escapes an underscore: it
// and what follows would read as _xHHHH_ once control characters are
// escaped.
var escapedUnderscore = regexp.MustCompile(`^_x[0-9A-Fa-f]{4}[_\x00-\x08\x0b-\x1f]`)

// excelUnescape decodes _xHHHH_ as Excel reads it.
func excelUnescape(s string) string {
	return xEscape.ReplaceAllStringFunc(s, func(m string) string {
		v, _ := strconv.ParseUint(m[2:6], 16, 16)
		return string(rune(v))
	})
}

// writeCell writes text and a number into one row, shared or inline.
func writeCell(text string, v float64, inline bool) ([]byte, error) {
	var buf bytes.Buffer
	opts := xlsx.Options{Strings: xlsx.StringsShared, Workers: 1, Properties: fixedTime}
	if inline {
		opts.Strings = xlsx.StringsInline
	}
	w, err := xlsx.NewWriter(&buf, opts)
	if err != nil {
		return nil, err
	}
	sh, err := w.AddSheet("Fuzz", xlsx.SheetOptions{})
	if err != nil {
		return nil, err
	}
	err = sh.WriteRow([]xlsx.Cell{xlsx.String(text), xlsx.Float(v)})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return buf.Bytes(), err
}

// textsOf parses a part with encoding/xml (so it must be well-formed) and
// returns the text of its <t> elements in order, and of its <v> elements.
func textsOf(t *testing.T, part string) (ts, vs []string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(part))
	var cur *string
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() == "EOF" {
				return ts, vs
			}
			t.Fatalf("broken XML: %v\n%q", err, part)
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			switch tk.Name.Local {
			case "t":
				ts = append(ts, "")
				cur = &ts[len(ts)-1]
			case "v":
				vs = append(vs, "")
				cur = &vs[len(vs)-1]
			}
		case xml.EndElement:
			cur = nil
		case xml.CharData:
			if cur != nil {
				*cur += string(tk)
			}
		}
	}
}

// FuzzCellText checks that any text and any number is either refused with
// one of the cell errors or written as well-formed XML that decodes back
// to the same value, in shared and inline strings alike. Inputs worth
// keeping go to testdata/fuzz; TestFuzzCorpusReadBack sends them through
// openpyxl and python-calamine.
func FuzzCellText(f *testing.F) {
	for _, seed := range fuzzSeeds {
		f.Add(seed.text, seed.num)
	}
	f.Fuzz(func(t *testing.T, text string, v float64) {
		for _, inline := range []bool{false, true} {
			book, err := writeCell(text, v, inline)
			// Cells are checked left to right, the text in A1 before the
			// number in B1; a text may be refused for any reason that applies.
			var wants []error
			if !utf8.ValidString(text) {
				wants = append(wants, xlsx.ErrInvalidUTF8)
			}
			if strings.ContainsAny(text, "\uFFFE\uFFFF") {
				wants = append(wants, xlsx.ErrNonCharacter)
			}
			if len(utf16.Encode([]rune(text))) > xlsx.MaxCellChars {
				wants = append(wants, xlsx.ErrCellTooLong)
			}
			if len(wants) == 0 && (math.IsNaN(v) || math.IsInf(v, 0)) {
				wants = append(wants, xlsx.ErrNotFinite)
			}
			if len(wants) > 0 || err != nil {
				if !slices.ContainsFunc(wants, func(want error) bool { return errors.Is(err, want) }) {
					t.Fatalf("text %.40q, number %v: error %v, want one of %v", text, v, err, wants)
				}
				var ce *xlsx.CellError
				if !errors.As(err, &ce) || ce.Row != 1 {
					t.Fatalf("error %v does not name the cell", err)
				}
				continue
			}
			sheet := part(t, book, "xl/worksheets/sheet1.xml")
			ts, vs := textsOf(t, sheet)
			if !inline {
				ts, _ = textsOf(t, part(t, book, "xl/sharedStrings.xml"))
			}
			if len(ts) != 1 || excelUnescape(ts[0]) != text {
				t.Fatalf("text %q came back as %q", text, ts)
			}
			got, err := strconv.ParseFloat(vs[len(vs)-1], 64)
			if err != nil || got != v {
				t.Fatalf("number %v came back as %q", v, vs[len(vs)-1])
			}
		}
	})
}

var fuzzSeeds = []struct {
	text string
	num  float64
}{
	{"", 0}, {" ", math.Copysign(0, -1)}, {"plain", 1}, {"_x0041_", 0.1}, {"_x005F_x0041_", 1e308},
	{"\x00\x01\x1f", 5e-324}, {"\r\n", -1.5}, {"\r", 123456789012345678}, {"a&b<c>\"d'", 1e15},
	{"]]>", 1e-5}, {"\uFFFD", 9.999999999999999e14}, {"😀 émoji", 2.5e-300}, {"\xff", 1}, {"\uFFFE", 1},
	{"_x", 1}, {"_xABCD", 1}, {"_x12G4_", 1}, {"\t lead", 1}, {"trail \n", 1}, {"\u2028\u2029", 1},
	{"中文字符测试", 1}, {strings.Repeat("a", 32767), 1}, {strings.Repeat("a", 32768), 1}, {strings.Repeat("a", 32768) + "\x80", 1}, {"x", math.NaN()}, {"x", math.Inf(1)},
}

// TestFuzzCorpusReadBack writes the seeds and every input in the fuzz
// corpus and checks what openpyxl and python-calamine read. Calamine
// decodes _xHHHH_ as Excel does, so every text must come back exactly.
// openpyxl only drops "x005F_" and leaves other escapes encoded, so it is
// held to exact equality for text that needs no escape, and for the rest
// to Excel's escaped form.
func TestFuzzCorpusReadBack(t *testing.T) {
	pyread.Python(t)
	inputs := fuzzSeeds
	files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzCellText", "*"))
	for _, f := range files {
		text, num, ok := readCorpusEntry(t, f)
		if ok {
			inputs = append(inputs, struct {
				text string
				num  float64
			}{text, num})
		}
	}
	dir := t.TempDir()
	var paths []string
	var kept []int
	for i, in := range inputs {
		book, err := writeCell(in.text, in.num, i%2 == 1)
		if err != nil {
			continue // refusals are checked by FuzzCellText
		}
		path := filepath.Join(dir, strconv.Itoa(i)+".xlsx")
		must(t, os.WriteFile(path, book, 0o644))
		paths = append(paths, path)
		kept = append(kept, i)
	}
	results := pyread.Read(t, paths...)
	for j, path := range paths {
		in := inputs[kept[j]]
		r := results[path]
		if r == nil || r.Error != "" || len(r.Audit) > 0 {
			t.Errorf("input %q: %+v", in.text, r)
			continue
		}
		wantNum := in.num
		if wantNum == 0 {
			wantNum = 0 // -0 reads back as 0
		}
		check := func(reader string, rows [][]*pyread.Value, wantText string) {
			var text, num *pyread.Value
			if len(rows) > 0 && len(rows[0]) > 0 {
				text = rows[0][0]
			}
			if len(rows) > 0 && len(rows[0]) > 1 {
				num = rows[0][1]
			}
			if wantText == "" && text == nil {
				text = pyread.Str("") // empty text reads back as an empty cell
			}
			if !text.Equal(pyread.Str(wantText)) {
				t.Errorf("%s: text %q read back as %v", reader, in.text, text)
			}
			if !num.Equal(pyread.Num(wantNum)) {
				t.Errorf("%s: number %v read back as %v", reader, in.num, num)
			}
		}
		check("calamine", r.Calamine["Fuzz"], in.text)
		check("openpyxl", r.Openpyxl["Fuzz"], openpyxlView(in.text, kept[j]%2 == 1))
	}
}

// openpyxlView is what openpyxl shows for text: Excel's escaped form
// (control characters as _xHHHH_, and the underscore of a literal
// _xHHHH_ as _x005F_), after openpyxl's only decoding step, which removes
// every "x005F_" from shared strings (and nothing from inline ones).
func openpyxlView(text string, inline bool) string {
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '_' && escapedUnderscore.MatchString(text[i:]):
			b.WriteString("_x005F")
		case c < 0x20 && c != '\t' && c != '\n':
			b.WriteString("_x00")
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
			b.WriteByte('_')
			continue
		}
		if c >= 0x20 || c == '\t' || c == '\n' {
			b.WriteByte(c)
		}
	}
	if inline {
		return b.String()
	}
	return strings.ReplaceAll(b.String(), "x005F_", "")
}

// readCorpusEntry reads a "go test fuzz v1" file of FuzzCellText.
func readCorpusEntry(t *testing.T, path string) (string, float64, bool) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) != 3 || lines[0] != "go test fuzz v1" {
		return "", 0, false
	}
	text, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "string("), ")"))
	if err != nil {
		return "", 0, false
	}
	arg := strings.TrimSuffix(strings.TrimPrefix(lines[2], "float64("), ")")
	var v float64
	if strings.HasPrefix(arg, "math.Float64frombits(") {
		bits, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimPrefix(arg, "math.Float64frombits("), ")"), 0, 64)
		if err != nil {
			return "", 0, false
		}
		v = math.Float64frombits(bits)
	} else if v, err = strconv.ParseFloat(arg, 64); err != nil {
		return "", 0, false
	}
	return text, v, true
}
