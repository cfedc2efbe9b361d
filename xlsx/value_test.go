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

// TestPreciseTime writes date-times and times of day with microseconds,
// reads them back, and finds every microsecond in PreciseTime and the
// millisecond in Time, from 1904 to 2079 (a double's last day to the
// microsecond), in both date systems; later, the millisecond in both.
func TestPreciseTime(t *testing.T) {
	var want []time.Time
	for y := 1904; y <= 2200; y += 3 {
		want = append(want, time.Date(y, time.Month(y%12+1), y%28+1, y%24, y%60, (y*7)%60, (y*7919%1000000)*1000, time.UTC))
	}
	clocks := []time.Time{time.Date(1899, 12, 30, 13, 45, 30, 123456000, time.UTC), time.Date(1899, 12, 30, 23, 59, 59, 999999000, time.UTC)}
	for _, date1904 := range []bool{false, true} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, Options{Date1904: date1904})
		if err != nil {
			t.Fatal(err)
		}
		s, _ := w.AddSheet("T", SheetOptions{})
		for _, tm := range want {
			s.WriteRow([]Cell{Time(tm)})
		}
		for _, tm := range clocks {
			s.WriteRow([]Cell{TimeOfDay(tm)})
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		wb, err := NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := wb.Rows(t.Context(), 0)
		for i := 0; rows.Next(); i++ {
			v := &rows.Row().Cells[0]
			tm := want[min(i, len(want)-1)]
			if i >= len(want) {
				tm = clocks[i-len(want)]
				if date1904 {
					tm = tm.AddDate(4, 0, 2) // 1904-01-01, the 1904 system's day zero
				}
			}
			precise := tm
			if v.Float() >= 1<<16 { // mid-2079 (1900 system), 2083 (1904)
				precise = tm.Round(time.Millisecond)
			}
			if got := v.PreciseTime(); !got.Equal(precise) {
				t.Errorf("1904 %v, row %d: PreciseTime %v, want %v", date1904, i+1, got, precise)
			}
			if got := v.Time(); !got.Equal(tm.Round(time.Millisecond)) {
				t.Errorf("1904 %v, row %d: Time %v, want %v", date1904, i+1, got, tm.Round(time.Millisecond))
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
}
