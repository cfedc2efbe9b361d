//go:build !lite

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/sheetstream/sheetstream/arrowsheet"
	"github.com/sheetstream/sheetstream/parquetsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// Arrow IPC files: the file format (.arrow, .feather: Feather version 2
// is this format) and the stream format (.arrows), both ways, a record
// batch at a time.

// workbookToColumnar writes one sheet of a workbook as a Parquet or
// Arrow file, each column typed as arrowsheet's mapping says, a batch of
// 16,384 rows at a time (a command's memory stays near a sheet's). With
// widen, the sheet is read through first for the types that hold every
// cell (arrowsheet.WidenedTypes): a file, not standard input.
func workbookToColumnar(ctx context.Context, in, out, sheet string, widen bool, stdin io.Reader, pw *password) error {
	opts := arrowsheet.ReadOptions{BatchRows: 16384}
	if widen {
		if in == "-" {
			return fmt.Errorf("--widen reads the workbook twice: give a file, not standard input")
		}
		types, err := arrowsheet.WidenedTypes(func() (*xlsx.Rows, string, func(), error) {
			return openSheetRows(ctx, in, sheet, stdin, pw)
		}, opts)
		if err != nil {
			return fmt.Errorf("%s: %w", inputName(in), err)
		}
		opts.Types = types
	}
	rows, name, done, err := openSheetRows(ctx, in, sheet, stdin, pw)
	if err != nil {
		return err
	}
	defer done()
	r, err := arrowsheet.NewReader(rows, name, opts)
	if err != nil {
		return fmt.Errorf("%s: %w", inputName(in), err)
	}
	defer r.Release()
	o, err := createOutput(out)
	if err != nil {
		return err
	}
	var n int64
	if isParquet(out) {
		n, err = parquetsheet.Write(o.Writer(), r)
	} else {
		n, err = writeArrow(o.Writer(), arrowFormat(out), r)
	}
	if err != nil {
		o.abort()
		return fmt.Errorf("%s: %w", inputName(in), err)
	}
	if err := o.commit(); err != nil {
		return err
	}
	if out != "-" {
		var types []string
		for _, f := range r.Schema().Fields() {
			types = append(types, f.Name+" "+f.Type.String())
		}
		fmt.Fprintf(os.Stderr, "wrote %s: %d rows from sheet %q (%s)\n", out, n, name, strings.Join(types, ", "))
	}
	return nil
}

// writeArrow writes r's batches in format ("file" or "stream").
func writeArrow(w io.Writer, format string, r array.RecordReader) (int64, error) {
	var put interface {
		Write(arrow.RecordBatch) error
		Close() error
	}
	if format == "stream" {
		put = ipc.NewWriter(w, ipc.WithSchema(r.Schema()))
	} else {
		fw, err := ipc.NewFileWriter(w, ipc.WithSchema(r.Schema()))
		if err != nil {
			return 0, err
		}
		put = fw
	}
	var n int64
	for r.Next() {
		if err := put.Write(r.RecordBatch()); err != nil {
			return n, err
		}
		n += r.RecordBatch().NumRows()
	}
	if err := r.Err(); err != nil {
		return n, err
	}
	return n, put.Close()
}

// arrowToXLSX writes an Arrow file's record batches to a sheet of a new
// workbook, laid out as export lays one out.
func arrowToXLSX(in, out string, f *convertFlags) error {
	file, err := os.Open(in)
	if err != nil {
		return err
	}
	defer file.Close()
	var r array.RecordReader
	if arrowFormat(in) == "stream" {
		sr, err := ipc.NewReader(file)
		if err != nil {
			return fmt.Errorf("%s: not an Arrow stream: %w", in, err)
		}
		defer sr.Release()
		r = sr
	} else {
		fr, err := ipc.NewFileReader(file)
		if err != nil {
			return fmt.Errorf("%s: not an Arrow file: %w", in, err)
		}
		defer fr.Close()
		r = &fileBatches{f: fr}
	}
	return tableToXLSX(in, out, f, func(w *xlsx.Writer, sheet string) (int64, error) {
		aw, err := arrowsheet.NewWriter(w, r.Schema(), arrowsheet.WriteOptions{Sheet: sheet, ExcelTable: f.excelTable})
		if err != nil {
			return 0, err
		}
		for r.Next() {
			if err := aw.Write(r.RecordBatch()); err != nil {
				return aw.Rows(), err
			}
		}
		if err := r.Err(); err != nil {
			return aw.Rows(), err
		}
		return aw.Rows(), aw.Close()
	})
}

// tableToXLSX writes a Parquet or Arrow file's table, which fill writes,
// to the sheet of a new workbook named after the file (or --sheet),
// encrypted if the flags ask.
func tableToXLSX(in, out string, f *convertFlags, fill func(w *xlsx.Writer, sheet string) (int64, error)) error {
	sheet := f.sheet
	if sheet == "" {
		sheet = strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
		if xlsx.CheckSheetName(sheet) != nil {
			sheet = "Sheet1"
		}
	}
	secret, err := f.pw.forWriting()
	if err != nil {
		return err
	}
	var rows int64
	err = writeWorkbook(out, xlsx.Options{Password: secret}, func(w *xlsx.Writer) error {
		var err error
		rows, err = fill(w, sheet)
		return err
	})
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	if out != "-" {
		fmt.Fprintf(os.Stderr, "wrote %s: %d rows under a header in sheet %q\n", out, rows, sheet)
	}
	return nil
}

// fileBatches reads an Arrow file's batches in order, one in memory at
// a time: an array.RecordReader.
type fileBatches struct {
	f   *ipc.FileReader
	i   int
	cur arrow.RecordBatch
	err error
}

func (b *fileBatches) Retain()               {}
func (b *fileBatches) Release()              { b.drop() }
func (b *fileBatches) Schema() *arrow.Schema { return b.f.Schema() }
func (b *fileBatches) Err() error            { return b.err }

func (b *fileBatches) RecordBatch() arrow.RecordBatch { return b.cur }

// Record is RecordBatch.
//
// Deprecated: as array.RecordReader's.
func (b *fileBatches) Record() arrow.RecordBatch { return b.cur }

func (b *fileBatches) drop() {
	if b.cur != nil {
		b.cur.Release()
		b.cur = nil
	}
}

func (b *fileBatches) Next() bool {
	b.drop()
	if b.err != nil || b.i >= b.f.NumRecords() {
		return false
	}
	b.cur, b.err = b.f.RecordBatchAt(b.i)
	b.i++
	return b.err == nil
}
