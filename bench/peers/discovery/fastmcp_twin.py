#!/usr/bin/env python3
"""FastMCP's tool search on our catalogue: the peer of `discovery_bench` (issue 38).

    fastmcp_twin.py --tools tools.json --requests requests.json [--repeat N]

`--tools` is a JSON array of MCP tool definitions as `tools/list` returns them (`name`, `title`,
`description`, `inputSchema`, `annotations`, `_meta`; `outputSchema`, `icons` and `execution`
are carried too when present); `--requests` a JSON array of `{"request": ..., "tool": ...}`,
the tool a request should find. Runs with PyPI `fastmcp` 4.2.3 (requirements.txt beside this
file) and prints one JSON object:

    {"peer", "tools", "requests", "recall_at_1", "recall_at_5", "search_p50_us",
     "search_p99_us", "list_bytes_full", "list_bytes_search", "misses"}

What it runs. A `FastMCP` server serves one tool per definition: a `Tool` subclass given the
definition's schema as `parameters`, as FastMCP's own `ProxyTool` and `OpenAPITool` are, whose
`run` answers a fixed text. `BM25SearchTransform(max_results=5)` (its defaults otherwise) is
added to it, and for each request FastMCP's in-memory `Client` calls the transform's search
tool, as a user would. A request is found at 1 when the expected tool is the first result, at
5 when it is among them; `misses` lists the requests whose tool is not among the five, with
what came back. `list_bytes_full` and `list_bytes_search` are the UTF-8 bytes of the `tools`
array that the client receives from `tools/list` (every page, compact JSON, fields that are
`None` left out as on the wire) without and with the transform. `search_p50_us` and
`search_p99_us` time the transform's search in process, without the client: its `_search`
(the coroutine the search tool awaits) on the catalogue the search tool reads, every request
in turn, `--repeat` rounds after one untimed one; each search includes FastMCP's staleness
check of its index (a SHA-256 of the whole catalogue's searchable text), which the search
tool pays on every call, and not the rendering of the results.

How FastMCP 4.2.3 was read (its source: `fastmcp/server/transforms/search/bm25.py` and
`base.py`, `fastmcp/tools/base.py`, `fastmcp/server/transforms/catalog.py`):

- `BM25SearchTransform(*, max_results=5, always_visible=None, search_tool_name="search_tools",
  call_tool_name="call_tool", search_result_serializer=None)`. With it on, `tools/list` lists
  the `always_visible` tools (none here), `search_tools` and `call_tool` (`name`, `arguments`).
- `search_tools` takes one argument, `query` (a string; there is no limit and no group: the
  count is the transform's `max_results`). It ranks with BM25 Okapi (k1 1.5, b 0.75) over
  each tool's name, description, parameter names and parameter descriptions, tokenized as
  NFKC-casefolded runs of two or more letters or digits (`_` splits words; no stemming), and
  returns at most `max_results` tools whose score is above zero, best first.
- Its result, with the default serializer: the tools as `list_tools` gives them
  (`to_mcp_tool().model_dump(mode="json", by_alias=True, exclude_none=True)`). The function
  returns `str | list[dict]`, not an object, so FastMCP wraps it: `structuredContent` is
  `{"result": [<tool>, ...]}` (output schema marked `x-fastmcp-wrap-result`), and `content` one
  text block holding the same list as JSON. The twin reads the names from
  `structuredContent["result"]`.
- FastMCP adds `_meta.fastmcp.tags` to every tool it lists, and a `title` made from the name
  to a tool that has none; the byte counts include both, as a client receives them.

Checked against a hand-made catalogue of 8 tools and 6 requests whose answers are known by
construction (one found first, one found second, one matching no word of any tool), and at
every run: the served tools must have the given names, descriptions and input schemas, and
the in-process search must rank exactly as the client's calls did, or the twin exits 2.
"""

import argparse
import asyncio
import importlib.metadata
import json
import math
import sys
import time
from typing import Any

from fastmcp import Client, FastMCP
from fastmcp.server.context import Context
from fastmcp.server.transforms.search import BM25SearchTransform
from fastmcp.tools.base import Tool, ToolResult
from mcp.types import TextContent

MAX_RESULTS = 5
SAMPLES = 2000  # timed searches at least, unless --repeat says otherwise


class FixedTool(Tool):
    """A tool with an explicit JSON schema whose body answers a fixed text."""

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        return ToolResult(content=[TextContent(type="text", text="ok")])


def fail(message: str) -> None:
    print(f"fastmcp_twin: {message}", file=sys.stderr)
    sys.exit(2)


def load_tools(path: str) -> list[dict[str, Any]]:
    with open(path) as file:
        doc = json.load(file)
    if isinstance(doc, dict) and "tools" in doc:  # a whole tools/list result
        doc = doc["tools"]
    if not isinstance(doc, list) or not all(isinstance(t, dict) and "name" in t for t in doc):
        fail(f"{path}: expected a JSON array of tool definitions")
    return doc


def load_requests(path: str, names: set[str]) -> list[dict[str, str]]:
    with open(path) as file:
        doc = json.load(file)
    if not isinstance(doc, list) or not all(isinstance(r, dict) and {"request", "tool"} <= r.keys() for r in doc):
        fail(f"{path}: expected a JSON array of {{\"request\": ..., \"tool\": ...}}")
    unknown = sorted({r["tool"] for r in doc} - names)
    if unknown:
        fail(f"{path}: expected tools not in the catalogue: {', '.join(unknown)}")
    return doc


def server(definitions: list[dict[str, Any]], search: BM25SearchTransform | None) -> FastMCP:
    mcp = FastMCP("fastmcp-twin")
    for d in definitions:
        mcp.add_tool(FixedTool(
            name=d["name"],
            title=d.get("title"),
            description=d.get("description"),
            parameters=d.get("inputSchema") or {"type": "object"},
            output_schema=d.get("outputSchema"),
            annotations=d.get("annotations"),
            icons=d.get("icons"),
            execution=d.get("execution"),
            meta=d.get("_meta"),
        ))
    if search is not None:
        mcp.add_transform(search)
    return mcp


def list_bytes(tools) -> int:
    array = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
    return len(json.dumps(array, separators=(",", ":"), ensure_ascii=False).encode())


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest rank."""
    return sorted_values[max(0, math.ceil(q * len(sorted_values)) - 1)]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", required=True, help="tools/list's tools array, as JSON")
    parser.add_argument("--requests", required=True, help='[{"request": ..., "tool": ...}], as JSON')
    parser.add_argument("--repeat", type=int, help=f"timed rounds over the requests (default: {SAMPLES} searches at least)")
    args = parser.parse_args()

    definitions = load_tools(args.tools)
    requests = load_requests(args.requests, {d["name"] for d in definitions})
    if not requests:
        fail(f"{args.requests}: no requests")

    # The catalogue as FastMCP serves it, search off.
    async with Client(server(definitions, None)) as client:
        full = await client.list_tools()
    served = {t.name: t for t in full}
    for d in definitions:
        t = served.get(d["name"])
        if t is None or t.description != d.get("description") or t.input_schema != (d.get("inputSchema") or {"type": "object"}):
            fail(f"FastMCP serves `{d['name']}` otherwise than it was given")

    # Search on: every request through the client, as a user would.
    transform = BM25SearchTransform(max_results=MAX_RESULTS)
    mcp = server(definitions, transform)
    found: list[list[str]] = []
    async with Client(mcp) as client:
        listed = await client.list_tools()
        for r in requests:
            result = await client.call_tool("search_tools", {"query": r["request"]})
            found.append([t["name"] for t in result.structured_content["result"]])

    # The same search in process, timed: what the search tool reads, then what it awaits.
    catalogue = await transform._get_visible_tools(Context(mcp))
    for r, names in zip(requests, found):
        direct = [t.name for t in await transform._search(catalogue, r["request"])]
        if direct != names:
            fail(f"in process, {r['request']!r} finds {direct}, through the client {names}")
    repeat = args.repeat or max(10, math.ceil(SAMPLES / len(requests)))
    queries = [r["request"] for r in requests]
    samples: list[float] = []
    clock = time.perf_counter_ns
    for _ in range(repeat):
        for query in queries:
            start = clock()
            await transform._search(catalogue, query)
            samples.append((clock() - start) / 1000)
    samples.sort()

    at_1 = sum(names[:1] == [r["tool"]] for r, names in zip(requests, found))
    at_5 = sum(r["tool"] in names[:5] for r, names in zip(requests, found))
    print(json.dumps({
        "peer": f"fastmcp {importlib.metadata.version('fastmcp')} BM25SearchTransform",
        "tools": len(full),
        "requests": len(requests),
        "recall_at_1": round(at_1 / len(requests), 4),
        "recall_at_5": round(at_5 / len(requests), 4),
        "search_p50_us": round(percentile(samples, 0.50), 1),
        "search_p99_us": round(percentile(samples, 0.99), 1),
        "list_bytes_full": list_bytes(full),
        "list_bytes_search": list_bytes(listed),
        "misses": [{"request": r["request"], "expected": r["tool"], "got": names[:5]}
                   for r, names in zip(requests, found) if r["tool"] not in names[:5]],
    }, ensure_ascii=False))


if __name__ == "__main__":
    asyncio.run(main())
