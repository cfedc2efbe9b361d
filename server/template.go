package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sheetstream/sheetstream/jobs"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// checkTemplate opens an export's template once at load: a workbook,
// with a sheet of each of the export's sheets' names.
func (e *Export) checkTemplate() error {
	tw, err := xlsx.OpenTemplate(io.Discard, e.Template, xlsx.TemplateOptions{TemplatePassword: e.templatePassword})
	if err != nil {
		if errors.Is(err, xlsx.ErrEncrypted) {
			return fmt.Errorf("%w (template_password_env)", err)
		}
		return err
	}
	defer tw.Abort()
	names := tw.Sheets()
	for _, sh := range e.Sheets {
		if sh == nil {
			continue
		}
		if len(sh.Charts) > 0 {
			return fmt.Errorf("sheet %q: charts: with a template, the template's own charts follow the rows", sh.Name)
		}
		found := false
		for _, n := range names {
			found = found || strings.EqualFold(n, sh.Name)
		}
		if !found {
			return fmt.Errorf("the template has no sheet %q (it has %s): a sheet's name names the template sheet it fills", sh.Name, strings.Join(names, ", "))
		}
	}
	return nil
}

// fillTemplate writes e's template filled with its sheets' rows and vals
// into out.
func (s *Server) fillTemplate(ctx context.Context, e *Export, vals map[string]any, out io.Writer) (sqlsheet.Stats, error) {
	// Typed parameters stay typed: a cell that is only {{day}} becomes a
	// date, {{limit}} a number.
	values := make(map[string]any, len(vals))
	for k, v := range vals {
		values[k] = v
	}
	// As a download's workbook: one deflate worker, small chunks, and
	// the export's password (the template's strings as the template's
	// writer shares them).
	dl := s.downloadOptions(e)
	dl.SharedStringsBudget = 0
	tw, err := xlsx.OpenTemplate(out, e.Template, xlsx.TemplateOptions{Options: dl, Values: values, TemplatePassword: e.templatePassword})
	if err != nil {
		return sqlsheet.Stats{}, err
	}
	var total sqlsheet.Stats
	for i := range e.Sheets {
		done := total.Rows
		progress := func(rows int64) { jobs.ReportRows(ctx, done+rows) }
		st, err := s.run(ctx, e, e.Sheets[i:i+1], vals, sqlsheet.TemplateSheet(tw, e.Sheets[i].Name), sqlsheet.Options{Progress: progress})
		total.Rows += st.Rows
		total.Sheets = append(total.Sheets, e.Sheets[i].Name)
		if err != nil {
			tw.Abort()
			return total, err
		}
	}
	return total, tw.Close()
}
