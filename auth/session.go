package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
)

// The page's cookies. The session cookie holds the identity itself,
// signed: any instance holding the session key can read it, and nothing
// is stored server-side.
const (
	SessionCookie = "sheetstream_session"
	loginCookie   = "sheetstream_login"    // state, nonce and PKCE verifier of a login under way
	hintCookie    = "sheetstream_id_token" // the issuer's ID token, to name the session at logout
	// CSRFHeader carries a session's CSRF token on requests that change
	// something; /api/session tells the page its value.
	CSRFHeader = "X-CSRF-Token"
)

// ErrCSRF: a request that changes something came with a session cookie
// but without the session's CSRF token (answer 403).
var ErrCSRF = errors.New("the request lacks the session's CSRF token")

// session is what the session cookie holds.
type session struct {
	Subject string            `json:"sub"`
	Email   string            `json:"email,omitempty"`
	Groups  []string          `json:"groups,omitempty"`
	Claims  map[string]string `json:"claims,omitempty"`
	Expires int64             `json:"exp"`
	ID      string            `json:"sid"`
}

// sealer signs cookie values with HMAC-SHA256. A kind is signed with the
// value, so a login cookie is never taken for a session.
type sealer struct{ key []byte }

func (s sealer) mac(kind string, payload []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(kind))
	m.Write([]byte{0})
	m.Write(payload)
	return m.Sum(nil)
}

func (s sealer) seal(kind string, v any) (string, error) {
	payload, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(s.mac(kind, payload)), nil
}

func (s sealer) open(kind, value string, v any) error {
	enc := base64.RawURLEncoding
	p, m, ok := strings.Cut(value, ".")
	payload, err1 := enc.DecodeString(p)
	sum, err2 := enc.DecodeString(m)
	if !ok || err1 != nil || err2 != nil || !hmac.Equal(sum, s.mac(kind, payload)) {
		return errors.New("a cookie that does not check out")
	}
	return json.Unmarshal(payload, v)
}

// csrfToken is the session's CSRF token: derived from its id, so it needs
// no storage, and unknowable without the key.
func (s sealer) csrfToken(sid string) string {
	return base64.RawURLEncoding.EncodeToString(s.mac("csrf", []byte(sid)))
}

// sessionIdentity reads the session cookie, if r has one: nil, nil when
// it has none.
func (a *Authenticator) sessionIdentity(r *http.Request) (*Identity, error) {
	c, err := r.Cookie(SessionCookie)
	if err != nil || a.oidc == nil || a.oidc.idToken == nil {
		return nil, nil
	}
	var s session
	if err := a.sealer.open("session", c.Value, &s); err != nil {
		return nil, fmt.Errorf("%w: session cookie: %v", ErrInvalid, err)
	}
	if a.now().Unix() >= s.Expires {
		return nil, fmt.Errorf("%w: the session has expired", ErrInvalid)
	}
	if revoked, err := a.revoked.Revoked(r.Context(), s.ID); err != nil {
		return nil, fmt.Errorf("%w: the list of ended sessions cannot be read: %v", ErrInvalid, err)
	} else if revoked {
		return nil, fmt.Errorf("%w: the session was logged out", ErrInvalid)
	}
	id := &Identity{Attributes: Attributes{Subject: s.Subject, Email: s.Email, Groups: s.Groups, Claims: s.Claims}, Method: "session",
		Issuer: a.oidc.cfg.Issuer, csrf: a.sealer.csrfToken(s.ID), sid: s.ID}
	if !safeMethod(r.Method) {
		got := r.Header.Get(CSRFHeader)
		if subtle.ConstantTimeCompare([]byte(got), []byte(id.csrf)) != 1 {
			return nil, ErrCSRF
		}
	}
	return id, nil
}

// CSRFToken is the token requests of id's session that change something
// must carry in the X-CSRF-Token header ("" for other identities).
func (id *Identity) CSRFToken() string { return id.csrf }

func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// registeredClaims are a token's own bookkeeping, not attributes of who
// it names: the session cookie leaves them out.
var registeredClaims = map[string]bool{"iss": true, "aud": true, "exp": true, "nbf": true, "iat": true, "jti": true,
	"azp": true, "nonce": true, "at_hash": true, "c_hash": true, "auth_time": true, "sid": true, "typ": true,
	"acr": true, "session_state": true}

// maxCookie is the most a cookie's value may take: browsers keep 4096
// bytes of name, value and attributes.
const maxCookie = 3800

// setSession sets the session cookie for id, lasting SessionTTL.
func (a *Authenticator) setSession(w http.ResponseWriter, r *http.Request, id *Identity) error {
	claims := map[string]string{}
	for k, v := range id.Claims {
		if !registeredClaims[k] {
			claims[k] = v
		}
	}
	sid := make([]byte, 16)
	rand.Read(sid)
	expires := a.now().Add(a.oidc.cfg.SessionTTL)
	value, err := a.sealer.seal("session", session{Subject: id.Subject, Email: id.Email, Groups: id.Groups, Claims: claims,
		Expires: expires.Unix(), ID: base64.RawURLEncoding.EncodeToString(sid)})
	if err != nil {
		return err
	}
	if len(value) > maxCookie {
		return fmt.Errorf("the identity is too large for a session cookie (%d bytes: %d groups); ask for a token with fewer groups", len(value), len(id.Groups))
	}
	setCookie(w, r, SessionCookie, value, "/", expires)
	return nil
}

// setCookie sets an HttpOnly, SameSite=Lax cookie, Secure unless the
// service is reached on a loopback address (where browsers may not use
// https). An expiry in the past deletes it.
func setCookie(w http.ResponseWriter, r *http.Request, name, value, path string, expires time.Time) {
	c := &http.Cookie{Name: name, Value: value, Path: path, HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: !loopbackHost(r.Host), Expires: expires}
	if expires.IsZero() || expires.Before(time.Now()) {
		c.Expires, c.MaxAge = time.Unix(0, 0), -1
	}
	http.SetCookie(w, c)
}

// loopbackHost says whether a Host header names this machine.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
