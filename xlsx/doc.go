// Package xlsx writes and reads Excel workbooks (.xlsx) as streams.
//
// Rows go straight into any io.Writer — a file, an HTTP response, a pipe —
// while they are produced: no temporary file, no buffer of the whole
// workbook, and memory that does not grow with the number of rows.
//
//	w, err := xlsx.NewWriter(out, xlsx.Options{})
//	sheet, err := w.AddSheet("Sales", xlsx.SheetOptions{FreezeRows: 1})
//	err = sheet.WriteRow([]xlsx.Cell{xlsx.String("Region"), xlsx.String("Total")})
//	err = sheet.WriteRow([]xlsx.Cell{xlsx.String("North"), xlsx.Float(1234.5)})
//	err = w.Close()
//
// # Cells
//
// A Cell is a typed value: Int, Uint, Float, Number (any Go numeric kind),
// Decimal (a number given as text, written as it is), String, Bytes (text read
// from a reused buffer without copying), Bool, Time, Date, TimeOfDay,
// Duration, Formula (with an optional cached value), Error (#N/A and friends),
// Blank, Link, InternalLink and Rich (runs of differently formatted text). The
// zero Cell is an empty cell. Writing rows of cells does not allocate: reuse
// one []Cell for every row.
//
// # Streaming and its consequences
//
// A workbook is a zip archive whose parts must each be written whole, one
// after another, so:
//
//   - Sheets are written one at a time: AddSheet finishes the previous one.
//   - Rows are written top to bottom; SkipRows leaves gaps.
//   - What comes before the rows in a sheet's XML — column widths
//     (SetColumn), frozen panes, tab colour, visibility — is fixed before
//     the first row. What comes after — merged ranges, the autofilter,
//     hyperlinks — may be set until the sheet ends.
//   - The <dimension> element (the used range) comes before the rows. A
//     sheet that ends within its first chunk of XML gets its exact range; a
//     longer one gets SheetOptions.Dimension when given, else none, which
//     Excel and other readers accept. The full-grid range is never written:
//     some readers would allocate the whole grid.
//   - The shared strings table is written after the sheets. In the default
//     StringsAuto mode it deduplicates text while it stays under a memory
//     budget; text first seen after that is written inline, so memory stays
//     bounded even for columns of unique values.
//
// # Around the grid
//
// Reports need more than rows, and all of it streams: what Excel keeps
// after a sheet's rows, or in parts of its own, is collected while rows
// are written and written when the sheet ends, in memory that depends on
// the features used, not on the rows.
//
//   - Excel tables: Sheet.AddTable over a range that may end with the
//     sheet, with header names from the cells, a totals row under the
//     last row and calculated columns.
//   - Data validation (Sheet.AddValidation) and conditional formats
//     (Sheet.AddConditionalFormat): colour scales, data bars, icon sets,
//     rules and their formats.
//   - Notes (Sheet.AddNote) and pictures (Sheet.AddImage), placed from the
//     widths and heights of the cells around them; a note or picture goes
//     on the last row written or a later one, whose heights the sheet
//     records as they pass.
//   - Protection (SheetOptions.Protect, Style.Protection,
//     Options.ProtectWorkbook), print setup (SheetOptions.Print,
//     Sheet.AddPageBreak), outlines (RowOptions.OutlineLevel,
//     ColumnOptions.OutlineLevel), autofit (SheetOptions.AutoFit, from the
//     rows written before the sheet's head) and array formulas
//     (ArrayFormula, DynamicFormula).
//
// Ranges with LastRow 0 end with the sheet's last row written. Refusals of
// these calls (a bad name, a range overlapping a table) leave the Writer
// usable; errors while rows are written stop it, as for cells.
//
// # Encryption
//
// Options.Password encrypts the workbook as Excel does (ECMA-376 Agile
// encryption: AES-256, SHA-512, 100,000 hash rounds, an HMAC over the
// encrypted package); ReadOptions.Password opens Agile and Standard
// encrypted workbooks. Both work a 4 KiB segment at a time. Writing to an
// *os.File puts the encrypted package in place as it is produced; to
// other writers it is held back until Close (see ErrEncryptionBuffer).
//
// # Compression
//
// Sheet XML is cut into chunks that Options.Workers goroutines deflate in
// parallel; the chunks join into one standard deflate stream, and the file
// is byte-identical whatever the number of workers. Entries larger than
// 4 GiB use ZIP64, laid out the way Excel accepts it.
//
// # Sheets written at the same time
//
// Writer.AddConcurrentSheet returns sheets that goroutines of their own
// write at once, sharing the deflate workers, styles and shared strings.
// A zip archive is written front to back, so one of them streams into the
// file while the others hold their compressed output until the sheet
// before them is closed: in memory up to Options.SheetBufferSize for all
// of them, then in temporary files under Options.TempDir if it is set.
// Without TempDir (the default, which never touches the disk) a waiting
// sheet blocks once the budget is spent, until its turn comes: memory
// stays bounded, and the work past that point is as serial as writing
// the sheets one after another. With TempDir the sheets run in parallel
// to the end, at the cost of writing the later sheets' compressed bytes
// twice. The order of shared strings, and so the file's bytes, then
// depend on how the goroutines interleave.
//
// # Errors
//
// Excel's limits are enforced: 1,048,576 rows, 16,384 columns, 32,767
// characters per cell, sheet names of up to 31 characters without
// []:*?/\ and unique ignoring case, finite numbers, dates from 1900 (or
// 1904) to 9999. Errors about a cell are *CellError values naming the
// sheet, row and column, and wrap sentinels such as ErrCellTooLong for
// errors.Is. The first error stops the Writer: every later call and Close
// return it, so a failed export is never mistaken for a complete file.
//
// Control characters, which XML cannot carry, are written the way Excel
// writes them (_x0007_), and text that would otherwise read back as such
// an escape is escaped in turn. Text that is not UTF-8 is refused.
//
// # Reading
//
// Open (or NewReader over any io.ReaderAt) reads a workbook's structure;
// Workbook.Rows streams one sheet's rows:
//
//	wb, err := xlsx.Open("report.xlsx", xlsx.ReadOptions{})
//	rows, err := wb.Rows(ctx, 0)
//	defer rows.Close()
//	for rows.Next() {
//		for _, c := range rows.Row().Cells { ... c.Type(), c.Float(), c.Bytes(), c.Time() ... }
//	}
//	err = rows.Err()
//
// One goroutine inflates the sheet and cuts its XML into chunks at row
// boundaries; ReadOptions.Workers goroutines parse chunks at the same
// time with a purpose-built scanner (no encoding/xml); rows come out in
// order. Memory is the chunks in flight plus the shared strings table,
// whatever the size of the sheet, and a sparse sheet stays sparse: only
// cells that are there are reported. Several sheets may be read at once.
// A Row's cells refer into reused buffers and are valid until the next
// Next: copy what you keep (Value.String copies).
//
// Cells are typed as the file and its styles say: numbers, text (shared,
// inline, and rich text flattened without its phonetic guides), booleans,
// errors, and dates — a number whose format shows a date or a time, from
// the built-in format ids or a custom code such as [$-409]mmmm d, yyyy;@,
// in the 1900 or 1904 system — plus t="d" ISO cells. Formulas come with
// their cached values. Merged ranges and hyperlinks are known once the
// rows are read; defined names and sheet visibility at once.
//
// Files from anywhere are expected: namespace prefixes, rows and cells
// without references, UTF-16 parts, backslashes and odd case in part
// names, missing relationships. Hostile ones meet Limits — decompressed
// size, compression ratio, part size, XML depth, string length, shared
// string count and size, row size — and fail with ErrLimit. DOCTYPE is
// refused. Encrypted workbooks open with ReadOptions.Password (without
// it: ErrEncrypted; a wrong one: ErrPassword). Every error is a
// *ReadError naming the file, part, sheet and cell where it applies.
//
// # Other formats
//
// Open reads the format the bytes are, whatever the file's name
// (Workbook.Format says which), through the same Rows, cell types, date
// handling and errors:
//
//   - .xlsb, the Excel binary workbook: BIFF12 records in the same
//     package, streamed like the XML sheets (formulas' cached values; their
//     text is not decompiled, but defined names' references are);
//   - .xls, Excel 97-2003 (BIFF8) and Excel 5.0/95 (BIFF5, text in its
//     code page), from the compound file's Workbook stream; each sheet is
//     read from its offset in the stream; BIFF8 defined names with
//     references, areas and unions. Encrypted .xls files fail with
//     ErrUnsupportedEncryption, Excel 2.x-4.0 files with ErrLegacyXLS;
//   - .ods, OpenDocument spreadsheets: content.xml streamed with the same
//     scanner. Repeated rows and cells are never expanded in memory (a
//     repeated row with values is handed out once per row it stands for,
//     within Limits.MaxRepeatedCells); times are elapsed times
//     (Value.Elapsed), dates before 1900 stay text.
//
// The legacy corpus beside the project (712 files from calamine, xlrd,
// readxl and SheetJS) is read in the tests and compared cell by cell with
// python-calamine and xlrd.
//
// # Structs
//
// StructWriter and StructReader map a struct type to rows, a column per
// field, in both directions:
//
//	type Order struct {
//		ID     int64     `xlsx:"Order ID"`
//		Placed time.Time `xlsx:",date"`
//		Amount float64   `xlsx:",width=12,format=#,##0.00"`
//		Coupon *string   `xlsx:",omitempty"`
//		Notes  string    `xlsx:"-"`
//	}
//	orders, err := xlsx.NewStructWriter[Order](sheet, xlsx.StructOptions{}) // writes the header row
//	err = orders.Write(order)                                               // no allocation per row
//
//	orders, err := xlsx.NewStructReader[Order](rows, xlsx.StructOptions{Strict: true})
//	for o, err := range orders.All() { ... }
//
// The plan of a type (its columns, how each field becomes a cell) is made
// once, from its exported fields and their tags; embedded structs lend
// their fields. The reader matches headers to fields by the tag's name,
// then the field's, ignoring case, spaces, underscores and hyphens, and
// converts with care: an integer field takes a whole number in its range,
// a time field a date cell or ISO text. Tag errors are reported when the
// writer or reader is made, value errors as *FieldError naming sheet,
// cell, header and field. struct.go lists the tags and field types.
package xlsx
