package server

// The audit trail: one record per download, preview, job and refused
// request, in the log and, with audit_log, in a file of JSON lines.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"
)

// auditRecord is one line of the audit trail. It never holds a token or
// the value of a parameter marked secret.
type auditRecord struct {
	Time      time.Time         `json:"time"`
	RequestID string            `json:"request_id"`
	Event     string            `json:"event"` // download, preview, job, job_file, refused
	Subject   string            `json:"subject"`
	Method    string            `json:"auth,omitempty"`
	Export    string            `json:"export,omitempty"`
	Job       string            `json:"job,omitempty"`
	Params    map[string]string `json:"params,omitempty"`
	Rows      int64             `json:"rows,omitempty"`
	Bytes     int64             `json:"bytes,omitempty"`
	Outcome   string            `json:"outcome"`
	Client    string            `json:"client"`
	// A mail's: its recipient, its schedule, why it failed.
	To       string `json:"to,omitempty"`
	Schedule string `json:"schedule,omitempty"`
	Error    string `json:"error,omitempty"`
}

// auditFile appends records, one JSON line each, synced to disk.
type auditFile struct {
	mu sync.Mutex
	f  *os.File
}

func openAudit(path string) (*auditFile, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit_log: %w", err)
	}
	return &auditFile{f: f}, nil
}

func (a *auditFile) write(rec *auditRecord) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, err := a.f.Write(append(b, '\n')); err != nil {
		return err
	}
	return a.f.Sync()
}

// requestID is the request's id: the client's X-Request-Id when it sent
// a short printable one, else a new one (set on the response too).
func requestID(w http.ResponseWriter, r *http.Request) string {
	if id := r.Header.Get("X-Request-Id"); id != "" && len(id) <= 64 && checkText("X-Request-Id", id) == nil {
		return id
	}
	if id := w.Header().Get("X-Request-Id"); id != "" {
		return id
	}
	id := errorID()
	w.Header().Set("X-Request-Id", id)
	return id
}

// audit records an event of request r.
func (s *Server) audit(w http.ResponseWriter, r *http.Request, rec auditRecord) {
	id := identity(r)
	rec.Time, rec.RequestID, rec.Client = time.Now().UTC(), requestID(w, r), r.RemoteAddr
	if rec.Subject == "" {
		rec.Subject, rec.Method = id.Subject, id.Method
	}
	if e := s.exports[rec.Export]; e != nil && rec.Params != nil {
		redacted := make(map[string]string, len(rec.Params))
		for k, v := range rec.Params {
			redacted[k] = v
			for _, p := range e.Params {
				if p.Name == k && p.Secret {
					redacted[k] = "[redacted]"
				}
			}
		}
		rec.Params = redacted
	}
	s.record(&rec)
}

// record writes an audit record to the log and the audit file.
func (s *Server) record(rec *auditRecord) {
	if rec.Time.IsZero() {
		rec.Time = time.Now().UTC()
	}
	s.log.Info("audit", "event", rec.Event, "subject", rec.Subject, "export", rec.Export, "job", rec.Job,
		"params", rec.Params, "rows", rec.Rows, "bytes", rec.Bytes, "outcome", rec.Outcome,
		"client", rec.Client, "request_id", rec.RequestID, "to", rec.To, "error", rec.Error)
	if s.auditLog != nil {
		if err := s.auditLog.write(rec); err != nil {
			s.log.Error("audit_log", "err", err)
		}
	}
}

// sampledPerSecond is how many records of unauthenticated refusals the
// audit trail takes a second: anyone can send those, and each record is
// synced to disk under the file's lock.
const sampledPerSecond = 10

// sampler lets through sampledPerSecond records a second and counts the
// rest, which the next record let through reports.
type sampler struct {
	mu      sync.Mutex
	second  int64
	n       int
	dropped int64
}

// take says whether a record may be written now, and how many were left
// out before it.
func (s *sampler) take(now time.Time) (bool, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sec := now.Unix(); sec != s.second {
		s.second, s.n = sec, 0
	}
	if s.n >= sampledPerSecond {
		s.dropped++
		return false, 0
	}
	s.n++
	dropped := s.dropped
	s.dropped = 0
	return true, dropped
}

// auditSampled records a refusal of a request without valid credentials,
// at most sampledPerSecond a second; a record after some were left out
// says how many.
func (s *Server) auditSampled(w http.ResponseWriter, r *http.Request, rec auditRecord) {
	ok, dropped := s.unauthSampler.take(time.Now())
	if !ok {
		return
	}
	if dropped > 0 {
		rec.Outcome += fmt.Sprintf(" (and %d such refusals before it not recorded)", dropped)
	}
	s.audit(w, r, rec)
}
