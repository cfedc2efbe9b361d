package server

// Limits per identity: downloads (and previews) per minute, jobs per hour.

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimit bounds what one identity may start.
type RateLimit struct {
	DownloadsPerMinute int `yaml:"downloads_per_minute"` // downloads and previews
	JobsPerHour        int `yaml:"jobs_per_hour"`
}

// limiters holds a token bucket per subject and kind; buckets not used
// for an hour are dropped.
type limiters struct {
	mu   sync.Mutex
	byID map[string]*limiter
}

type limiter struct {
	l    *rate.Limiter
	used time.Time
}

// allow takes one of key's tokens from a bucket of burst n refilled at n
// per period, or says how long until one is there.
func (ls *limiters) allow(key string, n int, period time.Duration) (bool, time.Duration) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	now := time.Now()
	if ls.byID == nil {
		ls.byID = map[string]*limiter{}
	}
	if len(ls.byID) > 10000 {
		for k, l := range ls.byID {
			if now.Sub(l.used) > time.Hour {
				delete(ls.byID, k)
			}
		}
	}
	l := ls.byID[key]
	if l == nil {
		l = &limiter{l: rate.NewLimiter(rate.Every(period/time.Duration(n)), n)}
		ls.byID[key] = l
	}
	l.used = now
	r := l.l.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// limited answers 429 with Retry-After when r's identity has used its
// allowance of kind ("download" or "job"); false lets it through.
func (s *Server) limited(w http.ResponseWriter, r *http.Request, kind string) bool {
	rl := s.cfg.RateLimit
	n, period := rl.DownloadsPerMinute, time.Minute
	if kind == "job" {
		n, period = rl.JobsPerHour, time.Hour
	}
	id := identity(r)
	if n <= 0 || id.All {
		// 0 or less: no bound (a negative jobs_per_hour turns the
		// default off).
		return false
	}
	ok, wait := s.limits.allow(kind+"\x00"+id.Key(), n, period)
	if ok {
		return false
	}
	s.metrics.refused("rate")
	s.audit(w, r, auditRecord{Event: "refused", Outcome: "429 " + kind + " rate limit"})
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
	jsonError(w, http.StatusTooManyRequests, "you have started too many "+kind+"s for now; try again after Retry-After seconds")
	return true
}
