package parquetsheet

import (
	"context"
	"io"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Source is a Parquet file as rows for an import (a sqlsheet.Source): a
// header row of the column names, then the file's rows as cells. It
// reads the file from its start each time it is asked.
type Source struct {
	r    io.ReaderAt
	size int64
	name string
}

// NewSource is the Parquet file in r (size bytes), named name in errors.
// It checks the file as NewReader does.
func NewSource(r io.ReaderAt, size int64, name string) (*Source, error) {
	pr, err := NewReader(r, size)
	if err != nil {
		return nil, err
	}
	pr.Close()
	return &Source{r: r, size: size, name: name}, nil
}

// SheetName names the rows in errors.
func (s *Source) SheetName() string { return s.name }

// EachRow calls fn with the header row and then every row, until the
// rows end or fn returns an error. Cells are valid during the call.
func (s *Source) EachRow(ctx context.Context, fn func(xlsx.Row) error) error {
	pr, err := NewReader(s.r, s.size)
	if err != nil {
		return err
	}
	defer pr.Close()
	header := make([]xlsx.Value, len(pr.Header()))
	for i, name := range pr.Header() {
		c := xlsx.String(name)
		header[i].SetCell(i+1, &c)
	}
	if err := fn(xlsx.Row{Num: 1, Cells: header}); err != nil {
		return err
	}
	var values []xlsx.Value
	for num := 2; pr.Next(); num++ {
		if num%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		values = values[:0]
		for i, c := range pr.Cells() {
			if !c.IsEmpty() {
				values = append(values, xlsx.Value{})
				values[len(values)-1].SetCell(i+1, &c)
			}
		}
		if err := fn(xlsx.Row{Num: num, Cells: values}); err != nil {
			return err
		}
	}
	return pr.Err()
}
