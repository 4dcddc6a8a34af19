#!/usr/bin/env python3
"""Interop checks of our example servers with the official Python SDK.

Runs with mcp==1.30.0 (initialize handshake only) or mcp==2.3.0 (its high-level `Client`,
mode "auto" probes server/discover and so speaks 2026-07-28 with us, "legacy" uses initialize).

    client.py --server calculator|text_analyzer|notes|payments (--stdio BINARY [--server-arg ARG]... | --http URL)
              [--mode legacy|auto|pin] [--reader-token TOKEN --admin-token TOKEN]

With `--server notes` it drives the tools that ask the client (elicitation, sampling, roots)
through the SDK's callbacks: legacy servers send real requests, 2026-07-28 ones answer
`input_required` and the client retries with the answers. It also lists and gets the notes
server's prompts (`review_note`, `digest`), lists and reads its resources (`notes://all`,
`notes://{id}`), and subscribes to `notes://all` while adding a note: `subscribe_resource` and
the message handler in legacy sessions, `Client.listen(resource_subscriptions=...)` in 2026-07-28.
It checks the MCP Apps board as well: the `io.modelcontextprotocol/ui` extension in the server's
capabilities, `list_notes` and `board_add` linked to `ui://notes/board` in their `_meta`, the view
listed and read as `text/html;profile=mcp-app` with its `_meta.ui`, and `board_add` adding a note.

With `--server payments` it drives tool search: `tools/list` names only the tools marked
`always_load` with `search_tools` and `call_tool`; searches in a user's words find the tool meant;
`call_tool` runs a refund the user confirms (the elicitation callback), a task tool, a paged
listing (read on with `read_result`) and an unknown name. Over HTTP, with the server's demo tokens
(`--reader-token`, `--admin-token`), a token without `payouts:write` never finds `create_payout`.

Prints one line per check and ends with "N passed, M failed"; exits 1 if any check failed.
"""

import argparse
import asyncio
import contextlib
import warnings
import importlib.metadata
import json
import pathlib
import re
import sys
import tempfile
import uuid

MCP_VERSION = importlib.metadata.version("mcp")
V2 = int(MCP_VERSION.split(".")[0]) >= 2
MODERN = "2026-07-28"
LEGACY = "2025-11-25"  # the newest handshake revision; both SDK lines offer it in initialize

# Per server: the tool names, calls with their expected text (not errors), and calls that must
# give a result with isError true: (arguments, exact text) or (arguments, text prefix + "...").
CASES = {
    "calculator": {
        "tools": ["calculator"],
        "ok": [
            ({"operation": "add", "a": 0.5, "b": 2}, "2.5"),
            ({"operation": "subtract", "a": 10, "b": 4}, "6"),
            ({"operation": "multiply", "a": 6, "b": 7}, "42"),
            ({"operation": "divide", "a": 1, "b": 4}, "0.25"),
        ],
        "error": [
            ({"operation": "divide", "a": 1, "b": 0}, "cannot divide by zero: `b` must be a non-zero number"),
            ({"operation": "add", "a": "x", "b": 2}, 'argument `a`: expected a number, received the string "x"'),
            ({"operation": "power", "a": 2, "b": 3}, "argument `..."),
            ({"operation": "add", "a": 1}, "argument `..."),
        ],
    },
    "text_analyzer": {
        "tools": ["text_analyzer"],
        "ok": [
            ({"text": "héllo big  world"}, {"characters": 16, "words": 3}),
            ({"text": ""}, {"characters": 0, "words": 0}),
        ],
        "error": [
            ({}, "argument `..."),
            ({"text": 5}, "argument `..."),
        ],
    },
}

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


def field(obj, snake, camel):
    """mcp 2.x models use snake_case attributes, 1.x camelCase ones."""
    return getattr(obj, snake) if hasattr(obj, snake) else getattr(obj, camel, None)


def raised(e):
    """The JSON-RPC code and message of an exception (1.x McpError, 2.x MCPError: both carry .error)."""
    error = getattr(e, "error", None)
    return getattr(error, "code", None), str(getattr(error, "message", e))


@contextlib.asynccontextmanager
async def connect(args, token=None, **callbacks):
    """Yields (session-like object with list_tools/call_tool, negotiated protocol version).

    `token`: over HTTP, a bearer token sent on every request (an HTTP client made with the
    SDK's `create_mcp_http_client(headers=...)`, handed to its `streamable_http_client`).
    `callbacks`: sampling_callback, elicitation_callback, list_roots_callback (same names in
    both SDK lines; each declares its capability), message_handler (the notifications)."""
    from mcp import StdioServerParameters
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    stdio = StdioServerParameters(command=args.stdio, args=args.server_arg) if args.stdio else None
    async with contextlib.AsyncExitStack() as stack:
        http = None
        if args.http and token:
            headers = {"Authorization": f"Bearer {token}"}
            http = await stack.enter_async_context(create_mcp_http_client(headers=headers))
        if V2:
            from mcp import Client

            mode = MODERN if args.mode == "pin" else args.mode
            server = stdio or (streamable_http_client(args.http, http_client=http) if http else args.http)
            client = await stack.enter_async_context(Client(server, mode=mode, **callbacks))
            yield client, client.protocol_version
        else:
            from mcp import ClientSession
            from mcp.client.stdio import stdio_client

            transport = stdio_client(stdio) if stdio else streamable_http_client(args.http, http_client=http)
            # stdio: (read, write); 1.x HTTP: (read, write, get_session_id)
            streams = await stack.enter_async_context(transport)
            session = await stack.enter_async_context(ClientSession(streams[0], streams[1], **callbacks))
            init = await session.initialize()
            yield session, init.protocolVersion


def texts(result):
    return [c.text for c in result.content if c.type == "text"]


async def run(args):
    if args.server == "notes":
        return await run_notes(args)
    if args.server == "payments":
        return await run_payments(args)
    cases = CASES[args.server]
    async with connect(args) as (session, version):
        print(f"mcp {MCP_VERSION}, mode {args.mode}, negotiated protocol version {version}")
        expected_version = LEGACY if args.mode == "legacy" else MODERN
        check("protocol version", version == expected_version, f"{version!r}, expected {expected_version!r}")
        structured = version >= "2025-06-18"

        tools = (await session.list_tools()).tools
        names = [t.name for t in tools]
        check("tools/list names", names == cases["tools"], f"{names}, expected {cases['tools']}")
        for t in tools:
            schema = field(t, "input_schema", "inputSchema")
            check(f"{t.name}: description", bool(t.description), repr(t.description))
            check(f"{t.name}: inputSchema", isinstance(schema, dict) and schema.get("type") == "object", repr(schema))
            if args.server == "text_analyzer" and structured:
                out = field(t, "output_schema", "outputSchema") or {}
                props = out.get("properties", {})
                ok = out.get("type") == "object" and all(props.get(k, {}).get("type") == "integer" for k in ("characters", "words"))
                check(f"{t.name}: outputSchema", ok, repr(out))

        tool = cases["tools"][0]
        for arguments, want in cases["ok"]:
            name = f"{tool} {json.dumps(arguments, ensure_ascii=False)}"
            res = await session.call_tool(tool, arguments)
            got, is_error = texts(res), field(res, "is_error", "isError")
            want_text = want if isinstance(want, str) else json.dumps(want, separators=(",", ":"))
            check(name, not is_error and got == [want_text], f"isError={is_error}, text={got}, expected {want_text!r}")
            if isinstance(want, dict) and structured:
                sc = field(res, "structured_content", "structuredContent")
                check(f"{name}: structuredContent", sc == want, f"{sc!r}, expected {want!r}")

        for arguments, want in cases["error"]:
            name = f"{tool} {json.dumps(arguments)} -> isError"
            res = await session.call_tool(tool, arguments)
            got, is_error = texts(res), field(res, "is_error", "isError")
            text = got[0] if len(got) == 1 else None
            match = text is not None and (text.startswith(want[:-3]) if want.endswith("...") else text == want)
            check(name, is_error is True and match, f"isError={is_error}, text={got}, expected {want!r}")

        try:
            res = await session.call_tool("no_such_tool", {})
            check("unknown tool raises", False, f"no exception, result {res!r}")
        except Exception as e:
            code, message = raised(e)
            ok = code == -32602 and "Unknown tool" in message
            check("unknown tool raises", ok, f"{type(e).__name__}: code={code}, message={message!r}")


NOTES_TOOLS = ["clear_notes", "suggest_title", "export_notes"]  # besides add_note, search_notes, ...
TITLE = "Ownership in Rust"  # what the sampling callback's "model" answers (with spaces to trim)
SYSTEM_PROMPT = "You name notes. Answer with the title only."
REVIEW_TONE = "Review this note for tone: say how it sounds, and suggest rewording where it sounds wrong."
DIGEST_ASK = ("Write a short digest of my latest notes, oldest first: what they are about, grouped by topic, "
              "and anything in them that needs doing.")


def note_line(note):
    """A note as `export_notes` and `digest` list it: `- title: text (tags: a, b)`."""
    tags = f" (tags: {', '.join(note['tags'])})" if note["tags"] else ""
    return f"- {note['title']}: {' '.join(note['body'].splitlines())}{tags}"


def messages(result):
    return [(m.role, m.content.type, getattr(m.content, "text", None)) for m in result.messages]


def markdown(notes):
    """What `notes://all` reads (and `export_notes` writes): a heading, one line per note by id."""
    return "\n".join(["# Notes", ""] + [note_line(n) for n in sorted(notes, key=lambda n: n["id"])]) + "\n"


async def check_resources(session, version, note, notes):
    """The notes server's resources: the definitions, `notes://all` (every note there is), one
    note by its id, and an unknown note's error."""
    resources = (await session.list_resources()).resources
    got = [(str(r.uri), r.name, field(r, "mime_type", "mimeType")) for r in resources]
    want = [
        ("notes://all", "all_notes", "text/markdown"),
        ("ui://notes/board", "board", "text/html;profile=mcp-app"),
        ("skill://notes-workflow/SKILL.md", "notes-workflow", "text/markdown"),
        ("skill://notes-workflow/references/tagging.md", "tagging.md", "text/markdown"),
    ]
    check("resources/list", got == want, f"{got}, expected {want}")
    # The notes skill's files are ordinary resources to a client that knows no skills.
    skill = (await session.read_resource("skill://notes-workflow/SKILL.md")).contents
    manifest = getattr(skill[0], "text", "") if len(skill) == 1 else ""
    check(
        "resources/read skill://notes-workflow/SKILL.md (its frontmatter, then the body)",
        manifest.startswith("---\nname: notes-workflow\n") and "search_notes" in manifest,
        str(skill)[:300],
    )
    templates = field(await session.list_resource_templates(), "resource_templates", "resourceTemplates")
    got = [(field(t, "uri_template", "uriTemplate"), t.name, field(t, "mime_type", "mimeType")) for t in templates]
    want = [("notes://{id}", "note", "application/json"), ("mcp-result://{id}/{page}", "result_page", "text/plain")]
    check("resources/templates/list", got == want, f"{got}, expected {want}")

    contents = (await session.read_resource("notes://all")).contents
    got = [(str(c.uri), field(c, "mime_type", "mimeType"), getattr(c, "text", None)) for c in contents]
    want = [("notes://all", "text/markdown", markdown(notes))]
    check("resources/read notes://all (every note as Markdown)", got == want, f"{got}, expected {want}")
    uri = f"notes://{note['id']}"
    contents = (await session.read_resource(uri)).contents
    got = [(str(c.uri), field(c, "mime_type", "mimeType"), json.loads(getattr(c, "text", "null"))) for c in contents]
    want = [(uri, "application/json", note)]
    check(f"resources/read {uri} (the added note as JSON)", got == want, f"{got}, expected {want}")
    try:
        res = await session.read_resource("notes://999999")
        check("resources/read notes://999999 raises", False, f"no exception, result {res!r}")
    except Exception as e:
        code, message = raised(e)
        # Resource not found: -32602 in 2026-07-28, -32002 before; the note's fn says so.
        want = -32602 if version == MODERN else -32002
        check("resources/read notes://999999 raises", code == want and message == "there is no note 999999",
              f"{type(e).__name__}: code={code}, message={message!r}")


# MCP Apps (extension `io.modelcontextprotocol/ui`): the notes board, a `ui://` view that
# `list_notes` and `board_add` link to.
APPS = "io.modelcontextprotocol/ui"
BOARD_URI = "ui://notes/board"
BOARD_MIME = "text/html;profile=mcp-app"
BOARD_UI = {"csp": {"connectDomains": ["https://api.example.com"]}, "prefersBorder": True}


async def server_capabilities(session, mode):
    """The capabilities the server declared, through the SDK's own API: 2.x `Client.server_capabilities`
    (from `initialize` or `server/discover`), 1.x `ClientSession.get_server_capabilities()`.
    `extensions` is a field of 2.x's model; 1.x's has none, but keeps unknown keys (extra="allow").
    Pinned to 2026-07-28, 2.x never asks: it adopts a discover result it makes up, with empty
    capabilities. Then the check asks `server/discover` itself, with the session's `send_discover`
    (the probe `auto` sends), and reads the answer with the SDK's `DiscoverResult`."""
    if not V2:
        return session.get_server_capabilities()
    if mode == "pin":
        from mcp import types

        return types.DiscoverResult.model_validate(await session.session.send_discover(MODERN)).capabilities
    return session.server_capabilities


async def check_apps(session, version, mode):
    """The MCP Apps extension as the SDK sees it: declared in the capabilities, linked from the
    tools' `_meta`, the view listed and read with its MIME type and `_meta.ui`, and `board_add`
    adding a note that `list_notes` then lists (`structuredContent.notes`). Tools, resources and
    contents carry `_meta` as `.meta` in both SDK lines."""
    extension = (getattr(await server_capabilities(session, mode), "extensions", None) or {}).get(APPS)
    source = "server/discover" if version == MODERN else "initialize"
    check(f"{source} capabilities.extensions[{APPS!r}] names {BOARD_MIME}",
          isinstance(extension, dict) and BOARD_MIME in (extension.get("mimeTypes") or []), repr(extension))

    tools = {t.name: t for t in (await session.list_tools()).tools}
    for name, want in [("list_notes", {"resourceUri": BOARD_URI}),
                       ("board_add", {"resourceUri": BOARD_URI, "visibility": ["app"]})]:
        meta = getattr(tools.get(name), "meta", None) or {}
        check(f"tools/list {name}: _meta.ui.resourceUri and _meta['ui/resourceUri'] are {BOARD_URI}",
              (meta.get("ui") or {}).get("resourceUri") == BOARD_URI and meta.get("ui/resourceUri") == BOARD_URI,
              f"{name} in tools: {name in tools}, _meta {meta!r}")
        check(f"tools/list {name}: _meta.ui is {want}", meta.get("ui") == want, repr(meta.get("ui")))

    listed = [r for r in (await session.list_resources()).resources if str(r.uri) == BOARD_URI]
    got = [(field(r, "mime_type", "mimeType"), (r.meta or {}).get("ui")) for r in listed]
    check(f"resources/list {BOARD_URI}: {BOARD_MIME} and _meta.ui", got == [(BOARD_MIME, BOARD_UI)],
          f"{got}, expected {[(BOARD_MIME, BOARD_UI)]}")
    contents = (await session.read_resource(BOARD_URI)).contents
    got = [(str(c.uri), field(c, "mime_type", "mimeType"), (c.meta or {}).get("ui")) for c in contents]
    want = [(BOARD_URI, BOARD_MIME, BOARD_UI)]
    check(f"resources/read {BOARD_URI}: one content, {BOARD_MIME} and _meta.ui", got == want, f"{got}, expected {want}")
    html = getattr(contents[0], "text", None) if contents else None
    check(f"resources/read {BOARD_URI}: an HTML document", isinstance(html, str)
          and html.lstrip().lower().startswith("<!doctype html>"), repr(html)[:200])

    title = f"from the board {uuid.uuid4().hex[:8]}"  # runs over HTTP share a server
    res = await session.call_tool("board_add", {"title": title})
    notes = (field(res, "structured_content", "structuredContent") or {}).get("notes") or []
    added = [n for n in notes if n.get("title") == title]
    check("board_add: structuredContent.notes has the new note",
          not field(res, "is_error", "isError") and len(added) == 1, f"{texts(res)}, structuredContent notes {notes}")
    res = await session.call_tool("list_notes", {})
    notes = (field(res, "structured_content", "structuredContent") or {}).get("notes") or []
    check("list_notes then lists it", not field(res, "is_error", "isError") and added
          and any(n == added[0] for n in notes), f"{texts(res)}, structuredContent notes {notes}")


async def add_note_watched(session, version, updates, arguments):
    """Calls `add_note` while subscribed to `notes://all`, and checks that the server tells of
    the change: `resources/subscribe` and `notifications/resources/updated` through the message
    handler (queued on `updates`) in legacy sessions; a `subscriptions/listen` stream in
    2026-07-28 (mcp 2.x `Client.listen`). Returns the call's result."""
    name = "notifications/resources/updated notes://all after add_note"
    if version == MODERN:
        async with session.listen(resource_subscriptions=["notes://all"]) as subscription:
            honored = subscription.honored.resource_subscriptions
            check("subscriptions/listen acknowledges notes://all", honored == ["notes://all"], f"{honored}")
            res = await session.call_tool("add_note", arguments)
            event = await asyncio.wait_for(anext(subscription), 10)
            check(name, getattr(event, "uri", None) == "notes://all", repr(event))
        return res
    with warnings.catch_warnings():  # 2.x warns that 2026-07-28 replaced these with listen
        warnings.filterwarnings("ignore", message="resources/(un)?subscribe is removed")
        await session.subscribe_resource("notes://all")
        res = await session.call_tool("add_note", arguments)
        uri = await asyncio.wait_for(updates.get(), 10)
        check(name, uri == "notes://all", f"{uri!r}")
        await session.unsubscribe_resource("notes://all")
    return res


async def check_prompts(session, version, note, notes):
    """The notes server's prompts: the definitions, a review of `note`, the digest of `notes`
    (every note there is), and an unknown note's error."""
    prompts = (await session.list_prompts()).prompts
    names = [p.name for p in prompts]
    check("prompts/list names", names == ["review_note", "digest"], f"{names}")
    arguments = {p.name: [(a.name, a.required) for a in p.arguments or []] for p in prompts}
    want = {"review_note": [("id", True), ("focus", False)], "digest": [("limit", False)]}
    check("prompts/list arguments (name, required)", arguments == want, f"{arguments}, expected {want}")

    # Arguments are strings on the wire; the server parses the id and the focus.
    res = await session.get_prompt("review_note", {"id": str(note["id"]), "focus": "tone"})
    want = [("user", "text", f"{REVIEW_TONE}\n\n# {note['title']}\n\n{note['body']}")]
    check("prompts/get review_note, focus tone", messages(res) == want, f"{messages(res)}, expected {want}")

    latest = sorted(notes, key=lambda n: n["id"])[-10:]  # `limit` defaults to 10
    # The listing's end is trimmed: a note without a body (as `board_add` makes) ends in ": ".
    listed = "\n".join(note_line(n) for n in latest).rstrip() or "(there are no notes yet)"
    res = await session.get_prompt("digest", {})
    want = [("user", "text", f"{DIGEST_ASK}\n\n{listed}"), ("assistant", "text", "Here is your digest:")]
    check("prompts/get digest (the latest notes, then the assistant's start)", messages(res) == want,
          f"{messages(res)}, expected {want}")

    try:
        res = await session.get_prompt("review_note", {"id": "999999"})
        check("prompts/get review_note unknown id raises", False, f"no exception, result {res!r}")
    except Exception as e:
        code, message = raised(e)
        check("prompts/get review_note unknown id raises", code == -32602 and message == "there is no note 999999",
              f"{type(e).__name__}: code={code}, message={message!r}")


# Notes long enough that `export_markdown` (a budget of 1 KiB) answers in pages.
LONG_NOTES = [
    ("Rust traits", "Traits define shared behaviour. A trait object erases the type behind a pointer;\n"
     "generics keep it and monomorphize. Prefer generics on hot paths.", ["rust"]),
    ("Groceries", "eggs, rice, green tea, oat milk, two lemons, a loaf of rye, butter, black pepper,\n"
     "tomatoes (the small ones), basil, olive oil, sea salt, coffee beans", []),
    ("Déjà vu — café", "Naïve questions are welcome: «pourquoi?» leads to better design. 日本語のメモも\n"
     "ここに書く。Emoji travel too: 🦀📚☕. Pages cut between characters.", ["unicode"]),
    ("Trip", "Train at 07:42 from platform 3; change at Lyon; arrive 12:15. Hotel on rue Victor\n"
     "Hugo, check-in from 15:00. Dinner booked at 20:00 near the river.", ["travel", "plans"]),
]


def export_markdown(notes):
    """What `export_markdown` answers: a heading, then each note by id with its text and tags."""
    out = "# Notes\n"
    for n in sorted(notes, key=lambda n: n["id"]):
        out += f"\n## {n['title']}\n\n{n['body']}\n"
        if n["tags"]:
            out += f"\nTags: {', '.join(n['tags'])}\n"
    return out


async def check_spilled(session, version):
    """`export_markdown` over its budget: the first page, a link to the whole result and the line
    that says how to read on; then every other page, as resources (`resources/read`) and through
    the `read_result` tool, each way making the whole export."""
    for title, body, tags in LONG_NOTES * 2:  # some 1.7 KB: two pages or more
        await session.call_tool("add_note", {"title": title, "body": body, "tags": tags})
    found = await session.call_tool("search_notes", {"query": "", "limit": 1000})
    whole = export_markdown(json.loads(texts(found)[0])["notes"])
    res = await session.call_tool("export_markdown", {})
    kinds = [c.type for c in res.content]
    check("export_markdown over its budget: a page, a link, a line",
          kinds == ["text", "resource_link", "text"] and not field(res, "is_error", "isError"), f"{res.content!r}")
    first, link, line = res.content
    match = re.fullmatch(r"mcp-result://(.+)/1", str(link.uri))
    result_id = match and match.group(1)
    pages = int(re.search(r" in (\d+) pages", link.description or "").group(1))
    check("export_markdown: the link is to the whole result, page 1 of several", result_id and pages >= 2, repr(link))
    check("export_markdown: the line says how to read on",
          f'read_result` and arguments {{"id": "{result_id}", "page": 2}}' in line.text
          and f"mcp-result://{result_id}/2" in line.text, repr(line.text))
    check("export_markdown: the first page within 1 KiB",
          len(first.text.encode()) + len(line.text.encode()) <= 1024 and whole.startswith(first.text), repr(first.text))
    as_resources = first.text
    for page in range(2, pages + 1):
        contents = (await session.read_resource(f"mcp-result://{result_id}/{page}")).contents
        as_resources += contents[0].text
        nxt = f"mcp-result://{result_id}/{page + 1}" if page < pages else None
        got = getattr(contents[1], "text", None) if len(contents) > 1 else None
        check(f"resources/read page {page}: then the next page's URI", got == nxt, repr(contents[1:]))
    check("the pages read as resources are the whole export", as_resources == whole, repr(as_resources))
    # A 2026-07-28 client keeps a tools/list for its `ttlMs` (and hears of changes only on a
    # listen stream): `read_result` is called all the same, as the server serves it listed or not.
    if version != MODERN:
        names = [t.name for t in (await session.list_tools()).tools]
        check("tools/list has read_result once a result spilled", "read_result" in names, f"{names}")
    through_tool = first.text
    for page in range(2, pages + 1):
        read = await session.call_tool("read_result", {"id": result_id, "page": page})
        through_tool += read.content[0].text
    check("the pages read through read_result are the whole export", through_tool == whole, repr(through_tool))


async def run_notes(args):
    """The notes server's tools that ask: each ask is answered by an SDK callback."""
    from mcp import types

    asked = {"sampling": [], "elicitation": [], "roots": 0}
    answers = ["decline", "accept"]  # clear_notes: declined first, then accepted
    folder = tempfile.TemporaryDirectory(prefix="mcp-notes-")

    async def sampling(context, params):
        asked["sampling"].append(params)
        return types.CreateMessageResult(
            role="assistant", model="interop-model",
            content=types.TextContent(type="text", text=f"  {TITLE}\n"),
        )

    async def elicitation(context, params):
        asked["elicitation"].append(params)
        action = answers.pop(0) if answers else "cancel"
        content = {"confirm": True} if action == "accept" else None
        return types.ElicitResult(action=action, content=content)

    async def list_roots(context):
        asked["roots"] += 1
        uri = pathlib.Path(folder.name).as_uri()
        return types.ListRootsResult(roots=[types.Root(uri=uri, name="export")])

    updates = asyncio.Queue()  # the URIs of `notifications/resources/updated`, as they arrive

    async def message_handler(message):
        notification = getattr(message, "root", message)  # 1.x wraps it in ServerNotification
        if getattr(notification, "method", None) == "notifications/resources/updated":
            updates.put_nowait(str(notification.params.uri))

    callbacks = {"sampling_callback": sampling, "elicitation_callback": elicitation,
                 "list_roots_callback": list_roots, "message_handler": message_handler}
    with folder:
        async with connect(args, **callbacks) as (session, version):
            print(f"mcp {MCP_VERSION}, mode {args.mode}, negotiated protocol version {version}")
            expected_version = LEGACY if args.mode == "legacy" else MODERN
            check("protocol version", version == expected_version, f"{version!r}, expected {expected_version!r}")

            names = [t.name for t in (await session.list_tools()).tools]
            check("tools/list has the tools that ask", all(n in names for n in NOTES_TOOLS), f"{names}")

            body = "Each value has one owner; borrowing lends it without moving it."
            arguments = {"title": "draft", "body": body, "tags": ["rust"]}
            res = await add_note_watched(session, version, updates, arguments)
            note = json.loads(texts(res)[0]) if texts(res) else {}
            check("add_note", not field(res, "is_error", "isError") and note.get("body") == body, f"{texts(res)}")
            note_id = note.get("id")

            await check_apps(session, version, args.mode)

            # The server's state is per process: over HTTP, earlier runs may have left notes.
            found = await session.call_tool("search_notes", {"query": "", "limit": 1000})
            notes = json.loads(texts(found)[0])["notes"]
            count = len(notes)

            await check_prompts(session, version, note, notes)
            await check_resources(session, version, note, notes)

            # suggest_title: sampling, with the exact request.
            res = await session.call_tool("suggest_title", {"id": note_id})
            want = f"suggested title for note {note_id}: {TITLE}"
            check("suggest_title: the model's text, trimmed", texts(res) == [want] and not field(res, "is_error", "isError"),
                  f"isError={field(res, 'is_error', 'isError')}, text={texts(res)}, expected {want!r}")
            params = asked["sampling"][-1] if asked["sampling"] else None
            message = params and params.messages[0]
            content = message and message.content
            ok = (params is not None and len(params.messages) == 1 and message.role == "user"
                  and content.type == "text"
                  and content.text == f"Suggest a title of at most six words for this note:\n\n{body}"
                  and field(params, "system_prompt", "systemPrompt") == SYSTEM_PROMPT
                  and field(params, "max_tokens", "maxTokens") == 30)
            check("suggest_title: sampling request (messages, systemPrompt, maxTokens)", ok, repr(params))
            res = await session.call_tool("suggest_title", {"id": 999999})
            check("suggest_title unknown id -> isError", field(res, "is_error", "isError") is True
                  and texts(res) == ["there is no note 999999"], f"{texts(res)}")

            # export_notes: roots, then a file in the shared folder.
            res = await session.call_tool("export_notes", {})
            path = pathlib.Path(folder.name) / "notes.md"
            want = f"exported {count} notes to {path}"
            check("export_notes: answer", texts(res) == [want], f"{texts(res)}, expected {want!r}")
            check("export_notes: roots/list asked", asked["roots"] >= 1, f"{asked['roots']} times")
            written = path.read_text() if path.exists() else None
            check("export_notes: notes.md", written == markdown(notes), repr(written))

            # clear_notes: a form; declined keeps every note, accepted deletes them.
            res = await session.call_tool("clear_notes", {})
            check("clear_notes declined", texts(res) == [f"kept {count} notes"], f"{texts(res)}")
            form = asked["elicitation"][0] if asked["elicitation"] else None
            schema = form and field(form, "requested_schema", "requestedSchema")
            schema = schema.model_dump() if hasattr(schema, "model_dump") else schema
            ok = (form is not None and form.message == f"Delete all {count} notes? This cannot be undone."
                  and schema.get("properties", {}).get("confirm", {}).get("type") == "boolean"
                  and schema.get("properties", {}).get("confirm", {}).get("default") is True)
            check("clear_notes: elicitation request (message, requestedSchema)", ok, repr(form))
            res = await session.call_tool("clear_notes", {})
            check("clear_notes accepted", texts(res) == [f"deleted {count} notes"], f"{texts(res)}")
            found = await session.call_tool("search_notes", {"query": ""})
            total = json.loads(texts(found)[0])["total"]
            check("search_notes finds nothing after clear_notes", total == 0, f"total {total}")
            res = await session.call_tool("clear_notes", {})
            check("clear_notes with no notes asks nothing", texts(res) == ["there are no notes to delete"]
                  and len(asked["elicitation"]) == 2, f"{texts(res)}, {len(asked['elicitation'])} forms")

            await check_spilled(session, version)


# The payments example: some 220 tools behind tool search. `tools/list` names the tools marked
# `always_load` and two the framework adds, `search_tools` (a query in the user's words, the
# best tools first, whole definitions) and `call_tool` (runs one of the tools found, as a
# `tools/call` of it would: elicitation, tasks and paged results included).
SEARCH_TOOLS, CALL_TOOL = "search_tools", "call_tool"
ALWAYS_LOAD = "anthropic/alwaysLoad"  # the definition's `_meta` key of `#[tool(always_load)]`
UNLISTED = ["create_refund", "cancel_subscription", "create_report_run", "list_balance_transactions", "create_payout"]
# What a user says, and the tool search must offer for it.
SEARCHES = [
    ("give the customer her money back", "create_refund"),
    ("stop charging them every month", "cancel_subscription"),
    ("build the monthly report", "create_report_run"),
    ("list every movement of money in the account", "list_balance_transactions"),
]
PAYOUT_QUERY = "pay out the balance to the bank"
BALANCE_PAGE_CHARS = 4000  # list_balance_transactions' `max_result_chars`


def is_error(res):
    return field(res, "is_error", "isError")


def structured(res):
    return field(res, "structured_content", "structuredContent")


async def search(session, query, **more):
    """`search_tools` with this query: (the result, the names of the tools found)."""
    res = await session.call_tool(SEARCH_TOOLS, {"query": query, **more})
    found = (structured(res) or {}).get("tools")
    return res, [t.get("name") for t in found] if isinstance(found, list) else None


async def call(session, name, arguments):
    """`call_tool` naming a tool of the catalogue."""
    return await session.call_tool(CALL_TOOL, {"name": name, "arguments": arguments})


def check_search(res, names, query, want):
    """`search_tools`' answer: `want` among the tools, each a whole definition, and the text
    that lists them, a line each, best first."""
    found = (structured(res) or {}).get("tools") or []
    check(f"search_tools {query!r} finds {want}", not is_error(res) and names is not None and want in names,
          f"isError={is_error(res)}, tools {names}")
    entry = next((t for t in found if t.get("name") == want), {})
    schema = entry.get("inputSchema")
    check(f"search_tools {query!r}: {want}'s definition, with its inputSchema",
          bool(entry.get("description")) and isinstance(schema, dict) and schema.get("type") == "object",
          json.dumps(entry)[:400])
    lines = (texts(res) or [""])[0].splitlines()
    listed = [m.group(1) for m in (re.match(r"- (\w+)\(.*\): .+", line) for line in lines) if m]
    check(f"search_tools {query!r}: the text lists the tools found, best first",
          lines[:1] and lines[0].startswith("Call one with `call_tool`") and listed == names,
          f"{texts(res)!r}, expected a line for each of {names}")


async def check_discovery(session):
    """`tools/list` with tool search on, the two framework tools' schemas, and searches in the
    user's words."""
    tools = (await session.list_tools()).tools
    names = [t.name for t in tools]
    check("tools/list has search_tools and call_tool", SEARCH_TOOLS in names and CALL_TOOL in names, f"{names}")
    preloaded = [t.name for t in tools if (t.meta or {}).get(ALWAYS_LOAD) is True]
    others = [n for n in names if n not in (SEARCH_TOOLS, CALL_TOOL, "read_result") and n not in preloaded]
    check("tools/list: besides those two, only tools marked always_load", preloaded and not others,
          f"always_load {preloaded}, others {others}")
    hidden = [n for n in UNLISTED if n in names]
    check("tools/list: not the whole catalogue", len(names) < 20 and not hidden, f"{len(names)} tools, {hidden}")

    definitions = {t.name: field(t, "input_schema", "inputSchema") or {} for t in tools}
    props = definitions.get(SEARCH_TOOLS, {}).get("properties", {})
    groups = props.get("group", {}).get("enum")
    check("search_tools: query (a required string), limit, group (an enum of the groups)",
          props.get("query", {}).get("type") == "string" and "limit" in props
          and definitions[SEARCH_TOOLS].get("required") == ["query"]
          and isinstance(groups, list) and "refunds" in groups, json.dumps(definitions.get(SEARCH_TOOLS)))
    props = definitions.get(CALL_TOOL, {}).get("properties", {})
    check("call_tool: name (a string) and arguments (an object)",
          props.get("name", {}).get("type") == "string" and props.get("arguments", {}).get("type") == "object",
          json.dumps(definitions.get(CALL_TOOL)))

    for query, want in SEARCHES:
        res, found = await search(session, query)
        check_search(res, found, query, want)
    res, found = await search(session, "refund a charge", group="refunds", limit=3)
    check("search_tools in group refunds, limit 3: refund tools only, at most 3",
          found and len(found) <= 3 and all("refund" in n for n in found), f"{found}")
    res, found = await search(session, "zqxv wvut")
    check("search_tools with no match: no tools, not an error", not is_error(res) and found == [],
          f"isError={is_error(res)}, {structured(res)!r}")


async def check_refund(session, asked):
    """`create_refund` through `call_tool`, over 10,000 cents: the user is asked to confirm
    (declined: nothing is refunded; accepted: the refund)."""
    res = await call(session, "create_charge", {"amount": 25000, "customer": "cus_8Kd2", "source": "pm_4242",
                                                "description": "interop refund"})
    charge = json.loads(texts(res)[0]) if texts(res) and not is_error(res) else {}
    check("call_tool create_charge: a charge to refund", str(charge.get("id", "")).startswith("ch_"), f"{texts(res)}")
    arguments = {"charge": charge.get("id"), "amount": 20000}
    res = await call(session, "create_refund", arguments)
    check("call_tool create_refund 20000, the user declines: nothing refunded",
          is_error(res) is True and texts(res)[:1] and texts(res)[0].startswith("nothing was refunded"), f"{texts(res)}")
    form = asked[0] if asked else None
    schema = form and field(form, "requested_schema", "requestedSchema")
    schema = schema.model_dump() if hasattr(schema, "model_dump") else schema or {}
    check("create_refund: the elicitation names the charge, with a boolean confirm",
          form is not None and charge.get("id", "?") in form.message
          and schema.get("properties", {}).get("confirm", {}).get("type") == "boolean", repr(form))
    res = await call(session, "create_refund", arguments)
    refund = json.loads(texts(res)[0]) if texts(res) and not is_error(res) else {}
    check("call_tool create_refund 20000, the user confirms: refunded",
          str(refund.get("id", "")).startswith("re_") and refund.get("amount") == 20000
          and refund.get("charge") == charge.get("id") and refund.get("status") == "succeeded",
          f"isError={is_error(res)}, {texts(res)}")
    check("create_refund asked twice (once a call)", len(asked) == 2, f"{len(asked)} forms")


async def check_report(session):
    """`create_report_run`, a task tool, through `call_tool`: a client without the tasks
    extension gets the answer of a plain call."""
    res = await call(session, "create_report_run", {"report_type": "balance.summary.1"})
    run = json.loads(texts(res)[0]) if texts(res) and not is_error(res) else {}
    check("call_tool create_report_run: the report run, answered as a plain call",
          str(run.get("id", "")).startswith("frr_") and run.get("report_type") == "balance.summary.1"
          and run.get("status") == "succeeded", f"isError={is_error(res)}, {texts(res)}")


async def check_paged(session):
    """`list_balance_transactions` through `call_tool`: over its 4000 characters, the first
    page, a link and the line saying how to read on; the other pages through `call_tool`
    naming `read_result`, and as resources."""
    res = await call(session, "list_balance_transactions", {})
    kinds = [c.type for c in res.content]
    check("call_tool list_balance_transactions: a page, a link, a line",
          kinds == ["text", "resource_link", "text"] and not is_error(res), f"{res.content!r}"[:600])
    if kinds != ["text", "resource_link", "text"]:
        return
    first, link, line = res.content
    match = re.fullmatch(r"mcp-result://(.+)/1", str(link.uri))
    result_id = match and match.group(1)
    pages = re.search(r" in (\d+) pages", link.description or "")
    pages = int(pages.group(1)) if pages else 0
    check("list_balance_transactions: the link is to page 1 of several", result_id and pages >= 2, repr(link))
    check("list_balance_transactions: the line says how to read on",
          f'read_result` and arguments {{"id": "{result_id}", "page": 2}}' in line.text
          and f"mcp-result://{result_id}/2" in line.text, repr(line.text))
    check("list_balance_transactions: the first page and the line within 4000 characters",
          len(first.text) + len(line.text) <= BALANCE_PAGE_CHARS, f"{len(first.text)} + {len(line.text)}")
    through_tool = as_resources = first.text
    for page in range(2, pages + 1):
        read = await call(session, "read_result", {"id": result_id, "page": page})
        through_tool += (texts(read) or [""])[0] if not is_error(read) else f"<error {texts(read)}>"
        contents = (await session.read_resource(f"mcp-result://{result_id}/{page}")).contents
        as_resources += contents[0].text
    check("call_tool read_result reads the pages that resources/read reads",
          through_tool == as_resources and len(through_tool) > BALANCE_PAGE_CHARS, repr(through_tool[-300:]))
    short = await call(session, "list_balance_transactions", {"limit": 3})
    head = (texts(short) or [""])[0]
    check("the pages are the listing: it starts with the 3 newest lines", len(head.splitlines()) == 3
          and through_tool.startswith(head), f"{head!r} vs {through_tool[:400]!r}")


async def check_unknown(session):
    res = await call(session, "create_refnd", {"charge": "ch_3Lx1"})
    text = (texts(res) or [""])[0]
    check("call_tool with an unknown name: a tool error that suggests names",
          is_error(res) is True and text.startswith("no tool `create_refnd` is offered; did you mean `create_refund`")
          and text.endswith("Find tools with `search_tools`."), f"isError={is_error(res)}, {texts(res)}")


async def check_scopes(args):
    """Over HTTP, with `ScopePolicy::Hide`: a token without `payouts:write` never finds
    `create_payout` (nor is it suggested, nor run); one with it does."""
    async with connect(args, token=args.reader_token) as (session, _):
        res, found = await search(session, PAYOUT_QUERY)
        check(f"reader: search_tools {PAYOUT_QUERY!r} never offers create_payout",
              not is_error(res) and found is not None and "create_payout" not in found, f"{found}")
        res, found = await search(session, "create_payout")
        check("reader: nor when searched by its name", found is not None and "create_payout" not in found, f"{found}")
        res = await call(session, "create_payout", {"amount": 100})
        text = (texts(res) or [""])[0]
        check("reader: call_tool create_payout is refused as no tool offered, suggesting others",
              is_error(res) is True and text.startswith("no tool `create_payout` is offered")
              and "`create_payout`" not in text.split("offered", 1)[-1], f"{texts(res)}")
    async with connect(args, token=args.admin_token) as (session, _):
        res, found = await search(session, PAYOUT_QUERY)
        check(f"admin: search_tools {PAYOUT_QUERY!r} offers create_payout", found and "create_payout" in found,
              f"{found}")


async def run_payments(args):
    """The payments example's tool search, with the elicitation answered by an SDK callback."""
    from mcp import types

    asked = []
    answers = ["decline", "accept"]  # create_refund: declined first, then confirmed

    async def elicitation(context, params):
        asked.append(params)
        action = answers.pop(0) if answers else "cancel"
        return types.ElicitResult(action=action, content={"confirm": True} if action == "accept" else None)

    # Over HTTP the server takes demo tokens (PAYMENTS_TOKENS): the session's own may pay out.
    async with connect(args, token=args.admin_token, elicitation_callback=elicitation) as (session, version):
        print(f"mcp {MCP_VERSION}, mode {args.mode}, negotiated protocol version {version}")
        expected_version = LEGACY if args.mode == "legacy" else MODERN
        check("protocol version", version == expected_version, f"{version!r}, expected {expected_version!r}")
        await check_discovery(session)
        await check_refund(session, asked)
        await check_report(session)
        await check_paged(session)
        await check_unknown(session)
    if args.http and args.reader_token and args.admin_token:
        await check_scopes(args)
    else:
        print("skip scopes: over stdio there is no principal (and over HTTP, pass --reader-token and --admin-token)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, choices=sorted([*CASES, "notes", "payments"]))
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--stdio", metavar="BINARY", help="launch this server binary and talk over its stdio")
    target.add_argument("--http", metavar="URL", help="Streamable HTTP endpoint, e.g. http://127.0.0.1:8080/mcp")
    parser.add_argument("--server-arg", metavar="ARG", action="append", default=[],
                        help="an argument for the --stdio server (repeatable), e.g. --server-arg=--wire-log=FILE")
    parser.add_argument("--reader-token", metavar="TOKEN",
                        help="payments over HTTP: a bearer token without the payouts:write scope")
    parser.add_argument("--admin-token", metavar="TOKEN",
                        help="payments over HTTP: a bearer token with payouts:write (the session's own)")
    parser.add_argument("--mode", choices=["legacy", "auto", "pin"], default="auto" if V2 else "legacy",
                        help="2.x: Client mode (pin = 2026-07-28); 1.x: legacy only")
    args = parser.parse_args()
    if not V2 and args.mode != "legacy":
        parser.error(f"mcp {MCP_VERSION} only speaks the legacy (initialize) era: use --mode legacy")
    try:
        asyncio.run(run(args))
    except Exception as e:  # a failed connection, or a call that raised; anyio wraps it in a group
        while len(getattr(e, "exceptions", ())) == 1:
            e = e.exceptions[0]
        check("session", False, f"{type(e).__name__}: {e}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
