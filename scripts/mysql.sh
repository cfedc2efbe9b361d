#!/usr/bin/env bash
# Starts a throwaway MariaDB server for the tests and prints the export
# line for its URL; `mysql.sh stop DIR` stops it and removes its files.
# Installs Debian's mariadb-server when it is missing. Grant tables are
# skipped: the server listens on loopback only and lives for one test run.
set -euo pipefail

if [ "${1:-}" = stop ]; then
  dir=$2
  if [ -f "$dir/pid" ]; then
    pid=$(cat "$dir/pid")
    kill "$pid" 2>/dev/null || true
    # Wait for the shutdown before removing its files; kill it after 30 s.
    for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -rf "$dir"
  exit 0
fi

if ! command -v mariadbd >/dev/null 2>&1; then
  echo "== installing MariaDB" >&2
  . "$(dirname "$0")/apt.sh"
  apt_install mariadb-server
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/sheetstream-mysql.XXXXXX")
user=$(id -un)
if [ "$(id -u)" = 0 ]; then
  chown mysql "$dir"
  user=mysql
fi
port=$(( 40000 + RANDOM % 20000 ))
mariadb-install-db --no-defaults --datadir="$dir/data" --user="$user" --auth-root-authentication-method=normal >"$dir/install.log" 2>&1
mariadbd --no-defaults --datadir="$dir/data" --socket="$dir/sock" --port="$port" --bind-address=127.0.0.1 \
  --user="$user" --skip-grant-tables --skip-log-bin --innodb-flush-log-at-trx-commit=0 >"$dir/server.log" 2>&1 &
echo $! > "$dir/pid"
for _ in $(seq 100); do
  mariadb-admin --no-defaults --socket="$dir/sock" ping >/dev/null 2>&1 && break
  sleep 0.1
done
mariadb --no-defaults --socket="$dir/sock" -e "CREATE DATABASE IF NOT EXISTS sheetstream" >&2
echo "export SHEETSTREAM_MYSQL_URL='mysql://root@127.0.0.1:$port/sheetstream' SHEETSTREAM_MYSQL_DIR='$dir'"
