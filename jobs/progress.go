package jobs

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// A running job's rows so far, for its clients: the Runner reports them
// (an atomic store, cheap enough for the export's own progress calls),
// and the worker writes the latest to the queue's database once a second,
// where Get and List of any instance of a fleet read them.

// progressTable holds running jobs' rows so far.
const progressTable = `CREATE TABLE IF NOT EXISTS sheetstream_job_progress (
	job_id BIGINT PRIMARY KEY,
	rows_written BIGINT NOT NULL
)`

// progressEvery is how often a running job's rows are written down.
const progressEvery = time.Second

type progressKey struct{}

type progress struct{ rows atomic.Int64 }

// ReportRows records the rows written so far by the job ctx is a Runner's
// context of (the count the export's Progress gives); elsewhere it does
// nothing.
func ReportRows(ctx context.Context, rows int64) {
	if p, ok := ctx.Value(progressKey{}).(*progress); ok {
		p.rows.Store(rows)
	}
}

// watchProgress gives a job's Runner a context ReportRows records into,
// and writes what it records once a second; stop writes nothing more and
// removes the record (the job's output has the rows from then on).
func (q *Queue) watchProgress(ctx context.Context, id int64) (context.Context, func()) {
	p := &progress{}
	ctx = context.WithValue(ctx, progressKey{}, p)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		written := int64(0)
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			if n := p.rows.Load(); n != written {
				// A failed write is retried at the next tick; the
				// rows are only what the job's clients see meanwhile.
				if _, err := q.schedules.exec(ctx, "INSERT INTO sheetstream_job_progress (job_id, rows_written) VALUES (?, ?) ON CONFLICT (job_id) DO UPDATE SET rows_written = excluded.rows_written", id, n); err == nil {
					written = n
				}
			}
		}
	}()
	return ctx, func() {
		close(done)
		wg.Wait()
		q.schedules.exec(context.WithoutCancel(ctx), "DELETE FROM sheetstream_job_progress WHERE job_id = ?", id)
	}
}

// addProgress gives a running job the rows its worker last wrote down.
func (q *Queue) addProgress(ctx context.Context, j *Job, id int64) {
	if j.State != Running {
		return
	}
	if n, err := q.schedules.count(ctx, "SELECT COALESCE(MAX(rows_written), -1) FROM sheetstream_job_progress WHERE job_id = ?", id); err == nil && n >= 0 {
		j.Rows = n
	}
}
