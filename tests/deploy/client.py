#!/usr/bin/env python3
"""The checks of tests/deploy/run.sh: a client, on Python's standard library alone, of three
mcp-toolkit instances behind nginx.

    client.py --nginx PORT --access-log FILE --instance NAME=PORT:PID [--instance ...]

It tells which instance answered a request by nginx's access log (one JSON line per request,
with the request id nginx also returns as X-Request-Id, and the upstream address that
answered). Prints one `PASS <check>: ...` or `FAIL <check>: ...` line per check; exits 1 if
any failed.
"""

import argparse
import http.client
import json
import os
import re
import select
import signal
import socket
import sys
import time
from collections import Counter

MODERN = "2026-07-28"
CLIENT_INFO = {"name": "deploy-check", "version": "1.0.0"}
SIMPLE_TEXT = "This is a simple text response for testing."


class Failure(Exception):
    """A check's expectation that did not hold."""


def expect(condition, message):
    if not condition:
        raise Failure(message)


def events_of(text):
    """The JSON messages of an SSE body (comments and other fields skipped)."""
    messages = []
    for event in re.split(r"\r?\n\r?\n", text):
        data = [line[5:].lstrip(" ") for line in event.splitlines() if line.startswith("data:")]
        if data:
            messages.append(json.loads("\n".join(data)))
    return messages


class Answer:
    """An HTTP answer: its status, headers, and JSON-RPC messages (the body, or each event)."""

    def __init__(self, status, headers, body):
        self.status = status
        self.headers = {name.lower(): value for name, value in headers}
        self.body = body
        content_type = self.headers.get("content-type", "")
        if content_type.startswith("text/event-stream"):
            self.messages = events_of(body.decode())
        elif content_type.startswith("application/json") and body.strip():
            self.messages = [json.loads(body)]
        else:
            self.messages = []

    @property
    def request_id(self):
        return self.headers.get("x-request-id")

    def answer(self):
        """The JSON-RPC response among the messages (the last one with a result or error)."""
        answers = [m for m in self.messages if "result" in m or "error" in m]
        expect(answers, f"HTTP {self.status} with no JSON-RPC answer: {self.body[:300]!r}")
        return answers[-1]

    def result(self):
        answer = self.answer()
        expect("result" in answer, f"an error instead of a result: {json.dumps(answer)[:300]}")
        return answer["result"]


def post(port, body, headers=None, method="POST"):
    """One request to 127.0.0.1:PORT/mcp on a connection of its own."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    sent = {"Accept": "application/json, text/event-stream"}
    data = None
    if body is not None:
        sent["Content-Type"] = "application/json"
        data = json.dumps(body)
    sent.update(headers or {})
    try:
        connection.request(method, "/mcp", body=data, headers=sent)
        response = connection.getresponse()
        return Answer(response.status, response.getheaders(), response.read())
    finally:
        connection.close()


def modern_body(request_id, method, params, capabilities=None, meta=None):
    params = dict(params)
    params["_meta"] = {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
        "io.modelcontextprotocol/clientCapabilities": capabilities or {},
        **(meta or {}),
    }
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


def modern_headers(method, params):
    headers = {"MCP-Protocol-Version": MODERN, "Mcp-Method": method}
    if "name" in params:
        headers["Mcp-Name"] = params["name"]
    return headers


def modern(port, request_id, method, params, capabilities=None, meta=None):
    """A 2026-07-28 request: the protocol version in `_meta` and the headers that match."""
    body = modern_body(request_id, method, params, capabilities, meta)
    return post(port, body, modern_headers(method, params))


class EventStream:
    """A request whose answer is an SSE stream left open, read event by event with time
    limits (over a plain socket, so a time limit does not spoil the reader)."""

    def __init__(self, port, body, headers):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=10)
        data = json.dumps(body).encode()
        lines = [
            "POST /mcp HTTP/1.1",
            f"Host: 127.0.0.1:{port}",
            "Accept: application/json, text/event-stream",
            "Content-Type: application/json",
            f"Content-Length: {len(data)}",
        ] + [f"{name}: {value}" for name, value in headers.items()]
        self.socket.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
        self.raw = b""  # received, not yet de-chunked
        self.text = ""  # de-chunked, not yet read as events
        self.ended = False
        deadline = time.monotonic() + 10
        while b"\r\n\r\n" not in self.raw:
            expect(self._receive(deadline), "no response head within 10 s")
        head, self.raw = self.raw.split(b"\r\n\r\n", 1)
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        self.status = int(status_line.split(" ")[1])
        self.headers = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()
        self.chunked = self.headers.get("transfer-encoding", "").lower() == "chunked"

    def _receive(self, deadline):
        """Reads what has come, waiting until `deadline`; False when nothing came in time."""
        if self.ended:
            return False
        ready, _, _ = select.select([self.socket], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            return False
        data = self.socket.recv(65536)
        if not data:
            self.ended = True
            return False
        self.raw += data
        return True

    def _decode(self):
        if not self.chunked:
            self.text += self.raw.decode()
            self.raw = b""
            return
        while b"\r\n" in self.raw:
            size_line, rest = self.raw.split(b"\r\n", 1)
            size = int(size_line.split(b";")[0], 16)
            if size == 0:
                self.ended = True
                self.raw = b""
                return
            if len(rest) < size + 2:
                return
            self.text += rest[:size].decode()
            self.raw = rest[size + 2 :]

    def next_event(self, seconds):
        """The next event's message, or None if none came within `seconds` (or the stream
        ended: see `ended`)."""
        deadline = time.monotonic() + seconds
        while True:
            self._decode()
            match = re.search(r"\r?\n\r?\n", self.text)
            while match:
                event, self.text = self.text[: match.start()], self.text[match.end() :]
                messages = events_of(event + "\n\n")
                if messages:
                    return messages[0]
                match = re.search(r"\r?\n\r?\n", self.text)  # a comment (keep-alive): skip it
            if not self._receive(deadline):
                return None

    def close(self):
        self.socket.close()


class AccessLog:
    """nginx's access log: which instance answered a request, by its request id."""

    def __init__(self, path, names_by_port):
        self.path = path
        self.names_by_port = names_by_port

    def entry(self, request_id, seconds=3.0):
        """The log entry of the request (nginx writes it when the request ends)."""
        deadline = time.monotonic() + seconds
        while True:
            with open(self.path, encoding="utf-8") as log:
                for line in log:
                    entry = json.loads(line)
                    if entry["request_id"] == request_id:
                        return entry
            expect(time.monotonic() < deadline, f"no access log line for request {request_id}")
            time.sleep(0.02)

    def tried(self, request_id):
        """The instances nginx tried for the request, in order; the last answered."""
        upstream = self.entry(request_id)["upstream"]
        addresses = [a for a in re.split(r"\s*[,:]\s+", upstream) if a]
        return [self.names_by_port.get(int(a.rsplit(":", 1)[1]), a) for a in addresses]

    def answered(self, answer):
        expect(answer.request_id, "nginx sent no X-Request-Id")
        tried = self.tried(answer.request_id)
        expect(tried, f"no instance answered request {answer.request_id}")
        return tried[-1]


class Deployment:
    def __init__(self, args):
        self.nginx = args.nginx
        self.instances = {}  # name -> (port, pid)
        for spec in args.instance:
            name, _, rest = spec.partition("=")
            port, _, pid = rest.partition(":")
            self.instances[name] = (int(port), int(pid))
        self.log = AccessLog(args.access_log, {port: name for name, (port, _) in self.instances.items()})
        self.sessions = {}  # instance -> (session id, revision)
        self.killed = None

    def call_simple_text(self, request_id):
        answer = modern(self.nginx, request_id, "tools/call", {"name": "test_simple_text", "arguments": {}})
        expect(answer.status == 200, f"HTTP {answer.status}: {answer.body[:300]!r}")
        content = answer.result().get("content")
        expect(content == [{"type": "text", "text": SIMPLE_TEXT}], f"unexpected content {content}")
        return answer

    # (a)
    def modern_calls_spread(self):
        requests = [("server/discover", {}), ("tools/list", {})]
        requests += [("tools/call", {"name": "test_simple_text", "arguments": {}})] * 7
        answered = Counter()
        for request_id, (method, params) in enumerate(requests, 1):
            answer = modern(self.nginx, request_id, method, params)
            expect(answer.status == 200, f"{method}: HTTP {answer.status}: {answer.body[:300]!r}")
            result = answer.result()
            if method == "tools/call":
                expect(result["content"][0]["text"] == SIMPLE_TEXT, f"unexpected result {result}")
            answered[self.log.answered(answer)] += 1
        spread = ", ".join(f"{name}: {answered[name]}" for name in sorted(self.instances))
        expect(set(answered) == set(self.instances), f"not every instance answered ({spread})")
        expect(max(answered.values()) - min(answered.values()) <= 1, f"not round-robin ({spread})")
        return f"{len(requests)} requests answered round-robin ({spread})"

    # (b)
    def rounds_cross_instances(self):
        tool = "test_input_required_result_multi_round"
        asks = {"elicitation": {}}
        rounds = []

        def call(extra):
            params = {"name": tool, "arguments": {}, **extra}
            answer = modern(self.nginx, len(rounds) + 1, "tools/call", params, capabilities=asks)
            what = f"round {len(rounds) + 1}"
            expect(answer.status == 200, f"{what}: HTTP {answer.status}: {answer.body[:300]!r}")
            rounds.append(self.log.answered(answer))
            return answer.result()

        first = call({})
        expect(first.get("resultType") == "input_required", f"round 1 did not ask: {first}")
        expect("step1" in first.get("inputRequests", {}), f"round 1 asked {first.get('inputRequests')}")
        name = {"step1": {"action": "accept", "content": {"name": "Ada"}}}
        second = call({"inputResponses": name, "requestState": first["requestState"]})
        expect(second.get("resultType") == "input_required", f"round 2 did not ask: {second}")
        expect("step2" in second.get("inputRequests", {}), f"round 2 asked {second.get('inputRequests')}")
        color = {"step2": {"action": "accept", "content": {"color": "teal"}}}
        done = call({"inputResponses": color, "requestState": second["requestState"]})
        expect(done.get("resultType", "complete") == "complete", f"round 3 did not complete: {done}")
        text = done["content"][0]["text"]
        expect(text == "Multi-round complete for Ada who likes teal", f"unexpected result {text!r}")
        expect(len(set(rounds)) >= 2, f"every round landed on {rounds[0]}: nothing crossed instances")
        return f"3 rounds answered by {' -> '.join(rounds)}: {text!r}"

    # (c)
    def sessions_stick(self):
        said = []
        for revision in ["2024-11-05", "2025-06-18", "2025-11-25"]:
            initialize = {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {"protocolVersion": revision, "capabilities": {}, "clientInfo": CLIENT_INFO},
            }
            opened = post(self.nginx, initialize)
            what = f"initialize {revision}"
            expect(opened.status == 200, f"{what}: HTTP {opened.status}: {opened.body[:300]!r}")
            session = opened.headers.get("mcp-session-id", "")
            named = re.fullmatch(r"([A-Za-z0-9_-]{1,63})\.([0-9a-f]{32})", session)
            expect(named and named.group(1) in self.instances, f"session id {session!r} names no instance")
            owner = named.group(1)
            expect(self.log.answered(opened) == owner, f"{session} was issued by {self.log.answered(opened)}")
            headers = {"Mcp-Session-Id": session}
            if revision != "2024-11-05":  # the header came with 2025-06-18
                headers["MCP-Protocol-Version"] = revision
            requests = [
                ({"jsonrpc": "2.0", "method": "notifications/initialized"}, 202),
                ({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, 200),
                (
                    {
                        "jsonrpc": "2.0",
                        "id": 2,
                        "method": "tools/call",
                        "params": {"name": "test_simple_text", "arguments": {}},
                    },
                    200,
                ),
                ({"jsonrpc": "2.0", "id": 3, "method": "ping"}, 200),
            ]
            for body, status in requests:
                answer = post(self.nginx, body, headers)
                what = f"{body['method']} in {session}"
                expect(answer.status == status, f"{what}: HTTP {answer.status}: {answer.body[:300]!r}")
                if body["method"] == "tools/call":
                    text = answer.result()["content"][0]["text"]
                    expect(text == SIMPLE_TEXT, f"{what}: unexpected result {text!r}")
                by = self.log.answered(answer)
                expect(by == owner, f"{what} went to {by}, not {owner}")
            # The session's GET stream, through nginx, to its instance.
            stream = http.client.HTTPConnection("127.0.0.1", self.nginx, timeout=10)
            stream.request("GET", "/mcp", headers={"Accept": "text/event-stream", **headers})
            response = stream.getresponse()
            kind = response.getheader("content-type", "")
            request_id_of_get = response.getheader("x-request-id")
            stream.close()
            streamed = response.status == 200 and kind.startswith("text/event-stream")
            expect(streamed, f"GET stream: HTTP {response.status} {kind}")
            by = self.log.tried(request_id_of_get)[-1]
            expect(by == owner, f"the GET stream of {session} went to {by}, not {owner}")
            # Straight to another instance, the id names nothing: the spec's 404.
            other = next(name for name in sorted(self.instances) if name != owner)
            elsewhere = post(self.instances[other][0], {"jsonrpc": "2.0", "id": 4, "method": "ping"}, headers)
            expect(elsewhere.status == 404, f"{session} sent to {other}: HTTP {elsewhere.status}, not 404")
            self.sessions.setdefault(owner, (session, headers))
            said.append(f"{revision} on {owner}")
        return (
            f"3 sessions ({', '.join(said)}): every request and GET stream reached the instance "
            "that issued the session; sent straight to another instance, 404"
        )

    # (e)
    def streams_pass_through(self):
        params = {"notifications": {"toolsListChanged": True}}
        body = modern_body("listen-1", "subscriptions/listen", params)
        listen = EventStream(self.nginx, body, modern_headers("subscriptions/listen", params))
        try:
            expect(listen.status == 200, f"subscriptions/listen: HTTP {listen.status}")
            kind = listen.headers.get("content-type", "")
            expect(kind.startswith("text/event-stream"), f"subscriptions/listen: {kind}")
            started = time.monotonic()
            ack = listen.next_event(5)
            waited = time.monotonic() - started
            expect(ack is not None, "no acknowledgment within 5 s (is nginx buffering the stream?)")
            expect(ack.get("method") == "notifications/subscriptions/acknowledged", f"first event: {ack}")
            expect(not listen.ended, "the listen stream ended after its acknowledgment")
            # A change on the listening instance arrives on the open stream: the trigger goes
            # round-robin, so at most one per instance until it lands there.
            changed = None
            for attempt in range(1, len(self.instances) + 1):
                trigger = {"name": "test_trigger_tool_change", "arguments": {}}
                answer = modern(self.nginx, 100 + attempt, "tools/call", trigger)
                expect(answer.status == 200, f"trigger: HTTP {answer.status}")
                changed = listen.next_event(1)
                if changed is not None:
                    break
            expect(changed is not None, "no notifications/tools/list_changed on the listen stream")
            expect(changed.get("method") == "notifications/tools/list_changed", f"unexpected event {changed}")
        finally:
            listen.close()
        # Progress makes an answer an SSE stream: every event arrives, the result last.
        token = {"progressToken": "deploy-1"}
        progress = {"name": "test_tool_with_progress", "arguments": {}}
        answer = modern(self.nginx, 200, "tools/call", progress, meta=token)
        expect(answer.status == 200, f"progress call: HTTP {answer.status}")
        kind = answer.headers.get("content-type", "")
        expect(kind.startswith("text/event-stream"), f"the progress call was not streamed: {kind}")
        methods = [m.get("method", "answer") for m in answer.messages]
        expect(methods == ["notifications/progress"] * 3 + ["answer"], f"events: {methods}")
        text = answer.result()["content"][0]["text"]
        expect(text == "Progress test completed", f"unexpected progress result {text!r}")
        return (
            f"listen stream acknowledged in {waited * 1000:.0f} ms and open, tools/list_changed "
            "arrived on it; a progress answer streamed 3 notifications then its result"
        )

    # (d)
    def calls_survive_a_killed_instance(self):
        victim = next(iter(self.sessions), sorted(self.instances)[0])
        port, pid = self.instances[victim]
        answered, retried = Counter(), 0
        for request_id in range(1, 13):
            if request_id == 5:
                os.kill(pid, signal.SIGKILL)
                self.killed = victim
                deadline = time.monotonic() + 5
                while time.monotonic() < deadline:
                    try:
                        socket.create_connection(("127.0.0.1", port), timeout=1).close()
                        time.sleep(0.01)
                    except OSError:
                        break
            try:
                answer = self.call_simple_text(request_id)
            except Failure as failure:
                when = "after" if self.killed else "before"
                raise Failure(f"call {request_id}, {when} {victim} was killed: {failure}") from None
            tried = self.log.tried(answer.request_id)
            if self.killed:
                expect(tried[-1] != victim, f"call {request_id} answered by the killed {victim}")
                answered[tried[-1]] += 1
                retried += victim in tried[:-1]
        spread = ", ".join(f"{name}: {count}" for name, count in sorted(answered.items()))
        return (
            f"{victim} killed (SIGKILL) after 4 of 12 calls; all 12 answered, the last 8 by {spread} "
            f"({retried} moved on by nginx from the dead instance)"
        )

    # (f)
    def sessions_after_the_kill(self):
        expect(self.killed, "no instance was killed")
        expect(self.killed in self.sessions, f"no session on the killed {self.killed}")
        ping = {"jsonrpc": "2.0", "id": 9, "method": "ping"}
        session, headers = self.sessions[self.killed]
        gone = post(self.nginx, ping, headers)
        expect(gone.status == 404, f"{session} (its instance killed): HTTP {gone.status}, not 404")
        said = f"the killed {self.killed}'s session: 404 through nginx"
        for owner, (session, headers) in self.sessions.items():
            if owner == self.killed:
                continue
            alive = post(self.nginx, ping, headers)
            expect(alive.status == 200, f"{session}: HTTP {alive.status}")
            expect(self.log.answered(alive) == owner, f"{session} went to {self.log.answered(alive)}")
            said += f"; {owner}'s session still served by {owner}"
        return said


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nginx", type=int, required=True, help="nginx's port on 127.0.0.1")
    parser.add_argument("--access-log", required=True, help="nginx's access log (log_format mcp)")
    parser.add_argument("--instance", action="append", required=True, help="NAME=PORT:PID")
    deployment = Deployment(parser.parse_args())
    checks = [
        ("(a) modern calls spread round-robin", deployment.modern_calls_spread),
        ("(b) an input_required call's rounds cross instances", deployment.rounds_cross_instances),
        ("(c) legacy sessions stay on their instance", deployment.sessions_stick),
        ("(e) SSE through nginx", deployment.streams_pass_through),
        ("(d) modern calls go on after SIGKILL of an instance", deployment.calls_survive_a_killed_instance),
        ("(f) sessions after the kill", deployment.sessions_after_the_kill),
    ]
    failed = 0
    for label, check in checks:
        try:
            print(f"PASS {label}: {check()}", flush=True)
        except Failure as failure:
            failed += 1
            print(f"FAIL {label}: {failure}", flush=True)
        except Exception as error:  # a crash is a failure of its check, not of the run
            failed += 1
            print(f"FAIL {label}: {type(error).__name__}: {error}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
