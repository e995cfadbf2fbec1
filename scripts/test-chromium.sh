#!/usr/bin/env bash
# Make Debian's Chromium ready for the browser tests (tests/web drive it with
# Playwright; Playwright's own browser downloads are never used) and print its path:
#   scripts/test-chromium.sh
# Idempotent: when the browser is missing and apt-get is available, installs Debian's
# `chromium` package (needs root or sudo). Otherwise it says in one line why it cannot,
# exits 1, and the browser tests fail with the same reason.
# CHROMIUM overrides the path looked for (tests/web/conftest.py uses /usr/bin/chromium).
set -euo pipefail

CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
log() { echo "test-chromium: $*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if [ ! -x "$CHROMIUM" ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        log "$CHROMIUM is missing and apt-get is not available: install Debian's chromium package (or a Chromium at $CHROMIUM) for the browser tests"
        exit 1
    fi
    if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null 2>&1; then
        log "$CHROMIUM is missing and installing it needs root (no sudo here): run 'apt-get install chromium' as root"
        exit 1
    fi
    log "installing Chromium with apt (for the browser tests)"
    export DEBIAN_FRONTEND=noninteractive
    if ! { as_root apt-get update -qq && as_root apt-get install -y -qq chromium; } >&2; then
        log "apt-get could not install chromium: see the messages above"
        exit 1
    fi
    if [ ! -x "$CHROMIUM" ]; then
        log "apt-get installed chromium, but not at $CHROMIUM"
        exit 1
    fi
fi
echo "$CHROMIUM"
