// Command authload sends requests at a steady rate to a running
// sheetstream serve, each with one of a set of bearer tokens (an OpenID
// Connect issuer's), and reports the service's own measure of its
// authentication step (the sheetstream_auth_seconds histogram, read from
// /metrics before and after), the fetches of the issuer's keys during the
// load, the client's view of whole requests, and the server's peak RSS.
//
//	authload -url http://127.0.0.1:8080/api/exports -tokens tokens.txt \
//	    -rate 200 -duration 60s -metrics-token "$(head -1 admin.txt)" -pid 1234
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	target := flag.String("url", "", "the URL to GET")
	tokenFile := flag.String("tokens", "", "bearer tokens, one a line, used in turn")
	rate := flag.Int("rate", 200, "requests a second")
	duration := flag.Duration("duration", time.Minute, "how long")
	metricsToken := flag.String("metrics-token", "", "a token that may read /metrics")
	pid := flag.Int("pid", 0, "the server's process id, for its peak RSS")
	flag.Parse()
	tokens := readLines(*tokenFile)
	if *target == "" || len(tokens) == 0 {
		log.Fatal("authload: -url and -tokens are required")
	}
	base := (*target)[:strings.Index((*target)[len("http://"):], "/")+len("http://")]
	before := scrape(base+"/metrics", *metricsToken)

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}, Timeout: 10 * time.Second}
	var (
		mu       sync.Mutex
		lat      []time.Duration
		statuses = map[int]int{}
		wg       sync.WaitGroup
	)
	tick := time.NewTicker(time.Second / time.Duration(*rate))
	defer tick.Stop()
	end := time.Now().Add(*duration)
	var peak int64
	for i := 0; time.Now().Before(end); i++ {
		<-tick.C
		if i%(*rate) == 0 && *pid > 0 {
			peak = max(peak, rssKiB(*pid))
		}
		wg.Add(1)
		go func(token string) {
			defer wg.Done()
			req, _ := http.NewRequest("GET", *target, nil)
			req.Header.Set("Authorization", "Bearer "+token)
			start := time.Now()
			resp, err := client.Do(req)
			code := 0
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				code = resp.StatusCode
			}
			d := time.Since(start)
			mu.Lock()
			lat = append(lat, d)
			statuses[code]++
			mu.Unlock()
		}(tokens[i%len(tokens)])
	}
	wg.Wait()
	if *pid > 0 {
		peak = max(peak, rssKiB(*pid))
	}
	after := scrape(base+"/metrics", *metricsToken)

	slices.Sort(lat)
	q := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	n := after["sheetstream_auth_seconds_count"] - before["sheetstream_auth_seconds_count"]
	sum := after["sheetstream_auth_seconds_sum"] - before["sheetstream_auth_seconds_sum"]
	var bounds []float64
	for k := range after {
		if le, ok := strings.CutPrefix(k, `sheetstream_auth_seconds_bucket{le="`); ok {
			if v, err := strconv.ParseFloat(strings.TrimSuffix(le, `"}`), 64); err == nil {
				bounds = append(bounds, v)
			}
		}
	}
	slices.Sort(bounds)
	bucket := func(le float64) float64 {
		k := fmt.Sprintf(`sheetstream_auth_seconds_bucket{le="%g"}`, le)
		return after[k] - before[k]
	}
	p99 := "over the largest bucket"
	for _, le := range bounds {
		if bucket(le) >= 0.99*n {
			p99 = fmt.Sprintf("≤ %g ms", le*1000)
			break
		}
	}
	fmt.Printf("| requests | statuses | auth steps | auth mean | auth p99 | auth ≤ 1 ms | key fetches during load | request p50 | request p99 | peak RSS |\n")
	fmt.Printf("|---|---|---|---|---|---|---|---|---|---|\n")
	fmt.Printf("| %d | %v | %.0f | %.0f µs | %s | %.2f%% | %.0f | %.2f ms | %.2f ms | %.1f MiB |\n",
		len(lat), statuses, n, sum/n*1e6, p99, 100*bucket(0.001)/n,
		after["sheetstream_oidc_key_fetches_total"]-before["sheetstream_oidc_key_fetches_total"],
		float64(q(0.5).Microseconds())/1000, float64(q(0.99).Microseconds())/1000, float64(peak)/1024)
	fmt.Fprintf(os.Stderr, "key fetches since the service started: %.0f\n", after["sheetstream_oidc_key_fetches_total"])
}

// scrape reads a Prometheus text page's samples.
func scrape(url, token string) map[string]float64 {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		log.Fatalf("authload: %s: %s", url, resp.Status)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		if v, err := strconv.ParseFloat(line[i+1:], 64); err == nil {
			out[line[:i]] = v
		}
	}
	return out
}

func readLines(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func rssKiB(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			n, _ := strconv.ParseInt(strings.Fields(line)[1], 10, 64)
			return n
		}
	}
	return 0
}
