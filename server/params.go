package server

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sheetstream/sheetstream/auth"
)

// Param is a named, typed parameter of an export. Values come from the
// query string and are bound to the SQL, never spliced into it.
type Param struct {
	Name        string `yaml:"name" json:"name"`
	Type        string `yaml:"type" json:"type"` // text, int, float, bool, date, datetime
	Default     string `yaml:"default" json:"default,omitempty"`
	Required    bool   `yaml:"required" json:"required"`
	Description string `yaml:"description" json:"description,omitempty"`
	// Choices limits a text parameter to these values.
	Choices []string `yaml:"choices" json:"choices,omitempty"`
	// From binds the parameter to the caller's identity instead of the
	// query string: "subject", "email", "groups" (a list: an array on
	// PostgreSQL, JSON text elsewhere) or "claim:NAME". Such a parameter
	// is never taken from the query string, and a caller whose identity
	// lacks it is refused (403).
	From string `yaml:"from" json:"from,omitempty"`
	// Secret keeps the value out of the audit trail.
	Secret bool `yaml:"secret" json:"-"`
}

// ErrIdentityLacks: the caller's identity has no value for a parameter
// bound to it (answer 403).
var ErrIdentityLacks = errors.New("the caller's identity lacks a value the export needs")

// boundValue is the value identity-bound parameter p takes from the
// caller's attributes b (nil: none).
func boundValue(b *auth.Attributes, p *Param) (any, error) {
	var v string
	switch {
	case b == nil:
	case p.From == "subject":
		v = b.Subject
	case p.From == "email":
		v = b.Email
	case p.From == "groups":
		if b.Groups == nil {
			return []string{}, nil
		}
		return b.Groups, nil
	case strings.HasPrefix(p.From, "claim:"):
		v = b.Claims[strings.TrimPrefix(p.From, "claim:")]
	}
	if v == "" {
		return nil, fmt.Errorf("parameter %q: %w (%s)", p.Name, ErrIdentityLacks, p.From)
	}
	if err := checkText(p.Name, v); err != nil {
		return nil, err
	}
	return v, nil
}

var paramTypes = map[string]string{
	"text":     "text",
	"int":      "a whole number",
	"float":    "a decimal number",
	"bool":     "true or false",
	"date":     "a date like 2025-01-31",
	"datetime": "a date and time like 2025-01-31T13:45:00",
}

func (p *Param) check() error {
	if p == nil || !isIdent(p.Name) {
		return errors.New("a parameter name must be a letter or _ followed by letters, digits or _")
	}
	if p.Type == "" {
		p.Type = "text"
	}
	if _, ok := paramTypes[p.Type]; !ok {
		return fmt.Errorf("parameter %q: type %q is not one of text, int, float, bool, date, datetime", p.Name, p.Type)
	}
	if p.Default != "" {
		if _, err := p.parse(p.Default); err != nil {
			return fmt.Errorf("default of %w", err)
		}
	}
	if p.From != "" {
		switch {
		case p.From == "subject", p.From == "email", p.From == "groups", strings.HasPrefix(p.From, "claim:") && len(p.From) > len("claim:"):
		default:
			return fmt.Errorf("parameter %q: from %q is not subject, email, groups or claim:NAME", p.Name, p.From)
		}
		if p.Type != "text" || p.Default != "" || len(p.Choices) > 0 {
			return fmt.Errorf("parameter %q: a parameter from the identity is text, with no default or choices", p.Name)
		}
	}
	return nil
}

// ParamError reports a parameter value the export cannot take.
type ParamError struct {
	Name string
	Msg  string
	// Missing: a required parameter that was not given.
	Missing bool
}

func (e *ParamError) Error() string { return fmt.Sprintf("parameter %q: %s", e.Name, e.Msg) }

// decimalNumber is a float parameter's form: decimal digits with an
// optional point and exponent. strconv.ParseFloat also reads NaN, Inf
// and hex floats, which no user means: NaN binds as NULL on SQLite and
// would make a required filter match every row.
var decimalNumber = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// checkText refuses what no database column or sheet cell can take as
// text: bytes that are not UTF-8, NUL, and U+FFFE and U+FFFF, which XML
// cannot carry.
func checkText(name, s string) error {
	if !utf8.ValidString(s) {
		return &ParamError{Name: name, Msg: "the value is not valid UTF-8 text"}
	}
	if i := strings.IndexAny(s, "\x00\uFFFE\uFFFF"); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return &ParamError{Name: name, Msg: fmt.Sprintf("the value holds U+%04X, which no sheet cell can", r)}
	}
	return nil
}

// parse reads a value of the parameter's type.
func (p *Param) parse(s string) (any, error) {
	bad := func() (any, error) {
		return nil, &ParamError{Name: p.Name, Msg: fmt.Sprintf("%q is not %s", s, paramTypes[p.Type])}
	}
	if err := checkText(p.Name, s); err != nil {
		return nil, err
	}
	switch p.Type {
	case "int":
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return bad()
		}
		return n, nil
	case "float":
		t := strings.TrimSpace(s)
		f, err := strconv.ParseFloat(t, 64)
		if err != nil || !decimalNumber.MatchString(t) || math.IsInf(f, 0) {
			return bad() // NaN, Inf, hex, and decimals past a double's range
		}
		return f, nil
	case "bool":
		b, err := strconv.ParseBool(strings.TrimSpace(s))
		if err != nil {
			return bad()
		}
		return b, nil
	case "date":
		t, err := time.Parse("2006-01-02", strings.TrimSpace(s))
		if err != nil {
			return bad()
		}
		return t, nil
	case "datetime":
		for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02"} {
			if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
				return t, nil
			}
		}
		return bad()
	}
	if len(p.Choices) > 0 {
		for _, c := range p.Choices {
			if c == s {
				return s, nil
			}
		}
		return nil, &ParamError{Name: p.Name, Msg: fmt.Sprintf("%q is not one of %s", s, strings.Join(p.Choices, ", "))}
	}
	return s, nil
}

// values reads every parameter of an export from a query string, with
// defaults; unknown names are refused so a typo is not silently ignored.
func (e *Export) values(q map[string]string, reserved ...string) (map[string]any, error) {
	return e.valuesFor(q, nil, reserved...)
}

// valuesFor is values with the identity-bound parameters taken from b.
func (e *Export) valuesFor(q map[string]string, b *auth.Attributes, reserved ...string) (map[string]any, error) {
	known := map[string]bool{}
	for _, r := range reserved {
		known[r] = true
	}
	out := map[string]any{}
	for _, p := range e.Params {
		known[p.Name] = true
		if p.From != "" {
			if _, given := q[p.Name]; given {
				return nil, &ParamError{Name: p.Name, Msg: fmt.Sprintf("is set from the caller's identity (%s) and cannot be given", p.From)}
			}
			v, err := boundValue(b, p)
			if err != nil {
				return nil, err
			}
			out[p.Name] = v
			continue
		}
		s, given := q[p.Name]
		if !given || s == "" {
			if p.Required && p.Default == "" {
				return nil, &ParamError{Name: p.Name, Msg: "is required", Missing: true}
			}
			s = p.Default
		}
		if s == "" {
			// Not given: text is "", other types NULL; the SQL decides
			// what a missing value means.
			if p.Type == "text" {
				out[p.Name] = ""
			} else {
				out[p.Name] = nil
			}
			continue
		}
		v, err := p.parse(s)
		if err != nil {
			return nil, err
		}
		out[p.Name] = v
	}
	for name := range q {
		if !known[name] {
			return nil, &ParamError{Name: name, Msg: "is not a parameter of this export"}
		}
	}
	return out, nil
}

// boundQuery is SQL with :name parameters, split so that it can be
// rendered with any placeholder style.
type boundQuery struct {
	parts []string // SQL between parameters: len(names)+1
	names []string
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// parseNamed finds :name parameters outside string literals, quoted
// identifiers and comments; PostgreSQL's :: casts are left alone.
func parseNamed(sql string) (*boundQuery, error) {
	q := &boundQuery{}
	var cur strings.Builder
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for ; j < len(sql); j++ {
				if sql[j] == c {
					if j+1 < len(sql) && sql[j+1] == c { // doubled quote
						j++
						continue
					}
					break
				}
			}
			if j >= len(sql) {
				return nil, fmt.Errorf("unterminated %c quote", c)
			}
			cur.WriteString(sql[i : j+1])
			i = j
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				j = len(sql) - i
			}
			cur.WriteString(sql[i : i+j])
			i += j - 1
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			j := strings.Index(sql[i+2:], "*/")
			if j < 0 {
				return nil, errors.New("unterminated /* comment")
			}
			cur.WriteString(sql[i : i+2+j+2])
			i += 2 + j + 1
		case c == ':' && i+1 < len(sql) && sql[i+1] == ':':
			cur.WriteString("::")
			i++
		case c == ':' && i+1 < len(sql) && (sql[i+1] == '_' || sql[i+1] >= 'a' && sql[i+1] <= 'z' || sql[i+1] >= 'A' && sql[i+1] <= 'Z'):
			j := i + 1
			for j < len(sql) && (sql[j] == '_' || sql[j] >= 'a' && sql[j] <= 'z' || sql[j] >= 'A' && sql[j] <= 'Z' || sql[j] >= '0' && sql[j] <= '9') {
				j++
			}
			q.parts = append(q.parts, cur.String())
			cur.Reset()
			q.names = append(q.names, sql[i+1:j])
			i = j - 1
		default:
			cur.WriteByte(c)
		}
	}
	q.parts = append(q.parts, cur.String())
	return q, nil
}

// render writes the SQL with $1, $2... (PostgreSQL, one number per name)
// or ? (one argument per use) and returns the arguments in order.
func (q *boundQuery) render(dollar bool, vals map[string]any) (string, []any) {
	var b strings.Builder
	var args []any
	index := map[string]int{}
	for i, part := range q.parts {
		b.WriteString(part)
		if i == len(q.names) {
			break
		}
		name := q.names[i]
		if dollar {
			n, ok := index[name]
			if !ok {
				args = append(args, vals[name])
				n = len(args)
				index[name] = n
			}
			b.WriteString("$" + strconv.Itoa(n))
		} else {
			b.WriteString("?")
			args = append(args, vals[name])
		}
	}
	return b.String(), args
}
