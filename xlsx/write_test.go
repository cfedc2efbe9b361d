package xlsx_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"math"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/xlsx"
)

var fixedTime = xlsx.Properties{Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}

// writeBook builds a workbook in memory.
func writeBook(t testing.TB, opts xlsx.Options, build func(w *xlsx.Writer) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := xlsx.NewWriter(&buf, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := build(w); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// part returns one part of a workbook, read with the standard library's
// zip reader (an independent inflater and CRC check).
func part(t testing.TB, book []byte, name string) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(book), int64(len(book)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == name {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(rc)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return string(data)
		}
	}
	t.Fatalf("no part %s", name)
	return ""
}

func TestCellErrors(t *testing.T) {
	long := strings.Repeat("x", xlsx.MaxCellChars+1)
	// 16,384 UTF-16 units: under the limit in characters though longer in bytes.
	wide := strings.Repeat("é", 16384)
	cases := []struct {
		name string
		cell xlsx.Cell
		want error
	}{
		{"nan", xlsx.Float(math.NaN()), xlsx.ErrNotFinite},
		{"inf", xlsx.Float(math.Inf(-1)), xlsx.ErrNotFinite},
		{"too long", xlsx.String(long), xlsx.ErrCellTooLong},
		{"surrogate pairs count twice", xlsx.String(strings.Repeat("😀", 16384)), xlsx.ErrCellTooLong},
		{"bad utf8", xlsx.String("a\xffb"), xlsx.ErrInvalidUTF8},
		{"noncharacter", xlsx.String("a\uFFFF"), xlsx.ErrNonCharacter},
		{"date before 1900", xlsx.Date(time.Date(1899, 12, 31, 0, 0, 0, 0, time.UTC)), xlsx.ErrDateRange},
		{"date after 9999", xlsx.Time(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)), xlsx.ErrDateRange},
		{"unknown error code", xlsx.Error("#OOPS"), xlsx.ErrErrorCode},
		{"unknown style", xlsx.Int(1).WithStyle(99), xlsx.ErrStyle},
		{"bad formula cache", xlsx.Formula("A1").WithValue(xlsx.Float(math.NaN())), xlsx.ErrNotFinite},
		{"decimal with an exponent", xlsx.Decimal("1e5"), xlsx.ErrDecimal},
		{"decimal of 16 digits", xlsx.Decimal("0.1234567890123456"), xlsx.ErrDecimal},
		{"decimal that is not one", xlsx.Decimal("12,5"), xlsx.ErrDecimal},
		{"empty decimal", xlsx.Decimal(""), xlsx.ErrDecimal},
		{"bad decimal formula cache", xlsx.Formula("A1").WithValue(xlsx.Decimal("NaN")), xlsx.ErrDecimal},
		{"ok wide text", xlsx.String(wide), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, err := xlsx.NewWriter(io.Discard, xlsx.Options{})
			must(t, err)
			sh := addSheet(t, w, "Data", xlsx.SheetOptions{})
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.Int(1)}))
			err = sh.WriteRow([]xlsx.Cell{xlsx.Int(2), {}, c.cell})
			if c.want == nil {
				must(t, err)
				must(t, w.Close())
				return
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			var ce *xlsx.CellError
			if !errors.As(err, &ce) || ce.Sheet != "Data" || ce.Row != 2 || ce.Col != 3 {
				t.Fatalf("err = %#v, want a CellError at Data!C2", err)
			}
			if !strings.Contains(err.Error(), `sheet "Data", cell C2`) {
				t.Errorf("message %q does not name the cell", err)
			}
			// The writer stops: later rows and Close report the same error.
			if err2 := sh.WriteRow([]xlsx.Cell{xlsx.Int(3)}); !errors.Is(err2, c.want) {
				t.Errorf("next WriteRow = %v, want the first error", err2)
			}
			if err2 := w.Close(); !errors.Is(err2, c.want) {
				t.Errorf("Close = %v, want the first error", err2)
			}
		})
	}
}

func TestLimits(t *testing.T) {
	t.Run("rows", func(t *testing.T) {
		w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
		sh := addSheet(t, w, "Data", xlsx.SheetOptions{})
		must(t, sh.SkipRows(xlsx.MaxRows-1))
		must(t, sh.WriteRow([]xlsx.Cell{xlsx.String("last row")}))
		err := sh.WriteRow([]xlsx.Cell{xlsx.Int(1)})
		var ce *xlsx.CellError
		if !errors.Is(err, xlsx.ErrTooManyRows) || !errors.As(err, &ce) || ce.Row != xlsx.MaxRows+1 {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("columns", func(t *testing.T) {
		w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
		sh := addSheet(t, w, "Data", xlsx.SheetOptions{})
		row := make([]xlsx.Cell, xlsx.MaxColumns)
		row[xlsx.MaxColumns-1] = xlsx.String("XFD")
		must(t, sh.WriteRow(row))
		err := sh.WriteRow(make([]xlsx.Cell, xlsx.MaxColumns+1))
		if !errors.Is(err, xlsx.ErrTooManyColumns) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("sheet names", func(t *testing.T) {
		bad := []string{"", strings.Repeat("a", 32), "a[b", "a]b", "a:b", "a*b", "a?b", "a/b", `a\b`, "'quoted", "quoted'", "History", "history", "tab\tname"}
		for _, name := range bad {
			w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
			if _, err := w.AddSheet(name, xlsx.SheetOptions{}); !errors.Is(err, xlsx.ErrSheetName) {
				t.Errorf("AddSheet(%q) = %v, want ErrSheetName", name, err)
			}
		}
		w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
		addSheet(t, w, "Données 2026", xlsx.SheetOptions{})
		addSheet(t, w, strings.Repeat("ü", 31), xlsx.SheetOptions{})
		if _, err := w.AddSheet("DONNÉES 2026", xlsx.SheetOptions{}); !errors.Is(err, xlsx.ErrSheetName) {
			t.Errorf("duplicate name ignoring case: %v", err)
		}
	})
	t.Run("layout after rows", func(t *testing.T) {
		w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
		sh := addSheet(t, w, "Data", xlsx.SheetOptions{})
		must(t, sh.WriteRow([]xlsx.Cell{xlsx.Int(1)}))
		if err := sh.SetColumn(1, 1, xlsx.ColumnOptions{Width: 10}); !errors.Is(err, xlsx.ErrHeadWritten) {
			t.Errorf("SetColumn after a row = %v", err)
		}
	})
	t.Run("overlapping merges", func(t *testing.T) {
		w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
		sh := addSheet(t, w, "Data", xlsx.SheetOptions{})
		must(t, sh.MergeCells(xlsx.Range{FirstRow: 1, FirstCol: 1, LastRow: 2, LastCol: 2}))
		if err := sh.MergeCells(xlsx.Range{FirstRow: 2, FirstCol: 2, LastRow: 3, LastCol: 3}); !errors.Is(err, xlsx.ErrRange) {
			t.Errorf("overlap = %v", err)
		}
	})
	t.Run("finished sheet", func(t *testing.T) {
		w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
		first := addSheet(t, w, "One", xlsx.SheetOptions{})
		addSheet(t, w, "Two", xlsx.SheetOptions{})
		if err := first.WriteRow([]xlsx.Cell{xlsx.Int(1)}); !errors.Is(err, xlsx.ErrSheetDone) {
			t.Errorf("write to finished sheet = %v", err)
		}
	})
	t.Run("all sheets hidden", func(t *testing.T) {
		w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
		addSheet(t, w, "One", xlsx.SheetOptions{State: xlsx.SheetHidden})
		if err := w.Close(); !errors.Is(err, xlsx.ErrSheetName) {
			t.Errorf("Close = %v, want an error: Excel needs a visible sheet", err)
		}
	})
}

func TestDateSerials(t *testing.T) {
	cases := []struct {
		date     time.Time
		date1904 bool
		want     string
	}{
		{time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC), false, "1"},
		{time.Date(1900, 2, 28, 0, 0, 0, 0, time.UTC), false, "59"},
		{time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC), false, "61"}, // after the phantom 29 Feb 1900
		{time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), false, "45351.5"},
		{time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), false, "2958465"},
		{time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC), true, "0"},
		{time.Date(2024, 2, 29, 6, 0, 0, 0, time.UTC), true, "43889.25"},
	}
	for _, c := range cases {
		book := writeBook(t, xlsx.Options{Date1904: c.date1904, Properties: fixedTime}, func(w *xlsx.Writer) error {
			sh, err := w.AddSheet("D", xlsx.SheetOptions{})
			if err != nil {
				return err
			}
			return sh.WriteRow([]xlsx.Cell{xlsx.Time(c.date)})
		})
		sheet := part(t, book, "xl/worksheets/sheet1.xml")
		if !strings.Contains(sheet, "<v>"+c.want+"</v>") {
			t.Errorf("%v (1904: %v): want serial %s in %s", c.date, c.date1904, c.want, sheet)
		}
		v, _ := strconv.ParseFloat(c.want, 64)
		if back := xlsx.DateFromSerial(v, c.date1904); !back.Equal(c.date) {
			t.Errorf("DateFromSerial(%v) = %v, want %v", v, back, c.date)
		}
	}
	if wb := part(t, writeBook(t, xlsx.Options{Date1904: true}, func(*xlsx.Writer) error { return nil }), "xl/workbook.xml"); !strings.Contains(wb, `date1904="1"`) {
		t.Error("1904 workbook does not say date1904")
	}
}

// TestStreaming checks that bytes reach the io.Writer while rows are
// written, not only at Close.
func TestStreaming(t *testing.T) {
	var rec recorder
	w, err := xlsx.NewWriter(&rec, xlsx.Options{Workers: 2})
	must(t, err)
	sh := addSheet(t, w, "Data", xlsx.SheetOptions{})
	var arrivedAt []int // rows written when each write arrived
	rows := 0
	rec.onWrite = func() { arrivedAt = append(arrivedAt, rows) }
	for i := range 200_000 {
		must(t, sh.WriteRow([]xlsx.Cell{xlsx.Int(int64(i)), xlsx.String("row " + strconv.Itoa(i)), xlsx.Float(float64(i) / 3)}))
		rows++
	}
	beforeClose := rec.n
	must(t, w.Close())
	if beforeClose < rec.n/2 {
		t.Errorf("only %d of %d bytes arrived before Close", beforeClose, rec.n)
	}
	if len(arrivedAt) < 3 || arrivedAt[1] >= 100_000 {
		t.Errorf("writes arrived after rows %v: expected them early and spread out", arrivedAt[:min(len(arrivedAt), 10)])
	}
	if rec.maxWrite < 1024 && len(arrivedAt) > 100 {
		t.Errorf("writes are small (largest %d bytes): the sink should get large blocks", rec.maxWrite)
	}
}

type recorder struct {
	n, maxWrite int
	onWrite     func()
}

func (r *recorder) Write(p []byte) (int, error) {
	r.n += len(p)
	r.maxWrite = max(r.maxWrite, len(p))
	if r.onWrite != nil {
		r.onWrite()
	}
	return len(p), nil
}

// TestConstantMemory writes 100K and 1M rows and compares the peak live
// heap the writer holds (sampled after a collection): it must not grow
// with the rows.
func TestConstantMemory(t *testing.T) {
	cities := make([]string, 50)
	for i := range cities {
		cities[i] = "city-" + strconv.Itoa(i)
	}
	peak := func(rows int) uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		base := ms.HeapAlloc
		w, err := xlsx.NewWriter(io.Discard, xlsx.Options{Workers: 2})
		must(t, err)
		sh := addSheet(t, w, "Data", xlsx.SheetOptions{})
		cells := make([]xlsx.Cell, 10)
		var top uint64
		for i := range rows {
			for j := range cells {
				switch j % 3 {
				case 0:
					cells[j] = xlsx.Int(int64(i * j))
				case 1:
					cells[j] = xlsx.Float(float64(i) / float64(j+1))
				default:
					cells[j] = xlsx.String(cities[(i+j)%50])
				}
			}
			must(t, sh.WriteRow(cells))
			if i%50_000 == 0 {
				runtime.GC()
				runtime.ReadMemStats(&ms)
				top = max(top, ms.HeapAlloc-min(base, ms.HeapAlloc))
			}
		}
		must(t, w.Close())
		return top
	}
	small, large := peak(100_000), peak(1_000_000)
	t.Logf("peak live heap: %.1f MiB at 100K rows, %.1f MiB at 1M rows", float64(small)/(1<<20), float64(large)/(1<<20))
	if large > small+small/4+1<<20 {
		t.Errorf("peak heap grew from %d to %d bytes with 10x the rows", small, large)
	}
	if large > 16<<20 {
		t.Errorf("the writer holds %d bytes at its peak, want under 16 MiB", large)
	}
}

func TestDimension(t *testing.T) {
	dimension := regexp.MustCompile(`<dimension ref="([^"]*)"/>`)
	get := func(book []byte) string {
		m := dimension.FindStringSubmatch(part(t, book, "xl/worksheets/sheet1.xml"))
		if m == nil {
			return ""
		}
		return m[1]
	}
	write := func(rows int, o xlsx.SheetOptions) ([]byte, error) {
		var buf bytes.Buffer
		w, _ := xlsx.NewWriter(&buf, xlsx.Options{})
		sh, _ := w.AddSheet("D", o)
		must(t, sh.SkipRows(1))
		for i := range rows {
			if err := sh.WriteRow([]xlsx.Cell{{}, xlsx.Int(int64(i)), xlsx.String("a fairly long string to fill chunks")}); err != nil {
				w.Close()
				return nil, err
			}
		}
		err := w.Close()
		return buf.Bytes(), err
	}
	if book, _ := write(0, xlsx.SheetOptions{}); get(book) != "A1" {
		t.Errorf("empty sheet dimension = %q, want A1", get(book))
	}
	if book, _ := write(10, xlsx.SheetOptions{}); get(book) != "B2:C11" {
		t.Errorf("small sheet dimension = %q, want B2:C11", get(book))
	}
	// Past the first chunk the head is already out: no dimension unless declared.
	if book, _ := write(100_000, xlsx.SheetOptions{}); get(book) != "" {
		t.Errorf("long sheet dimension = %q, want none", get(book))
	}
	declared := xlsx.Range{FirstRow: 2, FirstCol: 2, LastRow: 100_001, LastCol: 3}
	if book, _ := write(100_000, xlsx.SheetOptions{Dimension: declared}); get(book) != "B2:C100001" {
		t.Errorf("declared dimension = %q", get(book))
	}
	if _, err := write(100_001, xlsx.SheetOptions{Dimension: declared}); !errors.Is(err, xlsx.ErrRange) {
		t.Errorf("row outside the declared dimension: %v", err)
	}
}

// TestDeterministic checks that the output does not depend on the number
// of workers, at every compression level, and reads back the same.
func TestDeterministic(t *testing.T) {
	build := func(w *xlsx.Writer) error {
		for s := range 2 {
			sh, err := w.AddSheet("S"+strconv.Itoa(s), xlsx.SheetOptions{})
			if err != nil {
				return err
			}
			for i := range 60_000 {
				if err := sh.WriteRow([]xlsx.Cell{xlsx.Int(int64(i)), xlsx.String("v" + strconv.Itoa(i%977)), xlsx.Float(float64(i) * 0.37)}); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, level := range []xlsx.Compression{xlsx.CompressionNone, xlsx.CompressionFastest, xlsx.CompressionBalanced, xlsx.CompressionSmallest} {
		var first []byte
		var firstSheet string
		for _, workers := range []int{1, 2, 3, 8} {
			book := writeBook(t, xlsx.Options{Workers: workers, Compression: level, ChunkSize: 64 << 10, Properties: fixedTime}, build)
			if first == nil {
				first, firstSheet = book, part(t, book, "xl/worksheets/sheet2.xml")
				if !strings.Contains(firstSheet, `<row r="60000"><c><v>59999</v></c><c t="s">`) {
					t.Fatalf("level %d: last row missing", level)
				}
				continue
			}
			if !bytes.Equal(book, first) {
				t.Errorf("level %d: %d workers wrote %d bytes that differ from 1 worker's %d", level, workers, len(book), len(first))
			}
		}
	}
}

// failAfter accepts n bytes, then fails every write.
type failAfter struct{ n int }

var errSink = errors.New("sink broke")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, errSink
	}
	f.n -= len(p)
	return len(p), nil
}

func TestFailingWriter(t *testing.T) {
	for _, limit := range []int{0, 10, 100_000, 1_000_000} {
		for _, workers := range []int{1, 2} {
			w, err := xlsx.NewWriter(&failAfter{limit}, xlsx.Options{Workers: workers})
			must(t, err)
			var got error
			sh, err := w.AddSheet("Data", xlsx.SheetOptions{})
			if err != nil {
				got = err
			}
			for i := 0; i < 400_000 && got == nil; i++ {
				got = sh.WriteRow([]xlsx.Cell{xlsx.Int(int64(i)), xlsx.String("text " + strconv.Itoa(i))})
			}
			if err := w.Close(); got == nil {
				got = err
			}
			if !errors.Is(got, errSink) {
				t.Errorf("limit %d, %d workers: error = %v, want the sink's", limit, workers, got)
			}
		}
	}
}

func TestDecimalValue(t *testing.T) {
	for s, want := range map[string]float64{"-1234.50": -1234.5, "0.05000": 0.05, "7": 7} {
		if got := xlsx.Decimal(s).Value(); got != want {
			t.Errorf("Decimal(%q).Value() = %v, want %v", s, got, want)
		}
	}
}

// TestErrorsSayXLSXOnce makes one error of each kind a Writer returns and
// checks that its message names the package once, at its start.
func TestErrorsSayXLSXOnce(t *testing.T) {
	fresh := func() *xlsx.Writer {
		w, err := xlsx.NewWriter(io.Discard, xlsx.Options{})
		must(t, err)
		return w
	}
	cases := map[string]func() error{
		"finished sheet": func() error {
			w := fresh()
			first := addSheet(t, w, "One", xlsx.SheetOptions{})
			addSheet(t, w, "Two", xlsx.SheetOptions{})
			return first.WriteRow([]xlsx.Cell{xlsx.Int(1)})
		},
		"closed writer": func() error {
			w := fresh()
			addSheet(t, w, "One", xlsx.SheetOptions{})
			must(t, w.Close())
			_, err := w.AddSheet("Two", xlsx.SheetOptions{})
			return err
		},
		"style after close": func() error {
			w := fresh()
			addSheet(t, w, "One", xlsx.SheetOptions{})
			must(t, w.Close())
			_, err := w.AddStyle(xlsx.Style{})
			return err
		},
		"bad style": func() error {
			_, err := fresh().AddStyle(xlsx.Style{Font: xlsx.Font{Size: 1000}})
			return err
		},
		"bad sheet name": func() error {
			_, err := fresh().AddSheet("a/b", xlsx.SheetOptions{})
			return err
		},
		"sheet name used": func() error {
			w := fresh()
			addSheet(t, w, "One", xlsx.SheetOptions{})
			_, err := w.AddSheet("ONE", xlsx.SheetOptions{})
			return err
		},
		"bad freeze": func() error {
			_, err := fresh().AddSheet("One", xlsx.SheetOptions{FreezeRows: -1})
			return err
		},
		"bad cell": func() error {
			return addSheet(t, fresh(), "One", xlsx.SheetOptions{}).WriteRow([]xlsx.Cell{xlsx.Decimal("1e5")})
		},
		"bad defined name": func() error {
			return fresh().DefineName(xlsx.DefinedName{Name: "A1", RefersTo: "One!$A$1"})
		},
		"no visible sheet": func() error {
			w := fresh()
			addSheet(t, w, "One", xlsx.SheetOptions{State: xlsx.SheetHidden})
			return w.Close()
		},
		"sink failure": func() error {
			w, err := xlsx.NewWriter(&failAfter{0}, xlsx.Options{})
			must(t, err)
			sh, err := w.AddSheet("One", xlsx.SheetOptions{})
			if err != nil {
				return err
			}
			for i := 0; i < 100_000; i++ {
				if err := sh.WriteRow([]xlsx.Cell{xlsx.Int(int64(i))}); err != nil {
					return err
				}
			}
			return w.Close()
		},
	}
	for name, make := range cases {
		err := make()
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		// The house rule: a message says what it is about, never the
		// package's name.
		if msg := err.Error(); strings.Contains(msg, "xlsx:") || msg == "" {
			t.Errorf("%s: %q should not name the package", name, msg)
		}
	}
}
