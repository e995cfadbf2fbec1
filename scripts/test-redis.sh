#!/usr/bin/env bash
# Make Debian's redis-server ready for the cluster tests and print its path:
#   scripts/test-redis.sh
# The tests start private redis-server processes of their own (free loopback ports,
# no persistence: tests/cluster_support.py); the package's own service is not needed.
# Idempotent: when redis-server is missing and apt-get is available, installs Debian's
# `redis-server` package (needs root or sudo). Otherwise it says in one line why it
# cannot, exits 1, and the cluster tests fail with the same reason.
set -euo pipefail

log() { echo "test-redis: $*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! command -v redis-server >/dev/null 2>&1; then
    if ! command -v apt-get >/dev/null 2>&1; then
        log "redis-server is missing and apt-get is not available: install Redis for the cluster tests"
        exit 1
    fi
    if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null 2>&1; then
        log "redis-server is missing and installing it needs root (no sudo here): run 'apt-get install redis-server' as root"
        exit 1
    fi
    log "installing redis-server with apt (for the cluster tests)"
    export DEBIAN_FRONTEND=noninteractive
    if ! { as_root apt-get update -qq && as_root apt-get install -y -qq redis-server; } >&2; then
        log "apt-get could not install redis-server: see the messages above"
        exit 1
    fi
fi
command -v redis-server
