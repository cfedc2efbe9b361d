// Package xmlscan is a small, allocation-free XML tokenizer for the parts
// of a spreadsheet package. It is not a validating parser: it reports
// start, end and empty tags by local name (namespace prefixes dropped),
// text and CDATA, and skips comments and processing instructions. It does
// not check that end tags match; what it does refuse is what makes XML
// dangerous or unbounded — DOCTYPE and entity declarations, undefined
// entities, nesting past a depth limit — and it never panics on any input.
//
// Tokens refer into the scanned buffer; nothing is copied unless text
// needs decoding, and then into a buffer the caller owns.
package xmlscan

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Kind is the kind of token Next found.
type Kind uint8

const (
	EOF   Kind = iota // end of input, or an error (see Err)
	Start             // <name ...>
	Empty             // <name .../>
	End               // </name>
	Text              // character data (entities not yet decoded)
	CData             // <![CDATA[...]]> content, taken literally
)

var (
	// ErrDoctype reports a DOCTYPE or other markup declaration: the way
	// into entity expansion attacks, and never present in OOXML.
	ErrDoctype = errors.New("DOCTYPE and entity declarations are not allowed")
	// ErrEntity reports an entity reference other than the five XML
	// predefines and character references.
	ErrEntity = errors.New("undefined entity reference")
	// ErrTooDeep reports elements nested past the depth limit.
	ErrTooDeep = errors.New("XML nested too deeply")
	// ErrSyntax reports markup that cannot be tokenized.
	ErrSyntax = errors.New("malformed XML")
)

// DefaultMaxDepth is the nesting limit when Scanner.MaxDepth is 0.
// Spreadsheet parts nest about ten deep.
const DefaultMaxDepth = 256

// Scanner tokenizes one buffer. The zero value is ready after Reset.
type Scanner struct {
	buf   []byte
	pos   int
	depth int
	err   error

	// MaxDepth limits nesting; 0 means DefaultMaxDepth.
	MaxDepth int

	// The current token.
	kind  Kind
	name  []byte // local name of a tag
	attrs []byte // raw attribute text of a start or empty tag
	text  []byte // raw text or CDATA content
	at    int    // offset of the token in buf
}

// Reset starts scanning buf from its beginning. The depth starts at 0 and
// may go negative: a buffer can be a slice from the middle of a document.
func (s *Scanner) Reset(buf []byte) {
	*s = Scanner{buf: buf, MaxDepth: s.MaxDepth}
}

// Err is the error that ended scanning, or nil at a clean end.
func (s *Scanner) Err() error { return s.err }

// Offset is the byte offset of the current token in the buffer.
func (s *Scanner) Offset() int { return s.at }

// Token is the current token's raw bytes, such as a whole start tag.
func (s *Scanner) Token() []byte { return s.buf[s.at:s.pos] }

// Name is the local name of the current tag.
func (s *Scanner) Name() []byte { return s.name }

// Is reports whether the current tag's local name is name.
func (s *Scanner) Is(name string) bool { return string(s.name) == name }

// Raw is the undecoded content of the current Text or CData token.
func (s *Scanner) Raw() []byte { return s.text }

// Depth is the nesting depth after the current token.
func (s *Scanner) Depth() int { return s.depth }

func (s *Scanner) fail(err error, detail string) Kind {
	if s.err == nil {
		if detail != "" {
			s.err = fmt.Errorf("%w at byte %d: %s", err, s.at, detail)
		} else {
			s.err = fmt.Errorf("%w at byte %d", err, s.at)
		}
	}
	s.kind = EOF
	s.pos = len(s.buf)
	return EOF
}

// Next advances to the next token and returns its kind. EOF ends the
// input; Err says whether it ended in an error.
func (s *Scanner) Next() Kind {
	if s.pos >= len(s.buf) {
		s.kind = EOF
		return EOF
	}
	s.at = s.pos
	b := s.buf[s.pos:]
	if b[0] != '<' {
		i := indexShort(b, '<')
		if i < 0 {
			i = len(b)
		}
		s.text = b[:i]
		s.pos += i
		s.kind = Text
		return Text
	}
	if len(b) < 2 {
		return s.fail(ErrSyntax, "unexpected end of input")
	}
	switch b[1] {
	case '/':
		i := indexShort(b, '>')
		if i < 0 {
			return s.fail(ErrSyntax, "unterminated end tag")
		}
		s.name = localName(trimSpaceRight(b[2:i]))
		s.pos += i + 1
		s.depth--
		s.kind = End
		return End
	case '?':
		i := bytes.Index(b, []byte("?>"))
		if i < 0 {
			return s.fail(ErrSyntax, "unterminated processing instruction")
		}
		s.pos += i + 2
		return s.Next()
	case '!':
		switch {
		case bytes.HasPrefix(b, []byte("<!--")):
			i := bytes.Index(b[4:], []byte("-->"))
			if i < 0 {
				return s.fail(ErrSyntax, "unterminated comment")
			}
			s.pos += 4 + i + 3
			return s.Next()
		case bytes.HasPrefix(b, []byte("<![CDATA[")):
			i := bytes.Index(b[9:], []byte("]]>"))
			if i < 0 {
				return s.fail(ErrSyntax, "unterminated CDATA section")
			}
			s.text = b[9 : 9+i]
			s.pos += 9 + i + 3
			s.kind = CData
			return CData
		default:
			return s.fail(ErrDoctype, "")
		}
	}
	// A start or empty tag. Attribute values may hold '>', so quotes are
	// skipped whole.
	j := 1
	for j < len(b) && !isSpace(b[j]) && b[j] != '>' && b[j] != '/' {
		j++
	}
	if j == 1 {
		return s.fail(ErrSyntax, "empty tag name")
	}
	s.name = localName(b[1:j])
	start := j
	for {
		if j >= len(b) {
			return s.fail(ErrSyntax, "unterminated tag")
		}
		c := b[j]
		if c == '"' || c == '\'' {
			k := indexShort(b[j+1:], c)
			if k < 0 {
				return s.fail(ErrSyntax, "unterminated attribute value")
			}
			j += k + 2
			continue
		}
		if c == '>' {
			break
		}
		if c == '<' {
			return s.fail(ErrSyntax, "'<' inside a tag")
		}
		j++
	}
	s.pos += j + 1
	if b[j-1] == '/' && j-1 >= start {
		s.attrs = b[start : j-1]
		s.kind = Empty
		return Empty
	}
	s.attrs = b[start:j]
	s.depth++
	max := s.MaxDepth
	if max <= 0 {
		max = DefaultMaxDepth
	}
	if s.depth > max {
		return s.fail(ErrTooDeep, fmt.Sprintf("more than %d levels", max))
	}
	s.kind = Start
	return Start
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func trimSpaceRight(b []byte) []byte {
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func localName(n []byte) []byte {
	for i := len(n) - 1; i >= 0; i-- {
		if n[i] == ':' {
			return n[i+1:]
		}
	}
	return n
}

// indexShort is bytes.IndexByte for the short spans of markup, where a
// plain loop beats the call's setup; long spans go to IndexByte.
func indexShort(b []byte, c byte) int {
	n := min(len(b), 24)
	for i := 0; i < n; i++ {
		if b[i] == c {
			return i
		}
	}
	if n == len(b) {
		return -1
	}
	if i := bytes.IndexByte(b[n:], c); i >= 0 {
		return n + i
	}
	return -1
}

// Rest is the input not yet scanned, for callers with a faster path of
// their own for an element they know well.
func (s *Scanner) Rest() []byte { return s.buf[s.pos:] }

// Advance skips n bytes of Rest that the caller consumed: whole elements,
// so the depth does not change.
func (s *Scanner) Advance(n int) { s.pos += min(n, len(s.buf)-s.pos) }

// AdvanceOut skips n bytes of Rest that end the element whose start tag
// was the last token read, its end tag included, so the depth is the
// element's parent's.
func (s *Scanner) AdvanceOut(n int) {
	s.pos += min(n, len(s.buf)-s.pos)
	if s.depth > 0 {
		s.depth--
	}
}

// Simple reads an element such as <v>42</v> at the current position: the
// given unprefixed name, no attributes, and text with nothing to decode.
// It consumes the element and returns its text, or returns ok=false and
// consumes nothing, for the caller to take the general path.
func (s *Scanner) Simple(name string) (text []byte, ok bool) {
	b := s.buf[s.pos:]
	n := len(name)
	if len(b) < 2*n+5 || b[0] != '<' || string(b[1:1+n]) != name || b[1+n] != '>' {
		return nil, false
	}
	b = b[n+2:]
	i := 0
	for ; i < len(b) && b[i] != '<'; i++ {
		if b[i] == '&' || b[i] == '\r' {
			return nil, false
		}
	}
	end := b[i:]
	if len(end) < n+3 || end[1] != '/' || string(end[2:2+n]) != name || end[2+n] != '>' {
		return nil, false
	}
	s.at = s.pos
	s.pos += n + 2 + i + n + 3
	s.kind = End
	s.name = end[2 : 2+n]
	return b[:i], true
}

// Attr returns the raw (undecoded) value of the current tag's attribute
// with the given local name. Namespace prefixes are ignored, so "r:id"
// answers to "id"; an unprefixed name wins over a prefixed one.
func (s *Scanner) Attr(name string) ([]byte, bool) {
	var found []byte
	ok := false
	a := s.attrs
	for {
		n, v, rest, more := NextAttr(a)
		if !more {
			return found, ok
		}
		a = rest
		if string(localName(n)) == name {
			if len(n) == len(name) {
				return v, true
			}
			if !ok {
				found, ok = v, true
			}
		}
	}
}

// RawAttrs is the undecoded attribute text of the current tag, for
// NextAttr.
func (s *Scanner) RawAttrs() []byte { return s.attrs }

// NextAttr takes the first attribute from raw attribute text, returning
// its full name, its raw value and the rest; ok is false at the end.
func NextAttr(a []byte) (name, value, rest []byte, ok bool) {
	i := 0
	for i < len(a) && isSpace(a[i]) {
		i++
	}
	a = a[i:]
	eq := indexShort(a, '=')
	if eq <= 0 {
		return nil, nil, nil, false
	}
	name = trimSpaceRight(a[:eq])
	j := eq + 1
	for j < len(a) && isSpace(a[j]) {
		j++
	}
	if j >= len(a) || (a[j] != '"' && a[j] != '\'') {
		return nil, nil, nil, false
	}
	q := a[j]
	k := indexShort(a[j+1:], q)
	if k < 0 {
		return nil, nil, nil, false
	}
	return name, a[j+1 : j+1+k], a[j+1+k+1:], true
}

// Content reads the character data of the element whose Start tag is the
// current token, up to and including its end tag, and returns it decoded.
// Text inside nested elements is included. When the content is one plain
// run with nothing to decode, the result refers into the scanned buffer;
// otherwise it is appended to *scratch, which the caller reuses.
func (s *Scanner) Content(scratch *[]byte) []byte {
	depth := s.depth
	// The common case: <v>123</v>, short and with nothing to decode.
	b := s.buf[s.pos:]
	i, plain := 0, true
	for ; i < len(b) && b[i] != '<'; i++ {
		if b[i] == '&' || b[i] == '\r' {
			plain = false
		}
	}
	if plain && i+1 < len(b) && b[i+1] == '/' {
		raw := b[:i]
		{
			// The next tokens are this text (if any) and an end tag.
			if s.Next() == Text {
				s.Next()
			}
			return raw
		}
	}
	start := len(*scratch)
	for {
		switch s.Next() {
		case Text:
			var err error
			*scratch, err = AppendDecoded(*scratch, s.text)
			if err != nil {
				s.fail(err, "")
				return (*scratch)[start:]
			}
		case CData:
			*scratch = appendNewlines(*scratch, s.text)
		case End:
			if s.depth < depth {
				return (*scratch)[start:]
			}
		case EOF:
			return (*scratch)[start:]
		}
	}
}

// Skip consumes tokens up to and including the end tag of the element
// whose Start tag is current.
func (s *Scanner) Skip() {
	depth := s.depth
	for {
		switch s.Next() {
		case End:
			if s.depth < depth {
				return
			}
		case EOF:
			return
		}
	}
}

// AppendDecoded appends raw character data to dst with entity and
// character references resolved and line ends normalized (CRLF and lone
// CR become LF, as XML requires).
func AppendDecoded(dst, raw []byte) ([]byte, error) {
	for len(raw) > 0 {
		i := bytes.IndexAny(raw, "&\r")
		if i < 0 {
			return append(dst, raw...), nil
		}
		dst = append(dst, raw[:i]...)
		raw = raw[i:]
		if raw[0] == '\r' {
			dst = append(dst, '\n')
			raw = raw[1:]
			if len(raw) > 0 && raw[0] == '\n' {
				raw = raw[1:]
			}
			continue
		}
		end := bytes.IndexByte(raw, ';')
		// A name or number is short; a character reference may be padded
		// with zeros (&#000100000;), as XML allows.
		if end < 0 || end > 12 && (len(raw) < 2 || raw[1] != '#') {
			return dst, fmt.Errorf("%w: unterminated reference", ErrEntity)
		}
		ref := raw[1:end]
		raw = raw[end+1:]
		switch string(ref) {
		case "lt":
			dst = append(dst, '<')
		case "gt":
			dst = append(dst, '>')
		case "amp":
			dst = append(dst, '&')
		case "quot":
			dst = append(dst, '"')
		case "apos":
			dst = append(dst, '\'')
		default:
			r, ok := charRef(ref)
			if !ok {
				return dst, fmt.Errorf("%w &%s;", ErrEntity, printable(ref))
			}
			dst = utf8.AppendRune(dst, r)
		}
	}
	return dst, nil
}

// DecodeAttr decodes an attribute value: references resolved and, as XML
// requires of attribute values, tabs and line ends turned into spaces.
func DecodeAttr(dst, raw []byte) ([]byte, error) {
	start := len(dst)
	dst, err := AppendDecoded(dst, raw)
	// Line ends were normalized to LF by AppendDecoded; literal whitespace
	// becomes a space, but whitespace from character references stays.
	if bytes.ContainsAny(raw, "\t\n\r") && bytes.IndexByte(raw, '&') < 0 {
		for i := start; i < len(dst); i++ {
			if dst[i] == '\t' || dst[i] == '\n' {
				dst[i] = ' '
			}
		}
	}
	return dst, err
}

func charRef(ref []byte) (rune, bool) {
	if len(ref) < 2 || ref[0] != '#' {
		return 0, false
	}
	var n int64
	digits := ref[1:]
	base := int64(10)
	if digits[0] == 'x' || digits[0] == 'X' {
		base = 16
		digits = digits[1:]
	}
	if len(digits) == 0 {
		return 0, false
	}
	for len(digits) > 1 && digits[0] == '0' {
		digits = digits[1:] // leading zeros count for nothing
	}
	if len(digits) > 8 {
		return 0, false
	}
	for _, c := range digits {
		var d int64
		switch {
		case c >= '0' && c <= '9':
			d = int64(c - '0')
		case base == 16 && c >= 'a' && c <= 'f':
			d = int64(c-'a') + 10
		case base == 16 && c >= 'A' && c <= 'F':
			d = int64(c-'A') + 10
		default:
			return 0, false
		}
		n = n*base + d
	}
	r := rune(n)
	if n > utf8.MaxRune || !utf8.ValidRune(r) || n == 0 {
		return utf8.RuneError, true
	}
	return r, true
}

func appendNewlines(dst, raw []byte) []byte {
	for len(raw) > 0 {
		i := bytes.IndexByte(raw, '\r')
		if i < 0 {
			return append(dst, raw...)
		}
		dst = append(dst, raw[:i]...)
		dst = append(dst, '\n')
		raw = raw[i+1:]
		if len(raw) > 0 && raw[0] == '\n' {
			raw = raw[1:]
		}
	}
	return dst
}

func printable(b []byte) string {
	if len(b) > 10 {
		b = b[:10]
	}
	q := fmt.Sprintf("%q", b)
	return q[1 : len(q)-1]
}
