package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// preview answers the first rows of a sheet as JSON, typed as the
// download types them.
func (s *Server) preview(w http.ResponseWriter, r *http.Request) {
	e, vals, query, ok := s.lookup(w, r, r.PathValue("name"), "limit", "sheet")
	if !ok {
		return
	}
	sheet := 0
	if v, given := query["sheet"]; given {
		var err error
		if sheet, err = e.sheetIndex(v); err != nil {
			jsonError(w, http.StatusBadRequest, err.Error())
			return
		}
	}
	limit := 50
	if v, given := query["limit"]; given {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > s.cfg.PreviewLimit {
			jsonError(w, http.StatusBadRequest, fmt.Sprintf("parameter \"limit\": want 1 to %d", s.cfg.PreviewLimit))
			return
		}
		limit = n
	}
	if e.Preview != nil && !*e.Preview {
		s.audit(w, r, auditRecord{Event: "refused", Export: e.Name, Outcome: "403 no preview"})
		msg := fmt.Sprintf("export %q has no preview (preview: false in its configuration)", e.Name)
		if e.Encrypted {
			msg = fmt.Sprintf("export %q is encrypted: its rows leave the service only in its encrypted .xlsx, never as a preview", e.Name)
		}
		jsonError(w, http.StatusForbidden, msg)
		return
	}
	if r.Method == http.MethodHead {
		w.Header().Set("Content-Type", "application/json")
		return
	}
	if s.limited(w, r, "download") {
		return
	}
	release, ok := s.admit(w, r, e)
	if !ok {
		return
	}
	defer release()
	// MaxRows stops the query itself after limit rows, MaxBytes after
	// previewBytes of values, however wide or long they are. The JSON is
	// held until the query has succeeded, so that a failure is an error
	// answer, never a cut document.
	pj := newPreviewJSON()
	st, err := s.run(r.Context(), e, e.Sheets[sheet:sheet+1], vals, pj, sqlsheet.Options{MaxRows: int64(limit), MaxBytes: previewBytes})
	if err == nil {
		err = pj.finish(st.Partial)
	}
	// The query may have outlasted the write deadline set when the
	// request came: the answer gets one of its own.
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(time.Duration(s.cfg.WriteTimeout)))
	if err != nil {
		s.internalError(w, "the preview failed", err, "name", e.Name)
		return
	}
	s.audit(w, r, auditRecord{Event: "preview", Export: e.Name, Params: query, Rows: st.Rows, Outcome: "ok"})
	w.Header().Set("Content-Type", "application/json")
	w.Write(pj.buf.Bytes())
}

// previewBytes bounds a preview's values (sqlsheet.Options.MaxBytes), and
// so the workbook it holds and the JSON it answers; previewTextChars cuts
// each text in the JSON.
const (
	previewBytes     = 4 << 20
	previewTextChars = 1000
)

type previewCell struct {
	Type  string `json:"type"`
	Value any    `json:"value"`
	Cut   bool   `json:"cut,omitempty"` // the text was cut to previewTextChars
}

// previewJSON is the preview's sqlsheet.Destination: the rows as JSON,
// {"sheet", "columns", "rows", "truncated"}, each cell {"type", "value"}
// with type as sheetstream cat names it (the cell as a download's reader
// would see it), and "cut": true on a text cut to previewTextChars
// characters. It holds the document, whose values MaxBytes bounds.
type previewJSON struct {
	buf     bytes.Buffer
	enc     *json.Encoder
	columns int
	started bool
	val     xlsx.Value
}

func newPreviewJSON() *previewJSON {
	p := &previewJSON{}
	p.enc = json.NewEncoder(&p.buf)
	p.enc.SetEscapeHTML(false)
	return p
}

func (p *previewJSON) AddStyle(xlsx.Style) (xlsx.StyleID, error) { return 0, nil }
func (p *previewJSON) End() error                                { return nil }

// Begin writes the document's opening, up to its rows' "[".
func (p *previewJSON) Begin(t *sqlsheet.Table) error {
	if p.started {
		return fmt.Errorf("a preview shows one sheet")
	}
	p.started = true
	columns := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		columns[i] = c.Name
	}
	p.columns = len(columns)
	p.buf.WriteString(`{"sheet":`)
	if err := p.enc.Encode(t.Name); err != nil {
		return err
	}
	p.buf.WriteString(`,"columns":`)
	if err := p.enc.Encode(columns); err != nil {
		return err
	}
	p.buf.WriteString(`,"rows":[`)
	return nil
}

func (p *previewJSON) WriteRow(cells []xlsx.Cell) error {
	if p.buf.Bytes()[p.buf.Len()-1] != '[' {
		p.buf.WriteByte(',')
	}
	row := make([]*previewCell, p.columns)
	for i := range cells[:min(len(cells), p.columns)] {
		if cells[i].IsEmpty() {
			continue
		}
		v := &p.val
		v.SetCell(i+1, &cells[i])
		pc := &previewCell{Type: v.Type().String()}
		switch v.Type() {
		case xlsx.TypeNumber:
			pc.Value = v.Float()
		case xlsx.TypeBool:
			pc.Value = v.Bool()
		default:
			text := v.String()
			if cut := cutChars(text, previewTextChars); len(cut) < len(text) {
				text, pc.Cut = cut, true
			}
			pc.Value = text
		}
		row[i] = pc
	}
	return p.enc.Encode(row)
}

// finish ends the document; truncated says the rows stopped at the
// preview's byte bound before the limit asked for.
func (p *previewJSON) finish(truncated bool) error {
	if !p.started {
		return fmt.Errorf("the preview's query gave no table")
	}
	fmt.Fprintf(&p.buf, `],"truncated":%t}`, truncated)
	return nil
}

// cutChars cuts s to at most n characters.
func cutChars(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
