package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/storage"
)

// fakeRun stands in for the service's export: what it does depends on the
// export's name, so that one queue shows every outcome.
type fakeRun struct {
	flaky atomic.Int32 // attempts of the "flaky" export so far
}

func (f *fakeRun) run(ctx context.Context, req Request, w io.Writer) (int64, error) {
	switch req.Export {
	case "ok":
		rows := int64(len(req.Params["city"])) * 100
		_, err := fmt.Fprintf(w, "rows=%d city=%s owner=%s", rows, req.Params["city"], req.Owner)
		return rows, err
	case "permanent":
		w.Write([]byte("half a workbook"))
		return 0, Permanent(errors.New(`sheet "S": no such table: missing`))
	case "flaky":
		if f.flaky.Add(1) == 1 {
			w.Write([]byte("half a workbook"))
			return 0, errors.New("connection reset by peer")
		}
		_, err := w.Write([]byte("whole"))
		return 1, err
	case "counting": // 15 steps of 10,000 rows, 200 ms apart
		for i := int64(1); i <= 15; i++ {
			ReportRows(ctx, i*10000)
			select {
			case <-time.After(200 * time.Millisecond):
			case <-ctx.Done():
				return 0, ctx.Err()
			}
		}
		_, err := w.Write([]byte("counted"))
		return 150000, err
	case "sized": // a file of params["size"] bytes, saying whose it is
		n, _ := strconv.Atoi(req.Params["size"])
		head := "city=" + req.Params["city"] + ";"
		_, err := w.Write([]byte(head + strings.Repeat("x", max(n-len(head), 0))))
		return int64(n), err
	case "slow":
		w.Write(bytes.Repeat([]byte("x"), 6<<20))
		<-ctx.Done()
		return 0, ctx.Err()
	}
	return 0, Permanent(fmt.Errorf("no export %q", req.Export))
}

// queues opens a SQLite queue with a folder, and a PostgreSQL queue (a
// database of its own on the test command's server) with the same folder.
//
// with changes the queues' Config (a test of retention turns off the
// periodic cleanup, which would race with its own Cleanup calls).
func queues(t *testing.T, with ...func(*Config)) map[string]*Queue {
	t.Helper()
	folder, err := storage.OpenFolder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*Queue{}
	open := func(name, url string) {
		run := &fakeRun{}
		cfg := Config{Queue: url, Storage: folder, Workers: 2, Run: run.run,
			FetchPoll: 50 * time.Millisecond, JobTimeout: 20 * time.Second}
		for _, change := range with {
			change(&cfg)
		}
		q, err := Open(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := q.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			q.Close(ctx)
		})
		out[name] = q
	}
	open("sqlite", "sqlite:"+filepath.Join(t.TempDir(), "queue.db"))
	open("postgres", postgresQueue(t))
	return out
}

// postgresQueue makes a database of its own on the test command's
// PostgreSQL server, dropped when the test ends.
func postgresQueue(t *testing.T) string {
	t.Helper()
	base := testenv.Get(t, "SHEETSTREAM_PG_URL", "starts a PostgreSQL server")
	conn, err := pgx.Connect(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("jobs_%d", rand.Uint32())
	if _, err := conn.Exec(context.Background(), "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Exec(context.Background(), "DROP DATABASE "+name+" WITH (FORCE)")
		conn.Close(context.Background())
	})
	u, rest, _ := strings.Cut(base, "?")
	u = u[:strings.LastIndex(u, "/")+1] + name
	if rest != "" {
		u += "?" + rest
	}
	return u
}

// wait waits for a job to reach a final state.
func wait(t *testing.T, q *Queue, id string) Job {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		j, err := q.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if j.State == Done || j.State == Failed || j.State == Cancelled || time.Now().After(deadline) {
			return j
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func fileOf(t *testing.T, q *Queue, j Job) string {
	t.Helper()
	r, _, err := q.File(context.Background(), j)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, _ := io.ReadAll(r)
	return string(b)
}

// TestJobs: a job runs and its file is stored; it is found by its id and
// not by a guessed one; lists show an owner only their jobs; an
// idempotency key makes a second submit the first job; a permanent error
// fails at once, a passing one retries; a running job is cancelled.
func TestJobs(t *testing.T) {
	for name, q := range queues(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			j, err := q.Submit(ctx, Request{Export: "ok", Params: map[string]string{"city": "Oslo"}, Owner: "alice", File: "ok.xlsx"}, "")
			if err != nil || j.State != Queued || j.Owner != "alice" || len(j.ID) < 34 {
				t.Fatalf("submit: %+v %v", j, err)
			}
			j = wait(t, q, j.ID)
			if j.State != Done || j.Rows != 400 || j.Bytes != int64(len("rows=400 city=Oslo owner=alice")) || j.Attempts != 1 || j.Worker == "" || j.Finished == nil {
				t.Errorf("done: %+v", j)
			}
			if got := fileOf(t, q, j); got != "rows=400 city=Oslo owner=alice" {
				t.Errorf("file: %q", got)
			}
			num, secret, _ := strings.Cut(j.ID, "-")
			for _, guess := range []string{num, num + "-" + strings.Repeat("0", 32), num + "-" + secret[:31] + "x", "0-" + secret, "x", ""} {
				if _, err := q.Get(ctx, guess); !errors.Is(err, ErrNotFound) {
					t.Errorf("a guessed id %q: %v", guess, err)
				}
			}
			bob, _ := q.Submit(ctx, Request{Export: "ok", Owner: "bob", File: "ok.xlsx"}, "")
			first, err := q.Submit(ctx, Request{Export: "ok", Owner: "alice", File: "ok.xlsx"}, "key-1")
			if err != nil {
				t.Fatal(err)
			}
			again, err := q.Submit(ctx, Request{Export: "ok", Owner: "alice", File: "ok.xlsx"}, "key-1")
			if err != nil || again.ID != first.ID {
				t.Errorf("the same idempotency key: %s then %s (%v)", first.ID, again.ID, err)
			}
			if other, _ := q.Submit(ctx, Request{Export: "ok", Owner: "bob", File: "ok.xlsx"}, "key-1"); other.ID == first.ID {
				t.Errorf("another owner's idempotency key gave alice's job")
			}
			mine, err := q.List(ctx, "alice", 10, "")
			if err != nil || len(mine) != 2 || mine[0].ID != first.ID || mine[1].ID != j.ID {
				t.Errorf("alice's list: %d jobs, %v", len(mine), err)
			}
			for _, m := range mine {
				if m.Owner != "alice" || m.ID == bob.ID {
					t.Errorf("alice's list holds %+v", m)
				}
			}
			page, err := q.List(ctx, "alice", 1, first.ID)
			if err != nil || len(page) != 1 || page[0].ID != j.ID {
				t.Errorf("the next page: %+v %v", page, err)
			}

			perm, _ := q.Submit(ctx, Request{Export: "permanent", Owner: "alice", File: "p.xlsx"}, "")
			perm = wait(t, q, perm.ID)
			if perm.State != Failed || perm.Attempts != 1 || perm.Error != `sheet "S": no such table: missing` {
				t.Errorf("a permanent error: %+v", perm)
			}
			if _, _, err := q.cfg.Storage.Get(ctx, perm.Key); !errors.Is(err, storage.ErrNotFound) {
				t.Errorf("a failed job's file: %v", err)
			}

			flaky, _ := q.Submit(ctx, Request{Export: "flaky", Owner: "alice", File: "f.xlsx"}, "")
			flaky = wait(t, q, flaky.ID)
			if flaky.State != Done || flaky.Attempts != 2 || fileOf(t, q, flaky) != "whole" {
				t.Errorf("a job that failed once: %+v", flaky)
			}

			slow, _ := q.Submit(ctx, Request{Export: "slow", Owner: "alice", File: "s.xlsx"}, "")
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if s, _ := q.Get(ctx, slow.ID); s.State == Running || time.Now().After(deadline) {
					break
				}
			}
			time.Sleep(200 * time.Millisecond)
			if _, err := q.Cancel(ctx, slow.ID); err != nil {
				t.Fatal(err)
			}
			slow = wait(t, q, slow.ID)
			if slow.State != Cancelled {
				t.Errorf("a cancelled job: %+v", slow)
			}
			if _, _, err := q.cfg.Storage.Get(ctx, slow.Key); !errors.Is(err, storage.ErrNotFound) {
				t.Errorf("a cancelled job's file: %v", err)
			}
			counts, err := q.Counts(ctx)
			if err != nil || counts[Failed] != 1 || counts[Cancelled] != 1 || counts[Done] < 2 {
				t.Errorf("counts: %v %v", counts, err)
			}
			if st := q.Stats(); st.Failed != 1 || st.Retried != 1 || st.Cancelled != 1 || st.Done < 2 || st.Bytes == 0 {
				t.Errorf("this process's stats: %+v", st)
			}
		})
	}
}
