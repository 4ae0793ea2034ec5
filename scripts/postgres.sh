#!/usr/bin/env bash
# postgres.sh up|down|url — a throwaway PostgreSQL for the tests, on 127.0.0.1 only.
# Uses Debian's postgresql package (installed by scripts/system-packages.sh); all state lives in
# $PG_DIR (default /tmp/moderator-test/pg); nothing under /etc or /var/lib/postgresql is touched.
set -euo pipefail
PG_DIR=${PG_DIR:-/tmp/moderator-test/pg}
PG_PORT=${PG_PORT:-15432}
PG_DB=${PG_DB:-moderator_test}

bindir() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$dir" ] || { echo "PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }
  echo "$dir"
}

as_owner() {  # PostgreSQL refuses to run as root: use the package's postgres user then
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

up() {
  local bin; bin=$(bindir)
  down >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"; mkdir -p "$PG_DIR"
  if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$PG_DIR"; fi
  as_owner "$bin/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$PG_DIR/initdb.log" 2>&1 \
    || as_owner "$bin/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 >"$PG_DIR/initdb.log" 2>&1
  as_owner "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
    -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $PG_DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start </dev/null >/dev/null
  as_owner "$bin/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres "$PG_DB"
  echo "PostgreSQL up on 127.0.0.1:$PG_PORT ($(as_owner "$bin/postgres" --version))" >&2
}

down() {
  local bin; bin=$(bindir)
  if [ -f "$PG_DIR/data/postmaster.pid" ]; then
    as_owner "$bin/pg_ctl" -D "$PG_DIR/data" -m fast -w stop </dev/null >/dev/null || true
  fi
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  url) echo "postgresql+psycopg://postgres@127.0.0.1:$PG_PORT/$PG_DB" ;;
  *) echo "usage: $0 up|down|url" >&2; exit 2 ;;
esac
