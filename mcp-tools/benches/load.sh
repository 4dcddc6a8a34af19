#!/usr/bin/env bash
# End-to-end load on the example servers with the load generator the project is judged by
# (bench/mcp-load), client and server pinned to one CPU so the figures measure
# the software path, not scheduling across cores.
#
#   mcp-tools/benches/load.sh              # stdio workloads, and HTTP sequential calls
#
# Prints one line per workload: throughput, median latency, server CPU per request and
# peak RSS, as mcp-load reports them.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
load_dir="$root/bench/mcp-load"
[ -d "$load_dir" ] || { echo "$0: no mcp-load at $load_dir" >&2; exit 2; }
CARGO_TARGET_DIR="$target/mcp-load" cargo build --quiet --release --manifest-path "$load_dir/Cargo.toml"
cargo build --quiet --release --manifest-path "$root/Cargo.toml" --bin calculator --bin text_analyzer
load="$target/mcp-load/release/mcp-load"
bin="$target/release"
pin="taskset -c 0"
command -v taskset >/dev/null || pin=""

read -r -d '' summarize <<'PY' || true
import json, sys
d = json.load(sys.stdin)
lat = d.get("latency_us") or d.get("startup_us") or {}
cpu = d.get("server_cpu_us_per_req", "-")
rss = d.get("server_peak_rss_kib") or d.get("server_peak_rss_kib_after_init") or "-"
print("%-32s %9.0f/s  p50 %9.1f us  cpu %s us/req  rss %s KiB  ok %s failed %s"
      % (sys.argv[1], d.get("throughput_per_s", 0), lat.get("p50", 0), cpu, rss, d.get("ok"), d.get("failures")))
PY
report() { python3 -c "$summarize" "$1"; } # LABEL: reads mcp-load's JSON on stdin
args='{"operation":"add","a":1,"b":2}'
$pin "$load" call -n 20000 --args "$args" -- "$bin/calculator" | report "stdio call (sequential)"
$pin "$load" pipeline -n 20000 -k 64 --args "$args" -- "$bin/calculator" | report "stdio pipeline (64 in flight)"
$pin "$load" list -n 20000 -- "$bin/calculator" | report "stdio tools/list"
$pin "$load" big -n 40 --expect '"characters":1048576' -- "$bin/text_analyzer" | report "stdio call with 1 MiB of text"
$pin "$load" startup -r 20 -- "$bin/calculator" | report "stdio spawn to first response"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$bin/calculator" --http "127.0.0.1:$port" & server=$!
trap 'kill $server 2>/dev/null' EXIT
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.05; done
$pin "$load" call -n 10000 --args "$args" --http "http://127.0.0.1:$port/mcp" | report "http call (sequential)"
