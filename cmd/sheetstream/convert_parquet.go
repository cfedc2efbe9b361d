//go:build !lite

package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sheetstream/sheetstream/parquetsheet"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// parquetSource opens a Parquet file for import, which reads it twice
// (types, then rows).
func parquetSource(path string) (sqlsheet.Source, func() error, error) {
	if path == "-" {
		return nil, nil, fmt.Errorf("a Parquet file is read from a file, not standard input (its footer comes last)")
	}
	file, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	info, err := file.Stat()
	if err != nil {
		file.Close()
		return nil, nil, err
	}
	src, err := parquetsheet.NewSource(file, info.Size(), filepath.Base(path))
	if err != nil {
		file.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return src, file.Close, nil
}

// parquetToXLSX writes a Parquet file's rows to a sheet of a new
// workbook, laid out as export lays one out, a row group at a time.
func parquetToXLSX(in, out string, f *convertFlags) error {
	file, err := os.Open(in)
	if err != nil {
		return err
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return err
	}
	pr, err := parquetsheet.NewReader(file, info.Size())
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	defer pr.Close()
	return tableToXLSX(in, out, f, func(w *xlsx.Writer, sheet string) (int64, error) {
		t, err := w.AddTableSheets(xlsx.TableSheetsOptions{Name: sheet, Header: pr.Header(), ExcelTable: f.excelTable})
		if err != nil {
			return 0, err
		}
		var rows int64
		for pr.Next() {
			if err := t.WriteRow(pr.Cells()); err != nil {
				return rows, err
			}
			rows++
		}
		if err := pr.Err(); err != nil {
			return rows, err
		}
		return rows, t.Close()
	})
}
