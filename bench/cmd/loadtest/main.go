// Command loadtest downloads one export many times at once from a running
// sheetstream serve, and reports time to first byte, total time,
// throughput and the server's peak RSS. Every file a client read to its
// end is saved for validation.
//
//	loadtest -url http://127.0.0.1:8080/exports/big.xlsx -c 64 -pid 1234 -out dir
//
// With faults (-stall, -drop, -kill-cmd) it adds misbehaving clients and
// reports instead how every download ended and how the server recovered:
//
//	loadtest -url ... -c 64 -stall 8 -drop 8 -kill-after 1s -kill-cmd "psql ..." -metrics http://127.0.0.1:8080/metrics
//
// With -body and -idle it holds connections instead, while -c clients
// download: -body that announce a request body they never send, -idle
// that open and send nothing; it reports how the body clients were
// answered, what the downloads beside them did, and the connections and
// goroutines the server held:
//
//	loadtest -url ... -c 8 -body 4 -idle 200 -metrics http://127.0.0.1:8080/metrics -pid 1234
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
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

// every calls f every d until stop is closed.
func every(d time.Duration, stop <-chan struct{}, f func()) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(d):
			f()
		}
	}
}

func pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(len(d)-1, int(float64(len(d))*p))]
}

// metric reads one unlabelled value from the server's /metrics.
func metric(metricsURL, name string) int64 {
	resp, err := http.Get(metricsURL)
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	return -1
}

// stall requests the export on a raw connection with a small receive
// buffer and reads nothing more than the first bytes until told to, then
// reports whether the response it finally reads is complete.
func stall(u *url.URL, release <-chan struct{}) (complete bool, err error) {
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	conn.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", u.RequestURI(), u.Host)
	br := bufio.NewReaderSize(conn, 4096)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return false, err
	}
	<-release
	conn.SetReadDeadline(time.Now().Add(time.Minute))
	_, err = io.Copy(io.Discard, resp.Body)
	return err == nil, err
}

func main() {
	target := flag.String("url", "", "download URL")
	c := flag.Int("c", 64, "concurrent downloads that read to the end")
	pid := flag.Int("pid", 0, "server process, for its RSS")
	out := flag.String("out", "", "folder for the files")
	stalls := flag.Int("stall", 0, "clients that stop reading after the headers")
	stallURL := flag.String("stall-url", "", "what the stalled clients download (default: -url)")
	drops := flag.Int("drop", 0, "clients that disconnect after their first 64 KiB")
	killAfter := flag.Duration("kill-after", time.Second, "when to run -kill-cmd")
	killCmd := flag.String("kill-cmd", "", "shell command run once mid-run (kills database backends)")
	metricsURL := flag.String("metrics", "", "the server's /metrics, for the fault report")
	bodies := flag.Int("body", 0, "clients that announce a body they never send")
	idles := flag.Int("idle", 0, "connections that open and send nothing")
	flag.Parse()
	if *bodies > 0 || *idles > 0 {
		holdRun(*target, *metricsURL, *c, *bodies, *idles, *pid)
		return
	}
	os.MkdirAll(*out, 0o755)
	u, err := url.Parse(*target)
	if err != nil {
		log.Fatal(err)
	}
	faults := *stalls > 0 || *drops > 0 || *killCmd != ""
	var goroutinesBefore int64
	if *metricsURL != "" {
		goroutinesBefore = metric(*metricsURL, "go_goroutines")
	}
	var peak int64
	stop := make(chan struct{})
	go every(20*time.Millisecond, stop, func() { peak = max(peak, rssKiB(*pid, "VmRSS")) })
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: *c + *drops, MaxIdleConnsPerHost: *c + *drops}}
	ttfb := make([]time.Duration, 0, *c)
	total := make([]time.Duration, 0, *c)
	var bytes int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	// How the downloads ended: complete (read to a clean end), aborted
	// (the transfer failed), refused (a status other than 200).
	ended := map[string]int{}
	count := func(k string) { mu.Lock(); ended[k]++; mu.Unlock() }
	release := make(chan struct{})
	su := u
	if *stallURL != "" {
		if su, err = url.Parse(*stallURL); err != nil {
			log.Fatal(err)
		}
	}
	var stallResults sync.WaitGroup
	for range *stalls {
		stallResults.Go(func() {
			if complete, err := stall(su, release); complete {
				count("stalled, yet complete")
			} else {
				count("stalled, seen as failed")
				if os.Getenv("LOADTEST_VERBOSE") != "" {
					log.Printf("stalled client: %v", err)
				}
			}
		})
	}
	start := time.Now()
	for i := range *drops {
		wg.Go(func() {
			resp, err := client.Get(*target)
			if err != nil {
				log.Fatalf("drop %d: %v", i, err)
			}
			io.ReadFull(resp.Body, make([]byte, 64<<10))
			resp.Body.Close() // mid-stream
			count("dropped by the client")
		})
	}
	if *killCmd != "" {
		go func() {
			time.Sleep(*killAfter)
			out, err := exec.Command("sh", "-c", *killCmd).CombinedOutput()
			log.Printf("kill command: %v %s", err, out)
		}()
	}
	var lastEnd time.Time
	for i := range *c {
		wg.Go(func() {
			t0 := time.Now()
			resp, err := client.Get(*target)
			if err != nil {
				log.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != 200 {
				if !faults {
					log.Fatalf("download %d: status %d", i, resp.StatusCode)
				}
				count(fmt.Sprintf("refused with %d", resp.StatusCode))
				return
			}
			path := filepath.Join(*out, fmt.Sprintf("d%03d.xlsx", i))
			f, _ := os.Create(path)
			buf := make([]byte, 32<<10)
			n, err := resp.Body.Read(buf)
			first := time.Since(t0)
			f.Write(buf[:n])
			m, err2 := io.CopyBuffer(f, resp.Body, buf)
			f.Close()
			mu.Lock()
			if now := time.Now(); now.After(lastEnd) {
				lastEnd = now
			}
			mu.Unlock()
			if (err != nil && err != io.EOF) || err2 != nil {
				if !faults {
					log.Fatalf("download %d: %v %v", i, err, err2)
				}
				os.Rename(path, path+".aborted")
				count("aborted, seen as failed")
				return
			}
			count("complete")
			mu.Lock()
			ttfb = append(ttfb, first)
			total = append(total, time.Since(t0))
			bytes += int64(n) + m
			mu.Unlock()
		})
	}
	wg.Wait()
	wall := time.Since(start)
	sort.Slice(ttfb, func(i, j int) bool { return ttfb[i] < ttfb[j] })
	sort.Slice(total, func(i, j int) bool { return total[i] < total[j] })
	if !faults {
		close(stop)
		fmt.Printf("%d\t%.2f\t%.1f\t%.3f\t%.3f\t%.2f\t%.2f\t%.1f\n", *c, wall.Seconds(), float64(bytes)/wall.Seconds()/(1<<20),
			pct(ttfb, 0.5).Seconds(), pct(ttfb, 0.99).Seconds(), pct(total, 0.5).Seconds(), pct(total, 0.99).Seconds(), float64(peak)/1024)
		return
	}
	// Recovery: the stalled clients still hold their sockets; the server
	// must free their slots by itself (write_timeout).
	recovered := time.Duration(-1)
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if metric(*metricsURL, "sheetstream_downloads_in_flight") == 0 {
			recovered = time.Since(lastEnd)
			break
		}
	}
	close(release)
	stallResults.Wait()
	// One more download must go through at once.
	resp, err := client.Get(*target)
	after := "failed"
	if err == nil {
		if n, err := io.Copy(io.Discard, resp.Body); err == nil && resp.StatusCode == 200 && n > 0 {
			after = "ok"
		}
		resp.Body.Close()
	}
	client.CloseIdleConnections()
	time.Sleep(500 * time.Millisecond)
	goroutinesAfter := metric(*metricsURL, "go_goroutines")
	close(stop)
	keys := make([]string, 0, len(ended))
	for k := range ended {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, ended[k]))
	}
	fmt.Printf("%s\t%.2f\t%.1f\t%.1f\t%s\t%d -> %d\n", strings.Join(parts, ", "), wall.Seconds(), recovered.Seconds(),
		float64(peak)/1024, after, goroutinesBefore, goroutinesAfter)
}

// holdRun opens the idle connections and the body clients, then runs c
// downloads beside them, and prints one tab-separated line: how the body
// clients were answered, the downloads' wall time and how they ended,
// the most connections the server reported open, its peak RSS, and its
// goroutines before, while held, and after.
func holdRun(target, metricsURL string, c, bodies, idles, pid int) {
	u, err := url.Parse(target)
	if err != nil {
		log.Fatal(err)
	}
	before := metric(metricsURL, "go_goroutines")
	var peakConns, peakRSS int64
	stop := make(chan struct{})
	go every(50*time.Millisecond, stop, func() {
		peakConns = max(peakConns, metric(metricsURL, "sheetstream_http_connections"))
		peakRSS = max(peakRSS, rssKiB(pid, "VmRSS"))
	})
	var held []net.Conn
	for range idles {
		conn, err := net.Dial("tcp", u.Host)
		if err != nil {
			log.Fatalf("idle connection: %v", err)
		}
		held = append(held, conn)
	}
	var mu sync.Mutex
	answers := map[string]int{}
	var slowest time.Duration
	var bodyWG sync.WaitGroup
	for i := range bodies {
		bodyWG.Go(func() {
			conn, err := net.Dial("tcp", u.Host)
			if err != nil {
				log.Fatalf("body client: %v", err)
			}
			defer conn.Close()
			framing := "Content-Length: 1000"
			if i%2 == 1 {
				framing = "Transfer-Encoding: chunked"
			}
			t0 := time.Now()
			fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\n%s\r\n\r\n", u.RequestURI(), u.Host, framing)
			conn.SetReadDeadline(time.Now().Add(3 * time.Minute))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			k := "no answer"
			if err == nil {
				k = strconv.Itoa(resp.StatusCode)
			}
			mu.Lock()
			answers[k]++
			slowest = max(slowest, time.Since(t0))
			mu.Unlock()
		})
	}
	time.Sleep(500 * time.Millisecond)
	during := metric(metricsURL, "go_goroutines")
	start := time.Now()
	ended := map[string]int{}
	var wg sync.WaitGroup
	for range c {
		wg.Go(func() {
			resp, err := http.Get(target)
			k := "failed"
			if err == nil {
				if _, err := io.Copy(io.Discard, resp.Body); err == nil {
					k = strconv.Itoa(resp.StatusCode)
				}
				resp.Body.Close()
			}
			mu.Lock()
			ended[k]++
			mu.Unlock()
		})
	}
	wg.Wait()
	wall := time.Since(start)
	bodyWG.Wait()
	for _, conn := range held {
		conn.Close()
	}
	time.Sleep(time.Second)
	after := metric(metricsURL, "go_goroutines")
	close(stop)
	fmt.Printf("%v in %.2f s at most\t%v in %.2f s\t%d\t%.1f\t%d -> %d -> %d\n", answers, slowest.Seconds(), ended, wall.Seconds(),
		peakConns, float64(peakRSS)/1024, before, during, after)
}
