.PHONY: test lint test-go race fuzz build demo bench

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

build:
	go build -o bin/sheetstream ./cmd/sheetstream

# The export service over the demo shop, at http://127.0.0.1:8080/.
demo:
	go run ./cmd/sheetstream serve --demo

# Every benchmark against the peers (about 40 minutes; see bench/README.md).
bench:
	bench/all.sh
