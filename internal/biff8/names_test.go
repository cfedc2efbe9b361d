package biff8

import (
	"encoding/binary"
	"slices"
	"testing"
)

func area3d(ptg byte, ixti, r1, r2, c1, c2 uint16) []byte {
	b := []byte{ptg}
	for _, v := range []uint16{ixti, r1, r2, c1, c2} {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	return b
}

func TestFormulaText(t *testing.T) {
	sheets := func(ixti int) (string, bool) {
		switch ixti {
		case 0:
			return "Sales", true
		case 1:
			return "Q1 2024", true
		case 2:
			return "Bot10", true
		case 3:
			return "", true // a deleted sheet
		}
		return "", false
	}
	for _, c := range []struct {
		f    []byte
		want string
		ok   bool
	}{
		{area3d(0x3B, 0, 1, 5, 0, 0), "Sales!$A$2:$A$6", true},
		{area3d(0x3B, 1, 0, 0xFFFF, 0, 1), "'Q1 2024'!$A:$B", true},
		{area3d(0x3B, 2, 0, 4, 0, 0xFF), "'Bot10'!$1:$5", true},
		// Print titles: a memory function around two areas and a union.
		{slices.Concat([]byte{0x29, 23, 0}, area3d(0x3B, 0, 0, 0xFFFF, 0, 0), area3d(0x3B, 0, 0, 0, 0, 0xFF), []byte{0x10}), "Sales!$A:$A,Sales!$1:$1", true},
		{[]byte{0x3A, 0, 0, 2, 0, 0x03, 0xC0}, "Sales!D3", true}, // relative row and column
		{area3d(0x3B, 3, 0, 0, 0, 0), "#REF!", true},
		{[]byte{0x1E, 42, 0}, "42", true},
		{area3d(0x3B, 9, 0, 0, 0, 0), "", false},                                             // another book
		{[]byte{0x41, 0x01, 0x00}, "", false},                                                // a function
		{[]byte{0x3B, 0}, "", false},                                                         // cut short
		{slices.Concat(area3d(0x3B, 0, 0, 0, 0, 0), area3d(0x3B, 0, 0, 0, 0, 0)), "", false}, // two operands, no operator
	} {
		got, ok := FormulaText(c.f, sheets)
		if got != c.want || ok != c.ok {
			t.Errorf("% x: %q %v, want %q %v", c.f, got, ok, c.want, c.ok)
		}
	}
}

func TestReadName(t *testing.T) {
	f := area3d(0x3B, 0, 0, 0, 0, 0)
	rec := binary.LittleEndian.AppendUint16(nil, 0x0021) // hidden, built in
	rec = append(rec, 0, 1)
	rec = binary.LittleEndian.AppendUint16(rec, uint16(len(f)))
	rec = append(rec, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0x06)
	rec = append(rec, f...)
	n, err := ReadName(Record{Data: rec})
	if err != nil || n.Name != "_xlnm.Print_Area" || n.Sheet != 2 || !n.Hidden || !slices.Equal(n.Formula, f) {
		t.Errorf("%+v %v", n, err)
	}
}

// FuzzFormulaText decodes any tokens without panicking.
func FuzzFormulaText(f *testing.F) {
	f.Add(slices.Concat([]byte{0x29, 23, 0}, area3d(0x3B, 0, 0, 0xFFFF, 0, 0), area3d(0x3B, 0, 0, 0, 0, 0xFF), []byte{0x10}))
	f.Fuzz(func(t *testing.T, b []byte) {
		FormulaText(b, func(int) (string, bool) { return "S", true })
		ReadName(Record{Data: b})
	})
}
