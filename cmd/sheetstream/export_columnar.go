package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/sheetstream/sheetstream/arrowsheet"
	"github.com/sheetstream/sheetstream/parquetsheet"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// writeColumnarExport writes one query's rows to out as Parquet or Arrow:
// the typed cells the export makes of the database's values (numbers,
// dates, timestamps, booleans, text; never their text), batched by
// arrowsheet with each column typed from its first 1,000 values.
func writeColumnarExport(ctx context.Context, db *sql.DB, q sqlsheet.Query, out, format string, opts sqlsheet.Options) error {
	start := time.Now()
	o, err := createOutput(out)
	if err != nil {
		return err
	}
	dst := &columnar{format: format, w: o.Writer()}
	st, err := sqlsheet.ExportTo(ctx, db, dst, []sqlsheet.Query{q}, opts)
	if err != nil {
		o.abort()
		return err
	}
	if err := o.commit(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s: %d rows as %s in %.2fs\n", outputWhere(out), st.Rows, strings.ToUpper(format), time.Since(start).Seconds())
	return nil
}

// columnar is export's sqlsheet.Destination for Parquet and Arrow files.
type columnar struct {
	format string
	w      io.Writer
	b      *arrowsheet.Batcher
	file   interface {
		Write(arrow.RecordBatch) error
		Close() error
	}
}

func (c *columnar) AddStyle(xlsx.Style) (xlsx.StyleID, error) { return 0, nil }

func (c *columnar) Begin(t *sqlsheet.Table) error {
	if c.b != nil {
		return fmt.Errorf("a %s file holds one query's rows", c.format)
	}
	names := make([]string, len(t.Columns))
	for i, col := range t.Columns {
		names[i] = col.Name
	}
	c.b = arrowsheet.NewBatcher(t.Name, names, arrowsheet.ReadOptions{BatchRows: 16384}, c.write)
	return nil
}

func (c *columnar) WriteRow(cells []xlsx.Cell) error { return c.b.Add(cells) }

// write writes a batch, opening the file at the first.
func (c *columnar) write(rec arrow.RecordBatch) error {
	if err := c.open(rec.Schema()); err != nil {
		return err
	}
	return c.file.Write(rec)
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
	if err := c.b.Close(); err != nil {
		return err
	}
	if err := c.open(c.b.Schema()); err != nil { // a query without rows
		return err
	}
	return c.file.Close()
}
