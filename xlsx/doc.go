// Package xlsx writes Excel workbooks (.xlsx) as a stream.
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
// String, Bytes (text read from a reused buffer without copying), Bool,
// Time, Date, TimeOfDay, Duration, Formula (with an optional cached value),
// Error (#N/A and friends), Blank, Link, InternalLink and Rich (runs of
// differently formatted text). The zero Cell is an empty cell. Writing
// rows of cells does not allocate: reuse one []Cell for every row.
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
// # Compression
//
// Sheet XML is cut into chunks that Options.Workers goroutines deflate in
// parallel; the chunks join into one standard deflate stream, and the file
// is byte-identical whatever the number of workers. Entries larger than
// 4 GiB use ZIP64, laid out the way Excel accepts it.
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
package xlsx
