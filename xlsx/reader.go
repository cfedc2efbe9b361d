package xlsx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/zip"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/sheetstream/sheetstream/internal/xmlscan"
)

// Errors a reader returns, testable with errors.Is. They come wrapped in a
// *ReadError that names the file, part, sheet and cell where they apply.
var (
	ErrNotXLSX       = errors.New("not an XLSX workbook")
	ErrEncrypted     = errors.New("password-protected workbook (an encrypted OLE container, not a zip); save it without a password first")
	ErrLegacyXLS     = errors.New("legacy Excel 97-2003 (.xls) workbook, not XLSX")
	ErrODF           = errors.New("OpenDocument spreadsheet (.ods), not XLSX")
	ErrXLSB          = errors.New("binary Excel workbook (.xlsb), not XLSX; save it as .xlsx first")
	ErrMissingPart   = errors.New("missing part")
	ErrDuplicatePart = errors.New("the package holds two parts with this name")
	ErrLimit         = errors.New("limit exceeded")
	ErrMalformed     = errors.New("malformed content")
	ErrNoSheet       = errors.New("no such sheet")
)

// ReadError says where reading failed. Empty fields and zero numbers do
// not apply.
type ReadError struct {
	File  string // the path given to Open
	Part  string // the package part, such as "xl/worksheets/sheet1.xml"
	Sheet string
	Row   int // 1-based
	Col   int // 1-based
	Err   error
}

func (e *ReadError) Error() string {
	var b strings.Builder
	b.WriteString("xlsx: ")
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	if e.Sheet != "" {
		b.WriteString("sheet " + strconv.Quote(e.Sheet))
		switch {
		case e.Row > 0 && e.Col > 0 && e.Row <= MaxRows && e.Col <= MaxColumns:
			fmt.Fprintf(&b, ", cell %s", CellName(e.Row, e.Col))
		case e.Row > 0 && e.Col > 0:
			fmt.Fprintf(&b, ", row %d, column %d", e.Row, e.Col)
		case e.Row > 0:
			fmt.Fprintf(&b, ", row %d", e.Row)
		}
		if e.Part != "" {
			b.WriteString(" (" + e.Part + ")")
		}
		b.WriteString(": ")
	} else if e.Part != "" {
		b.WriteString(e.Part + ": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *ReadError) Unwrap() error { return e.Err }

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
	return l
}

// ReadOptions configure Open and NewReader. The zero value is safe.
type ReadOptions struct {
	// Workers is the number of goroutines that parse one sheet's XML while
	// another inflates it; 0 means GOMAXPROCS. Each sheet being read has
	// its own.
	Workers int
	// ChunkSize is the size of the XML chunks handed to workers; 0 means
	// 256 KiB (measured: larger chunks add memory, not speed).
	ChunkSize int
	Limits    Limits
}

// SheetKind tells worksheets from the other kinds of sheet a workbook
// lists.
type SheetKind uint8

const (
	Worksheet SheetKind = iota
	Chartsheet
	Dialogsheet
	Macrosheet
)

func (k SheetKind) String() string {
	return [...]string{"worksheet", "chartsheet", "dialogsheet", "macrosheet"}[k]
}

func (s SheetState) String() string {
	switch s {
	case Hidden:
		return "hidden"
	case VeryHidden:
		return "veryHidden"
	}
	return "visible"
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

	workbookPart string
	sheets       []SheetInfo
	names        []DefinedName
	date1904     bool
	strict       bool // Strict OOXML (ISO 29500 namespaces)
	stylesPart   string
	sstPart      string
	app          string

	stylesOnce sync.Once
	styles     *readStyles
	stylesErr  error
	sstOnce    sync.Once
	sst        *sstTable
	sstErr     error
}

// Open opens the XLSX file at name.
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

// NewReader reads an XLSX package of the given size from r.
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

var (
	cfbMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
	// "EncryptionInfo" as a UTF-16LE directory entry name.
	encryptionInfo = []byte("E\x00n\x00c\x00r\x00y\x00p\x00t\x00i\x00o\x00n\x00I\x00n\x00f\x00o\x00")
)

// sniff names what a file that is not a zip is.
func sniff(r io.ReaderAt, size int64) error {
	head := make([]byte, 8)
	n, _ := r.ReadAt(head, 0)
	head = head[:n]
	switch {
	case size == 0:
		return fmt.Errorf("%w: the file is empty", ErrNotXLSX)
	case bytes.Equal(head, cfbMagic):
		// An encrypted OOXML package is an OLE compound file with an
		// EncryptionInfo stream; anything else in that container is BIFF.
		scan := min(size, 64<<20)
		buf := make([]byte, scan)
		n, _ := r.ReadAt(buf, 0)
		if bytes.Contains(buf[:n], encryptionInfo) {
			return ErrEncrypted
		}
		return ErrLegacyXLS
	case bytes.HasPrefix(head, []byte("PK")):
		return nil
	case bytes.HasPrefix(bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n"), []byte("<")):
		return fmt.Errorf("%w: the file is XML or HTML, not a zip package (Excel 2003 XML or a web page saved as .xlsx?)", ErrNotXLSX)
	}
	return fmt.Errorf("%w: not a zip package", ErrNotXLSX)
}

func normPart(name string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	name = strings.TrimLeft(name, "/")
	return strings.ToLower(name)
}

func openReader(r io.ReaderAt, size int64, opts ReadOptions, file string) (*Workbook, error) {
	wb := &Workbook{file: file, opts: opts, limits: opts.Limits.withDefaults()}
	if wb.opts.Workers <= 0 {
		wb.opts.Workers = runtime.GOMAXPROCS(0)
	}
	if wb.opts.ChunkSize <= 0 {
		wb.opts.ChunkSize = 256 << 10
	}
	if err := sniff(r, size); err != nil {
		return nil, wb.errorf("", err)
	}
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, wb.errorf("", fmt.Errorf("%w: corrupt zip package: %v", ErrNotXLSX, err))
	}
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
			return wb.errorf("", ErrODF)
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
	if binaryPart(wb.workbookPart) || wb.parts[normPart(wb.workbookPart)] == nil && wb.parts["xl/workbook.bin"] != nil {
		// BIFF12 records, not XML: read as XML they would give an empty
		// workbook, which must never pass for the file's content.
		part := wb.workbookPart
		if !binaryPart(part) {
			part = wb.parts["xl/workbook.bin"].Name
		}
		return wb.errorf(part, ErrXLSB)
	}
	if wb.parts[normPart(wb.workbookPart)] == nil {
		return wb.errorf("", fmt.Errorf("%w: no workbook part (xl/workbook.xml)", ErrNotXLSX))
	}
	if app := rels.target(relExtendedProperties); app != "" {
		wb.app = wb.readApplication(app)
	} else if wb.parts["docprops/app.xml"] != nil {
		wb.app = wb.readApplication("docProps/app.xml")
	}
	return wb.readWorkbook()
}

// binaryPart reports whether a part holds BIFF12 records (.xlsb).
func binaryPart(name string) bool { return strings.HasSuffix(normPart(name), ".bin") }

// partReader counts what an entry inflates against the package's total
// and the entry's declared size.
type partReader struct {
	wb       *Workbook
	rc       io.ReadCloser
	name     string
	declared uint64
	n        uint64
}

func (p *partReader) Read(b []byte) (int, error) {
	n, err := p.rc.Read(b)
	p.n += uint64(n)
	if p.n > p.declared {
		return n, fmt.Errorf("%w: inflates past its declared size of %d bytes", ErrMalformed, p.declared)
	}
	if t := p.wb.total.Add(int64(n)); t > p.wb.limits.MaxTotalSize {
		return n, fmt.Errorf("%w: more than %d decompressed bytes in the package (Limits.MaxTotalSize)", ErrLimit, p.wb.limits.MaxTotalSize)
	}
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return n, err
}

func (p *partReader) Close() error { return p.rc.Close() }

// lookup finds a part by name, case-insensitively as OPC requires.
func (wb *Workbook) lookup(name string) (*zip.File, error) {
	key := normPart(name)
	f := wb.parts[key]
	if f == nil {
		return nil, wb.errorf(name, ErrMissingPart)
	}
	if wb.dups[key] {
		return nil, wb.errorf(name, ErrDuplicatePart)
	}
	return f, nil
}

// openPart opens a part for streaming, with the ratio limit checked.
func (wb *Workbook) openPart(name string) (io.ReadCloser, *zip.File, error) {
	f, err := wb.lookup(name)
	if err != nil {
		return nil, nil, err
	}
	if f.UncompressedSize64 > 1<<20 {
		comp := max(f.CompressedSize64, 1)
		if f.UncompressedSize64/comp > uint64(wb.limits.MaxRatio) {
			return nil, nil, wb.errorf(name, fmt.Errorf("%w: compression ratio %d:1 over Limits.MaxRatio (%d)", ErrLimit, f.UncompressedSize64/comp, wb.limits.MaxRatio))
		}
	}
	rc, err := f.Open()
	if err != nil {
		return nil, nil, wb.errorf(name, fmt.Errorf("%w: %v", ErrMalformed, err))
	}
	pr := &partReader{wb: wb, rc: rc, name: name, declared: f.UncompressedSize64}
	r, err := toUTF8(pr)
	if err != nil {
		rc.Close()
		return nil, nil, wb.errorf(name, err)
	}
	return readCloser{r, pr}, f, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

// toUTF8 passes UTF-8 through and transcodes UTF-16, which a few
// producers write (with or without a byte order mark).
func toUTF8(r io.Reader) (io.Reader, error) {
	head := make([]byte, 4)
	n, err := io.ReadFull(r, head)
	head = head[:n]
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	var enc encoding.Encoding
	switch {
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}), bytes.HasPrefix(head, []byte("<\x00?\x00")):
		enc = unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}), bytes.HasPrefix(head, []byte("\x00<\x00?")):
		enc = unicode.UTF16(unicode.BigEndian, unicode.UseBOM)
	}
	r = io.MultiReader(bytes.NewReader(head), r)
	if enc != nil {
		r = transform.NewReader(r, enc.NewDecoder())
	}
	return r, nil
}

// readPart reads a small part whole, under Limits.MaxPartSize.
func (wb *Workbook) readPart(name string) ([]byte, error) {
	rc, f, err := wb.openPart(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	if f.UncompressedSize64 > uint64(wb.limits.MaxPartSize) {
		return nil, wb.errorf(name, fmt.Errorf("%w: part is %d bytes, over Limits.MaxPartSize (%d)", ErrLimit, f.UncompressedSize64, wb.limits.MaxPartSize))
	}
	// The partReader stops an entry that inflates past its declared size.
	buf := bytes.NewBuffer(make([]byte, 0, f.UncompressedSize64+512))
	if _, err := buf.ReadFrom(rc); err != nil {
		return nil, wb.errorf(name, err)
	}
	return buf.Bytes(), nil
}

// scanner returns an XML scanner set to the package's depth limit.
func (wb *Workbook) scanner(buf []byte) *xmlscan.Scanner {
	sc := &xmlscan.Scanner{MaxDepth: wb.limits.MaxDepth}
	sc.Reset(buf)
	return sc
}

// resolve turns a relationship target into a part name, relative to the
// folder of the part that holds the relationship.
func resolve(source, target string) string {
	target = strings.ReplaceAll(target, "\\", "/")
	if strings.HasPrefix(target, "/") {
		return path.Clean(target)[1:]
	}
	p := path.Join(path.Dir(source), target)
	return strings.TrimPrefix(path.Clean("/"+p), "/")
}
