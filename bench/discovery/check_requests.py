#!/usr/bin/env python3
"""Checks that every tool named in requests.json is one the payments server lists.

Runs the server over stdio with tool search off (PAYMENTS_TOOL_SEARCH=off), reads every
page of `tools/list` (following `nextCursor`), and exits 1 naming any tool of
requests.json that is not listed.

    cargo build --bin payments
    python3 bench/discovery/check_requests.py [path/to/payments]
"""

import json
import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", HERE.parent.parent / "target"))
BINARY = sys.argv[1] if len(sys.argv) > 1 else str(TARGET / "debug" / "payments")


def main() -> int:
    env = dict(os.environ, PAYMENTS_TOOL_SEARCH="off")
    server = subprocess.Popen(
        [BINARY], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True
    )

    def send(message: dict) -> None:
        server.stdin.write(json.dumps(message) + "\n")
        server.stdin.flush()

    def request(id: int, method: str, params: dict) -> dict:
        send({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        for line in server.stdout:
            message = json.loads(line)
            if message.get("id") == id:
                if "error" in message:
                    raise SystemExit(f"{method}: {message['error']}")
                return message["result"]
        raise SystemExit(f"the server closed before answering {method}")

    request(1, "initialize", {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "check_requests", "version": "1"},
    })
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    listed, cursor, pages = set(), None, 0
    while True:
        pages += 1
        page = request(1 + pages, "tools/list", {"cursor": cursor} if cursor else {})
        listed.update(tool["name"] for tool in page["tools"])
        cursor = page.get("nextCursor")
        if not cursor:
            break
    server.stdin.close()
    server.wait(timeout=10)

    requests = json.loads((HERE / "requests.json").read_text())
    missing = sorted({r["tool"] for r in requests} - listed)
    print(f"{len(listed)} tools listed in {pages} pages; {len(requests)} requests")
    if missing:
        print("not listed:", ", ".join(missing))
        return 1
    print("every tool of requests.json is listed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
