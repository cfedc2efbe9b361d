// Command loadtest downloads one export many times at once from a running
// sheetstream serve, and reports time to first byte, total time,
// throughput and the server's peak RSS. Every file is saved for
// validation.
//
//	loadtest -url http://127.0.0.1:8080/exports/big.xlsx -c 64 -pid 1234 -out dir
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

func rssKiB(pid int, field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, field+":") {
			n, _ := strconv.ParseInt(strings.Fields(line)[1], 10, 64)
			return n
		}
	}
	return 0
}

func pct(d []time.Duration, p float64) time.Duration {
	return d[min(len(d)-1, int(float64(len(d))*p))]
}

func main() {
	url := flag.String("url", "", "download URL")
	c := flag.Int("c", 64, "concurrent downloads")
	pid := flag.Int("pid", 0, "server process, for its RSS")
	out := flag.String("out", "", "folder for the files")
	flag.Parse()
	os.MkdirAll(*out, 0o755)
	var peak int64
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				peak = max(peak, rssKiB(*pid, "VmRSS"))
			}
		}
	}()
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: *c, MaxIdleConnsPerHost: *c}}
	ttfb := make([]time.Duration, *c)
	total := make([]time.Duration, *c)
	var bytes int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for i := range *c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			resp, err := client.Get(*url)
			if err != nil {
				log.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != 200 {
				log.Fatalf("download %d: status %d", i, resp.StatusCode)
			}
			f, _ := os.Create(filepath.Join(*out, fmt.Sprintf("d%02d.xlsx", i)))
			buf := make([]byte, 32<<10)
			n, err := resp.Body.Read(buf)
			ttfb[i] = time.Since(t0)
			f.Write(buf[:n])
			m, err2 := io.CopyBuffer(f, resp.Body, buf)
			if (err != nil && err != io.EOF) || err2 != nil {
				log.Fatalf("download %d: %v %v", i, err, err2)
			}
			f.Close()
			total[i] = time.Since(t0)
			mu.Lock()
			bytes += int64(n) + m
			mu.Unlock()
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	close(stop)
	sort.Slice(ttfb, func(i, j int) bool { return ttfb[i] < ttfb[j] })
	sort.Slice(total, func(i, j int) bool { return total[i] < total[j] })
	fmt.Printf("%d\t%.2f\t%.1f\t%.3f\t%.3f\t%.2f\t%.2f\t%.1f\n", *c, wall.Seconds(), float64(bytes)/wall.Seconds()/(1<<20),
		pct(ttfb, 0.5).Seconds(), pct(ttfb, 0.99).Seconds(), pct(total, 0.5).Seconds(), pct(total, 0.99).Seconds(), float64(peak)/1024)
}
