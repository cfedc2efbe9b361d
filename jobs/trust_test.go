package jobs

import (
	"bytes"
	"context"
	"crypto/hmac"
	"encoding/base64"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/sheetstream/sheetstream/storage"
)

// submitWithKey queues a job whose file goes under key, as a schedule
// with a fixed key queues them.
func submitWithKey(t *testing.T, q *Queue, key string, keep time.Duration) Job {
	t.Helper()
	args := exportArgs{Request: Request{Export: "ok", Params: map[string]string{"city": "Oslo"}, File: "latest.xlsx", Keep: keep, Owner: "schedule:s"},
		Secret: randomHex(16), Key: key}
	res, err := q.client.Insert(context.Background(), args, &river.InsertOpts{Metadata: ownerMetadata("schedule:s")})
	if err != nil {
		t.Fatal(err)
	}
	j, _ := q.view(res.Job)
	return wait(t, q, j.ID)
}

// TestRetentionSharedKey: when a schedule's key does not change between
// slots, the older job's expiry removes only its row: the file is the
// newer job's, and goes when that one expires. On SQLite and PostgreSQL.
func TestRetentionSharedKey(t *testing.T) {
	// Without the periodic cleanup, which runs at start and would remove
	// the expired job before the test's own Cleanup looks.
	for name, q := range queues(t, func(c *Config) { c.CleanupEvery = -1 }) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			old := submitWithKey(t, q, "reports/"+name+"/latest.xlsx", time.Millisecond)
			newer := submitWithKey(t, q, "reports/"+name+"/latest.xlsx", time.Hour)
			if old.State != Done || newer.State != Done {
				t.Fatalf("jobs: %+v %+v", old, newer)
			}
			n, err := q.Cleanup(ctx, time.Now().Add(time.Minute))
			if err != nil || n != 1 {
				t.Fatalf("Cleanup: %d %v, want the old job", n, err)
			}
			if _, err := q.Get(ctx, old.ID); !errors.Is(err, ErrNotFound) {
				t.Errorf("the expired job: %v", err)
			}
			body, _, err := q.File(ctx, newer)
			if err != nil {
				t.Fatalf("the newer job's file after the older expired: %v", err)
			}
			body.Close()
			if n, err := q.Cleanup(ctx, time.Now().Add(2*time.Hour)); err != nil || n != 1 {
				t.Fatalf("second Cleanup: %d %v", n, err)
			}
			if _, _, err := q.File(ctx, newer); !errors.Is(err, storage.ErrNotFound) {
				t.Errorf("the last job's file after it expired: %v", err)
			}
		})
	}
}

// TestRevocationsShared: a session revoked through one queue is revoked
// for every process on the queue's database.
func TestRevocationsShared(t *testing.T) {
	dir := t.TempDir()
	folder, _ := storage.OpenFolder(dir)
	path := "sqlite:" + filepath.Join(dir, "q.db")
	open := func() *Queue {
		q, err := Open(context.Background(), Config{Queue: path, Storage: folder})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { q.Close(context.Background()) })
		return q
	}
	a, b := open(), open()
	ctx := context.Background()
	if err := a.Revoke(ctx, "sid-1", time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := a.Revoke(ctx, "sid-1", time.Now().Add(2*time.Hour)); err != nil {
		t.Fatalf("revoking twice: %v", err)
	}
	for _, c := range []struct {
		sid  string
		want bool
	}{{"sid-1", true}, {"sid-2", false}} {
		if got, err := b.Revoked(ctx, c.sid); err != nil || got != c.want {
			t.Errorf("Revoked(%s) on another process: %v %v", c.sid, got, err)
		}
	}
	for name, q := range queues(t) {
		if err := q.Revoke(ctx, "pg-sid", time.Now().Add(time.Hour)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, err := q.Revoked(ctx, "pg-sid"); err != nil || !got {
			t.Errorf("%s: Revoked: %v %v", name, got, err)
		}
	}
}

// TestWebhookSigned: deliveries carry the Standard Webhooks headers, and
// the signature verifies over id, timestamp and body with a whsec_
// secret's bytes; the old header stays. A redirect is not followed, and
// no log line shows a webhook URL's user information.
func TestWebhookSigned(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	t.Setenv("SHEETSTREAM_TEST_WHSEC", "whsec_"+base64.StdEncoding.EncodeToString(key))
	var mu sync.Mutex
	var verified []string
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		id, ts := r.Header.Get("webhook-id"), r.Header.Get("webhook-timestamp")
		sec, _ := strconv.ParseInt(ts, 10, 64)
		// A receiver's check, as the specification gives it.
		want := SignStandard(key, id, sec, body)
		ok := false
		for _, sig := range strings.Fields(r.Header.Get("webhook-signature")) {
			ok = ok || hmac.Equal([]byte(sig), []byte(want))
		}
		if !ok || id == "" || time.Since(time.Unix(sec, 0)).Abs() > 5*time.Minute || r.Header.Get(SignatureHeader) == "" {
			t.Errorf("delivery %q at %q: signature %q does not verify", id, ts, r.Header.Get("webhook-signature"))
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		mu.Lock()
		verified = append(verified, id)
		mu.Unlock()
	}))
	defer hook.Close()
	var redirected sync.Mutex
	followed := 0
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		redirected.Lock()
		followed++
		redirected.Unlock()
	}))
	defer target.Close()
	redirector := httptest.NewServer(http.RedirectHandler(target.URL+"/stolen", http.StatusTemporaryRedirect))
	defer redirector.Close()

	var logs bytes.Buffer
	var logMu sync.Mutex
	folder, _ := storage.OpenFolder(t.TempDir())
	run := &fakeRun{}
	q, err := Open(context.Background(), Config{Queue: "sqlite:" + filepath.Join(t.TempDir(), "q.db"), Storage: folder,
		Workers: 2, Run: run.run, FetchPoll: 50 * time.Millisecond, CleanupEvery: -1,
		Log: slog.New(slog.NewTextHandler(lockedWriter{&logMu, &logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	q.Start(context.Background())
	defer q.Close(context.Background())
	ctx := context.Background()
	withUser := strings.Replace(redirector.URL, "http://", "http://hookuser:hookpass@", 1) + "/path?token=querysecret"
	for _, n := range []*Notify{{Webhook: hook.URL, SecretEnv: "SHEETSTREAM_TEST_WHSEC"}, {Webhook: withUser}} {
		j, _ := q.Submit(ctx, Request{Export: "ok", Params: map[string]string{"city": "Oslo"}, File: "a.xlsx", Notify: n}, "")
		wait(t, q, j.ID)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		n := len(verified)
		mu.Unlock()
		logMu.Lock()
		failedOnce := strings.Contains(logs.String(), "redirects are not followed")
		logMu.Unlock()
		if n == 1 && failedOnce || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	mu.Lock()
	if len(verified) != 1 || !strings.HasPrefix(verified[0], "msg_") {
		t.Errorf("verified deliveries: %v", verified)
	}
	mu.Unlock()
	redirected.Lock()
	if followed != 0 {
		t.Errorf("the redirect was followed %d times", followed)
	}
	redirected.Unlock()
	logMu.Lock()
	text := logs.String()
	logMu.Unlock()
	if !strings.Contains(text, "redirects are not followed") {
		t.Errorf("the refused redirect is not logged:\n%s", text)
	}
	for _, secret := range []string{"hookuser", "hookpass", "querysecret"} {
		if strings.Contains(text, secret) {
			t.Errorf("the log shows %q:\n%s", secret, text)
		}
	}
	if got := WebhookSecret("plain text"); string(got) != "plain text" {
		t.Errorf("a plain secret: %q", got)
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestSubmitted: a job submitted with an idempotency key is found by its
// owner and key, on SQLite and PostgreSQL.
func TestSubmitted(t *testing.T) {
	for name, q := range queues(t) {
		ctx := context.Background()
		if _, err := q.Submit(ctx, Request{Export: "ok", Owner: "token:ci", File: "a.xlsx"}, "k-1"); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			owner, key string
			want       bool
		}{{"token:ci", "k-1", true}, {"token:ci", "k-2", false}, {"proxy:ci", "k-1", false}, {"token:ci", "", false}} {
			if got, err := q.Submitted(ctx, c.owner, c.key); err != nil || got != c.want {
				t.Errorf("%s: Submitted(%s, %s) = %v %v, want %v", name, c.owner, c.key, got, err, c.want)
			}
		}
	}
}
