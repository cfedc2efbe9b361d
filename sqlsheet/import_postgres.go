package sqlsheet

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// copyText streams the rows into table with COPY in PostgreSQL's text
// format, as psql's \copy does: the tagged values are written straight
// into the COPY data (no value is boxed, and the server parses each as
// its column's type: numeric, uuid, jsonb, arrays alike), on a goroutine
// of its own while the connection sends what is ready. With a stage
// table, each row's number in the source goes last. A new table whose
// columns all have types the binary format spells simply gets that
// format instead, which spares the server parsing every value.
func (imp *importer) copyText(ctx context.Context, conn *pgconn.PgConn, table string, columns []string) error {
	pr, pw := io.Pipe()
	produced := make(chan error, 1)
	binary := imp.binaryCopy()
	var sent copyLines
	go func() {
		var err error
		if binary {
			err = imp.writeCopyBinary(ctx, pw, &sent)
		} else {
			err = imp.writeCopyText(ctx, pw, &sent)
		}
		pw.CloseWithError(err)
		produced <- err
	}()
	sql := "COPY " + imp.engine.quoteTable(table) + " (" + imp.quoteAll(columns) + ") FROM STDIN"
	if binary {
		sql += " WITH (FORMAT binary)"
	}
	_, err := conn.CopyFrom(ctx, pr, sql)
	pr.CloseWithError(errCopyEnded) // stops the writer if COPY ended first
	if perr := <-produced; perr != nil && !errors.Is(perr, errCopyEnded) {
		return perr // the source's or a cell's error comes first
	}
	if err != nil {
		return imp.copyError(err, &sent)
	}
	return nil
}

var errCopyEnded = errors.New("copy ended")

// copyError names the source row of the COPY line the server refused (a
// duplicate key, a foreign key or CHECK constraint, a value the column
// type refuses) and adds the server's detail, which names the values:
// "Key (id)=(2) already exists".
func (imp *importer) copyError(err error, sent *copyLines) error {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return fmt.Errorf("copy into %s: %w", imp.opts.Table, err)
	}
	err = withDetail(err)
	if num := sent.row(copyLine(pgErr.Where)); num > 0 {
		return &ImportError{Table: imp.opts.Table, Sheet: imp.src.SheetName(), Row: num, Err: err}
	}
	return fmt.Errorf("copy into %s: %w", imp.opts.Table, err)
}

// copyLine reads the line of a COPY error's context, "COPY t, line 3" or
// "COPY t, line 3, column id: ...", 1 for the first row; 0 when it has
// none.
func copyLine(where string) int {
	_, after, ok := strings.Cut(where, ", line ")
	if !ok || !strings.HasPrefix(where, "COPY ") {
		return 0
	}
	end := strings.IndexFunc(after, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(after)
	}
	n, err := strconv.Atoi(after[:end])
	if err != nil {
		return 0
	}
	return n
}

// copyLines maps the lines of a COPY (its rows in the order sent, from
// 1) back to the source rows they came from. It keeps one entry for each
// run of consecutive source rows, so it grows with the gaps between them
// (blank and rejected rows), up to maxCopyRuns, and not with the rows.
type copyLines struct {
	runs  []copyRun
	lines int  // rows sent
	last  int  // the source row of the last line
	full  bool // runs reached maxCopyRuns: later lines are not mapped
}

// copyRun is the first line of a run and its source row.
type copyRun struct{ line, num int }

const maxCopyRuns = 1 << 16

// add records the next line, from source row num.
func (c *copyLines) add(num int) {
	c.lines++
	if num != c.last+1 || len(c.runs) == 0 {
		if len(c.runs) == maxCopyRuns {
			c.full = true
		}
		if !c.full {
			c.runs = append(c.runs, copyRun{c.lines, num})
		}
	}
	c.last = num
}

// row is the source row of a line; 0 when it is not known.
func (c *copyLines) row(line int) int {
	if line < 1 || line > c.lines {
		return 0
	}
	i := sort.Search(len(c.runs), func(i int) bool { return c.runs[i].line > line }) - 1
	if i < 0 || (c.full && i == len(c.runs)-1) {
		return 0 // the last run kept may have been cut by an unrecorded gap
	}
	return c.runs[i].num + line - c.runs[i].line
}

// binaryCopy says whether the rows can go in COPY's binary format: into
// a new table (not a stage), every column of a type sqlsheet creates and
// writes exactly (int8, float8, bool, date, timestamp, timestamptz, time,
// text).
func (imp *importer) binaryCopy() bool {
	if !imp.created || imp.staged() {
		return false
	}
	for _, c := range imp.cols {
		switch c.SQLType {
		case "text", "bigint", "double precision", "boolean", "date", "timestamp", "timestamptz", "time":
		default:
			return false
		}
		if c.SQLType != imp.engine.sqlType(c.Type) {
			return false // a type its values are not converted for
		}
	}
	return true
}

// pgEpochMicros is 2000-01-01, where PostgreSQL's binary dates and times
// count from, in Unix microseconds.
const pgEpochMicros = pgEpoch * 1_000_000

// writeCopyBinary writes every row in COPY's binary format: a header,
// then per row the field count and each field's length and bytes.
func (imp *importer) writeCopyBinary(ctx context.Context, w io.Writer, sent *copyLines) error {
	buf := append(make([]byte, 0, 128<<10), "PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00"...)
	err := imp.eachRow(ctx, func(num int, vals []value) error {
		sent.add(num)
		buf = binary.BigEndian.AppendUint16(buf, uint16(len(vals)))
		for j := range vals {
			var err error
			if buf, err = appendCopyBinary(buf, &vals[j], imp.cols[j].Type); err != nil {
				return fmt.Errorf("copy into %s, row %d, column %q: %w", imp.opts.Table, num, imp.cols[j].Name, err)
			}
		}
		if len(buf) >= 64<<10 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
		return nil
	})
	if err == nil {
		buf = binary.BigEndian.AppendUint16(buf, 0xFFFF) // the trailer: -1
		_, err = w.Write(buf)
	}
	return err
}

// appendCopyBinary writes one field: its length, then the value in the
// column type's binary form; -1 for NULL.
func appendCopyBinary(b []byte, v *value, t ColumnType) ([]byte, error) {
	be := binary.BigEndian
	switch v.tag {
	case tagNull:
		return be.AppendUint32(b, 0xFFFFFFFF), nil
	case tagInt:
		if t == ColumnInteger {
			return be.AppendUint64(be.AppendUint32(b, 8), uint64(v.i)), nil
		}
	case tagFloat:
		if t == ColumnFloat {
			return be.AppendUint64(be.AppendUint32(b, 8), math.Float64bits(v.f)), nil
		}
	case tagBool:
		if t == ColumnBoolean {
			return append(be.AppendUint32(b, 1), byte(v.i)), nil
		}
	case tagText:
		if t == ColumnText {
			return append(be.AppendUint32(b, uint32(len(v.b))), v.b...), nil
		}
	case tagTime:
		tm := v.t
		switch t {
		case ColumnDate:
			y, m, d := tm.Date()
			days := time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix()/86400 - pgEpoch/86400
			return be.AppendUint32(be.AppendUint32(b, 4), uint32(int32(days))), nil
		case ColumnTimestamp:
			y, m, d := tm.Date()
			h, mi, sec := tm.Clock()
			wall := time.Date(y, m, d, h, mi, sec, tm.Nanosecond(), time.UTC)
			return be.AppendUint64(be.AppendUint32(b, 8), uint64(wall.UnixMicro()-pgEpochMicros)), nil
		case ColumnTimestampTZ:
			return be.AppendUint64(be.AppendUint32(b, 8), uint64(tm.UnixMicro()-pgEpochMicros)), nil
		case ColumnTime:
			h, mi, sec := tm.Clock()
			us := int64(h)*3600e6 + int64(mi)*60e6 + int64(sec)*1e6 + int64(tm.Nanosecond()/1000)
			return be.AppendUint64(be.AppendUint32(b, 8), uint64(us)), nil
		}
	}
	return b, fmt.Errorf("no binary form for a %v value in a %s column", v.tag, t)
}

// writeCopyText writes every row in COPY's text format (which MySQL's
// LOAD DATA reads too), in chunks.
func (imp *importer) writeCopyText(ctx context.Context, w io.Writer, sent *copyLines) error {
	buf := make([]byte, 0, 128<<10)
	numbered := imp.staged()
	err := imp.eachRow(ctx, func(num int, vals []value) error {
		sent.add(num)
		for j := range vals {
			if j > 0 {
				buf = append(buf, '\t')
			}
			buf = imp.appendCopyValue(buf, &vals[j], imp.cols[j].Type)
		}
		if numbered {
			buf = append(buf, '\t')
			buf = strconv.AppendInt(buf, int64(num), 10)
		}
		buf = append(buf, '\n')
		if len(buf) >= 64<<10 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
		return nil
	})
	if err == nil && len(buf) > 0 {
		_, err = w.Write(buf)
	}
	return err
}

// appendCopyValue writes one value as COPY's text format spells it, or
// MySQL's LOAD DATA (booleans as 1 and 0, instants as their UTC wall
// clock).
func (imp *importer) appendCopyValue(b []byte, v *value, t ColumnType) []byte {
	mysql := imp.engine == EngineMySQL
	switch v.tag {
	case tagInt:
		return strconv.AppendInt(b, v.i, 10)
	case tagFloat:
		if len(v.b) > 0 {
			return append(b, v.b...)
		}
		return strconv.AppendFloat(b, v.f, 'g', -1, 64)
	case tagBool:
		if mysql {
			return append(b, '0'+byte(v.i))
		}
		return append(b, "ft"[v.i])
	case tagText:
		return appendCopyText(b, v.b)
	case tagTime:
		switch t {
		case ColumnDate:
			return v.t.AppendFormat(b, "2006-01-02")
		case ColumnTime:
			return v.t.AppendFormat(b, "15:04:05.999999")
		case ColumnTimestampTZ:
			if mysql {
				return v.t.UTC().AppendFormat(b, "2006-01-02 15:04:05.999999")
			}
			return v.t.AppendFormat(b, "2006-01-02 15:04:05.999999-07:00")
		}
		return v.t.AppendFormat(b, "2006-01-02 15:04:05.999999")
	}
	return append(b, `\N`...)
}

// appendCopyText escapes text for COPY and LOAD DATA: backslashes, the
// tab, newline and carriage return that would end a field or a row, and
// NUL (which PostgreSQL then refuses, as text can hold none).
func appendCopyText(b, text []byte) []byte {
	for {
		i := indexCopySpecial(text)
		if i < 0 {
			return append(b, text...)
		}
		b = append(b, text[:i]...)
		switch text[i] {
		case '\\':
			b = append(b, `\\`...)
		case '\t':
			b = append(b, `\t`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case 0:
			b = append(b, `\0`...)
		}
		text = text[i+1:]
	}
}

func indexCopySpecial(b []byte) int {
	for i, c := range b {
		if c == '\\' || c == '\t' || c == '\n' || c == '\r' || c == 0 {
			return i
		}
	}
	return -1
}
