package auth

import (
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	jose "github.com/go-jose/go-jose/v4"
)

func newAuth(t testing.TB) (*Authenticator, string) {
	token, sum := NewToken()
	a, err := New(Config{
		Tokens: []*Token{{Name: "ci", SHA256: sum, Groups: []string{"finance"}, Claims: map[string]string{"region": "north"}}},
		Proxy:  &Proxy{UserHeader: "X-Forwarded-User", EmailHeader: "X-Forwarded-Email", GroupsHeader: "X-Forwarded-Groups", Trusted: []string{"10.0.0.0/8", "::1"}},
	}, "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	return a, token
}

func request(remote string, hdr ...string) *http.Request {
	r, _ := http.NewRequest("GET", "http://x/api/exports", nil)
	r.RemoteAddr = remote
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	return r
}

// TestAuthenticate: static tokens by their hash, the shared token, a
// trusted proxy's headers; refusals for everything else.
func TestAuthenticate(t *testing.T) {
	a, token := newAuth(t)
	for _, c := range []struct {
		r       *http.Request
		subject string
		all     bool
		groups  string
	}{
		{request("1.2.3.4:5", "Authorization", "Bearer "+token), "token:ci", false, "finance"},
		{request("1.2.3.4:5", "Authorization", "bearer "+token), "token:ci", false, "finance"},
		{request("1.2.3.4:5", "Authorization", "Bearer s3cret"), "shared-token", true, ""},
		{request("10.1.2.3:5", "X-Forwarded-User", "alice", "X-Forwarded-Email", "alice@example.com", "X-Forwarded-Groups", "sales, north"), "alice", false, "sales,north"},
		{request("[::1]:5", "X-Forwarded-User", "bob"), "bob", false, ""},
	} {
		id, err := a.Authenticate(c.r)
		if err != nil || id.Subject != c.subject || id.All != c.all || strings.Join(id.Groups, ",") != c.groups {
			t.Errorf("%v: %+v %v", c.r.Header, id, err)
		}
	}
	if id, _ := a.Authenticate(request("1.2.3.4:5", "Authorization", "Bearer "+token)); id.Claims["region"] != "north" {
		t.Errorf("the token's claims: %v", id.Claims)
	}
	for _, c := range []struct {
		r    *http.Request
		want error
	}{
		{request("1.2.3.4:5"), ErrNoCredentials},
		{request("1.2.3.4:5", "Authorization", "Bearer "+token[:len(token)-1]), ErrInvalid},
		{request("1.2.3.4:5", "Authorization", "Bearer "+token+"0"), ErrInvalid},
		{request("1.2.3.4:5", "Authorization", "Bearer s3creT"), ErrInvalid},
		{request("1.2.3.4:5", "Authorization", "Basic czNjcmV0"), ErrInvalid},
		{request("1.2.3.4:5", "Authorization", "Bearer"), ErrInvalid},
		{request("1.2.3.4:5", "X-Forwarded-User", "mallory"), ErrInvalid}, // not from a proxy
		{request("11.0.0.1:5", "X-Forwarded-User", "mallory", "Authorization", "Bearer s3cret"), ErrInvalid},
	} {
		if id, err := a.Authenticate(c.r); !errors.Is(err, c.want) {
			t.Errorf("%v from %s: %+v %v, want %v", c.r.Header, c.r.RemoteAddr, id, err, c.want)
		}
	}
	for _, bad := range []Config{
		{Tokens: []*Token{{Name: "a", SHA256: "abc"}}},
		{Tokens: []*Token{{Name: "a b", SHA256: strings.Repeat("0", 64)}}},
		{Tokens: []*Token{{Name: "a", SHA256: strings.Repeat("0", 64)}, {Name: "a", SHA256: strings.Repeat("1", 64)}}},
		{Proxy: &Proxy{UserHeader: "X-User"}},
		{Proxy: &Proxy{UserHeader: "X-User", Trusted: []string{"nowhere"}}},
	} {
		if _, err := New(bad, ""); err == nil {
			t.Errorf("%+v: accepted", bad)
		}
	}
}

// FuzzAuthHeader: no Authorization header passes but the exact tokens (the
// scheme in any case, spaces after it), and none panics. JWT-shaped
// headers reach an issuer's verification (an issuer whose key the test
// holds: a JWT passes only if it is the one the test signed).
func FuzzAuthHeader(f *testing.F) {
	a, token := newAuth(f)
	jwt := withTestIssuer(f, a, 24*time.Hour)
	h, p, sig := splitJWT(f, jwt)
	for _, s := range []string{"Bearer s3cret", "bearer s3cret", "Bearer  s3cret", "Bearer", "Bearer ", "Basic czNjcmV0", "s3cret",
		"Bearer s3cret\x00", "BEARER s3cre", "Bearer s3cretx", " Bearer s3cret", "Bearer\ts3cret", "Bearer " + token, "Bearer " + token[:20],
		"Bearer " + jwt, "Bearer " + jwt[:len(jwt)-3], "Bearer " + h + "." + p + ".", "Bearer " + h + ".." + sig,
		"Bearer " + segment(`{"alg":"none"}`) + "." + p + ".", "Bearer " + segment(`{"alg":"HS256","kid":"k1"}`) + "." + p + "." + sig,
		"Bearer " + h + "." + p + "." + sig + "." + sig, "Bearer e30.e30.e30"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		r := request("1.2.3.4:5")
		r.Header["Authorization"] = []string{header}
		id, err := a.Authenticate(r)
		scheme, rest, ok := strings.Cut(header, " ")
		rest = strings.TrimLeft(rest, " ")
		should := ok && strings.EqualFold(scheme, "bearer") && (rest == "s3cret" || rest == token || rest == jwt)
		if (err == nil) != should {
			t.Fatalf("Authenticate(%q) = %+v, %v; want accepted %v", header, id, err, should)
		}
	})
}

// withTestIssuer gives a an issuer whose one key, k1, the test holds
// (no discovery: its keys are set here), and returns a token it signed.
func withTestIssuer(t testing.TB, a *Authenticator, life time.Duration) string {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	o := &oidcAuth{cfg: OIDC{SubjectClaim: "sub", EmailClaim: "email", GroupsClaim: "groups", Leeway: 30 * time.Second}, now: a.now}
	o.keys = &keySet{url: "http://127.0.0.1:1/keys", client: http.DefaultClient, refetchEvery: time.Hour, now: a.now,
		keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "k1", Algorithm: "RS256", Use: "sig"}}, fetched: a.now()}
	o.bearer = oidc.NewVerifier("https://issuer.test", o.keys, &oidc.Config{ClientID: "sheetstream", SupportedSigningAlgs: []string{"RS256"},
		Now: func() time.Time { return a.now().Add(-o.cfg.Leeway) }})
	a.oidc = o
	claims := fmt.Sprintf(`{"iss":"https://issuer.test","aud":"sheetstream","sub":"fuzz","exp":%d,"iat":%d}`,
		a.now().Add(life).Unix(), a.now().Unix())
	return signed(t, key, "k1", segment(claims))
}

// BenchmarkAuthenticateOIDC: the authentication step for an issuer's
// RS256 token whose key is held (the common case: keys are fetched once).
func BenchmarkAuthenticateOIDC(b *testing.B) {
	a, _ := newAuth(b)
	r := request("1.2.3.4:5", "Authorization", "Bearer "+withTestIssuer(b, a, time.Hour))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Authenticate(r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAuthenticateToken: the same for a static API token.
func BenchmarkAuthenticateToken(b *testing.B) {
	a, token := newAuth(b)
	r := request("1.2.3.4:5", "Authorization", "Bearer "+token)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Authenticate(r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAuthenticateOIDCFirst: a token's first request, verified in
// full (RS256 with a 2048-bit key).
func BenchmarkAuthenticateOIDCFirst(b *testing.B) {
	a, _ := newAuth(b)
	r := request("1.2.3.4:5", "Authorization", "Bearer "+withTestIssuer(b, a, time.Hour))
	b.ReportAllocs()
	for b.Loop() {
		a.oidc.verified.entries = nil
		if _, err := a.Authenticate(r); err != nil {
			b.Fatal(err)
		}
	}
}

// TestVerifiedTokenExpires: a token verified once (and so cached) is
// refused after its exp (plus the leeway).
func TestVerifiedTokenExpires(t *testing.T) {
	a, _ := newAuth(t)
	clock := time.Now()
	a.now = func() time.Time { return clock }
	jwt := withTestIssuer(t, a, time.Minute)
	for i := range 2 {
		if id, err := a.Authenticate(bearer(jwt)); err != nil || id.Subject != "fuzz" {
			t.Fatalf("request %d: %+v %v", i+1, id, err)
		}
	}
	// Within the cache's five minutes, past the token's minute.
	clock = clock.Add(time.Minute + 31*time.Second)
	if id, err := a.Authenticate(bearer(jwt)); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "expired") {
		t.Errorf("after exp: %+v %v", id, err)
	}
}

// TestSessionRevoked: a session cookie copied before logout is refused
// after it, by this Authenticator and by another sharing its revocation
// list; another session of the same user is not.
func TestSessionRevoked(t *testing.T) {
	a, _ := newAuth(t)
	withTestIssuer(t, a, time.Hour)
	a.oidc.idToken = a.oidc.bearer // the page's login is on
	a.oidc.cfg.SessionTTL = time.Hour
	a.sealer.key = []byte("0123456789abcdef0123456789abcdef")
	login := func() *http.Cookie {
		rec := httptest.NewRecorder()
		if err := a.setSession(rec, request("127.0.0.1:5"), &Identity{Attributes: Attributes{Subject: "alice"}, Method: "oidc"}); err != nil {
			t.Fatal(err)
		}
		return rec.Result().Cookies()[0]
	}
	first, second := login(), login()
	with := func(c *http.Cookie) *http.Request {
		r := request("127.0.0.1:5")
		r.AddCookie(c)
		return r
	}
	id, err := a.Authenticate(with(first))
	if err != nil || id.Subject != "alice" || id.Key() != "oidc:|alice" {
		t.Fatalf("the session: %+v %v", id, err)
	}
	logout := with(first)
	logout.Method = "POST"
	if err := a.Logout(httptest.NewRecorder(), logout); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Authenticate(with(first)); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "logged out") {
		t.Errorf("the copied cookie after logout: %v", err)
	}
	if _, err := a.Authenticate(with(second)); err != nil {
		t.Errorf("another session of the same user: %v", err)
	}
	// Another instance with the same key and list refuses it too.
	b, _ := newAuth(t)
	withTestIssuer(t, b, time.Hour)
	b.oidc.idToken, b.sealer.key, b.revoked = b.oidc.bearer, a.sealer.key, a.revoked
	if _, err := b.Authenticate(with(first)); !errors.Is(err, ErrInvalid) {
		t.Errorf("another instance takes the revoked session: %v", err)
	}
}

// TestEmailOnlyVerified: an OIDC identity has an email only when the
// token says email_verified true; claim:email goes with it.
func TestEmailOnlyVerified(t *testing.T) {
	o := &oidcAuth{cfg: OIDC{Issuer: "https://issuer.test", SubjectClaim: "sub", EmailClaim: "email", GroupsClaim: "groups"}}
	for _, c := range []struct {
		verified any
		want     string
	}{{nil, ""}, {false, ""}, {"no", ""}, {true, "a@example.com"}, {"true", "a@example.com"}} {
		claims := map[string]any{"sub": "s", "email": "a@example.com"}
		if c.verified != nil {
			claims["email_verified"] = c.verified
		}
		id, err := o.identity(claims)
		if err != nil || id.Email != c.want || (id.Claims["email"] != "") != (c.want != "") {
			t.Errorf("email_verified %v: %+v %v", c.verified, id, err)
		}
		if id.Key() != "oidc:https://issuer.test|s" {
			t.Errorf("key %q", id.Key())
		}
	}
}
