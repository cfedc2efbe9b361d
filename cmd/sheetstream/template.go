package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// parseSets reads --set and --set-text NAME=VALUE flags. A --set value
// that is a number or an ISO date or time is typed, so that a placeholder
// that is a cell's whole text becomes a number or date cell; --set-text
// keeps a value text.
func parseSets(sets, texts []string) (map[string]any, error) {
	values := map[string]any{}
	for _, list := range []struct {
		flag  string
		items []string
	}{{"--set", sets}, {"--set-text", texts}} {
		for _, s := range list.items {
			name, value, ok := strings.Cut(s, "=")
			if !ok || strings.TrimSpace(name) == "" {
				return nil, fmt.Errorf("%s %q: write NAME=VALUE", list.flag, s)
			}
			if list.flag == "--set" {
				values[strings.TrimSpace(name)] = setValue(value)
			} else {
				values[strings.TrimSpace(name)] = value
			}
		}
	}
	return values, nil
}

// setNumberRe is a number as written by people and programs alike: no
// leading zeros (007 is a code), no leading plus, no thousands separators.
var setNumberRe = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)

// setValue types a --set value: an integer, a float, an ISO date or date
// and time, else the text as given.
func setValue(v string) any {
	if setNumberRe.MatchString(v) {
		if i, err := strconv.ParseInt(v, 10, 64); err == nil {
			return i
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f
		}
	}
	for _, layout := range []string{"2006-01-02", "2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t
		}
	}
	return v
}

// writeTemplateExport fills a template's sheets with the queries' rows,
// each query the sheet its --sheet names (the template's first sheet when
// none), and writes the workbook to out.
//
// topts carry the --set values, --by-position, the template's password
// and the password that encrypts the workbook written; their Location
// is opts'.
func writeTemplateExport(ctx context.Context, db *sql.DB, queries []sqlsheet.Query, template, out string, topts xlsx.TemplateOptions, opts sqlsheet.Options) error {
	dst, err := createOutput(out)
	if err != nil {
		return err
	}
	start := time.Now()
	topts.Location = opts.Location
	to := dst.Writer()
	if topts.Password != "" {
		if dst.file != nil {
			to = dst.file // encrypted in place: the writer seeks in the file
		} else {
			topts.TempDir = os.TempDir() // to stdout: held back until the end
		}
	}
	tw, err := xlsx.OpenTemplate(to, template, topts)
	if err != nil {
		dst.abort()
		return fmt.Errorf("%s: %w", template, err)
	}
	var rows int64
	for i, q := range queries {
		if len(q.Charts) > 0 {
			tw.Abort()
			dst.abort()
			return fmt.Errorf("--chart with --template: the template's own charts follow its rows; draw new ones in the template")
		}
		sheet := q.Sheet
		if sheet == "" || sheet == fmt.Sprintf("Sheet%d", i+1) && !hasSheet(tw, sheet) {
			sheet = tw.Sheets()[min(i, len(tw.Sheets())-1)]
		}
		st, err := sqlsheet.ExportTo(ctx, db, sqlsheet.TemplateSheet(tw, sheet), []sqlsheet.Query{q}, opts)
		if errors.Is(err, xlsx.ErrTemplate) {
			err = fmt.Errorf("%s: %w", template, err) // the header the table refuses
		}
		rows += st.Rows
		if err != nil {
			tw.Abort()
			dst.abort()
			return err
		}
	}
	if err := tw.Close(); err != nil {
		dst.abort()
		return err
	}
	if err := dst.commit(); err != nil {
		return err
	}
	where := out
	if abs, err := filepath.Abs(out); err == nil && out != "-" {
		where = abs
	}
	fmt.Fprintf(os.Stderr, "wrote %s: %d rows into %s in %.2fs\n", where, rows, filepath.Base(template), time.Since(start).Seconds())
	return nil
}

func hasSheet(tw *xlsx.TemplateWriter, name string) bool {
	for _, s := range tw.Sheets() {
		if strings.EqualFold(s, name) {
			return true
		}
	}
	return false
}

// templatePassword is the password of an encrypted template: the first
// line of file, else (for an encrypted one) SHEETSTREAM_PASSWORD or the
// terminal.
func templatePassword(template, file string, pw *password) (string, error) {
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("--template-password-file: %w", err)
		}
		line, _, _ := strings.Cut(string(b), "\n")
		if line = strings.TrimSuffix(line, "\r"); line == "" {
			return "", fmt.Errorf("--template-password-file %s: the first line is empty", file)
		}
		return line, nil
	}
	f, err := os.Open(template)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, 8)
	if n, _ := io.ReadFull(f, head); n < 8 || !bytes.Equal(head, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}) {
		return "", nil // not encrypted
	}
	return pw.forEncrypted(template)
}
