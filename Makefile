.PHONY: test lint test-go race fuzz build build-lite demo bench

# Every check, as CI runs it: installs the test readers, LibreOffice,
# Chromium and nginx when missing, starts throwaway database servers.
test:
	./scripts/test.sh

# The stages of `make test`, alone.
lint:
	./scripts/test.sh lint
test-go:
	./scripts/test.sh go
race:
	./scripts/test.sh race
fuzz:
	./scripts/test.sh fuzz

# Without cgo: a static binary, and 2 MiB less at start (no libc mapped).
build:
	CGO_ENABLED=0 go build -o bin/sheetstream ./cmd/sheetstream

# The library's commands without the service, Arrow and Parquet (export,
# import, convert, cat, info): 27 MB instead of 69, 10 MiB at start
# instead of 24.
build-lite:
	CGO_ENABLED=0 go build -tags lite -o bin/sheetstream-lite ./cmd/sheetstream

# The export service over the demo shop, at http://127.0.0.1:8080/.
demo:
	go run ./cmd/sheetstream serve --demo

# Every benchmark against the peers (about 40 minutes; see bench/README.md).
bench:
	bench/all.sh
