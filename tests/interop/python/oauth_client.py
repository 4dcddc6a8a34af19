#!/usr/bin/env python3
"""Interop of our OAuth resource server with the official Python SDK (mcp 1.x).

    oauth_client.py FIXTURE     # FIXTURE: the oauth_fixture binary (tests/it/support/oauth_fixture.rs)

The fixture runs a loopback authorization server and an MCP server with OAuth, and prints
its URL, two tokens and a client's credentials. Checks:

- a bearer token passed as a header through the SDK's HTTP client: the call works and the tool
  sees the token's subject and scopes;
- the SDK's own OAuth handling (`ClientCredentialsOAuthProvider`, no token at first): the 401's
  `resource_metadata` leads it to our Protected Resource Metadata, then to the authorization
  server, where it gets a token for our resource with the scope the challenge named; calling a
  tool that needs more scope gets our 403 `insufficient_scope`, and the SDK steps up (a new
  token with that scope) and the call goes through.

Prints one line per check and ends with "N passed, M failed"; exits 1 if any check failed.
"""

import asyncio
import json
import subprocess
import sys
import warnings

import httpx
from mcp import ClientSession
from mcp.client.auth import TokenStorage
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamablehttp_client

passed, failed = 0, 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


class Memory(TokenStorage):
    def __init__(self):
        self.tokens, self.client = None, None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client

    async def set_client_info(self, client_info):
        self.client = client_info


def text(result):
    return result.content[0].text if result.content else None


async def with_header(fixture):
    headers = {"Authorization": f"Bearer {fixture['writer']}"}
    async with streamablehttp_client(fixture["url"], headers=headers) as (read, write, _):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = sorted(t.name for t in (await session.list_tools()).tools)
            check("header token: tools listed", tools == ["delete_note", "whoami"], tools)
            who = text(await session.call_tool("whoami", {}))
            check("header token: the tool sees the principal", who == "bob [notes:read notes:write]", who)
            deleted = text(await session.call_tool("delete_note", {"id": 7}))
            check("header token: a scoped tool with its scope", deleted == "deleted note 7", deleted)


async def with_sdk_auth(fixture):
    seen = []

    async def record(response):
        challenge = response.headers.get("www-authenticate")
        if challenge:
            seen.append((response.status_code, challenge))

    provider = ClientCredentialsOAuthProvider(
        server_url=fixture["url"],
        storage=Memory(),
        client_id=fixture["client_id"],
        client_secret=fixture["client_secret"],
        issuer=fixture["issuer"],
    )

    def factory(headers=None, timeout=None, auth=None):
        return httpx.AsyncClient(
            headers=headers, timeout=timeout, auth=auth, event_hooks={"response": [record]}
        )

    async with streamablehttp_client(fixture["url"], auth=provider, httpx_client_factory=factory) as (read, write, _):
        async with ClientSession(read, write) as session:
            await session.initialize()
            metadata = fixture["url"].replace("/mcp", "/.well-known/oauth-protected-resource/mcp")
            check(
                "SDK auth: a 401 names the metadata and the scopes",
                seen[:1] == [(401, f'Bearer resource_metadata="{metadata}", scope="notes:read"')],
                seen,
            )
            who = text(await session.call_tool("whoami", {}))
            check("SDK auth: token from the authorization server, scope from the challenge", who == "interop-client [notes:read]", who)
            deleted = text(await session.call_tool("delete_note", {"id": 8}))
            step_up = [s for s in seen if s[0] == 403]
            check(
                "SDK auth: a 403 step-up challenge names the scope needed",
                step_up == [(403, f'Bearer resource_metadata="{metadata}", error="insufficient_scope", scope="notes:write"')],
                seen,
            )
            check("SDK auth: after stepping up, the scoped call goes through", deleted == "deleted note 8", deleted)


async def main(binary):
    process = subprocess.Popen([binary], stdout=subprocess.PIPE, text=True)
    try:
        fixture = json.loads(process.stdout.readline())
        await asyncio.wait_for(with_header(fixture), 30)
        await asyncio.wait_for(with_sdk_auth(fixture), 30)
    finally:
        process.kill()
        process.wait()


if __name__ == "__main__":
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        asyncio.run(main(sys.argv[1]))
    except Exception as error:  # a check that could not run is a failure
        check("the checks ran", False, repr(error))
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
