package xlsx

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sheetstream/sheetstream/internal/cfb"
	"github.com/sheetstream/sheetstream/internal/deflate"
	"github.com/sheetstream/sheetstream/internal/zipstream"
)

// Templates: rows streamed into a workbook someone designed, every part
// the rows do not touch copied as the template has it, compressed bytes
// and all. TemplateWriter.Fill opens a sheet of the template for rows:
// into its Excel table (the body replaced, the header kept, the totals
// row moved under the rows) or below its last used row. What reads the
// filled range follows it when the workbook closes: the table's range,
// defined names and print areas, chart series, conditional formats and
// data validations of the sheet, pivot tables (computed from the rows
// when the designer's pivot is one this reproduces, template_pivot.go,
// and refreshed when Excel opens the file); formulas recalculate on open.

// ErrTemplate is the error of a template that cannot be filled as asked.
var ErrTemplate = errors.New("template")

// TemplateOptions set how a template is filled.
type TemplateOptions struct {
	// Options are the Writer's, for the rows written: Strings and
	// SharedStringsBudget (the new text shared in the template's shared
	// strings table after its own strings, within the budget, then
	// inline; a template without a table gets its text inline), Location
	// (times with a zone converted before they are written), Password
	// (the filled workbook encrypted, ECMA-376 Agile, AES-256; with
	// TempDir and SheetBufferSize for the encrypted package held back
	// when the output cannot seek), Workers and ChunkSize (the deflate
	// workers and the chunks they are handed; a service filling many at
	// once keeps both small). The template keeps its own date system,
	// document properties and workbook protection: Date1904, Properties,
	// Compression, CellRefs and ProtectWorkbook are not used.
	Options
	// Values replace {{name}} placeholders in the workbook's text cells
	// (its shared strings) and in the filled sheets' headers and footers.
	// {{now}} (the time the writer was made) and {{rows}} (the rows
	// written) are built in. A value is a string, a number (any Go
	// integer or float type), a bool, a time.Time or a Cell: a text cell
	// whose whole text is the placeholder becomes a number, boolean or
	// date cell for those (a date or time keeps the cell's style, given a
	// date format if it has none); inside longer text a value is written
	// as text (a date as 2006-01-02, a time as 2006-01-02 15:04). {{rows}}
	// in the filled sheet itself stays text: that sheet is written before
	// its rows are counted.
	Values map[string]any
	// ByPosition matches a table's columns to Fill's header by position
	// rather than by name.
	ByPosition bool
	// Now is {{now}}'s time (zero: the time NewTemplateWriter runs).
	Now time.Time
	// TemplatePassword opens a template encrypted with a password (as
	// Excel's "Encrypt with Password" does), decrypted as it is read.
	TemplatePassword string
}

// maxFilledSheet bounds the XML of a sheet to fill, which is held while
// its rows are written (the other sheets are copied, never held).
const maxFilledSheet = 64 << 20

// TemplateWriter fills a template workbook. Like Writer, it stops at its
// first error, which Close returns.
type TemplateWriter struct {
	file     io.Closer // the template file OpenTemplate opened
	zr       *zip.Reader
	files    map[string]*zip.File
	out      *zipstream.Writer
	opts     TemplateOptions
	book     string   // the workbook part, "xl/workbook.xml"
	names    []string // the sheets, in order
	parts    []string // their parts, by index
	date1904 bool
	template bool // an .xltx or .xltm: its content type becomes a workbook's

	styles    *templateStyles
	pool      *deflate.Pool
	encrypted *encryptedOutput // with TemplateOptions.Password
	// The template's shared strings table, which the rows' text joins
	// after the template's own sstBase strings (nil: text goes inline).
	sstPart string
	sstBase int
	sst     *sharedStrings
	scratch []byte
	// wholePlaceholders are the shared strings that are one {{name}} and
	// nothing else, by index: their cells may become typed values.
	wholePlaceholders map[int]string
	// added are the sheets rows rolled over to, in order.
	added   []addedSheet
	clock   *Writer // a Writer with only the options its timeValue reads
	filled  []*TemplateSheet
	current *TemplateSheet
	// pivots are the designer's pivot tables computed from filled rows.
	pivots  []*templatePivot
	written map[string]bool // parts already in the output
	err     error
	closed  bool
}

// OpenTemplate is NewTemplateWriter over the template file at path, which
// the writer closes when it is closed or aborted (as zip.OpenReader opens
// what zip.NewReader reads). Errors: opening or reading the file, and
// NewTemplateWriter's.
func OpenTemplate(out io.Writer, path string, opts TemplateOptions) (*TemplateWriter, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil && info.IsDir() {
		err = fmt.Errorf("%w: %s is a folder", ErrTemplate, path)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	t, err := NewTemplateWriter(out, f, info.Size(), opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	t.file = f
	return t, nil
}

// NewTemplateWriter opens a template (an .xlsx, .xlsm, .xltx or .xltm, of
// size bytes) to be filled into out. Nothing is written until Fill.
//
// Errors (ErrTemplate): the file is not a zip package or has no workbook,
// is a legacy .xls or a damaged compound file; ErrEncrypted for an
// encrypted one without TemplateOptions.TemplatePassword, ErrPassword
// with a wrong one; errors of TemplateOptions.Password's encryption.
func NewTemplateWriter(out io.Writer, template io.ReaderAt, size int64, opts TemplateOptions) (*TemplateWriter, error) {
	head := make([]byte, 8)
	if _, err := template.ReadAt(head, 0); err == nil && bytes.Equal(head, cfb.Signature) {
		dec, decSize, err := openCompound(template, size, opts.TemplatePassword)
		switch {
		case errors.Is(err, ErrEncrypted) && opts.TemplatePassword == "":
			return nil, fmt.Errorf("%w: the template is encrypted: give its password (TemplateOptions.TemplatePassword)", ErrEncrypted)
		case errors.Is(err, ErrLegacyXLS):
			return nil, fmt.Errorf("%w: the template is a legacy .xls: save it as .xlsx", ErrTemplate)
		case err != nil:
			return nil, fmt.Errorf("%w: %w", ErrTemplate, err)
		}
		template, size = dec, decSize
	}
	zr, err := zip.NewReader(template, size)
	if err != nil {
		return nil, fmt.Errorf("%w: not a workbook: %v", ErrTemplate, err)
	}
	t := &TemplateWriter{zr: zr, files: map[string]*zip.File{}, opts: opts, written: map[string]bool{}}
	if opts.Password != "" {
		if t.encrypted, err = newEncryptedOutput(out, opts.Password, Options{TempDir: opts.TempDir, SheetBufferSize: opts.SheetBufferSize}); err != nil {
			return nil, err
		}
		out = t.encrypted
	}
	t.out = zipstream.NewWriter(out)
	if t.opts.Now.IsZero() {
		t.opts.Now = time.Now()
	}
	for _, f := range zr.File {
		t.files[f.Name] = f
	}
	if err := t.readWorkbook(); err != nil {
		return nil, err
	}
	t.clock = &Writer{opts: Options{Location: opts.Location, Date1904: t.date1904}}
	if err := t.openSharedStrings(); err != nil {
		return nil, err
	}
	return t, nil
}

// openSharedStrings counts the template's shared strings, which the
// rows' strings follow. A table whose elements carry a namespace prefix
// is left as it is, the rows' text inline.
func (t *TemplateWriter) openSharedStrings() error {
	if t.sstPart == "" {
		return nil
	}
	x, err := t.readPart(t.sstPart, 256<<20)
	if err != nil {
		return err
	}
	if !bytes.Contains(x, []byte("<sst")) || !bytes.Contains(x, []byte("</sst>")) {
		return nil
	}
	t.findWholePlaceholders(x)
	if t.opts.Strings == StringsInline {
		return nil
	}
	for _, open := range []string{"<si>", "<si ", "<si/>"} {
		t.sstBase += bytes.Count(x, []byte(open))
	}
	budget := t.opts.SharedStringsBudget
	switch {
	case t.opts.Strings == StringsShared:
		budget = -1
	case budget <= 0:
		budget = DefaultSharedStringsBudget
	}
	t.sst = newSharedStrings(budget)
	return nil
}

var (
	relRe       = regexp.MustCompile(`<Relationship\b[^>]*>`)
	attrRe      = regexp.MustCompile(`([\w:]+)="([^"]*)"`)
	sheetElemRe = regexp.MustCompile(`<sheet\b[^>]*/?>`)
)

// attrs reads an element's attributes.
func attrs(elem string) map[string]string {
	m := map[string]string{}
	for _, a := range attrRe.FindAllStringSubmatch(elem, -1) {
		m[a[1]] = xmlUnescape(a[2])
	}
	return m
}

func xmlUnescape(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'", "&amp;", "&").Replace(s)
}

// readPart reads a part of the template whole, at most limit bytes.
func (t *TemplateWriter) readPart(name string, limit int64) ([]byte, error) {
	f := t.files[name]
	if f == nil {
		return nil, fmt.Errorf("%w: the package has no %s", ErrTemplate, name)
	}
	if f.UncompressedSize64 > uint64(limit) {
		return nil, fmt.Errorf("%w: %s is %d bytes, more than %d", ErrTemplate, name, f.UncompressedSize64, limit)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrTemplate, name, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrTemplate, name, err)
	}
	return b, nil
}

// rels reads a part's relationships: id -> target, resolved against the
// part's folder.
func (t *TemplateWriter) rels(part string) (map[string]string, map[string]string, error) {
	relsPath := path.Join(path.Dir(part), "_rels", path.Base(part)+".rels")
	targets, types := map[string]string{}, map[string]string{}
	if t.files[relsPath] == nil {
		return targets, types, nil
	}
	b, err := t.readPart(relsPath, 16<<20)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range relRe.FindAll(b, -1) {
		a := attrs(string(r))
		if a["TargetMode"] == "External" {
			continue
		}
		target := a["Target"]
		if strings.HasPrefix(target, "/") {
			target = strings.TrimPrefix(target, "/")
		} else {
			target = path.Join(path.Dir(part), target)
		}
		targets[a["Id"]] = target
		types[a["Id"]] = path.Base(a["Type"])
	}
	return targets, types, nil
}

func (t *TemplateWriter) readWorkbook() error {
	root, _, err := t.rels("")
	if err != nil {
		return err
	}
	t.book = "xl/workbook.xml"
	for _, target := range root {
		if strings.HasSuffix(target, "workbook.xml") {
			t.book = target
		}
	}
	if t.files[t.book] == nil {
		return fmt.Errorf("%w: not a workbook (no %s)", ErrTemplate, t.book)
	}
	wb, err := t.readPart(t.book, 64<<20)
	if err != nil {
		return err
	}
	t.date1904 = bytes.Contains(wb, []byte(`date1904="1"`)) || bytes.Contains(wb, []byte(`date1904="true"`))
	targets, types, err := t.rels(t.book)
	if err != nil {
		return err
	}
	for id, typ := range types {
		if typ == "sharedStrings" && t.files[targets[id]] != nil {
			t.sstPart = targets[id]
		}
	}
	for _, s := range sheetElemRe.FindAll(wb, -1) {
		a := attrs(string(s))
		t.names = append(t.names, a["name"])
		t.parts = append(t.parts, targets[a["r:id"]])
	}
	ct, err := t.readPart("[Content_Types].xml", 16<<20)
	if err != nil {
		return err
	}
	t.template = bytes.Contains(ct, []byte("spreadsheetml.template.main")) || bytes.Contains(ct, []byte("ms-excel.template.macroEnabled.main"))
	return nil
}

// Sheets lists the workbook's sheets, in order: the template's and those
// rows rolled over to.
func (t *TemplateWriter) Sheets() []string { return slices.Clone(t.names) }

func (t *TemplateWriter) fail(err error) error {
	if t.err == nil {
		t.err = err
	}
	return t.err
}

// TemplateSheet is a sheet of a template being filled with rows.
type TemplateSheet struct {
	t          *TemplateWriter
	name, part string
	table      *templateTable
	// below are the sheet's other tables under the filled one, which move
	// down with the rows after it.
	below []*templateTable

	// The template's sheet: what goes before the new rows, the rows after
	// the body (moved down under the new rows), and what follows the
	// sheet's data.
	head  []byte
	after [][]byte
	tail  []byte
	// afterSpan is how far below the body's last row the last row after
	// it is: the rows written stop that far above the sheet's end.
	afterSpan int

	firstRow  int // the first row written
	row       int // the last row written
	oldLast   int // the template body's last row (firstRow-1 when it has none)
	firstCol  int
	colStyles []int

	entry  *zipstream.EntryWriter
	stream *deflate.Stream // the sheet's XML, deflated on the pool's workers
	buf    []byte          // the chunk being filled

	// header is the rows' column names, repeated atop the sheets the rows
	// roll over to; next is the sheet they go to once this one is full.
	header []string
	next   *TemplateSheet
	origin *TemplateSheet // for a rolled-over sheet, the template's sheet
}

// templateTable is the Excel table a sheet is filled into.
type templateTable struct {
	part      string
	xml       []byte
	ref       Range
	header    int // its header row (0: none)
	totals    int // totals rows
	columns   []string
	totalsRow int      // the totals row in the template, 0 if none
	names     []string // its name and display name, which formulas and pivot caches use
}

var (
	tablePartRe = regexp.MustCompile(`<tablePart\b[^>]*r:id="([^"]+)"`)
	tableRootRe = newNSPattern(`<§table\b[^>]*>`)
	tableColRe  = newNSPattern(`<§tableColumn\b[^>]*>`)
	rowStartRe  = regexp.MustCompile(`<row\b[^>]*>`)
	cellStyleRe = regexp.MustCompile(`<c\b[^>]*>`)
)

// Fill opens a sheet of the template for rows, finishing the sheet the
// previous Fill opened. The rows go into the sheet's Excel table, if it
// has one (the first), replacing its body; else below its last used row.
// header, if given, is checked against the table's columns (by name,
// ignoring case, or by position with TemplateOptions.ByPosition) before
// any row is written; it is not written (the template has its header).
//
// Errors (ErrTemplate): a sheet the template does not have (naming the
// ones it has), a sheet already filled, a header that does not match the
// table (naming the sheet and the column), a sheet part larger than 64
// MiB; and errors reading the template.
func (t *TemplateWriter) Fill(sheet string, header []string) (*TemplateSheet, error) {
	if t.err != nil {
		return nil, t.err
	}
	if t.closed {
		return nil, fmt.Errorf("%w: the writer is closed", ErrTemplate)
	}
	i := slices.IndexFunc(t.names, func(n string) bool { return strings.EqualFold(n, sheet) })
	if i < 0 {
		return nil, fmt.Errorf("%w: the template has no sheet %q (it has %s)", ErrTemplate, sheet, strings.Join(t.names, ", "))
	}
	for _, f := range t.filled {
		if f.part == t.parts[i] {
			return nil, fmt.Errorf("%w: sheet %q is filled already", ErrTemplate, t.names[i])
		}
	}
	if t.styles == nil {
		st, err := t.loadStyles()
		if err != nil {
			return nil, t.fail(err)
		}
		t.styles = st
	}
	ts := &TemplateSheet{t: t, name: t.names[i], part: t.parts[i]}
	if err := ts.load(header); err != nil {
		return nil, err
	}
	ts.header = header
	if len(header) == 0 && ts.table != nil {
		ts.header = ts.table.columns
	}
	if err := t.findPivots(ts); err != nil {
		return nil, t.fail(err)
	}
	if err := t.finishCurrent(); err != nil {
		return nil, err
	}
	var err error
	if ts.entry, err = t.out.Create(ts.part); err != nil {
		return nil, t.fail(err)
	}
	if t.pool == nil {
		// As a Writer's sheets are deflated: level 1, a worker a core.
		workers := t.opts.Workers
		if workers <= 0 {
			workers = runtime.GOMAXPROCS(0)
		}
		if t.pool, err = deflate.NewPool(1, workers, t.opts.ChunkSize); err != nil {
			return nil, t.fail(err)
		}
	}
	ts.stream = t.pool.NewStream(ts.entry)
	ts.buf = t.pool.Buffer()
	t.written[ts.part] = true
	t.filled = append(t.filled, ts)
	t.current = ts
	if err := ts.emit(ts.head); err != nil {
		return nil, err
	}
	ts.head = nil
	return ts, nil
}

// load splits the template's sheet around where the rows go.
func (ts *TemplateSheet) load(header []string) error {
	t := ts.t
	x, err := t.readPart(ts.part, maxFilledSheet)
	if err != nil {
		return err
	}
	x, _ = t.typeCells(x, t.typedPlaceholders(false), false)
	x = t.sheetPlaceholders(x, false) // {{rows}} waits for the tail
	targets, _, err := t.rels(ts.part)
	if err != nil {
		return err
	}
	var others []*templateTable
	for k, m := range tablePartRe.FindAllSubmatch(x, -1) {
		if targets[string(m[1])] == "" {
			continue
		}
		tb, err := t.loadTable(targets[string(m[1])])
		if err != nil {
			return err
		}
		if k == 0 {
			ts.table = tb
		} else {
			others = append(others, tb)
		}
	}
	start := bytes.Index(x, []byte("<sheetData"))
	end := bytes.Index(x, []byte("</sheetData>"))
	selfClosed := false
	if start < 0 {
		return fmt.Errorf("%w: sheet %q has no sheetData", ErrTemplate, ts.name)
	}
	open := start + bytes.IndexByte(x[start:], '>') + 1
	if x[open-2] == '/' {
		selfClosed, end = true, open
	}
	if end < 0 {
		return fmt.Errorf("%w: sheet %q's sheetData does not end", ErrTemplate, ts.name)
	}
	// The rows: kept before the body, dropped in it, moved after it.
	var rows [][]byte
	var nums []int
	if !selfClosed {
		body := x[open:end]
		idx := rowStartRe.FindAllIndex(body, -1)
		for k, loc := range idx {
			stop := len(body)
			if k+1 < len(idx) {
				stop = idx[k+1][0]
			}
			r := body[loc[0]:stop]
			n, _ := strconv.Atoi(attrs(string(body[loc[0]:loc[1]]))["r"])
			if n == 0 {
				n = len(nums) + 1
				if len(nums) > 0 {
					n = nums[len(nums)-1] + 1
				}
			}
			rows, nums = append(rows, r), append(nums, n)
		}
	}
	lastUsed := 0
	if len(nums) > 0 {
		lastUsed = nums[len(nums)-1]
	}
	if tb := ts.table; tb != nil {
		if err := tb.check(header, ts.name, t.opts.ByPosition); err != nil {
			return err
		}
		ts.firstRow = tb.ref.FirstRow + 1
		if tb.header == 0 {
			ts.firstRow = tb.ref.FirstRow
		}
		ts.oldLast = tb.ref.LastRow - tb.totals
		ts.firstCol = tb.ref.FirstCol
		if tb.totals > 0 {
			tb.totalsRow = tb.ref.LastRow
		}
	} else {
		ts.firstRow = lastUsed + 1
		ts.oldLast = lastUsed
		ts.firstCol = 1
	}
	// Other tables beside the body's rows would be split as the rows
	// after it move; those under it move with them.
	for _, o := range others {
		switch {
		case o.ref.LastRow < ts.firstRow:
		case o.ref.FirstRow > ts.oldLast:
			ts.below = append(ts.below, o)
		default:
			return fmt.Errorf("%w: sheet %q: the table at %v is beside the rows the filled table at %v takes, and would be split: move it above or below",
				ErrTemplate, ts.name, o.ref, ts.table.ref)
		}
	}
	// The head: the sheet up to the rows before the body, with no
	// dimension (the rows change it; it is optional).
	head := bytes.Buffer{}
	head.Write(dimensionRe.ReplaceAll(x[:open], nil))
	if selfClosed {
		head.Truncate(head.Len() - 2)
		head.WriteString(">")
	}
	for k, r := range rows {
		switch {
		case nums[k] < ts.firstRow:
			head.Write(r)
		case nums[k] <= ts.oldLast:
			if nums[k] == ts.firstRow {
				ts.colStyles = rowStyles(r, ts.firstCol)
			}
			if ts.table != nil {
				if c := cellOutside(r, ts.table.ref, nums[k]); c != "" {
					return fmt.Errorf("%w: sheet %q: cell %s is beside the table's body (%v), which the rows replace: move it above or below the table",
						ErrTemplate, ts.name, c, ts.table.ref)
				}
			}
		default:
			ts.after = append(ts.after, r)
			ts.afterSpan = nums[k] - ts.oldLast
		}
	}
	ts.head = head.Bytes()
	if selfClosed {
		ts.tail = append([]byte("</sheetData>"), x[open:]...)
	} else {
		ts.tail = x[end:]
	}
	ts.row = ts.firstRow - 1
	return nil
}

var dimensionRe = regexp.MustCompile(`<dimension\b[^>]*/>`)

// cellOutside names a cell of a row outside a range's columns that holds
// something (a value or a formula), "" if none.
func cellOutside(row []byte, r Range, rowNum int) string {
	found := ""
	rowCells(row, func(elem string, col int) {
		if found == "" && !strings.HasSuffix(elem, "/>") && (col < r.FirstCol || col > r.LastCol) {
			found = CellName(rowNum, col)
		}
	})
	return found
}

// rowCells calls f with each cell's start tag and column, a cell without
// a reference taking the column after the previous one's.
func rowCells(row []byte, f func(elem string, col int)) {
	col := 0
	for _, c := range cellStyleRe.FindAll(row, -1) {
		elem := string(c)
		if _, n, err := ParseCellName(attrs(elem)["r"]); err == nil {
			col = n
		} else {
			col++
		}
		f(elem, col)
	}
}

// rowStyles reads a row's cells' styles by column, from firstCol.
func rowStyles(row []byte, firstCol int) []int {
	var out []int
	rowCells(row, func(elem string, col int) {
		if col < firstCol {
			return
		}
		s, _ := strconv.Atoi(attrs(elem)["s"])
		for len(out) < col-firstCol {
			out = append(out, 0)
		}
		out = append(out, s)
	})
	return out
}

func (t *TemplateWriter) loadTable(part string) (*templateTable, error) {
	x, err := t.readPart(part, 16<<20)
	if err != nil {
		return nil, err
	}
	tb := &templateTable{part: part, xml: x}
	prefix := nsPrefix(x, nsMain, "")
	root := tableRootRe.with(prefix).Find(x)
	a := attrs(string(root))
	if tb.ref, err = ParseRange(a["ref"]); err != nil {
		return nil, fmt.Errorf("%w: %s: ref %q", ErrTemplate, part, a["ref"])
	}
	tb.names = []string{a["name"], a["displayName"]}
	tb.header = 1
	if a["headerRowCount"] == "0" {
		tb.header = 0
	}
	tb.totals, _ = strconv.Atoi(a["totalsRowCount"])
	for _, c := range tableColRe.with(prefix).FindAll(x, -1) {
		tb.columns = append(tb.columns, attrs(string(c))["name"])
	}
	return tb, nil
}

// check matches Fill's header to the table's columns.
func (tb *templateTable) check(header []string, sheet string, byPosition bool) error {
	if header == nil {
		return nil
	}
	if len(header) != len(tb.columns) {
		return fmt.Errorf("%w: sheet %q: the table has %d columns (%s), the rows %d (%s)", ErrTemplate, sheet,
			len(tb.columns), strings.Join(tb.columns, ", "), len(header), strings.Join(header, ", "))
	}
	if byPosition {
		return nil
	}
	for i, h := range header {
		if !strings.EqualFold(strings.TrimSpace(h), strings.TrimSpace(tb.columns[i])) {
			return fmt.Errorf("%w: sheet %q, column %d: the table's column is %q, the rows' %q (fill by position to take them as they come)",
				ErrTemplate, sheet, i+1, tb.columns[i], h)
		}
	}
	return nil
}
