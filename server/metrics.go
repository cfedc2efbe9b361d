package server

import (
	"context"
	"fmt"
	"maps"
	"net"
	"net/http"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sheetstream/sheetstream/jobs"
)

// metrics are the service's counters, written in Prometheus' text format.
type metrics struct {
	inFlight atomic.Int64
	queued   atomic.Int64
	rejected atomic.Int64
	conns    atomic.Int64 // open HTTP connections

	mu        sync.Mutex
	downloads map[[2]string]int64 // export, status
	rowsOut   map[string]int64
	bytesOut  map[string]int64
	seconds   map[string]float64
	refusals  map[string]int64 // by reason: body, cross-site, token
	jobs      jobsSource       // nil without jobs

	authTime   histogram    // the authentication step of each request
	keyFetches func() int64 // of the OIDC issuer's keys; nil without oidc:
}

// histogram is a Prometheus histogram of durations.
type histogram struct {
	counts [len(authBuckets) + 1]atomic.Int64
	nanos  atomic.Int64
}

// authBuckets bound the authentication step's durations: a check from
// cache takes microseconds; one that fetches the issuer's keys, tens of
// milliseconds.
var authBuckets = [...]float64{0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.01, 0.1, 1}

func (h *histogram) observe(d time.Duration) {
	i := sort.SearchFloat64s(authBuckets[:], d.Seconds())
	h.counts[i].Add(1)
	h.nanos.Add(int64(d))
}

func (h *histogram) write(b *strings.Builder, name, help string) {
	fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name)
	var n int64
	for i, le := range authBuckets {
		n += h.counts[i].Load()
		fmt.Fprintf(b, "%s_bucket{le=\"%g\"} %d\n", name, le, n)
	}
	n += h.counts[len(authBuckets)].Load()
	fmt.Fprintf(b, "%s_bucket{le=\"+Inf\"} %d\n%s_sum %g\n%s_count %d\n", name, n, name, float64(h.nanos.Load())/1e9, name, n)
}

func newMetrics() *metrics {
	return &metrics{downloads: map[[2]string]int64{}, rowsOut: map[string]int64{}, bytesOut: map[string]int64{}, seconds: map[string]float64{}, refusals: map[string]int64{}}
}

func (m *metrics) rows(export string, n int64) {
	m.mu.Lock()
	m.rowsOut[export] += n
	m.mu.Unlock()
}

func (m *metrics) bytes(export string, n int64) {
	m.mu.Lock()
	m.bytesOut[export] += n
	m.mu.Unlock()
}

// refused counts a request refused before anything ran.
func (m *metrics) refused(reason string) {
	m.mu.Lock()
	m.refusals[reason]++
	m.mu.Unlock()
}

// connState counts open connections (http.Server.ConnState).
func (m *metrics) connState(_ net.Conn, state http.ConnState) {
	switch state {
	case http.StateNew:
		m.conns.Add(1)
	case http.StateClosed, http.StateHijacked:
		m.conns.Add(-1)
	}
}

func (m *metrics) done(export, status string, d time.Duration) {
	m.mu.Lock()
	m.downloads[[2]string{export, status}]++
	m.seconds[export] += d.Seconds()
	m.mu.Unlock()
}

// jobsSource is what the metrics read of the job queue, if there is one.
type jobsSource interface {
	Counts(ctx context.Context) (map[jobs.State]int64, error)
	Stats() jobs.Stats
}

func (m *metrics) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	var b strings.Builder
	gauge := func(name, help string, v int64) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s gauge\n%s %d\n", name, help, name, name, v)
	}
	gauge("sheetstream_downloads_in_flight", "Exports being streamed now.", m.inFlight.Load())
	gauge("sheetstream_downloads_queued", "Requests waiting for a free export slot or database connection.", m.queued.Load())
	gauge("sheetstream_http_connections", "Open HTTP connections (at most max_connections_http).", m.conns.Load())
	gauge("go_goroutines", "Goroutines in the server.", int64(runtime.NumGoroutine()))
	fmt.Fprintf(&b, "# HELP sheetstream_rejected_total Requests refused with 429 after waiting for a slot.\n# TYPE sheetstream_rejected_total counter\nsheetstream_rejected_total %d\n", m.rejected.Load())
	m.mu.Lock()
	defer m.mu.Unlock()
	b.WriteString("# HELP sheetstream_downloads_total Finished downloads by export and status (ok; cancelled: the client went away; stalled: the client took no bytes, or the export produced none, within write_timeout; shutdown: cut when the service stopped; error).\n# TYPE sheetstream_downloads_total counter\n")
	keys := make([][2]string, 0, len(m.downloads))
	for k := range m.downloads {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i][0]+keys[i][1] < keys[j][0]+keys[j][1] })
	for _, k := range keys {
		fmt.Fprintf(&b, "sheetstream_downloads_total{export=%q,status=%q} %d\n", k[0], k[1], m.downloads[k])
	}
	counter := func(name, help string, vals map[string]int64) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s counter\n", name, help, name)
		for _, e := range slices.Sorted(maps.Keys(vals)) {
			fmt.Fprintf(&b, "%s{export=%q} %d\n", name, e, vals[e])
		}
	}
	b.WriteString("# HELP sheetstream_refused_total Requests refused before anything ran, by reason (body: a request with a body; cross-site; token: no valid bearer token).\n# TYPE sheetstream_refused_total counter\n")
	for _, reason := range slices.Sorted(maps.Keys(m.refusals)) {
		fmt.Fprintf(&b, "sheetstream_refused_total{reason=%q} %d\n", reason, m.refusals[reason])
	}
	counter("sheetstream_rows_total", "Data rows streamed.", m.rowsOut)
	counter("sheetstream_bytes_total", "Bytes of XLSX sent.", m.bytesOut)
	b.WriteString("# HELP sheetstream_download_seconds_total Time spent streaming downloads.\n# TYPE sheetstream_download_seconds_total counter\n")
	for _, e := range slices.Sorted(maps.Keys(m.rowsOut)) {
		fmt.Fprintf(&b, "sheetstream_download_seconds_total{export=%q} %g\n", e, m.seconds[e])
	}
	if m.jobs != nil {
		writeJobMetrics(&b, r.Context(), m.jobs)
	}
	m.authTime.write(&b, "sheetstream_auth_seconds", "Time taken to establish who a request comes from (token, session, proxy headers), refusals included.")
	if m.keyFetches != nil {
		fmt.Fprintf(&b, "# HELP sheetstream_oidc_key_fetches_total Fetches of the OIDC issuer's signing keys (at start, for a key not held, and hourly).\n# TYPE sheetstream_oidc_key_fetches_total counter\nsheetstream_oidc_key_fetches_total %d\n", m.keyFetches())
	}
	w.Write([]byte(b.String()))
}

// writeJobMetrics adds the queue's jobs by state (over every worker) and
// what this process's workers did.
func writeJobMetrics(b *strings.Builder, ctx context.Context, q jobsSource) {
	if counts, err := q.Counts(ctx); err == nil {
		b.WriteString("# HELP sheetstream_jobs Export jobs in the queue by state, over every worker (queued: the queue's depth).\n# TYPE sheetstream_jobs gauge\n")
		for _, state := range slices.Sorted(maps.Keys(counts)) {
			fmt.Fprintf(b, "sheetstream_jobs{state=%q} %d\n", state, counts[state])
		}
	}
	st := q.Stats()
	fmt.Fprintf(b, "# HELP sheetstream_job_attempts_total Job attempts this process ended, by outcome.\n# TYPE sheetstream_job_attempts_total counter\n")
	fmt.Fprintf(b, "sheetstream_job_attempts_total{outcome=\"done\"} %d\nsheetstream_job_attempts_total{outcome=\"failed\"} %d\nsheetstream_job_attempts_total{outcome=\"retried\"} %d\nsheetstream_job_attempts_total{outcome=\"cancelled\"} %d\n", st.Done, st.Failed, st.Retried, st.Cancelled)
	fmt.Fprintf(b, "# HELP sheetstream_job_rescues_total Jobs this process took over from a worker that vanished.\n# TYPE sheetstream_job_rescues_total counter\nsheetstream_job_rescues_total %d\n", st.Rescued)
	fmt.Fprintf(b, "# HELP sheetstream_mails_total Mails this process's workers sent, attempts to be retried, and mails failed for good.\n# TYPE sheetstream_mails_total counter\nsheetstream_mails_total{outcome=\"sent\"} %d\nsheetstream_mails_total{outcome=\"retried\"} %d\nsheetstream_mails_total{outcome=\"failed\"} %d\n", st.MailsSent, st.MailsRetried, st.MailsFailed)
	fmt.Fprintf(b, "# HELP sheetstream_job_seconds_total Time this process spent running jobs.\n# TYPE sheetstream_job_seconds_total counter\nsheetstream_job_seconds_total %g\n", st.Seconds)
	fmt.Fprintf(b, "# HELP sheetstream_job_upload_bytes_total Bytes this process's jobs stored.\n# TYPE sheetstream_job_upload_bytes_total counter\nsheetstream_job_upload_bytes_total %d\n", st.Bytes)
}
