#!/usr/bin/env bash
# Scaling out behind a real nginx (Debian's package): three instances of the conformance
# example on loopback ports, sharing one requestState key ring (MCP_TOOLKIT_REQUEST_STATE_KEYS)
# and one real redis-server (Debian's package) as their task store (`--task-store redis://`,
# with a 2 s lease: MCP_TOOLKIT_TASK_LEASE), each named (MCP_TOOLKIT_INSTANCE), behind nginx
# run with tests/deploy/nginx.conf. Then client.py checks, through nginx:
#   (a) 2026-07-28 requests spread round-robin over the three instances;
#   (b) a call that asks (input_required) completes with its rounds on different instances;
#   (c) legacy sessions stay on the instance that issued them (requests and GET stream), and
#       their id sent straight to another instance gets 404;
#   (e) SSE passes through: a subscriptions/listen stream is acknowledged and stays open, a
#       change arrives on it, a progress answer streams;
#   (d) after one instance is killed (SIGKILL), modern calls go on through the others;
#   (f) that instance's session then gets 404 (so its client starts anew); the others' go on;
#   (g) a task created through one instance is polled through the others until it completes;
#   (h) a task that asks is answered (tasks/update) through another instance and completes;
#   (i) a task cancelled through another instance ends `cancelled`, and the instance running
#       it stops (it no longer touches the task in Redis);
#   (m) a subscriptions/listen stream for a task id, opened straight on one instance, hears
#       notifications/tasks (working, then completed with its result) for a task running on
#       another (Redis's pub/sub carries them); unknown task ids are acknowledged as [];
#   (n) a result over its budget, answered by one instance, is read page by page through the
#       others (as `mcp-result://` resources and through `read_result`): the pages are in Redis;
#   (j) redis-server killed (SIGKILL) and started again on its append-only file: every task
#       acknowledged before is still there, a running one completes, the instances go on;
#   (l) `tasks/*` whose task id names an instance (as with a store that is not shared) go to
#       that instance, and get 502 when it is dead;
#   (k) an instance killed (SIGKILL) mid-task: the task turns `failed` once its lease ran out.
#
#   tests/deploy/run.sh [BIN_DIR]     # BIN_DIR holds conformance built with the Redis task
#                                     # store (default target/debug, as
#                                     # `cargo build --bin conformance --features mcp-toolkit/redis`
#                                     # makes it); nothing is built here
#
# Installs nginx and redis-server (apt-get) when they are missing and this runs as root;
# otherwise fails saying so. Touches no system configuration: nginx and redis-server run as
# the current user with their configuration, logs, pid and data in a temporary directory, on
# free loopback ports. Ends with "N passed, M failed"; exits 1 on any failure, 2 when it could
# not set up.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$(realpath "${1:-$root/target/debug}")
server="$bin/conformance"
build="cargo build --bin conformance --features mcp-toolkit/redis"
[ -x "$server" ] || { echo "$0: no $server; build it first ($build)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "$0: python3 is needed for the client" >&2; exit 2; }

work=$(mktemp -d)
# Every process started here; disowned, so the shell does not announce the one killed on
# purpose, and stopped (SIGTERM, then SIGKILL after 5 s) on exit.
pids=()
started() { pids+=("$1"); disown "$1"; }
cleanup() {
  # client.py starts redis-server anew (check (j)) and stops it before it ends; should it
  # not have, the pid file names that one.
  local restarted
  restarted=$(cat "$work/redis/redis.pid" 2>/dev/null)
  if [ -n "$restarted" ] && grep -q redis-server "/proc/$restarted/cmdline" 2>/dev/null; then
    pids+=("$restarted")
  fi
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- nginx and redis-server, Debian's packages ------------------------------------------------
find_program() { # NAME: its path, on PATH or in the system's directories
  command -v "$1" && return
  for dir in /usr/sbin /usr/bin; do [ -x "$dir/$1" ] && { echo "$dir/$1"; return; }; done
  return 1
}
install_package() { # PROGRAM PACKAGE...: the first package that installs
  local program=$1 package
  shift
  if [ "$(id -u)" != 0 ]; then
    echo "$0: $program is not installed, and installing it needs root: run \`sudo apt-get install -y $1\` first" >&2
    exit 2
  fi
  echo "installing $program (Debian's package)"
  export DEBIAN_FRONTEND=noninteractive
  apt_install() { apt-get install -y -q --no-install-recommends "$1" >>"$work/apt.log" 2>&1; }
  for package in "$@"; do apt_install "$package" && return; done
  if apt-get update -q >>"$work/apt.log" 2>&1; then
    for package in "$@"; do apt_install "$package" && return; done
  fi
  tail -20 "$work/apt.log" >&2
  echo "$0: installing $program failed" >&2
  exit 2
}
nginx=$(find_program nginx) || {
  install_package nginx nginx-light nginx
  nginx=$(find_program nginx) || { echo "$0: nginx installed but not found" >&2; exit 2; }
}
echo "$("$nginx" -v 2>&1)"
# The package may start a server of its own, on 6379; the one here has a port of its own.
redis_server=$(find_program redis-server) || {
  install_package redis-server redis-server
  redis_server=$(find_program redis-server) || { echo "$0: redis-server installed but not found" >&2; exit 2; }
}
"$redis_server" --version

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_listening() { # PORT PID NAME
  for _ in $(seq 200); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || break
    sleep 0.05
  done
  echo "$0: $3 is not listening on $1" >&2
  return 1
}
show_logs() {
  for log in "$work"/*.stderr "$work/nginx/error.log" "$work/redis/redis.log"; do
    [ -s "$log" ] && { echo "---- $(basename "$log"):"; tail -20 "$log"; }
  done
}

# --- redis-server, the instances' task store --------------------------------------------------
# Its append-only file is its only persistence, written before it answers and fsynced every
# second (Redis's default): a killed redis-server loses nothing it acknowledged. In the
# foreground: client.py kills it and starts it again with the same command (check (j)).
redis_port=$(free_port)
mkdir -p "$work/redis"
redis=("$redis_server" --bind 127.0.0.1 --port "$redis_port" --appendonly yes --dir "$work/redis"
  --save "" --daemonize no --pidfile "$work/redis/redis.pid" --logfile "$work/redis/redis.log")
"${redis[@]}" </dev/null >/dev/null 2>&1 &
redis_pid=$!
started $redis_pid
wait_listening "$redis_port" "$redis_pid" redis-server || { show_logs; exit 2; }

# --- three instances, one key ring, one task store --------------------------------------------
# Two keys: the first seals, both open (as during a rotation).
key() { python3 -c 'import base64, os; print(base64.b64encode(os.urandom(32)).decode())'; }
keys="$(key),$(key)"
# A short lease, so that a task whose instance died turns `failed` within seconds (check (k)).
lease_seconds=2
# Warnings, and what the server and the task store do (the store's reconnections to Redis).
log_filter="warn,mcp_toolkit::server=info,mcp_toolkit::task=info"
instances=()
ports=()
instance_pids=()
for i in 0 1 2; do
  port=$(free_port)
  MCP_TOOLKIT_REQUEST_STATE_KEYS="$keys" MCP_TOOLKIT_INSTANCE="mcp-$i" \
    MCP_TOOLKIT_TASK_LEASE="${lease_seconds}s" RUST_LOG="$log_filter" \
    "$server" --http "127.0.0.1:$port" --task-store "redis://127.0.0.1:$redis_port" \
    </dev/null >/dev/null 2>"$work/mcp-$i.stderr" &
  started $!
  ports+=("$port")
  instance_pids+=("$!")
  instances+=(--instance "mcp-$i=$port:$!")
done
for i in 0 1 2; do
  wait_listening "${ports[i]}" "${instance_pids[i]}" "mcp-$i" || {
    show_logs
    if grep -q 'without the `redis` feature' "$work/mcp-$i.stderr"; then
      echo "$0: $server has no Redis task store: build it with \`$build\`" >&2
    fi
    exit 2
  }
done

# --- nginx, configured from the template ------------------------------------------------------
prefix="$work/nginx"
mkdir -p "$prefix"
listen=$(free_port)
# As root, nginx's workers would switch to `nobody`; keep them as the current user.
user_line=""
[ "$(id -u)" = 0 ] && user_line="user $(id -un) $(id -gn);"
sed -e "s|@PREFIX@|$prefix|g" -e "s|@LISTEN@|$listen|g" -e "s|@USER@|$user_line|g" \
  -e "s|@PORT_0@|${ports[0]}|g" -e "s|@PORT_1@|${ports[1]}|g" -e "s|@PORT_2@|${ports[2]}|g" \
  "$here/nginx.conf" >"$prefix/nginx.conf"
if ! "$nginx" -t -q -p "$prefix" -e "$prefix/error.log" -c "$prefix/nginx.conf" 2>"$work/nginx-t.stderr"; then
  cat "$work/nginx-t.stderr" >&2
  echo "$0: nginx refuses the configuration" >&2
  exit 2
fi
"$nginx" -p "$prefix" -e "$prefix/error.log" -c "$prefix/nginx.conf" 2>"$work/nginx.stderr" &
started $!
wait_listening "$listen" "$!" nginx || { show_logs; exit 2; }
echo "nginx on 127.0.0.1:$listen in front of mcp-0, mcp-1, mcp-2 on ${ports[*]}, sharing redis-server on $redis_port"

# --- the checks ------------------------------------------------------------------------------
python3 "$here/client.py" --nginx "$listen" --access-log "$prefix/access.log" "${instances[@]}" \
  --redis "$redis_port:$redis_pid" --task-lease "$lease_seconds" -- "${redis[@]}" | tee "$work/verdicts"
client_status=${PIPESTATUS[0]}
passed=$(grep -c '^PASS' "$work/verdicts")
failed=$(grep -c '^FAIL' "$work/verdicts")
[ "$passed" -gt 0 ] || failed=$((failed + 1)) # the client ran no check at all
if [ "$client_status" != 0 ] && [ "$failed" = 0 ]; then # it stopped before its checks were done
  echo "FAIL client.py: ended with status $client_status after $passed checks"
  failed=1
fi
[ "$failed" = 0 ] || show_logs
echo "deploy: $passed passed, $failed failed"
[ "$failed" = 0 ]
