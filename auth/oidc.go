package auth

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// OIDC is the auth.oidc section: bearer tokens an OpenID Connect issuer
// signed, and, with a client_id, the page's login through that issuer.
type OIDC struct {
	// Issuer is the issuer's URL; its discovery document is read from
	// ISSUER/.well-known/openid-configuration at start.
	Issuer string `yaml:"issuer"`
	// Audience must be among a bearer token's aud values (default:
	// ClientID).
	Audience string `yaml:"audience"`
	// The claims identities are read from: groups (default "groups", a
	// list or one name), subject (default "sub"), email (default
	// "email"). A name with dots reaches into objects, such as
	// "realm_access.roles".
	GroupsClaim  string `yaml:"groups_claim"`
	SubjectClaim string `yaml:"subject_claim"`
	EmailClaim   string `yaml:"email_claim"`
	// Leeway is the clock difference allowed for exp, nbf and iat
	// (default 30s).
	Leeway time.Duration `yaml:"leeway"`
	// RefetchInterval is the least time between two fetches of the
	// issuer's keys for tokens naming a key not held (default 10s).
	RefetchInterval time.Duration `yaml:"refetch_interval"`

	// ClientID turns on the page's login (the authorization-code flow
	// with PKCE); ClientSecretEnv names the environment variable holding
	// the client's secret (none for a public client).
	ClientID        string   `yaml:"client_id"`
	ClientSecretEnv string   `yaml:"client_secret_env"`
	Scopes          []string `yaml:"scopes"`
	// RedirectURL is where the issuer sends the browser back (default:
	// the request's own scheme and host, path /auth/callback); set it
	// when the service is reached through a proxy that changes either.
	RedirectURL string `yaml:"redirect_url"`
	// SessionKeyEnv names the environment variable holding the key that
	// signs session cookies (at least 32 characters; without it, a random
	// key: sessions end when the service restarts, and several instances
	// do not share them). SessionTTL is how long a login lasts (default
	// 8h).
	SessionKeyEnv string        `yaml:"session_key_env"`
	SessionTTL    time.Duration `yaml:"session_ttl"`
}

// oidcAuth checks an issuer's tokens.
type oidcAuth struct {
	cfg      OIDC
	keys     *keySet
	bearer   *oidc.IDTokenVerifier // aud: Audience
	idToken  *oidc.IDTokenVerifier // aud: ClientID, for the login
	endpoint oauth2.Endpoint
	endSess  string // end_session_endpoint, if the issuer has one
	secret   string
	now      func() time.Time
	verified verifiedCache
}

// verifiedCache remembers bearer tokens already verified, by their
// SHA-256, until they expire, for at most verifiedFor: a client sends the
// same token with every request until it renews it, and an RSA
// verification costs ~100 µs of CPU where a lookup costs well under one.
// A key the issuer withdraws stops a token it signed within verifiedFor.
type verifiedCache struct {
	mu      sync.Mutex
	entries map[[32]byte]verifiedToken
}

type verifiedToken struct {
	id      *Identity
	expires time.Time // the token's exp, plus the leeway
	until   time.Time // when the entry goes
}

const (
	verifiedFor = 5 * time.Minute
	maxVerified = 10000 // entries; at the limit the cache starts again
)

func (c *verifiedCache) get(sum [32]byte, now time.Time) *Identity {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[sum]
	if !ok {
		return nil
	}
	if now.After(e.until) || now.After(e.expires) {
		delete(c.entries, sum)
		return nil
	}
	return e.id
}

func (c *verifiedCache) put(sum [32]byte, e verifiedToken) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= maxVerified {
		c.entries = make(map[[32]byte]verifiedToken)
	}
	c.entries[sum] = e
}

// bearerIdentity checks a bearer token (or finds it checked already).
func (o *oidcAuth) bearerIdentity(ctx context.Context, raw string) (*Identity, error) {
	sum := sha256.Sum256([]byte(raw))
	now := o.now()
	if id := o.verified.get(sum, now); id != nil {
		return id, nil
	}
	id, tok, err := o.verify(ctx, o.bearer, raw)
	if err != nil {
		return nil, err
	}
	o.verified.put(sum, verifiedToken{id: id, expires: tok.Expiry.Add(o.cfg.Leeway), until: now.Add(verifiedFor)})
	return id, nil
}

// newOIDC reads the issuer's discovery document and keys.
func newOIDC(ctx context.Context, cfg OIDC, now func() time.Time) (*oidcAuth, error) {
	if cfg.Issuer == "" {
		return nil, errors.New("oidc needs issuer")
	}
	if cfg.Audience == "" {
		cfg.Audience = cfg.ClientID
	}
	if cfg.Audience == "" {
		return nil, errors.New("oidc needs audience (the aud its bearer tokens carry) or client_id")
	}
	cfg.GroupsClaim = cmpOr(cfg.GroupsClaim, "groups")
	cfg.SubjectClaim = cmpOr(cfg.SubjectClaim, "sub")
	cfg.EmailClaim = cmpOr(cfg.EmailClaim, "email")
	if cfg.Leeway == 0 {
		cfg.Leeway = 30 * time.Second
	}
	if cfg.RefetchInterval == 0 {
		cfg.RefetchInterval = 10 * time.Second
	}
	if cfg.SessionTTL == 0 {
		cfg.SessionTTL = 8 * time.Hour
	}
	if len(cfg.Scopes) == 0 {
		cfg.Scopes = []string{oidc.ScopeOpenID, "profile", "email"}
	}
	o := &oidcAuth{cfg: cfg, now: now}
	if cfg.ClientSecretEnv != "" {
		o.secret = os.Getenv(cfg.ClientSecretEnv)
		if o.secret == "" {
			return nil, fmt.Errorf("oidc.client_secret_env: %s is not set", cfg.ClientSecretEnv)
		}
	}
	client := &http.Client{Timeout: 15 * time.Second}
	ctx, cancel := context.WithTimeout(oidc.ClientContext(ctx, client), 20*time.Second)
	defer cancel()
	provider, err := oidc.NewProvider(ctx, cfg.Issuer)
	if err != nil {
		return nil, fmt.Errorf("oidc: the issuer's discovery document: %w", err)
	}
	var meta struct {
		JWKS       string `json:"jwks_uri"`
		EndSession string `json:"end_session_endpoint"`
	}
	if err := provider.Claims(&meta); err != nil || meta.JWKS == "" {
		return nil, fmt.Errorf("oidc: the issuer's discovery document names no jwks_uri")
	}
	o.endpoint, o.endSess = provider.Endpoint(), meta.EndSession
	o.keys = &keySet{url: meta.JWKS, client: client, refetchEvery: cfg.RefetchInterval, maxAge: time.Hour, now: now}
	if _, err := o.keys.refetch(ctx, true); err != nil {
		return nil, fmt.Errorf("oidc: %w", err)
	}
	algs := make([]string, len(signingAlgs))
	for i, a := range signingAlgs {
		algs[i] = string(a)
	}
	// go-oidc checks exp against Now; shifting it back by the leeway
	// allows the leeway on exp. nbf and iat are checked in claims.
	skewed := func() time.Time { return now().Add(-cfg.Leeway) }
	o.bearer = oidc.NewVerifier(cfg.Issuer, o.keys, &oidc.Config{ClientID: cfg.Audience, SupportedSigningAlgs: algs, Now: skewed})
	if cfg.ClientID != "" {
		o.idToken = oidc.NewVerifier(cfg.Issuer, o.keys, &oidc.Config{ClientID: cfg.ClientID, SupportedSigningAlgs: algs, Now: skewed})
	}
	return o, nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// verify checks a bearer token and makes its identity.
func (o *oidcAuth) verify(ctx context.Context, v *oidc.IDTokenVerifier, raw string) (*Identity, *oidc.IDToken, error) {
	tok, err := v.Verify(ctx, raw)
	if err != nil {
		return nil, nil, err
	}
	var claims map[string]any
	if err := tok.Claims(&claims); err != nil {
		return nil, nil, err
	}
	if v == o.bearer {
		if why := idTokenSign(claims); why != "" {
			return nil, nil, fmt.Errorf("an ID token is not an access token (it %s): send the issuer's access token", why)
		}
	}
	now := o.now()
	for _, name := range []string{"nbf", "iat"} {
		if at, ok := claims[name].(float64); ok && time.Unix(int64(at), 0).After(now.Add(o.cfg.Leeway)) {
			return nil, nil, fmt.Errorf("the token is not valid yet (%s %s)", name, time.Unix(int64(at), 0).UTC().Format(time.RFC3339))
		}
	}
	id, err := o.identity(claims)
	return id, tok, err
}

// idTokenSign says why claims are an ID token's, which the login hands
// the page and names at logout, and which must never pass for an access
// token where the audience is the page's client_id (its default). A typ
// claim decides where there is one (Keycloak types ID tokens "ID" and
// access tokens "Bearer"); otherwise a nonce (the login always asks for
// one) or an at_hash marks an ID token. "" for an access token.
func idTokenSign(claims map[string]any) string {
	typ, _ := claims["typ"].(string)
	switch strings.ToLower(typ) {
	case "id", "id_token":
		return "is typed " + typ
	case "bearer", "at+jwt", "access_token":
		return ""
	}
	switch {
	case claims["nonce"] != nil:
		return "carries a nonce"
	case claims["at_hash"] != nil:
		return "carries an at_hash"
	}
	return ""
}

// emailVerified says whether the issuer vouches that the token's email
// belongs to its subject (OpenID Connect Core 5.1: email_verified true).
// Without it the email is whatever the user typed at sign-up, and an
// issuer with self-registration or several tenants would let anyone
// claim anyone's address.
func emailVerified(claims map[string]any) bool {
	switch v := claims["email_verified"].(type) {
	case bool:
		return v
	case string:
		return strings.EqualFold(v, "true")
	}
	return false
}

// identity reads an identity from a verified token's claims: its email
// only when the issuer verified it.
func (o *oidcAuth) identity(claims map[string]any) (*Identity, error) {
	sub, _ := claim(claims, o.cfg.SubjectClaim).(string)
	if sub == "" {
		return nil, fmt.Errorf("the token has no %s claim", o.cfg.SubjectClaim)
	}
	if err := checkSubject("the token's "+o.cfg.SubjectClaim, sub); err != nil {
		return nil, err
	}
	id := &Identity{Attributes: Attributes{Subject: sub, Claims: map[string]string{}}, Method: "oidc", Issuer: o.cfg.Issuer}
	if emailVerified(claims) {
		id.Email, _ = claim(claims, o.cfg.EmailClaim).(string)
	}
	switch g := claim(claims, o.cfg.GroupsClaim).(type) {
	case string:
		id.Groups = []string{g}
	case []any:
		for _, x := range g {
			if s, ok := x.(string); ok {
				id.Groups = append(id.Groups, s)
			}
		}
	}
	for name, v := range claims {
		if text, ok := scalarText(v); ok {
			id.Claims[name] = text
		}
	}
	if id.Email == "" {
		// Nor may a parameter bound to claim:email read it.
		delete(id.Claims, "email")
		delete(id.Claims, o.cfg.EmailClaim)
	}
	return id, nil
}

// claim is the claim at path: a name, or names joined by dots reaching
// into objects (a top-level claim whose own name has dots wins).
func claim(claims map[string]any, path string) any {
	if v, ok := claims[path]; ok {
		return v
	}
	var cur any = claims
	for _, name := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[name]
	}
	return cur
}

// scalarText is a claim's value as parameters take it: strings, numbers
// and booleans; lists and objects are not single values.
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(x), true
	case json.Number:
		return x.String(), true
	}
	return "", false
}
