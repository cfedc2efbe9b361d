package xlsx_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/pyread"
	"github.com/sheetstream/sheetstream/xlsx"
)

// Decimal is a decimal type as libraries have them: its text is the
// number, and the name alone makes it a Decimal cell.
type Decimal struct{ text string }

func (d Decimal) String() string { return d.text }

func (d *Decimal) UnmarshalText(b []byte) error {
	d.text = string(b)
	return nil
}

type Audit struct {
	CreatedBy string
	Version   int16 `xlsx:"Rev"`
}

type Shipping struct {
	Carrier string
	Weight  *float64
}

// everyKind has a field of every kind struct mapping takes.
type everyKind struct {
	Int      int
	Int8     int8
	Int16    int16
	Int32    int32
	Int64    int64 `xlsx:"Big Int"`
	Uint     uint
	Uint8    uint8
	Uint16   uint16
	Uint32   uint32
	Uint64   uint64
	F32      float32
	F64      float64
	Text     string
	Raw      []byte
	Flag     bool
	At       time.Time
	Day      time.Time `xlsx:",date"`
	Span     time.Duration
	Any      xlsx.Cell
	PInt     *int
	PText    *string
	PTime    *time.Time
	NString  sql.NullString
	NInt64   sql.NullInt64
	NInt32   sql.NullInt32
	NInt16   sql.NullInt16
	NByte    sql.NullByte
	NFloat   sql.NullFloat64
	NBool    sql.NullBool
	NTime    sql.NullTime
	Addr     netip.Addr // TextMarshaler and TextUnmarshaler
	Price    Decimal
	Skipped  string `xlsx:"-"`
	internal string
	Audit
	*Shipping
}

// randomValue makes a value whose every field survives the trip: times
// to the millisecond in Excel's range, durations in milliseconds, no NaN.
func randomValue(rng *rand.Rand) everyKind {
	ms := func(lo, hi int64) time.Time {
		return time.UnixMilli(lo + rng.Int64N(hi-lo)).UTC()
	}
	lo, hi := time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC).UnixMilli()
	text := func() string {
		const alphabet = "abcXYZ 019_-é€😀\t\n<>&\"'"
		r := []rune(alphabet)
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteRune(r[rng.IntN(len(r))])
		}
		return b.String()
	}
	v := everyKind{
		Int: int(rng.Int64()), Int8: int8(rng.Int()), Int16: int16(rng.Int()), Int32: rng.Int32() - 1<<30, Int64: rng.Int64() - 1<<62,
		Uint: uint(rng.Uint64()), Uint8: uint8(rng.Uint32()), Uint16: uint16(rng.Uint32()), Uint32: rng.Uint32(), Uint64: rng.Uint64(),
		F32: float32(rng.NormFloat64() * 1e6), F64: rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20)),
		Text: text(), Raw: []byte(text()), Flag: rng.IntN(2) == 1,
		At: ms(lo, hi), Day: ms(lo, hi).Truncate(24 * time.Hour), Span: time.Duration(rng.Int64N(1e9)) * time.Millisecond,
		Any:     xlsx.Float(float64(rng.IntN(1000)) / 8),
		NString: sql.NullString{String: text(), Valid: rng.IntN(2) == 1},
		NInt64:  sql.NullInt64{Int64: rng.Int64(), Valid: true}, NInt32: sql.NullInt32{Int32: rng.Int32(), Valid: true},
		NInt16: sql.NullInt16{Int16: int16(rng.Int()), Valid: rng.IntN(2) == 1}, NByte: sql.NullByte{Byte: byte(rng.Int()), Valid: true},
		NFloat: sql.NullFloat64{Float64: rng.Float64(), Valid: true}, NBool: sql.NullBool{Bool: true, Valid: rng.IntN(2) == 1},
		NTime: sql.NullTime{Time: ms(lo, hi), Valid: rng.IntN(2) == 1},
		Addr:  netip.AddrFrom4([4]byte{10, byte(rng.Int()), byte(rng.Int()), 1}),
		// Decimal cells keep no trailing zeros: the text is canonical.
		Price: Decimal{fmt.Sprintf("%d.%02d", rng.IntN(100000), 1+rng.IntN(9)*10+rng.IntN(9))},
		Audit: Audit{CreatedBy: text(), Version: int16(rng.IntN(100))},
	}
	if v.NString.Valid && v.NString.String == "" {
		v.NString.String = "x"
	}
	if !v.NString.Valid {
		v.NString.String = ""
	}
	if !v.NInt16.Valid {
		v.NInt16.Int16 = 0
	}
	if !v.NBool.Valid {
		v.NBool.Bool = false
	}
	if !v.NTime.Valid {
		v.NTime.Time = time.Time{}
	}
	if rng.IntN(2) == 1 {
		n, s, t := rng.IntN(100), text(), ms(lo, hi)
		v.PInt, v.PText, v.PTime = &n, &s, &t
	}
	if rng.IntN(2) == 1 {
		v.Shipping = &Shipping{Carrier: "c" + text()}
		if rng.IntN(2) == 1 {
			w := float64(rng.IntN(1000)) / 4
			v.Shipping.Weight = &w
		}
	}
	return v
}

func writeStructs[T any](t testing.TB, values []T, opts xlsx.StructOptions) []byte {
	t.Helper()
	return writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
		sh, err := w.AddSheet("Data", xlsx.SheetOptions{})
		if err != nil {
			return err
		}
		sw, err := xlsx.NewStructWriter[T](sh, opts)
		if err != nil {
			return err
		}
		for _, v := range values {
			if err := sw.Write(v); err != nil {
				return err
			}
		}
		return nil
	})
}

func readStructs[T any](t testing.TB, book []byte, opts xlsx.StructOptions) ([]T, error) {
	t.Helper()
	wb, err := xlsx.NewReader(bytes.NewReader(book), int64(len(book)), xlsx.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := wb.Rows(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	sr, err := xlsx.NewStructReader[T](rows, opts)
	if err != nil {
		return nil, err
	}
	var out []T
	for v, err := range sr.All() {
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

// TestStructRoundTrip writes 10,000 random values of every field kind
// and reads them back equal.
func TestStructRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	values := make([]everyKind, 10000)
	for i := range values {
		values[i] = randomValue(rng)
	}
	book := writeStructs(t, values, xlsx.StructOptions{})
	got, err := readStructs[everyKind](t, book, xlsx.StructOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(values) {
		t.Fatalf("read %d values, wrote %d", len(got), len(values))
	}
	for i := range values {
		want := values[i]
		want.Skipped, want.internal = "", ""
		// A Cell reads back as the cell that writes the same value.
		if !reflect.DeepEqual(got[i], want) {
			g, w := reflect.ValueOf(got[i]), reflect.ValueOf(want)
			for j := range g.NumField() {
				if !g.Type().Field(j).IsExported() {
					continue
				}
				if !reflect.DeepEqual(g.Field(j).Interface(), w.Field(j).Interface()) {
					t.Errorf("value %d, field %s: got %#v, want %#v", i, g.Type().Field(j).Name, g.Field(j).Interface(), w.Field(j).Interface())
				}
			}
			if t.Failed() {
				break
			}
		}
	}
}

// TestStructFile checks what the writer puts in the file: the headers
// (tag names first), typed values, the skipped and unexported fields
// left out, nil pointers as empty cells, widths and formats; and that
// openpyxl and python-calamine read it so.
func TestStructFile(t *testing.T) {
	type line struct {
		ID     int64     `xlsx:"Order ID,width=12"`
		Placed time.Time `xlsx:",date,format=dd/mm/yyyy"`
		Amount float64   `xlsx:",format=#,##0.00"`
		Note   *string   `xlsx:",omitempty"`
		Qty    int       `xlsx:",omitempty"`
		Secret string    `xlsx:"-"`
		hidden string
	}
	note := "rush"
	book := writeStructs(t, []line{
		{ID: 1, Placed: time.Date(2024, 2, 29, 13, 0, 0, 0, time.UTC), Amount: 1234.5, Note: &note, Qty: 3, Secret: "s", hidden: "h"},
		{ID: 2, Placed: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), Amount: -0.25},
	}, xlsx.StructOptions{})
	sheet := part(t, book, "xl/worksheets/sheet1.xml")
	for _, want := range []string{`<col min="1" max="1" width="12.7109375" customWidth="1"/>`, `s="1"`, `s="2"`} {
		if !strings.Contains(sheet, want) {
			t.Errorf("sheet XML lacks %s:\n%s", want, sheet)
		}
	}
	if styles := part(t, book, "xl/styles.xml"); !strings.Contains(styles, `formatCode="dd/mm/yyyy"`) || !strings.Contains(styles, `<xf numFmtId="4"`) {
		t.Errorf("styles lack the tags' formats:\n%s", styles)
	}
	if strings.Contains(sheet, "Secret") || strings.Contains(part(t, book, "xl/sharedStrings.xml"), ">s<") {
		t.Error("the skipped field was written")
	}
	pyread.Python(t)
	path := filepath.Join(t.TempDir(), "structs.xlsx")
	if err := os.WriteFile(path, book, 0o644); err != nil {
		t.Fatal(err)
	}
	res := pyread.Read(t, path)[path]
	if res.Error != "" || len(res.Audit) > 0 {
		t.Fatalf("readers: %s, audit %v", res.Error, res.Audit)
	}
	want := [][]*pyread.Value{
		{pyread.Str("Order ID"), pyread.Str("Placed"), pyread.Str("Amount"), pyread.Str("Note"), pyread.Str("Qty")},
		{pyread.Num(1), pyread.DateTime("2024-02-29T00:00:00"), pyread.Num(1234.5), pyread.Str("rush"), pyread.Num(3)},
		{pyread.Num(2), pyread.DateTime("2024-03-01T00:00:00"), pyread.Num(-0.25)},
	}
	for reader, got := range map[string][][]*pyread.Value{"openpyxl": res.Openpyxl["Data"], "calamine": res.Calamine["Data"]} {
		for r := range want {
			for c := range want[r] {
				if r >= len(got) || c >= len(got[r]) || !want[r][c].Equal(got[r][c]) {
					t.Errorf("%s: row %d col %d: got %v, want %v", reader, r+1, c+1, cellAt(got, r, c), want[r][c])
				}
			}
		}
	}
}

func cellAt(rows [][]*pyread.Value, r, c int) *pyread.Value {
	if r < len(rows) && c < len(rows[r]) {
		return rows[r][c]
	}
	return nil
}

// TestStructTagErrors reports bad types at setup, naming the field.
func TestStructTagErrors(t *testing.T) {
	type badOption struct {
		A int `xlsx:"A,bold"`
	}
	type badWidth struct {
		A int `xlsx:",width=wide"`
	}
	type noCell struct {
		Tags map[string]string
	}
	type sameHeader struct {
		OrderID int
		Order   int `xlsx:"order_id"`
	}
	type unknownStyle struct {
		A int `xlsx:",style=money"`
	}
	type dateOnText struct {
		A string `xlsx:",date"`
	}
	type nested struct {
		Inner struct{ X int }
	}
	w, err := xlsx.NewWriter(io.Discard, xlsx.Options{})
	must(t, err)
	sh := addSheet(t, w, "S", xlsx.SheetOptions{})
	for _, c := range []struct {
		field string
		make  func() error
	}{
		{"badOption.A", func() error { _, err := xlsx.NewStructWriter[badOption](sh, xlsx.StructOptions{}); return err }},
		{"badWidth.A", func() error { _, err := xlsx.NewStructWriter[badWidth](sh, xlsx.StructOptions{}); return err }},
		{"noCell.Tags", func() error { _, err := xlsx.NewStructWriter[noCell](sh, xlsx.StructOptions{}); return err }},
		{"sameHeader.Order", func() error { _, err := xlsx.NewStructWriter[sameHeader](sh, xlsx.StructOptions{}); return err }},
		{"unknownStyle.A", func() error { _, err := xlsx.NewStructWriter[unknownStyle](sh, xlsx.StructOptions{}); return err }},
		{"dateOnText.A", func() error { _, err := xlsx.NewStructWriter[dateOnText](sh, xlsx.StructOptions{}); return err }},
		{"nested.Inner", func() error { _, err := xlsx.NewStructWriter[nested](sh, xlsx.StructOptions{}); return err }},
		{"", func() error { _, err := xlsx.NewStructWriter[int](sh, xlsx.StructOptions{}); return err }},
	} {
		err := c.make()
		var fe *xlsx.FieldError
		if !errors.Is(err, xlsx.ErrStructTag) || c.field != "" && (!errors.As(err, &fe) || fe.Field != c.field || !strings.Contains(err.Error(), c.field)) {
			t.Errorf("%s: %v, want ErrStructTag naming the field", c.field, err)
		}
	}
	if sh.LastRow() != 0 {
		t.Errorf("a failed setup wrote %d rows", sh.LastRow())
	}
}

// TestStructColumns reads sheets whose columns differ from the fields:
// renamed (case, spaces, underscores), extra, missing, reordered.
func TestStructColumns(t *testing.T) {
	type order struct {
		ID     int    `xlsx:"Order ID"`
		Name   string `xlsx:"Customer"`
		Amount float64
	}
	sheet := func(rows ...[]xlsx.Cell) []byte {
		return writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
			sh, err := w.AddSheet("Orders", xlsx.SheetOptions{})
			for _, r := range rows {
				if err == nil {
					err = sh.WriteRow(r)
				}
			}
			return err
		})
	}
	s := xlsx.String
	renamedExtra := sheet(
		[]xlsx.Cell{s("amount"), s("ORDER_ID"), s("Notes"), s(" customer ")},
		[]xlsx.Cell{xlsx.Float(9.5), xlsx.Int(7), s("x"), s("Ada")},
	)
	got, err := readStructs[order](t, renamedExtra, xlsx.StructOptions{})
	if err != nil || len(got) != 1 || got[0] != (order{ID: 7, Name: "Ada", Amount: 9.5}) {
		t.Errorf("lenient, renamed and extra: %+v, %v", got, err)
	}
	if _, err := readStructs[order](t, renamedExtra, xlsx.StructOptions{Strict: true}); !errors.Is(err, xlsx.ErrUnknownColumn) || !strings.Contains(err.Error(), `cell C1 (header "Notes")`) {
		t.Errorf("strict, extra column: %v", err)
	}
	missing := sheet([]xlsx.Cell{s("Order ID"), s("Customer")}, []xlsx.Cell{xlsx.Int(1), s("Bo")})
	got, err = readStructs[order](t, missing, xlsx.StructOptions{})
	if err != nil || len(got) != 1 || got[0] != (order{ID: 1, Name: "Bo"}) {
		t.Errorf("lenient, missing column: %+v, %v", got, err)
	}
	if _, err := readStructs[order](t, missing, xlsx.StructOptions{Strict: true}); !errors.Is(err, xlsx.ErrMissingColumn) || !strings.Contains(err.Error(), "field order.Amount") {
		t.Errorf("strict, missing column: %v", err)
	}
	twice := sheet([]xlsx.Cell{s("Order ID"), s("order id")})
	if _, err := readStructs[order](t, twice, xlsx.StructOptions{}); !errors.Is(err, xlsx.ErrDuplicateColumn) {
		t.Errorf("two columns for one field: %v", err)
	}
	if _, err := readStructs[order](t, sheet(), xlsx.StructOptions{}); !errors.Is(err, xlsx.ErrMissingHeader) {
		t.Errorf("empty sheet: %v", err)
	}
	noHeader := sheet([]xlsx.Cell{xlsx.Int(3), s("Cy"), xlsx.Float(1)})
	got, err = readStructs[order](t, noHeader, xlsx.StructOptions{NoHeader: true})
	if err != nil || len(got) != 1 || got[0] != (order{ID: 3, Name: "Cy", Amount: 1}) {
		t.Errorf("no header: %+v, %v", got, err)
	}
}

// TestStructValueErrors names sheet, cell, header and field for a value
// the field cannot hold.
func TestStructValueErrors(t *testing.T) {
	type small struct {
		N     int8
		When  time.Time
		Count uint
	}
	for _, c := range []struct {
		cell xlsx.Cell
		col  string
	}{
		{xlsx.String("twelve"), "A2"}, {xlsx.Float(1.5), "A2"}, {xlsx.Int(300), "A2"},
		{xlsx.Float(45000), "B2"}, {xlsx.String("yesterday"), "B2"}, {xlsx.Int(-1), "C2"},
	} {
		row := []xlsx.Cell{xlsx.Int(1), xlsx.Time(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)), xlsx.Int(1)}
		row[int(c.col[0]-'A')] = c.cell
		book := writeBook(t, xlsx.Options{}, func(w *xlsx.Writer) error {
			sh, err := w.AddSheet("Sheet", xlsx.SheetOptions{})
			must(t, err)
			must(t, sh.WriteRow([]xlsx.Cell{xlsx.String("N"), xlsx.String("When"), xlsx.String("Count")}))
			return sh.WriteRow(row)
		})
		_, err := readStructs[small](t, book, xlsx.StructOptions{})
		var fe *xlsx.FieldError
		if !errors.Is(err, xlsx.ErrFieldValue) || !errors.As(err, &fe) || fe.Sheet != "Sheet" || xlsx.CellName(fe.Row, fe.Col) != c.col ||
			fe.Header == "" || !strings.HasPrefix(fe.Field, "small.") || !strings.Contains(err.Error(), "cell "+c.col) {
			t.Errorf("%v in %s: %v", c.cell.Value(), c.col, err)
		}
	}
	// Writing: a cell error names the header and field too.
	type long struct{ Text string }
	w, _ := xlsx.NewWriter(io.Discard, xlsx.Options{})
	sw, err := xlsx.NewStructWriter[long](addSheet(t, w, "S", xlsx.SheetOptions{}), xlsx.StructOptions{})
	must(t, err)
	err = sw.Write(long{Text: strings.Repeat("x", 40000)})
	var fe *xlsx.FieldError
	if !errors.Is(err, xlsx.ErrCellTooLong) || !errors.As(err, &fe) || fe.Field != "long.Text" || fe.Row != 2 || fe.Col != 1 {
		t.Errorf("long text: %v", err)
	}
}

// TestStructEmbeddedPointer leaves a nil embedded pointer's columns
// empty, and allocates it on read only when one of them has a value.
func TestStructEmbeddedPointer(t *testing.T) {
	type row struct {
		ID int
		*Shipping
	}
	w := 2.5
	book := writeStructs(t, []row{{ID: 1}, {ID: 2, Shipping: &Shipping{Carrier: "DHL", Weight: &w}}, {ID: 3, Shipping: &Shipping{}}}, xlsx.StructOptions{})
	got, err := readStructs[row](t, book, xlsx.StructOptions{Strict: true})
	if err != nil || len(got) != 3 {
		t.Fatalf("%+v, %v", got, err)
	}
	if got[0].Shipping != nil || got[1].Shipping == nil || got[1].Carrier != "DHL" || *got[1].Weight != 2.5 {
		t.Errorf("got %+v %+v", got[0], got[1])
	}
	// An empty Shipping writes an empty string for Carrier: the pointer
	// comes back, holding the same.
	if got[2].Shipping == nil || got[2].Carrier != "" || got[2].Weight != nil {
		t.Errorf("got %+v", got[2])
	}
}

// mixedFields are BenchmarkWriteRow's ten mixed cells as a struct.
type mixedFields struct {
	ID, Seq    int64
	Ratio, Pct float64
	Name, City string
	Flag       bool
	At         time.Time
	Day        time.Time `xlsx:",date"`
	N          uint32
}

// mixedStruct is mixedRow's i-th row as a struct.
func mixedStruct(i int, names []string, base time.Time) mixedFields {
	return mixedFields{ID: int64(i), Seq: int64(i * 7 % 100000), Ratio: float64(i)*1.25 + 0.5, Pct: float64(i%10000) / 100,
		Name: names[i%1000], City: names[(i*7)%1000], Flag: i%2 == 0, At: base.Add(time.Duration(i) * time.Second), Day: base, N: uint32(i)}
}

// BenchmarkStructWriter writes BenchmarkWriteRow's ten mixed cells from
// a struct, for comparison with building the cells by hand.
func BenchmarkStructWriter(b *testing.B) {
	w, err := xlsx.NewWriter(io.Discard, xlsx.Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	sh, err := w.AddSheet("Bench", xlsx.SheetOptions{})
	if err != nil {
		b.Fatal(err)
	}
	sw, err := xlsx.NewStructWriter[mixedFields](sh, xlsx.StructOptions{})
	if err != nil {
		b.Fatal(err)
	}
	names, base := mixedVocabulary()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if i%(xlsx.MaxRows-2) == 0 && i > 0 {
			if sh, err = w.AddSheet(fmt.Sprintf("Bench%d", i), xlsx.SheetOptions{}); err != nil {
				b.Fatal(err)
			}
			if sw, err = xlsx.NewStructWriter[mixedFields](sh, xlsx.StructOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		v := mixedStruct(i, names, base)
		if err := sw.Write(v); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*10), "ns/cell")
}

// BenchmarkStructReader decodes rows of the same ten fields; the two
// strings are the allocations a row must make.
func BenchmarkStructReader(b *testing.B) {
	names, base := mixedVocabulary()
	values := make([]mixedFields, 100000)
	for i := range values {
		values[i] = mixedStruct(i, names, base)
	}
	book := writeStructs(b, values, xlsx.StructOptions{})
	b.ReportAllocs()
	for b.Loop() {
		wb, err := xlsx.NewReader(bytes.NewReader(book), int64(len(book)), xlsx.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		rows, _ := wb.Rows(context.Background(), 0)
		sr, err := xlsx.NewStructReader[mixedFields](rows, xlsx.StructOptions{Strict: true})
		if err != nil {
			b.Fatal(err)
		}
		var v mixedFields
		n := 0
		for {
			if err := sr.Decode(&v); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
			n++
		}
		rows.Close()
		if n != len(values) {
			b.Fatalf("%d rows", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(values)), "ns/row")
}

// TestStructPreciseDecimal writes a decimal a double cannot hold as text,
// which keeps every digit, and reads it back whole.
func TestStructPreciseDecimal(t *testing.T) {
	type amount struct {
		Value Decimal
		Text  string `xlsx:",decimal"`
	}
	in := []amount{
		{Decimal{"12345678901234567890.123"}, "0.5"},
		{Decimal{"1250.75"}, "99999999999999999999"},
	}
	book := writeStructs(t, in, xlsx.StructOptions{})
	sheet := part(t, book, "xl/worksheets/sheet1.xml")
	if !strings.Contains(sheet, "<v>1250.75</v>") || !strings.Contains(sheet, "<v>0.5</v>") {
		t.Errorf("plain decimals are not numbers:\n%s", sheet)
	}
	got, err := readStructs[amount](t, book, xlsx.StructOptions{Strict: true})
	if err != nil || !slices.Equal(got, in) {
		t.Errorf("read back %+v, %v", got, err)
	}
}
