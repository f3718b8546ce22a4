#!/usr/bin/env bash
# Drops schemas named t_* that earlier test runs left in the test database (each PostgreSQL test suite
# works in its own t_<id> schema). One DROP per statement in autocommit, so a large leftover set never
# needs all its locks in one transaction. Best effort: never fails the caller.
set -uo pipefail

url="${1:-${TEST_DATABASE_URL:-postgres://root@127.0.0.1:5432/test}}"

psql "$url" -XAtq -c \
  "SELECT format('DROP SCHEMA IF EXISTS %I CASCADE;', nspname) FROM pg_namespace WHERE nspname LIKE 't\_%'" \
  | PGOPTIONS="-c client_min_messages=warning" psql "$url" -Xq -v ON_ERROR_STOP=0 \
  || echo "drop-test-schemas: could not clean leftover schemas (ignored)" >&2
exit 0
