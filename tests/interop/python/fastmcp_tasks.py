#!/usr/bin/env python3
"""The tasks extension (SEP-2663) driven end to end by FastMCP's `Client`, which no one here wrote.

Runs with PyPI `fastmcp` 4.1.4 and `fastmcp-tasks` 4.1.4 (requirements-fastmcp.txt). Importing
`fastmcp_tasks` registers its client extension on every FastMCP `Client`: the client declares
`io.modelcontextprotocol/tasks`, resolves a `resultType: "task"` answer to `tools/call` by polling
`tasks/get`, answers `input_required` with its `elicitation_handler` through `tasks/update`, and
`call_tool_task` hands back a task handle (`status`, `wait`, `result`, `cancel`).

    fastmcp_tasks.py --url http://127.0.0.1:PORT/mcp [--notes-url http://127.0.0.1:PORT/mcp]
                     [--payments-url http://127.0.0.1:PORT/mcp --payments-token TOKEN]

`--url` is the conformance example over Streamable HTTP (`slow_compute`, `confirm_delete`,
`multi_input`, `failing_job`, `protocol_error_job`, `greet`); `--notes-url` the notes example,
whose `archive_notes` is a task a user would write; `--payments-url` the payments example, whose
`create_report_run` is a task tool found by tool search and run through the framework's
`call_tool` (with `Authorization: Bearer TOKEN`, one of the server's demo tokens). The client connects with `mode="auto"`, probes
`server/discover` and speaks 2026-07-28 (checked). Every HTTP request the client sends is
recorded through the transport's `httpx_client_factory`, so the checks see which requests a
transparent call made (`tasks/get` polls, `tasks/update`) and their `Mcp-Method`/`Mcp-Name`.

fastmcp-tasks 4.1.4 sends `tasks/get`, `tasks/update` and `tasks/cancel` without the `Mcp-Name`
header, which SEP-2663 requires (the task id) and our server requires (-32020, HTTP 400). The
first check shows that; the script then sets `name_param = "taskId"` on the package's three
request models, the Python SDK's own hook for the header (`mcp_types.Request.name_param`), and
drives everything else with the client otherwise as shipped.

Prints one line per check and ends with "N passed, M failed"; exits 1 if any check failed.
"""

import argparse
import asyncio
import importlib.metadata
import json
import pathlib
import re
import sys
import time

# This file is named like the package it drives: keep its own folder off the import path, or
# `import fastmcp_tasks` would import this script.
HERE = pathlib.Path(__file__).resolve().parent
sys.path = [entry for entry in sys.path if pathlib.Path(entry or ".").resolve() != HERE]

import httpx2  # noqa: E402
import fastmcp_tasks  # noqa: E402,F401  (registers the tasks client extension)
from fastmcp import Client  # noqa: E402
from fastmcp.client.elicitation import ElicitResult  # noqa: E402
from fastmcp.client.transports import StreamableHttpTransport  # noqa: E402
from fastmcp.exceptions import ToolError  # noqa: E402
from fastmcp_tasks import call_tool_task, client_models  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

MODERN = "2026-07-28"
TASKS = "io.modelcontextprotocol/tasks"
HEADER_MISMATCH = -32020
STEP_SECONDS = 40  # no step waits longer (the slowest, slow_compute, takes 2 s)
TASK_REQUESTS = (client_models.GetTaskRequest, client_models.UpdateTaskRequest, client_models.CancelTaskRequest)

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


def text_of(result):
    """The text of a result's single text block, or a description of what it holds instead."""
    blocks = [block for block in result.content if getattr(block, "type", None) == "text"]
    return blocks[0].text if len(blocks) == 1 else f"<{len(result.content)} blocks: {result.content!r}>"


class Wire:
    """Records the routing headers of every HTTP request the client sends."""

    def __init__(self):
        self.sent = []  # (Mcp-Method, Mcp-Name or None)

    async def _record(self, request):
        self.sent.append((request.headers.get("mcp-method"), request.headers.get("mcp-name")))

    def factory(self, **kwargs):
        """An `httpx_client_factory` for FastMCP's HTTP transport, with MCP's default timeouts."""
        kwargs.setdefault("timeout", httpx2.Timeout(30.0, read=300.0))
        return httpx2.AsyncClient(event_hooks={"request": [self._record]}, **kwargs)

    def mark(self):
        return len(self.sent)

    def since(self, mark):
        """What was sent after `mark`, leaving out `tools/list` (FastMCP lists the tools to parse a
        result against its output schema)."""
        return [sent for sent in self.sent[mark:] if sent[0] != "tools/list"]


class Asker:
    """The client's `elicitation_handler`: answers the conformance tools' questions by message."""

    def __init__(self):
        self.asked = []  # (message, requested schema)

    async def __call__(self, message, response_type, params, context):
        self.asked.append((message, getattr(params, "requested_schema", None)))
        if message == "Delete keep.txt?":
            return ElicitResult(action="decline")
        if message.startswith("Delete "):
            return {"confirm": True}
        if message == "First entry?":
            return {"name": "Ada", "confirm": True}
        if message == "Second entry?":
            return {"name": "Grace", "confirm": True}
        return ElicitResult(action="cancel")


def client_for(url, wire, asker=None, token=None):
    transport = StreamableHttpTransport(url, auth=token, httpx_client_factory=wire.factory)
    return Client(transport, elicitation_handler=asker, mode="auto")


async def step(name, body):
    """Runs one group of checks; an exception or a hang fails it instead of stopping the run."""
    try:
        await asyncio.wait_for(body(), STEP_SECONDS)
    except Exception as error:  # noqa: BLE001 - any failure of the client is a failed check
        check(name, False, f"{type(error).__name__}: {error}")


async def conformance_checks(url):
    wire, asker = Wire(), Asker()
    async with client_for(url, wire, asker) as client:

        async def negotiation():
            check("negotiates 2026-07-28 (mode auto)", client.protocol_version == MODERN, client.protocol_version)
            extensions = getattr(client.server_capabilities, "extensions", None) or {}
            check("server/discover advertises the tasks extension", TASKS in extensions, extensions)

        async def missing_mcp_name():
            if any(model.name_param is not None for model in TASK_REQUESTS):
                check("fastmcp-tasks names the task in Mcp-Name itself: drop the name_param shim", False,
                      {model.__name__: model.name_param for model in TASK_REQUESTS})
                return
            mark = wire.mark()
            try:
                await client.call_tool("slow_compute", {"seconds": 1, "label": "unrouted"})
                check("tasks/get without Mcp-Name is refused", False, "the call succeeded")
            except MCPError as error:
                polls = [name for method, name in wire.since(mark) if method == "tasks/get"]
                check("fastmcp-tasks 4.1.4 sends tasks/get without Mcp-Name, refused with -32020",
                      error.code == HEADER_MISMATCH and "Mcp-Name" in error.message and polls == [None],
                      f"{error.code} {error.message!r}; tasks/get Mcp-Name headers {polls}")
            for model in TASK_REQUESTS:
                model.name_param = "taskId"

        async def transparent_task():
            mark = wire.mark()
            result = await client.call_tool("slow_compute", {"seconds": 2, "label": "x"})
            check("call_tool slow_compute: the final result, transparently",
                  not result.is_error and text_of(result) == "computed x in 2 s", text_of(result))
            sent = wire.since(mark)
            call, polls = sent[:1], sent[1:]
            ids = {name for _, name in polls}
            check("call_tool slow_compute ran as a task: tools/call, then tasks/get polls naming the task",
                  call == [("tools/call", "slow_compute")] and len(polls) >= 2
                  and all(method == "tasks/get" for method, _ in polls) and len(ids) == 1 and None not in ids,
                  sent)

        async def task_handle():
            task = await call_tool_task(client, "slow_compute", {"seconds": 2, "label": "y"})
            created = task.create_result
            check("call_tool_task slow_compute: CreateTaskResult working, with a status and a poll interval",
                  created.result_type == "task" and created.status == "working"
                  and re.fullmatch(r"\d of 2 s", created.status_message or "") is not None
                  and (created.poll_interval_ms or 0) > 0 and len(task.task_id) >= 16,
                  created)
            status = await task.status()
            check("ToolTask.status: working, statusMessage from ctx.set_status",
                  status.task_id == task.task_id and status.status == "working"
                  and re.fullmatch(r"\d of 2 s", status.status_message or "") is not None, status)
            result = await task
            check("awaiting the ToolTask gives the result", text_of(result) == "computed y in 2 s", text_of(result))
            final = await task.status()
            check("then tasks/get says completed with the result inlined",
                  final.status == "completed" and (final.result or {}).get("content", [{}])[0].get("text")
                  == "computed y in 2 s", final)

        async def asking_task():
            asker.asked.clear()
            result = await client.call_tool("confirm_delete", {"filename": "report.txt"})
            check("call_tool confirm_delete, accepted by the elicitation_handler: deleted",
                  text_of(result) == "deleted report.txt", text_of(result))
            schema = asker.asked[0][1] if asker.asked else None
            check("the handler got the question and a form with a required boolean confirm",
                  [message for message, _ in asker.asked] == ["Delete report.txt?"]
                  and (schema or {}).get("properties", {}).get("confirm", {}).get("type") == "boolean"
                  and "confirm" in (schema or {}).get("required", []), asker.asked)

            task = await call_tool_task(client, "confirm_delete", {"filename": "draft.txt"})
            parked = await task.wait(state="input_required", timeout=10)
            requests = parked.input_requests or {}
            only = next(iter(requests.values()), {})
            check("ToolTask.wait(input_required): one elicitation/create in inputRequests",
                  len(requests) == 1 and only.get("method") == "elicitation/create"
                  and only.get("params", {}).get("message") == "Delete draft.txt?", parked)
            mark = wire.mark()
            result = await task.result()
            updates = [sent for sent in wire.since(mark) if sent[0] == "tasks/update"]
            check("ToolTask.result answers it through tasks/update: deleted",
                  text_of(result) == "deleted draft.txt" and updates == [("tasks/update", task.task_id)],
                  (text_of(result), updates))

            result = await client.call_tool("confirm_delete", {"filename": "keep.txt"})
            check("declined by the handler: kept", text_of(result) == "kept keep.txt", text_of(result))

        async def two_questions():
            asker.asked.clear()
            mark = wire.mark()
            result = await client.call_tool("multi_input", {})
            check("call_tool multi_input: both answers", text_of(result) == "Got Ada and Grace", text_of(result))
            updates = [sent for sent in wire.since(mark) if sent[0] == "tasks/update"]
            check("both questions asked in one round, answered by one tasks/update",
                  sorted(message for message, _ in asker.asked) == ["First entry?", "Second entry?"]
                  and len(updates) == 1, (asker.asked, updates))

        async def cancelling():
            task = await call_tool_task(client, "slow_compute", {"seconds": 60, "label": "long"})
            started = time.monotonic()
            await task.cancel()
            final = await task.wait(timeout=10)
            check("ToolTask.cancel on a 60 s task: the status ends cancelled, at once",
                  final.status == "cancelled" and time.monotonic() - started < 10, final)
            await task.cancel()
            again = await task.status()
            check("a second cancel is accepted and changes nothing", again.status == "cancelled", again)
            try:
                await task.result()
                check("ToolTask.result of a cancelled task raises ToolError", False, "it returned")
            except ToolError as error:
                check("ToolTask.result of a cancelled task raises ToolError", "cancelled" in str(error), str(error))

        async def failing():
            try:
                await client.call_tool("failing_job", {})
                check("call_tool failing_job raises ToolError", False, "it returned")
            except ToolError as error:
                check("call_tool failing_job raises ToolError with the tool's message",
                      str(error) == "the job failed: its input was not usable", str(error))
            result = await client.call_tool("failing_job", {}, raise_on_error=False)
            check("call_tool failing_job, raise_on_error=False: an isError result",
                  result.is_error and text_of(result) == "the job failed: its input was not usable", result)
            task = await call_tool_task(client, "failing_job", {}, raise_on_error=False)
            final = await task.wait(timeout=10)
            check("failing_job as a task: completed, with the isError result inlined",
                  final.status == "completed" and (final.result or {}).get("isError") is True, final)

        async def protocol_error():
            task = await call_tool_task(client, "protocol_error_job", {}, raise_on_error=False)
            final = await task.wait(timeout=10)
            error = final.error or {}
            check("protocol_error_job as a task: failed, with the JSON-RPC error -32603",
                  final.status == "failed" and error.get("code") == -32603 and error.get("message"), final)
            try:
                await client.call_tool("protocol_error_job", {})
                check("call_tool protocol_error_job raises ToolError", False, "it returned")
            except ToolError as raised:
                check("call_tool protocol_error_job raises ToolError with the task's error message",
                      str(raised) == error.get("message"), str(raised))

        async def plain_tool():
            mark = wire.mark()
            result = await client.call_tool("greet", {"name": "FastMCP"})
            check("call_tool greet (not a task tool): a plain result, no polling",
                  text_of(result) == "Hello, FastMCP!" and wire.since(mark) == [("tools/call", "greet")],
                  (text_of(result), wire.since(mark)))
            try:
                await call_tool_task(client, "greet", {"name": "FastMCP"})
                check("call_tool_task greet is refused by the client", False, "it returned a task")
            except ToolError as error:
                check("call_tool_task greet is refused by the client: not a task",
                      "did not run as a task" in str(error), str(error))

        await step("negotiation", negotiation)
        await step("tasks/get without Mcp-Name", missing_mcp_name)
        await step("transparent task", transparent_task)
        await step("task handle", task_handle)
        await step("asking inside a task", asking_task)
        await step("two questions at once", two_questions)
        await step("cancel", cancelling)
        await step("tool error in a task", failing)
        await step("failed task", protocol_error)
        await step("plain tool", plain_tool)


async def notes_checks(url):
    wire = Wire()
    async with client_for(url, wire) as client:

        async def archive():
            await client.call_tool("add_note", {"title": "fastmcp", "body": "archived by FastMCP's client"})
            task = await call_tool_task(client, "archive_notes", {})
            status = await task.status()
            check("call_tool_task archive_notes: a task saying how far it got",
                  status.status in ("working", "completed")
                  and (status.status == "completed"
                       or re.fullmatch(r"archived \d+ of \d+ notes", status.status_message or "") is not None),
                  status)
            result = await task
            archived = result.structured_content or {}
            check("archive_notes' result: the count and the Markdown, with the note just added",
                  archived.get("notes", 0) >= 1
                  and "- fastmcp: archived by FastMCP's client" in archived.get("markdown", "").splitlines(),
                  archived)

        await step("notes archive", archive)


async def payments_checks(url, token):
    wire = Wire()
    async with client_for(url, wire, token=token) as client:
        report = {"name": "create_report_run", "arguments": {"report_type": "balance.summary.1"}}

        def report_run(result):
            try:
                return json.loads(text_of(result))
            except ValueError:
                return {}

        async def transparent():
            mark = wire.mark()
            result = await client.call_tool("call_tool", report)
            run = report_run(result)
            check("call_tool naming create_report_run: the report run, transparently",
                  not result.is_error and str(run.get("id", "")).startswith("frr_") and run.get("status") == "succeeded",
                  text_of(result))
            sent = wire.since(mark)
            call, polls = sent[:1], sent[1:]
            ids = {name for _, name in polls}
            check("call_tool naming a task tool ran as a task: tools/call call_tool, then tasks/get polls",
                  call == [("tools/call", "call_tool")] and len(polls) >= 1
                  and all(method == "tasks/get" for method, _ in polls) and len(ids) == 1 and None not in ids, sent)

        async def handle():
            task = await call_tool_task(client, "call_tool", report)
            created = task.create_result
            check("call_tool_task call_tool create_report_run: CreateTaskResult working",
                  created.result_type == "task" and created.status in ("working", "completed"), created)
            result = await task
            run = report_run(result)
            check("awaiting it gives the report run", str(run.get("id", "")).startswith("frr_"), text_of(result))
            final = await task.status()
            check("then tasks/get says completed", final.status == "completed", final)

        await step("payments report, transparently", transparent)
        await step("payments report, a task handle", handle)


async def main(args):
    versions = {name: importlib.metadata.version(name) for name in ("fastmcp", "fastmcp-tasks", "mcp")}
    print("clients: " + ", ".join(f"{name} {version}" for name, version in versions.items()))
    await conformance_checks(args.url)
    if args.notes_url:
        await notes_checks(args.notes_url)
    if args.payments_url:
        await payments_checks(args.payments_url, args.payments_token)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the conformance example's Streamable HTTP endpoint")
    parser.add_argument("--notes-url", help="the notes example's endpoint, for archive_notes")
    parser.add_argument("--payments-url", help="the payments example's endpoint, for create_report_run")
    parser.add_argument("--payments-token", help="a bearer token the payments server takes")
    asyncio.run(main(parser.parse_args()))
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
