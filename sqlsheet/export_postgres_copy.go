package sqlsheet

// PostgreSQL exports read a query's rows with COPY (query) TO STDOUT
// (FORMAT binary) when they can: the server streams the rows as one copy,
// in binary, without a protocol message a row to describe and answer, and
// the rows are cut out of that stream in place. A query COPY cannot run
// (it has parameters, or a column of a type read here only as text), or
// that COPY refuses before sending a row (a statement COPY does not take,
// a permission), runs as before, through pgx's rows; in a read-only
// transaction a savepoint keeps the refused COPY from aborting it.
//
// The binary copy format (PostgreSQL's documentation, "COPY", "Binary
// Format"): an 11-byte signature, a 32-bit flags field and a header
// extension of a 32-bit length; then each tuple a 16-bit field count and
// each field a 32-bit length (-1 for NULL) and its bytes, in the type's
// binary form (as its send function writes it); -1 as a field count ends
// the copy.

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// copySignature opens a binary copy.
var copySignature = []byte("PGCOPY\n\xff\r\n\x00")

// copyTextOIDs are the types whose binary form is their text: read as the
// text path reads them.
var copyTextOIDs = map[uint32]bool{
	pgtype.TextOID: true, pgtype.VarcharOID: true, pgtype.BPCharOID: true, pgtype.NameOID: true,
	pgtype.JSONOID: true, pgtype.XMLOID: true, pgtype.UnknownOID: true,
}

// copyable tells whether every column's binary form is one this reads.
func copyable(fields []pgconn.FieldDescription) bool {
	for _, f := range fields {
		switch f.DataTypeOID {
		case pgtype.Int2OID, pgtype.Int4OID, pgtype.Int8OID, pgtype.Float4OID, pgtype.Float8OID, pgtype.BoolOID,
			pgtype.DateOID, pgtype.TimestampOID, pgtype.TimestamptzOID, pgtype.ByteaOID,
			pgtype.NumericOID, pgtype.JSONBOID, pgtype.UUIDOID:
		default:
			if !copyTextOIDs[f.DataTypeOID] {
				return false
			}
		}
	}
	return true
}

// copyQuery runs q with COPY when it can: nil, nil when it cannot, and the
// caller runs it as a query.
func (s *pgSession) copyQuery(ctx context.Context, q Query, sheet string) (result, error) {
	if s.conn == nil || len(q.Args) > 0 || s.noCopy {
		return nil, nil
	}
	pc := s.conn.PgConn()
	desc, err := pc.Prepare(ctx, "", q.SQL, nil)
	if err != nil || len(desc.ParamOIDs) > 0 || len(desc.Fields) == 0 || !copyable(desc.Fields) {
		return nil, nil // the query path says what is wrong, or copes
	}
	if s.tx != nil {
		if _, err := s.tx.Exec(ctx, "SAVEPOINT sheetstream_copy"); err != nil {
			return nil, nil
		}
	}
	// The query as COPY's argument: a trailing semicolon would end the
	// statement, and a trailing comment would swallow the parenthesis.
	body := strings.TrimRight(strings.TrimSpace(q.SQL), ";")
	sql := "COPY (" + body + "\n) TO STDOUT (FORMAT binary)"
	qctx, cancel := context.WithCancel(ctx)
	r := &copyResult{infos: pgxColumns(desc.Fields, s.types), cancel: cancel, sheet: sheet,
		chunks: make(chan []byte, 2), free: make(chan []byte, 3), done: make(chan error, 1)}
	r.oids, r.scratch = make([]uint32, len(desc.Fields)), make([][]byte, len(desc.Fields))
	for i, f := range desc.Fields {
		r.oids[i] = f.DataTypeOID
	}
	w := &copyWriter{r: r, started: make(chan struct{})}
	go func() {
		_, err := pc.CopyTo(qctx, w, sql)
		if err == nil {
			err = w.flush()
		}
		r.done <- err
		close(r.chunks)
	}()
	select {
	case <-w.started:
	case err := <-r.done:
		// Refused before a row: no copy then, the query path instead.
		cancel()
		if s.tx != nil {
			if _, rerr := s.tx.Exec(ctx, "ROLLBACK TO SAVEPOINT sheetstream_copy"); rerr != nil {
				return nil, fmt.Errorf("sheet %q: query: %w", sheet, err)
			}
		}
		s.noCopy = true // the next queries of the export go the same way
		return nil, nil
	}
	r.tx = s.tx
	return r, nil
}

// copyWriter gathers the copy's messages into chunks for the reader.
type copyWriter struct {
	r       *copyResult
	buf     []byte
	started chan struct{}
	once    bool
}

const copyChunk = 256 << 10

func (w *copyWriter) Write(p []byte) (int, error) {
	if !w.once {
		w.once = true
		close(w.started)
	}
	if w.buf == nil {
		select {
		case w.buf = <-w.r.free:
			w.buf = w.buf[:0]
		default:
			w.buf = make([]byte, 0, copyChunk)
		}
	}
	w.buf = append(w.buf, p...)
	if len(w.buf) >= copyChunk {
		return len(p), w.flush()
	}
	return len(p), nil
}

// flush hands the chunk gathered to the reader.
func (w *copyWriter) flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	w.r.chunks <- w.buf
	w.buf = nil
	return nil
}

// copyResult is a query's rows read from its binary copy.
type copyResult struct {
	infos  []columnInfo
	oids   []uint32
	sheet  string
	cancel context.CancelFunc
	tx     pgx.Tx

	stopped bool

	chunks chan []byte // from the copy's goroutine, in order
	free   chan []byte // chunks read, for reuse
	done   chan error  // the copy's end
	ended  bool

	// pending holds the bytes received and not yet cut into tuples; at
	// the tuple being read. fields are its fields' bytes (nil: NULL).
	pending []byte
	off     int
	header  bool
	fields  [][]byte
	last    []byte // the chunk pending was last refilled from
	err     error
	// scratch holds a column's value made here (a numeric's text) until
	// the next row.
	scratch [][]byte
}

func (r *copyResult) columns() []columnInfo { return r.infos }

// stop cancels the copy: its rows will not be read to the end, and the
// error its cancellation brings is no failure.
func (r *copyResult) stop() {
	r.stopped = true
	r.cancel()
}

func (r *copyResult) end(err error) error {
	r.cancel()
	for range r.chunks { // the copy's goroutine ends
	}
	cerr := r.copyErr()
	if err == nil && cerr != nil && !r.stopped && !errors.Is(cerr, context.Canceled) {
		err = cerr
	}
	if r.tx != nil {
		// A copy stopped or failed leaves the transaction aborted: back to
		// the savepoint, for the queries after it.
		ctx := context.Background()
		if err == nil && cerr == nil {
			if _, rerr := r.tx.Exec(ctx, "RELEASE SAVEPOINT sheetstream_copy"); rerr != nil {
				err = rerr
			}
		} else if _, rerr := r.tx.Exec(ctx, "ROLLBACK TO SAVEPOINT sheetstream_copy"); rerr != nil && err == nil {
			err = rerr
		}
	}
	return err
}

// copyErr is the copy's result, once it ended.
func (r *copyResult) copyErr() error {
	if !r.ended {
		r.ended = true
		r.err = <-r.done
	}
	return r.err
}

func (r *copyResult) Err() error {
	if r.err != nil {
		return r.err
	}
	return nil
}

// need makes at least n bytes of pending available from off, receiving
// chunks as it must; false at the copy's end.
func (r *copyResult) need(n int) bool {
	for len(r.pending)-r.off < n {
		chunk, ok := <-r.chunks
		if !ok {
			if err := r.copyErr(); err != nil {
				r.err = fmt.Errorf("sheet %q: query: %w", r.sheet, err)
			} else {
				r.err = fmt.Errorf("sheet %q: %w: the copy ends before its end", r.sheet, errWireValue)
			}
			return false
		}
		// Keep what is left of the tuple being read, then the chunk.
		rest := append(r.pending[:0], r.pending[r.off:]...)
		r.pending, r.off = append(rest, chunk...), 0
		if r.last != nil {
			select {
			case r.free <- r.last:
			default:
			}
		}
		r.last = chunk
	}
	return true
}

// Next cuts the next tuple's fields out of the copy.
func (r *copyResult) Next() bool {
	if r.err != nil {
		return false
	}
	if !r.header {
		if !r.need(19) {
			return false
		}
		h := r.pending[r.off:]
		if !bytes.HasPrefix(h, copySignature) {
			r.err = fmt.Errorf("sheet %q: %w: no binary copy signature", r.sheet, errWireValue)
			return false
		}
		ext := int(binary.BigEndian.Uint32(h[15:19]))
		if !r.need(19 + ext) {
			return false
		}
		r.off += 19 + ext
		r.header = true
	}
	// The whole tuple is made available first, then cut: its fields'
	// slices stay put until the next call.
	if !r.need(2) {
		return false
	}
	count := int(int16(binary.BigEndian.Uint16(r.pending[r.off:])))
	if count == -1 {
		r.copyErr()
		return false
	}
	if count != len(r.oids) {
		r.err = fmt.Errorf("sheet %q: %w: a row of %d fields for %d columns", r.sheet, errWireValue, count, len(r.oids))
		return false
	}
	size := 2
	for range count {
		if !r.need(size + 4) {
			return false
		}
		n := int(int32(binary.BigEndian.Uint32(r.pending[r.off+size:])))
		size += 4
		if n > 0 {
			size += n
		}
	}
	if !r.need(size) {
		return false
	}
	p := r.pending[r.off : r.off+size]
	r.fields = r.fields[:0]
	at := 2
	for range count {
		n := int(int32(binary.BigEndian.Uint32(p[at:])))
		at += 4
		if n < 0 {
			r.fields = append(r.fields, nil)
			continue
		}
		r.fields = append(r.fields, p[at:at+n:at+n])
		at += n
	}
	r.off += size
	return true
}

func (r *copyResult) scan(cols []*column) error {
	if len(r.fields) != len(cols) {
		return fmt.Errorf("%w: %d values for %d columns", errWireValue, len(r.fields), len(cols))
	}
	for j, c := range cols {
		if err := scanCopied(&c.val, r.oids[j], r.fields[j], &r.scratch[j]); err != nil {
			return fmt.Errorf("column %q: %w", c.name, err)
		}
	}
	return nil
}

// scanCopied reads a field of a binary copy: the types whose binary form
// is their text as text; numeric, jsonb and uuid turned into the text the
// server would send (into scratch); the rest as scanWire reads them.
func scanCopied(val *value, oid uint32, v []byte, scratch *[]byte) error {
	if v == nil {
		val.tag = tagNull
		return nil
	}
	switch {
	case copyTextOIDs[oid]:
		val.setText(v)
		return nil
	case oid == pgtype.NumericOID:
		text, err := appendNumericText((*scratch)[:0], v)
		if err != nil {
			return err
		}
		*scratch = text
		val.setText(text)
		return nil
	case oid == pgtype.JSONBOID:
		if len(v) == 0 || v[0] != 1 {
			return fmt.Errorf("%w: jsonb of version %v", errWireValue, v[:min(len(v), 1)])
		}
		val.setText(v[1:])
		return nil
	case oid == pgtype.UUIDOID:
		if len(v) != 16 {
			return errWireValue
		}
		*scratch = appendUUID((*scratch)[:0], v)
		val.setText(*scratch)
		return nil
	}
	return scanWire(val, oid, true, v)
}

// appendNumericText appends a numeric's binary form as PostgreSQL's text
// output writes it: its digits to the display scale, "NaN", "Infinity",
// "-Infinity". The binary form: digit count, weight (of the first digit,
// in powers of 10,000), sign, display scale, then base-10,000 digits.
func appendNumericText(b, v []byte) ([]byte, error) {
	if len(v) < 8 {
		return b, errWireValue
	}
	ndigits := int(binary.BigEndian.Uint16(v[0:]))
	weight := int(int16(binary.BigEndian.Uint16(v[2:])))
	sign := binary.BigEndian.Uint16(v[4:])
	dscale := int(binary.BigEndian.Uint16(v[6:]))
	if len(v) != 8+2*ndigits || dscale > 0x3fff {
		return b, errWireValue
	}
	for i := range ndigits {
		if binary.BigEndian.Uint16(v[8+2*i:]) > 9999 {
			return b, errWireValue
		}
	}
	switch sign {
	case 0xC000:
		return append(b, "NaN"...), nil
	case 0xD000:
		return append(b, "Infinity"...), nil
	case 0xF000:
		return append(b, "-Infinity"...), nil
	case 0x4000:
		if ndigits > 0 {
			b = append(b, '-')
		}
	case 0x0000:
	default:
		return b, errWireValue
	}
	digit := func(i int) int {
		if i < 0 || i >= ndigits {
			return 0
		}
		return int(binary.BigEndian.Uint16(v[8+2*i:]))
	}
	// The integer part: the digits up to the weight, the first without
	// its leading zeros.
	if weight < 0 {
		b = append(b, '0')
	} else {
		for i := 0; i <= weight; i++ {
			d := digit(i)
			if i == 0 {
				b = strconv.AppendInt(b, int64(d), 10)
				continue
			}
			b = append(b, byte('0'+d/1000), byte('0'+d/100%10), byte('0'+d/10%10), byte('0'+d%10))
		}
	}
	if dscale > 0 {
		b = append(b, '.')
		for i, written := weight+1, 0; written < dscale; i++ {
			d := digit(i)
			for _, c := range [4]byte{byte('0' + d/1000), byte('0' + d/100%10), byte('0' + d/10%10), byte('0' + d%10)} {
				if written == dscale {
					break
				}
				b = append(b, c)
				written++
			}
		}
	}
	return b, nil
}

// appendUUID appends a UUID's 16 bytes as its text.
func appendUUID(b, v []byte) []byte {
	const hex = "0123456789abcdef"
	for i, c := range v {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b = append(b, '-')
		}
		b = append(b, hex[c>>4], hex[c&15])
	}
	return b
}
