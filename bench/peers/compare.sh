#!/usr/bin/env bash
# Paired comparison of our example servers with the echo floors (the transport's physical
# limit), a no-framework serde_json floor, and rmcp 3.11.
#
#   bash bench/peers/compare.sh [--rounds N] [--quick] [--build-times] [--only MEASURES]
#
# For every measure, each round runs ours, echo, floor, rmcp stdio_pipes(), rmcp stdio() in
# that order (A B C D E A B C D E ...), client and server pinned together on CPU 0; the table
# shows the median of the rounds. --only takes a comma-separated list of call, pipeline,
# startup, big, http, http32, workers, listen, many, asks, binaries, rebuild, tasks (the
# criterion bench of the task stores, ours only: `--only tasks` runs it alone, in about a
# minute once built), discovery (tool search: our discovery_bench beside FastMCP's
# BM25SearchTransform on the same tools and requests, in a venv of its own, installed on
# first use; `--only discovery` builds and runs nothing else). The last table sets every
# figure beside its goal. See README.md beside this script.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
measures=call,pipeline,startup,big,http,http32,workers,listen,many,asks,binaries,rebuild,tasks,discovery
rounds=5 quick=0 build_times=0 only=$measures
while (($#)); do
    case $1 in
        --rounds) rounds=$2; shift ;;
        --quick) quick=1 ;;
        --build-times) build_times=1 ;;
        --only) only=$2; shift ;;
        -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "compare.sh: unknown option \`$1\`; expected --rounds N, --quick, --build-times, --only MEASURES" >&2; exit 2 ;;
    esac
    shift
done
for measure in ${only//,/ }; do
    case $measure in
        call | pipeline | startup | big | http | http32 | workers | listen | many | asks | binaries | rebuild | tasks | discovery) ;;
        *) echo "compare.sh: unknown measure \`$measure\` in --only; expected one of ${measures//,/, }" >&2; exit 2 ;;
    esac
done
want() { [[ ",$only," == *",$1,"* ]]; }
# Whether every measure wanted is one of MEASURES.
only_among() {
    local measure
    for measure in ${only//,/ }; do
        [[ " $* " == *" $measure "* ]] || return 1
    done
}

# Requests per run: the sequential run doubles as the CPU and peak-RSS run (20k calls).
calls=20000
if ((quick)); then
    pipelined=20000 startups=5 bigs=5 http_calls=3000 asks=5000 listens=2000 lists=500
else
    pipelined=100000 startups=20 bigs=20 http_calls=10000 asks=20000 listens=10000 lists=2000
fi

target=${CARGO_TARGET_DIR:-$root/target}
peers_target=$target/peers
load_dir=$root/bench/mcp-load
load=$target/mcp-load/release/mcp-load
out=$(mktemp -d /tmp/peers-compare.XXXXXX)

build() { nice -n 10 cargo build --release --quiet "$@"; }

if ! only_among tasks discovery; then # these build what they run themselves
    echo "building (ours into $target, peers into $peers_target) ..." >&2
    CARGO_TARGET_DIR=$target/mcp-load build --manifest-path "$load_dir/Cargo.toml"
    (cd "$root" && CARGO_TARGET_DIR=$target build --bin calculator --bin text_analyzer --bin notes)
fi
if ! only_among asks listen rebuild tasks discovery; then # every other measure runs the peers
    # One package (or one side) at a time: built together, they would share one set of
    # features, and mcp-toolkit' serde_json features (`preserve_order`, `raw_value`) would slow
    # the serde floor and rmcp, which do not ask for them.
    for peers in "-p echo-floor -p http-floor" "-p floor" "-p rmcp-peer" "-p ours-stdio -p ours-mt"; do
        # shellcheck disable=SC2086 # $peers is several words on purpose
        CARGO_TARGET_DIR=$peers_target build --manifest-path "$here/Cargo.toml" $peers
    done
fi

programs=(ours echo floor rmcp-pipes rmcp-stdio)

# The stdio command of `program` serving `tool` (ours has one binary per tool).
server() {
    case $1 in
        ours) echo "$target/release/$2" ;;
        echo) echo "$peers_target/release/echo-floor" ;;
        floor) echo "$peers_target/release/floor" ;;
        rmcp-pipes) echo "$peers_target/release/rmcp-peer pipes" ;;
        rmcp-stdio) echo "$peers_target/release/rmcp-peer stdio" ;;
    esac
}

# One mcp-load run: its JSON goes to $out/MEASURE.PROGRAM.ROUND.json, its complaints to .err.
measure() {
    local name=$1 program=$2 round=$3
    shift 3
    ${pin[@]+"${pin[@]}"} "$load" --label "$program" "$@" \
        >"$out/$name.$program.$round.json" 2>"$out/$name.$program.$round.err" || true
}

# Client and server share CPU 0, except where a measure is about using both CPUs.
pin=(taskset -c 0)

stdio_measure() {
    local name=$1 tool=$2
    shift 2
    echo "measuring $name ..." >&2
    for ((round = 1; round <= rounds; round++)); do
        for program in "${programs[@]}"; do
            # shellcheck disable=SC2046 # the server command is split into words on purpose
            measure "$name" "$program" "$round" "$@" -- $(server "$program" "$tool")
        done
    done
}

want call && stdio_measure call calculator call -n "$calls"
want pipeline && stdio_measure pipeline calculator pipeline -n "$pipelined" -k 64
want startup && stdio_measure startup calculator startup -r "$startups"
programs=(ours floor rmcp-pipes rmcp-stdio) # the echo floor does not count characters
want big && stdio_measure big text_analyzer big -n "$bigs" --expect '"characters":1048576'
programs=(ours echo floor rmcp-pipes rmcp-stdio)

# Streamable HTTP: a fresh server per run, pinned beside the client.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for_port() {
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.05
    done
    return 1
}
# `http_measure MEASURE PROGRAM ROUND SERVER... -- LOAD-ARGS...`: starts SERVER with a free
# address appended, runs one mcp-load against it, and stops it.
http_measure() {
    local name=$1 program=$2 round=$3 server=() port pid
    shift 3
    while [[ $1 != -- ]]; do server+=("$1"); shift; done
    shift
    port=$(free_port)
    ${pin[@]+"${pin[@]}"} "${server[@]}" "127.0.0.1:$port" 2>"$out/$name-server.$program.$round.err" &
    pid=$!
    if wait_for_port "$port"; then
        measure "$name" "$program" "$round" "$@" --http "http://127.0.0.1:$port/mcp"
    else
        echo "no server listening on port $port" >"$out/$name.$program.$round.err"
    fi
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

# Ours, the HTTP floor (bare hyper) and rmcp's two configurations: one call at a time
# (http), and 32 in flight (http32).
for name in http http32; do
    want $name || continue
    echo "measuring $name ..." >&2
    case $name in
        http) load_args=(call -n "$http_calls") ;;
        http32) load_args=(pipeline -n "$((http_calls * 2))" -k 32) ;;
    esac
    for ((round = 1; round <= rounds; round++)); do
        for program in ours echo rmcp rmcp-stateless; do
            case $program in
                ours) server=("$target/release/calculator" --http) ;;
                echo) server=("$peers_target/release/http-floor" --http) ;;
                rmcp) server=("$peers_target/release/rmcp-peer" --http) ;;
                rmcp-stateless) server=("$peers_target/release/rmcp-peer" --http-stateless) ;;
            esac
            http_measure $name "$program" "$round" "${server[@]}" -- "${load_args[@]}"
        done
    done
done

# The calculator on a multi-thread runtime (bench/peers/ours-mt) with one worker, then two,
# 64 calls in flight: how the HTTP endpoint scales. Nothing is pinned: the server may use
# both CPUs, and shares them with the load generator.
if want workers; then
    echo "measuring workers ..." >&2
    pin=()
    for ((round = 1; round <= rounds; round++)); do
        for workers in 1 2; do
            http_measure workers "w$workers" "$round" "$peers_target/release/ours-mt" --workers "$workers" --http \
                -- pipeline -n "$((http_calls * 2))" -k 64
        done
    done
    pin=(taskset -c 0)
fi

# Memory per idle 2026-07-28 listen stream: the calculator over HTTP with `listens` streams
# open (listen_memory.py), its VmRSS before and after.
if want listen; then
    echo "measuring listen ($listens streams) ..." >&2
    for ((round = 1; round <= rounds; round++)); do
        port=$(free_port)
        (ulimit -n $((listens + 1024)) && exec "$target/release/calculator" --http "127.0.0.1:$port") \
            2>"$out/listen-server.ours.$round.err" &
        pid=$!
        if wait_for_port "$port"; then
            (ulimit -n $((listens + 1024)) && python3 "$here/listen_memory.py" --pid "$pid" \
                --url "http://127.0.0.1:$port/mcp" --streams "$listens") \
                >"$out/listen.ours.$round.json" 2>"$out/listen.ours.$round.err" || true
        fi
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
fi

# A thousand tools (ours only): the calculator among 999 others (bench/peers/ours-stdio
# --extra-tools 999) against the calculator alone, called in turn; and tools/list of all
# 1,000, one page.
if want many; then
    echo "measuring many ..." >&2
    stdio_server=$peers_target/release/ours-stdio
    for ((round = 1; round <= rounds; round++)); do
        measure many-call one "$round" call -n "$calls" -- "$stdio_server"
        measure many-call thousand "$round" call -n "$calls" -- "$stdio_server" --extra-tools 999
        measure many-list thousand "$round" list -n "$lists" -- "$stdio_server" --extra-tools 999
    done
fi

# One elicitation round vs a plain call, ours only: the notes example holding one note, the
# client declaring elicitation. The plain call is `search_notes`; the asking one is
# `clear_notes`, whose confirmation form is declined (one round, nothing deleted). Each
# round runs the pair back to back on fresh servers, for each transport and era.
if want asks; then
    echo "measuring asks ..." >&2
    notes=$target/release/notes
    common=(--setup-call add_note '{"title":"a note","body":"to keep"}' --capabilities '{"elicitation":{}}')
    for ((round = 1; round <= rounds; round++)); do
        for transport in stdio http; do
            for version in 2025-11-25 2026-07-28; do
                for kind in plain ask; do
                    case $kind in
                        plain) args=(call --tool search_notes --args '{"query":"note"}') ;;
                        ask) args=(ask --tool clear_notes) ;;
                    esac
                    args+=(--protocol-version "$version" "${common[@]}")
                    if [[ $transport == stdio ]]; then
                        measure asks "$kind-stdio-$version" "$round" "${args[@]}" -n "$asks" -- "$notes"
                    else
                        http_measure asks "$kind-http-$version" "$round" "$notes" --http -- "${args[@]}" -n "$http_calls"
                    fi
                done
            done
        done
    done
fi

# Stripped release binary size, and with --build-times the wall time of a clean release build.
if want binaries; then
    echo "measuring binaries ..." >&2
    for program in ours echo floor rmcp; do
        case $program in
            ours) binary=$target/release/calculator ;;
            echo) binary=$peers_target/release/echo-floor ;;
            floor) binary=$peers_target/release/floor ;;
            rmcp) binary=$peers_target/release/rmcp-peer ;;
        esac
        cp "$binary" "$out/$program.bin"
        strip "$out/$program.bin"
        stat -c %s "$out/$program.bin" >"$out/size.$program"
        rm "$out/$program.bin"
    done
fi
if ((build_times)); then
    for program in ours ours-stdio floor rmcp; do
        echo "clean release build of $program ..." >&2
        scratch=$(mktemp -d /tmp/peers-build.XXXXXX)
        start=$(date +%s%N)
        case $program in
            ours) (cd "$root" && CARGO_TARGET_DIR=$scratch build --bin calculator) ;;
            ours-stdio) CARGO_TARGET_DIR=$scratch build --manifest-path "$here/Cargo.toml" -p ours-stdio ;;
            floor) CARGO_TARGET_DIR=$scratch build --manifest-path "$here/Cargo.toml" -p floor ;;
            rmcp) CARGO_TARGET_DIR=$scratch build --manifest-path "$here/Cargo.toml" -p rmcp-peer ;;
        esac
        echo "$((($(date +%s%N) - start) / 1000000))" >"$out/build.$program"  # ms
        rm -rf "$scratch"
    done
fi

# A user's debug rebuild of a one-tool server after editing the tool's body
# (bench/compile-time/run.sh builds the crate and its dependencies once, then times the
# edits): the median of the rounds.
if want rebuild; then
    echo "measuring rebuild (the first run builds the dependencies in debug) ..." >&2
    nice -n 10 bash "$root/bench/compile-time/run.sh" --incremental-only --runs "$rounds" \
        >"$out/rebuild.ours" 2>"$out/rebuild.err" || rm -f "$out/rebuild.ours"
fi

# Tasks, ours only (no peer SDK ships the 2026-07-28 tasks extension, so there is nothing to
# divide by): the criterion bench mcp-tools/benches/tasks.rs, for every task store (Redis
# where `redis-server` is on PATH; the bench starts it). Criterion samples on its own, so
# --rounds does not apply; nothing is pinned (SQLite writes on a thread of its own, Redis
# is a process of its own). Its estimates go to $out/criterion, its memory lines to
# $out/tasks.txt.
if want tasks; then
    echo "building the tasks bench ..." >&2
    bench=(cargo bench --quiet -p mcp-toolkit --bench tasks --features "sqlite,redis")
    (cd "$root" && CARGO_TARGET_DIR=$target nice -n 10 "${bench[@]}" --no-run)
    echo "measuring tasks ..." >&2
    criterion_args=()
    if ((quick)); then criterion_args=(--quick); fi
    (cd "$root" && CARGO_TARGET_DIR=$target CRITERION_HOME=$out/criterion "${bench[@]}" -- ${criterion_args[@]+"${criterion_args[@]}"}) \
        >"$out/tasks.txt" 2>"$out/tasks.err" || echo "the tasks bench failed: see $out/tasks.err" >&2
fi

# Tool search (issue 38): ours (discovery_bench, in process) against FastMCP 4.2.3's
# BM25SearchTransform (discovery/fastmcp_twin.py) on the same catalogue, the one
# discovery_bench dumps as tools/list gives it with search off, and the same requests. Both
# time their search over many repetitions in one run, so --rounds does not apply; each is
# pinned to CPU 0. Everything goes to $out/discovery.
if want discovery; then
    for set in "" -holdout; do
        [[ -f $root/bench/discovery/requests$set.json ]] ||
            { echo "compare.sh: no $root/bench/discovery/requests$set.json" >&2; exit 2; }
    done
    venv=$here/discovery/.venv
    if ! cmp -s "$here/discovery/requirements.txt" "$venv/.installed" 2>/dev/null; then
        echo "installing FastMCP into $venv ..." >&2
        rm -rf "$venv"
        "$(command -v python3.11 || command -v python3)" -m venv "$venv"
        "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/discovery/requirements.txt"
        cp "$here/discovery/requirements.txt" "$venv/.installed"
    fi
    echo "building discovery_bench ..." >&2
    (cd "$root" && CARGO_TARGET_DIR=$target build --bin discovery_bench)
    echo "measuring discovery ..." >&2
    mkdir -p "$out/discovery"
    "$target/release/discovery_bench" --dump-tools "$out/discovery/tools.json"
    # The set the ranker was tuned on, then the held-out set written blind to it.
    for set in "" -holdout; do
        requests=$root/bench/discovery/requests$set.json
        ${pin[@]+"${pin[@]}"} "$target/release/discovery_bench" --requests "$requests" --json \
            >"$out/discovery/ours$set.json" 2>"$out/discovery/ours$set.err" || true
        ${pin[@]+"${pin[@]}"} "$venv/bin/python" "$here/discovery/fastmcp_twin.py" \
            --tools "$out/discovery/tools.json" --requests "$requests" \
            >"$out/discovery/fastmcp$set.json" 2>"$out/discovery/fastmcp$set.err" || true
    done
fi

python3 - "$out" "$rounds" <<'EOF'
import glob, json, os, statistics, sys

out, rounds = sys.argv[1], int(sys.argv[2])
programs = ["ours", "echo", "floor", "rmcp-pipes", "rmcp-stdio"]
notes = {}  # ordered and without repeats: several measures read the same run

def runs(name, program):
    """The mcp-load JSON of each round of one measure and program; failures go to notes."""
    found = []
    for path in sorted(glob.glob(f"{out}/{name}.{program}.*.json")):
        text = open(path).read().strip()
        err = open(path[:-5] + ".err").read().strip()
        doc = json.loads(text) if text else None
        if doc is None or doc.get("failures") or doc.get("ok") == 0:
            why = (doc or {}).get("first_error") or err or "no output"
            notes[f"{name} / {program} round {path.split('.')[-2]}: {why[:300]}"] = None
        if doc is not None and doc.get("ok"):
            found.append(doc)
    return found

def median(name, program, value):
    values = [value(doc) for doc in runs(name, program)]
    return statistics.median(values) if values else None

def from_file(name, program, scale=1.0):
    path = f"{out}/{name}.{program}"
    return float(open(path).read()) * scale if os.path.exists(path) else None

# measure: (label, higher is better, format, {program: value})
measures = []
def add(label, higher, fmt, values):
    measures.append((label, higher, fmt, values))

per = lambda name, value: {p: median(name, p, value) for p in programs}
add("sequential tools/call", True, lambda v: f"{v / 1000:.1f}k/s",
    per("call", lambda d: d["throughput_per_s"]))
add("pipelined, 64 in flight", True, lambda v: f"{v / 1000:.1f}k/s",
    per("pipeline", lambda d: d["throughput_per_s"]))
add("server CPU per call", False, lambda v: f"{v:.1f} µs",
    per("call", lambda d: d["server_cpu_s"] * 1e6 / d["n"]))
add("spawn → first response", False, lambda v: f"{v:.2f} ms",
    per("startup", lambda d: d["startup_us"]["p50"] / 1000))
add("peak RSS after 20k calls", False, lambda v: f"{v:.1f} MiB",
    per("call", lambda d: d["server_peak_rss_kib"] / 1024))
add("1 MiB text_analyzer call", False, lambda v: f"{v:.2f} ms",
    per("big", lambda d: d["latency_us"]["p50"] / 1000))
# rmcp's best HTTP configuration of the two (sessions; stateless with JSON answers).
http_rmcp = max((x for x in (median("http", c, lambda d: d["throughput_per_s"]) for c in ("rmcp", "rmcp-stateless"))
                 if x is not None), default=None)
add("HTTP sequential tools/call", True, lambda v: f"{v / 1000:.1f}k/s",
    {"ours": median("http", "ours", lambda d: d["throughput_per_s"]),
     "echo": median("http", "echo", lambda d: d["throughput_per_s"]), "floor": None,
     "rmcp-pipes": http_rmcp, "rmcp-stdio": http_rmcp})
http32_rmcp = max((x for x in (median("http32", c, lambda d: d["throughput_per_s"]) for c in ("rmcp", "rmcp-stateless"))
                   if x is not None), default=None)
add("HTTP, 32 in flight", True, lambda v: f"{v / 1000:.1f}k/s",
    {"ours": median("http32", "ours", lambda d: d["throughput_per_s"]),
     "echo": median("http32", "echo", lambda d: d["throughput_per_s"]), "floor": None,
     "rmcp-pipes": http32_rmcp, "rmcp-stdio": http32_rmcp})
size = lambda p: from_file("size", p, 1 / 1024)
add("stripped binary", False, lambda v: f"{v / 1024:.2f} MiB" if v >= 1024 else f"{v:.0f} KiB",
    {"ours": size("ours"), "echo": size("echo"), "floor": size("floor"), "rmcp-pipes": size("rmcp"),
     "rmcp-stdio": size("rmcp")})
build = lambda p: from_file("build", p, 1 / 1000)
if build("ours") is not None:
    add("clean release build", False, lambda v: f"{v:.1f} s",
        {"ours": build("ours"), "echo": None, "floor": build("floor"), "rmcp-pipes": build("rmcp"),
         "rmcp-stdio": build("rmcp")})
if build("ours-stdio") is not None:
    add("clean release build, stdio only", False, lambda v: f"{v:.1f} s",
        {"ours": build("ours-stdio"), "echo": None, "floor": build("floor"), "rmcp-pipes": build("rmcp"),
         "rmcp-stdio": build("rmcp")})

def ratio(a, b):
    return f"{a / b:.2f}×" if a is not None and b else "—"

measures = [m for m in measures if any(x is not None for x in m[3].values())]  # --only
if glob.glob(f"{out}/*.json"):
    print(f"\nMedian of {rounds} paired rounds, client and server on CPU 0.")
if measures:
    print("\n| measure | ours | echo floor | serde floor | rmcp stdio_pipes() | rmcp stdio() | ours÷echo | ours÷floor | ours÷rmcp best |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, higher, fmt, v in measures:
        cells = [fmt(v[p]) if v[p] is not None else "—" for p in programs]
        rmcp = [x for x in (v["rmcp-pipes"], v["rmcp-stdio"]) if x is not None]
        best = (max(rmcp) if higher else min(rmcp)) if rmcp else None
        print(f"| {label} | " + " | ".join(cells)
              + f" | {ratio(v['ours'], v['echo'])} | {ratio(v['ours'], v['floor'])} | {ratio(v['ours'], best)} |")
    print("\nHTTP: the echo column is the HTTP floor (bare hyper, canned answers); rmcp's better HTTP")
    print("configuration (default sessions, or stateless with JSON answers) fills both rmcp columns.")
    print("Sizes and build times: one rmcp-peer binary serves both rmcp columns.")

# One elicitation round vs a plain call (ours only): calls/s of each, and plain ÷ asking.
rows = []
for transport in ("stdio", "http"):
    for version in ("2025-11-25", "2026-07-28"):
        plain, ask = (median("asks", f"{kind}-{transport}-{version}", lambda d: d["throughput_per_s"])
                      for kind in ("plain", "ask"))
        if plain is not None or ask is not None:
            rows.append((f"{'HTTP' if transport == 'http' else transport}, {version}", plain, ask))
if rows:
    rate = lambda v: f"{v / 1000:.2f}k/s" if v is not None else "—"
    print("\nOne elicitation round vs a plain call (ours, the notes example holding one note):")
    print("`search_notes` against `clear_notes` with its confirmation form declined.\n")
    print("| transport, revision | plain call | call with one elicitation round | plain ÷ asking (goal ≤ 2×) |")
    print("|---|---:|---:|---:|")
    for label, plain, ask in rows:
        print(f"| {label} | {rate(plain)} | {rate(ask)} | {ratio(plain, ask)} |")
# Scaling over worker threads, and memory per listen stream (ours only).
one, two = (median("workers", w, lambda d: d["throughput_per_s"]) for w in ("w1", "w2"))
if one is not None or two is not None:
    rate = lambda v: f"{v / 1000:.2f}k/s" if v is not None else "—"
    print("\nHTTP, 64 in flight, multi-thread runtime (bench/peers/ours-mt), nothing pinned:\n")
    print("| 1 worker | 2 workers | 2 ÷ 1 (goal ≥ 1.6×) |")
    print("|---:|---:|---:|")
    print(f"| {rate(one)} | {rate(two)} | {ratio(two, one)} |")
listen = runs("listen", "ours")
if listen:
    per_stream = statistics.median(d["kib_per_stream"] for d in listen)
    before = statistics.median(d["rss_before_kib"] for d in listen)
    after = statistics.median(d["rss_after_kib"] for d in listen)
    print(f"\nIdle 2026-07-28 listen streams, {listen[0]['streams']:,} open on the calculator over HTTP:")
    print(f"VmRSS {before / 1024:.1f} MiB before, {after / 1024:.1f} MiB after: {per_stream:.1f} KiB per stream (goal ≤ 16 KiB).")
# A thousand tools (ours only).
rate_of = lambda name, program: median(name, program, lambda d: d["throughput_per_s"])
one, thousand = rate_of("many-call", "one"), rate_of("many-call", "thousand")
list_rate = rate_of("many-list", "thousand")
list_p50 = median("many-list", "thousand", lambda d: d["latency_us"]["p50"] / 1000)
if one is not None or list_rate is not None:
    rate = lambda v: f"{v / 1000:.1f}k/s" if v is not None else "—"
    print("\nA thousand tools (bench/peers/ours-stdio --extra-tools 999 against the calculator alone):\n")
    print("| calculator call, 1 tool | calculator call, 1,000 tools | 1 ÷ 1,000 | tools/list of 1,000 | its median latency |")
    print("|---:|---:|---:|---:|---:|")
    p50 = f"{list_p50:.2f} ms" if list_p50 is not None else "—"
    print(f"| {rate(one)} | {rate(thousand)} | {ratio(one, thousand)} | {rate(list_rate)} | {p50} |")

rebuild = from_file("rebuild", "ours")
if rebuild is not None:
    print(f"\nDebug rebuild of a one-tool server after editing its body (bench/compile-time): {rebuild:.2f} s.")

# Tasks (ours only): criterion's median of each figure, by store, and the memory lines.
task_figures = {}
for path in glob.glob(f"{out}/criterion/**/new/benchmark.json", recursive=True):
    bench = json.load(open(path))
    estimates = json.load(open(os.path.join(os.path.dirname(path), "estimates.json")))
    task_figures[bench["full_id"]] = estimates["median"]["point_estimate"]  # ns per element
if task_figures:
    stores = [s for s in ("memory", "sqlite", "redis") if any(f"/{s}/" in k for k in task_figures)]
    rows = [
        ("store: create, replace ×2, load (a short task)", "tasks/store/{}/create, replace ×2, load", "time"),
        ("store: load among 1,000", "tasks/store/{}/load among 1,000", "time"),
        ("tools/call creating a finished task", "tasks/e2e/{}/call, finished at once", "rate"),
        ("create and finish, 1 in flight", "tasks/e2e/{}/call, working then finished, 1 in flight", "rate"),
        ("create and finish, 32 in flight", "tasks/e2e/{}/call, working then finished, 32 in flight", "rate"),
        ("tasks/get of a finished task", "tasks/e2e/{}/tasks/get, finished task among 1,000", "time"),
    ]
    floor = task_figures.get("tasks/e2e/call, no task (the floor)")
    def cell(ns, kind):
        if ns is None:
            return "—"
        if kind == "rate":
            per_s = 1e9 / ns
            return f"{per_s / 1000:.1f}k/s" if per_s >= 1000 else f"{per_s:.0f}/s"
        return f"{ns / 1000:.2f} µs" if ns < 1e6 else f"{ns / 1e6:.2f} ms"
    print("\nTasks (mcp-tools/benches/tasks.rs, criterion medians; ours only: no peer SDK ships")
    print("2026-07-28 tasks, so there is no ratio to a peer):\n")
    print("| measure | " + " | ".join(stores) + " |")
    print("|---|" + "---:|" * len(stores))
    for label, key, kind in rows:
        print(f"| {label} | " + " | ".join(cell(task_figures.get(key.format(s)), kind) for s in stores) + " |")
    if floor is not None:
        print("\nThe tools/call and tasks/get rows go through the in-process test client; the same call")
        print(f"answered directly, not as a task (the floor under them), takes {cell(floor, 'time')}.")
if os.path.exists(f"{out}/tasks.txt"):
    memory = [line.removeprefix("tasks/memory: ") for line in open(f"{out}/tasks.txt") if line.startswith("tasks/memory: ")]
    if memory:
        print("\nMemory of finished tasks in the in-memory store (heap counted by the bench's allocator):\n")
        for line in memory:
            print(f"- {line.rstrip()}")
    notes_txt = f"{out}/tasks.err"
    for line in open(notes_txt) if os.path.exists(notes_txt) else []:
        if line.startswith("note: "):
            print(f"- {line.rstrip()}")

# Tool search (issue 38): ours and FastMCP's BM25SearchTransform on the same tools and requests.
def discovery(side, suffix):
    """One side's JSON object, or None with the reason in notes."""
    path = f"{out}/discovery/{side}{suffix}.json"
    if not os.path.exists(path):
        return None
    text = open(path).read().strip()
    try:
        return json.loads(text)
    except ValueError:
        err = open(path[:-5] + ".err").read().strip()
        notes[f"discovery / {side}: {(err or text or 'no output')[-300:]}"] = None
        return None
for suffix, title in (("", "the tuning set, requests.json"), ("-holdout", "the held-out set, requests-holdout.json")):
    sides = {side: discovery(side, suffix) for side in ("ours", "fastmcp")}
    if any(sides.values()):
        def field(side, key):
            if key == "share":  # tools/list with search on ÷ off
                on, off = field(side, "list_bytes_search"), field(side, "list_bytes_full")
                return on / off if on is not None and off else None
            return sides[side].get(key) if sides[side] else None
        def counts(side):
            return f"{field(side, 'tools')} tools, {field(side, 'requests')} requests" if sides[side] else "failed"
        at5, their_at5 = field("ours", "recall_at_5"), field("fastmcp", "recall_at_5")
        p50, share = field("ours", "search_p50_us"), field("ours", "share")
        rows = [  # label, key, format, goal, met (None: no figure, or no goal)
            ("recall@1", "recall_at_1", "{:.3f}", "", None),
            ("recall@5", "recall_at_5", "{:.3f}", "≥ 0.90 and > FastMCP",
             None if at5 is None or their_at5 is None else at5 >= 0.9 and at5 > their_at5),
            ("search p50", "search_p50_us", "{:.1f} µs", "≤ 50 µs", None if p50 is None else p50 <= 50),
            ("search p99", "search_p99_us", "{:.1f} µs", "", None),
            ("tools/list bytes, search off", "list_bytes_full", "{:,}", "", None),
            ("tools/list bytes, search on", "list_bytes_search", "{:,}", "", None),
            ("tools/list, search on ÷ off", "share", "{:.3f}", "≤ 0.10", None if share is None else share <= 0.10),
        ]
        print(f"\nTool search (issue 38), {title}: ours ({counts('ours')}) and {field('fastmcp', 'peer') or 'FastMCP'}")
        print(f"({counts('fastmcp')}) on the same catalogue and requests, each search timed in process:\n")
        print("| measure | ours | FastMCP | goal | |")
        print("|---|---:|---:|---|---|")
        for label, key, fmt, goal, met in rows:
            cells = ["—" if field(side, key) is None else fmt.format(field(side, key)) for side in ("ours", "fastmcp")]
            print(f"| {label} | {cells[0]} | {cells[1]} | {goal} | {'' if met is None else 'PASS' if met else 'FAIL'} |")
        for side, name in (("ours", "ours"), ("fastmcp", "FastMCP")):
            misses = field(side, "misses")
            if misses is not None:
                print(f"\nMisses, {name} (the expected tool not among the five results): {len(misses)}")
                for miss in misses:
                    got = ", ".join(f"`{t}`" for t in miss["got"]) or "nothing"
                    print(f"- \"{miss['request']}\": expected `{miss['expected']}`, got {got}")

# Every figure beside its goal (bench/peers/README.md names where each comes from).
values = {label: v for label, _, _, v in measures}
def best_rmcp(label, higher=True):
    v = values.get(label)
    rmcp = [x for x in (v["rmcp-pipes"], v["rmcp-stdio"]) if x is not None] if v else []
    return (max(rmcp) if higher else min(rmcp)) if rmcp else None
def of(label, program):
    v = values.get(label)
    return v[program] if v else None
def div(a, b):
    return a / b if a is not None and b else None
asks_ratios = [div(*(median("asks", f"{kind}-{t}-{v}", lambda d: d["throughput_per_s"]) for kind in ("plain", "ask")))
               for t in ("stdio", "http") for v in ("2025-11-25", "2026-07-28")]
asks_ratios = [r for r in asks_ratios if r is not None]
listen_kib = statistics.median(d["kib_per_stream"] for d in listen) if listen else None
goals = [
    ("stdio sequential calls/s ÷ echo floor", div(of("sequential tools/call", "ours"), of("sequential tools/call", "echo")), "{:.2f}×", ">=", 0.95),
    ("stdio pipelined (64 in flight) ÷ echo floor", div(of("pipelined, 64 in flight", "ours"), of("pipelined, 64 in flight", "echo")), "{:.2f}×", ">=", 0.7),
    ("server CPU per sequential call", of("server CPU per call", "ours"), "{:.1f} µs", "<=", 4.0),
    ("spawn → first response ÷ echo floor", div(of("spawn → first response", "ours"), of("spawn → first response", "echo")), "{:.2f}×", "<=", 1.2),
    ("peak RSS after 20k calls", of("peak RSS after 20k calls", "ours"), "{:.1f} MiB", "<=", 3.0),
    ("HTTP sequential ÷ HTTP floor", div(of("HTTP sequential tools/call", "ours"), of("HTTP sequential tools/call", "echo")), "{:.2f}×", ">=", 0.85),
    ("HTTP 32 in flight ÷ HTTP floor", div(of("HTTP, 32 in flight", "ours"), of("HTTP, 32 in flight", "echo")), "{:.2f}×", ">=", 0.85),
    ("HTTP sequential ÷ best rmcp", div(of("HTTP sequential tools/call", "ours"), best_rmcp("HTTP sequential tools/call")), "{:.2f}×", ">=", 2.0),
    ("HTTP 32 in flight ÷ best rmcp", div(of("HTTP, 32 in flight", "ours"), best_rmcp("HTTP, 32 in flight")), "{:.2f}×", ">=", 2.0),
    ("plain call ÷ call with one elicitation round (worst of four)", max(asks_ratios) if asks_ratios else None, "{:.2f}×", "<=", 2.0),
    ("memory per idle 2026-07-28 listen stream", listen_kib, "{:.1f} KiB", "<=", 16.0),
    ("HTTP 64 in flight, 2 workers ÷ 1", div(*(median("workers", w, lambda d: d["throughput_per_s"]) for w in ("w2", "w1"))), "{:.2f}×", ">=", 1.6),
    ("call among 1 tool ÷ call among 1,000", div(one, thousand), "{:.2f}×", "<=", 1.1),
    ("clean release build, stdio-only server", build("ours-stdio"), "{:.1f} s", "<=", 45.0),
    ("debug rebuild after editing one tool body", rebuild, "{:.2f} s", "<=", 0.5),
]
goals = [g for g in goals if g[1] is not None]
if goals:
    print("\n| goal | measured | target | |")
    print("|---|---:|---:|---|")
    for label, value, fmt, way, target in goals:
        met = value >= target if way == ">=" else value <= target
        print(f"| {label} | {fmt.format(value)} | {'≥' if way == '>=' else '≤'} {fmt.format(target)} | {'met' if met else 'not met'} |")

if notes:
    print("\nFailed runs:")
    for note in notes:
        print(f"- {note}")
print(f"\nRaw mcp-load output: {out}")
EOF
