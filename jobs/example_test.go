package jobs_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/sheetstream/sheetstream/jobs"
	"github.com/sheetstream/sheetstream/storage"
)

// A queue on SQLite (one host; postgres://... for a fleet) whose jobs
// write into a folder: Submit returns at once, a worker runs the
// Runner, and the file is there, whole, once the job is done.
func Example() {
	dir, _ := os.MkdirTemp("", "jobs")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	store, err := storage.OpenFolder(filepath.Join(dir, "files"))
	if err != nil {
		log.Fatal(err)
	}
	run := func(ctx context.Context, req jobs.Request, w io.Writer) (int64, error) {
		// The service writes the export's workbook here.
		_, err := fmt.Fprintf(w, "rows of %s for %s\n", req.Export, req.Params["city"])
		return 1, err
	}
	q, err := jobs.Open(ctx, jobs.Config{Queue: "sqlite:" + filepath.Join(dir, "queue.db"), Storage: store,
		Workers: 1, Run: run, FetchPoll: 50 * time.Millisecond})
	if err != nil {
		log.Fatal(err)
	}
	defer q.Close(ctx)
	if err := q.Start(ctx); err != nil {
		log.Fatal(err)
	}
	j, err := q.Submit(ctx, jobs.Request{Export: "orders", Params: map[string]string{"city": "Oslo"}, File: "orders.xlsx", Owner: "token:ci"}, "")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(j.State)
	for j.State == jobs.Queued || j.State == jobs.Running {
		time.Sleep(20 * time.Millisecond)
		j, _ = q.Get(ctx, j.ID)
	}
	body, _, err := q.File(ctx, j)
	if err != nil {
		log.Fatal(err)
	}
	defer body.Close()
	b, _ := io.ReadAll(body)
	fmt.Println(j.State, j.Rows, j.Owner)
	fmt.Print(string(b))
	// Output:
	// queued
	// done 1 token:ci
	// rows of orders for Oslo
}
