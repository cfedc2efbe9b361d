package sqlsheet

import (
	"net/url"
	"regexp"
	"strings"
)

// secretParams are the query parameters of a database URL that hold a
// secret (lower case).
var secretParams = map[string]bool{
	"password": true, "pass": true, "pwd": true, "passwd": true, "sslpassword": true,
	"secret": true, "token": true, "access_token": true, "apikey": true, "api_key": true,
}

// keyValueSecret finds password=... in PostgreSQL's key/value DSNs.
var keyValueSecret = regexp.MustCompile(`(?i)\b(password|passwd|pwd|sslpassword)\s*=\s*('(?:[^'\\]|\\.)*'|[^\s&]+)`)

const redacted = "xxxxx"

// RedactURL hides the secrets of a database URL for logs and messages:
// the password of its user information and the values of query
// parameters such as password= and sslpassword=. A string that does not
// parse as a URL is redacted as well as its form allows.
func RedactURL(raw string) string {
	out := raw
	for _, s := range urlSecrets(raw) {
		out = strings.ReplaceAll(out, s, redacted)
	}
	return keyValueSecret.ReplaceAllString(out, "${1}="+redacted)
}

// urlSecrets lists the secrets of a database URL, raw and unescaped,
// longest first so that a replacement never leaves part of one.
func urlSecrets(raw string) []string {
	var secrets []string
	add := func(s string) {
		if s == "" {
			return
		}
		secrets = append(secrets, s)
		if u, err := url.QueryUnescape(s); err == nil && u != s {
			secrets = append(secrets, u)
		}
	}
	// The user information by hand: a URL too malformed for url.Parse
	// (the case that ends up in an error message) still has it.
	if scheme := strings.Index(raw, "://"); scheme >= 0 {
		rest := raw[scheme+3:]
		if end := strings.IndexAny(rest, "/?#"); end >= 0 && strings.LastIndexByte(rest[:end], '@') < 0 {
			rest = rest[:end]
		}
		if at := strings.LastIndexByte(rest, '@'); at >= 0 {
			if _, pass, ok := strings.Cut(rest[:at], ":"); ok {
				add(pass)
			}
		}
	}
	if _, query, ok := strings.Cut(raw, "?"); ok {
		for pair := range strings.SplitSeq(query, "&") {
			k, v, _ := strings.Cut(pair, "=")
			if name, err := url.QueryUnescape(k); err == nil && secretParams[strings.ToLower(name)] {
				add(v)
			}
		}
	}
	for _, m := range keyValueSecret.FindAllStringSubmatch(raw, -1) {
		add(strings.Trim(m[2], "'"))
	}
	// Longest first.
	for i := 1; i < len(secrets); i++ {
		for j := i; j > 0 && len(secrets[j]) > len(secrets[j-1]); j-- {
			secrets[j], secrets[j-1] = secrets[j-1], secrets[j]
		}
	}
	return secrets
}

// RedactError returns err with the secrets of the database URL it came
// from taken out of its message (drivers and URL parsers quote the URL or
// parts of it). errors.Is and errors.As still see err.
func RedactError(err error, dbURL string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	clean := msg
	for _, s := range urlSecrets(dbURL) {
		clean = strings.ReplaceAll(clean, s, redacted)
	}
	if clean == msg {
		return err
	}
	return &redactedError{msg: clean, err: err}
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }
