package jobs

import (
	"context"
	"testing"
	"time"
)

// TestProgress: a running job's rows grow in Get and List as its Runner
// reports them (written down once a second), on SQLite and PostgreSQL
// queues; once done, the rows are the output's and the record is gone.
func TestProgress(t *testing.T) {
	for name, q := range queues(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			j, err := q.Submit(ctx, Request{Export: "counting", Params: map[string]string{}, File: "c.xlsx", Owner: "alice"}, "")
			if err != nil {
				t.Fatal(err)
			}
			seen := map[int64]bool{}
			deadline := time.Now().Add(20 * time.Second)
			for time.Now().Before(deadline) {
				got, err := q.Get(ctx, j.ID)
				if err != nil {
					t.Fatal(err)
				}
				if got.State == Running && got.Rows > 0 {
					seen[got.Rows] = true
					listed, err := q.List(ctx, "alice", 10, "")
					if err != nil || len(listed) == 0 || listed[0].ID != j.ID || listed[0].Rows < got.Rows {
						t.Errorf("List: %v %+v", err, listed)
					}
				}
				if got.State != Queued && got.State != Running {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			if len(seen) < 2 {
				t.Errorf("rows seen while running: %v, want a count that grows", seen)
			}
			done := wait(t, q, j.ID)
			if done.State != Done || done.Rows != 150000 {
				t.Errorf("done: %+v", done)
			}
			if n, _ := q.schedules.count(ctx, "SELECT count(*) FROM sheetstream_job_progress"); n != 0 {
				t.Errorf("%d progress records left", n)
			}
		})
	}
}
