#!/usr/bin/env bash
# MCP clients side by side (client-bench/): mcp-toolkit's Client, rmcp 3.11's client, and a
# bare serde_json client (a line out, a line in, parsed: the floor), each calling a tool
# 20,000 times in sequence against the echo floor over stdio, and 10,000 times against the
# HTTP floor (no bare client there). Client and server share CPU 0 (taskset), as compare.sh
# pins them; each figure is the median of the rounds. CPU per call is the client's own
# (getrusage), user and system.
#
#   bash bench/peers/clients.sh [ROUNDS]     # default 5
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-5}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$here/../../target}/peers"
(cd "$here" && cargo build --release --quiet -p client-bench -p echo-floor -p http-floor)
bin="$CARGO_TARGET_DIR/release"
work=$(mktemp -d)
trap 'jobs -p | xargs -r kill 2>/dev/null; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
taskset -c 0 "$bin/http-floor" --http "127.0.0.1:$port" &
sleep 0.5
for _ in $(seq "$rounds"); do
  for client in serde ours rmcp; do
    taskset -c 0 "$bin/client-bench" --client $client --stdio "$bin/echo-floor" --calls 20000 >>"$work/runs.jsonl"
  done
  for client in ours rmcp; do
    taskset -c 0 "$bin/client-bench" --client $client --http "http://127.0.0.1:$port/mcp" --calls 10000 >>"$work/runs.jsonl"
  done
done
python3 - "$work/runs.jsonl" <<'PY'
import json, statistics, sys
runs = [json.loads(line) for line in open(sys.argv[1])]
def median(client, transport, key):
    values = [r[key] for r in runs if r["client"] == client and r["transport"] == transport]
    return statistics.median(values) if values else None
print("| transport | client | calls/s | client CPU µs/call |")
print("|---|---|---:|---:|")
for transport in ("stdio", "http"):
    for client in ("serde", "ours", "rmcp"):
        rate = median(client, transport, "calls_per_sec")
        if rate is not None:
            print(f"| {transport} | {client} | {rate:,.0f} | {median(client, transport, 'cpu_us_per_call'):.1f} |")
for transport in ("stdio", "http"):
    ours, rmcp, serde = (median(c, transport, "calls_per_sec") for c in ("ours", "rmcp", "serde"))
    line = f"{transport}: ours / rmcp = {ours / rmcp:.2f}x"
    if serde:
        line += f"; serde floor / ours = {serde / ours:.2f}x"
    print(line)
PY
