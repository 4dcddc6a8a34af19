"""A server built on the official Python SDK, for this repository's client to call.

Runs on mcp 1.x (FastMCP) and 2.x (MCPServer), over stdio or Streamable HTTP:

    python server.py                      # stdio
    python server.py --http 127.0.0.1:PORT

Its tools ask the client (elicitation, sampling): with requests of the server's own in the
legacy revisions, and on mcp 2.x in revision 2026-07-28 with an `InputRequiredResult`, as
that revision asks. They report progress and log; it serves a resource and a prompt, and
completes the prompt's argument.
"""

import argparse

from pydantic import BaseModel

try:  # mcp 2.x
    from mcp.server.mcpserver import Context, MCPServer as Server

    MAJOR = 2
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import Context, FastMCP as Server

    MAJOR = 1
from mcp.types import Completion, SamplingMessage, TextContent

MODERN = "2026-07-28"


def modern(ctx) -> bool:
    return MAJOR == 2 and ctx.protocol_version == MODERN


def ask(key: str, method: str, params: dict):
    """The 2026-07-28 answer that asks the client, to be sent again with the response."""
    from mcp_types import InputRequiredResult

    return InputRequiredResult.model_validate({"inputRequests": {key: {"method": method, "params": params}}})


def answered(ctx, key: str):
    """The client's response to the question `key` of an earlier round, as JSON, or None."""
    responses = ctx.input_responses or {}
    response = responses.get(key)
    if response is None:
        return None
    return response.model_dump(by_alias=True, exclude_none=True) if hasattr(response, "model_dump") else response

parser = argparse.ArgumentParser()
parser.add_argument("--http", help="serve Streamable HTTP on HOST:PORT instead of stdio")
args = parser.parse_args()

host, port = "127.0.0.1", 8000
if args.http:
    host, _, port_text = args.http.rpartition(":")
    port = int(port_text)

app = Server(f"python-sdk-{MAJOR}", host=host, port=port) if MAJOR == 1 else Server(f"python-sdk-{MAJOR}")


@app.tool()
def add(a: int, b: int) -> int:
    """Adds two numbers."""
    return a + b


class Confirm(BaseModel):
    confirm: bool


@app.tool()
async def wipe(ctx: Context) -> str:
    """Deletes everything, once the user says so."""
    if modern(ctx):
        answer = answered(ctx, "confirm")
        if answer is None:
            schema = {"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]}
            return ask("confirm", "elicitation/create", {"mode": "form", "message": "Delete everything?", "requestedSchema": schema})
        confirmed = answer.get("action") == "accept" and answer.get("content", {}).get("confirm") is True
        return "wiped" if confirmed else "kept"
    answer = await ctx.elicit("Delete everything?", Confirm)
    if answer.action == "accept" and answer.data.confirm:
        return "wiped"
    return "kept"


@app.tool()
async def title(text: str, ctx: Context) -> str:
    """Asks the client's model for a title for the text."""
    prompt = f"Title this: {text}"
    if modern(ctx):
        answer = answered(ctx, "title")
        if answer is None:
            messages = [{"role": "user", "content": {"type": "text", "text": prompt}}]
            return ask("title", "sampling/createMessage", {"messages": messages, "maxTokens": 20})
        return answer.get("content", {}).get("text", "")
    message = SamplingMessage(role="user", content=TextContent(type="text", text=prompt))
    result = await ctx.session.create_message(messages=[message], max_tokens=20)
    content = result.content
    return content.text if hasattr(content, "text") else str(content)


@app.tool()
async def count(n: int, ctx: Context) -> str:
    """Counts to n, reporting progress and logging each step."""
    for step in range(1, n + 1):
        await ctx.report_progress(step, n)
        await ctx.info(f"step {step}")
    return f"counted to {n}"


@app.resource("memo://greeting")
def greeting() -> str:
    """A greeting."""
    return "hello from python"


@app.prompt()
def review(language: str) -> str:
    """Asks for a code review."""
    return f"Review this {language} code."


@app.completion()
async def complete(ref, argument, context):
    if argument.name == "language":
        values = [v for v in ["python", "rust", "typescript"] if v.startswith(argument.value)]
        return Completion(values=values, hasMore=False)
    return None


if args.http:
    if MAJOR == 1:
        app.run(transport="streamable-http")
    else:
        app.run(transport="streamable-http", host=host, port=port)
else:
    app.run()
