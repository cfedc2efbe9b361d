package server

// The page's login through the OIDC issuer: the handlers are auth's; the
// service puts them on its routes, sends a page without a session to the
// login, and audits logins and logouts.

import (
	"encoding/json"
	"net/http"
	"net/url"
)

// page serves the page, or, when the page logs in through the issuer and
// the browser has no session, sends it to the login first.
func (s *Server) page(files http.Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.authn.LoginEnabled() {
			if _, err := s.identify(r); err != nil {
				w.Header().Set("Cache-Control", "no-store")
				http.Redirect(w, r, "/auth/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusFound)
				return
			}
		}
		files.ServeHTTP(w, r)
	}
}

// sessionInfo is GET /api/session's answer: who the page is, and what it
// needs to log out and to send requests that change something.
type sessionInfo struct {
	Subject string   `json:"subject"`
	Email   string   `json:"email,omitempty"`
	Groups  []string `json:"groups,omitempty"`
	Method  string   `json:"auth"`
	// CSRFToken goes in the X-CSRF-Token header of the page's POST and
	// DELETE requests (a session's only).
	CSRFToken string `json:"csrf_token,omitempty"`
	// Logout: the page may log out (POST /auth/logout).
	Logout bool `json:"logout"`
	Admin  bool `json:"admin"`
}

// session answers GET /api/session.
func (s *Server) session(w http.ResponseWriter, r *http.Request) {
	id := identity(r)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(sessionInfo{Subject: id.Subject, Email: id.Email, Groups: id.Groups, Method: id.Method,
		CSRFToken: id.CSRFToken(), Logout: id.Method == "session", Admin: s.admin(r)})
}

// loginCallback finishes a login and audits it.
func (s *Server) loginCallback(w http.ResponseWriter, r *http.Request) {
	id, err := s.authn.Callback(w, r)
	if err != nil {
		s.log.Warn("login failed", "remote", r.RemoteAddr, "err", err)
		s.audit(w, r, auditRecord{Event: "login", Subject: "-", Outcome: "failed: " + err.Error()})
		return
	}
	s.audit(w, r, auditRecord{Event: "login", Subject: id.Subject, Method: id.Method, Outcome: "ok"})
}

// logout ends the page's session (auth checked its CSRF token) and
// audits it.
func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if err := s.authn.Logout(w, r); err != nil {
		s.log.Error("logout", "err", err)
		s.audit(w, r, auditRecord{Event: "logout", Outcome: "failed: the session could not be revoked"})
		return
	}
	s.audit(w, r, auditRecord{Event: "logout", Outcome: "ok"})
}
