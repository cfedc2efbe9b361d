package csvsheet_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/xlsx"
)

func TestInfer(t *testing.T) {
	day := time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want xlsx.Cell
	}{
		{"", xlsx.Cell{}},
		{"0", xlsx.Int(0)}, {"-42", xlsx.Int(-42)}, {"+7", xlsx.Int(7)},
		{"123456789012345", xlsx.Int(123456789012345)},
		{"1234567890123456", xlsx.String("1234567890123456")}, // 16 digits: not exact in a double
		{"007", xlsx.String("007")}, {"00", xlsx.String("00")},
		{"1.25", xlsx.Decimal("1.25")}, {"-0.5", xlsx.Decimal("-0.5")}, {".5", xlsx.Float(0.5)}, {"1.", xlsx.Decimal("1.")},
		{"+1.5", xlsx.Float(1.5)}, {"1e3", xlsx.Float(1000)}, {"2.5E-3", xlsx.Float(0.0025)},
		{"1.500000000000000", xlsx.Decimal("1.500000000000000")},
		{"0.000123456789012345", xlsx.Decimal("0.000123456789012345")}, {"-0.00", xlsx.Decimal("-0.00")}, {"00.5", xlsx.String("00.5")},
		{"3.14159265358979323846", xlsx.String("3.14159265358979323846")},
		// A double's shortest text, 16 or 17 digits, is the double; a
		// digit more or less than that text is not.
		{"0.14285714285714285", xlsx.Float(1.0 / 7)}, {"-0.3333333333333333", xlsx.Float(-1.0 / 3)},
		{"1.4285714285714285e-05", xlsx.Float(1.0 / 70000)}, {"0.1428571428571428", xlsx.Float(0.1428571428571428)},
		{"1.2345678901234567e-05", xlsx.String("1.2345678901234567e-05")}, // its double prints ...568
		{"0.142857142857142857", xlsx.String("0.142857142857142857")}, {"12345678901234567", xlsx.String("12345678901234567")},
		{"1e999", xlsx.String("1e999")}, {"1e", xlsx.String("1e")}, {"-", xlsx.String("-")}, {".", xlsx.String(".")},
		{"NaN", xlsx.String("NaN")}, {"Inf", xlsx.String("Inf")}, {"0x10", xlsx.String("0x10")}, {"1_000", xlsx.String("1_000")},
		{"1,000", xlsx.String("1,000")}, {" 1", xlsx.String(" 1")},
		{"true", xlsx.Bool(true)}, {"FALSE", xlsx.Bool(false)}, {"True", xlsx.Bool(true)}, {"yes", xlsx.String("yes")}, {"t", xlsx.String("t")},
		{"2024-02-29", xlsx.Date(day)}, {"2023-02-29", xlsx.String("2023-02-29")}, {"1899-12-31", xlsx.String("1899-12-31")},
		{"2024-02-29T13:45:00", xlsx.Time(day.Add(13*time.Hour + 45*time.Minute))},
		{"2024-02-29 13:45:00.5", xlsx.Time(day.Add(13*time.Hour + 45*time.Minute + 500*time.Millisecond))},
		{"2024-02-29T13:45:00Z", xlsx.String("2024-02-29T13:45:00Z")},
		{"2024-02-29T25:00:00", xlsx.String("2024-02-29T25:00:00")},
		{"13:45:00", xlsx.TimeOfDay(time.Date(2000, 1, 1, 13, 45, 0, 0, time.UTC))},
		{"13:45", xlsx.String("13:45")}, {"2024-2-9", xlsx.String("2024-2-9")},
	}
	for _, c := range cases {
		if got := csvsheet.Infer(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Infer(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

func convert(t *testing.T, input string, opts csvsheet.Options) ([]byte, csvsheet.Stats, error) {
	t.Helper()
	var buf bytes.Buffer
	w, err := xlsx.NewWriter(&buf, xlsx.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := csvsheet.Convert(context.Background(), strings.NewReader(input), w, opts)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return buf.Bytes(), st, err
}

func TestConvertErrorsNameTheLine(t *testing.T) {
	_, _, err := convert(t, "a,b\n1,2\n3,\"bad\"quote\n", csvsheet.Options{})
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("err = %v, want it to name line 3", err)
	}
	_, _, err = convert(t, "a\n\xff\n", csvsheet.Options{NoInfer: true})
	if !errors.Is(err, csvsheet.ErrNotUTF8) || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("err = %v, want ErrNotUTF8 on line 2", err)
	}
	if _, _, err := convert(t, "a\n", csvsheet.Options{Sheet: "bad/name"}); !errors.Is(err, xlsx.ErrSheetName) {
		t.Errorf("err = %v", err)
	}
}

func TestSheetName(t *testing.T) {
	if got := xlsx.NumberedSheetName("Data", 2); got != "Data (3)" {
		t.Errorf("got %q", got)
	}
	long := strings.Repeat("x", 31)
	if got := xlsx.NumberedSheetName(long, 9); len([]rune(got)) != 31 || !strings.HasSuffix(got, " (10)") {
		t.Errorf("got %q", got)
	}
}

// TestConvertReadBack converts CSV, TSV, ragged rows, a BOM and a rollover
// and checks the workbooks with the validator and both readers.
func TestConvertReadBack(t *testing.T) {
	pyread.Python(t)
	dir := t.TempDir()
	type check struct {
		path  string
		want  map[string][][]*pyread.Value
		stats csvsheet.Stats
	}
	s := func(v string) *pyread.Value { return &pyread.Value{Type: "s", V: v} }
	n := func(v float64) *pyread.Value { return &pyread.Value{Type: "n", V: v} }
	b := func(v bool) *pyread.Value { return &pyread.Value{Type: "b", V: v} }
	d := func(v string) *pyread.Value { return &pyread.Value{Type: "d", V: v} }
	var checks []check
	run := func(name, input string, opts csvsheet.Options, want map[string][][]*pyread.Value) {
		book, st, err := convert(t, input, opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		path := filepath.Join(dir, name+".xlsx")
		if err := os.WriteFile(path, book, 0o644); err != nil {
			t.Fatal(err)
		}
		checks = append(checks, check{path, want, st})
	}
	run("typed", "\xEF\xBB\xBFid,name,when,ok\n1,\"a, b\",2024-02-29,true\n2,\"multi\nline\",,\n3\n", csvsheet.Options{},
		map[string][][]*pyread.Value{"Sheet1": {
			{s("id"), s("name"), s("when"), s("ok")},
			{n(1), s("a, b"), d("2024-02-29T00:00:00"), b(true)},
			{n(2), s("multi\nline")},
			{n(3)},
		}})
	run("tsv-text", "x\ty\n007\t1.5\n", csvsheet.Options{Comma: '\t', NoInfer: true, Sheet: "Raw"},
		map[string][][]*pyread.Value{"Raw": {{s("x"), s("y")}, {s("007"), s("1.5")}}})
	var big strings.Builder
	big.WriteString("n\n")
	for i := range 25 {
		fmt.Fprintf(&big, "%d\n", i)
	}
	rolled := map[string][][]*pyread.Value{}
	for sh, from := range map[string]int{"Data": 0, "Data (2)": 9, "Data (3)": 18} {
		rows := [][]*pyread.Value{{s("n")}}
		for i := from; i < min(from+9, 25); i++ {
			rows = append(rows, []*pyread.Value{n(float64(i))})
		}
		rolled[sh] = rows
	}
	run("rollover", big.String(), csvsheet.Options{Sheet: "Data", RowsPerSheet: 10}, rolled)

	paths := make([]string, len(checks))
	for i, c := range checks {
		paths[i] = c.path
	}
	results := pyread.Read(t, paths...)
	for _, c := range checks {
		r := results[c.path]
		if r == nil || r.Error != "" || len(r.Audit) > 0 {
			t.Errorf("%s: %+v", c.path, r)
			continue
		}
		for sheet, want := range c.want {
			got := r.Openpyxl[sheet]
			if len(got) != len(want) {
				t.Errorf("%s/%s: %d rows, want %d", filepath.Base(c.path), sheet, len(got), len(want))
				continue
			}
			for i := range want {
				for j := range want[i] {
					if j >= len(got[i]) || !got[i][j].Equal(want[i][j]) {
						t.Errorf("%s/%s row %d col %d: got %v, want %v", filepath.Base(c.path), sheet, i+1, j+1, got[i], want[i])
					}
				}
			}
			if f := r.Freeze[sheet]; f == nil || *f != "A2" {
				t.Errorf("%s/%s: header not frozen (%v)", filepath.Base(c.path), sheet, f)
			}
		}
	}
	if st := checks[2].stats; st.Rows != 25 || len(st.Sheets) != 3 {
		t.Errorf("rollover stats %+v", st)
	}
}

// writeCSV writes one sheet of cells and returns it as text in opts'
// format.
func writeCSV(t *testing.T, rows [][]xlsx.Cell, opts csvsheet.WriteOptions) string {
	t.Helper()
	var book bytes.Buffer
	w, err := xlsx.NewWriter(&book, xlsx.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sh, err := w.AddSheet("S", xlsx.SheetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := sh.WriteRow(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	wb, err := xlsx.NewReader(bytes.NewReader(book.Bytes()), int64(book.Len()), xlsx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := wb.Rows(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	var out bytes.Buffer
	if _, err := csvsheet.WriteWith(context.Background(), &out, rs, opts); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestEscapeFormulas(t *testing.T) {
	rows := [][]xlsx.Cell{
		{xlsx.String("=HYPERLINK(\"http://x\",\"y\")"), xlsx.String("+1"), xlsx.String("-2"), xlsx.String("@SUM(A1)")},
		{xlsx.String("\tTAB"), xlsx.String("\rCR"), xlsx.String("plain, text"), xlsx.Int(-5)},
		{xlsx.Float(-0.5), xlsx.Bool(true), xlsx.String("a=b"), xlsx.String("")},
	}
	cases := []struct {
		opts csvsheet.WriteOptions
		want string
	}{
		{csvsheet.WriteOptions{Format: csvsheet.CSV},
			"\"=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",+1,-2,@SUM(A1)\n\"\tTAB\",\"\rCR\",\"plain, text\",-5\n-0.5,TRUE,a=b,\n"},
		{csvsheet.WriteOptions{Format: csvsheet.CSV, EscapeFormulas: true},
			"\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",\"'+1\",\"'-2\",\"'@SUM(A1)\"\n\"'\tTAB\",\"'\rCR\",\"plain, text\",-5\n-0.5,TRUE,a=b,\n"},
		{csvsheet.WriteOptions{Format: csvsheet.TSV, EscapeFormulas: true},
			"\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"\t\"'+1\"\t\"'-2\"\t\"'@SUM(A1)\"\n\"'\tTAB\"\t\"'\rCR\"\tplain, text\t-5\n-0.5\tTRUE\ta=b\t\n"},
		// JSON lines are data for programs: never changed.
		{csvsheet.WriteOptions{Format: csvsheet.JSONL, EscapeFormulas: true},
			`{"sheet":"S","row":1,"values":["=HYPERLINK(\"http://x\",\"y\")","+1","-2","@SUM(A1)"]}` + "\n" +
				`{"sheet":"S","row":2,"values":["\tTAB","\rCR","plain, text",-5]}` + "\n" +
				`{"sheet":"S","row":3,"values":[-0.5,true,"a=b",""]}` + "\n"},
	}
	for _, c := range cases {
		if got := writeCSV(t, rows, c.opts); got != c.want {
			t.Errorf("%+v:\n got %q\nwant %q", c.opts, got, c.want)
		}
	}
}

// TestTableStopsEarly: a caller that stops at any row, or a cancelled
// context, ends EachRow cleanly, with its goroutines gone.
func TestTableStopsEarly(t *testing.T) {
	var text strings.Builder
	text.WriteString("n,s\n")
	for i := range 5000 {
		fmt.Fprintf(&text, "%d,x%d\n", i, i)
	}
	stop := errors.New("stop")
	before := runtime.NumGoroutine()
	for _, at := range []int{1, 2, 256, 257, 1000, 4999} {
		table := csvsheet.NewTable(strings.NewReader(text.String()), csvsheet.Options{})
		err := table.EachRow(context.Background(), func(r xlsx.Row) error {
			if r.Num == at {
				return stop
			}
			return nil
		})
		if err != stop {
			t.Errorf("stopped at %d: %v", at, err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		err = table.EachRow(ctx, func(r xlsx.Row) error {
			if r.Num == at {
				cancel()
			}
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled at %d: %v", at, err)
		}
	}
	time.Sleep(50 * time.Millisecond)
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines left running (%d before)", n, before)
	}
}

// TestMaxRecordSize: a quote left open early would read the rest of the
// text into one record; the read stops past MaxRecordSize, naming the
// record, for Table and Convert alike, while records up to the limit
// (a long quoted field spanning lines among them) read whole.
func TestMaxRecordSize(t *testing.T) {
	const limit = 1 << 16
	long := strings.Repeat("x", limit-100)
	good := "id,text\n1,\"" + long + "\nsecond line\"\n2,b\n"
	rows := 0
	err := csvsheet.NewTable(strings.NewReader(good), csvsheet.Options{MaxRecordSize: limit}).EachRow(context.Background(), func(r xlsx.Row) error {
		if r.Num == 2 && r.Cells[1].String() != long+"\nsecond line" {
			t.Errorf("the long field read as %d bytes", len(r.Cells[1].String()))
		}
		rows++
		return nil
	})
	if err != nil || rows != 3 {
		t.Errorf("records under the limit: %d rows, %v", rows, err)
	}

	open := "id,text\n1,ok\n2,\"never closed\n" + strings.Repeat("3,more text\n", 1<<14) // 192 KiB after the quote
	err = csvsheet.NewTable(strings.NewReader(open), csvsheet.Options{MaxRecordSize: limit}).EachRow(context.Background(), func(xlsx.Row) error { return nil })
	if !errors.Is(err, csvsheet.ErrRecordTooLong) || !strings.Contains(err.Error(), "record 3,") {
		t.Errorf("Table: %v, want ErrRecordTooLong naming record 3", err)
	}
	_, _, err = convert(t, open, csvsheet.Options{MaxRecordSize: limit})
	if !errors.Is(err, csvsheet.ErrRecordTooLong) || !strings.Contains(err.Error(), "record 3,") {
		t.Errorf("Convert: %v, want ErrRecordTooLong naming record 3", err)
	}
}

// readCells reads a converted workbook's first sheet as typed text,
// "n:" numbers, "s:" text, "d:" dates, "b:" booleans.
func readCells(t *testing.T, book []byte) [][]string {
	t.Helper()
	wb, err := xlsx.NewReader(bytes.NewReader(book), int64(len(book)), xlsx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := wb.Rows(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for rows.Next() {
		var line []string
		for _, c := range rows.Row().Cells {
			line = append(line, c.Type().String()[:1]+":"+c.String())
		}
		out = append(out, line)
	}
	return out
}

// TestConvertTypesColumns: a column is one type, decided by its fields
// together: codes that look like numbers in exponent notation stay text
// among other codes, and alone; exponent numbers among plain numbers are
// numbers; a leading zero makes the column text; null markers do not
// turn numbers to text.
func TestConvertTypesColumns(t *testing.T) {
	in := "code,elev,ratio,zip,alone\n00M,12,1.5,10001,1E5\n0E0,NA,2.5e-3,02134,2E8\nABQ,5355,3,60601,\n0E8,,1e5,94105,0E0\n"
	book, _, err := convert(t, in, csvsheet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(readCells(t, book)[1:])
	want := "[[s:00M n:12 n:1.5 s:10001 s:1E5] [s:0E0 s:NA n:0.0025 s:02134 s:2E8] [s:ABQ n:5355 n:3 s:60601] [s:0E8 n:100000 s:94105 s:0E0]]"
	if got != want {
		t.Errorf("cells:\n got %s\nwant %s", got, want)
	}
}

// TestConvertRetypes: a field past the first guess that contradicts its
// column's type makes Convert read on and answer a RetypeError with
// every column's type; the second pass with them gives one type per
// column.
func TestConvertRetypes(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,code,amount,day\n")
	for i := range 6000 {
		code, amount, day := fmt.Sprint(i*7), fmt.Sprintf("%d.5", i), "2024-01-02"
		if i == 5500 {
			code = "X-1"
		}
		if i == 5900 {
			day = "soon"
		}
		fmt.Fprintf(&b, "%d,%s,%s,%s\n", i, code, amount, day)
	}
	_, _, err := convert(t, b.String(), csvsheet.Options{})
	var re *csvsheet.RetypeError
	if !errors.As(err, &re) || !errors.Is(err, csvsheet.ErrRetype) || re.Line != 5502 || re.Column != `"code"` || re.Field != "X-1" ||
		fmt.Sprint(re.Kinds) != "[number text number text]" || !strings.Contains(err.Error(), "where its first rows held numbers") {
		t.Fatalf("first pass: %v (%+v)", err, re)
	}
	book, st, err := convert(t, b.String(), csvsheet.Options{Kinds: re.Kinds})
	if err != nil || st.Rows != 6000 {
		t.Fatalf("second pass: %v %+v", err, st)
	}
	rows := readCells(t, book)
	if got := fmt.Sprint(rows[1], rows[5501], rows[5901]); got != "[n:0 s:0 n:0.5 s:2024-01-02] [n:5500 s:X-1 n:5500.5 s:2024-01-02] [n:5900 s:41300 n:5900.5 s:soon]" {
		t.Errorf("second pass: %s", got)
	}
	// A column empty in the first rows takes its first value's type.
	b.Reset()
	b.WriteString("a,b\n")
	for i := range 5100 {
		v := ""
		if i >= 5050 {
			v = fmt.Sprint(i)
		}
		fmt.Fprintf(&b, "%d,%s\n", i, v)
	}
	book, _, err = convert(t, b.String(), csvsheet.Options{})
	if rows := readCells(t, book); err != nil || fmt.Sprint(rows[5052]) != "[n:5051 n:5051]" {
		t.Errorf("a late column: %v %v", err, rows[5052])
	}
}

// TestRoundTripCSV: CSV -> XLSX -> CSV gives back every field as written
// for the kinds of fields open datasets have: numbers in their shortest
// form, ISO dates, date-times and times, codes, text with quotes, commas,
// line breaks and accents, empty fields, null markers.
func TestRoundTripCSV(t *testing.T) {
	in := "station,day,at,clock,temp,rain,code,note\n" +
		"LIS,2024-02-29,2024-02-29 13:45:00,13:45:00,17.5,0,0E0,\"a, b\"\n" +
		"OPO,2001-01-01,2001-01-01 00:00:00,00:00:00,-3.25,NA,00M,\"say \"\"hi\"\"\"\n" +
		"FAO,1999-12-31,1999-12-31 23:59:59.250,08:00:00,1e-7,12.125,ABQ,\"two\nlines\"\n" +
		"ZRH,,,,,,,Zürich ✓\n"
	book, _, err := convert(t, in, csvsheet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wb, err := xlsx.NewReader(bytes.NewReader(book), int64(len(book)), xlsx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := wb.Rows(context.Background(), 0)
	var out bytes.Buffer
	if _, err := csvsheet.Write(context.Background(), &out, rows, csvsheet.CSV); err != nil {
		t.Fatal(err)
	}
	if out.String() != in {
		t.Errorf("CSV back:\n%s\nwant:\n%s", out.String(), in)
	}
	// JSON lines: date-times with a T.
	rows, _ = wb.Rows(context.Background(), 0)
	out.Reset()
	if _, err := csvsheet.WriteWith(context.Background(), &out, rows, csvsheet.WriteOptions{Format: csvsheet.JSONL, Records: true, Head: 1}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != `{"station":"LIS","day":"2024-02-29","at":"2024-02-29T13:45:00","clock":"13:45:00","temp":17.5,"rain":0,"code":"0E0","note":"a, b"}`+"\n" {
		t.Errorf("a record: %s", got)
	}
	rows, _ = wb.Rows(context.Background(), 0)
	out.Reset()
	if _, err := csvsheet.WriteWith(context.Background(), &out, rows, csvsheet.WriteOptions{Format: csvsheet.CSV, Tail: 2}); err != nil {
		t.Fatal(err)
	}
	// The header, then the last two rows (no empty lines for those between).
	if got := out.String(); got != "station,day,at,clock,temp,rain,code,note\nFAO,1999-12-31,1999-12-31 23:59:59.250,08:00:00,1e-7,12.125,ABQ,\"two\nlines\"\nZRH,,,,,,,Zürich ✓\n" {
		t.Errorf("the header and the last two rows: %q", got)
	}
}

// TestWideRecords: a record with more fields than the header is an error
// naming its line (it was loaded as a column of its own); Ragged cuts it
// to the header; LazyQuotes takes a stray quote as text.
func TestWideRecords(t *testing.T) {
	in := "a,b\n1,2\n3,4,5\n6\n"
	_, _, err := convert(t, in, csvsheet.Options{})
	if !errors.Is(err, csvsheet.ErrWideRecord) || !strings.Contains(err.Error(), "line 3: 3 fields") {
		t.Errorf("a wide record: %v", err)
	}
	book, st, err := convert(t, in, csvsheet.Options{Ragged: true})
	if err != nil || st.Cut != 1 || fmt.Sprint(readCells(t, book)) != "[[s:a s:b] [n:1 n:2] [n:3 n:4] [n:6]]" {
		t.Errorf("ragged: %v %+v %v", err, st, readCells(t, book))
	}
	if _, _, err := convert(t, in, csvsheet.Options{NoHeader: true}); err != nil {
		t.Errorf("without a header, any width: %v", err)
	}
	stray := "name,size\n12\" pipe,3\n"
	if _, _, err := convert(t, stray, csvsheet.Options{}); err == nil {
		t.Errorf("a stray quote without LazyQuotes: no error")
	}
	book, _, err = convert(t, stray, csvsheet.Options{LazyQuotes: true})
	if err != nil || fmt.Sprint(readCells(t, book)[1]) != `[s:12" pipe n:3]` {
		t.Errorf("LazyQuotes: %v %v", err, readCells(t, book))
	}
}

// TestConvertSheetAsExport: convert makes the sheet export makes: the
// header bold and frozen, an autofilter over the rows (on every sheet of
// a rollover), columns fitted to their text.
func TestConvertSheetAsExport(t *testing.T) {
	book, _, err := convert(t, "name,amount\nLisbon and the rest of Portugal,1\nOslo,22\nRome,3\n", csvsheet.Options{RowsPerSheet: 3})
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(book), int64(len(book)))
	if err != nil {
		t.Fatal(err)
	}
	part := func(name string) string {
		f, err := zr.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(f)
		return string(b)
	}
	for sheet, ref := range map[string]string{"xl/worksheets/sheet1.xml": "A1:B3", "xl/worksheets/sheet2.xml": "A1:B2"} {
		x := part(sheet)
		if !strings.Contains(x, `<autoFilter ref="`+ref+`"/>`) || !strings.Contains(x, `ySplit="1"`) || !strings.Contains(x, "<cols>") {
			t.Errorf("%s: %s", sheet, x)
		}
	}
	if x := part("xl/worksheets/sheet1.xml"); !strings.Contains(x, `<col min="1" max="1" width="`) {
		t.Errorf("no fitted width for column A: %s", x)
	}
}

// TestDateFormats: year-first dates with slashes and ISO date-times
// without seconds are dates unasked; day-first, month-name and other
// forms need DateFormats, tried in order; without them 31/01/2024 stays
// text (never guessed between day-first and month-first).
func TestDateFormats(t *testing.T) {
	in := "slash,nosec,dayfirst,named,mixed,clock\n" +
		"2012/01/31,2010-01-01 08:00,31/01/2024,Jan 1 2000,2010/01/01 00:00,7:05 PM\n" +
		"2012/02/29,2010/01/01T23:59,01/02/2024,December 25 1999,2010/01/02 13:30,12:00 AM\n"
	book, _, err := convert(t, in, csvsheet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(readCells(t, book)[1:]); got != "[[d:2012-01-31T00:00:00 d:2010-01-01T08:00:00 s:31/01/2024 s:Jan 1 2000 d:2010-01-01T00:00:00 s:7:05 PM] "+
		"[d:2012-02-29T00:00:00 d:2010-01-01T23:59:00 s:01/02/2024 s:December 25 1999 d:2010-01-02T13:30:00 s:12:00 AM]]" {
		t.Errorf("unasked: %s", got)
	}
	book, _, err = convert(t, in, csvsheet.Options{DateFormats: []string{"%d/%m/%Y", "%b %d %Y", "%I:%M %p"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(readCells(t, book)[1:]); got != "[[d:2012-01-31T00:00:00 d:2010-01-01T08:00:00 d:2024-01-31T00:00:00 d:2000-01-01T00:00:00 d:2010-01-01T00:00:00 d:19:05:00] "+
		"[d:2012-02-29T00:00:00 d:2010-01-01T23:59:00 d:2024-02-01T00:00:00 d:1999-12-25T00:00:00 d:2010-01-02T13:30:00 d:00:00:00]]" {
		t.Errorf("with formats: %s", got)
	}
	for _, bad := range []string{"%Q", "plain", "%"} {
		if _, _, err := convert(t, in, csvsheet.Options{DateFormats: []string{bad}}); err == nil || !strings.Contains(err.Error(), "date format") {
			t.Errorf("layout %q: %v", bad, err)
		}
	}
	// A day that does not exist stays text.
	book, _, _ = convert(t, "d\n31/02/2024\n2023/02/29\n", csvsheet.Options{DateFormats: []string{"%d/%m/%Y"}})
	if got := fmt.Sprint(readCells(t, book)[1:]); got != "[[s:31/02/2024] [s:2023/02/29]]" {
		t.Errorf("impossible days: %s", got)
	}
}
