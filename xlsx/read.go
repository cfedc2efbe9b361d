package xlsx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/zip"

	"github.com/sheetstream/sheetstream/internal/cfb"
	"github.com/sheetstream/sheetstream/internal/offcrypto"
)

// Limits bound what a workbook may make the reader do, so that a hostile
// file fails with ErrLimit instead of exhausting memory or time. A zero
// field takes its default.
type Limits struct {
	// MaxTotalSize caps the decompressed bytes read from the package, all
	// parts together. Default 16 GiB.
	MaxTotalSize int64
	// MaxRatio caps an entry's declared decompressed size over its
	// compressed size, for entries over 1 MiB. Default 1000 — deflate
	// cannot exceed about 1032, so this mainly stops stored-size lies;
	// lower it for untrusted uploads.
	MaxRatio int64
	// MaxPartSize caps a part that is read whole (workbook, styles,
	// relationships, properties). Default 64 MiB.
	MaxPartSize int64
	// MaxDepth caps XML nesting. Default 128.
	MaxDepth int
	// MaxStringSize caps one string, in bytes of UTF-8. Default 1 MiB
	// (Excel's own limit is 32,767 characters).
	MaxStringSize int
	// MaxSharedStrings caps the count of shared strings. Default 1<<25.
	MaxSharedStrings int
	// MaxSharedStringsSize caps the shared string table's text in bytes,
	// which the reader holds in memory. Default 1 GiB.
	MaxSharedStringsSize int64
	// MaxRowSize caps the XML of one row, in bytes. Default 64 MiB.
	MaxRowSize int
	// MaxMergedCells caps the merged ranges of one sheet, which the
	// reader collects. Default 1<<18.
	MaxMergedCells int
	// MaxHyperlinks caps the hyperlinks of one sheet, which the reader
	// collects. Default 65,530 (Excel's own limit).
	MaxHyperlinks int
	// MaxRepeatedCells caps the cells an .ods sheet makes by repeating
	// rows and cells that hold values (a repeat count is a few bytes of
	// XML, its cells are not). Default 1<<26.
	MaxRepeatedCells int64
}

func (l Limits) withDefaults() Limits {
	def := func(v *int64, d int64) {
		if *v <= 0 {
			*v = d
		}
	}
	defInt := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxTotalSize, 16<<30)
	def(&l.MaxRatio, 1000)
	def(&l.MaxPartSize, 64<<20)
	defInt(&l.MaxDepth, 128)
	defInt(&l.MaxStringSize, 1<<20)
	defInt(&l.MaxSharedStrings, 1<<25)
	def(&l.MaxSharedStringsSize, 1<<30)
	defInt(&l.MaxRowSize, 64<<20)
	defInt(&l.MaxMergedCells, 1<<18)
	defInt(&l.MaxHyperlinks, 65530)
	def(&l.MaxRepeatedCells, 1<<26)
	return l
}

// ReadOptions configure Open and NewReader. The zero value is safe.
type ReadOptions struct {
	// Workers is the number of goroutines that parse one sheet's XML while
	// another inflates it; 0 means GOMAXPROCS. Each sheet being read has
	// its own.
	Workers int
	// ChunkSize is the size of the XML chunks handed to workers; 0 means
	// 192 KiB (measured on W1: 256 KiB took 3.5 MiB more at the same
	// speed, 128 KiB 2 MiB less but 5% more time).
	ChunkSize int
	Limits    Limits
	// Password opens a password-protected (encrypted) workbook: ECMA-376
	// Agile encryption, as Excel 2010 and later write it, or Standard
	// encryption, as Excel 2007 does. The package is decrypted where it
	// is read, a few 4 KiB segments at a time. Without it such a workbook
	// fails with ErrEncrypted. (Sheet and workbook protection, which hides
	// nothing, needs no password to read.)
	Password string
}

// Format is a workbook's file format, as Open finds it from the bytes
// whatever the file's name.
type Format uint8

const (
	FormatXLSX Format = iota // Office Open XML: .xlsx, .xlsm, .xltx, Strict or Transitional
	FormatXLSB               // Excel binary workbook (BIFF12 records in the same package)
	FormatXLS                // Excel 97-2003 (BIFF8) or Excel 5.0/95 (BIFF5)
	FormatODS                // OpenDocument spreadsheet
)

func (f Format) String() string {
	switch f {
	case FormatXLSB:
		return "xlsb"
	case FormatXLS:
		return "xls"
	case FormatODS:
		return "ods"
	}
	return "xlsx"
}

// SheetInfo describes one sheet as the workbook lists it.
type SheetInfo struct {
	Index int // 0-based position in the workbook
	Name  string
	State SheetState
	Kind  SheetKind
	Part  string // the package part holding the sheet; "" when missing
}

// Workbook is an XLSX package opened for reading. Its methods are safe for
// concurrent use, and several sheets may be read at the same time.
type Workbook struct {
	file   string
	zr     *zip.Reader
	closer io.Closer
	parts  map[string]*zip.File // by lower-cased normalized name
	dups   map[string]bool
	opts   ReadOptions
	limits Limits
	total  atomic.Int64

	format       Format
	xls          *xlsBook   // the workbook stream of a .xls
	odsTables    []odsTable // where each .ods table's content starts
	encryption   string     // how the package was encrypted, "" if it was not
	workbookPart string
	sheets       []SheetInfo
	names        []DefinedName
	date1904     bool
	strict       bool // Strict OOXML (ISO 29500 namespaces)
	stylesPart   string
	sstPart      string
	app          string
	customXML    []string // the workbook's custom XML data parts

	stylesOnce sync.Once
	styles     *readStyles
	stylesErr  error
	sstOnce    sync.Once
	sst        *sstTable
	sstErr     error
}

// Open opens the XLSX file at name and reads its workbook part, styles
// and relationships; shared strings and sheets are read when needed.
//
// Errors, in a *ReadError naming the file and part: ErrNotXLSX, and
// ErrEncrypted, ErrLegacyXLS, ErrODF or ErrXLSB for files of those
// kinds; ErrMissingPart, ErrDuplicatePart, ErrMalformed and ErrLimit for
// broken or hostile packages; and the os and zip package's errors.
func Open(name string, opts ReadOptions) (*Workbook, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	wb, err := openReader(f, st.Size(), opts, name)
	if err != nil {
		f.Close()
		return nil, err
	}
	wb.closer = f
	return wb, nil
}

// NewReader reads an XLSX package of the given size from r. It returns
// Open's errors.
func NewReader(r io.ReaderAt, size int64, opts ReadOptions) (*Workbook, error) {
	return openReader(r, size, opts, "")
}

// Close releases the file Open opened. Rows already open must be closed
// first.
func (wb *Workbook) Close() error {
	if wb.closer != nil {
		return wb.closer.Close()
	}
	return nil
}

// Format is the file format the workbook was read from.
func (wb *Workbook) Format() Format { return wb.format }

// openRowSource opens a sheet stored in a format other than XML.
func (wb *Workbook) openRowSource(p *sheetParser, index int) (rowSource, error) {
	switch wb.format {
	case FormatXLSB:
		if k := wb.sheets[index].Kind; k == SheetKindChartsheet || k == SheetKindDialogsheet {
			return noRows{}, nil // chart and dialog sheets' records hold no cells
		}
		return wb.openXLSBSheet(p)
	case FormatXLS:
		return wb.openXLSSheet(p, index)
	}
	return nil, wb.errorf(p.part, fmt.Errorf("%w: no reader for %s sheets", ErrMalformed, wb.format))
}

// noRows is a sheet without cells.
type noRows struct{}

func (noRows) fill(*chunk) error { return io.EOF }
func (noRows) Close() error      { return nil }

// Encryption says how the workbook was encrypted, such as "Agile
// (AES-256, SHA512)", or "" if it was not.
func (wb *Workbook) Encryption() string { return wb.encryption }

// Sheets lists the workbook's sheets in order.
func (wb *Workbook) Sheets() []SheetInfo { return append([]SheetInfo(nil), wb.sheets...) }

// Sheet finds a sheet by name, case-insensitively as Excel does.
func (wb *Workbook) Sheet(name string) (SheetInfo, bool) {
	for _, s := range wb.sheets {
		if strings.EqualFold(s.Name, name) {
			return s, true
		}
	}
	return SheetInfo{}, false
}

// Date1904 reports whether serial dates count from 1904 (old Mac Excel).
func (wb *Workbook) Date1904() bool { return wb.date1904 }

// DefinedNames lists the workbook's defined names.
func (wb *Workbook) DefinedNames() []DefinedName { return append([]DefinedName(nil), wb.names...) }

// Application is the producer recorded in docProps/app.xml, such as
// "Microsoft Excel" or "LibreOffice/7.3...", with its version when given.
func (wb *Workbook) Application() string { return wb.app }

func (wb *Workbook) errorf(part string, err error) error {
	return &ReadError{File: wb.file, Part: part, Err: err}
}

func openReader(r io.ReaderAt, size int64, opts ReadOptions, file string) (*Workbook, error) {
	wb := &Workbook{file: file, opts: opts, limits: opts.Limits.withDefaults()}
	if wb.opts.Workers <= 0 {
		wb.opts.Workers = runtime.GOMAXPROCS(0)
	}
	if wb.opts.ChunkSize <= 0 {
		wb.opts.ChunkSize = 192 << 10
	}
	if err := sniff(r, size); err != nil {
		if err == errBIFF {
			// A BIFF5 or BIFF8 workbook stream on its own, as some
			// programs save it.
			if err := wb.loadXLS(io.NewSectionReader(r, 0, size), "Workbook"); err != nil {
				return nil, err
			}
			return wb, nil
		}
		if err == errCompound {
			if c, cerr := cfb.NewReader(r, size); cerr == nil {
				if name := xlsStream(c); name != "" {
					st, err := c.Open(name)
					if err != nil {
						return nil, wb.errorf(name, malformedXLS(err))
					}
					if err := wb.loadXLS(st, name); err != nil {
						return nil, err
					}
					return wb, nil
				}
			}
			var dec *offcrypto.Package
			if dec, size, err = openCompound(r, size, opts.Password); err == nil {
				r, wb.encryption = dec, dec.Scheme()
			}
		}
		if err != nil {
			return nil, wb.errorf("", err)
		}
		if err := sniff(r, size); err != nil {
			return nil, wb.errorf("", fmt.Errorf("decrypted, the package is not a zip: %w", err))
		}
	}
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, wb.errorf("", fmt.Errorf("%w: corrupt zip package: %v", ErrNotXLSX, err))
	}
	zr.RegisterDecompressor(zip.Deflate, openInflater)
	wb.zr = zr
	wb.parts = make(map[string]*zip.File, len(zr.File))
	for _, f := range zr.File {
		key := normPart(f.Name)
		if _, dup := wb.parts[key]; dup {
			if wb.dups == nil {
				wb.dups = map[string]bool{}
			}
			wb.dups[key] = true
		}
		wb.parts[key] = f
	}
	if err := wb.load(); err != nil {
		return nil, err
	}
	return wb, nil
}

// load reads the package structure: relationships, workbook, properties.
func (wb *Workbook) load() error {
	if mt, ok := wb.parts["mimetype"]; ok && wb.parts["[content_types].xml"] == nil {
		if b, err := wb.readPart(mt.Name); err == nil && bytes.Contains(b, []byte("opendocument")) {
			if !bytes.Contains(b, []byte("opendocument.spreadsheet")) {
				return wb.errorf("", fmt.Errorf("%w: %s is not a spreadsheet", ErrODF, bytes.TrimSpace(b)))
			}
			return wb.loadODS()
		}
	}
	rels, err := wb.readRels("")
	if err != nil && !errors.Is(err, ErrMissingPart) && !errors.Is(err, ErrMalformed) {
		return err
	}
	wb.workbookPart = rels.target(relOfficeDocument)
	if wb.workbookPart == "" || wb.parts[normPart(wb.workbookPart)] == nil {
		// A damaged or missing _rels/.rels: take the usual place.
		wb.workbookPart = "xl/workbook.xml"
		if wb.parts[wb.workbookPart] == nil {
			for key, f := range wb.parts {
				if path.Base(key) == "workbook.xml" {
					wb.workbookPart = f.Name
					break
				}
			}
		}
	}
	if !binaryPart(wb.workbookPart) && wb.parts[normPart(wb.workbookPart)] == nil && wb.parts["xl/workbook.bin"] != nil {
		wb.workbookPart = wb.parts["xl/workbook.bin"].Name
	}
	if wb.parts[normPart(wb.workbookPart)] == nil {
		return wb.errorf("", fmt.Errorf("%w: no workbook part (xl/workbook.xml)", ErrNotXLSX))
	}
	if app := rels.target(relExtendedProperties); app != "" {
		wb.app = wb.readApplication(app)
	} else if wb.parts["docprops/app.xml"] != nil {
		wb.app = wb.readApplication("docProps/app.xml")
	}
	if binaryPart(wb.workbookPart) {
		// BIFF12 records, not XML: read as XML they would give an empty
		// workbook, which must never pass for the file's content.
		wb.format = FormatXLSB
		return wb.readWorkbookBin()
	}
	return wb.readWorkbook()
}
