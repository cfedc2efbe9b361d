// Package sqlsheet moves tables between SQL databases and worksheets:
// Export writes the results of queries to sheets of an xlsx.Writer, with
// cells typed from the columns' database types, and Import loads a sheet
// of an xlsx.Workbook into a table. Open opens a database from a URL
// (sqlite:, postgres://, mysql://); EngineOf tells which one a *sql.DB
// talks to, which decides the fastest path each direction takes.
//
// # Export
//
// Rows are read the fastest way each database offers — PostgreSQL's
// through pgx's own rows, a SQLite file through SQLite's API on a
// read-only connection of the export's own, others through database/sql
// — and every value goes through one conversion to a cell.
//
// Type mapping (the same for every driver; see the README for the table):
// integers are exact numbers, except beyond ±2^53 where a double would
// change them, so they are written as text (Warnings.BigNumbers counts
// them; Options.ForceNumbers writes numbers anyway). DECIMAL and NUMERIC
// values likewise: numbers up to 15 significant digits, text beyond.
// DATE, TIMESTAMP and TIME become date cells with matching formats,
// keeping fractional seconds to the millisecond (Excel's resolution);
// TIMESTAMP WITH TIME ZONE is converted to Options.Location (UTC by
// default) and written without the zone, since Excel has none. INTERVAL
// becomes a duration when it has no months or years. Booleans are
// TRUE/FALSE; NULL is an empty cell or Options.Null; binary columns
// become a placeholder, hex or base64; JSON, arrays, UUIDs and other
// types become text. Text longer than a cell holds is cut
// (Warnings.Truncated), or fails under Options.Strict. Dates Excel cannot
// show (before 1900) are written as ISO text (Warnings.DatesOutOfRange).
//
// Each sheet has a bold, frozen header row, an autofilter over the data,
// and column widths fitted to a sample of the first rows, which is the
// only part of the result held in memory. Past 1,048,575 data rows the
// export continues on "NAME (2)", "NAME (3)"... with the header repeated.
// Options.ReadOnly and Options.StatementTimeout run the queries in a
// read-only transaction with a time limit, as the service does.
//
// # Import
//
// Import loads one sheet into a new table (Create), an existing one
// (Append, matching header names to columns, ignoring case) or a
// replacement (Replace), all or nothing: the rows go in one transaction —
// PostgreSQL's COPY through pgx, batched multi-row INSERTs for SQLite and
// MySQL (where a new table is filled under a temporary name and renamed
// when complete, since MySQL commits DDL at once). Column types are
// inferred from every cell of the column (integer, float, boolean, date,
// timestamp, time or text), or with Append taken from the table. A cell
// the column cannot hold stops the import with an *ImportError naming the
// sheet, cell and column (ErrBadCell), and leaves the database as it was;
// Excel error values load as NULL and are counted.
package sqlsheet
