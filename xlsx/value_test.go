package xlsx

import (
	"bytes"
	"testing"
	"time"
)

// TestValueSourceText: a typed value keeps the text it was typed from,
// through a spool's binary form; a number's text from the file is not
// source text, and a string keeps its own.
func TestValueSourceText(t *testing.T) {
	var v Value
	c := Date(time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC))
	v.SetCell(2, &c)
	v.SetSourceText([]byte("2024-01-15"))
	b, err := v.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	var back Value
	if err := back.UnmarshalBinary(b); err != nil || back.Type() != TypeDate || back.Col() != 2 ||
		!bytes.Equal(back.SourceText(), []byte("2024-01-15")) || back.Float() != v.Float() {
		t.Errorf("back from binary: %+v, %v", back, err)
	}

	number := Value{col: 1, typ: TypeNumber, num: 0.05, text: []byte("4.9999999999999996E-2")}
	if number.SourceText() != nil {
		t.Errorf("a workbook's number text is source text: %q", number.SourceText())
	}
	s := String("x")
	v.SetCell(1, &s)
	v.SetSourceText([]byte("y"))
	if v.SourceText() != nil || string(v.Bytes()) != "x" {
		t.Errorf("a string took source text: %q, %q", v.SourceText(), v.Bytes())
	}
}
