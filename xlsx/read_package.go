package xlsx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/klauspost/compress/zip"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/sheetstream/sheetstream/internal/cfb"
	"github.com/sheetstream/sheetstream/internal/inflate"
	"github.com/sheetstream/sheetstream/internal/offcrypto"
	"github.com/sheetstream/sheetstream/internal/xmlscan"
)

var (
	// "EncryptionInfo" as a UTF-16LE directory entry name.
	encryptionInfo = []byte("E\x00n\x00c\x00r\x00y\x00p\x00t\x00i\x00o\x00n\x00I\x00n\x00f\x00o\x00")
)

// errCompound is sniff's word for a compound file, which openCompound
// looks into; errBIFF for a BIFF5 or BIFF8 stream outside one.
var (
	errCompound = errors.New("a compound file")
	errBIFF     = errors.New("a BIFF stream")
)

// openCompound looks into a compound file: an encrypted OOXML package
// (EncryptionInfo and EncryptedPackage streams) is decrypted with
// password, and read through the returned io.ReaderAt; anything else in
// that container is a legacy workbook.
func openCompound(r io.ReaderAt, size int64, password string) (*offcrypto.Package, int64, error) {
	c, err := cfb.NewReader(r, size)
	if err != nil {
		// Damaged: say what its first bytes suggest.
		buf := make([]byte, min(size, 1<<20))
		n, _ := r.ReadAt(buf, 0)
		if bytes.Contains(buf[:n], encryptionInfo) {
			return nil, 0, fmt.Errorf("%w (and its compound file is damaged: %v)", ErrEncrypted, err)
		}
		return nil, 0, fmt.Errorf("%w: a damaged compound file (.xls?): %v", ErrMalformed, err)
	}
	info, err := c.Open("EncryptionInfo")
	if err != nil {
		return nil, 0, ErrLegacyXLS
	}
	pkg, err := c.Open("EncryptedPackage")
	if err != nil {
		return nil, 0, fmt.Errorf("%w: it has no EncryptedPackage stream: %v", ErrEncrypted, err)
	}
	if password == "" {
		return nil, 0, ErrEncrypted
	}
	text, err := info.ReadAll(1 << 20)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: EncryptionInfo: %v", ErrMalformed, err)
	}
	dec, err := offcrypto.Open(text, pkg, pkg.Size(), password)
	if errors.Is(err, offcrypto.ErrMalformed) {
		return nil, 0, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if err != nil {
		return nil, 0, err
	}
	return dec, dec.Size(), nil
}

// sniff names what a file that is not a zip is.
func sniff(r io.ReaderAt, size int64) error {
	start := make([]byte, 512)
	n, _ := r.ReadAt(start, 0)
	start = start[:n]
	head := start[:min(n, 8)]
	switch {
	case size == 0:
		return fmt.Errorf("%w: the file is empty", ErrNotXLSX)
	case bytes.Equal(head, cfb.Signature):
		return errCompound
	case bytes.HasPrefix(head, []byte("PK")):
		return nil
	case len(head) == 8 && head[0] == 0x09 && (head[1] == 0x00 || head[1] == 0x02 || head[1] == 0x04 || head[1] == 0x08) && head[3] == 0 && head[2] >= 4 && head[2] <= 20:
		// A BOF record: BIFF2 (0x0009), BIFF3 (0x0209), BIFF4 (0x0409) or
		// BIFF5/8 (0x0809) with its version after the size.
		if head[1] == 0x08 {
			return errBIFF
		}
		return fmt.Errorf("%w: an Excel 2.x-4.0 (BIFF%d) worksheet, which sheetstream does not read; save it as .xlsx", ErrLegacyXLS, head[1]/2+2)
	case bytes.HasPrefix(bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n"), []byte("<")):
		lower := bytes.ToLower(start)
		switch {
		case bytes.Contains(lower, []byte("<html")), bytes.Contains(lower, []byte("<!doctype html")), bytes.Contains(lower, []byte("<table")):
			return fmt.Errorf("%w: the file is an HTML page (a web page, or a web application's \"Excel\" download), not a workbook: open it in a spreadsheet and save it as .xlsx", ErrNotXLSX)
		case bytes.Contains(lower, []byte("urn:schemas-microsoft-com:office:spreadsheet")):
			return fmt.Errorf("%w: the file is an Excel 2003 XML spreadsheet, not a workbook sheetstream reads: save it as .xlsx", ErrNotXLSX)
		}
		return fmt.Errorf("%w: the file is XML, not a zip package (Excel 2003 XML saved as .xlsx?)", ErrNotXLSX)
	case looksLikeText(start):
		return fmt.Errorf("%w: the file is text (CSV?), not a workbook: read it as CSV (--format csv, or a .csv name)", ErrNotXLSX)
	}
	return fmt.Errorf("%w: not a zip package", ErrNotXLSX)
}

// looksLikeText says whether the start of a file is UTF-8 text without
// control characters other than tabs and line ends (the last rune may be
// cut).
func looksLikeText(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return len(b)-i < utf8.UTFMax && !utf8.FullRune(b[i:])
		}
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return false
		}
		i += size
	}
	return true
}

func normPart(name string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	name = strings.TrimLeft(name, "/")
	return strings.ToLower(name)
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

// inflaters keeps the decompressors of closed parts, with their
// buffers, for the next parts.
var inflaters sync.Pool

// openInflater is the package's deflate decompressor: internal/inflate,
// which reads a sheet in about two thirds of klauspost/compress's time.
// The zip reader still checks each part's CRC-32 and size.
func openInflater(r io.Reader) io.ReadCloser {
	z, ok := inflaters.Get().(*inflate.Reader)
	if ok {
		z.Reset(r)
	} else {
		z = inflate.NewReader(r)
	}
	return &pooledInflater{z}
}

type pooledInflater struct{ z *inflate.Reader }

func (p *pooledInflater) Read(b []byte) (int, error) {
	if p.z == nil {
		return 0, errors.New("read of a closed part")
	}
	return p.z.Read(b)
}

func (p *pooledInflater) Close() error {
	if p.z != nil {
		p.z.Reset(nil)
		inflaters.Put(p.z)
		p.z = nil
	}
	return nil
}

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

// openPart opens a part of XML for streaming, as UTF-8, with the ratio
// limit checked.
func (wb *Workbook) openPart(name string) (io.ReadCloser, *zip.File, error) {
	pr, f, err := wb.openRawPart(name)
	if err != nil {
		return nil, nil, err
	}
	r, err := toUTF8(pr)
	if err != nil {
		pr.Close()
		return nil, nil, wb.errorf(name, err)
	}
	return readCloser{r, pr}, f, nil
}

// openRawPart opens a part's bytes for streaming, with the ratio limit
// checked.
func (wb *Workbook) openRawPart(name string) (*partReader, *zip.File, error) {
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
	return &partReader{wb: wb, rc: rc, name: name, declared: f.UncompressedSize64}, f, nil
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
