#!/usr/bin/env bash
# Starts a throw-away PostgreSQL cluster for the tests (Debian's postgresql): initdb as the
# postgres user in a temp folder, listening on 127.0.0.1 only, on a free port, with fsync off
# (test data only: never a setting for a club's database). Prints the DATABASE_URL of an admin
# connection on stdout; `pg-cluster.sh stop <dir>` stops it. PG_DURABLE=1 keeps fsync and
# synchronous commits on (the benchmark: a commit reaches the disk, as SQLite's do there).
set -euo pipefail
if [ "${1:-}" = "stop" ]; then
  su postgres -c "$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)/pg_ctl -D '$2' -m immediate stop" >/dev/null 2>&1 || true
  exit 0
fi
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bin" ]; then echo "postgresql is not installed (apt-get install postgresql)" >&2; exit 1; fi
dir=${PG_TEST_DIR:-$(mktemp -d /tmp/club-pg.XXXXXX)}
chown postgres "$dir"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
su postgres -c "$bin/initdb -D '$dir/data' -U postgres -A trust --no-sync -E UTF8 --locale=C.UTF-8" >/dev/null
fast="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
[ "${PG_DURABLE:-}" = "1" ] && fast=""
su postgres -c "$bin/pg_ctl -D '$dir/data' -l '$dir/log' -w -o \"-h 127.0.0.1 -p $port -k '$dir' $fast -c max_connections=400 -c shared_buffers=256MB\" start" >/dev/null
echo "postgres://postgres@127.0.0.1:$port/postgres"
echo "$dir/data" >"$dir/datadir"
