package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/jackc/pgx/v5"

	"github.com/sheetstream/sheetstream/internal/testenv"
	"github.com/sheetstream/sheetstream/sqlsheet"
	"github.com/sheetstream/sheetstream/xlsx"
)

// TestFleet runs background exports the way a fleet does: three worker
// processes and an API-only serve on one PostgreSQL queue, files to S3.
// The worker running a job is killed with SIGKILL mid-export; another
// rescues the job and completes it: one valid object, no incomplete
// upload left. Forty jobs submitted at once all complete, valid; a
// schedule kept by all four processes makes one job per slot.
func TestFleet(t *testing.T) {
	if testing.Short() {
		t.Skip("the fleet runs processes for a minute; the go pass runs it")
	}
	pgURL := testenv.Get(t, "SHEETSTREAM_PG_URL", "starts a PostgreSQL server")
	s3URL := testenv.Get(t, "SHEETSTREAM_S3_URL", "starts an S3 server (versitygw)")
	bin := buildCLI(t)
	dir := t.TempDir()

	// The queue: a database of its own.
	conn, err := pgx.Connect(context.Background(), pgURL)
	if err != nil {
		t.Fatal(err)
	}
	queueDB := fmt.Sprintf("fleet_%d", rand.Uint32())
	if _, err := conn.Exec(context.Background(), "CREATE DATABASE "+queueDB); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Exec(context.Background(), "DROP DATABASE "+queueDB+" WITH (FORCE)")
		conn.Close(context.Background())
	})
	base, query, _ := strings.Cut(pgURL, "?")
	queueURL := base[:strings.LastIndex(base, "/")+1] + queueDB + "?" + query

	// The data: an export that takes a few seconds.
	data := filepath.Join(dir, "data.db")
	db, err := sqlsheet.Open("sqlite:" + data)
	if err != nil {
		t.Fatal(err)
	}
	const rows = 1_000_000
	if _, err := db.Exec(fmt.Sprintf(`CREATE TABLE t AS WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < %d) SELECT x AS id, 'row ' || x AS label, x * 0.25 AS q FROM g`, rows)); err != nil {
		t.Fatal(err)
	}
	db.Close()

	bucket, s3Query, _ := strings.Cut(strings.TrimPrefix(s3URL, "s3://"), "?")
	prefix := fmt.Sprintf("fleet-%d", rand.Uint32())
	cfgPath := filepath.Join(dir, "fleet.yaml")
	os.WriteFile(cfgPath, []byte(fmt.Sprintf(`database: sqlite:%s
jobs: %q
storage: %q
job_timeout: 12s
exports:
  - name: big
    sheets: [{name: Data, sql: SELECT * FROM t ORDER BY id}]
  - name: small
    sheets: [{name: Data, sql: SELECT * FROM t WHERE id <= 1000 ORDER BY id}]
schedules:
  - {name: tick, export: small, every: 2s}
`, data, queueURL, "s3://"+bucket+"/"+prefix+"?"+s3Query)), 0o600)
	env := append(os.Environ(), "AWS_ACCESS_KEY_ID="+os.Getenv("SHEETSTREAM_S3_ACCESS_KEY"),
		"AWS_SECRET_ACCESS_KEY="+os.Getenv("SHEETSTREAM_S3_SECRET_KEY"), "AWS_REGION=us-east-1")

	start := func(args ...string) *exec.Cmd {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		cmd.Stderr = &bytes.Buffer{}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}
	workers := map[int]*exec.Cmd{}
	for range 3 {
		w := start("worker", "--config", cfgPath, "--job-workers", "2")
		workers[w.Process.Pid] = w
	}
	api := exec.Command(bin, "serve", "--config", cfgPath, "--listen", "127.0.0.1:0", "--job-workers", "0")
	api.Env = env
	stderr, _ := api.StderrPipe()
	if err := api.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Process.Kill(); api.Wait() })
	url, said := "", ""
	for lines := bufio.NewScanner(stderr); url == "" && lines.Scan(); {
		said += lines.Text() + "\n"
		if _, u, ok := strings.Cut(lines.Text(), " on http://"); ok {
			url = "http://" + strings.TrimSuffix(u, "/")
		}
	}
	if url == "" {
		t.Fatalf("serve printed no address:\n%s", said)
	}
	go io.Copy(io.Discard, stderr)

	submit := func(name string) string {
		resp, err := http.Post(url+"/api/exports/"+name+"/jobs", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var j struct{ ID string }
		if json.NewDecoder(resp.Body).Decode(&j); resp.StatusCode != 202 || j.ID == "" {
			t.Fatalf("submit %s: %d", name, resp.StatusCode)
		}
		return j.ID
	}
	type job struct {
		State, Worker, Download string
		Attempts                int
		Rows                    int64
	}
	status := func(id string) job {
		resp, err := http.Get(url + "/api/jobs/" + id)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var j job
		json.NewDecoder(resp.Body).Decode(&j)
		return j
	}
	waitDone := func(id string, within time.Duration) job {
		deadline := time.Now().Add(within)
		for {
			j := status(id)
			if j.State == "done" || j.State == "failed" || j.State == "cancelled" || time.Now().After(deadline) {
				return j
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	countRows := func(j job) int {
		client := &http.Client{Timeout: time.Minute}
		resp, err := client.Get(url + j.Download) // a redirect to the signed object
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		book, _ := io.ReadAll(resp.Body)
		wb, err := xlsx.NewReader(bytes.NewReader(book), int64(len(book)), xlsx.ReadOptions{})
		if err != nil {
			t.Fatalf("the object is no workbook: %v", err)
		}
		r, _ := wb.Rows(context.Background(), 0)
		defer r.Close()
		n := 0
		for r.Next() {
			n++
		}
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
		return n - 1
	}

	// The worker running a job dies.
	id := submit("big")
	var victim int
	for deadline := time.Now().Add(30 * time.Second); victim == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if j := status(id); j.State == "running" {
			fmt.Sscanf(j.Worker[strings.LastIndexByte(j.Worker, ':')+1:], "%d", &victim)
		}
	}
	w := workers[victim]
	if w == nil {
		for pid, w := range workers {
			t.Logf("worker %d: %s", pid, w.Stderr.(*bytes.Buffer).String())
		}
		t.Fatalf("the job never ran on one of the workers (%d): %+v", victim, status(id))
	}
	time.Sleep(500 * time.Millisecond) // mid-export: parts uploaded
	killed := time.Now()
	w.Process.Signal(syscall.SIGKILL)
	w.Wait()
	j := waitDone(id, 2*time.Minute)
	t.Logf("rescued after SIGKILL: done %.1f s later (attempts %d)", time.Since(killed).Seconds(), j.Attempts)
	if j.State != "done" || j.Attempts != 2 || strings.HasSuffix(j.Worker, fmt.Sprintf(":%d", victim)) || j.Rows != rows {
		t.Fatalf("the killed worker's job: %+v", j)
	}
	if n := countRows(j); n != rows {
		t.Errorf("the rescued job's object: %d rows, want %d", n, rows)
	}

	// Forty at once, on the two workers left.
	var ids []string
	for i := range 40 {
		ids = append(ids, submit([]string{"big", "small"}[min(i%20, 1)])) // two big, 38 small
	}
	for _, id := range ids {
		if j := waitDone(id, 2*time.Minute); j.State != "done" || countRows(j) != int(j.Rows) {
			t.Errorf("job %s: %+v", id, j)
		}
	}

	// No incomplete upload is left in the bucket.
	_, endpoint, _ := strings.Cut(s3Query, "endpoint=")
	endpoint, _, _ = strings.Cut(endpoint, "&")
	t.Setenv("AWS_ACCESS_KEY_ID", os.Getenv("SHEETSTREAM_S3_ACCESS_KEY"))
	t.Setenv("AWS_SECRET_ACCESS_KEY", os.Getenv("SHEETSTREAM_S3_SECRET_KEY"))
	cfg, err := config.LoadDefaultConfig(context.Background(), config.WithRegion("us-east-1"))
	if err != nil {
		t.Fatal(err)
	}
	client := s3.NewFromConfig(cfg, func(o *s3.Options) { o.BaseEndpoint = aws.String(endpoint); o.UsePathStyle = true })
	// Straight to the queue, without the service.
	direct := exec.Command(bin, "jobs", "submit", "small", "--config", cfgPath, "--wait")
	direct.Env = env
	if out, err := direct.Output(); err != nil || !strings.Contains(string(out), `"state":"done"`) {
		t.Errorf("jobs submit --config --wait: %v %s", err, out)
	}
	bad := exec.Command(bin, "jobs", "submit", "small", "nope=1", "--config", cfgPath)
	bad.Env = env
	if out, err := bad.CombinedOutput(); err == nil || !strings.Contains(string(out), `"nope"`) {
		t.Errorf("jobs submit --config with an unknown parameter: %v %s", err, out)
	}
	// Stop the fleet (SIGTERM: running jobs finish or are cancelled, their
	// uploads completed or aborted), then look at what it left.
	defer func() {
		for pid, w := range workers {
			if pid != victim {
				w.Process.Signal(syscall.SIGTERM)
				w.Wait()
			}
		}
		api.Process.Signal(syscall.SIGTERM)
		api.Wait()
		ups, err := client.ListMultipartUploads(context.Background(), &s3.ListMultipartUploadsInput{Bucket: &bucket, Prefix: aws.String(prefix + "/")})
		if err != nil {
			t.Fatal(err)
		}
		if len(ups.Uploads) != 0 {
			t.Errorf("%d incomplete uploads left after the fleet stopped", len(ups.Uploads))
		}
	}()
	// The schedule made one job per slot across the four processes.
	resp, err := http.Get(url + "/api/jobs?limit=100")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Jobs []struct{ Schedule, Slot, State string }
	}
	json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	slots := map[string]int{}
	for _, j := range list.Jobs {
		if j.Schedule == "tick" {
			slots[j.Slot]++
		}
	}
	if len(slots) < 5 {
		t.Errorf("the 2 s schedule made %d slots' jobs over the test", len(slots))
	}
	for slot, n := range slots {
		if n != 1 {
			t.Errorf("slot %s: %d jobs across the fleet", slot, n)
		}
	}
	objs, _ := client.ListObjectsV2(context.Background(), &s3.ListObjectsV2Input{Bucket: &bucket, Prefix: aws.String(prefix + "/")})
	if len(objs.Contents) < 41 {
		t.Errorf("%d objects, want the 41 jobs' at least", len(objs.Contents))
	}
}
