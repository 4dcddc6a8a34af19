#!/usr/bin/env bash
# The notes board (MCP Apps) in a real host in a real browser: headless Chromium opens a host
# page built on the ext-apps package's AppBridge and the official TypeScript client, connected
# to the `notes` example over Streamable HTTP (tests/apps/README.md says what it checks).
#
#   tests/apps/run.sh [BIN_DIR]   # BIN_DIR holds notes (default target/debug, as
#                                 # `cargo test` or `cargo build --bin notes` builds it)
#
# Installs the pinned npm packages (package-lock.json) on first use, and Debian's chromium
# when /usr/bin/chromium is missing and this runs as root. Without chromium it skips, but not
# under CI (CI=true), where it fails. The screenshot and logs go to APPS_OUT (default: a new
# temporary folder, printed). Ends with "N passed, M failed"; exits 1 on any failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$(realpath "${1:-$root/target/debug}")
[ -x "$bin/notes" ] || { echo "$0: no $bin/notes; build it first (cargo build --bin notes)" >&2; exit 2; }

export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ] && [ "$(id -u)" = 0 ]; then
  echo "installing Debian's chromium"
  apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1 ||
    { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q --no-install-recommends chromium >/dev/null; } || true
fi
if [ ! -x "$CHROMIUM" ]; then
  if [ "${CI:-}" = true ]; then
    echo "$0: no $CHROMIUM and it could not be installed (apt-get install chromium, as root)" >&2
    exit 1
  fi
  echo "apps: skipped: no $CHROMIUM; install Debian's chromium (sudo apt-get install -y chromium) to run it"
  exit 0
fi

# npm packages, skipped when what is installed matches the lock.
if ! cmp -s "$here/package-lock.json" "$here/node_modules/.installed-lock" 2>/dev/null; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$here/package-lock.json" "$here/node_modules/.installed-lock"
fi
"$here/node_modules/.bin/esbuild" "$here/host.js" --bundle --format=esm --target=es2022 \
  --outfile="$here/build/host.js" --log-level=warning

# test.mjs stops itself after APPS_TIMEOUT_MS (120 s); the outer limit is for a hung browser.
timeout -k 10 240 node "$here/test.mjs" "$bin/notes"
