#!/usr/bin/env bash
# Runs both fuzz targets, one after the other, for SECONDS each (default 300), starting from
# the small seed corpus in seeds/ and keeping what they find in corpus/ (not committed).
# A crash stops the run and leaves its input in artifacts/.
#
#   cargo install cargo-fuzz     # once
#   bash fuzz/run.sh [SECONDS]
#
# `--sanitizer none` keeps it on the stable toolchain; the targets check for panics and for
# answers that are not JSON objects or arrays.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-300}
for target in engine arguments; do
    mkdir -p "corpus/$target"
    cargo fuzz run "$target" --sanitizer none --release "corpus/$target" "seeds/$target" -- \
        -max_total_time="$seconds" -rss_limit_mb=2048
done
