package xmlscan

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// tokens renders a token stream for comparison: "<name a=v>", "</name>",
// "text" (adjacent text and CDATA joined, decoded).
type tokens []string

// stdTokens reads well-formed XML with encoding/xml, or reports that it is
// not (or has a DOCTYPE, which xmlscan refuses by design).
func stdTokens(in []byte) (tokens, bool) {
	d := xml.NewDecoder(bytes.NewReader(in))
	var out tokens
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			out = append(out, "text:"+text.String())
			text.Reset()
		}
	}
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			flush()
			return out, true
		}
		if err != nil {
			return nil, false
		}
		switch t := tok.(type) {
		case xml.StartElement:
			flush()
			if !qualified(t.Name) {
				return nil, false
			}
			var attrs []string
			for _, a := range t.Attr {
				if !qualified(a.Name) {
					return nil, false
				}
				attrs = append(attrs, a.Name.Local+"="+normalizeAttr(a.Value))
			}
			out = append(out, fmt.Sprintf("<%s %s>", t.Name.Local, strings.Join(attrs, " ")))
		case xml.EndElement:
			flush()
			if !qualified(t.Name) {
				return nil, false
			}
			out = append(out, "</"+t.Name.Local+">")
		case xml.CharData:
			text.Write(t)
		case xml.Directive:
			return nil, false
		}
	}
}

// qualified reports whether a name is a namespace-well-formed one
// (RawToken lets "<:>" through, whose local name is nothing).
func qualified(n xml.Name) bool {
	return n.Local != "" && !strings.Contains(n.Local, ":")
}

// normalizeAttr does what encoding/xml leaves out of XML's attribute-value
// normalization: line ends, then each tab or line end, become a space.
// (Whitespace written as character references would be kept; inputs with
// those are left out of the comparison.)
func normalizeAttr(v string) string {
	v = strings.ReplaceAll(v, "\r\n", "\n")
	return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(v)
}

// scanTokens reads the same input with Scanner.
func scanTokens(in []byte) (tokens, error) {
	var sc Scanner
	sc.Reset(in)
	var out tokens
	var text []byte
	flush := func() {
		if len(text) > 0 {
			out = append(out, "text:"+string(text))
			text = text[:0]
		}
	}
	for {
		k := sc.Next()
		switch k {
		case EOF:
			flush()
			return out, sc.Err()
		case Start, Empty:
			flush()
			var attrs []string
			for a := sc.RawAttrs(); ; {
				name, v, rest, ok := NextAttr(a)
				if !ok {
					break
				}
				value, err := DecodeAttr(nil, v)
				if err != nil {
					return nil, err
				}
				attrs = append(attrs, string(localName(name))+"="+string(value))
				a = rest
			}
			out = append(out, fmt.Sprintf("<%s %s>", sc.Name(), strings.Join(attrs, " ")))
			if k == Empty {
				out = append(out, "</"+string(sc.Name())+">")
			}
		case End:
			flush()
			out = append(out, "</"+string(sc.Name())+">")
		case Text:
			var err error
			if text, err = AppendDecoded(text, sc.Raw()); err != nil {
				return nil, err
			}
		case CData:
			text = appendNewlines(text, sc.Raw())
		}
	}
}

// checkSame compares the two readings of well-formed input.
func checkSame(t *testing.T, in []byte) {
	want, ok := stdTokens(in)
	if !ok || bytes.Contains(in, []byte("&#")) && bytes.ContainsAny(in, "=") {
		return
	}
	got, err := scanTokens(in)
	if err != nil {
		if errors.Is(err, ErrTooDeep) {
			return // a limit, not a misreading
		}
		t.Fatalf("%q: encoding/xml reads it, xmlscan fails: %v", in, err)
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("%q:\nxmlscan      %q\nencoding/xml %q", in, got, want)
	}
}

func TestScannerAgainstEncodingXML(t *testing.T) {
	for _, in := range []string{
		`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\r\n" +
			`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="r"><sheetData>` +
			`<row r="1" spans="1:2"><c r="A1" t="s"><v>0</v></c><c r="B1" s="1"><f>SUM(A1:A2)</f><v>3</v></c></row>` +
			`</sheetData><hyperlinks><hyperlink ref="A1" r:id="rId1" tooltip="a &amp; b &#x3C;&#60;"/></hyperlinks></worksheet>`,
		`<a b='single "quoted"' c="double 'quoted'">x<![CDATA[<y>&amp;]]>z<!-- no --><?pi x?>&lt;&gt;&amp;&apos;&quot;</a>`,
		"<t xml:space=\"preserve\">  line\r\nnext\rlast  </t>",
		`<x:a x:b="1"><x:c/></x:a>`,
		"<a>\u00e9\u20ac\U0001F600</a>",
	} {
		checkSame(t, []byte(in))
	}
}

// FuzzScannerAgainstEncodingXML: on any input encoding/xml reads as
// well-formed, the scanner gives the same elements, attributes and text.
func FuzzScannerAgainstEncodingXML(f *testing.F) {
	f.Add([]byte(`<a b="1"><c>d&amp;e</c><f/></a>`))
	f.Add([]byte(`<a><![CDATA[x]]>y&#65;</a>`))
	f.Add([]byte("<a b='\r\n'>\r\n</a>"))
	f.Add([]byte("<a></:>"))
	f.Fuzz(func(t *testing.T, in []byte) { checkSame(t, in) })
}
