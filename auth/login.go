package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// The page's login is OpenID Connect's authorization-code flow with PKCE:
// Login sends the browser to the issuer, Callback takes the code it comes
// back with, checks the ID token and sets the session cookie; Logout ends
// the session here and names the issuer's logout to end it there.

// loginState is what the login cookie holds between Login and Callback.
type loginState struct {
	State    string `json:"state"`
	Nonce    string `json:"nonce"`
	Verifier string `json:"verifier"`
	Next     string `json:"next"`
	Expires  int64  `json:"exp"`
}

// LoginEnabled says whether the page logs in through the issuer
// (auth.oidc.client_id is set).
func (a *Authenticator) LoginEnabled() bool { return a.oidc != nil && a.oidc.idToken != nil }

func (a *Authenticator) oauth2Config(r *http.Request) *oauth2.Config {
	redirect := a.oidc.cfg.RedirectURL
	if redirect == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		redirect = scheme + "://" + r.Host + "/auth/callback"
	}
	return &oauth2.Config{ClientID: a.oidc.cfg.ClientID, ClientSecret: a.oidc.secret, Endpoint: a.oidc.endpoint,
		RedirectURL: redirect, Scopes: a.oidc.cfg.Scopes}
}

// Login (GET /auth/login?next=PATH) starts a login: it sends the browser
// to the issuer's authorization endpoint, and remembers in a short-lived
// cookie the state, nonce and PKCE verifier Callback checks. next, a path
// on this service, is where Callback sends the browser afterwards.
func (a *Authenticator) Login(w http.ResponseWriter, r *http.Request) {
	if !a.LoginEnabled() {
		http.NotFound(w, r)
		return
	}
	st := loginState{State: randomText(), Nonce: randomText(), Verifier: oauth2.GenerateVerifier(),
		Next: localPath(r.URL.Query().Get("next")), Expires: a.now().Add(10 * time.Minute).Unix()}
	value, err := a.sealer.seal("login", st)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	setCookie(w, r, loginCookie, value, "/auth/", time.Unix(st.Expires, 0))
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, a.oauth2Config(r).AuthCodeURL(st.State, oidc.Nonce(st.Nonce), oauth2.S256ChallengeOption(st.Verifier)), http.StatusFound)
}

// localPath is next if it is a path on this service, else "/": a login
// link must not send the browser to another site afterwards.
func localPath(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\r\n") {
		return "/"
	}
	if u, err := url.Parse(next); err != nil || u.Host != "" || u.Scheme != "" {
		return "/"
	}
	return next
}

func randomText() string {
	b := make([]byte, 18)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Callback (GET /auth/callback) finishes a login: it checks the state
// against the login cookie, exchanges the code (with the PKCE verifier)
// for tokens, verifies the ID token (issuer, audience client_id, expiry,
// nonce), sets the session cookie and sends the browser on. It answers
// errors itself (400 or 401, with a link to try again) and returns them,
// and the identity logged in, for the service's audit.
func (a *Authenticator) Callback(w http.ResponseWriter, r *http.Request) (*Identity, error) {
	if !a.LoginEnabled() {
		http.NotFound(w, r)
		return nil, errors.New("no login configured")
	}
	fail := func(code int, err error) (*Identity, error) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(code)
		fmt.Fprintf(w, "<!doctype html><title>Login failed</title><p>Login failed: %s.</p><p><a href=\"/auth/login\">Log in again</a></p>\n",
			html.EscapeString(err.Error()))
		return nil, err
	}
	var st loginState
	c, err := r.Cookie(loginCookie)
	if err != nil {
		return fail(http.StatusBadRequest, errors.New("no login under way in this browser (cookies off, or it took over ten minutes)"))
	}
	setCookie(w, r, loginCookie, "", "/auth/", time.Time{})
	if err := a.sealer.open("login", c.Value, &st); err != nil || a.now().Unix() >= st.Expires {
		return fail(http.StatusBadRequest, errors.New("the login took too long or its cookie does not check out"))
	}
	q := r.URL.Query()
	if subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(st.State)) != 1 {
		return fail(http.StatusBadRequest, errors.New("the state the issuer sent back is not this login's"))
	}
	if e := q.Get("error"); e != "" {
		return fail(http.StatusUnauthorized, fmt.Errorf("the issuer said %s: %s", e, q.Get("error_description")))
	}
	ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
	defer cancel()
	tok, err := a.oauth2Config(r).Exchange(ctx, q.Get("code"), oauth2.VerifierOption(st.Verifier))
	if err != nil {
		return fail(http.StatusUnauthorized, fmt.Errorf("the issuer did not exchange the code: %w", err))
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return fail(http.StatusUnauthorized, errors.New("the issuer sent no ID token"))
	}
	id, idt, err := a.oidc.verify(ctx, a.oidc.idToken, raw)
	if err != nil {
		return fail(http.StatusUnauthorized, fmt.Errorf("the ID token: %w", err))
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(st.Nonce)) != 1 {
		return fail(http.StatusUnauthorized, errors.New("the ID token's nonce is not this login's"))
	}
	if err := a.setSession(w, r, id); err != nil {
		return fail(http.StatusUnauthorized, err)
	}
	if len(raw) <= maxCookie {
		setCookie(w, r, hintCookie, raw, "/auth/", a.now().Add(a.oidc.cfg.SessionTTL))
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, st.Next, http.StatusFound)
	return id, nil
}

// Logout (POST /auth/logout, with the session's CSRF token) ends the
// session: it revokes it (every copy of its cookie is refused from then
// on, on every instance sharing the revocation list), deletes the
// cookies and answers {"logout_url": URL}, the issuer's end-session
// endpoint (which ends the login there too and sends the browser back to
// the page), or "/" if the issuer has none. It returns an error, and
// answers 500, when the revocation cannot be recorded.
func (a *Authenticator) Logout(w http.ResponseWriter, r *http.Request) error {
	if err := a.revokeSession(r); err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		json.NewEncoder(w).Encode(map[string]string{"error": "the session could not be ended; try again"})
		return err
	}
	next := "/"
	if a.LoginEnabled() && a.oidc.endSess != "" {
		v := url.Values{"client_id": {a.oidc.cfg.ClientID}}
		if c, err := r.Cookie(hintCookie); err == nil {
			v.Set("id_token_hint", c.Value)
		}
		redirect, _ := url.Parse(a.oauth2Config(r).RedirectURL)
		redirect.Path, redirect.RawQuery = "/", ""
		v.Set("post_logout_redirect_uri", redirect.String())
		next = a.oidc.endSess + "?" + v.Encode()
	}
	setCookie(w, r, SessionCookie, "", "/", time.Time{})
	setCookie(w, r, hintCookie, "", "/auth/", time.Time{})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(map[string]string{"logout_url": next})
	return nil
}
