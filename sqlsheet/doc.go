// Package sqlsheet moves tables between SQL databases and worksheets: Export
// writes the results of queries to sheets of an xlsx.Writer, with cells typed
// from the columns' database types, and ImportFrom loads a sheet (SheetSource)
// or delimited text (csvsheet.NewTable) into a table. Open opens a database
// from a URL (sqlite:, postgres://, mysql://); EngineOf tells which one a
// *sql.DB talks to, which decides the fastest path each direction takes.
//
// # Export
//
// Rows are read the fastest way each database offers — PostgreSQL's
// through pgx's own rows, a SQLite file through SQLite's API on a
// read-only connection of the export's own, others through database/sql
// — and every value goes through one conversion to a cell.
//
// Type mapping (the same for every driver; docs/formats.md has the table):
// integers are exact numbers, except beyond ±2^53 where a double would
// change them, so they are written as text (Warnings.BigNumbers counts
// them; Options.ForceNumbers writes numbers anyway). DECIMAL and NUMERIC
// values likewise: numbers up to 15 significant digits, text beyond.
// DATE, TIMESTAMP and TIME become date cells with matching formats,
// showing fractional seconds to the millisecond (Excel's resolution),
// their serials keeping the microseconds until 2079, which Import reads
// back (a date cell's time is read to the microsecond there);
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
// and column widths fitted to the first rows written (the sheet measures
// them as it writes; only a preview holds its rows). Past 1,048,575 data
// rows the export continues on "NAME (2)", "NAME (3)"... with the header
// repeated.
// Options.ReadOnly and Options.StatementTimeout run the queries in a
// read-only transaction with a time limit, as the service does.
//
// Unless Options.NoSchema, each export also writes a schema part into
// the workbook (a custom XML part Excel and LibreOffice leave alone):
// per sheet the engine, each column's SQL type with precision, scale and
// the time zone shown, the number of rows (a row of NULLs shows as an
// empty row, which an import reading the part loads as a row, not as a
// blank line to skip), and for Query.Table the table's primary key.
//
// # Import
//
// ImportFrom loads a Source into a new table (Create), an existing one
// (Append, matching header names to columns, ignoring case), a
// replacement (Replace) or an existing table matched on a key (Merge:
// new keys inserted, changed rows updated, the rest left; the key is
// ImportOptions.Key, else the one an export recorded, else the table's
// primary key), all or
// nothing: the rows go in one transaction — a SQLite file through
// SQLite's API on a connection of the import's own, PostgreSQL with COPY
// in its text format, MySQL with LOAD DATA LOCAL from a stream (where a
// new table is filled under a temporary name and renamed when complete,
// since MySQL commits DDL at once). Merges and DryRun go through a
// temporary stage table; a dry run rolls back and reports what it would
// have done in ImportStats.
//
// A cell is checked against its column before it is sent: its kind (a word is
// no integer), an existing table's NOT NULL (a column that numbers rows itself
// aside: MySQL's AUTO_INCREMENT, SQLite's INTEGER PRIMARY KEY) and, in an
// existing PostgreSQL or MySQL table, the column's declared limits: VARCHAR(n)
// characters, NUMERIC(p,s) digits (MySQL, which would round, takes no more
// than s after the point), SMALLINT and other narrow integers' ranges, REAL's
// range, an enum's values (MySQL's ENUM and SET, folded as its collations
// fold; PostgreSQL's exactly), MySQL's TIMESTAMP range (32-bit Unix time, in
// the session's time zone, as the server gives it), and PostgreSQL's text
// holds no NUL. A cell over them is an *ImportError naming it, or a row
// MaxErrors skips, where the server's refusal would name no row and take every
// row with it. An Append whose rows have no column for one the table requires
// (NOT NULL without a default) fails before any row.
//
// A new table's columns are named after the header: a name the header
// has twice gets _2, _3 (ignoring case), a blank one colN, and one longer
// than the engine takes is cut to fit (PostgreSQL 63 bytes, MySQL 64
// characters; on MySQL, white space at the end is trimmed and each
// character beyond the Basic Multilingual Plane, such as an emoji,
// becomes "_"), as Append fits it again to find the column. A header
// holding a NUL character is an error naming its cell.
//
// Where the table is: Range, HeaderRow (or HeaderAuto), StopAtEmpty and
// Columns pick it out of a report. Column types are inferred from every cell
// of the column (integer, float, boolean, date, timestamp, time, on PostgreSQL
// timestamptz for text timestamps with a UTC offset, or text): guessed from
// the first rows and checked as the rows load, or, when a row contradicts the
// guess, from a first pass that keeps the rows in a spool file for the
// second), overridden by Types or AllText, taken from the workbook's schema
// part when an export wrote one (unless Infer), or, into an existing table,
// taken from the table. Columns the schema part says are binary are never
// loaded from the sheet, which holds placeholders or encoded text for them
// (ImportStats.Binary): a new table gets them NULL, an existing one keeps its
// bytes, and Replace, which would drop them, is refused. A text the export cut
// to what a cell holds (the part counts them) is ErrBadCell in Append, Merge
// and Replace, which would cut the table's value with it. A cell the column
// cannot hold stops the import with an *ImportError naming the sheet, cell and
// column (ErrBadCell), and leaves the database as it was, unless MaxErrors
// lets the row be skipped (and written to Rejects). A row the database refuses
// (a duplicate key, a CHECK or foreign key constraint) stops the import and
// rolls it back, with an *ImportError naming the row (Col 0) where the server
// says which it was: always on SQLite and PostgreSQL (whose detail, "Key
// (id)=(3) already exists", is kept); MySQL's LOAD DATA names the key of a
// duplicate but not its row; a merge, applied from its stage in parts when the
// table refuses it, names the row on every engine. Under MaxErrors such rows
// are rejected too, written to Rejects with the database's reason and their
// values: SQLite's loader retries a refused statement row by row; into a
// PostgreSQL or MySQL table that can refuse a row, the rows go through a stage
// table and are moved into the table in parts, narrowed down to the rows
// refused. Excel error values load as NULL and are counted.
package sqlsheet
