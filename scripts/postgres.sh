#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server for the tests and prints the export
# line for its URL; `postgres.sh stop DIR` stops it and removes its files.
# Installs PostgreSQL from Debian when it is missing.
set -euo pipefail

# The server's programs: initdb and pg_ctl on PATH, or Debian's newest
# /usr/lib/postgresql/VERSION/bin (Debian does not put them on PATH).
server_path() {
  command -v initdb >/dev/null 2>&1 && return 0
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$bin" ] || return 1
  export PATH="$bin:$PATH"
}

if [ "${1:-}" = stop ]; then
  dir=$2
  server_path || true
  as_pg=""
  [ "$(id -u)" = 0 ] && as_pg="runuser -u postgres --"
  $as_pg pg_ctl -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  exit 0
fi

if ! server_path; then
  echo "== installing PostgreSQL" >&2
  . "$(dirname "$0")/apt.sh"
  apt_install postgresql
  server_path
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/sheetstream-pg.XXXXXX")
as_pg=""
if [ "$(id -u)" = 0 ]; then
  # initdb refuses to run as root.
  chown postgres "$dir"
  as_pg="runuser -u postgres --"
fi
port=$(( 20000 + RANDOM % 20000 ))
$as_pg initdb -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1
$as_pg pg_ctl -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off" start >&2
echo "export SHEETSTREAM_PG_URL='postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable' SHEETSTREAM_PG_DIR='$dir'"
