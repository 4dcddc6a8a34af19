#!/usr/bin/env bash
# Interop checks of the calculator example with the MCP Inspector CLI (@modelcontextprotocol/inspector),
# over stdio and Streamable HTTP, in each protocol era the Inspector offers (--protocol-era).
#
#   tests/interop/inspector.sh CALCULATOR_BINARY      # after `npm ci` in tests/interop/node
#
# Starts the binary with --http on a free 127.0.0.1 port (and stops it at the end). Prints one line
# per check and ends with "N passed, M failed"; exits 1 if any check failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=$(realpath "${1:?usage: $0 CALCULATOR_BINARY}")
export PATH="$here/node/node_modules/.bin:$PATH" # Node 22 and mcp-inspector, pinned in node/package.json
[ -x "$here/node/node_modules/.bin/mcp-inspector" ] || { echo "$0: no mcp-inspector: run \`npm ci\` in $here/node first" >&2; exit 2; }
tmp=$(mktemp -d)
export HOME="$tmp" # the Inspector keeps a catalog and OAuth state under ~/.mcp-inspector: keep ours apart

port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
"$bin" --http "127.0.0.1:$port" 2>"$tmp/server.log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
url="http://127.0.0.1:$port/mcp"
echo "inspector $(mcp-inspector --version), node $(node --version), server $url and $bin"

passed=0 failed=0
# check NAME EXIT_STATUS JS_EXPRESSION INSPECTOR_ARGS...: runs `mcp-inspector --cli --format json ARGS`,
# expects that exit status and JS_EXPRESSION true of its parsed stdout `r`.
check() {
  local name=$1 want=$2 expr=$3 out status
  shift 3
  out=$(mcp-inspector --cli --format json "$@" 2>"$tmp/stderr")
  status=$?
  if [ "$status" = "$want" ] && node -e "const r = JSON.parse(process.argv[1]); process.exit(($expr) ? 0 : 1)" "$out" 2>/dev/null; then
    passed=$((passed + 1))
    echo "ok   $name"
  else
    failed=$((failed + 1))
    echo "FAIL $name: exit status $status (expected $want), stdout: $out"
    sed 's/^/       stderr: /' "$tmp/stderr" | tail -5
  fi
}

list='r.result.tools.map((t) => t.name).join() === "calculator" && r.result.tools.every((t) => t.description && t.inputSchema?.type === "object")'
three='JSON.stringify(r.result.content) === JSON.stringify([{ type: "text", text: "3" }]) && !r.result.isError'
by_zero='r.result.isError === true && r.result.content[0].text === "cannot divide by zero: `b` must be a non-zero number"'
for transport in stdio http; do
  if [ $transport = stdio ]; then
    # The Inspector gives a stdio server a minimal environment: pass the wire log on.
    target=(-- "$bin")
    [ -n "${MCP_TOOLKIT_WIRE_LOG:-}" ] && target=(-e "MCP_TOOLKIT_WIRE_LOG=$MCP_TOOLKIT_WIRE_LOG" "${target[@]}")
  else
    target=(--transport http --server-url "$url")
  fi
  for era in legacy auto modern; do
    # Our server stamps serverInfo on results in the 2026-07-28 era only: this shows which era ran.
    if [ $era = legacy ]; then stamp='r.result._meta === undefined'; else stamp='r.result._meta["io.modelcontextprotocol/serverInfo"].name === "calculator"'; fi
    args=(--protocol-era $era)
    check "$transport $era tools/list" 0 "$list" "${args[@]}" --method tools/list "${target[@]}"
    check "$transport $era tools/call add 1 2" 0 "$three && $stamp" "${args[@]}" --method tools/call --tool-name calculator \
      --tool-arg operation=add a=1 b=2 "${target[@]}"
    # A result with isError true: the Inspector prints it and exits 5 (tool_is_error).
    check "$transport $era tools/call divide 1 0" 5 "$by_zero" "${args[@]}" --method tools/call --tool-name calculator \
      --tool-args-json '{"operation":"divide","a":1,"b":0}' "${target[@]}"
  done
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
