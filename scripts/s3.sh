#!/usr/bin/env bash
# Starts a throwaway S3 server for the tests (versitygw over a temporary
# folder, on a random loopback port, with a bucket "sheetstream") and
# prints the export lines for its URL and credentials; `s3.sh stop DIR`
# stops it and removes its files. Builds versitygw once (about two
# minutes) into the test command's cache.
set -euo pipefail
version=v1.8.0
cache="${XDG_CACHE_HOME:-$HOME/.cache}/sheetstream"
bin="$cache/bin/versitygw-$version"

if [ "${1:-}" = stop ]; then
  dir=$2
  [ -f "$dir/pid" ] && kill "$(cat "$dir/pid")" 2>/dev/null || true
  rm -rf "$dir"
  exit 0
fi

if [ ! -x "$bin" ]; then
  echo "== building versitygw $version (once)" >&2
  mkdir -p "$cache/bin"
  GOBIN="$cache/bin/versitygw-build" go install "github.com/versity/versitygw/cmd/versitygw@$version" >&2
  mv "$cache/bin/versitygw-build/versitygw" "$bin"
  rm -rf "$cache/bin/versitygw-build"
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/sheetstream-s3.XXXXXX")
mkdir -p "$dir/data/sheetstream"
port=$(( 20000 + RANDOM % 20000 ))
key=sheetstream-test
secret=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
ROOT_ACCESS_KEY=$key ROOT_SECRET_KEY=$secret nohup "$bin" --port "127.0.0.1:$port" posix "$dir/data" >"$dir/server.log" 2>&1 &
echo $! > "$dir/pid"
for _ in $(seq 100); do
  curl -s -o /dev/null "http://127.0.0.1:$port/" && break
  sleep 0.1
done
echo "export SHEETSTREAM_S3_URL='s3://sheetstream?endpoint=http://127.0.0.1:$port&region=us-east-1' SHEETSTREAM_S3_DIR='$dir' SHEETSTREAM_S3_ACCESS_KEY='$key' SHEETSTREAM_S3_SECRET_KEY='$secret'"
