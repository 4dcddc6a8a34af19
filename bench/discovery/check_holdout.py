#!/usr/bin/env python3
"""Checks requests-holdout.json against the catalogue, without building anything.

The file must be a JSON array of exactly 100 `{"request", "tool"}` objects with no
request twice, and every `tool` must be a `fn` marked `#[tool` in
examples/payments/catalog.rs. Exits 1 naming what is wrong.

    python3 bench/discovery/check_holdout.py
"""

import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
CATALOG = HERE.parent.parent / "examples" / "payments" / "catalog.rs"
HOLDOUT = HERE / "requests-holdout.json"


def catalogue_tools() -> set:
    """Names of the functions that follow a `#[tool` attribute (doc comments between allowed)."""
    tools, pending = set(), False
    for line in CATALOG.read_text().splitlines():
        if line.startswith("#[tool"):
            pending = True
        elif pending and (m := re.match(r"\s*(?:pub\s+)?(?:async\s+)?fn\s+(\w+)", line)):
            tools.add(m.group(1))
            pending = False
    return tools


def main() -> int:
    entries = json.loads(HOLDOUT.read_text())
    tools = catalogue_tools()
    errors = []
    if not isinstance(entries, list) or len(entries) != 100:
        errors.append(f"expected a list of 100 entries, got {len(entries)}")
    seen = set()
    for i, entry in enumerate(entries):
        if set(entry) != {"request", "tool"}:
            errors.append(f"entry {i}: keys {sorted(entry)}")
            continue
        if entry["request"] in seen:
            errors.append(f"entry {i}: duplicate request {entry['request']!r}")
        seen.add(entry["request"])
        if entry["tool"] not in tools:
            errors.append(f"entry {i}: `{entry['tool']}` is not a #[tool] fn of catalog.rs")
    print(f"{len(tools)} tools in catalog.rs; {len(entries)} held-out requests")
    for error in errors:
        print(error)
    if errors:
        return 1
    print("requests-holdout.json is valid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
