package jobs

import (
	"context"
	"crypto/hmac"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/sheetstream/sheetstream/storage"
)

// TestWebhookAndCleanup: a finished job's JSON is POSTed to its webhook,
// signed, and retried after the receiver fails once; a permanent failure
// is told too; a job whose keep has passed goes with its file, one still
// kept stays.
func TestWebhookAndCleanup(t *testing.T) {
	t.Setenv("SHEETSTREAM_TEST_WEBHOOK_SECRET", "hook-secret")
	var mu sync.Mutex
	calls := 0
	got := map[string]Job{}
	downloads := map[string]string{}
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 1 {
			http.Error(w, "down for a moment", http.StatusInternalServerError)
			return
		}
		if !hmac.Equal([]byte(r.Header.Get(SignatureHeader)), []byte(Sign([]byte("hook-secret"), body))) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			t.Errorf("signature %q does not match the body", r.Header.Get(SignatureHeader))
			return
		}
		var j webhookPayload
		json.Unmarshal(body, &j)
		got[j.ID] = j.Job
		downloads[j.ID] = j.Download
	}))
	defer hook.Close()
	folder, _ := storage.OpenFolder(t.TempDir())
	run := &fakeRun{}
	q, err := Open(context.Background(), Config{Queue: "sqlite:" + filepath.Join(t.TempDir(), "q.db"), Storage: folder,
		Workers: 2, Run: run.run, FetchPoll: 50 * time.Millisecond, CleanupEvery: -1, PublicURL: "https://reports.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	q.Start(context.Background())
	defer q.Close(context.Background())
	ctx := context.Background()
	notify := &Notify{Webhook: hook.URL, SecretEnv: "SHEETSTREAM_TEST_WEBHOOK_SECRET"}
	done, _ := q.Submit(ctx, Request{Export: "ok", Params: map[string]string{"city": "Oslo"}, File: "a.xlsx", Keep: time.Millisecond, Notify: notify}, "")
	failed, _ := q.Submit(ctx, Request{Export: "permanent", File: "b.xlsx", Notify: notify}, "")
	kept, _ := q.Submit(ctx, Request{Export: "ok", File: "c.xlsx"}, "")
	for _, id := range []string{done.ID, failed.ID, kept.ID} {
		wait(t, q, id)
	}
	for deadline := time.Now().Add(40 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n == 2 || time.Now().After(deadline) {
			break
		}
	}
	mu.Lock()
	if got[done.ID].State != Done || got[done.ID].Rows != 400 || got[failed.ID].State != Failed || calls < 3 {
		t.Errorf("webhooks: %d calls, %+v", calls, got)
	}
	if downloads[done.ID] != "https://reports.example.com/api/jobs/"+done.ID+"/file" || downloads[failed.ID] != "" {
		t.Errorf("downloads: %v", downloads)
	}
	mu.Unlock()
	doneJob, _ := q.Get(ctx, done.ID)
	keptJob, _ := q.Get(ctx, kept.ID)
	n, err := q.Cleanup(ctx, time.Now().Add(time.Second))
	if err != nil || n != 1 {
		t.Errorf("Cleanup: %d %v, want 1 (the job kept a millisecond)", n, err)
	}
	if _, err := q.Get(ctx, done.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("an expired job: %v", err)
	}
	if _, _, err := folder.Get(ctx, doneJob.Key); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("an expired job's file: %v", err)
	}
	if _, _, err := folder.Get(ctx, keptJob.Key); err != nil {
		t.Errorf("a kept job's file: %v", err)
	}
	if n, _ := q.Cleanup(ctx, time.Now().Add(8*24*time.Hour)); n != 2 {
		t.Errorf("after the default keep: %d removed, want 2", n)
	}
	// The webhooks' own jobs go too, once finished: River no longer
	// removes finished jobs after a day whatever their keep.
	var left []*rivertype.JobRow
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		q.Cleanup(ctx, time.Now().Add(8*24*time.Hour))
		res, err := q.client.JobList(ctx, river.NewJobListParams().First(100))
		if err != nil {
			t.Fatal(err)
		}
		if left = res.Jobs; len(left) == 0 {
			break
		}
	}
	for _, j := range left {
		t.Errorf("left after every keep: %s %s", j.Kind, j.State)
	}
}
