#!/usr/bin/env bash
# Authentication under load (issue 32), on this machine:
#
#   A1: 200 requests a second for a minute (-d) to GET /api/exports of a
#       sheetstream serve behind Keycloak (auth.oidc), with the access
#       tokens of five users in turn: the service's own histogram of its
#       authentication step (p99, share under 1 ms), the fetches of the
#       issuer's keys during the load (want 0: they are cached since the
#       start), whole requests as the client saw them, peak RSS.
#
# Starts Keycloak (scripts/keycloak.sh) unless SHEETSTREAM_OIDC_ISSUER is
# set. Prints a markdown table.
#
#   bench/auth.sh [-d duration] [-r rate]
set -euo pipefail
cd "$(dirname "$0")"
duration=60s
rate=200
while getopts "d:r:" opt; do
  case $opt in
    d) duration=$OPTARG ;;
    r) rate=$OPTARG ;;
    *) exit 2 ;;
  esac
done
mkdir -p bin out/auth
(cd .. && go build -o bench/bin/sheetstream ./cmd/sheetstream)
go build -o bin/ ./cmd/authload
dir=$PWD/out/auth
rm -rf "${dir:?}"/*
pids=()
started_kc=
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -z "$started_kc" ] || ../scripts/keycloak.sh stop "$SHEETSTREAM_KEYCLOAK_DIR"
}
trap cleanup EXIT
if [ -z "${SHEETSTREAM_OIDC_ISSUER:-}" ]; then
  eval "$(../scripts/keycloak.sh)"
  started_kc=1
fi
python3 -c "import sqlite3; c = sqlite3.connect('$dir/shop.db'); c.execute('CREATE TABLE t (id INTEGER, region TEXT)'); c.commit()"
cat > "$dir/exports.yaml" <<YAML
database: sqlite:$dir/shop.db
auth:
  admin_groups: [ops]
  oidc: {issuer: "$SHEETSTREAM_OIDC_ISSUER", audience: sheetstream}
exports:
  - name: sales
    allow: [group:sales]
    params: [{name: region, from: "claim:region"}]
    sheets: [{sql: "SELECT id, region FROM t WHERE region = :region"}]
  - name: payroll
    allow: [group:finance]
    sheets: [{sql: SELECT 1}]
YAML
port=18195
bin/sheetstream serve --config "$dir/exports.yaml" --listen 127.0.0.1:$port 2>"$dir/serve.log" &
server=$!; pids+=("$server")
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
token() {
  curl -sSf -d grant_type=password -d client_id=sheetstream-page -d client_secret=page-client-secret \
    -d "username=$1" -d "password=$1-password" "$SHEETSTREAM_OIDC_ISSUER/protocol/openid-connect/token" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])'
}
for u in alice bob carol fin ops; do token "$u"; done > "$dir/tokens.txt"
echo "A1: $rate requests/s for $duration, GET /api/exports with 5 users' Keycloak access tokens (RS256), $(nproc) cores"
echo
bin/authload -url "http://127.0.0.1:$port/api/exports" -tokens "$dir/tokens.txt" -rate "$rate" -duration "$duration" \
  -metrics-token "$(sed -n 5p "$dir/tokens.txt")" -pid "$server"
