package xmlscan

import (
	"bytes"
	"io"
	"testing"
)

// FuzzScanner tokenizes arbitrary input, reading text and attributes the
// way the parsers do: it must end, and never panic.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{
		`<?xml version="1.0"?><a x="1" y='>'><b/>t&amp;&#x41;<![CDATA[<c>]]><!-- c --></a>`,
		`<x:a r:id="1"><x:v>12</x:v></x:a>`,
		`<!DOCTYPE a [<!ENTITY b "c">]><a>&b;</a>`,
		"<a>\r\n&#0;&#xD800;&#1114112;</a", `<a b="`, `<`, `</`, `<a/`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var sc Scanner
		sc.MaxDepth = 16
		sc.Reset(in)
		var scratch []byte
		for steps := 0; ; steps++ {
			if steps > len(in)+2 {
				t.Fatalf("no progress after %d tokens", steps)
			}
			k := sc.Next()
			if k == EOF {
				break
			}
			switch k {
			case Start:
				sc.Attr("id")
				for a := sc.RawAttrs(); ; {
					_, v, rest, ok := NextAttr(a)
					if !ok {
						break
					}
					DecodeAttr(nil, v)
					a = rest
				}
				if sc.Is("v") {
					sc.Content(&scratch)
				} else if sc.Is("s") {
					sc.Skip()
				} else {
					sc.Simple("v")
				}
			case Text:
				AppendDecoded(nil, sc.Raw())
			}
		}
		// Pieces of a split put back together are the input.
		sp := NewSplitter(bytes.NewReader(in), 5, 1<<20, "a", "b")
		var whole, buf []byte
		for {
			piece, err := sp.Next(buf)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			whole = append(whole, piece...)
			buf = piece
		}
		if !bytes.Equal(whole, in) {
			t.Fatalf("split and joined: %q, want %q", whole, in)
		}
	})
}

// BenchmarkScanner tokenizes sheet-like XML, reading each cell's value.
func BenchmarkScanner(b *testing.B) {
	var doc []byte
	for i := range 20000 {
		doc = append(doc, `<row r="`...)
		doc = append(doc, []byte(string(rune('1'+i%9)))...)
		doc = append(doc, `"><c r="A1" s="1"><v>12345</v></c><c r="B1" t="s"><v>7</v></c><c r="C1" t="inlineStr"><is><t>a &amp; b</t></is></c></row>`...)
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	var sc Scanner
	var scratch []byte
	for b.Loop() {
		sc.Reset(doc)
		for k := sc.Next(); k != EOF; k = sc.Next() {
			if k == Start && (sc.Is("v") || sc.Is("t")) {
				scratch = scratch[:0]
				sc.Content(&scratch)
			}
		}
	}
}
