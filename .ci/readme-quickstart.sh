#!/usr/bin/env bash
# The README's Quick start, as a user would take it: a new crate outside the workspace whose
# Cargo.toml holds the README's `[dependencies]` (the path form, pointed at this clone's
# mcp-tools/) and whose src/main.rs is the README's Rust block, verbatim. It must build and
# answer `initialize` and `tools/list` over stdio with the README's two tools.
#
# It builds offline, with this clone's Cargo.lock (so the versions the tests use) and its
# target directory (so the dependencies already built are reused). If cargo cannot resolve
# the dependencies offline (a registry cache that lacks one), it says so and skips.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The first ```toml and the first ```rust block after "## Quick start".
extract() {
  awk -v lang="$1" '
    /^## Quick start/ { in_section = 1; next }
    in_section && /^## / { exit }
    in_section && !done && $0 == "```" lang { inside = 1; next }
    inside && /^```/ { inside = 0; done = 1; next }
    inside { print }
  ' "$root/README.md"
}
deps="$(extract toml)"
code="$(extract rust)"
[ -n "$deps" ] && [ -n "$code" ] || { echo "readme-quickstart: no toml or rust block under ## Quick start" >&2; exit 1; }

shown='path = "../mcp-toolkit/mcp-tools"'
grep -qF "$shown" <<<"$deps" || { echo "readme-quickstart: the Quick start no longer shows $shown" >&2; exit 1; }

mkdir -p "$work/quickstart/src"
{
  printf '[package]\nname = "quickstart"\nversion = "0.1.0"\nedition = "2024"\npublish = false\n\n'
  # The README's block, with the clone's path where the README says `../mcp-toolkit`.
  printf '%s\n' "${deps/"$shown"/path = \"$root/mcp-tools\"}"
  printf '\n[workspace]\n'
} >"$work/quickstart/Cargo.toml"
printf '%s\n' "$code" >"$work/quickstart/src/main.rs"
cp "$root/Cargo.lock" "$work/quickstart/Cargo.lock"

cd "$work/quickstart"
if ! cargo metadata --offline --format-version 1 >/dev/null 2>"$work/resolve.log"; then
  echo "readme-quickstart: skipped: cargo cannot resolve the Quick start's dependencies offline:" >&2
  cat "$work/resolve.log" >&2
  exit 0
fi
CARGO_TARGET_DIR="$target" cargo build --offline --quiet
binary="$target/debug/quickstart"

answers="$(printf '%s\n' \
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"readme-quickstart","version":"1"}}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' \
  | timeout 20 "$binary")"
python3 - "$answers" <<'PY'
import json, sys
answers = {m["id"]: m for m in map(json.loads, sys.argv[1].splitlines())}
assert answers[1]["result"]["serverInfo"]["name"] == "calculator", answers[1]
names = [tool["name"] for tool in answers[2]["result"]["tools"]]
assert names == ["calculator", "text_analyzer"], names
print("readme-quickstart: the Quick start builds and lists", ", ".join(names))
PY
