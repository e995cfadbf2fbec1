#!/usr/bin/env bash
# Make a local PostgreSQL ready for the server tests and print its URL on stdout:
#   export PELOTON_TEST_PG_URL=$(scripts/test-postgres.sh)
# Idempotent: installs PostgreSQL with apt if missing, starts the Debian cluster if it
# is down, creates (or updates) the role and database `peloton_test`. The role may
# create databases: each test module gets a fresh one. Needs root (or sudo).
# Messages go to stderr, so that stdout is only the URL.
set -euo pipefail

ROLE=peloton_test
PASSWORD=${PELOTON_TEST_PG_PASSWORD:-peloton-test-password}
log() { echo "test-postgres: $*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi; }

if ! command -v pg_lsclusters >/dev/null 2>&1; then
    log "installing PostgreSQL with apt"
    export DEBIAN_FRONTEND=noninteractive
    as_root apt-get update -qq >&2
    as_root apt-get install -y -qq postgresql >&2
fi

cluster=$(pg_lsclusters -h | head -n 1)
if [ -z "$cluster" ]; then
    version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
    log "creating cluster $version/main"
    as_root pg_createcluster "$version" main >&2
    cluster=$(pg_lsclusters -h | head -n 1)
fi
read -r version name port status _ <<<"$cluster"
if [ "${status%%,*}" != online ]; then
    log "starting cluster $version/$name"
    as_root pg_ctlcluster "$version" "$name" start >&2 || as_root service postgresql start >&2
fi
for _ in $(seq 1 60); do
    pg_isready -q -h 127.0.0.1 -p "$port" && break
    sleep 0.5
done
pg_isready -q -h 127.0.0.1 -p "$port" || { log "PostgreSQL is not accepting connections on port $port"; exit 1; }

as_postgres psql -q -v ON_ERROR_STOP=1 -p "$port" -d postgres >&2 <<SQL
DO \$\$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$ROLE') THEN
        CREATE ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD';
    ELSE
        ALTER ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD';
    END IF;
END
\$\$;
SELECT 'CREATE DATABASE $ROLE OWNER $ROLE' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$ROLE')
\gexec
SQL

echo "postgresql+psycopg://$ROLE:$PASSWORD@127.0.0.1:$port/$ROLE"
