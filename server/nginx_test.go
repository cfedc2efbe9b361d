package server

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sheetstream/sheetstream/internal/testenv"
)

// nginxConf proxies to the service the way a deployment would, with
// buffers large enough to hold a whole download: only the service's
// X-Accel-Buffering header makes nginx pass the workbook on as it comes.
const nginxConf = `daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path %[1]s/body;
  proxy_temp_path %[1]s/proxy;
  fastcgi_temp_path %[1]s/fastcgi;
  uwsgi_temp_path %[1]s/uwsgi;
  scgi_temp_path %[1]s/scgi;
  server {
    listen %[2]s;
    location / {
      proxy_pass http://%[3]s;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_buffering on;
      proxy_buffer_size 1m;
      proxy_buffers 256 1m;
      proxy_busy_buffers_size 2m;
      proxy_max_temp_file_size 4096m;
    }
  }
}
`

// TestBehindNginx runs the service behind a real nginx (Debian's): a
// whole download comes through intact; the first bytes of a large export
// reach the client while the export is still running; and the export
// feels its client's pace through the proxy (nginx does not soak it up
// into its buffers), so a client that stops reading loses its download
// after write_timeout, as it would without nginx.
func TestBehindNginx(t *testing.T) {
	nginx := testenv.Get(t, "SHEETSTREAM_NGINX", "installs Debian's nginx")
	f := newFixture(t, 2, "write_timeout: 1s")
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	proxyAddr := ln.Addr().String()
	ln.Close()
	conf := filepath.Join(dir, "nginx.conf")
	os.WriteFile(conf, []byte(fmt.Sprintf(nginxConf, dir, proxyAddr, f.ts.Listener.Addr())), 0o644)
	cmd := exec.Command(nginx, "-c", conf, "-p", dir, "-e", filepath.Join(dir, "error.log"))
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	proxy := "http://" + proxyAddr
	for i := 0; ; i++ {
		if resp, err := http.Get(proxy + "/healthz"); err == nil {
			resp.Body.Close()
			break
		}
		if i > 100 {
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Fatalf("nginx did not start: %s %s", out.String(), log)
		}
		time.Sleep(50 * time.Millisecond)
	}

	// A whole download through the proxy.
	resp, err := http.Get(proxy + "/exports/items.xlsx?from=4998&kind=a")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || strings.Join(readBook(t, body)["Items"], ",") != "id|name|price|day|ok,4998|item 4998|1249.5|2025-09-11T00:00:00|FALSE,5000|item 5000|1250|2025-09-13T00:00:00|FALSE" {
		t.Fatalf("through nginx: %d %v", resp.StatusCode, err)
	}

	// A large one streams: its first bytes arrive while it runs. (Of
	// incompressible text, so that it outgrows nginx's buffers and the
	// socket buffers quickly, under the race detector too.)
	start := time.Now()
	resp, err = http.Get(proxy + "/exports/noise.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.ReadFull(resp.Body, make([]byte, 64<<10)); err != nil {
		t.Fatal(err)
	}
	first := time.Since(start)
	if f.metric("sheetstream_downloads_in_flight") != "1" || f.metric(`sheetstream_downloads_total{export="noise",status="ok"}`) != "" {
		t.Errorf("the first 64 KiB came after %v, once the export had ended: nginx buffered the download", first)
	}
	t.Logf("first 64 KiB of a 40,000-row export of 1,200-character texts through nginx after %v", first)
	// The client reads no more. Buffering, nginx would take the whole
	// export into its buffers and temporary file and the export would end
	// "ok"; streaming, the export waits for the client and is abandoned.
	deadline := time.Now().Add(30 * time.Second)
	for f.metric(`sheetstream_downloads_total{export="noise",status="stalled"}`) != "1" {
		if ok := f.metric(`sheetstream_downloads_total{export="noise",status="ok"}`); ok != "" || time.Now().After(deadline) {
			t.Fatalf("a client that stopped reading behind nginx: the export ended ok=%q after %v; nginx soaked it up", ok, time.Since(start))
		}
		time.Sleep(50 * time.Millisecond)
	}
}
