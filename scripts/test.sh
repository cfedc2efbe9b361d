#!/usr/bin/env bash
# The project's test command (README: `make test`; CI calls it too).
# Installs what the tests need (cached under ~/.cache/sheetstream), then
# runs the stages named, or all of them in this order:
#
#   lint   gofmt, go vet, staticcheck                      (make lint)
#   go     go test ./..., with the readers, LibreOffice, Chromium, nginx
#          and throwaway PostgreSQL, MariaDB and S3 servers (make test-go)
#   race   the race detector over the concurrent code      (make race)
#   fuzz   a short pass of every fuzz target               (make fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/apt.sh

stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(lint go race fuzz)
for stage in "${stages[@]}"; do
  case $stage in
    lint|go|race|fuzz) ;;
    *) echo "test.sh: unknown stage $stage (lint, go, race, fuzz)" >&2; exit 2 ;;
  esac
done

cache="${XDG_CACHE_HOME:-$HOME/.cache}/sheetstream"
mkdir -p "$cache"

# What the tests read with and run against.
test_tools() {
  # Python readers and validator, in a virtualenv keyed by the requirements.
  req_hash=$(sha256sum requirements-test.txt | cut -c1-12)
  venv="$cache/venv-$req_hash"
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import openpyxl, python_calamine, openxml_audit, msoffcrypto, xlrd, PIL, pyarrow, pytest, pandas, polars, fastexcel, build' 2>/dev/null; then
    echo "== installing test readers into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r requirements-test.txt
  fi
  export SHEETSTREAM_PYTHON="$venv/bin/python"

  # LibreOffice, which re-saves workbooks in the tests.
  if ! command -v soffice >/dev/null 2>&1; then
    echo "== installing LibreOffice"
    apt_install libreoffice-calc-nogui 2>/dev/null
  fi
  export SHEETSTREAM_SOFFICE="$(command -v soffice)"
  # Its Python bridge, with which the tests ask it to check passwords.
  if ! /usr/bin/python3 -c "import uno" >/dev/null 2>&1; then
    echo "== installing python3-uno"
    apt_install python3-uno 2>/dev/null
  fi

  # nginx, the reverse proxy the service is tested behind.
  if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
    echo "== installing nginx"
    apt_install nginx-light 2>/dev/null
  fi
  export SHEETSTREAM_NGINX="$(command -v nginx || echo /usr/sbin/nginx)"

  # Chromium and playwright-core, for the web page's end-to-end test.
  if [ ! -x /usr/bin/chromium ]; then
    echo "== installing Chromium"
    apt_install chromium 2>/dev/null
  fi
  export SHEETSTREAM_CHROMIUM=/usr/bin/chromium
  playwright_version=1.65.1
  node_dir="$cache/node-playwright-$playwright_version"
  if [ ! -d "$node_dir/node_modules/playwright-core" ]; then
    echo "== installing playwright-core $playwright_version"
    mkdir -p "$node_dir"
    (cd "$node_dir" && npm install --silent --no-audit --no-fund "playwright-core@$playwright_version") >/dev/null
  fi
  export SHEETSTREAM_NODE_MODULES="$node_dir/node_modules"
}

staticcheck_tool() {
  # staticcheck, pinned.
  staticcheck_version=v0.8.2
  sc="$cache/bin/staticcheck-$staticcheck_version"
  if [ ! -x "$sc" ]; then
    echo "== installing staticcheck $staticcheck_version"
    GOBIN="$cache/bin/tmp" go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version"
    mv "$cache/bin/tmp/staticcheck" "$sc"
  fi
}

# Throwaway PostgreSQL, MariaDB, S3 (versitygw) and OpenID Connect
# (Keycloak) servers, stopped when the tests end; Mailpit built for the
# mail tests, which start their own SMTP servers from it. Keycloak takes the
# longest to start (about 30 s), so it starts first, beside the others.
servers_started=
start_servers() {
  [ -z "$servers_started" ] || return 0
  echo "== starting PostgreSQL, MariaDB, an S3 server and Keycloak"
  kc_env=$(mktemp)
  ./scripts/keycloak.sh >"$kc_env" &
  kc_pid=$!
  eval "$(./scripts/postgres.sh)"
  eval "$(./scripts/mysql.sh)"
  eval "$(./scripts/s3.sh)"
  eval "$(./scripts/mailpit.sh)"
  trap './scripts/postgres.sh stop "$SHEETSTREAM_PG_DIR"; ./scripts/mysql.sh stop "$SHEETSTREAM_MYSQL_DIR"; ./scripts/s3.sh stop "$SHEETSTREAM_S3_DIR"; [ -z "${SHEETSTREAM_KEYCLOAK_DIR:-}" ] || ./scripts/keycloak.sh stop "$SHEETSTREAM_KEYCLOAK_DIR"' EXIT
  if ! wait "$kc_pid"; then
    echo "Keycloak did not start" >&2
    exit 1
  fi
  eval "$(cat "$kc_env")"
  rm -f "$kc_env"
  servers_started=1
}

stage_lint() {
  staticcheck_tool
  echo "== gofmt"
  unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
  if [ -n "$unformatted" ]; then
    echo "gofmt would change: $unformatted" >&2
    exit 1
  fi
  echo "== go vet"
  go vet ./...
  go vet -tags lite ./cmd/sheetstream
  echo "== staticcheck"
  "$sc" ./...
  "$sc" -tags lite ./cmd/sheetstream
}

stage_go() {
  test_tools
  start_servers
  echo "== go test"
  go test -count=1 ./...
  echo "== python package (pip install ./python, then pytest)"
  "$SHEETSTREAM_PYTHON" -m pip install --quiet --disable-pip-version-check --no-build-isolation --no-deps --force-reinstall ./python
  (cd "$(mktemp -d)" && "$SHEETSTREAM_PYTHON" -m pytest -q -p no:cacheprovider "$OLDPWD/python/tests")
}

stage_race() {
  test_tools
  start_servers
  # The packages that start goroutines, or whose tests drive them (xlsx:
  # the reader's parse workers and concurrent sheets; csvsheet: rows typed
  # and written on two goroutines; internal/deflate's
  # workers; sqlsheet's scanner and COPY feeder; the service; SQLite's
  # interrupt from another goroutine; River's workers and the schedules;
  # S3 uploads), whole. -short leaves out the checks
  # by outside readers, which the race detector cannot see into and the go
  # stage runs.
  echo "== go test -race -short (the packages that run goroutines)"
  go test -count=1 -race -short ./internal/... ./xlsx/ ./csvsheet/ ./sqlsheet/ ./server/ ./jobs/ ./storage/ ./auth/
}

stage_fuzz() {
  echo "== short fuzz pass (the seed corpus runs in go test above)"
  # Counts, not durations: a duration -fuzztime fails spuriously with
  # "context deadline exceeded" on Go 1.26 (golang/go#75804).
  fuzz() {
    local out
    out=$(go test -run XXX -fuzz "^$2\$" -fuzztime "$3" "$1" 2>&1) || { echo "$out"; return 1; }
  }
  fuzz ./internal/xmlscan/ FuzzScanner 200000x
  fuzz ./internal/xmlscan/ FuzzScannerAgainstEncodingXML 50000x
  fuzz ./internal/cfb/ FuzzReader 50000x
  fuzz ./internal/biff12/ FuzzReader 100000x
  fuzz ./xlsx/ FuzzXLSBSheet 8000x
  fuzz ./internal/biff8/ FuzzReader 50000x
  fuzz ./internal/biff8/ FuzzCursor 50000x
  fuzz ./internal/biff8/ FuzzFormulaText 50000x
  fuzz ./xlsx/ FuzzXLSSheet 8000x
  fuzz ./internal/ods/ FuzzReader 50000x
  fuzz ./xlsx/ FuzzODSContent 5000x
  fuzz ./internal/offcrypto/ FuzzOpen 2000x
  fuzz ./sqlsheet/ FuzzParseTableRange 50000x
  fuzz ./sqlsheet/ FuzzFindHeader 20000x
  fuzz ./sqlsheet/ FuzzSafeSQLType 20000x
  fuzz ./sqlsheet/ FuzzDecimalFits 50000x
  fuzz ./sqlsheet/ FuzzCopyLines 50000x
  fuzz ./sqlsheet/ FuzzEnumValues 50000x
  fuzz ./xlsx/ FuzzApproxDecimal 100000x
  fuzz ./xlsx/ FuzzAppendFewDecimals 200000x
  fuzz ./xlsx/ FuzzWallClock 200000x
  fuzz ./xlsx/ FuzzCompileCalc 100000x
  # Few runs: hostile Parquet page headers make the library allocate up
  # to 2 GiB a field, which a long run in one process accumulates.
  fuzz ./parquetsheet/ FuzzReader 3000x
  fuzz ./arrowsheet/ FuzzReadSheet 3000x
  fuzz ./csvsheet/ FuzzInfer 50000x
  fuzz ./xlsx/ FuzzParsePivot 20000x
  fuzz ./xlsx/ FuzzPivotItems 3000x
  fuzz ./csvsheet/ FuzzDateFormat 50000x
  fuzz ./internal/csvscan/ FuzzSameAsEncodingCSV 50000x
  fuzz ./internal/csvscan/ FuzzLineQuotes 50000x
  fuzz ./csvsheet/ FuzzCommaNumber 50000x
  fuzz ./internal/numtext/ FuzzCanonical 50000x
  fuzz ./internal/numtext/ FuzzPadded 50000x
  fuzz ./csvsheet/ FuzzTable 20000x
  fuzz ./xlsx/ FuzzStructTag 50000x
  fuzz ./xlsx/ FuzzChartText 5000x
  fuzz ./xlsx/ FuzzTemplate 1000x
  fuzz ./xlsx/ FuzzValueBinary 50000x
  fuzz ./xlsx/ FuzzParseNumber 100000x
  fuzz ./internal/numtext/ FuzzParse 100000x
  fuzz ./xlsx/ FuzzSheetXML 5000x
  fuzz ./xlsx/ FuzzPackage 50000x
  fuzz ./xlsx/ FuzzSharedStrings 50000x
  fuzz ./xlsx/ FuzzStyles 50000x
  fuzz ./xlsx/ FuzzTextRoundTrip 3000x
  fuzz ./xlsx/ FuzzCellText 3000x
  fuzz ./xlsx/ FuzzTable 3000x
  fuzz ./xlsx/ FuzzReportStrings 3000x
  fuzz ./xlsx/ FuzzReadImage 50000x
  fuzz ./internal/inflate/ FuzzInflate 100000x
  fuzz ./internal/inflate/ FuzzRoundTrip 5000x
  fuzz ./internal/numtext/ FuzzPlain 100000x
  fuzz ./internal/isotime/ FuzzParse 100000x
  fuzz ./server/ FuzzParseQuery 20000x
  fuzz ./auth/ FuzzAuthHeader 20000x
  fuzz ./storage/ FuzzCheckKey 50000x
}

for stage in "${stages[@]}"; do
  "stage_$stage"
done
