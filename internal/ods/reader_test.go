package ods

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// events renders a document's events, one per line.
func events(t testing.TB, doc string) (string, error) {
	t.Helper()
	return render(NewReader(strings.NewReader(doc), 64, 1<<16, 1<<10))
}

func render(r *Reader) (string, error) {
	var b strings.Builder
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return b.String(), nil
		}
		if err != nil {
			return b.String(), err
		}
		switch ev.Kind {
		case TableStart:
			fmt.Fprintf(&b, "table %q %q\n", ev.Name, ev.Style)
		case RowStart:
			fmt.Fprintf(&b, "row x%d\n", ev.Repeat)
		case Cell:
			fmt.Fprintf(&b, "cell x%d %s=%q %q", ev.Repeat, ev.ValueType, ev.Value, ev.Text)
			if ev.Formula {
				b.WriteString(" formula")
			}
			if ev.Covered {
				b.WriteString(" covered")
			}
			if ev.ColSpan > 1 || ev.RowSpan > 1 {
				fmt.Fprintf(&b, " span %dx%d", ev.ColSpan, ev.RowSpan)
			}
			if ev.Link != nil {
				fmt.Fprintf(&b, " link %s", ev.Link)
			}
			b.WriteString("\n")
		case RowEnd:
			b.WriteString("end row\n")
		case TableEnd:
			b.WriteString("end table\n")
		case HiddenStyle:
			fmt.Fprintf(&b, "hidden %q\n", ev.Style)
		}
	}
}

func TestEvents(t *testing.T) {
	doc := `<office:document-content><office:automatic-styles><style:style style:name="ta9" style:family="table"><style:table-properties table:display="false"/></style:style>` +
		`<style:style style:name="ce1" style:family="table-cell"><style:table-properties table:display="false"/></style:style></office:automatic-styles>` +
		`<office:body><office:spreadsheet><table:table table:name="A &amp; B" table:style-name="ta9"><table:table-row table:number-rows-repeated="2">` +
		`<table:table-cell office:value-type="float" office:value="2" table:number-columns-repeated="3" table:number-columns-spanned="2"><text:p>2</text:p></table:table-cell>` +
		`<table:covered-table-cell/><table:table-cell office:value-type="string">` + "\n  " + `<text:p>a <text:s/>b<text:tab/>c</text:p>` +
		`<office:annotation><text:p>note</text:p></office:annotation><text:p><text:a xlink:href="#S.A1">go</text:a></text:p></table:table-cell>` +
		`<table:table-cell office:value-type="string" office:string-value="x &lt; y"/><table:table-cell calcext:value-type="error" office:value-type="float" office:value="0"><text:p>#N/A</text:p></table:table-cell>` +
		`</table:table-row><table:table-row/></table:table><table:table table:name="E"/></office:spreadsheet></office:body></office:document-content>`
	got, err := events(t, doc)
	if err != nil {
		t.Fatal(err)
	}
	want := `hidden "ta9"
table "A & B" "ta9"
row x2
cell x3 float="2" "2" span 2x1
cell x1 ="" "" covered
cell x1 string="" "a  b\tc\ngo" link #S.A1
cell x1 string="x < y" ""
cell x1 error="" "#N/A"
end row
row x1
end row
end table
table "E" ""
end table
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, bad := range []string{
		`<office:spreadsheet><table:table table:name="S"><table:table-row><table:table-cell><text:p>a</text:p>`,
		`<office:spreadsheet><table:table table:name="S"><table:table-row>`,
		`<office:spreadsheet><table:table table:name="S"><table:table-row><table:table-cell><text:p>` + strings.Repeat("x", 2000) + `</text:p></table:table-cell></table:table-row></table:table>`,
		`<table:table table:name="S"><table:table-row><table:table-cell><text:p>&bogus;</text:p></table:table-cell></table:table-row></table:table>`,
	} {
		if _, err := events(t, bad); !errors.Is(err, ErrMalformed) {
			t.Errorf("%.60s...: %v", bad, err)
		}
	}
}

// FuzzReader reads any document without panicking; a cell's text stays
// within the limit.
func FuzzReader(f *testing.F) {
	f.Add(`<table:table table:name="S"><table:table-row table:number-rows-repeated="3"><table:table-cell office:value-type="string"><text:p>a<text:s text:c="99999999"/></text:p></table:table-cell></table:table-row></table:table>`)
	f.Add(`<table:table table:name="S"><table:table-row><table:table-cell office:value-type="float" office:value="1.5" calcext:value-type="float"><text:p>1.5</text:p></table:table-cell><table:table-cell table:number-columns-repeated="3"/><table:table-cell office:value-type="string" office:string-value="a&amp;b" table:formula="of:=1"><text:p>x y</text:p></table:table-cell></table:table-row></table:table>`)
	f.Fuzz(func(t *testing.T, doc string) {
		// The whole-cell fast path reads what the general one does.
		fast, fastErr := render(NewReader(strings.NewReader(doc), 64, 1<<12, 256))
		general := NewReader(strings.NewReader(doc), 64, 1<<12, 256)
		general.general = true
		slow, slowErr := render(general)
		if fast != slow || (fastErr == nil) != (slowErr == nil) {
			t.Fatalf("fast path:\n%s%v\ngeneral path:\n%s%v", fast, fastErr, slow, slowErr)
		}
		r := NewReader(strings.NewReader(doc), 64, 1<<12, 256)
		for {
			ev, err := r.Next()
			if err != nil {
				return
			}
			if len(ev.Text) > 256 {
				t.Fatalf("%d bytes of text", len(ev.Text))
			}
			if ev.Kind == RowStart && len(doc)%2 == 0 {
				r.SkipRow()
			}
			if ev.Kind == TableStart && len(doc)%3 == 0 && r.SkipTable() != nil {
				return
			}
		}
	})
}

// naiveTableTag is indexTableTag by trying every offset.
func naiveTableTag(b []byte) (int, bool) {
	for i := range b {
		rest := string(b[i:])
		for _, tag := range []struct {
			prefix string
			isEnd  bool
			ends   string
		}{{"<" + tableTagName, false, " \t\n\r>/"}, {"</" + tableTagName, true, " \t\n\r>"}} {
			if len(rest) > len(tag.prefix) && strings.HasPrefix(rest, tag.prefix) && strings.IndexByte(tag.ends, rest[len(tag.prefix)]) >= 0 {
				return i, tag.isEnd
			}
		}
	}
	return -1, false
}

// FuzzIndexTableTag: the skipping search finds what trying every offset
// finds.
func FuzzIndexTableTag(f *testing.F) {
	for _, seed := range []string{
		`<table:table-cell><table:table-row></table:table-row></table:table>`,
		`e>le:table:table </table:table/></table:table >`,
		`<table:table/>`, `<table:table>`, `</table:table>`, `table:table>`, `<<table:table
`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		gotAt, gotEnd := indexTableTag([]byte(doc))
		wantAt, wantEnd := naiveTableTag([]byte(doc))
		if gotAt != wantAt || gotAt >= 0 && gotEnd != wantEnd {
			t.Errorf("%q: at %d (end %v), want %d (end %v)", doc, gotAt, gotEnd, wantAt, wantEnd)
		}
	})
}

// TestIndexTableTag compares the search with trying every offset on
// documents made of pieces that share the tags' bytes.
func TestIndexTableTag(t *testing.T) {
	pieces := []string{"<table:table", "</table:table", "<table:table-cell", "table:table", "e", ">", " ", "/", "\n", ":", "le", "x", "<", "</", "ab"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		doc := b.String()
		gotAt, gotEnd := indexTableTag([]byte(doc))
		wantAt, wantEnd := naiveTableTag([]byte(doc))
		if gotAt != wantAt || gotAt >= 0 && gotEnd != wantEnd {
			t.Fatalf("%q: at %d (end %v), want %d (end %v)", doc, gotAt, gotEnd, wantAt, wantEnd)
		}
	}
}

// TestSkipTable skips tables by their end tags, nested ones included,
// and by their tokens when the prefix is not "table".
func TestSkipTable(t *testing.T) {
	for _, doc := range []string{
		`<office:spreadsheet><table:table table:name="A"><table:table-row><table:table-cell><draw:frame><table:table table:name="in"></table:table></draw:frame></table:table-cell></table:table-row></table:table><table:table table:name="B"/><table:table table:name="C"><table:table-row/></table:table></office:spreadsheet>`,
		`<office:spreadsheet><table:table table:name="A"><table:table-row><table:table-cell><draw:frame><table:table
 table:name="in"/><table:table table:name="x>y"><table:table-row/></table:table ></draw:frame></table:table-cell></table:table-row></table:table><table:table table:name="B"></table:table	><table:table table:name="C"><table:table-row/></table:table></office:spreadsheet>`,
		`<office:spreadsheet><t:table t:name="A"><t:table-row><t:table-cell/></t:table-row></t:table><t:table t:name="B"></t:table><t:table t:name="C"></t:table></office:spreadsheet>`,
	} {
		r := NewReader(strings.NewReader(doc), 64, 1<<16, 1<<10)
		var names []string
		for {
			ev, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if ev.Kind == TableStart {
				names = append(names, string(ev.Name)+string(r.attrRaw("t:name")))
				if err := r.SkipTable(); err != nil {
					t.Fatal(err)
				}
			}
		}
		if strings.Join(names, ",") != "A,B,C" {
			t.Errorf("%.40s...: tables %q", doc, names)
		}
	}
}

// TestIndexShort compares the word-at-a-time search with bytes.IndexByte
// at every length and position, with the byte's neighbours one more and
// one less (the cases a borrow could confuse).
func TestIndexShort(t *testing.T) {
	for n := range 40 {
		for at := -1; at < n; at++ {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte('"' + 1 - 2*(i%2))
			}
			if at >= 0 {
				b[at] = '"'
			}
			if got, want := indexShort(b, '"'), bytes.IndexByte(b, '"'); got != want {
				t.Fatalf("%q: %d, want %d", b, got, want)
			}
		}
	}
}
