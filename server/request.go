package server

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// parseQuery reads a query string strictly. url.ParseQuery drops the
// pairs it cannot decode and keeps going, so a filter with a bad escape
// (city=Os%zzlo) or a semicolon would vanish and the export would return
// everything: here any such pair, and a parameter given twice, is an
// error naming it.
func parseQuery(raw string) (map[string]string, error) {
	out := map[string]string{}
	for pair := range strings.SplitSeq(raw, "&") {
		if pair == "" {
			continue // a&&b, a trailing &: nothing is lost
		}
		if strings.Contains(pair, ";") {
			return nil, &ParamError{Name: pairName(pair), Msg: fmt.Sprintf("%q: a semicolon is not a separator here; escape it as %%3B", pair)}
		}
		k, v, _ := strings.Cut(pair, "=")
		name, err := url.QueryUnescape(k)
		if err != nil {
			return nil, &ParamError{Name: k, Msg: fmt.Sprintf("the name in %q is not a valid URL escape", pair)}
		}
		value, err := url.QueryUnescape(v)
		if err != nil {
			return nil, &ParamError{Name: name, Msg: fmt.Sprintf("the value %q is not a valid URL escape", v)}
		}
		if _, dup := out[name]; dup {
			return nil, &ParamError{Name: name, Msg: "is given twice"}
		}
		out[name] = value
	}
	return out, nil
}

func pairName(pair string) string {
	k, _, _ := strings.Cut(pair, "=")
	if name, err := url.QueryUnescape(k); err == nil {
		return name
	}
	return k
}

// allowedHosts are the Host names a request may carry besides IP
// addresses and localhost: the listen address's host and the configured
// ones, lower case, without ports. "*" allows any.
func allowedHosts(cfg *Config) map[string]bool {
	hosts := map[string]bool{}
	if h, _, err := net.SplitHostPort(cfg.Listen); err == nil && h != "" {
		hosts[strings.ToLower(h)] = true
	}
	for _, h := range cfg.AllowedHosts {
		h = strings.ToLower(strings.TrimSpace(h))
		if name, _, err := net.SplitHostPort(h); err == nil {
			h = name
		}
		hosts[strings.TrimSuffix(h, ".")] = true
	}
	return hosts
}

// hostAllowed checks a request's Host header. DNS rebinding makes a
// browser send a page's own host name to this server's address, so the
// names the server does not know are refused; an IP address cannot be
// rebound and is always allowed, as are localhost and its subdomains.
func (s *Server) hostAllowed(host string) bool {
	if s.hosts["*"] {
		return true
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	switch {
	case host == "":
		return false // HTTP/1.1 requires Host; only hand-made requests lack it
	case net.ParseIP(host) != nil, host == "localhost", strings.HasSuffix(host, ".localhost"):
		return true
	}
	return s.hosts[host]
}

// CheckListener refuses an address other machines can reach when the
// service has no token and the configuration does not say public: true.
// Without a token anyone who reaches the port reads every export.
func (cfg *Config) CheckListener(addr net.Addr) error {
	if cfg.Token != "" || cfg.Public || cfg.Auth.Enabled() {
		return nil
	}
	tcp, ok := addr.(*net.TCPAddr)
	if ok && tcp.IP.IsLoopback() {
		return nil
	}
	return errors.New("refusing to listen on " + addr.String() + " without a token: other machines could read every export. " +
		"Set token or token_env, or auth (oidc, tokens or proxy), listen on 127.0.0.1, or set public: true to serve without one on purpose")
}

// errorID names one error in the log, for a client's report.
func errorID() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
