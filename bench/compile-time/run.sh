#!/usr/bin/env bash
# What a user pays at compile time for mcp-toolkit: throwaway crates with 1, 50 and 500
# `#[tool]` fns (gen.py), built as a user would, plus the `#[tool]` expansion itself
# (criterion, mcp-toolkit-macros/benches/expand.rs) and the size of the dependency tree.
#
#   bench/compile-time/run.sh                # clean build for N=1 only
#   bench/compile-time/run.sh --clean-all    # clean build for every N
#   bench/compile-time/run.sh --runs 5       # median of 5 (default 3) for the per-crate figures
#   bench/compile-time/run.sh --incremental-only   # only the N=1 incremental rebuild: prints its seconds
#
# Everything is built under ${CARGO_TARGET_DIR:-<repo>/target}/compile-time: the crates in
# crates/, one target dir shared by them in target/, fresh ones for the clean builds, and
# workspace/ for the macro bench. Run it under `nice` on a shared machine; the figures are
# wall-clock and the load average is printed with them.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
base=${CARGO_TARGET_DIR:-$root/target}/compile-time
unset CARGO_TARGET_DIR
export CARGO_TERM_COLOR=never
sizes=(1 50 500)
runs=3
clean_all=0
incremental_only=0
while [ $# -gt 0 ]; do
    case $1 in
        --clean-all) clean_all=1 ;;
        --runs) runs=$2; shift ;;
        --incremental-only) incremental_only=1 ;;
        *) echo "usage: $0 [--clean-all] [--runs N] [--incremental-only]" >&2; exit 2 ;;
    esac
    shift
done

crates="$base/crates"
shared="$base/target"
log="$base/log"
mkdir -p "$crates" "$log"
# The crates live outside the repo: give them its toolchain.
cp "$root/rust-toolchain.toml" "$crates/"

say() { printf '%s\n' "$*" >&2; }

# gen NAME N [--plain]: a crate with the repo's lock file, so it builds the versions we test with.
gen() {
    rm -rf "${crates:?}/$1"
    python3 "$root/bench/compile-time/gen.py" "$crates/$1" "$1" "$2" "$root/mcp-tools" ${3:-}
    cp "$root/Cargo.lock" "$crates/$1/"
}

# cargo_in CRATE TARGET_DIR ARGS...: cargo in the crate's dir (for its toolchain file).
cargo_in() {
    local crate=$1 target=$2
    shift 2
    (cd "$crates/$crate" && CARGO_TARGET_DIR=$target cargo "$@")
}

# timed CRATE TARGET_DIR ARGS...: prints the seconds `cargo ARGS` took. Only the crate may be
# compiled: a run that rebuilt a dependency (the framework's source changed under us) is
# measured again.
timed() {
    local crate=$1 out="$log/last.txt" t0 t1 try
    for try in 1 2 3; do
        t0=$EPOCHREALTIME
        cargo_in "$@" >"$out" 2>&1 || { cat "$out" >&2; return 1; }
        t1=$EPOCHREALTIME
        if ! grep -E '^ *(Compiling|Checking) ' "$out" | grep -vq " $crate v"; then
            python3 -c "print(f'{$t1 - $t0:.2f}')"
            return
        fi
        say "  ($crate: a dependency was rebuilt during the run; measuring again)"
    done
    say "  ($crate: dependencies kept changing; the last figure includes them)"
    python3 -c "print(f'{$t1 - $t0:.2f}')"
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
fmt_s() { [ "$1" = "-" ] && echo "-" || printf '%.1f s' "$1"; }

# crate_only CRATE PROFILE_ARGS...: the crate alone, its dependencies already built.
crate_only() {
    local crate=$1 t=()
    shift
    cargo_in "$crate" "$shared" build "$@" >"$log/warm.txt" 2>&1 || { cat "$log/warm.txt" >&2; return 1; }
    for _ in $(seq "$runs"); do
        cargo_in "$crate" "$shared" clean -p "$crate" "$@" >/dev/null 2>&1
        t+=("$(timed "$crate" "$shared" build "$@")")
    done
    median "${t[@]}"
}

# incremental CRATE: one number in tool 0's body edited (1e12 <-> 1e13), debug build.
incremental() {
    local crate=$1 src="$crates/$1/src/main.rs" t=()
    cargo_in "$crate" "$shared" build >/dev/null 2>&1
    for r in $(seq "$runs"); do
        if [ $((r % 2)) = 1 ]; then
            sed -i 's/MAX_ABS: f64 = 1e12; \/\/ run.sh/MAX_ABS: f64 = 1e13; \/\/ run.sh/' "$src"
        else
            sed -i 's/MAX_ABS: f64 = 1e13; \/\/ run.sh/MAX_ABS: f64 = 1e12; \/\/ run.sh/' "$src"
        fi
        t+=("$(timed "$crate" "$shared" build)")
    done
    sed -i 's/MAX_ABS: f64 = 1e13; \/\/ run.sh/MAX_ABS: f64 = 1e12; \/\/ run.sh/' "$src"
    median "${t[@]}"
}

# check CRATE: `cargo check` of the crate alone, its dependencies already checked.
check() {
    local crate=$1 t=()
    cargo_in "$crate" "$shared" check >"$log/warm.txt" 2>&1 || { cat "$log/warm.txt" >&2; return 1; }
    for _ in $(seq "$runs"); do
        cargo_in "$crate" "$shared" clean -p "$crate" >/dev/null 2>&1
        t+=("$(timed "$crate" "$shared" check)")
    done
    median "${t[@]}"
}

# clean CRATE: everything, dependencies included, in a fresh target dir (debug).
clean() {
    local crate=$1 dir="$base/clean" t0 t1
    rm -rf "$dir"
    t0=$EPOCHREALTIME
    cargo_in "$crate" "$dir" build --timings >"$log/clean-$crate.txt" 2>&1 || { cat "$log/clean-$crate.txt" >&2; return 1; }
    t1=$EPOCHREALTIME
    cp "$(ls -t "$dir"/cargo-timings/cargo-timing-*.html | head -1)" "$base/timings-clean-$crate.html"
    rm -rf "$dir"
    python3 -c "print(f'{$t1 - $t0:.2f}')"
}

load() { cut -d' ' -f1-3 /proc/loadavg; }
load_start=$(load)

# The one figure bench/peers/compare.sh asks for: a debug rebuild of a one-tool server after
# one edit in its tool's body, the median of --runs, in seconds on stdout.
if [ "$incremental_only" = 1 ]; then
    gen tools_1 1
    incremental tools_1
    exit 0
fi

say "== generating crates in $crates"
for n in "${sizes[@]}"; do gen "tools_$n" "$n"; done
gen plain_500 500 --plain

say "== building the dependencies once (debug, release, check) in $shared"
for args in build "build --release" check; do
    # shellcheck disable=SC2086 # $args is two words on purpose
    cargo_in tools_1 "$shared" $args >"$log/deps.txt" 2>&1 || { cat "$log/deps.txt" >&2; exit 1; }
done

declare -A row
for n in "${sizes[@]}"; do
    crate="tools_$n"
    say "== $crate"
    c="-"
    if [ "$n" = 1 ] || [ "$clean_all" = 1 ]; then
        say "  clean debug build"
        c=$(clean "$crate")
    fi
    say "  crate-only debug";   d=$(crate_only "$crate")
    say "  crate-only release"; r=$(crate_only "$crate" --release)
    say "  incremental";        i=$(incremental "$crate")
    say "  check";              k=$(check "$crate")
    row[$n]="| $n | $(fmt_s "$c") | $(fmt_s "$d") | $(fmt_s "$r") | $(fmt_s "$i") | $(fmt_s "$k") |"
done

say "== plain_500: the same 500 fns without #[tool]"
plain_check=$(check plain_500)
tools_check=$(check tools_500)

say "== #[tool] expansion (criterion, mcp-toolkit-macros/benches/expand.rs)"
(cd "$root" && CARGO_TARGET_DIR="$base/workspace" cargo bench -q -p mcp-toolkit-macros --bench expand -- \
    --warm-up-time 1 --measurement-time 5 >"$log/expand.txt" 2>&1) || { cat "$log/expand.txt" >&2; exit 1; }

say "== dependency tree"
tree() { (cd "$root" && CARGO_TARGET_DIR="$base/workspace" cargo tree -q -p mcp-toolkit -e normal --prefix none "$@"); }
tree_counts() { # as asked: `| sort -u | wc -l`; and distinct packages, without cargo's `(*)` repeats and mcp-toolkit itself
    local listing
    listing=$(tree "$@")
    printf '%s | %s' "$(sort -u <<<"$listing" | wc -l)" \
        "$(sed 's/ (\*)$//; s/ (proc-macro)$//' <<<"$listing" | grep -v '^mcp-toolkit ' | sort -u | wc -l)"
}

load_end=$(load)

cat <<EOF

## Compile time of a crate with N \`#[tool]\` fns

$(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p'), $(cd "$crates" && rustc --version | cut -d' ' -f1-2), $(date -u +%F).
Load average (1, 5, 15 min) at start $load_start, at end $load_end. Wall-clock; median of $runs runs
except the clean build (one run).

| N tools | clean debug build | crate-only debug | crate-only release | incremental (one body edited) | cargo check |
|---:|---:|---:|---:|---:|---:|
EOF
for n in "${sizes[@]}"; do echo "${row[$n]}"; done

python3 - "$base/workspace/criterion/expand" "$plain_check" "$tools_check" <<'PY'
import json, sys
from pathlib import Path
crit, plain, tools = Path(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
print("\n## `#[tool]` expansion per tool (parse + check + expand, on proc_macro2 tokens)\n")
print("| tool | median | 95% interval |\n|---|---:|---:|")
for name, what in [("calculator", "calculator (3 params)"), ("large", "large (10 params, 30-line docs)")]:
    est = json.loads((crit / name / "new" / "estimates.json").read_text())["median"]
    ci = est["confidence_interval"]
    print(f"| {what} | {est['point_estimate'] / 1e3:.1f} µs | {ci['lower_bound'] / 1e3:.1f}–{ci['upper_bound'] / 1e3:.1f} µs |")
print(f"\n`cargo check`, 500 fns: with `#[tool]` {tools:.1f} s, without {plain:.1f} s: "
      f"the macro and the code it generates cost {tools - plain:.1f} s, {(tools - plain) / 500 * 1e3:.1f} ms per tool.")
PY

echo
echo "## Dependency tree of mcp-toolkit (\`cargo tree -p mcp-toolkit -e normal --prefix none\`)"
echo
echo "| features | lines after \`sort -u\` | distinct packages besides mcp-toolkit |"
echo "|---|---:|---:|"
echo "| default (http) | $(tree_counts) |"
echo "| --no-default-features | $(tree_counts --no-default-features) |"
echo "| --features cli | $(tree_counts --features cli) |"

python3 - "$base/timings-clean-tools_1.html" <<'PY'
import json, re, sys
from pathlib import Path
path = Path(sys.argv[1])
if not path.exists():
    sys.exit(0)
html = path.read_text()
m = re.search(r"const UNIT_DATA = (\[.*?\]);\n", html, re.S)
units = json.loads(m.group(1))
units.sort(key=lambda u: u["duration"], reverse=True)
print("\n## Slowest units of the clean debug build of tools_1 (`cargo build --timings`)\n")
print("| unit | duration | of which codegen |\n|---|---:|---:|")
for u in units[:10]:
    target = u.get("target", "").strip()
    sections = dict(u.get("sections") or [])
    codegen = f"{sections['codegen']['end'] - sections['codegen']['start']:.1f} s" if "codegen" in sections else "-"
    print(f"| {u['name']} v{u['version']}{' ' + target if target else ''} | {u['duration']:.1f} s | {codegen} |")
print(f"\n{len(units)} units; report: {path}")
PY
