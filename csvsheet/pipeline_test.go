package csvsheet_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// TestConvertAcrossBatches: rows are typed on one goroutine and written on
// another, a batch of rows at a time; across many batches every cell is
// the one its field made (a decimal comma's plain form included: its text
// lives in a buffer of the typing's), the rows keep their order, errors
// name the line they were met on however far the typing had gone ahead,
// and progress counts written rows.
func TestConvertAcrossBatches(t *testing.T) {
	const rows = 12000
	var in strings.Builder
	in.WriteString("id;price;name\n")
	for i := range rows {
		fmt.Fprintf(&in, "%d;%d,%02d;n%d\n", i, i*3, i%100, i)
	}
	var progress []int64
	book, st, err := convert(t, in.String(), csvsheet.Options{Comma: ';', Decimal: ',', Progress: func(n int64) { progress = append(progress, n) }})
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != rows {
		t.Errorf("Rows = %d", st.Rows)
	}
	if len(progress) == 0 || progress[len(progress)-1] != rows {
		t.Errorf("progress %v", progress)
	}
	got := readCells(t, book)
	if len(got) != rows+1 {
		t.Fatalf("%d rows read back", len(got))
	}
	for i := range rows {
		want := []string{fmt.Sprintf("n:%d", i), fmt.Sprintf("n:%g", float64(i*3)+float64(i%100)/100), fmt.Sprintf("s:n%d", i)}
		if strings.Join(got[i+1], "|") != strings.Join(want, "|") {
			t.Fatalf("row %d: %v, want %v", i+1, got[i+1], want)
		}
	}

	// A field that is not UTF-8, far past the first batches.
	bad := strings.Replace(in.String(), "n4321\n", "n\xff\n", 1)
	_, _, err = convert(t, bad, csvsheet.Options{Comma: ';', Decimal: ','})
	if !errors.Is(err, csvsheet.ErrNotUTF8) || !strings.Contains(err.Error(), "line 4323, field 3") {
		t.Errorf("err = %v, want ErrNotUTF8 at line 4323, field 3", err)
	}
	// A cell the writer refuses, in strict mode.
	long := strings.Replace(in.String(), "n3000\n", strings.Repeat("x", xlsx.MaxCellChars+1)+"\n", 1)
	_, _, err = convert(t, long, csvsheet.Options{Comma: ';', Decimal: ',', Strict: true})
	if !errors.Is(err, xlsx.ErrCellTooLong) || !strings.Contains(err.Error(), "line 3002") {
		t.Errorf("err = %v, want ErrCellTooLong at line 3002", err)
	}
	// A row the writer refuses (a pivot past its keys), and a column's
	// type contradicted a few rows later, past the rows its type was
	// guessed from (5,000): typing meets the contradiction
	// before that row is written, and the earlier row's error wins.
	pivot := []xlsx.PivotTable{{Rows: []string{"name"}, Values: []xlsx.PivotValue{{Column: "id"}}, MaxKeys: 7000}}
	both := strings.Replace(in.String(), "\n7005;", "\nfive;", 1)
	_, _, err = convert(t, both, csvsheet.Options{Comma: ';', Decimal: ',', Pivots: pivot})
	if !errors.Is(err, xlsx.ErrPivotKeys) || !strings.Contains(err.Error(), "line 7002") {
		t.Errorf("err = %v, want ErrPivotKeys at line 7002 (before the contradiction at line 7007)", err)
	}
	// Cancelled: the conversion stops with the context's error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w, _ := xlsx.NewWriter(discard{}, xlsx.Options{})
	if _, err := csvsheet.Convert(ctx, strings.NewReader(strings.Repeat(in.String()[14:], 10)), w, csvsheet.Options{Comma: ';', NoHeader: true}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	w.Close()
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
