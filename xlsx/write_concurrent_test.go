package xlsx_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/xlsx"
)

// concurrentRow is row i of concurrent sheet s: an id, text shared by all
// sheets, text of this sheet only, a number and a date.
func concurrentRow(s, i int) []xlsx.Cell {
	day := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%3000)
	return []xlsx.Cell{
		xlsx.Int(int64(i)),
		xlsx.String("shared " + strconv.Itoa(i%500)),
		xlsx.String(fmt.Sprintf("sheet %d row %d", s, i)),
		xlsx.Float(float64(i) * 0.25),
		xlsx.Date(day),
	}
}

// writeConcurrent writes sheets concurrent sheets from their own
// goroutines, plus a sequential one before and after them, and returns
// the first error.
func writeConcurrent(w *xlsx.Writer, sheets, rows int) error {
	first, err := w.AddSheet("First", xlsx.SheetOptions{})
	if err != nil {
		return err
	}
	if err := first.WriteRow([]xlsx.Cell{xlsx.String("before")}); err != nil {
		return err
	}
	var wg sync.WaitGroup
	errs := make([]error, sheets)
	for s := range sheets {
		sh, err := w.AddConcurrentSheet("C"+strconv.Itoa(s), xlsx.SheetOptions{FreezeRows: 1})
		if err != nil {
			return err
		}
		wg.Go(func() {
			bold, err := w.AddStyle(xlsx.Style{Font: xlsx.Font{Bold: true, Size: float64(10 + s)}})
			if err == nil {
				err = sh.WriteRow([]xlsx.Cell{xlsx.String("id").WithStyle(bold), xlsx.Link("https://example.com/"+strconv.Itoa(s), "link")})
			}
			for i := 0; i < rows && err == nil; i++ {
				err = sh.WriteRow(concurrentRow(s, i))
			}
			if err == nil {
				err = sh.Close()
			}
			errs[s] = err
		})
	}
	last, err := w.AddSheet("Last", xlsx.SheetOptions{})
	if err == nil {
		err = last.WriteRow([]xlsx.Cell{xlsx.String("after")})
	}
	wg.Wait()
	return errors.Join(append(errs, err)...)
}

// readSheets reads every sheet with this package's reader into text.
func readSheets(t *testing.T, book []byte) map[string][][]string {
	t.Helper()
	wb, err := xlsx.NewReader(bytes.NewReader(book), int64(len(book)), xlsx.ReadOptions{})
	must(t, err)
	out := map[string][][]string{}
	for i, info := range wb.Sheets() {
		rows, err := wb.Rows(context.Background(), i)
		must(t, err)
		var got [][]string
		for r := range rows.All() {
			var cells []string
			for _, v := range r.Cells {
				cells = append(cells, v.String())
			}
			got = append(got, cells)
		}
		must(t, rows.Err())
		if len(rows.Hyperlinks()) > 0 {
			got = append(got, []string{"link " + rows.Hyperlinks()[0].URL})
		}
		out[info.Name] = got
	}
	return out
}

func TestConcurrentSheets(t *testing.T) {
	const sheets, rows = 4, 20_000
	for _, tc := range []struct {
		name string
		opts xlsx.Options
	}{
		{"default", xlsx.Options{}},
		{"one worker", xlsx.Options{Workers: 1}},
		{"waiting sheets block", xlsx.Options{Workers: 2, SheetBufferSize: 1, ChunkSize: 32 << 10}},
		{"waiting sheets spill", xlsx.Options{Workers: 2, SheetBufferSize: 64 << 10, ChunkSize: 32 << 10, TempDir: t.TempDir()}},
		{"inline strings", xlsx.Options{Strings: xlsx.StringsInline, Compression: xlsx.CompressionFastest}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			book := writeBook(t, tc.opts, func(w *xlsx.Writer) error { return writeConcurrent(w, sheets, rows) })
			// The standard library checks every entry's CRC and sizes.
			for _, name := range []string{"xl/worksheets/sheet1.xml", "xl/worksheets/sheet6.xml", "xl/workbook.xml"} {
				part(t, book, name)
			}
			got := readSheets(t, book)
			if g := got["First"]; len(g) != 1 || g[0][0] != "before" {
				t.Errorf("First = %v", g)
			}
			if g := got["Last"]; len(g) != 1 || g[0][0] != "after" {
				t.Errorf("Last = %v", g)
			}
			for s := range sheets {
				name := "C" + strconv.Itoa(s)
				g := got[name]
				if len(g) != rows+2 {
					t.Fatalf("%s: %d rows, want %d", name, len(g), rows+2)
				}
				if want := "link https://example.com/" + strconv.Itoa(s); g[len(g)-1][0] != want {
					t.Errorf("%s: %v, want %s", name, g[len(g)-1], want)
				}
				for i := range rows {
					want := []string{strconv.Itoa(i), "shared " + strconv.Itoa(i%500), fmt.Sprintf("sheet %d row %d", s, i),
						strconv.FormatFloat(float64(i)*0.25, 'g', -1, 64),
						time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%3000).Format("2006-01-02T15:04:05")}
					if fmt.Sprint(g[i+1]) != fmt.Sprint(want) {
						t.Fatalf("%s row %d = %q, want %q", name, i+2, g[i+1], want)
					}
				}
			}
			if dir := tc.opts.TempDir; dir != "" {
				if left, _ := os.ReadDir(dir); len(left) > 0 {
					t.Errorf("temporary files left: %v", left)
				}
			}
		})
	}
}

// TestConcurrentSheetsSpill checks that a waiting sheet does spill to
// TempDir past its budget (and only then), by looking while it waits.
func TestConcurrentSheetsSpill(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	w, err := xlsx.NewWriter(&buf, xlsx.Options{SheetBufferSize: 1 << 20, ChunkSize: 32 << 10, TempDir: dir, Strings: xlsx.StringsInline})
	must(t, err)
	a, err := w.AddConcurrentSheet("A", xlsx.SheetOptions{})
	must(t, err)
	b, err := w.AddConcurrentSheet("B", xlsx.SheetOptions{})
	must(t, err)
	// A owns the file and stays open; B writes several MiB of output.
	must(t, a.WriteRow([]xlsx.Cell{xlsx.String("a")}))
	for i := range 300_000 {
		must(t, b.WriteRow(concurrentRow(1, i)))
	}
	must(t, b.Close())
	left, _ := os.ReadDir(dir)
	if len(left) != 1 {
		t.Fatalf("B should hold its output in one temporary file, found %v", left)
	}
	must(t, a.Close())
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("temporary file not removed after B's turn: %v", left)
	}
	must(t, w.Close())
	got := readSheets(t, buf.Bytes())
	if len(got["B"]) != 300_000 || got["B"][299_999][2] != "sheet 1 row 299999" {
		t.Errorf("B read back wrong: %d rows", len(got["B"]))
	}
}

// TestConcurrentSheetsFailingWriter breaks the sink while concurrent
// sheets write and wait: every goroutine must return (none left blocked),
// the sink's error must come out, and no temporary file may remain.
func TestConcurrentSheetsFailingWriter(t *testing.T) {
	for _, limit := range []int{0, 50_000, 500_000, 2_000_000} {
		for _, tempDir := range []bool{false, true} {
			t.Run(fmt.Sprintf("after %d bytes, spill %v", limit, tempDir), func(t *testing.T) {
				opts := xlsx.Options{Workers: 2, SheetBufferSize: 100_000, ChunkSize: 32 << 10}
				if tempDir {
					opts.TempDir = t.TempDir()
				}
				w, err := xlsx.NewWriter(&failAfter{limit}, opts)
				must(t, err)
				done := make(chan error, 1)
				go func() { done <- writeConcurrent(w, 3, 50_000) }()
				var got error
				select {
				case got = <-done:
				case <-time.After(60 * time.Second):
					t.Fatal("sheet goroutines still blocked a minute after the sink failed")
				}
				if err := w.Close(); got == nil {
					got = err
				}
				if !errors.Is(got, errSink) {
					t.Errorf("error = %v, want the sink's", got)
				}
				if tempDir {
					if left, _ := os.ReadDir(opts.TempDir); len(left) > 0 {
						t.Errorf("temporary files left: %v", left)
					}
				}
			})
		}
	}
}

// TestConcurrentSheetsCloseFinishes closes the Writer with concurrent
// sheets still open (their goroutines done): Close finishes them in order.
func TestConcurrentSheetsCloseFinishes(t *testing.T) {
	book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		for s := range 3 {
			sh, err := w.AddConcurrentSheet("S"+strconv.Itoa(s), xlsx.SheetOptions{})
			if err != nil {
				return err
			}
			for i := range 1000 {
				if err := sh.WriteRow(concurrentRow(s, i)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	got := readSheets(t, book)
	for s := range 3 {
		if g := got["S"+strconv.Itoa(s)]; len(g) != 1000 || g[999][2] != fmt.Sprintf("sheet %d row 999", s) {
			t.Errorf("S%d: %d rows", s, len(g))
		}
	}
}
