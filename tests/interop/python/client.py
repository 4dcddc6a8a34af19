#!/usr/bin/env python3
"""Interop checks of our example servers with the official Python SDK.

Runs with mcp==1.30.0 (initialize handshake only) or mcp==2.3.0 (its high-level `Client`,
mode "auto" probes server/discover and so speaks 2026-07-28 with us, "legacy" uses initialize).

    client.py --server calculator|text_analyzer|notes (--stdio BINARY [--server-arg ARG]... | --http URL) [--mode legacy|auto|pin]

With `--server notes` it drives the tools that ask the client (elicitation, sampling, roots)
through the SDK's callbacks: legacy servers send real requests, 2026-07-28 ones answer
`input_required` and the client retries with the answers. It also lists and gets the notes
server's prompts (`review_note`, `digest`), lists and reads its resources (`notes://all`,
`notes://{id}`), and subscribes to `notes://all` while adding a note: `subscribe_resource` and
the message handler in legacy sessions, `Client.listen(resource_subscriptions=...)` in 2026-07-28.

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
async def connect(args, **callbacks):
    """Yields (session-like object with list_tools/call_tool, negotiated protocol version).

    `callbacks`: sampling_callback, elicitation_callback, list_roots_callback (same names in
    both SDK lines; each declares its capability), message_handler (the notifications)."""
    from mcp import StdioServerParameters

    stdio = StdioServerParameters(command=args.stdio, args=args.server_arg) if args.stdio else None
    if V2:
        from mcp import Client

        mode = MODERN if args.mode == "pin" else args.mode
        async with Client(stdio or args.http, mode=mode, **callbacks) as client:
            yield client, client.protocol_version
    else:
        from mcp import ClientSession
        from mcp.client.stdio import stdio_client
        from mcp.client.streamable_http import streamable_http_client

        transport = stdio_client(stdio) if stdio else streamable_http_client(args.http)
        async with transport as streams:  # stdio: (read, write); 1.x HTTP: (read, write, get_session_id)
            async with ClientSession(streams[0], streams[1], **callbacks) as session:
                init = await session.initialize()
                yield session, init.protocolVersion


def texts(result):
    return [c.text for c in result.content if c.type == "text"]


async def run(args):
    if args.server == "notes":
        return await run_notes(args)
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
    listed = "\n".join(note_line(n) for n in latest) or "(there are no notes yet)"
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


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, choices=sorted([*CASES, "notes"]))
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--stdio", metavar="BINARY", help="launch this server binary and talk over its stdio")
    target.add_argument("--http", metavar="URL", help="Streamable HTTP endpoint, e.g. http://127.0.0.1:8080/mcp")
    parser.add_argument("--server-arg", metavar="ARG", action="append", default=[],
                        help="an argument for the --stdio server (repeatable), e.g. --server-arg=--wire-log=FILE")
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
