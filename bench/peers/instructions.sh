#!/usr/bin/env bash
# Instructions a server runs per `tools/call`, counted by callgrind: our calculator over
# stdio and HTTP in both eras, the echo floor, the serde floor and the HTTP floor. Counts
# are exact and do not drift with the machine's load, so they show what a change to the
# code did where calls/s cannot (see README.md beside this script).
#
#   bash bench/peers/instructions.sh [--calls N]
#
# Needs valgrind (`apt-get install valgrind`). Each count includes the server's start (and
# on stdio its exit) spread over the N calls (default 5,000): a few hundred instructions a
# call at most.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
calls=5000
while (($#)); do
    case $1 in
        --calls) calls=$2; shift ;;
        -h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "instructions.sh: unknown option \`$1\`; expected --calls N" >&2; exit 2 ;;
    esac
    shift
done
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }

target=${CARGO_TARGET_DIR:-$root/target}
load=$target/mcp-load/release/mcp-load
out=$(mktemp -d /tmp/instructions.XXXXXX)
build() { nice -n 10 cargo build --release --quiet "$@"; }
echo "building ..." >&2
CARGO_TARGET_DIR=$target/mcp-load build --manifest-path "$root/bench/mcp-load/Cargo.toml"
(cd "$root" && CARGO_TARGET_DIR=$target build --bin calculator)
# Each on its own, as compare.sh builds them: built with mcp-toolkit, the serde floor would
# get its serde_json features and run a third more instructions.
CARGO_TARGET_DIR=$target/peers build --manifest-path "$here/Cargo.toml" -p echo-floor -p http-floor
CARGO_TARGET_DIR=$target/peers build --manifest-path "$here/Cargo.toml" -p floor
# The stdio-only calculator, for what middleware costs a call (`--noop-middleware N`).
CARGO_TARGET_DIR=$target/peers build --manifest-path "$here/Cargo.toml" -p ours-stdio

# The total a callgrind profile counted, divided by the calls made (the measured ones and
# the warm-up's 10).
per_call() {
    python3 - "$1" "$2" <<'PY'
import sys
path, answered = sys.argv[1], int(sys.argv[2])
for line in open(path):
    if line.startswith(("totals:", "summary:")):
        print(f"{int(line.split()[1]) / answered:,.0f}")
        break
PY
}

count=0
# Sets the caller's `file` to a new profile's path (not in a subshell, which would lose
# the count and give every profile one name).
next_profile() { count=$((count + 1)); file="$out/callgrind.$count"; }

stdio() { # LABEL SERVER [MCP-LOAD OPTIONS...]
    local label=$1 server=$2 file
    shift 2
    next_profile
    "$load" call -n "$calls" --warmup 10 "$@" -- \
        valgrind --tool=callgrind --callgrind-out-file="$file" $server >/dev/null 2>"$file.err"
    printf '| %s | %s |\n' "$label" "$(per_call "$file" $((calls + 10)))"
}

http() { # LABEL SERVER [MCP-LOAD OPTIONS...]
    local label=$1 server=$2 file port pid
    shift 2
    next_profile
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    valgrind --tool=callgrind --callgrind-out-file="$file" "$server" \
        --http "127.0.0.1:$port" 2>"$file.server.err" &
    pid=$!
    for _ in $(seq 200); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
    "$load" call -n "$calls" --warmup 10 "$@" --http "http://127.0.0.1:$port/mcp" >/dev/null 2>"$file.err"
    # The count so far, written now: the HTTP floor has no clean way to stop, and a server
    # ended by a signal under valgrind writes nothing.
    callgrind_control --dump "$pid" >/dev/null 2>&1
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null || true
    printf '| %s | %s |\n' "$label" "$(per_call "$file.1" $((calls + 10)))"
}

echo "counting (each run is about 50 times slower under callgrind) ..." >&2
echo
echo "| server, transport, revision | instructions per tools/call |"
echo "|---|---:|"
stdio "calculator, stdio, 2025-06-18" "$target/release/calculator"
stdio "calculator, stdio, 2026-07-28" "$target/release/calculator" --protocol-version 2026-07-28
http "calculator, HTTP, 2025-06-18 session" "$target/release/calculator"
http "calculator, HTTP, 2026-07-28" "$target/release/calculator" --protocol-version 2026-07-28
stdio "stdio-only calculator (ours-stdio), no middleware" "$target/peers/release/ours-stdio"
stdio "the same, one middleware that does nothing" "$target/peers/release/ours-stdio --noop-middleware 1"
stdio "the same, two middleware that do nothing" "$target/peers/release/ours-stdio --noop-middleware 2"
stdio "the same, one middleware with only on_request" "$target/peers/release/ours-stdio --request-middleware 1"
stdio "the same, one middleware with only on_end" "$target/peers/release/ours-stdio --end-middleware 1"
stdio "echo floor, stdio" "$target/peers/release/echo-floor"
stdio "serde floor, stdio" "$target/peers/release/floor"
http "HTTP floor (bare hyper)" "$target/peers/release/http-floor"
echo
echo "Profiles: $out (callgrind_annotate --inclusive=yes FILE)"
