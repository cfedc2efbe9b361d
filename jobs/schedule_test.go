package jobs

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/storage"
)

// TestCronAcrossDST: a daily slot at 02:30 Berlin time runs once a day
// across both daylight-saving changes: not skipped the night 02:30 does
// not exist, not twice the night it occurs twice.
func TestCronAcrossDST(t *testing.T) {
	s := &Schedule{Name: "nightly", Cron: "CRON_TZ=Europe/Berlin 30 2 * * *"}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		from time.Time
		days []int // the local days of the next four slots
	}{
		{time.Date(2026, 3, 27, 12, 0, 0, 0, time.UTC), []int{28, 29, 30, 31}},
		{time.Date(2026, 10, 23, 12, 0, 0, 0, time.UTC), []int{24, 25, 26, 27}},
	} {
		at := c.from
		for i, day := range c.days {
			next := s.Next(at)
			local := next.In(s.Location)
			if local.Day() != day || !next.After(at) {
				t.Errorf("from %v, slot %d: %v (%v), want day %d", c.from, i, next.UTC(), local, day)
			}
			at = next
		}
	}
	every := &Schedule{Name: "often", Every: 15 * time.Minute}
	if err := every.Check(); err != nil {
		t.Fatal(err)
	}
	if got := every.Next(time.Date(2026, 1, 1, 10, 7, 0, 0, time.UTC)); !got.Equal(time.Date(2026, 1, 1, 10, 15, 0, 0, time.UTC)) {
		t.Errorf("every 15m after 10:07: %v", got)
	}
	for _, bad := range []*Schedule{
		{Name: "x"}, {Name: "x", Cron: "61 * * * *"}, {Name: "x", Cron: "* * * * *", Every: time.Minute},
		{Name: "x", Every: time.Millisecond}, {Name: "x", Cron: "CRON_TZ=Mars/Olympus 0 * * * *"},
		{Name: "x", Every: time.Hour, Key: "{{.Nope}}"}, {Name: "x", Every: time.Hour, Key: "../{{.Name}}"},
	} {
		if err := bad.Check(); err == nil || !strings.Contains(err.Error(), `schedule "x"`) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}

// scheduledJobs lists the jobs of a schedule, by slot.
func scheduledJobs(t *testing.T, q *Queue, name string) map[string][]Job {
	t.Helper()
	all, err := q.List(context.Background(), AllOwners, 1000, "")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]Job{}
	for _, j := range all {
		if j.Schedule == name {
			out[j.Slot] = append(out[j.Slot], j)
		}
	}
	return out
}

// TestScheduleOncePerSlot: three processes keeping the same schedule make
// one job per slot between them, on SQLite and on PostgreSQL; the key
// template names each slot's file.
func TestScheduleOncePerSlot(t *testing.T) {
	for name, url := range map[string]string{
		"sqlite":   "sqlite:" + filepath.Join(t.TempDir(), "queue.db"),
		"postgres": postgresQueue(t),
	} {
		t.Run(name, func(t *testing.T) {
			folder, _ := storage.OpenFolder(t.TempDir())
			var qs []*Queue
			for range 3 {
				s := &Schedule{Name: "tick", Every: time.Second, Request: Request{Export: "ok", File: "ok.xlsx", Owner: "schedule:tick"},
					Key: `ticks/{{.Time.Format "150405"}}.xlsx`}
				q, err := Open(context.Background(), Config{Queue: url, Storage: folder, Schedules: []*Schedule{s}, ScheduleTick: 50 * time.Millisecond})
				if err != nil {
					t.Fatal(err)
				}
				q.Start(context.Background())
				qs = append(qs, q)
			}
			time.Sleep(4500 * time.Millisecond)
			for _, q := range qs {
				q.Close(context.Background())
			}
			reader, _ := Open(context.Background(), Config{Queue: url, Storage: folder})
			defer reader.Close(context.Background())
			slots := scheduledJobs(t, reader, "tick")
			if len(slots) < 3 || len(slots) > 5 {
				t.Errorf("%d slots in 4.5 s of a 1 s schedule", len(slots))
			}
			for slot, jobs := range slots {
				at, _ := time.Parse(time.RFC3339, slot)
				if len(jobs) != 1 {
					t.Errorf("slot %s: %d jobs", slot, len(jobs))
				} else if want := "ticks/" + at.Format("150405") + ".xlsx"; jobs[0].Key != want || jobs[0].Owner != "schedule:tick" {
					t.Errorf("slot %s: key %q owner %q, want %q", slot, jobs[0].Key, jobs[0].Owner, want)
				}
			}
		})
	}
}

// TestScheduleMissedSlots: a schedule that was down for many slots runs
// once when it comes back, for the latest slot it missed, and is next due
// after now.
func TestScheduleMissedSlots(t *testing.T) {
	folder, _ := storage.OpenFolder(t.TempDir())
	url := "sqlite:" + filepath.Join(t.TempDir(), "queue.db")
	s := &Schedule{Name: "hourly", Every: time.Hour, Request: Request{Export: "ok", File: "ok.xlsx"}}
	q, err := Open(context.Background(), Config{Queue: url, Storage: folder, Schedules: []*Schedule{s}})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close(context.Background())
	ctx := context.Background()
	now := time.Date(2026, 11, 26, 15, 20, 0, 0, time.UTC)
	if err := q.scheduleOnce(ctx, s, now.Add(-30*time.Hour)); err != nil { // first seen 30 hours ago
		t.Fatal(err)
	}
	for range 3 { // back up, looked at three times
		if err := q.scheduleOnce(ctx, s, now); err != nil {
			t.Fatal(err)
		}
	}
	slots := scheduledJobs(t, q, "hourly")
	if len(slots) != 1 || slots["2026-11-26T15:00:00Z"] == nil {
		t.Errorf("after 30 missed hours: %v, want one job for 15:00", slots)
	}
	_, at, _, _ := q.schedules.next(ctx, "hourly")
	if got := time.UnixMilli(at).UTC(); !got.Equal(time.Date(2026, 11, 26, 16, 0, 0, 0, time.UTC)) {
		t.Errorf("next due %v, want 16:00", got)
	}
}
