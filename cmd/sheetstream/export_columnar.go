//go:build !lite

package main

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/sheetstream/sheetstream/arrowsheet"
	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/parquetsheet"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// columnar is export's sqlsheet.Destination for Parquet and Arrow files:
// the typed cells the export makes of the database's values (numbers,
// dates, timestamps, booleans, text; never their text), batched by
// arrowsheet with each column typed from its first 1,000 values.
// The file is written on a goroutine of its own, a batch behind the rows
// being typed: encoding and compressing the columns overlaps reading and
// typing them, as deflate does for a workbook.
type columnar struct {
	format string
	w      io.Writer
	b      *arrowsheet.Batcher
	file   interface {
		Write(arrow.RecordBatch) error
		Close() error
	}
	batches chan arrow.RecordBatch // to the writing goroutine
	done    chan error             // its first error, when batches closes
}

// columnarDestination is export's destination of a Parquet or Arrow
// file, and what finishes it.
func columnarDestination(w io.Writer, format string) (sqlsheet.Destination, func(error) error) {
	c := &columnar{format: format, w: w}
	return c, func(error) error { return c.wait() } // End has waited, unless the export failed
}

func (c *columnar) AddStyle(xlsx.Style) (xlsx.StyleID, error) { return 0, nil }

func (c *columnar) Begin(t *sqlsheet.Table) error {
	names := make([]string, len(t.Columns))
	for i, col := range t.Columns {
		names[i] = col.Name
	}
	return c.start(t.Name, names)
}

// start begins the file's one table, of columns named names.
func (c *columnar) start(table string, names []string) error {
	if c.b != nil {
		return fmt.Errorf("a %s file holds one table", c.format)
	}
	c.b = arrowsheet.NewBatcher(table, names, arrowsheet.ReadOptions{BatchRows: 16384}, c.write)
	return nil
}

// writeColumnar writes a Parquet or Arrow file at path from what fill
// writes to its sink; nothing is left under the name on failure.
func writeColumnar(path, format string, fill func(csvsheet.RowSink) error) error {
	o, err := createOutput(path)
	if err != nil {
		return err
	}
	c := &columnar{format: format, w: o.Writer()}
	if err := fill(&textColumnar{c: c}); err != nil {
		c.wait()
		o.abort()
		return err
	}
	return o.commit()
}

// textColumnar is a csvsheet.RowSink into a columnar file: delimited
// text's typed rows.
type textColumnar struct{ c *columnar }

func (t *textColumnar) AddStyle(xlsx.Style) (xlsx.StyleID, error) { return 0, nil }
func (t *textColumnar) End() error                                { return t.c.End() }

func (t *textColumnar) Begin(header []string) error {
	if header == nil {
		return nil // named A, B, C... by the first row's width
	}
	return t.c.start("", header)
}

func (t *textColumnar) WriteRow(cells []xlsx.Cell) error {
	if t.c.b == nil {
		names := make([]string, len(cells))
		for i := range names {
			names[i] = xlsx.ColumnName(i + 1)
		}
		if err := t.c.start("", names); err != nil {
			return err
		}
	}
	// Text that is not UTF-8 is refused as a workbook refuses it
	// (xlsx.ErrInvalidUTF8), which ConvertTo says is the CSV's encoding.
	return t.c.b.Add(cells)
}

func (c *columnar) WriteRow(cells []xlsx.Cell) error { return c.b.Add(cells) }

// write hands a batch to the writing goroutine, opening the file and
// starting the goroutine at the first.
func (c *columnar) write(rec arrow.RecordBatch) error {
	if err := c.open(rec.Schema()); err != nil {
		return err
	}
	if c.batches == nil {
		c.batches, c.done = make(chan arrow.RecordBatch, 2), make(chan error, 1)
		go func() {
			var err error
			for rec := range c.batches {
				if err == nil {
					err = c.file.Write(rec)
				}
				rec.Release()
			}
			c.done <- err
		}()
	}
	rec.Retain()
	c.batches <- rec
	return nil
}

// wait ends the writing goroutine and returns its error.
func (c *columnar) wait() error {
	if c.batches == nil {
		return nil
	}
	close(c.batches)
	err := <-c.done
	c.batches = nil
	return err
}

func (c *columnar) open(schema *arrow.Schema) error {
	if c.file != nil {
		return nil
	}
	var err error
	if c.format == "parquet" {
		c.file, err = parquetsheet.NewWriter(c.w, schema)
	} else {
		c.file, err = ipc.NewFileWriter(c.w, ipc.WithSchema(schema))
	}
	return err
}

func (c *columnar) End() error {
	err := c.b.Close()
	if werr := c.wait(); err == nil {
		err = werr
	}
	if err != nil {
		return err
	}
	if err := c.open(c.b.Schema()); err != nil { // a table without rows
		return err
	}
	return c.file.Close()
}
