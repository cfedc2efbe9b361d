#!/usr/bin/env bash
# Starts a throwaway Keycloak (an OpenID Connect provider) for the tests,
# on a random loopback port, with an in-memory database and the test realm
# of auth/testdata/keycloak-realm.json (users, groups, a region attribute
# mapped into tokens), and prints the export lines for its issuer and
# admin login; `keycloak.sh stop DIR` stops it. Downloads Keycloak once
# (160 MB from Maven Central, checked against its SHA-256) into the test
# command's cache; its first start there also builds it (about 20 s more).
set -euo pipefail
version=26.4.5
sha256=72f73642a2c36de797d51b4b2b342d4a49f6e5832af10aa470cd123627bd80b3
cache="${XDG_CACHE_HOME:-$HOME/.cache}/sheetstream"
home="$cache/keycloak-$version"
here=$(cd "$(dirname "$0")/.." && pwd)

if [ "${1:-}" = stop ]; then
  dir=$2
  if [ -f "$dir/pid" ]; then
    pid=$(cat "$dir/pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -rf "$dir"
  exit 0
fi

if [ ! -x "$home/bin/kc.sh" ]; then
  echo "== downloading Keycloak $version (once)" >&2
  mkdir -p "$cache"
  zip="$cache/keycloak-$version.zip"
  curl -sSfL -o "$zip" "https://repo1.maven.org/maven2/org/keycloak/keycloak-quarkus-dist/$version/keycloak-quarkus-dist-$version.zip"
  echo "$sha256  $zip" | sha256sum -c --quiet - >&2
  rm -rf "$home.tmp" && mkdir -p "$home.tmp"
  if command -v unzip >/dev/null; then
    unzip -q "$zip" -d "$home.tmp"
  else
    python3 -m zipfile -e "$zip" "$home.tmp"
    chmod +x "$home.tmp/keycloak-$version"/bin/*.sh
  fi
  mv "$home.tmp/keycloak-$version" "$home"
  rm -rf "$home.tmp" "$zip"
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/sheetstream-keycloak.XXXXXX")
mkdir -p "$dir/import"
cp "$here/auth/testdata/keycloak-realm.json" "$dir/import/"
port=$(( 20000 + RANDOM % 20000 ))
admin=admin
password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
# dev-mem: a database in memory, so every run starts afresh; the realm is
# created through the admin API once the server answers, so the cached
# install is shared by runs and never written to but for its build.
KC_BOOTSTRAP_ADMIN_USERNAME=$admin KC_BOOTSTRAP_ADMIN_PASSWORD=$password \
  JAVA_OPTS_APPEND="-Xms64m -Xmx768m" \
  nohup "$home/bin/kc.sh" start-dev --db=dev-mem --http-host=127.0.0.1 --http-port="$port" \
  >"$dir/server.log" 2>&1 &
echo $! > "$dir/pid"
trap 'if [ -n "${failed:-}" ]; then "$0" stop "$dir"; fi' EXIT
failed=1
base="http://127.0.0.1:$port"
issuer="$base/realms/sheetstream"
for _ in $(seq 1800); do
  curl -sf -o /dev/null "$base/realms/master/.well-known/openid-configuration" && break
  if ! kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
    echo "Keycloak did not start:" >&2
    tail -30 "$dir/server.log" >&2
    exit 1
  fi
  sleep 0.1
done
if ! curl -sf -o /dev/null "$base/realms/master/.well-known/openid-configuration"; then
  echo "Keycloak did not answer within 3 minutes:" >&2
  tail -30 "$dir/server.log" >&2
  exit 1
fi
admin_token=$(curl -sSf -d grant_type=password -d client_id=admin-cli --data-urlencode "username=$admin" \
  --data-urlencode "password=$password" "$base/realms/master/protocol/openid-connect/token" |
  sed -E 's/.*"access_token":"([^"]+)".*/\1/')
curl -sSf -o /dev/null -H "Authorization: Bearer $admin_token" -H 'Content-Type: application/json' \
  --data-binary @"$dir/import/keycloak-realm.json" "$base/admin/realms" >&2
curl -sSf -o /dev/null "$issuer/.well-known/openid-configuration" >&2
failed=
echo "export SHEETSTREAM_OIDC_ISSUER='$issuer' SHEETSTREAM_KEYCLOAK_URL='$base' SHEETSTREAM_KEYCLOAK_ADMIN='$admin:$password' SHEETSTREAM_KEYCLOAK_DIR='$dir'"
