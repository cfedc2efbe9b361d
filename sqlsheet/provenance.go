package sqlsheet

import (
	"strconv"
	"strings"
	"time"

	"github.com/sheetstream/sheetstream/xlsx"
)

// Provenance is what a workbook says of where its rows came from, on a
// last sheet of its own: readers forward files without the context they
// were made in.
type Provenance struct {
	// Export names what was run (a configured export, or "sheetstream
	// export").
	Export string
	// Params are the parameters as given, in order, secret ones already
	// redacted by the caller.
	Params [][2]string
	// Caller is who asked (a subject, an email, a schedule); At when.
	Caller string
	At     time.Time
	// Database is where the rows came from, without credentials.
	Database string
}

// ProvenanceSheet is the sheet's name ("Provenance (2)" and so on when
// an export's own sheet has it).
const ProvenanceSheet = "Provenance"

// WriteProvenance adds the provenance sheet to w after an export's
// sheets: its fields, then each query's sheet, rows and SQL text.
//
// Errors: the writer's (a closed writer, the sheet limit).
func WriteProvenance(w *xlsx.Writer, p Provenance, queries []Query, st Stats) error {
	name := ProvenanceSheet
	taken := map[string]bool{}
	for _, s := range st.Sheets {
		taken[strings.ToLower(s)] = true
	}
	for n := 2; taken[strings.ToLower(name)]; n++ {
		name = ProvenanceSheet + " (" + strconv.Itoa(n) + ")"
	}
	bold, err := w.AddStyle(xlsx.Style{Font: xlsx.Font{Bold: true}})
	if err != nil {
		return err
	}
	wrap, err := w.AddStyle(xlsx.Style{Alignment: xlsx.Alignment{Wrap: true, Vertical: xlsx.VAlignTop}})
	if err != nil {
		return err
	}
	sh, err := w.AddSheet(name, xlsx.SheetOptions{})
	if err != nil {
		return err
	}
	for col, width := range []float64{18, 24, 90} {
		if err := sh.SetColumn(col+1, col+1, xlsx.ColumnOptions{Width: width}); err != nil {
			return err
		}
	}
	row := func(cells ...xlsx.Cell) error { return sh.WriteRow(cells) }
	field := func(k string, v xlsx.Cell) error { return row(xlsx.String(k).WithStyle(bold), v) }
	at := p.At
	if at.IsZero() {
		at = time.Now()
	}
	for _, f := range []struct {
		k string
		v xlsx.Cell
	}{
		{"Export", xlsx.String(p.Export)},
		{"Asked by", xlsx.String(p.Caller)},
		{"At (UTC)", xlsx.Time(at.UTC().Truncate(time.Second))},
		{"Database", xlsx.String(p.Database)},
		{"Rows", xlsx.Int(st.Rows)},
	} {
		if err := field(f.k, f.v); err != nil {
			return err
		}
	}
	if len(p.Params) > 0 {
		if err := row(); err != nil {
			return err
		}
		if err := row(xlsx.String("Parameter").WithStyle(bold), xlsx.String("Value").WithStyle(bold)); err != nil {
			return err
		}
		for _, kv := range p.Params {
			if err := row(xlsx.String(kv[0]), xlsx.String(kv[1])); err != nil {
				return err
			}
		}
	}
	if err := row(); err != nil {
		return err
	}
	if err := row(xlsx.String("Sheet").WithStyle(bold), xlsx.String("Rows").WithStyle(bold), xlsx.String("Query").WithStyle(bold)); err != nil {
		return err
	}
	for i, q := range queries {
		rows := xlsx.Blank()
		if i < len(st.QueryRows) {
			rows = xlsx.Int(st.QueryRows[i])
		}
		if err := row(xlsx.String(sheetFor(q, i)), rows, xlsx.String(strings.TrimSpace(q.SQL)).WithStyle(wrap)); err != nil {
			return err
		}
	}
	return sh.Close()
}
