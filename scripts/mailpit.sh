#!/usr/bin/env bash
# Builds Mailpit (a real SMTP server with an HTTP API to read what it
# received) once into the test command's cache and prints the export line
# naming it: the mail tests start their own servers from it, each with the
# flags its case needs (STARTTLS, authentication, refused recipients, a
# server down and then up).
set -euo pipefail
version=v1.33.1
cache="${XDG_CACHE_HOME:-$HOME/.cache}/sheetstream"
bin="$cache/bin/mailpit-$version"
if [ ! -x "$bin" ]; then
  echo "== building Mailpit $version (once)" >&2
  mkdir -p "$cache/bin"
  GOBIN="$cache/bin/mailpit-build" go install "github.com/axllent/mailpit@$version" >&2
  mv "$cache/bin/mailpit-build/mailpit" "$bin"
  rm -rf "$cache/bin/mailpit-build"
fi
echo "export SHEETSTREAM_MAILPIT='$bin'"
