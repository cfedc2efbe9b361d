//go:build lite

package main

import (
	"context"
	"errors"
	"io"

	"github.com/sheetstream/sheetstream/csvsheet"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// The lite build leaves out Arrow and Parquet with the service: their
// libraries' start (protobuf's descriptors among them) costs every
// command about 4 MiB (bench/RESULTS.md, M3 and M4). Conversions to and
// from them say where they are.

var errNoColumnar = errors.New("this sheetstream is built without Arrow and Parquet (-tags lite): .parquet, .arrow and .feather need the full build (go build ./cmd/sheetstream), as sheetstream-full beside this one or on PATH, or named by $SHEETSTREAM_FULL")

func workbookToColumnar(context.Context, string, string, string, bool, io.Reader, *password) error {
	return errNoColumnar
}

func parquetToXLSX(string, string, *convertFlags) error { return errNoColumnar }
func arrowToXLSX(string, string, *convertFlags) error   { return errNoColumnar }

func writeColumnar(string, string, func(csvsheet.RowSink) error) error { return errNoColumnar }

func parquetSource(string) (sqlsheet.Source, func() error, error) { return nil, nil, errNoColumnar }

// columnarDestination refuses the export before its first row: the
// output is then removed.
func columnarDestination(io.Writer, string) (sqlsheet.Destination, func(error) error) {
	return noColumnar{}, func(error) error { return nil }
}

type noColumnar struct{}

func (noColumnar) AddStyle(xlsx.Style) (xlsx.StyleID, error) { return 0, nil }
func (noColumnar) Begin(*sqlsheet.Table) error               { return errNoColumnar }
func (noColumnar) WriteRow([]xlsx.Cell) error                { return errNoColumnar }
func (noColumnar) End() error                                { return errNoColumnar }
