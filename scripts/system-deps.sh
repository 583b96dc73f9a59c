#!/usr/bin/env bash
# Install the Debian packages the test suite drives for real: chromium (browser tests),
# postgresql (the shared store's PostgreSQL tests) and nginx (docs/hosting.md's reverse proxy,
# run by tests/e2e/test_hosting_*.py). Nothing is done when they are present.
set -euo pipefail
need=()
[ -x /usr/lib/chromium/chromium ] || need+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
[ -x /usr/sbin/nginx ] || need+=(nginx)
[ ${#need[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "installing Debian packages: ${need[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
