package arrowsheet_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sheetstream/sheetstream/arrowsheet"
	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/xlsx"
)

// allTypes is a batch of three rows, one column of each type the Writer
// takes, the second row null throughout.
func allTypes(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	oslo := &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "Europe/Oslo"}
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "u64", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ls", Type: arrow.BinaryTypes.LargeString, Nullable: true},
		{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "at", Type: arrowsheet.Timestamp, Nullable: true},
		{Name: "oslo", Type: oslo, Nullable: true},
		{Name: "clock", Type: arrow.FixedWidthTypes.Time64us, Nullable: true},
		{Name: "took", Type: arrow.FixedWidthTypes.Duration_ms, Nullable: true},
		{Name: "price", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
		{Name: "kind", Type: dict, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	day := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	at := time.Date(2025, 3, 1, 13, 45, 30, 250000000, time.UTC)
	for row := range 3 {
		if row == 1 {
			for i := range schema.NumFields() {
				b.Field(i).AppendNull()
			}
			continue
		}
		k := int64(row + 1) // 1, then 3
		b.Field(0).(*array.Int8Builder).Append(int8(-k))
		b.Field(1).(*array.Int64Builder).Append(k * 1_000_000_007)
		if row == 0 {
			b.Field(2).(*array.Uint64Builder).Append(math.MaxUint64) // past 2^53: text
		} else {
			b.Field(2).(*array.Uint64Builder).Append(uint64(k))
		}
		b.Field(3).(*array.Float32Builder).Append(0.5)
		if row == 0 {
			b.Field(4).(*array.Float64Builder).Append(math.NaN())
		} else {
			b.Field(4).(*array.Float64Builder).Append(2.25)
		}
		b.Field(5).(*array.BooleanBuilder).Append(row == 0)
		b.Field(6).(*array.StringBuilder).Append("é" + string(rune('a'+row)))
		b.Field(7).(*array.LargeStringBuilder).Append("large")
		b.Field(8).(*array.BinaryBuilder).Append([]byte{0, 1, 2})
		b.Field(9).(*array.Date32Builder).Append(arrow.Date32FromTime(day.AddDate(0, 0, row)))
		b.Field(10).(*array.TimestampBuilder).Append(arrow.Timestamp(at.UnixMicro()))
		b.Field(11).(*array.TimestampBuilder).Append(arrow.Timestamp(at.UnixMilli()))
		b.Field(12).(*array.Time64Builder).Append(arrow.Time64((13*3600 + 5*60 + 7) * 1e6))
		b.Field(13).(*array.DurationBuilder).Append(arrow.Duration(90 * 60 * 1000))
		b.Field(14).(*array.Decimal128Builder).Append(decimal128.FromI64(1990 + k))
		b.Field(15).(*array.BinaryDictionaryBuilder).AppendString([]string{"red", "", "blue"}[row])
	}
	return b.NewRecordBatch()
}

func writeBook(t *testing.T, recs []arrow.RecordBatch, opts arrowsheet.WriteOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	xw, err := xlsx.NewWriter(&buf, xlsx.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := arrowsheet.NewWriter(xw, recs[0].Schema(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := xw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func openReader(t *testing.T, book []byte, opts arrowsheet.ReadOptions) (*arrowsheet.Reader, func()) {
	t.Helper()
	wb, err := xlsx.NewReader(bytes.NewReader(book), int64(len(book)), xlsx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := wb.Rows(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	r, err := arrowsheet.NewReader(rows, wb.Sheets()[0].Name, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r, func() { r.Release(); rows.Close() }
}

// TestWriteEveryType: each type's cells as python-calamine reads them,
// then read back by the Reader, typed as the mapping says.
func TestWriteEveryType(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := allTypes(t, mem)
	defer rec.Release()
	book := writeBook(t, []arrow.RecordBatch{rec}, arrowsheet.WriteOptions{Sheet: "Data"})

	path := filepath.Join(t.TempDir(), "types.xlsx")
	os.WriteFile(path, book, 0o644)
	got := pyread.Calamine(t, path)[path]
	if got.Error != "" {
		t.Fatal(got.Error)
	}
	cells := map[[2]int]*pyread.Value{}
	for _, c := range got.Cells["Data"] {
		cells[[2]int{c.Row, c.Col}] = c.Value
	}
	for _, want := range []struct {
		row, col int
		v        *pyread.Value
	}{
		{1, 1, pyread.Str("i8")},
		{2, 1, pyread.Num(-1)},
		{2, 2, pyread.Num(1_000_000_007)},
		{2, 3, pyread.Str("18446744073709551615")},
		{2, 4, pyread.Num(0.5)},
		{2, 6, pyread.Bool(true)},
		{2, 7, pyread.Str("éa")},
		{2, 9, pyread.Str("AAEC")},
		{2, 10, pyread.DateTime("2025-03-01T00:00:00")},
		{2, 11, pyread.DateTime("2025-03-01T13:45:30.250000")},
		{2, 12, pyread.DateTime("2025-03-01T14:45:30.250000")}, // Oslo's wall clock, UTC+1
		{2, 13, pyread.TimeOfDay("13:05:07")},
		{2, 15, pyread.Num(19.91)},
		{2, 16, pyread.Str("red")},
		{4, 5, pyread.Num(2.25)},
		{4, 16, pyread.Str("blue")},
	} {
		if v := cells[[2]int{want.row, want.col}]; v == nil || !v.Equal(want.v) {
			t.Errorf("%s: %v, want %v", xlsx.CellName(want.row, want.col), v, want.v)
		}
	}
	// NaN: Excel's #NUM! (python-calamine reads error cells as empty).
	for _, c := range pyread.Cells(t, path)[path].Cells["Data"] {
		if c.Row == 2 && c.Col == 5 && !c.Value.Equal(pyread.Error("#NUM!")) {
			t.Errorf("E2: %v, want #NUM!", c.Value)
		}
	}
	for col := 1; col <= 16; col++ {
		if v := cells[[2]int{3, col}]; v != nil {
			t.Errorf("%s: %v for a null", xlsx.CellName(3, col), v)
		}
	}

	r, done := openReader(t, book, arrowsheet.ReadOptions{Allocator: mem})
	defer done()
	wantTypes := map[string]arrow.DataType{
		"i8": arrow.PrimitiveTypes.Int64, "f32": arrow.PrimitiveTypes.Float64, "ok": arrow.FixedWidthTypes.Boolean,
		"s": arrow.BinaryTypes.String, "day": arrow.FixedWidthTypes.Date32, "at": arrowsheet.Timestamp,
		"clock": arrow.FixedWidthTypes.Time64us, "took": arrow.FixedWidthTypes.Duration_us, "price": arrow.PrimitiveTypes.Float64,
		"u64": arrow.BinaryTypes.String, // text, then a number: mixed, as text
	}
	for name, typ := range wantTypes {
		f, ok := r.Schema().FieldsByName(name)
		if !ok || !arrow.TypeEqual(f[0].Type, typ) {
			t.Errorf("column %s: %v, want %s", name, f, typ)
		}
	}
	if !r.Next() {
		t.Fatal(r.Err())
	}
	back := r.RecordBatch()
	if back.NumRows() != 3 {
		t.Fatalf("%d rows", back.NumRows())
	}
	col := func(name string) arrow.Array {
		i := back.Schema().FieldIndices(name)[0]
		return back.Column(i)
	}
	if v := col("at").(*array.Timestamp).Value(0); v != arrow.Timestamp(time.Date(2025, 3, 1, 13, 45, 30, 250000000, time.UTC).UnixMicro()) {
		t.Errorf("at: %v", v.ToTime(arrow.Microsecond))
	}
	if v := col("took").(*array.Duration).Value(2); time.Duration(v)*time.Microsecond != 90*time.Minute {
		t.Errorf("took: %v", v)
	}
	if v := col("clock").(*array.Time64).Value(0); v != arrow.Time64((13*3600+5*60+7)*1e6) {
		t.Errorf("clock: %v", v)
	}
	if v := col("i64").(*array.Int64).Value(2); v != 3_000_000_021 {
		t.Errorf("i64: %d", v)
	}
	for _, name := range []string{"i8", "s", "day", "kind"} {
		if !col(name).IsNull(1) {
			t.Errorf("%s: row 2 not null", name)
		}
	}
	if r.Next() {
		t.Error("a second batch")
	}
}

// TestReadMisfit: a value past the sample that does not fit its column is
// an error naming its cell; ReadOptions.Types fixes the column instead.
func TestReadMisfit(t *testing.T) {
	var buf bytes.Buffer
	xw, _ := xlsx.NewWriter(&buf, xlsx.Options{})
	sh, _ := xw.AddSheet("S", xlsx.SheetOptions{})
	sh.WriteRow([]xlsx.Cell{xlsx.String("n"), xlsx.String("when")})
	for i := range 1500 {
		sh.WriteRow([]xlsx.Cell{xlsx.Int(int64(i)), xlsx.Date(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))})
	}
	sh.WriteRow([]xlsx.Cell{xlsx.Float(1.5), xlsx.String("later")})
	if err := xw.Close(); err != nil {
		t.Fatal(err)
	}
	r, done := openReader(t, buf.Bytes(), arrowsheet.ReadOptions{BatchRows: 1000})
	rows := int64(0)
	for r.Next() {
		rows += r.RecordBatch().NumRows()
	}
	var cell *xlsx.CellError
	if err := r.Err(); !errors.As(err, &cell) || !errors.Is(err, arrowsheet.ErrMisfit) || cell.Row != 1502 || cell.Col != 1 {
		t.Errorf("after %d rows: %v", rows, err)
	}
	done()

	r, done = openReader(t, buf.Bytes(), arrowsheet.ReadOptions{Types: map[string]arrow.DataType{
		"n": arrow.PrimitiveTypes.Float64, "when": arrow.BinaryTypes.String}})
	defer done()
	rows = 0
	var last arrow.RecordBatch
	for r.Next() {
		rows += r.RecordBatch().NumRows()
		last = r.RecordBatch()
		last.Retain()
	}
	if err := r.Err(); err != nil || rows != 1501 {
		t.Fatalf("%d rows, %v", rows, err)
	}
	defer last.Release()
	n := int(last.NumRows()) - 1
	if v := last.Column(0).(*array.Float64).Value(n); v != 1.5 {
		t.Errorf("n: %v", v)
	}
	if v := last.Column(1).(*array.String).Value(n); v != "later" {
		t.Errorf("when: %q", v)
	}
}

// TestWiden: misfits past the sample widen their columns where the caller
// allows it, each as far as its cells need (int64 to float64 to string,
// date32 to timestamp), every cell then held; a date-time in a date
// column is a misfit, not a date with its time cut off.
func TestWiden(t *testing.T) {
	var buf bytes.Buffer
	xw, _ := xlsx.NewWriter(&buf, xlsx.Options{})
	sh, _ := xw.AddSheet("S", xlsx.SheetOptions{})
	sh.WriteRow([]xlsx.Cell{xlsx.String("n"), xlsx.String("m"), xlsx.String("day"), xlsx.String("k")})
	day := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 1200 {
		sh.WriteRow([]xlsx.Cell{xlsx.Int(int64(i)), xlsx.Int(int64(i)), xlsx.Date(day), xlsx.Int(7)})
	}
	sh.WriteRow([]xlsx.Cell{xlsx.Float(0.5), xlsx.Float(2.5), xlsx.Time(day.Add(90 * time.Minute)), xlsx.Int(8)})
	sh.WriteRow([]xlsx.Cell{xlsx.Int(3), xlsx.String("n/a"), xlsx.Date(day), xlsx.Int(9)})
	if err := xw.Close(); err != nil {
		t.Fatal(err)
	}
	var misfit *arrowsheet.MisfitError
	r, done := openReader(t, buf.Bytes(), arrowsheet.ReadOptions{})
	for r.Next() {
	}
	if err := r.Err(); !errors.As(err, &misfit) || misfit.Column != "n" || !arrow.TypeEqual(misfit.Wider, arrow.PrimitiveTypes.Float64) {
		t.Fatalf("first misfit: %v", err)
	}
	done()
	opened := 0
	open := func() (*xlsx.Rows, string, func(), error) {
		opened++
		wb, err := xlsx.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), xlsx.ReadOptions{})
		if err != nil {
			return nil, "", nil, err
		}
		rows, err := wb.Rows(context.Background(), 0)
		return rows, "S", func() { rows.Close() }, err
	}
	types, err := arrowsheet.WidenedTypes(open, arrowsheet.ReadOptions{Types: map[string]arrow.DataType{"k": arrow.PrimitiveTypes.Float64}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]arrow.DataType{"n": arrow.PrimitiveTypes.Float64, "m": arrow.BinaryTypes.String, "day": arrowsheet.Timestamp, "k": arrow.PrimitiveTypes.Float64}
	if len(types) != len(want) || opened != 5 { // n, m twice, day: four misfits, then a read through
		t.Errorf("%d reads: %v", opened, types)
	}
	for name, typ := range want {
		if !arrow.TypeEqual(types[name], typ) {
			t.Errorf("%s: %v, want %v", name, types[name], typ)
		}
	}
	r, done = openReader(t, buf.Bytes(), arrowsheet.ReadOptions{Types: types, BatchRows: 2000})
	defer done()
	if !r.Next() {
		t.Fatal(r.Err())
	}
	rec := r.RecordBatch()
	if rec.NumRows() != 1202 {
		t.Fatalf("%d rows", rec.NumRows())
	}
	m := rec.Column(1).(*array.String)
	if m.Value(5) != "5" || m.Value(1200) != "2.5" || m.Value(1201) != "n/a" {
		t.Errorf("m: %q %q %q", m.Value(5), m.Value(1200), m.Value(1201))
	}
	if v := rec.Column(0).(*array.Float64).Value(1200); v != 0.5 {
		t.Errorf("n: %v", v)
	}
	if v := rec.Column(2).(*array.Timestamp).Value(1200); v != arrow.Timestamp(day.Add(90*time.Minute).UnixMicro()) {
		t.Errorf("day: %v", v)
	}
}

// TestHeaderNames: empty header cells take their column's letter, a
// repeated name a suffix; a row wider than the header is an error.
func TestHeaderNames(t *testing.T) {
	var buf bytes.Buffer
	xw, _ := xlsx.NewWriter(&buf, xlsx.Options{})
	sh, _ := xw.AddSheet("S", xlsx.SheetOptions{})
	sh.WriteRow([]xlsx.Cell{xlsx.String("a"), xlsx.Blank(), xlsx.String("a")})
	sh.WriteRow([]xlsx.Cell{xlsx.Int(1), xlsx.Int(2), xlsx.Int(3)})
	xw.Close()
	r, done := openReader(t, buf.Bytes(), arrowsheet.ReadOptions{})
	defer done()
	var names []string
	for _, f := range r.Schema().Fields() {
		names = append(names, f.Name)
	}
	if len(names) != 3 || names[0] != "a" || names[1] != "B" || names[2] != "a_2" {
		t.Errorf("names %q", names)
	}
}
