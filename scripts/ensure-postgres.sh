#!/usr/bin/env bash
# Makes sure PostgreSQL answers on $PGHOST:$PGPORT (default 127.0.0.1:5432) and that the test database
# exists. Starts the machine's local cluster if it is down (node-svc machines start it before a session,
# but CI must not rely on that). Used by .ci/run; safe to run by hand.
set -euo pipefail

host="${PGHOST:-127.0.0.1}"
port="${PGPORT:-5432}"
user="${PGUSER:-root}"
db="${1:-test}"
wait_s="${PG_WAIT_SECONDS:-30}"

if ! command -v pg_isready >/dev/null 2>&1; then
  echo "ensure-postgres: pg_isready not found (is postgresql-client installed?)" >&2
  exit 1
fi

if pg_isready -q -h "$host" -p "$port"; then
  echo "ensure-postgres: $host:$port is accepting connections"
else
  echo "ensure-postgres: $host:$port not answering; starting the local cluster"
  if [ ! -d /etc/postgresql ] || [ -z "$(ls -A /etc/postgresql)" ]; then
    echo "ensure-postgres: no cluster under /etc/postgresql to start" >&2
    exit 1
  fi
  for version in /etc/postgresql/*/; do
    version="$(basename "$version")"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  done
  for _ in $(seq 1 "$wait_s"); do
    pg_isready -q -h "$host" -p "$port" && break
    sleep 1
  done
  if ! pg_isready -h "$host" -p "$port"; then
    echo "ensure-postgres: PostgreSQL still not answering after ${wait_s}s" >&2
    exit 1
  fi
fi

# The database tests point at must exist (it does on a new node-svc machine; cheap to make sure).
exists="$(psql -h "$host" -p "$port" -U "$user" -d postgres -XAtq \
  -c "SELECT 1 FROM pg_database WHERE datname = '$db'" || true)"
if [ "$exists" != "1" ]; then
  echo "ensure-postgres: creating database $db"
  createdb -h "$host" -p "$port" -U "$user" "$db"
fi
