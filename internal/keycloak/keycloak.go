// Package keycloak is the tests' client of the Keycloak server the test
// command starts (scripts/keycloak.sh) with the realm of
// auth/testdata/keycloak-realm.json: tokens by the password,
// client-credentials and authorization-code flows, and the admin API.
//
// The realm's users are alice and bob (group sales, region north and
// south), carol (sales, no region), fin (finance) and ops (ops), each with
// the password NAME-password and the email NAME@example.com. Its clients:
// sheetstream-page (secret page-client-secret; the page's login and the
// password flow), sheetstream-ci (ci-client-secret; client credentials,
// group ci) and other-app (other-client-secret; tokens without the
// sheetstream audience).
package keycloak

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/sheetstream/sheetstream/internal/testenv"
)

// Server is the test Keycloak.
type Server struct {
	Issuer string // the sheetstream realm
	Base   string // http://127.0.0.1:PORT
	admin  [2]string
}

// Get returns the test Keycloak, or skips (fails under CI) when the test
// command did not start one.
func Get(t testing.TB) *Server {
	t.Helper()
	issuer := testenv.Get(t, "SHEETSTREAM_OIDC_ISSUER", "starts Keycloak (scripts/keycloak.sh)")
	base := testenv.Get(t, "SHEETSTREAM_KEYCLOAK_URL", "starts Keycloak (scripts/keycloak.sh)")
	user, pass, _ := strings.Cut(testenv.Get(t, "SHEETSTREAM_KEYCLOAK_ADMIN", "starts Keycloak (scripts/keycloak.sh)"), ":")
	return &Server{Issuer: issuer, Base: base, admin: [2]string{user, pass}}
}

// Tokens are a token endpoint's answer.
type Tokens struct {
	Access string `json:"access_token"`
	ID     string `json:"id_token"`
}

// RealmIssuer is the issuer URL of another realm of the server.
func (s *Server) RealmIssuer(realm string) string { return s.Base + "/realms/" + realm }

func (s *Server) token(t testing.TB, issuer string, form url.Values) Tokens {
	t.Helper()
	resp, err := http.PostForm(issuer+"/protocol/openid-connect/token", form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("Keycloak's token endpoint (%s): %s %s", form.Get("grant_type"), resp.Status, body)
	}
	var tok Tokens
	if err := json.Unmarshal(body, &tok); err != nil {
		t.Fatal(err)
	}
	return tok
}

// Password is the password flow's tokens for a user of the realm through
// client sheetstream-page.
func (s *Server) Password(t testing.TB, user string) Tokens {
	return s.token(t, s.Issuer, url.Values{"grant_type": {"password"}, "client_id": {"sheetstream-page"},
		"client_secret": {"page-client-secret"}, "username": {user}, "password": {user + "-password"}, "scope": {"openid"}})
}

// ClientCredentials is an access token of a client of the realm.
func (s *Server) ClientCredentials(t testing.TB, client, secret string) string {
	return s.token(t, s.Issuer, url.Values{"grant_type": {"client_credentials"}, "client_id": {client}, "client_secret": {secret}}).Access
}

// AdminToken is an access token of the master realm's admin: a token of
// another issuer.
func (s *Server) AdminToken(t testing.TB) string {
	return s.token(t, s.RealmIssuer("master"), url.Values{"grant_type": {"password"}, "client_id": {"admin-cli"},
		"username": {s.admin[0]}, "password": {s.admin[1]}}).Access
}

// Admin calls the admin API (path under /admin/realms) with body as JSON,
// and fails t unless it answers 2xx.
func (s *Server) Admin(t testing.TB, method, path string, body any) []byte {
	t.Helper()
	var in io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		in = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, s.Base+"/admin/realms"+path, in)
	req.Header.Set("Authorization", "Bearer "+s.AdminToken(t))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		t.Fatalf("Keycloak admin %s %s: %s %s", method, path, resp.Status, out)
	}
	return out
}

// formAction finds the login form's target in Keycloak's login page.
var formAction = regexp.MustCompile(`<form[^>]*id="kc-form-login"[^>]*action="([^"]+)"`)

// Browser is an HTTP client with a cookie jar, as a browser is, for the
// authorization-code flow without a browser.
func Browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar}
}

// LogIn follows start (a service's login URL) to Keycloak's login form,
// fills it in as user, and follows the redirects back: the
// authorization-code flow as a browser goes through it. It returns the
// last response, its body read.
func (s *Server) LogIn(t testing.TB, client *http.Client, start, user string) (*http.Response, []byte) {
	t.Helper()
	resp, err := client.Get(start)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := formAction.FindSubmatch(page)
	if m == nil {
		t.Fatalf("no Keycloak login form at the end of %s (%s): %.300s", start, resp.Request.URL, page)
	}
	action := strings.ReplaceAll(string(m[1]), "&amp;", "&")
	resp, err = client.PostForm(action, url.Values{"username": {user}, "password": {user + "-password"}, "credentialId": {""}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

// Realm creates a realm of the server for one test (deleted when it
// ends): a copy, by name, of a few settings, with client sheetstream-ci.
func (s *Server) Realm(t testing.TB, name string) string {
	t.Helper()
	s.Admin(t, "POST", "", map[string]any{"realm": name, "enabled": true, "sslRequired": "none",
		"clients": []map[string]any{{"clientId": "sheetstream-ci", "secret": "ci-client-secret", "publicClient": false,
			"serviceAccountsEnabled": true, "standardFlowEnabled": false,
			"protocolMappers": []map[string]any{{"name": "audience", "protocol": "openid-connect", "protocolMapper": "oidc-audience-mapper",
				"config": map[string]string{"included.custom.audience": "sheetstream", "access.token.claim": "true"}}}}}})
	t.Cleanup(func() { s.Admin(t, "DELETE", "/"+name, nil) })
	return s.RealmIssuer(name)
}

// RealmClientCredentials is an access token of sheetstream-ci in a realm
// Realm made.
func (s *Server) RealmClientCredentials(t testing.TB, realm string) string {
	return s.token(t, s.RealmIssuer(realm), url.Values{"grant_type": {"client_credentials"},
		"client_id": {"sheetstream-ci"}, "client_secret": {"ci-client-secret"}}).Access
}

// RotateKey adds an RSA signing key of higher priority than any before to
// a realm: its tokens are signed with it from then on.
func (s *Server) RotateKey(t testing.TB, realm string, priority int) {
	t.Helper()
	var r struct{ ID string }
	json.Unmarshal(s.Admin(t, "GET", "/"+realm, nil), &r)
	s.Admin(t, "POST", "/"+realm+"/components", map[string]any{"name": fmt.Sprintf("rotated-%d", priority),
		"providerId": "rsa-generated", "providerType": "org.keycloak.keys.KeyProvider", "parentId": r.ID,
		"config": map[string][]string{"priority": {fmt.Sprint(priority)}, "keySize": {"2048"}}})
}
