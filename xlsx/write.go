package xlsx

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/klauspost/compress/flate"

	"github.com/sheetstream/sheetstream/internal/deflate"
	"github.com/sheetstream/sheetstream/internal/zipstream"
)

// StringMode says how text cells are stored.
type StringMode uint8

// DefaultSharedStringsBudget bounds the shared strings table in
// StringsAuto mode.
const DefaultSharedStringsBudget = 1 << 20

// Compression trades output size for speed.
type Compression uint8

const (
	// CompressionBalanced is the default: the fastest level whose files
	// stay within 1.1x the size of rust_xlsxwriter's at its default
	// level. Measured on the benchmark workloads (bench/RESULTS.md) that
	// is deflate's fastest level, so today it equals CompressionFastest:
	// level 3 made files 2-8% smaller and took 11-14% longer.
	CompressionBalanced Compression = iota
	// CompressionFastest deflates at the fastest level.
	CompressionFastest
	// CompressionSmallest spends the most time for the smallest file.
	CompressionSmallest
	// CompressionNone stores the XML uncompressed (in deflate's stored
	// blocks, which every reader accepts).
	CompressionNone
)

func (c Compression) level() (int, error) {
	switch c {
	case CompressionBalanced, CompressionFastest:
		return 1, nil
	case CompressionSmallest:
		return 9, nil
	case CompressionNone:
		return 0, nil
	}
	return 0, fmt.Errorf("unknown compression %d", c)
}

// Properties are the document properties (File > Info in Excel).
type Properties struct {
	Title, Subject, Creator, Keywords, Description string
	LastModifiedBy, Category, Company, Manager     string
	// Status is the content status, such as "Draft" or "Final".
	Status string
	// Created is the creation time; the zero time means now.
	Created time.Time
}

// Options configure a Writer. The zero Options are sensible defaults.
type Options struct {
	// Strings chooses between shared and inline strings; see StringMode.
	Strings StringMode
	// SharedStringsBudget bounds the shared strings table's memory in
	// StringsAuto mode, in bytes (0: DefaultSharedStringsBudget).
	SharedStringsBudget int
	// Date1904 uses the 1904 date system (dates count from 1904-01-01).
	Date1904 bool
	// Location, when set, converts every time value to this location
	// before its wall clock is written. Excel has no time zones.
	Location *time.Location
	// Compression level of the zip entries.
	Compression Compression
	// Workers is the number of goroutines deflating in parallel
	// (0: GOMAXPROCS). With 1, compression runs on the writing goroutine.
	Workers int
	// ChunkSize is the size of the pieces of sheet XML that are deflated
	// in parallel (0: a default chosen by measurement).
	ChunkSize int
	// Properties are stored in docProps/core.xml and docProps/app.xml.
	Properties Properties
	// CellRefs chooses when cells carry their reference (r="B7").
	CellRefs CellRefs
	// SheetBufferSize bounds, in bytes, the compressed output that sheets
	// written concurrently hold in memory while they wait for their turn
	// in the file (0: DefaultSheetBufferSize). See AddConcurrentSheet.
	SheetBufferSize int
	// TempDir, when set, lets waiting sheets put what does not fit in
	// SheetBufferSize in temporary files in that directory (removed
	// before Close returns). Empty, the Writer never touches the disk and
	// a waiting sheet's writes block instead until its turn comes.
	TempDir string
	// Password encrypts the workbook (ECMA-376 Agile encryption, as Excel
	// writes it: AES-256, SHA-512, 100,000 hash rounds); Excel and other
	// readers ask for the password to open it. Written to an *os.File,
	// the encrypted package goes straight into its place and the file's
	// remaining parts follow at Close; written to an output that cannot
	// seek, it is held back until Close (see ErrEncryptionBuffer), in
	// memory up to SheetBufferSize, then in TempDir. This is not sheet
	// protection, which only asks Excel to lock editing and hides nothing.
	Password string
	// ProtectWorkbook locks the workbook's structure: sheets cannot be
	// added, deleted, moved, renamed, hidden or shown.
	ProtectWorkbook *WorkbookProtection
}

// WorkbookProtection locks a workbook's structure (and its windows, as
// older Excel versions knew them), with a password needed to unlock it
// if Password is set.
type WorkbookProtection struct {
	Password string
	Windows  bool
}

// DefaultSheetBufferSize bounds the output held by concurrent sheets.
const DefaultSheetBufferSize = 16 << 20

// CellRefs says when a cell's XML names its reference.
type CellRefs uint8

const (
	// CellRefsCompact writes a reference only where a cell does not
	// directly follow the previous one in its row, as the format allows:
	// a third less XML for dense rows. Excel, LibreOffice, openpyxl and
	// calamine read it.
	CellRefsCompact CellRefs = iota
	// CellRefsAlways writes every reference, as Excel itself does.
	CellRefsAlways
)

// DefinedName is a workbook-level or sheet-level name for a range,
// constant or formula.
type DefinedName struct {
	Name string
	// RefersTo is a formula such as "Sheet1!$A$1:$B$10" (no leading "=").
	RefersTo string
	// Sheet scopes the name to one sheet; "" makes it global.
	Sheet  string
	Hidden bool
}

// Writer streams a workbook into an io.Writer. Add sheets one after
// another and write their rows, or write several at once from their own
// goroutines (AddConcurrentSheet); Close finishes the file. Nothing is
// kept on disk and memory does not grow with the number of rows.
//
// Writer's own methods are for one goroutine. After any error the Writer
// stops: later calls, and Close, return that error, so a broken file is
// never reported as written.
type Writer struct {
	customXML [][]byte // custom XML data parts, in order
	opts      Options
	zip       *zipstream.Writer
	pool      *deflate.Pool
	styles    *styleSheet
	sst       *sharedStrings
	sheets    []*Sheet
	current   *Sheet // the last sheet from AddSheet, finished by the next
	names     []DefinedName
	// workbookPassword is Options.ProtectWorkbook's password, hashed.
	workbookPassword passwordHash
	// Tables' names (lower case) and how many there are, for their ids.
	tableNames map[string]bool
	tableCount int
	noteSheets int // sheets with notes so far
	// dynamicArrays is set by the first dynamic array formula, which
	// needs the workbook's metadata part.
	dynamicArrays atomic.Bool
	drawings      int // sheets with pictures or charts so far
	// Charts, in the order of their parts, and the ranges of charts
	// waiting for a sheet not yet added (by lower-case name).
	charts     []*sheetChart
	chartCount int
	chartWatch map[string][]*chartRef
	// pivotWatch are pivot tables declared before their source sheet,
	// by its lower-case name; pivots those written, numbered from 1.
	pivotWatch map[string][]*pivot
	pivots     []*pivot
	pivotCount int
	// worksheets and chartSheets count each kind's parts.
	worksheets, chartSheets int
	media                   []media
	mediaIndex              map[[32]byte]int
	partFW                  *flate.Writer
	partBuf                 bytes.Buffer
	closed                  bool
	created                 time.Time
	level                   int

	errMu  sync.Mutex
	err    error
	failed atomic.Bool

	// concurrent is set by the first AddConcurrentSheet, before any
	// sheet can be written from another goroutine; from then on, sheets
	// share styles and strings under the shared lock.
	concurrent bool
	shared     sync.Mutex

	// Whose turn it is in the archive, when sheets are written at once.
	turns archiveTurns
	// encrypted wraps the output when Options.Password is set.
	encrypted *encryptedOutput
}

// NewWriter returns a Writer that streams a workbook into w. Nothing is
// written to w until the first sheet is added.
//
// Errors: an unknown Options.Compression; the deflate pool's errors for
// Workers or ChunkSize out of range.
func NewWriter(w io.Writer, opts Options) (*Writer, error) {
	level, err := opts.Compression.level()
	if err != nil {
		return nil, err
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	pool, err := deflate.NewPool(level, workers, opts.ChunkSize)
	if err != nil {
		return nil, err
	}
	budget := opts.SharedStringsBudget
	switch {
	case opts.Strings == StringsShared:
		budget = -1
	case budget <= 0:
		budget = DefaultSharedStringsBudget
	}
	created := opts.Properties.Created
	if created.IsZero() {
		created = time.Now()
	}
	heldBudget := opts.SheetBufferSize
	if heldBudget <= 0 {
		heldBudget = DefaultSheetBufferSize
	}
	var bookPassword passwordHash
	if p := opts.ProtectWorkbook; p != nil {
		if !validAttrText(p.Password) {
			return nil, fmt.Errorf("%w: the workbook protection's password holds a character XML cannot carry", ErrRange)
		}
		if p.Password != "" {
			if bookPassword, err = hashPassword(p.Password); err != nil {
				return nil, fmt.Errorf("protecting the workbook: %w", err)
			}
		}
		protect := *p
		opts.ProtectWorkbook = &protect
	}
	out := w
	var encrypted *encryptedOutput
	if opts.Password != "" {
		if encrypted, err = newEncryptedOutput(w, opts.Password, opts); err != nil {
			return nil, fmt.Errorf("encrypting: %w", err)
		}
		out = encrypted
	}
	wr := &Writer{
		encrypted: encrypted,
		opts:      opts,
		zip:       zipstream.NewWriter(out),
		pool:      pool,
		styles:    newStyleSheet(),
		sst:       newSharedStrings(budget),
		created:   created.UTC().Truncate(time.Second),
		level:     level,

		workbookPassword: bookPassword,
	}
	wr.turns.init(heldBudget)
	return wr, nil
}

// fail records the first error; every later call returns it. Sheets
// waiting for their turn drop what they hold and wake up to see it.
func (w *Writer) fail(err error) error {
	w.errMu.Lock()
	first := w.err == nil
	if first {
		w.err = err
		w.failed.Store(true)
	}
	err = w.err
	w.errMu.Unlock()
	if first {
		w.turns.drop()
	}
	return err
}

// loadErr returns the error that stopped the Writer, if any.
func (w *Writer) loadErr() error {
	if !w.failed.Load() {
		return nil
	}
	w.errMu.Lock()
	defer w.errMu.Unlock()
	return w.err
}

// lockShared guards what sheets share (styles, shared strings) once they
// may be written concurrently.
func (w *Writer) lockShared() {
	if w.concurrent {
		w.shared.Lock()
	}
}

func (w *Writer) unlockShared() {
	if w.concurrent {
		w.shared.Unlock()
	}
}

// AddStyle registers a style and returns its id for Cell.WithStyle.
// Registering an equal style again returns the same id. It may be called
// while concurrent sheets are being written.
//
// Errors: ErrStyle for a colour that is not hex, a font size outside
// 1..409, a font name or number format XML cannot carry, a rotation
// outside -90..90, or more fonts or cell formats than Excel allows;
// ErrClosed after Close.
func (w *Writer) AddStyle(st Style) (StyleID, error) {
	if err := w.loadErr(); err != nil {
		return 0, err
	}
	if w.closed {
		return 0, ErrClosed
	}
	w.lockShared()
	defer w.unlockShared()
	id, err := w.styles.add(st)
	if err != nil {
		return 0, err
	}
	return id, nil
}

// DefineName adds a defined name to the workbook.
//
// Errors: a name that is not a valid Excel name (or looks like a cell
// reference), a RefersTo that is empty or not text XML can carry, and a
// name already defined in the same scope. A Sheet that does not exist is
// reported by Close, since the sheet may still be added.
func (w *Writer) DefineName(n DefinedName) error {
	if err := w.loadErr(); err != nil {
		return err
	}
	if !validDefinedName(n.Name) {
		return fmt.Errorf("invalid defined name %q", n.Name)
	}
	if n.RefersTo == "" || !validAttrText(n.RefersTo) {
		return fmt.Errorf("defined name %q: invalid reference %q", n.Name, n.RefersTo)
	}
	n.RefersTo = strings.TrimPrefix(n.RefersTo, "=")
	for _, o := range w.names {
		if strings.EqualFold(o.Name, n.Name) && o.Sheet == n.Sheet {
			return fmt.Errorf("defined name %q already exists", n.Name)
		}
	}
	w.lockShared()
	isTable := w.tableNames[strings.ToLower(n.Name)]
	w.unlockShared()
	if isTable {
		return fmt.Errorf("defined name %q: %w: a table has that name", n.Name, ErrTable)
	}
	w.names = append(w.names, n)
	return nil
}

// validDefinedName follows Excel's rule: a letter, underscore or backslash,
// then letters, digits, underscores and dots; not a cell reference.
func validDefinedName(s string) bool {
	if s == "" || len(s) > 255 {
		return false
	}
	if strings.HasPrefix(s, "_xlnm.") {
		return true
	}
	for i, r := range s {
		letter := r == '_' || r == '\\' || r > 127 || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
		if i == 0 && !letter || !letter && r != '.' && r != '?' && !('0' <= r && r <= '9') {
			return false
		}
	}
	if _, _, err := ParseCellName(strings.ToUpper(s)); err == nil {
		return false
	}
	return !strings.EqualFold(s, "R") && !strings.EqualFold(s, "C")
}

// CheckSheetName reports whether name can be a sheet name: 1 to 31
// characters, none of []:*?/\, not beginning or ending with an
// apostrophe, and not "History", which Excel reserves.
func CheckSheetName(name string) error {
	n := utf8.RuneCountInString(name)
	switch {
	case name == "" || !utf8.ValidString(name):
		return fmt.Errorf("%w: %q is empty or not UTF-8", ErrSheetName, name)
	case n > 31 || utf16Len(name) > 31:
		return fmt.Errorf("%w: %q is longer than 31 characters", ErrSheetName, name)
	case strings.ContainsAny(name, `[]:*?/\`):
		return fmt.Errorf("%w: %q contains one of []:*?/\\", ErrSheetName, name)
	case name[0] == '\'' || name[len(name)-1] == '\'':
		return fmt.Errorf("%w: %q begins or ends with an apostrophe", ErrSheetName, name)
	case strings.EqualFold(name, "History"):
		return fmt.Errorf("%w: Excel reserves the name %q", ErrSheetName, name)
	case strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7F }) || !validAttrText(name):
		return fmt.Errorf("%w: %q contains control characters", ErrSheetName, name)
	}
	return nil
}

// NumberedSheetName names the n-th sheet (0-based) of a series that
// continues a table past Excel's row limit: "Data", "Data (2)",
// "Data (3)"..., cut to fit in 31 characters.
func NumberedSheetName(base string, n int) string {
	if n == 0 {
		return base
	}
	suffix := " (" + strconv.Itoa(n+1) + ")"
	r := []rune(base)
	if keep := 31 - len(suffix); len(r) > keep {
		r = r[:keep]
	}
	return string(r) + suffix
}

// AddSheet finishes the sheet that the previous AddSheet returned, if it
// is not closed yet, and starts a new one. Sheets appear in the workbook
// in the order they are added.
//
// Errors: ErrSheetName for a name CheckSheetName refuses or one already
// used; ErrRange (in a *CellError) for FreezeRows, FreezeCols or a
// Dimension outside the grid; errors from finishing the previous sheet;
// ErrClosed after Close; and the Writer's first error, once it has one.
func (w *Writer) AddSheet(name string, opts SheetOptions) (*Sheet, error) {
	if err := w.closeCurrent(); err != nil {
		return nil, err
	}
	s, err := w.addSheet(name, opts)
	if err == nil {
		w.current = s
	}
	return s, err
}

// closeCurrent checks that sheets can be added and finishes the sheet
// from the last AddSheet.
func (w *Writer) closeCurrent() error {
	if err := w.loadErr(); err != nil {
		return err
	}
	if w.closed {
		return ErrClosed
	}
	if w.current != nil {
		if err := w.current.Close(); err != nil {
			return err
		}
		w.current = nil
	}
	return nil
}

// AddConcurrentSheet starts a sheet that may be written from its own
// goroutine while other sheets are written from theirs. Like AddSheet,
// it finishes the sheet that the previous AddSheet returned; unlike
// AddSheet's, this sheet stays open until its Sheet.Close (or the
// Writer's Close). Sheets appear in the workbook in the order they are
// added.
//
// The archive is written front to back, so only one sheet at a time
// streams into it; the others deflate as they go and hold their
// compressed output until the sheet before them is closed. They hold it
// in memory up to Options.SheetBufferSize (for all of them together),
// then in temporary files if Options.TempDir is set; without TempDir a
// waiting sheet's writes block until its turn comes instead, which keeps
// memory bounded and never touches the disk but serializes the work past
// that point. Write each concurrent sheet from a goroutine of its own:
// one goroutine taking turns between two sheets would wait on itself.
//
// Shared strings are shared between all sheets; their order in the file,
// and so the file's bytes, depend on how the goroutines interleave.
func (w *Writer) AddConcurrentSheet(name string, opts SheetOptions) (*Sheet, error) {
	if err := w.closeCurrent(); err != nil {
		return nil, err
	}
	if _, ok := w.pivotWatch[strings.ToLower(name)]; ok {
		// A pivot's sheet is written when its source closes, which a
		// concurrent sheet does on a goroutine of its own.
		return nil, fmt.Errorf("%w: the source %q of a pivot table is written as a sheet after another, not concurrently", ErrPivot, name)
	}
	if !w.concurrent {
		// No sheet is being written elsewhere yet, so this is safe.
		w.concurrent = true
	}
	return w.addSheet(name, opts)
}

func (w *Writer) addSheet(name string, opts SheetOptions) (*Sheet, error) {
	if err := CheckSheetName(name); err != nil {
		return nil, err
	}
	for _, s := range w.sheets {
		if strings.EqualFold(s.name, name) {
			return nil, fmt.Errorf("%w: %q is already used (names ignore case)", ErrSheetName, name)
		}
	}
	if opts.TabColor != "" {
		if _, err := opts.TabColor.argb(); err != nil {
			return nil, err
		}
	}
	if opts.FreezeRows < 0 || opts.FreezeRows >= MaxRows || opts.FreezeCols < 0 || opts.FreezeCols >= MaxColumns {
		return nil, &CellError{Sheet: name, Err: fmt.Errorf("%w: cannot freeze %d rows and %d columns", ErrRange, opts.FreezeRows, opts.FreezeCols)}
	}
	if opts.Print != nil {
		if err := checkPrintSetup(opts.Print); err != nil {
			return nil, &CellError{Sheet: name, Err: err}
		}
		print := *opts.Print
		print.RowBreaks, print.ColumnBreaks = slices.Clone(print.RowBreaks), slices.Clone(print.ColumnBreaks)
		if print.Margins != nil {
			margins := *print.Margins
			print.Margins = &margins
		}
		opts.Print = &print
	}
	if opts.RowOutlineLevels > 7 {
		return nil, &CellError{Sheet: name, Err: fmt.Errorf("%w: outline level %d outside 0..7", ErrRange, opts.RowOutlineLevels)}
	}
	if d := opts.Dimension; d != (Range{}) && !d.valid() {
		return nil, &CellError{Sheet: name, Err: fmt.Errorf("%w: dimension %v", ErrRange, d)}
	}
	w.worksheets++
	s := &Sheet{w: w, name: name, index: len(w.sheets), opts: opts, part: w.worksheets}
	w.lockShared() // a concurrent sheet's AddChart may be registering
	if refs, ok := w.chartWatch[strings.ToLower(name)]; ok {
		s.chartRefs = refs
		delete(w.chartWatch, strings.ToLower(name))
	}
	if ps, ok := w.pivotWatch[strings.ToLower(name)]; ok {
		s.pivots = ps
		delete(w.pivotWatch, strings.ToLower(name))
	}
	w.unlockShared()
	if opts.Protect != nil {
		var err error
		if s.protection, err = newSheetProtection(opts.Protect); err != nil {
			return nil, &CellError{Sheet: name, Err: err}
		}
		s.opts.Protect = nil // held hashed
	}
	if err := w.takeActive(s); err != nil {
		return nil, err
	}
	s.sink = w.newSink(s)
	s.stream = w.pool.NewStream(s.sink)
	s.buf = w.pool.Buffer()
	w.sheets = append(w.sheets, s)
	if err := w.startSink(s.sink); err != nil {
		return nil, err
	}
	return s, nil
}

// takeActive makes a new sheet the one Excel shows when it opens if it
// asks to be or it is the first visible sheet.
func (w *Writer) takeActive(s *Sheet) error {
	a := w.activeSheet()
	switch {
	case s.opts.Active && s.opts.State != SheetVisible:
		return &CellError{Sheet: s.name, Err: fmt.Errorf("%w: a hidden sheet cannot be the active one", ErrSheetName)}
	case s.opts.Active && a >= 0:
		if w.sheets[a].headWritten {
			return &CellError{Sheet: s.name, Err: fmt.Errorf("%w: sheet %q was shown first and its head is written", ErrHeadWritten, w.sheets[a].name)}
		}
		w.sheets[a].active = false
		s.active = true
	case s.opts.State == SheetVisible && a < 0:
		// The first visible sheet is the one Excel shows when it opens.
		s.active = true
	}
	return nil
}

func (w *Writer) activeSheet() int {
	for i, s := range w.sheets {
		if s.active {
			return i
		}
	}
	return -1
}

func (w *Writer) timeValue(k cellKind, c *Cell) (float64, error) {
	if k == kindDuration {
		return float64(c.duration()) / nanosPerDay, nil
	}
	t := c.t
	if w.opts.Location != nil {
		t = t.In(w.opts.Location)
	}
	if k == kindTimeOfDay {
		return timeFraction(t), nil
	}
	v, ok := excelSerial(t, w.opts.Date1904)
	if k == kindDate {
		v = math.Floor(v)
	}
	if !ok {
		first := "1900-01-01"
		if w.opts.Date1904 {
			first = "1904-01-01"
		}
		return 0, fmt.Errorf("%w: %s is not within %s..9999-12-31", ErrDateRange, t.Format("2006-01-02"), first)
	}
	return v, nil
}

func (w *Writer) sheetIndex(name string) int {
	for i, s := range w.sheets {
		if strings.EqualFold(s.name, name) {
			return i
		}
	}
	return -1
}
