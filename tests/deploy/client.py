#!/usr/bin/env python3
"""The checks of tests/deploy/run.sh: a client, on Python's standard library alone, of three
mcp-toolkit instances behind nginx, sharing a redis-server as their task store.

    client.py --nginx PORT --access-log FILE --instance NAME=PORT:PID [--instance ...]
              --redis PORT:PID --task-lease SECONDS -- REDIS_COMMAND...

It tells which instance answered a request by nginx's access log (one JSON line per request,
with the request id nginx also returns as X-Request-Id, and the upstream address that
answered). REDIS_COMMAND is the command that started the redis-server: check (j) kills that
one and starts it again with the same command (and stops it before exiting). Prints one
`PASS <check>: ...` or `FAIL <check>: ...` line per check; exits 1 if any failed.
"""

import argparse
import http.client
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
from collections import Counter

MODERN = "2026-07-28"
CLIENT_INFO = {"name": "deploy-check", "version": "1.0.0"}
SIMPLE_TEXT = "This is a simple text response for testing."
TASKS = "io.modelcontextprotocol/tasks"
# A client that declares the tasks extension, and forms for the questions tasks ask.
TASK_CLIENT = {"elicitation": {"form": {}}, "extensions": {TASKS: {}}}
TASK_METHODS = ("tasks/get", "tasks/update", "tasks/cancel")
# Where a listen stream's messages name the listen request they answer.
SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId"
# Where the instances' Redis task store announces changed tasks (RedisStore's default prefix).
CHANGES_CHANNEL = "mcp-toolkit:tasks:changes"


class Failure(Exception):
    """A check's expectation that did not hold."""


def expect(condition, message):
    if not condition:
        raise Failure(message)


def short(value):
    """A JSON value, cut short for a message."""
    text = json.dumps(value)
    return text if len(text) <= 400 else text[:400] + "..."


def listening(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def wait_until(condition, seconds, step=0.02):
    """Whether `condition()` held within `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() >= deadline:
            return False
        time.sleep(step)
    return True


def subscribers(port, channel):
    """How many connections to the redis-server on `port` subscribe to `channel`, or None
    when it does not answer."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as connection:
            connection.sendall(f"PUBSUB NUMSUB {channel}\r\n".encode())
            reply = b""
            while reply.count(b"\r\n") < 4:  # *2, $len, the channel, :count
                data = connection.recv(4096)
                if not data:
                    return None
                reply += data
    except OSError:
        return None
    count = reply.split(b"\r\n")[3]
    return int(count[1:]) if count.startswith(b":") else None


def result_text(task):
    """The text of a completed task's inlined result."""
    content = (task.get("result") or {}).get("content") or [{}]
    text = content[0].get("text")
    expect(isinstance(text, str), f"task {task.get('taskId')} inlined no text result: {short(task)}")
    return text


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
    elif method == "resources/read":
        headers["Mcp-Name"] = params["uri"]
    elif method in TASK_METHODS and "taskId" in params:
        headers["Mcp-Name"] = params["taskId"]
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


class RedisMonitor:
    """Redis's MONITOR: each command Redis runs, as a line, read over a plain socket."""

    def __init__(self, port):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.socket.sendall(b"MONITOR\r\n")
        self.buffer = b""
        first = self.lines(5, until_one=True)
        expect(first[:1] == ["+OK"], f"redis-server answered MONITOR with {first!r}")

    def lines(self, seconds, until_one=False):
        """The lines that came within `seconds` (or the first one, `until_one`)."""
        deadline = time.monotonic() + seconds
        lines = []
        while True:
            while b"\r\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\r\n", 1)
                lines.append(line.decode(errors="replace"))
                if until_one:
                    return lines
            ready, _, _ = select.select([self.socket], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                return lines
            data = self.socket.recv(65536)
            if not data:
                return lines
            self.buffer += data

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
        self.names_by_port = {port: name for name, (port, _) in self.instances.items()}
        self.log = AccessLog(args.access_log, self.names_by_port)
        self.sessions = {}  # instance -> (session id, revision)
        self.killed = None  # by (d)
        self.dead = set()  # every instance killed
        port, _, pid = args.redis.partition(":")
        self.redis_port, self.redis_pid = int(port), int(pid)
        self.redis_command = args.redis_command
        self.redis_process = None  # started again by (j)
        self.lease = args.task_lease
        self.request_id = 1000
        self.kept = {}  # task id -> the task as it ended, for (j) to read again

    def next_id(self):
        self.request_id += 1
        return self.request_id

    def answered_by(self, answer, port):
        """The instance that answered: by nginx's log, or the one the request went to."""
        return self.log.answered(answer) if port == self.nginx else self.names_by_port[port]

    def start_task(self, tool, arguments, port=None):
        """A `tools/call` that becomes a task (through nginx unless `port`): its id, and the
        instance that created it (and runs it)."""
        port = port or self.nginx
        params = {"name": tool, "arguments": arguments}
        answer = modern(port, self.next_id(), "tools/call", params, capabilities=TASK_CLIENT)
        expect(answer.status == 200, f"tools/call {tool}: HTTP {answer.status}: {answer.body[:300]!r}")
        created = answer.result()
        task_id = created.get("taskId")
        made = f"tools/call {tool} made"
        expect(created.get("resultType") == "task" and task_id, f"{made} no task: {short(created)}")
        expect(created.get("status") == "working", f"{made} a task not working: {short(created)}")
        return task_id, self.answered_by(answer, port)

    def task_request(self, method, task_id, port=None, **params):
        """A `tasks/*` request about `task_id` (through nginx unless `port`): its result, and
        the instance that answered."""
        port = port or self.nginx
        params = {"taskId": task_id, **params}
        answer = modern(port, self.next_id(), method, params, capabilities=TASK_CLIENT)
        expect(answer.status == 200, f"{method} {task_id}: HTTP {answer.status}: {answer.body[:300]!r}")
        try:
            return answer.result(), self.answered_by(answer, port)
        except Failure as failure:
            raise Failure(f"{method} {task_id}: {failure}") from None

    def get_task(self, task_id, port=None):
        task, by = self.task_request("tasks/get", task_id, port)
        expect(task.get("taskId") == task_id, f"tasks/get {task_id} answered {short(task)}")
        return task, by

    def wait_for(self, task_id, statuses, seconds, allowed, polls=None, until=None):
        """Polls `tasks/get` through nginx every 0.2 s until the task's status is one of
        `statuses` (and `until(task)` holds); fails when its status is none of those nor
        `allowed`, or after `seconds`. Each poll's (instance, task) goes to `polls`."""
        deadline = time.monotonic() + seconds
        wanted = "/".join(sorted(statuses))
        while True:
            task, by = self.get_task(task_id)
            if polls is not None:
                polls.append((by, task))
            status = task.get("status")
            if status in statuses and (until is None or until(task)):
                return task
            expect(
                status in statuses or status in allowed,
                f"task {task_id} became {status} (read by {by}), not {wanted}: {short(task)}",
            )
            expect(
                time.monotonic() < deadline,
                f"task {task_id} still {status} after {seconds} s, not {wanted}: {short(task)}",
            )
            time.sleep(0.2)

    def steer_past(self, name, task_id):
        """Sends `tasks/get` through nginx until its round-robin (over the live instances in
        order, as (a) sees it) is to send the next request to an instance other than `name`."""
        order = [n for n in sorted(self.instances) if n not in self.dead]
        for _ in range(len(order) + 1):
            _, by = self.get_task(task_id)
            if order[(order.index(by) + 1) % len(order)] != name:
                return
        raise Failure(f"nginx's round-robin kept coming back to {name}")

    def listen_for_tasks(self, port, listen_id, task_ids):
        """A `subscriptions/listen` for `task_ids`, sent straight to the instance on `port`
        and left open: the stream, and its acknowledgment's `params`."""
        params = {"notifications": {"taskIds": task_ids}}
        body = modern_body(listen_id, "subscriptions/listen", params, capabilities=TASK_CLIENT)
        stream = EventStream(port, body, modern_headers("subscriptions/listen", params))
        try:
            what = f"subscriptions/listen {listen_id} on {self.names_by_port[port]}"
            kind = stream.headers.get("content-type", "")
            if stream.status != 200 or not kind.startswith("text/event-stream"):  # an error: say which
                stream._receive(time.monotonic() + 1)
                raise Failure(f"{what}: HTTP {stream.status} {kind}, not a stream: {stream.raw[:300]!r}")
            ack = stream.next_event(5)
            expect(ack is not None, f"{what}: no acknowledgment within 5 s")
            acknowledged = ack.get("method") == "notifications/subscriptions/acknowledged"
            expect(acknowledged, f"{what}: first event {short(ack)}")
            ack_params = ack.get("params") or {}
            tag = (ack_params.get("_meta") or {}).get(SUBSCRIPTION_ID)
            expect(tag == listen_id, f"{what}: acknowledgment tagged {tag!r}: {short(ack)}")
            expect(not stream.ended, f"{what}: the stream ended after its acknowledgment")
            return stream, ack_params
        except BaseException:
            stream.close()
            raise

    def stop_redis(self):
        """Stops the redis-server (j) started, if it did."""
        if self.redis_process and self.redis_process.poll() is None:
            self.redis_process.terminate()
            try:
                self.redis_process.wait(5)
            except subprocess.TimeoutExpired:
                self.redis_process.kill()
                self.redis_process.wait()

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
                self.dead.add(victim)
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


    # (g)
    def task_polled_elsewhere(self):
        started = time.monotonic()
        task_id, creator = self.start_task("slow_compute", {"seconds": 3, "label": "g"})
        polls = []
        done = self.wait_for(task_id, {"completed"}, 10, {"working"}, polls)
        took = time.monotonic() - started
        text = result_text(done)
        expect(text == "computed g in 3 s", f"task {task_id} completed with {text!r}")
        answered = Counter(by for by, _ in polls)
        spread = ", ".join(f"{name}: {answered[name]}" for name in sorted(answered))
        expect(len(answered) >= 2, f"every tasks/get was answered by {creator} ({spread})")
        expect(set(answered) - {creator}, f"no tasks/get reached an instance other than {creator} ({spread})")
        # The running instance's status messages, as the others read them from Redis.
        progress = {t.get("statusMessage") for by, t in polls if by != creator and t["status"] == "working"}
        progress = sorted(progress)
        expect(len(progress) >= 2, f"the other instances read no progress of the task: {progress}")
        self.kept[task_id] = done
        return (
            f"slow_compute 3 s created through {creator}; {len(polls)} tasks/get answered by {spread}, "
            f"the others reading {', '.join(map(repr, progress))}; completed after {took:.1f} s with "
            f"{text!r} inlined"
        )

    # (n)
    def spilled_pages_read_elsewhere(self):
        """A result over its budget, answered by one instance, read to its end through the
        others: as `mcp-result://` resources, following each page's link to the next, and
        through the `read_result` tool."""
        lines = 120
        whole = "".join(f"line {n:05}: all systems nominal\n" for n in range(1, lines + 1))
        params = {"name": "long_report", "arguments": {"lines": lines}}
        answer = modern(self.nginx, self.next_id(), "tools/call", params)
        expect(answer.status == 200, f"tools/call long_report: HTTP {answer.status}: {answer.body[:300]!r}")
        creator = self.answered_by(answer, self.nginx)
        content = answer.result().get("content") or []
        kinds = [block.get("type") for block in content]
        expect(kinds == ["text", "resource_link", "text"], f"long_report answered blocks {kinds}")
        first, link, line = content
        sent = len(json.dumps(content, ensure_ascii=False).encode())
        expect(len(first["text"].encode()) <= 1024, f"a first page of {len(first['text'].encode())} bytes")
        match = re.fullmatch(r"mcp-result://([^/]+)/1", link.get("uri", ""))
        expect(match, f"the link is to {link.get('uri')!r}, not a result's first page")
        result_id = match.group(1)
        expect(f"mcp-result://{result_id}/2" in line["text"], f"the line does not say where page 2 is: {line['text']!r}")
        pages, readers = [first["text"]], []
        uri = f"mcp-result://{result_id}/2"
        while uri:
            answer = modern(self.nginx, self.next_id(), "resources/read", {"uri": uri})
            expect(answer.status == 200, f"resources/read {uri}: HTTP {answer.status}: {answer.body[:300]!r}")
            readers.append(self.answered_by(answer, self.nginx))
            contents = answer.result().get("contents") or []
            expect(contents and "text" in contents[0], f"resources/read {uri} gave {short(contents)}")
            pages.append(contents[0]["text"])
            following = [c for c in contents[1:] if c.get("mimeType") == "text/uri-list"]
            uri = following[0]["text"].strip() if following else None
            expect(len(pages) <= 50, "more than 50 pages: the links go round")
        expect("".join(pages) == whole, f"the {len(pages)} pages joined are not the report")
        others = sorted(set(readers) - {creator})
        expect(others, f"every page was read from {creator}, which made the result")
        # Page 2 again, through the tool, from whichever instance nginx picks next.
        params = {"name": "read_result", "arguments": {"id": result_id, "page": 2}}
        answer = modern(self.nginx, self.next_id(), "tools/call", params)
        expect(answer.status == 200, f"read_result: HTTP {answer.status}: {answer.body[:300]!r}")
        by_tool = self.answered_by(answer, self.nginx)
        text = (answer.result().get("content") or [{}])[0].get("text")
        expect(text == pages[1], f"read_result page 2 through {by_tool} differs from the resource's")
        # A made-up id is answered as any unknown resource is.
        forged = modern(self.nginx, self.next_id(), "resources/read", {"uri": f"mcp-result://{result_id}x/2"})
        expect("error" in forged.answer(), f"a forged result id was read: {forged.body[:200]!r}")
        spread = Counter(readers)
        return (
            f"long_report ({len(whole)} bytes) answered by {creator} with a first page, a link and "
            f"a line ({sent} bytes of content); pages 2-{len(pages)} read as resources through "
            f"{', '.join(f'{n}: {spread[n]}' for n in sorted(spread))}; page 2 through read_result "
            f"on {by_tool}; the pages joined are the report; a forged id is refused"
        )

    # (h)
    def task_answered_elsewhere(self):
        task_id, creator = self.start_task("confirm_delete", {"filename": "deploy.txt"})
        waiting = self.wait_for(task_id, {"input_required"}, 5, {"working"})
        requests = waiting.get("inputRequests") or {}
        expect(len(requests) == 1, f"task {task_id} asks {short(requests)}, not one question")
        key, request = next(iter(requests.items()))
        asked = (request.get("params") or {}).get("message")
        expect(request.get("method") == "elicitation/create", f"task {task_id} asks {short(request)}")
        expect(asked == "Delete deploy.txt?", f"task {task_id} asks {asked!r}")
        self.steer_past(creator, task_id)
        answer = {key: {"action": "accept", "content": {"confirm": True}}}
        ack, updater = self.task_request("tasks/update", task_id, inputResponses=answer)
        expect(updater != creator, f"nginx sent tasks/update to {creator}, which created the task")
        acknowledged = ack.get("resultType") == "complete" and "status" not in ack
        expect(acknowledged, f"tasks/update answered {short(ack)}")
        done = self.wait_for(task_id, {"completed"}, 5, {"working"})
        text = result_text(done)
        expect(text == "deleted deploy.txt", f"task {task_id} completed with {text!r}")
        self.kept[task_id] = done
        return (
            f"confirm_delete created through {creator}, input_required ({key}: {asked!r}); "
            f"tasks/update through {updater}; completed with {text!r}"
        )

    # (i)
    def task_cancelled_elsewhere(self):
        task_id, creator = self.start_task("slow_compute", {"seconds": 60, "label": "i"})

        def under_way(task):
            return task.get("statusMessage") == "1 of 60 s"

        self.wait_for(task_id, {"working"}, 5, set(), until=under_way)
        self.steer_past(creator, task_id)
        ack, canceller = self.task_request("tasks/cancel", task_id)
        expect(canceller != creator, f"nginx sent tasks/cancel to {creator}, which runs the task")
        acknowledged = ack.get("resultType") == "complete" and "status" not in ack
        expect(acknowledged, f"tasks/cancel answered {short(ack)}")
        cancelled, by = self.get_task(task_id)
        expect(cancelled.get("status") == "cancelled", f"after tasks/cancel, {by} reads {short(cancelled)}")
        # The running instance hears of it (Redis's change feed, or its next lease renewal
        # within a third of the lease) and stops: then nothing touches the task in Redis, where
        # a running task is read each second (its status message) and each third of the lease.
        time.sleep(self.lease / 3 + 0.2)
        watched = 2.5
        monitor = RedisMonitor(self.redis_port)
        try:
            touched = [line for line in monitor.lines(watched) if task_id in line]
        finally:
            monitor.close()
        expect(
            not touched,
            f"{len(touched)} commands on the cancelled task in Redis, such as {touched[:1]}: "
            f"{creator} did not stop it",
        )
        later, by = self.get_task(task_id)
        changed = f"the cancelled task changed: {short(cancelled)}, then {short(later)} (read by {by})"
        expect(later == cancelled, changed)
        self.kept[task_id] = later
        return (
            f"slow_compute 60 s running on {creator}; tasks/cancel through {canceller} acknowledged; "
            f"cancelled, and for {watched} s no command on it in Redis (MONITOR): {creator} stopped it; "
            f"still cancelled, unchanged"
        )

    # (m)
    def task_heard_on_another_instance(self):
        live = [name for name in sorted(self.instances) if name not in self.dead]
        expect(len(live) >= 2, f"only {live} alive: no other instance to listen on")
        runner, listener = live[0], live[1]
        runner_port, listener_port = self.instances[runner][0], self.instances[listener][0]
        started = time.monotonic()
        task_id, _ = self.start_task("slow_compute", {"seconds": 2, "label": "m"}, runner_port)
        listen_id = f"listen-m-{self.next_id()}"
        stream, ack = self.listen_for_tasks(listener_port, listen_id, [task_id])
        try:
            agreed = (ack.get("notifications") or {}).get("taskIds")
            expect(agreed == [task_id], f"{listener} acknowledged taskIds {agreed!r}, not [{task_id!r}]")
            # The task's changes on the runner reach the listener through Redis's pub/sub:
            # each status it writes, then its end, the result inlined.
            heard = []
            deadline = started + 10
            while True:
                left = deadline - time.monotonic()
                late = f"no completion of task {task_id} on {listener}'s stream in 10 s; heard {short(heard)}"
                expect(left > 0, late)
                event = stream.next_event(left)
                expect(
                    event is not None,
                    f"{listener}'s stream {'ended' if stream.ended else 'went quiet'} before task {task_id} "
                    f"completed; heard {short(heard)}",
                )
                heard.append(event)
                what = f"event {len(heard)} on {listener}'s stream"
                expect(event.get("method") == "notifications/tasks", f"{what}: {short(event)}")
                params = event.get("params") or {}
                expect(params.get("taskId") == task_id, f"{what} is about another task: {short(event)}")
                tag = (params.get("_meta") or {}).get(SUBSCRIPTION_ID)
                expect(tag == listen_id, f"{what} tagged {tag!r}, not {listen_id!r}: {short(event)}")
                status = params.get("status")
                expect(status in ("working", "completed"), f"{what}: task {status}: {short(event)}")
                if status == "completed":
                    break
            took = time.monotonic() - started
            working = [e["params"] for e in heard if e["params"]["status"] == "working"]
            messages = [p.get("statusMessage") for p in working]
            said = [m for m in messages if isinstance(m, str) and re.fullmatch(r"[01] of 2 s", m)]
            expect(said, f"no working status with a statusMessage before the end: {short(heard)}")
            text = result_text(heard[-1]["params"])
            expect(text == "computed m in 2 s", f"task {task_id} completed with {text!r} on the stream")
        finally:
            stream.close()
        # Task ids that name no task (one of them named for an instance) are left out.
        unknown = [os.urandom(16).hex(), f"{runner}.{os.urandom(16).hex()}"]
        nobody_id = f"listen-m-{self.next_id()}"
        nobody, ack = self.listen_for_tasks(listener_port, nobody_id, unknown)
        nobody.close()
        agreed = (ack.get("notifications") or {}).get("taskIds")
        expect(agreed == [], f"{listener} acknowledged taskIds {agreed!r} for no task, not []")
        said = ", ".join(sorted(set(map(repr, said))))
        return (
            f"slow_compute 2 s created straight on {runner}; a listen for it straight on {listener} "
            f"acknowledged [{task_id}] and heard {len(working)} working ({said}) "
            f"then completed with {text!r}, all tagged {listen_id!r}, {took:.1f} s after the call; "
            f"a listen for 2 unknown task ids acknowledged taskIds []"
        )

    # (j)
    def tasks_survive_a_redis_restart(self):
        expect(self.kept, "no task kept from (g), (h), (i) to read again")
        task_id, creator = self.start_task("slow_compute", {"seconds": 2, "label": "j"})
        # Acknowledged: now kill Redis, and start it again on its append-only file.
        os.kill(self.redis_pid, signal.SIGKILL)
        killed = time.monotonic()
        gone = wait_until(lambda: not listening(self.redis_port), 5)
        expect(gone, "redis-server still listening 5 s after SIGKILL")
        self.redis_process = subprocess.Popen(
            self.redis_command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        self.redis_pid = self.redis_process.pid
        up = wait_until(lambda: listening(self.redis_port) or self.redis_process.poll() is not None, 10)
        expect(up and self.redis_process.poll() is None, "redis-server did not start again (see redis.log)")
        down = time.monotonic() - killed
        # Each instance subscribes again to the channel where the others announce changes
        # (its listen streams and cancellations from elsewhere hear them there).
        live = len(self.instances) - len(self.dead)
        resubscribed = wait_until(lambda: subscribers(self.redis_port, CHANGES_CHANNEL) == live, 5, 0.1)
        count = subscribers(self.redis_port, CHANGES_CHANNEL)
        expect(resubscribed, f"{count} of the {live} instances subscribed again to {CHANGES_CHANNEL} in 5 s")
        # The instances connect again on their own: tasks/get finds the task within a few
        # seconds; until then it may answer an error.
        errors = []
        deadline = time.monotonic() + 5
        while True:
            try:
                found, by = self.get_task(task_id)
                break
            except Failure as failure:
                errors.append(str(failure))
                expect(time.monotonic() < deadline, f"task {task_id} not found again in 5 s: {errors[-1]}")
                time.sleep(0.1)
        alive = found.get("status") in ("working", "completed")
        expect(alive, f"after the restart {by} reads {short(found)}")
        for kept_id, kept in self.kept.items():
            again, by = self.get_task(kept_id)
            changed = f"task {kept_id} changed across the restart: {short(kept)}, then {short(again)}"
            expect(again == kept, changed)
        done = self.wait_for(task_id, {"completed"}, 8, {"working"})
        text = result_text(done)
        expect(text == "computed j in 2 s", f"task {task_id} completed with {text!r}")
        # Every instance goes on: a task made straight on each completes.
        fresh = {}
        for name in sorted(self.instances):
            if name not in self.dead:
                port = self.instances[name][0]
                fresh[name], _ = self.start_task("slow_compute", {"seconds": 1, "label": name}, port)
        for name, fresh_id in fresh.items():
            text = result_text(self.wait_for(fresh_id, {"completed"}, 8, {"working"}))
            expect(text == f"computed {name} in 1 s", f"task {fresh_id} on {name} completed with {text!r}")
        retried = f"after {len(errors)} tasks/get that failed ({errors[0]})" if errors else "at once"
        return (
            f"redis-server killed (SIGKILL) just after {creator} acknowledged slow_compute 2 s, serving "
            f"again {down:.2f} s later from its append-only file; the {live} instances subscribed again to "
            f"{CHANGES_CHANNEL}; the task found {retried} and completed; "
            f"the {len(self.kept)} tasks of (g), (h), (i) read the same; a new task on each of "
            f"{', '.join(fresh)} completed"
        )

    # (l)
    def tasks_routed_by_instance_name(self):
        expect(self.dead, "no instance was killed")
        said = []
        for name in sorted(self.instances):
            task_id = f"{name}.{os.urandom(16).hex()}"
            params = {"taskId": task_id}
            if name in self.dead:
                answer = modern(self.nginx, self.next_id(), "tasks/get", params, capabilities=TASK_CLIENT)
                what = f"tasks/get {task_id} (its instance dead)"
                expect(answer.status == 502, f"{what}: HTTP {answer.status}, not 502")
                message = answer.answer().get("error", {}).get("message", "")
                expect("cannot be reached" in message, f"{what}: {answer.body[:300]!r}")
                said.append(f"{name}'s (dead): 502 {message!r}")
                continue
            for _ in range(3):
                answer = modern(self.nginx, self.next_id(), "tasks/get", params, capabilities=TASK_CLIENT)
                what = f"tasks/get {task_id}"
                expect(answer.status == 200, f"{what}: HTTP {answer.status}: {answer.body[:300]!r}")
                error = answer.answer().get("error") or {}
                expect(error.get("code") == -32602, f"{what} (no such task): {answer.body[:300]!r}")
                by = self.log.answered(answer)
                expect(by == name, f"tasks/get {task_id} went to {by}, not {name}")
            said.append(f"{name}'s: 3 of 3 to {name} (-32602, no such task)")
        return f"tasks/get of task ids named for an instance, through nginx: {'; '.join(said)}"

    # (k)
    def task_of_a_killed_instance_fails(self):
        live = [name for name in sorted(self.instances) if name not in self.dead]
        expect(len(live) >= 2, f"only {live} alive: none to read the task after the kill")
        victim = live[0]
        port, pid = self.instances[victim]
        task_id, _ = self.start_task("slow_compute", {"seconds": 60, "label": "k"}, port)
        seen, by = self.get_task(task_id)
        expect(seen.get("status") == "working", f"task {task_id} on {victim}: {by} reads {short(seen)}")
        os.kill(pid, signal.SIGKILL)
        killed = time.monotonic()
        self.dead.add(victim)
        expect(wait_until(lambda: not listening(port), 5), f"{victim} still listening 5 s after SIGKILL")
        polls = []
        margin = 8
        failed = self.wait_for(task_id, {"failed"}, self.lease + margin, {"working"}, polls)
        took = time.monotonic() - killed
        error = failed.get("error") or {}
        expect(error.get("code") == -32603, f"task {task_id} failed with {short(error)}, not -32603")
        message = failed.get("statusMessage") or ""
        expect("stopped" in message, f"task {task_id}'s status does not say its instance stopped: {message}")
        readers = sorted({by for by, _ in polls})
        expect(victim not in readers, f"the killed {victim} answered tasks/get")
        return (
            f"slow_compute 60 s started straight on {victim}, working; {victim} killed (SIGKILL); "
            f"{len(polls)} tasks/get through nginx (answered by {', '.join(readers)}): failed {took:.1f} s "
            f"later (lease {self.lease:g} s), -32603 {message!r}"
        )

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nginx", type=int, required=True, help="nginx's port on 127.0.0.1")
    parser.add_argument("--access-log", required=True, help="nginx's access log (log_format mcp)")
    parser.add_argument("--instance", action="append", required=True, help="NAME=PORT:PID")
    parser.add_argument("--redis", required=True, help="the redis-server's PORT:PID")
    parser.add_argument("--task-lease", type=float, required=True, help="the instances' task lease (s)")
    parser.add_argument("redis_command", nargs="+", help="how the redis-server was started (after --)")
    deployment = Deployment(parser.parse_args())
    checks = [
        ("(a) modern calls spread round-robin", deployment.modern_calls_spread),
        ("(b) an input_required call's rounds cross instances", deployment.rounds_cross_instances),
        ("(c) legacy sessions stay on their instance", deployment.sessions_stick),
        ("(e) SSE through nginx", deployment.streams_pass_through),
        ("(g) a task is polled through the other instances", deployment.task_polled_elsewhere),
        ("(h) a task's question is answered through another instance", deployment.task_answered_elsewhere),
        ("(i) a task is cancelled through another instance", deployment.task_cancelled_elsewhere),
        ("(m) a listen stream hears a task on another instance", deployment.task_heard_on_another_instance),
        ("(n) a spilled result's pages are read through the other instances", deployment.spilled_pages_read_elsewhere),
        ("(j) tasks survive a redis-server restart", deployment.tasks_survive_a_redis_restart),
        ("(d) modern calls go on after SIGKILL of an instance", deployment.calls_survive_a_killed_instance),
        ("(f) sessions after the kill", deployment.sessions_after_the_kill),
        ("(l) tasks/* routed by an instance-named task id", deployment.tasks_routed_by_instance_name),
        ("(k) a killed instance's task fails after its lease", deployment.task_of_a_killed_instance_fails),
    ]
    failed = 0
    try:
        for label, check in checks:
            try:
                print(f"PASS {label}: {check()}", flush=True)
            except Failure as failure:
                failed += 1
                print(f"FAIL {label}: {failure}", flush=True)
            except Exception as error:  # a crash is a failure of its check, not of the run
                failed += 1
                print(f"FAIL {label}: {type(error).__name__}: {error}", flush=True)
    finally:
        deployment.stop_redis()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
