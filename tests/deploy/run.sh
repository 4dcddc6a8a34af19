#!/usr/bin/env bash
# Scaling out behind a real nginx (Debian's package): three instances of the conformance
# example on loopback ports, sharing one requestState key ring (MCP_TOOLKIT_REQUEST_STATE_KEYS)
# and each named (MCP_TOOLKIT_INSTANCE), behind nginx run with tests/deploy/nginx.conf. Then
# client.py checks, through nginx:
#   (a) 2026-07-28 requests spread round-robin over the three instances;
#   (b) a call that asks (input_required) completes with its rounds on different instances;
#   (c) legacy sessions stay on the instance that issued them (requests and GET stream), and
#       their id sent straight to another instance gets 404;
#   (e) SSE passes through: a subscriptions/listen stream is acknowledged and stays open, a
#       change arrives on it, a progress answer streams;
#   (d) after one instance is killed (SIGKILL), modern calls go on through the others;
#   (f) that instance's session then gets 404 (so its client starts anew); the others' go on.
#
#   tests/deploy/run.sh [BIN_DIR]     # BIN_DIR holds conformance (default target/debug, as
#                                     # `cargo build` makes it); nothing is built here
#
# Installs nginx (apt-get) when it is missing and this runs as root; otherwise fails saying
# so. Touches no system configuration: nginx runs as the current user with a prefix, config,
# logs, pid and temporary files in a temporary directory. Ends with "N passed, M failed";
# exits 1 on any failure, 2 when it could not set up.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$(realpath "${1:-$root/target/debug}")
server="$bin/conformance"
[ -x "$server" ] || { echo "$0: no $server; build it first (cargo build)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "$0: python3 is needed for the client" >&2; exit 2; }

work=$(mktemp -d)
# Every process started here; disowned, so the shell does not announce the one killed on
# purpose, and stopped (SIGTERM, then SIGKILL after 5 s) on exit.
pids=()
started() { pids+=("$1"); disown "$1"; }
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- nginx ----------------------------------------------------------------------------------
find_nginx() { command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; }; }
nginx=$(find_nginx)
if [ -z "$nginx" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "$0: nginx is not installed, and installing it needs root: run \`sudo apt-get install -y nginx-light\` (or nginx) first" >&2
    exit 2
  fi
  echo "installing nginx (Debian's package)"
  export DEBIAN_FRONTEND=noninteractive
  apt_install() { apt-get install -y -q --no-install-recommends "$@" >>"$work/apt.log" 2>&1; }
  apt_install nginx-light || apt_install nginx || { apt-get update -q >>"$work/apt.log" 2>&1 && { apt_install nginx-light || apt_install nginx; }; } || {
    tail -20 "$work/apt.log" >&2
    echo "$0: installing nginx failed" >&2
    exit 2
  }
  nginx=$(find_nginx)
  [ -n "$nginx" ] || { echo "$0: nginx installed but not found" >&2; exit 2; }
fi
echo "$("$nginx" -v 2>&1)"

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
  for log in "$work"/*.stderr "$work/nginx/error.log"; do
    [ -s "$log" ] && { echo "---- $(basename "$log"):"; tail -20 "$log"; }
  done
}

# --- three instances, one key ring ------------------------------------------------------------
# Two keys: the first seals, both open (as during a rotation).
key() { python3 -c 'import base64, os; print(base64.b64encode(os.urandom(32)).decode())'; }
keys="$(key),$(key)"
instances=()
ports=()
for i in 0 1 2; do
  port=$(free_port)
  MCP_TOOLKIT_REQUEST_STATE_KEYS="$keys" MCP_TOOLKIT_INSTANCE="mcp-$i" \
    "$server" --http "127.0.0.1:$port" </dev/null >/dev/null 2>"$work/mcp-$i.stderr" &
  started $!
  ports+=("$port")
  instances+=(--instance "mcp-$i=$port:$!")
done
for i in 0 1 2; do
  wait_listening "${ports[i]}" "${pids[i]}" "mcp-$i" || { show_logs; exit 2; }
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
echo "nginx on 127.0.0.1:$listen in front of mcp-0, mcp-1, mcp-2 on ${ports[*]}"

# --- the checks ------------------------------------------------------------------------------
python3 "$here/client.py" --nginx "$listen" --access-log "$prefix/access.log" "${instances[@]}" \
  | tee "$work/verdicts"
passed=$(grep -c '^PASS' "$work/verdicts")
failed=$(grep -c '^FAIL' "$work/verdicts")
[ "$passed" -gt 0 ] || failed=$((failed + 1)) # the client ran no check at all
[ "$failed" = 0 ] || show_logs
echo "deploy: $passed passed, $failed failed"
[ "$failed" = 0 ]
