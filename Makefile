.PHONY: test build demo bench

# Installs the test readers (Python virtualenv) and runs every check.
test:
	./scripts/test.sh

build:
	go build -o bin/sheetstream ./cmd/sheetstream
