// Command lib is the shared library of the Python package sheetstream
// (python/), built with
//
//	go build -buildmode=c-shared -o python/sheetstream/_sheetstream.so ./python/lib
//
// Its functions take plain C values and the address of an
// ArrowArrayStream (the Arrow C stream interface): rows cross into Python
// as Arrow record batches, never as a value per cell. Each returns NULL
// on success or an error message the caller frees with ss_free.
package main

/*
#include <stdint.h>
#include <stdlib.h>
*/
import "C"

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/cdata"

	"github.com/sheetstream/sheetstream/arrowsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

func main() {}

// fail is an error for the caller, in C memory.
func fail(err error) *C.char {
	if err == nil {
		return nil
	}
	return C.CString(err.Error())
}

//export ss_free
func ss_free(p *C.char) { C.free(unsafe.Pointer(p)) }

// source is where a workbook comes from: a path, or bytes (copied: the
// caller's buffer is theirs).
type source struct {
	path string
	data []byte
}

func sourceOf(path *C.char, data unsafe.Pointer, size C.int64_t) source {
	if data != nil {
		return source{path: "<bytes>", data: C.GoBytes(data, C.int(size))}
	}
	return source{path: C.GoString(path)}
}

func (s source) open(password string) (*xlsx.Workbook, error) {
	opts := xlsx.ReadOptions{Password: password}
	if s.data != nil {
		return xlsx.NewReader(bytes.NewReader(s.data), int64(len(s.data)), opts)
	}
	return xlsx.Open(s.path, opts)
}

// readRequest is read's options, as the Python package passes them.
type readRequest struct {
	Sheet      *string           `json:"sheet"` // a name, or nil for Index
	Index      int               `json:"index"`
	HeaderRow  *int              `json:"header_row"` // nil: no header
	SkipRows   int               `json:"skip_rows"`
	NRows      int64             `json:"n_rows"`
	BatchSize  int               `json:"batch_size"`
	Password   string            `json:"password"`
	Types      map[string]string `json:"dtypes"`
	SampleRows int               `json:"sample_rows"`
	Widen      bool              `json:"widen"` // misfits widen their columns (a read of the sheet first)
}

var typeNames = map[string]arrow.DataType{
	"int64": arrow.PrimitiveTypes.Int64, "float64": arrow.PrimitiveTypes.Float64, "string": arrow.BinaryTypes.String,
	"bool": arrow.FixedWidthTypes.Boolean, "date32": arrow.FixedWidthTypes.Date32, "timestamp": arrowsheet.Timestamp,
	"time64": arrow.FixedWidthTypes.Time64us, "duration": arrow.FixedWidthTypes.Duration_us,
}

// ss_read opens a sheet and exports its rows as an ArrowArrayStream into
// the caller's struct at out.
//
//export ss_read
func ss_read(path *C.char, data unsafe.Pointer, size C.int64_t, request *C.char, out unsafe.Pointer) *C.char {
	src := sourceOf(path, data, size)
	var req readRequest
	if err := json.Unmarshal([]byte(C.GoString(request)), &req); err != nil {
		return fail(err)
	}
	r, err := openSheet(src, req)
	if err != nil {
		return fail(err)
	}
	cdata.ExportRecordReader(r, (*cdata.CArrowArrayStream)(out))
	return nil
}

// sheetReader is an arrowsheet.Reader that closes its workbook when the
// stream is released.
type sheetReader struct {
	*arrowsheet.Reader
	refs  int
	close func()
}

func (s *sheetReader) Retain() { s.refs++; s.Reader.Retain() }
func (s *sheetReader) Release() {
	s.refs--
	s.Reader.Release()
	if s.refs == 0 {
		s.close()
	}
}

func openSheet(src source, req readRequest) (array.RecordReader, error) {
	// As fastexcel: header_row is the header's row (0-based; None: no
	// header), skip_rows the rows left out under it.
	opts := arrowsheet.ReadOptions{SkipDataRows: req.SkipRows, MaxRows: req.NRows, BatchRows: req.BatchSize, SampleRows: req.SampleRows}
	if req.HeaderRow == nil {
		opts.NoHeader = true
	} else {
		opts.SkipRows = *req.HeaderRow
	}
	for name, t := range req.Types {
		typ, ok := typeNames[t]
		if !ok {
			return nil, fmt.Errorf("dtypes[%q]: %q is not one of int64, float64, string, bool, date32, timestamp, time64, duration", name, t)
		}
		if opts.Types == nil {
			opts.Types = map[string]arrow.DataType{}
		}
		opts.Types[name] = typ
	}
	rows, name, done, err := sheetRows(src, req)
	if err != nil {
		return nil, err
	}
	if req.Widen {
		first := true
		types, err := arrowsheet.WidenedTypes(func() (*xlsx.Rows, string, func(), error) {
			if first { // the rows already open
				first = false
				return rows, name, done, nil
			}
			return sheetRows(src, req)
		}, opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src.path, err)
		}
		opts.Types = types
		if rows, name, done, err = sheetRows(src, req); err != nil {
			return nil, err
		}
	}
	r, err := arrowsheet.NewReader(rows, name, opts)
	if err != nil {
		done()
		return nil, fmt.Errorf("%s: %w", src.path, err)
	}
	return &sheetReader{Reader: r, refs: 1, close: done}, nil
}

// sheetRows opens the request's sheet: its rows, its name, and a
// function that closes them and the workbook.
func sheetRows(src source, req readRequest) (*xlsx.Rows, string, func(), error) {
	wb, err := src.open(req.Password)
	if err != nil {
		return nil, "", nil, fmt.Errorf("%s: %w", src.path, err)
	}
	index := req.Index
	sheets := wb.Sheets()
	if req.Sheet != nil {
		index = -1
		for i, s := range sheets {
			if s.Name == *req.Sheet {
				index = i
			}
		}
		if index < 0 {
			wb.Close()
			return nil, "", nil, fmt.Errorf("%s: no sheet named %q (%s)", src.path, *req.Sheet, sheetList(sheets))
		}
	}
	if index < 0 || index >= len(sheets) {
		wb.Close()
		return nil, "", nil, fmt.Errorf("%s: no sheet %d: it has %d (%s)", src.path, index, len(sheets), sheetList(sheets))
	}
	rows, err := wb.Rows(context.Background(), index)
	if err != nil {
		wb.Close()
		return nil, "", nil, fmt.Errorf("%s: %w", src.path, err)
	}
	return rows, sheets[index].Name, func() { rows.Close(); wb.Close() }, nil
}

func sheetList(sheets []xlsx.SheetInfo) string {
	var b []byte
	for i, s := range sheets {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendQuote(b, s.Name)
	}
	return string(b)
}

// ss_sheet_names writes the workbook's sheet names as a JSON list into
// *names (freed with ss_free).
//
//export ss_sheet_names
func ss_sheet_names(path *C.char, data unsafe.Pointer, size C.int64_t, password *C.char, names **C.char) *C.char {
	src := sourceOf(path, data, size)
	wb, err := src.open(C.GoString(password))
	if err != nil {
		return fail(fmt.Errorf("%s: %w", src.path, err))
	}
	defer wb.Close()
	list := []string{}
	for _, s := range wb.Sheets() {
		list = append(list, s.Name)
	}
	b, _ := json.Marshal(list)
	*names = C.CString(string(b))
	return nil
}

// writeRequest is write's options.
type writeRequest struct {
	Sheets   []string `json:"sheets"`
	Table    bool     `json:"table"`
	Autofit  bool     `json:"autofit"`
	Freeze   bool     `json:"freeze_header"`
	Password string   `json:"password"`
}

// ss_write writes n ArrowArrayStreams (the addresses at streams), each
// to the sheet of the same index in the request, into the workbook at
// path. The streams are consumed (moved) whatever happens.
//
//export ss_write
func ss_write(path *C.char, streams *unsafe.Pointer, n C.int, request *C.char, written *C.int64_t) *C.char {
	addrs := unsafe.Slice(streams, int(n))
	readers := make([]array.RecordReader, len(addrs))
	defer func() {
		for _, r := range readers {
			if r != nil {
				r.Release()
			}
		}
	}()
	for i, a := range addrs {
		r, err := cdata.ImportCRecordReader((*cdata.CArrowArrayStream)(a), nil)
		if err != nil {
			return fail(err)
		}
		readers[i] = r.(array.RecordReader)
	}
	var req writeRequest
	if err := json.Unmarshal([]byte(C.GoString(request)), &req); err != nil {
		return fail(err)
	}
	if len(req.Sheets) != len(readers) {
		return fail(errors.New("one sheet name a stream"))
	}
	rows, err := writeBook(C.GoString(path), readers, req)
	*written = C.int64_t(rows)
	return fail(err)
}

func writeBook(path string, readers []array.RecordReader, req writeRequest) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w, err := xlsx.NewWriter(f, xlsx.Options{Password: req.Password})
	if err != nil {
		f.Close()
		os.Remove(path)
		return 0, err
	}
	fit := 0
	if !req.Autofit {
		fit = -1
	}
	var rows int64
	err = func() error {
		for i, r := range readers {
			aw, err := arrowsheet.NewWriter(w, r.Schema(), arrowsheet.WriteOptions{Sheet: req.Sheets[i], ExcelTable: req.Table, FitRows: fit, NoFreeze: !req.Freeze})
			if err != nil {
				return fmt.Errorf("sheet %q: %w", req.Sheets[i], err)
			}
			for r.Next() {
				if err := aw.Write(r.RecordBatch()); err != nil {
					return fmt.Errorf("sheet %q: %w", req.Sheets[i], err)
				}
			}
			if err := r.Err(); err != nil {
				return fmt.Errorf("sheet %q: %w", req.Sheets[i], err)
			}
			if err := aw.Close(); err != nil {
				return err
			}
			rows += aw.Rows()
		}
		return w.Close()
	}()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		w.Abort()
		os.Remove(path) // nothing half written is left under the name
		return rows, err
	}
	return rows, nil
}
