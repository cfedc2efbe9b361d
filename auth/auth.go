// Package auth tells the service who is asking: bearer tokens of an
// OpenID Connect issuer (checked against its published keys), the page's
// login through that issuer (a signed session cookie), static API tokens
// (the configuration holds only their SHA-256), identities a trusted
// proxy vouches for in headers (oauth2-proxy, Pomerium, a company's
// gateway), and the service's one shared token. The service decides what an
// identity may do (an export's allow list, a job's owner); this package
// only establishes it.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"time"
	"unicode"
)

// Identity is who a request comes from.
type Identity struct {
	Attributes
	// Method says how it was established: token, oidc (a bearer token
	// of the issuer), session (the page's login), proxy or shared.
	Method string `json:"method"`
	// Issuer is the OpenID Connect issuer that vouches for an oidc or
	// session identity.
	Issuer string `json:"issuer,omitempty"`
	// All: the service's shared token, which has every right.
	All bool `json:"-"`

	csrf string // a session's CSRF token
	sid  string // a session's id, which logout revokes
}

// Attributes are what an identity says of its holder: what an export's
// identity-bound parameters read, and what a job keeps of who asked for
// it (jobs.Request.Caller).
type Attributes struct {
	// Subject identifies the caller ("token:ci", "alice@example.com").
	Subject string   `json:"subject"`
	Email   string   `json:"email,omitempty"`
	Groups  []string `json:"groups,omitempty"`
	// Claims are further attributes (from a proxy header or a token's
	// configuration), by name.
	Claims map[string]string `json:"claims,omitempty"`
}

// Key is the identity's key wherever something is kept for it (a job's
// owner, a rate-limit bucket): its method's namespace and its subject, so
// that no two login methods can name the same identity. An OIDC subject
// is keyed with its issuer ("oidc:ISSUER|SUB", the same for a bearer
// token and the page's login), a trusted proxy's user as "proxy:USER", a
// static token as "token:NAME"; the shared token is "shared-token", a
// service without credentials "anonymous", and a schedule's jobs belong
// to "schedule:NAME".
func (id *Identity) Key() string {
	switch id.Method {
	case "oidc", "session":
		return "oidc:" + id.Issuer + "|" + id.Subject
	case "proxy":
		return "proxy:" + id.Subject
	}
	return id.Subject // token:NAME, shared-token, anonymous, schedule:NAME
}

// reservedSubject says whether a subject another method vouches for (an
// OIDC sub, a proxy's user) takes a form the service keeps for its own
// identities: those are refused, never mistaken for the token, schedule
// or key they spell.
func reservedSubject(sub string) bool {
	switch sub {
	case "shared-token", "anonymous":
		return true
	}
	for _, prefix := range []string{"token:", "schedule:", "oidc:", "proxy:", "recipient:"} {
		if strings.HasPrefix(strings.ToLower(sub), prefix) {
			return true
		}
	}
	return false
}

// checkSubject refuses a subject that is empty, only white space (any
// Unicode space), holds control characters, or takes a reserved form.
func checkSubject(what, sub string) error {
	if strings.TrimFunc(sub, func(r rune) bool { return unicode.IsSpace(r) || r == '\u200b' || r == '\ufeff' }) == "" {
		return fmt.Errorf("%w: %s is empty", ErrInvalid, what)
	}
	for _, r := range sub {
		if unicode.IsControl(r) {
			return fmt.Errorf("%w: %s holds a control character", ErrInvalid, what)
		}
	}
	if reservedSubject(sub) {
		return fmt.Errorf("%w: %s %q takes a form the service keeps for its own identities", ErrInvalid, what, sub)
	}
	return nil
}

// InGroup says whether the identity is in group g.
func (id *Identity) InGroup(g string) bool {
	for _, x := range id.Groups {
		if x == g {
			return true
		}
	}
	return false
}

// Token is a static API token: the configuration holds its SHA-256.
type Token struct {
	Name   string   `yaml:"name"`
	SHA256 string   `yaml:"sha256"`
	Groups []string `yaml:"groups"`
	// Claims give the token's identity attributes for parameters bound to
	// them (from: claim:NAME).
	Claims map[string]string `yaml:"claims"`
	// Email, when set, is the token's identity's email.
	Email string `yaml:"email"`

	sum [32]byte
}

// Proxy trusts identity headers from the peers in Trusted only.
type Proxy struct {
	UserHeader   string   `yaml:"user_header"`   // such as X-Forwarded-User
	EmailHeader  string   `yaml:"email_header"`  // such as X-Forwarded-Email
	GroupsHeader string   `yaml:"groups_header"` // comma-separated groups
	Trusted      []string `yaml:"trusted"`       // CIDRs of the proxies

	trusted []netip.Prefix
}

// Config is the service's auth: section, with the shared token of its
// token: key.
type Config struct {
	Tokens      []*Token `yaml:"tokens"`
	Proxy       *Proxy   `yaml:"proxy"`
	AdminGroups []string `yaml:"admin_groups"`
	OIDC        *OIDC    `yaml:"oidc"`
}

// Enabled says whether any identity method is configured beyond the
// shared token.
func (c *Config) Enabled() bool {
	return c != nil && (len(c.Tokens) > 0 || c.Proxy != nil || c.OIDC != nil)
}

// Errors of Authenticate.
var (
	// ErrNoCredentials: the request carries none (answer 401).
	ErrNoCredentials = errors.New("no credentials")
	// ErrInvalid: credentials that do not check out (answer 401).
	ErrInvalid = errors.New("invalid credentials")
	// ErrAmbiguous: an identity header (a proxy's, or Authorization)
	// given more than once: which one counts depends on who reads it, so
	// none does (answer 400).
	ErrAmbiguous = errors.New("an identity header is given more than once")
)

// Authenticator establishes identities.
type Authenticator struct {
	cfg    Config
	shared []byte
	oidc   *oidcAuth
	sealer sealer
	// revoked lists the sessions logged out before their expiry.
	revoked Revocations
	now     func() time.Time
	// Warnings are what New found unsafe but not wrong.
	Warnings []string
}

// New checks the configuration (token hashes, proxy headers and CIDRs)
// and, with oidc:, reads the issuer's discovery document and keys: an
// issuer that does not answer within 20 seconds is an error.
func New(cfg Config, sharedToken string) (*Authenticator, error) {
	return newAt(cfg, sharedToken, time.Now)
}

// newAt is New with a clock, for tests of expiry.
func newAt(cfg Config, sharedToken string, now func() time.Time) (*Authenticator, error) {
	names := map[string]bool{}
	for i, t := range cfg.Tokens {
		if t == nil || t.Name == "" || strings.ContainsAny(t.Name, " \t\r\n") {
			return nil, fmt.Errorf("token %d: a name without spaces", i+1)
		}
		if names[t.Name] {
			return nil, fmt.Errorf("token %q is named twice", t.Name)
		}
		names[t.Name] = true
		b, err := hex.DecodeString(t.SHA256)
		if err != nil || len(b) != 32 {
			return nil, fmt.Errorf("token %q: sha256 is not 64 hex digits (sheetstream token new prints one)", t.Name)
		}
		copy(t.sum[:], b)
	}
	if p := cfg.Proxy; p != nil {
		if p.UserHeader == "" || len(p.Trusted) == 0 {
			return nil, errors.New("proxy needs user_header and trusted (the proxies' addresses)")
		}
		for _, c := range p.Trusted {
			prefix, err := netip.ParsePrefix(c)
			if err != nil {
				addr, err2 := netip.ParseAddr(c)
				if err2 != nil {
					return nil, fmt.Errorf("proxy.trusted: %q is not an address or CIDR", c)
				}
				prefix = netip.PrefixFrom(addr, addr.BitLen())
			}
			p.trusted = append(p.trusted, prefix.Masked())
		}
	}
	a := &Authenticator{cfg: cfg, shared: []byte(sharedToken), now: now, revoked: &MemoryRevocations{}}
	if cfg.OIDC != nil {
		o, err := newOIDC(context.Background(), *cfg.OIDC, now)
		if err != nil {
			return nil, err
		}
		a.oidc = o
		if err := a.sessionKey(); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// KeyFetches counts the fetches of the OIDC issuer's keys (0 without
// oidc:).
func (a *Authenticator) KeyFetches() int64 {
	if a.oidc == nil {
		return 0
	}
	return a.oidc.keys.fetches.Load()
}

// sessionKey sets the key that signs the page's cookies.
func (a *Authenticator) sessionKey() error {
	if env := a.oidc.cfg.SessionKeyEnv; env != "" {
		key := os.Getenv(env)
		if len(key) < 32 {
			return fmt.Errorf("oidc.session_key_env: %s must hold at least 32 characters (it holds %d)", env, len(key))
		}
		a.sealer.key = []byte(key)
		return nil
	}
	a.sealer.key = make([]byte, 32)
	rand.Read(a.sealer.key)
	if a.LoginEnabled() {
		a.Warnings = append(a.Warnings, "auth.oidc: no session_key_env: page logins end when the service restarts, and are not shared by several instances")
	}
	return nil
}

// Authenticate establishes who r comes from: a bearer token (a static
// token, the shared one, or a JWT of the OIDC issuer), the page's session
// cookie (which must bring its CSRF token on a request that changes
// something: ErrCSRF), or a trusted proxy's headers. Headers from a
// peer outside proxy.trusted are an error, never ignored: a client that
// sends them is trying something.
func (a *Authenticator) Authenticate(r *http.Request) (*Identity, error) {
	if err := a.singleHeaders(r); err != nil {
		return nil, err
	}
	if p := a.cfg.Proxy; p != nil && len(r.Header.Values(p.UserHeader)) > 0 {
		if !p.isTrusted(r.RemoteAddr) {
			return nil, fmt.Errorf("%w: %s from %s, which is not a trusted proxy", ErrInvalid, p.UserHeader, r.RemoteAddr)
		}
		id := &Identity{Attributes: Attributes{Subject: strings.TrimSpace(r.Header.Get(p.UserHeader))}, Method: "proxy"}
		if err := checkSubject(p.UserHeader, id.Subject); err != nil {
			return nil, err
		}
		if p.EmailHeader != "" {
			id.Email = strings.TrimSpace(r.Header.Get(p.EmailHeader))
		}
		if p.GroupsHeader != "" {
			for _, g := range strings.Split(r.Header.Get(p.GroupsHeader), ",") {
				if g = strings.TrimSpace(g); g != "" {
					id.Groups = append(id.Groups, g)
				}
			}
		}
		return id, nil
	}
	header := r.Header.Get("Authorization")
	if header == "" {
		if id, err := a.sessionIdentity(r); id != nil || err != nil {
			return id, err
		}
		return nil, ErrNoCredentials
	}
	token, ok := BearerToken(header)
	if !ok {
		return nil, fmt.Errorf("%w: the Authorization header is not a bearer token", ErrInvalid)
	}
	if len(a.shared) > 0 && subtle.ConstantTimeCompare([]byte(token), a.shared) == 1 {
		return &Identity{Attributes: Attributes{Subject: "shared-token"}, Method: "shared", All: true}, nil
	}
	sum := sha256.Sum256([]byte(token))
	var found *Token
	for _, t := range a.cfg.Tokens {
		// Every token compared, in constant time: which one matched, or
		// whether any did, does not show in the time taken.
		if subtle.ConstantTimeCompare(sum[:], t.sum[:]) == 1 {
			found = t
		}
	}
	if found == nil {
		if a.oidc != nil && strings.Count(token, ".") == 2 {
			id, err := a.oidc.bearerIdentity(r.Context(), token)
			if err != nil {
				return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
			}
			return id, nil
		}
		return nil, fmt.Errorf("%w: unknown token", ErrInvalid)
	}
	return &Identity{Attributes: Attributes{Subject: "token:" + found.Name, Email: found.Email, Groups: found.Groups, Claims: found.Claims}, Method: "token"}, nil
}

// singleHeaders refuses a request that gives an identity header more
// than once: a proxy that appends its header to the client's, rather
// than replacing it, would otherwise let the client's value win.
func (a *Authenticator) singleHeaders(r *http.Request) error {
	names := []string{"Authorization"}
	if p := a.cfg.Proxy; p != nil {
		names = append(names, p.UserHeader, p.EmailHeader, p.GroupsHeader)
	}
	for _, name := range names {
		if name != "" && len(r.Header.Values(name)) > 1 {
			return fmt.Errorf("%w: %s", ErrAmbiguous, name)
		}
	}
	return nil
}

// BearerToken reads "Bearer TOKEN" (the scheme in any case, RFC 7235).
func BearerToken(header string) (string, bool) {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimLeft(token, " ")
	return token, token != ""
}

func (p *Proxy) isTrusted(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	addr = addr.Unmap()
	for _, prefix := range p.trusted {
		if prefix.Contains(addr) {
			return true
		}
	}
	return false
}

// IsAdmin says whether the identity is in one of the admin groups (or
// holds the shared token).
func (c *Config) IsAdmin(id *Identity) bool {
	if id == nil {
		return false
	}
	if id.All {
		return true
	}
	for _, g := range c.AdminGroups {
		if id.InGroup(g) {
			return true
		}
	}
	return false
}

// NewToken makes a random API token and the SHA-256 the configuration
// keeps of it.
func NewToken() (token, sum string) {
	b := make([]byte, 32)
	rand.Read(b)
	token = "sst_" + hex.EncodeToString(b)
	h := sha256.Sum256([]byte(token))
	return token, hex.EncodeToString(h[:])
}
