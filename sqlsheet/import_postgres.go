package sqlsheet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// copyText streams the rows into table with COPY in PostgreSQL's text
// format, as psql's \copy does: the tagged values are written straight
// into the COPY data (no value is boxed, and the server parses each as
// its column's type: numeric, uuid, jsonb, arrays alike), on a goroutine
// of its own while the connection sends what is ready. With a stage
// table, each row's number in the source goes last.
func (imp *importer) copyText(ctx context.Context, conn *pgconn.PgConn, table string, columns []string) error {
	quoted := make([]string, len(columns))
	for i, c := range columns {
		quoted[i] = imp.engine.quote(c)
	}
	pr, pw := io.Pipe()
	produced := make(chan error, 1)
	go func() {
		err := imp.writeCopyText(ctx, pw)
		pw.CloseWithError(err)
		produced <- err
	}()
	_, err := conn.CopyFrom(ctx, pr, "COPY "+imp.engine.quote(table)+" ("+strings.Join(quoted, ", ")+") FROM STDIN")
	pr.CloseWithError(errCopyEnded) // stops the writer if COPY ended first
	if perr := <-produced; perr != nil && !errors.Is(perr, errCopyEnded) {
		return perr // the source's or a cell's error comes first
	}
	if err != nil {
		return fmt.Errorf("sqlsheet: copy into %s: %w", imp.opts.Table, err)
	}
	return nil
}

var errCopyEnded = errors.New("copy ended")

// writeCopyText writes every row in COPY's text format (which MySQL's
// LOAD DATA reads too), in chunks.
func (imp *importer) writeCopyText(ctx context.Context, w io.Writer) error {
	buf := make([]byte, 0, 128<<10)
	numbered := imp.staged()
	err := imp.eachRow(ctx, func(num int, vals []value) error {
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
		return append(b, "ft01"[v.i+2*btoi(mysql)])
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

func btoi(b bool) int64 {
	if b {
		return 1
	}
	return 0
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
