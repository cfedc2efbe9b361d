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

# A pair: bin/sheetstream, the lite build (the library's commands: export,
# import, convert, cat, info; 10 MiB at start instead of 24), which hands
# the service's commands and Parquet and Arrow to bin/sheetstream-full
# beside it (the full build) by exec. Without cgo: static binaries, and
# 2 MiB less at start (no libc mapped).
build:
	CGO_ENABLED=0 go build -tags lite -o bin/sheetstream ./cmd/sheetstream
	CGO_ENABLED=0 go build -o bin/sheetstream-full ./cmd/sheetstream

# The lite build alone (27 MB instead of 69): the service's commands and
# the columnar conversions say where the full build is.
build-lite:
	CGO_ENABLED=0 go build -tags lite -o bin/sheetstream-lite ./cmd/sheetstream

# The export service over the demo shop, at http://127.0.0.1:8080/.
demo:
	go run ./cmd/sheetstream serve --demo

# Every benchmark against the peers (about 40 minutes; see bench/README.md).
bench:
	bench/all.sh
