// Package arrowsheet moves sheets to Apache Arrow record batches and
// back, streaming in both directions: for data tools (pandas, polars,
// DuckDB) that speak Arrow, and for Arrow and Parquet files.
//
// Reading (read.go): NewReader turns a sheet's rows into record batches
// of BatchRows rows, each column typed from its first SampleRows values
// (or as ReadOptions.Types fixes it):
//
//	numbers, every sampled one whole    int64
//	other numbers                       float64
//	an elapsed time ([h]:mm:ss)         duration[us]
//	text, or a column of mixed kinds    string (each cell's text)
//	booleans                            bool
//	dates without a time of day         date32
//	times of day                        time64[us]
//	other dates                         timestamp[us]
//	empty cells, error values (#N/A)    null
//
// A later cell that does not fit its column (text in an int64 column, a
// fraction in one of whole numbers) is an error naming its cell, never a
// silently wrong value: fix the column's type with ReadOptions.Types, or
// sample more rows, or let it widen: the error is a *MisfitError whose
// Wider type holds both (float64 for a fraction among whole numbers,
// timestamp for a date-time among dates, else string), and Widen gives
// the Types to read the sheet again with (WidenedTypes finds them all).
//
// Writing (write.go): a Writer writes record batches to a sheet laid out
// as every sheetstream export is (xlsx.TableSheets: a bold frozen header
// of the field names, fitted columns, an autofilter or an Excel table,
// continuation sheets past Excel's row limit), one batch after another in
// the xlsx.Writer's constant memory. Every primitive, temporal, decimal,
// dictionary and large or view string type maps to the cell and number
// format a reader expects; nulls are empty cells.
package arrowsheet
