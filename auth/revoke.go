package auth

// Sessions logged out before they expire. A session cookie is signed,
// not stored, so any copy of it would work until its expiry: logout puts
// its id on a revocation list that every request of a session is checked
// against. The service shares the list through its jobs database when it
// has one (every instance then refuses the session), and keeps it in
// memory otherwise.

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// Revocations keeps the ids of sessions that were logged out, each until
// the session would have expired anyway.
type Revocations interface {
	// Revoke records that session sid ends now; the record may go after
	// until.
	Revoke(ctx context.Context, sid string, until time.Time) error
	// Revoked says whether session sid was revoked.
	Revoked(ctx context.Context, sid string) (bool, error)
}

// MemoryRevocations is a revocation list of one process.
type MemoryRevocations struct {
	mu    sync.Mutex
	until map[string]time.Time
}

// Revoke implements Revocations.
func (m *MemoryRevocations) Revoke(_ context.Context, sid string, until time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	if m.until == nil {
		m.until = map[string]time.Time{}
	}
	for k, t := range m.until {
		if now.After(t) {
			delete(m.until, k)
		}
	}
	m.until[sid] = until
	return nil
}

// Revoked implements Revocations.
func (m *MemoryRevocations) Revoked(_ context.Context, sid string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.until[sid]
	return ok, nil
}

// SetRevocations makes a share the revocation list of logged-out
// sessions (by default a's own, in memory): give every instance of a
// fleet the same one.
func (a *Authenticator) SetRevocations(r Revocations) { a.revoked = r }

// revokeSession revokes the session of r's cookie, if it has one that
// checks out.
func (a *Authenticator) revokeSession(r *http.Request) error {
	c, err := r.Cookie(SessionCookie)
	if err != nil || a.oidc == nil {
		return nil
	}
	var s session
	if err := a.sealer.open("session", c.Value, &s); err != nil || s.ID == "" {
		return nil
	}
	if err := a.revoked.Revoke(r.Context(), s.ID, time.Unix(s.Expires, 0).Add(time.Minute)); err != nil {
		return fmt.Errorf("revoking the session: %w", err)
	}
	return nil
}
