package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/sheetstream/sheetstream/internal/keycloak"
)

func issuerAuth(t testing.TB, kc *keycloak.Server, now func() time.Time) *Authenticator {
	t.Helper()
	a, err := newAt(Config{OIDC: &OIDC{Issuer: kc.Issuer, Audience: "sheetstream"}}, "", now)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func bearer(token string) *http.Request {
	return request("1.2.3.4:5", "Authorization", "Bearer "+token)
}

// TestOIDCTokens: tokens of the password and client-credentials flows of
// a real issuer (Keycloak) make identities with the subject, email,
// groups and the region attribute its mappers put in them.
func TestOIDCTokens(t *testing.T) {
	kc := keycloak.Get(t)
	a := issuerAuth(t, kc, time.Now)
	id, err := a.Authenticate(bearer(kc.Password(t, "alice").Access))
	if err != nil {
		t.Fatal(err)
	}
	if id.Method != "oidc" || id.Email != "alice@example.com" || fmt.Sprint(id.Groups) != "[sales]" || id.Claims["region"] != "north" ||
		len(id.Subject) != 36 || id.Claims["preferred_username"] != "alice" {
		t.Errorf("alice: %+v", id)
	}
	id, err = a.Authenticate(bearer(kc.ClientCredentials(t, "sheetstream-ci", "ci-client-secret")))
	if err != nil || fmt.Sprint(id.Groups) != "[ci]" || id.Claims["region"] != "" {
		t.Errorf("the CI client: %+v %v", id, err)
	}
	// Another claim for groups: a dotted name reaches into objects.
	b, err := newAt(Config{OIDC: &OIDC{Issuer: kc.Issuer, Audience: "sheetstream", GroupsClaim: "realm_access.roles", EmailClaim: "preferred_username"}}, "", time.Now)
	if err != nil {
		t.Fatal(err)
	}
	id, err = b.Authenticate(bearer(kc.Password(t, "bob").Access))
	if err != nil || !id.InGroup("exporter") || id.Email != "bob" {
		t.Errorf("bob by realm_access.roles: %+v %v", id, err)
	}
	if got := a.oidc.keys.fetches.Load(); got != 1 {
		t.Errorf("%d fetches of the issuer's keys for tokens of one key, want 1", got)
	}
}

// TestOIDCRefusals: every way a token can be wrong is refused, and none
// makes the service fetch the issuer's keys more than once per interval.
func TestOIDCRefusals(t *testing.T) {
	kc := keycloak.Get(t)
	a := issuerAuth(t, kc, time.Now)
	good := kc.Password(t, "alice").Access
	header, payload, _ := splitJWT(t, good)
	var hdr struct{ Kid string }
	json.Unmarshal(decodeSegment(t, header), &hdr)

	mine, _ := rsa.GenerateKey(rand.Reader, 2048)
	pubPEM := publicKeyPEM(t, kc)
	tampered := strings.Replace(string(decodeSegment(t, payload)), `"region":"north"`, `"region":"south"`, 1)

	later := issuerAuth(t, kc, func() time.Time { return time.Now().Add(time.Hour) })
	earlier := issuerAuth(t, kc, func() time.Time { return time.Now().Add(-time.Hour) })
	for _, c := range []struct {
		name  string
		a     *Authenticator
		token string
		want  string
	}{
		{"expired", later, good, "expired"},
		{"not yet valid", earlier, good, "not valid yet"},
		{"wrong audience", a, kc.ClientCredentials(t, "other-app", "other-client-secret"), "audience"},
		{"wrong issuer", a, kc.AdminToken(t), "has not published"},
		{"alg none", a, segment(`{"alg":"none","kid":"`+hdr.Kid+`"}`) + "." + payload + ".", "malformed"},
		{"alg none, no signature part", a, segment(`{"alg":"none"}`) + "." + payload, "unknown token"},
		{"HS256 keyed with the public key", a, hmacToken(`{"alg":"HS256","typ":"JWT","kid":"`+hdr.Kid+`"}`, payload, pubPEM), "malformed"},
		{"a key the issuer never published", a, signed(t, mine, "made-up-kid", payload), "has not published"},
		{"my key under the issuer's kid", a, signed(t, mine, hdr.Kid, payload), "verif"},
		{"no kid, my key", a, signed(t, mine, "", payload), "verify"},
		{"truncated", a, good[:len(good)-12], "verif"},
		{"payload changed", a, header + "." + segment(tampered) + "." + strings.SplitN(good, ".", 3)[2], "verif"},
		{"three dots of garbage", a, "a.b.c", "malformed"},
	} {
		id, err := c.a.Authenticate(bearer(c.token))
		if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %+v, %v (want an ErrInvalid saying %q)", c.name, id, err, c.want)
		}
	}
	// A static token one character off, beside the issuer.
	token, sum := NewToken()
	b, err := New(Config{Tokens: []*Token{{Name: "ci", SHA256: sum}}, OIDC: &OIDC{Issuer: kc.Issuer, Audience: "sheetstream"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	flip := "0"
	if token[len(token)-1] == '0' {
		flip = "1"
	}
	off := token[:len(token)-1] + flip
	if id, err := b.Authenticate(bearer(off)); !errors.Is(err, ErrInvalid) {
		t.Errorf("a static token one character off: %+v %v", id, err)
	}
	if id, err := b.Authenticate(bearer(token)); err != nil || id.Subject != "token:ci" {
		t.Errorf("the static token beside the issuer: %+v %v", id, err)
	}
	// Fifty tokens naming made-up keys, at once: one refetch at most in
	// the interval (the first fetch was at start).
	var wg sync.WaitGroup
	for i := range 50 {
		garbage := signed(t, mine, fmt.Sprintf("garbage-%d", i), payload)
		wg.Go(func() { a.Authenticate(bearer(garbage)) })
	}
	wg.Wait()
	if got := a.oidc.keys.fetches.Load(); got > 2 {
		t.Errorf("%d fetches of the issuer's keys for 50 unknown kids within 10s, want at most 2", got)
	}
	if _, err := a.Authenticate(bearer(good)); err != nil {
		t.Errorf("the good token after the garbage: %v", err)
	}
}

// TestOIDCKeyRotation: a signing key added at the issuer is taken up
// without a restart: its first token makes one refetch.
func TestOIDCKeyRotation(t *testing.T) {
	kc := keycloak.Get(t)
	realm := fmt.Sprintf("rotation%d", time.Now().UnixNano())
	issuer := kc.Realm(t, realm)
	a, err := New(Config{OIDC: &OIDC{Issuer: issuer, Audience: "sheetstream", RefetchInterval: 200 * time.Millisecond}}, "")
	if err != nil {
		t.Fatal(err)
	}
	before := kc.RealmClientCredentials(t, realm)
	if _, err := a.Authenticate(bearer(before)); err != nil {
		t.Fatalf("before the rotation: %v", err)
	}
	time.Sleep(300 * time.Millisecond)
	kc.RotateKey(t, realm, 1000)
	after := kc.RealmClientCredentials(t, realm)
	if kidOf(t, after) == kidOf(t, before) {
		t.Fatalf("the rotated realm still signs with %s", kidOf(t, before))
	}
	if id, err := a.Authenticate(bearer(after)); err != nil || id.Subject == "" {
		t.Errorf("a token of the rotated-in key: %+v %v", id, err)
	}
	if _, err := a.Authenticate(bearer(before)); err != nil {
		t.Errorf("a token of the old key, still published: %v", err)
	}
	if got := a.oidc.keys.fetches.Load(); got != 2 {
		t.Errorf("%d fetches of the keys, want 2 (start, and the new kid)", got)
	}
}

func splitJWT(t testing.TB, tok string) (string, string, string) {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %.40s", tok)
	}
	return parts[0], parts[1], parts[2]
}

func decodeSegment(t testing.TB, s string) []byte {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func segment(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

func kidOf(t testing.TB, tok string) string {
	h, _, _ := splitJWT(t, tok)
	var hdr struct{ Kid string }
	json.Unmarshal(decodeSegment(t, h), &hdr)
	return hdr.Kid
}

func hmacToken(header, payload string, key []byte) string {
	m := hmac.New(sha256.New, key)
	signingInput := segment(header) + "." + payload
	m.Write([]byte(signingInput))
	return signingInput + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// signed signs payload (a segment) with key under kid.
func signed(t testing.TB, key *rsa.PrivateKey, kid, payload string) string {
	opts := (&jose.SignerOptions{}).WithType("JWT")
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: kid}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	jws, err := signer.Sign(decodeSegment(t, payload))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := jws.CompactSerialize()
	return s
}

// publicKeyPEM is the issuer's RSA signing key as PEM, the secret an
// HS256 confusion attack signs with.
func publicKeyPEM(t testing.TB, kc *keycloak.Server) []byte {
	resp, err := http.Get(kc.Issuer + "/protocol/openid-connect/certs")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var set jose.JSONWebKeySet
	if err := json.Unmarshal(body, &set); err != nil {
		t.Fatal(err)
	}
	for _, k := range set.Keys {
		if pub, ok := k.Key.(*rsa.PublicKey); ok && k.Use == "sig" {
			der, _ := x509.MarshalPKIXPublicKey(pub)
			return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
		}
	}
	t.Fatal("no RSA signing key published")
	return nil
}

// TestIDTokenRefusedAsBearer: with audience left to its default (the
// page's client_id), the issuer's ID token is refused as a bearer token,
// while an access token of the same login is taken.
func TestIDTokenRefusedAsBearer(t *testing.T) {
	kc := keycloak.Get(t)
	t.Setenv("SHEETSTREAM_TEST_PAGE_SECRET", "page-client-secret")
	a, err := newAt(Config{OIDC: &OIDC{Issuer: kc.Issuer, ClientID: "sheetstream-page", ClientSecretEnv: "SHEETSTREAM_TEST_PAGE_SECRET"}}, "", time.Now)
	if err != nil {
		t.Fatal(err)
	}
	tok := kc.Password(t, "alice")
	if tok.ID == "" {
		t.Fatal("Keycloak returned no ID token")
	}
	if id, err := a.Authenticate(bearer(tok.ID)); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "ID token") {
		t.Errorf("the ID token as a bearer token: %+v %v", id, err)
	}
}
