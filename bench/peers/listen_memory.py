#!/usr/bin/env python3
"""Memory per idle 2026-07-28 listen stream: opens N `subscriptions/listen` streams on one
Streamable HTTP endpoint, waits for each acknowledgment, and reads the server's resident
memory (VmRSS, /proc/PID/status) before and after; prints one JSON object.

    python3 listen_memory.py --pid PID --url http://127.0.0.1:8000/mcp [--streams 10000]

Standard library only. Each stream is its own TCP connection, as a client keeps one listen
request open per subscription set; the streams stay open until the reading is taken.
"""
import argparse
import asyncio
import json
import resource
import time
from urllib.parse import urlsplit


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for pid {pid}")


async def open_stream(host: str, port: int, path: str, index: int):
    reader, writer = await asyncio.open_connection(host, port)
    body = json.dumps({
        "jsonrpc": "2.0",
        "id": index,
        "method": "subscriptions/listen",
        "params": {
            "notifications": {"toolsListChanged": True},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "listen-memory", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {},
            },
        },
    }).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
        f"Mcp-Method: subscriptions/listen\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    writer.write(head + body)
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        raise RuntimeError(f"stream {index}: {status.decode(errors='replace').strip()}")
    # The acknowledgment is the stream's first event: read past the headers until a `data:`
    # line and the blank line that ends its event.
    seen = b""
    while True:
        _, _, body = seen.partition(b"\r\n\r\n")
        data = body.find(b"data:")
        if data >= 0 and body.find(b"\n\n", data) >= 0:
            break
        chunk = await reader.read(4096)
        if not chunk:
            raise RuntimeError(f"stream {index} closed before its acknowledgment")
        seen += chunk
    return reader, writer


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--streams", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=200)
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, args.streams + 1024), hard))
    url = urlsplit(args.url)
    host, port, path = url.hostname, url.port or 80, url.path or "/"

    before = rss_kib(args.pid)
    started = time.monotonic()
    streams = []
    for first in range(0, args.streams, args.batch):
        batch = range(first, min(first + args.batch, args.streams))
        streams += await asyncio.gather(*(open_stream(host, port, path, i) for i in batch))
    opened_s = time.monotonic() - started
    await asyncio.sleep(1.0)  # let the server settle (buffers freed, tasks parked)
    after = rss_kib(args.pid)
    print(json.dumps({
        "ok": len(streams),
        "streams": len(streams),
        "rss_before_kib": before,
        "rss_after_kib": after,
        "kib_per_stream": round((after - before) / len(streams), 2),
        "open_s": round(opened_s, 2),
    }))
    for _, writer in streams:
        writer.close()


asyncio.run(main())
