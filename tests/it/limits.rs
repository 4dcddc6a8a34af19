//! The limits a server keeps whatever its tools do: call timeouts (the server's and a tool's
//! own), the number of calls in progress, and the size of a result. Each one fails the call
//! it concerns with an error result that says why, and the server goes on serving.

use crate::support;

use mcp_toolkit::server::Limits;
use mcp_toolkit::{Server, testing::ClientError, testing::TestClient, tool, tools};
use serde_json::json;
use std::time::Duration;

/// Never answers.
#[tool]
async fn hang() -> String {
    std::future::pending::<()>().await;
    unreachable!()
}

/// Sleeps, then answers.
#[tool]
async fn nap(
    /// Milliseconds to sleep
    ms: u64,
) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("slept {ms} ms")
}

/// Blocks its thread, then answers.
#[tool]
fn grind(
    /// Milliseconds to block
    ms: u64,
) -> String {
    std::thread::sleep(Duration::from_millis(ms));
    "done".to_owned()
}

/// Returns this many bytes of text.
#[tool]
async fn blob(
    /// How many bytes
    bytes: usize,
) -> String {
    "x".repeat(bytes)
}

/// Answers at once.
#[tool]
async fn echo(
    /// Any text
    text: String,
) -> String {
    text
}

fn server() -> Server {
    Server::new("limits", "1.0.0").tools(tools![hang, nap, grind, blob, echo])
}

async fn still_serving(client: &TestClient) -> Result<(), ClientError> {
    let echo = client.call("echo", json!({"text": "still here"})).await?;
    assert_eq!(echo.text(), Some("still here"));
    assert!(!echo.is_error());
    Ok(())
}

#[tokio::test]
async fn a_call_that_runs_too_long_is_stopped_with_an_error_result() -> Result<(), ClientError> {
    let client = server()
        .limits(
            Limits::default()
                .call_timeout(Duration::from_millis(150))
                .tool_timeout("nap", Duration::from_secs(5)),
        )
        .test_client()?;

    let hung = client.call("hang", json!({})).await?;
    assert!(hung.is_error());
    assert_eq!(
        hung.text(),
        Some("the tool `hang` did not finish within 150 ms and was stopped")
    );

    // `nap` has a limit of its own, longer than the server's.
    let nap = client.call("nap", json!({"ms": 400})).await?;
    assert_eq!(nap.text(), Some("slept 400 ms"));
    assert!(!nap.is_error());

    still_serving(&client).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sync_tool_that_runs_too_long_is_answered_on_time() -> Result<(), ClientError> {
    let client = server()
        .limits(Limits::default().tool_timeout("grind", Duration::from_millis(100)))
        .test_client()?;
    let ground = client.call("grind", json!({"ms": 600})).await?;
    assert!(ground.is_error());
    assert_eq!(
        ground.text(),
        Some("the tool `grind` did not finish within 100 ms and was stopped")
    );
    still_serving(&client).await
}

#[tokio::test]
async fn calls_over_the_concurrency_limit_are_refused_until_one_ends() -> Result<(), ClientError> {
    let client = server()
        .limits(
            Limits::default()
                .max_concurrent_calls(2)
                .call_timeout(Duration::from_millis(300)),
        )
        .test_client()?;

    // Two calls that wait take both permits; the third is refused at once.
    let (first, second, third) = tokio::join!(
        client.call("hang", json!({})),
        client.call("hang", json!({})),
        client.call("nap", json!({"ms": 1})),
    );
    let third = third?;
    assert!(third.is_error());
    assert_eq!(
        third.text(),
        Some("the server is busy: 2 calls are in progress, its limit; try again shortly")
    );
    for hung in [first?, second?] {
        assert!(
            hung.text()
                .is_some_and(|t| t.contains("did not finish within 300 ms"))
        );
    }

    // Calls answered without waiting never count, and the permits are back.
    still_serving(&client).await?;
    let nap = client.call("nap", json!({"ms": 1})).await?;
    assert_eq!(nap.text(), Some("slept 1 ms"));
    Ok(())
}

#[tokio::test]
async fn a_result_too_large_to_send_becomes_an_error_result() -> Result<(), ClientError> {
    let client = server()
        .limits(Limits::default().max_result_size(4096))
        .test_client()?;

    let fits = client.call("blob", json!({"bytes": 3000})).await?;
    assert!(!fits.is_error());
    assert_eq!(fits.text().map(str::len), Some(3000));

    let refused = client.call("blob", json!({"bytes": 5000})).await?;
    assert!(refused.is_error());
    let text = refused.text().unwrap_or_default();
    assert!(
        text.starts_with("the result is ")
            && text.ends_with(" bytes, more than this server sends (4096 bytes); ask for less"),
        "{text}"
    );
    still_serving(&client).await
}

/// What a client that stops reading costs the server over HTTP: every stream's backlog is
/// bounded, a stream that falls behind hears what it missed once it reads again, and one
/// that reads nothing for the stall time is ended.
mod streams {
    use super::support::{self, HttpProcess, Spec, modern_meta};
    use mcp_toolkit::{Server, registry::ResourceRegistry, resource, resources, tool, tools};
    use serde_json::{Value, json};
    use std::collections::BTreeSet;
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpStream;
    use std::time::Duration;

    const NOTES: &str = env!("CARGO_BIN_EXE_notes");
    const MODERN: &str = "2026-07-28";

    /// One HTTP/1.1 connection spoken by hand, so that what it does not read stays unread.
    struct Wire {
        writer: TcpStream,
        reader: BufReader<TcpStream>,
        host: String,
        /// What an event stream has delivered but not yet been split into events.
        events: String,
    }

    impl Wire {
        fn open(url: &str) -> Wire {
            let host = url
                .trim_start_matches("http://")
                .trim_end_matches("/mcp")
                .to_owned();
            let stream = TcpStream::connect(&host).expect("the server accepts a connection");
            stream.set_read_timeout(Some(support::PATIENCE)).unwrap();
            Wire {
                reader: BufReader::new(stream.try_clone().unwrap()),
                writer: stream,
                host,
                events: String::new(),
            }
        }

        /// Sends a POST to `/mcp` with these headers besides the usual ones.
        fn post(&mut self, headers: &[(&str, &str)], body: &Value) {
            let body = body.to_string();
            let mut head = format!(
                "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
                 Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
                self.host,
                body.len()
            );
            for (name, value) in headers {
                head.push_str(&format!("{name}: {value}\r\n"));
            }
            head.push_str("\r\n");
            self.writer.write_all(head.as_bytes()).unwrap();
            self.writer.write_all(body.as_bytes()).unwrap();
        }

        /// Sends a 2026-07-28 request, with the headers that repeat its body.
        fn post_modern(&mut self, request: &Value) {
            let method = request["method"].as_str().unwrap().to_owned();
            self.post(
                &[("MCP-Protocol-Version", MODERN), ("Mcp-Method", &method)],
                request,
            );
        }

        /// A response's status and headers (names in lowercase).
        fn head(&mut self) -> (u16, Vec<(String, String)>) {
            let mut line = String::new();
            self.reader.read_line(&mut line).unwrap();
            let status = line.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
            let mut headers = Vec::new();
            loop {
                line.clear();
                self.reader.read_line(&mut line).unwrap();
                let Some((name, value)) = line.trim_end().split_once(':') else {
                    break;
                };
                headers.push((name.to_ascii_lowercase(), value.trim().to_owned()));
            }
            (status, headers)
        }

        /// A whole response: its headers and its body (a JSON body, or every event of a
        /// stream that ends).
        fn response(&mut self) -> (Vec<(String, String)>, Value) {
            let (status, headers) = self.head();
            assert_eq!(status, 200, "{headers:?}");
            let header = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
            let length: usize = header("content-length").expect("a JSON answer").parse().unwrap();
            let mut body = vec![0; length];
            self.reader.read_exact(&mut body).unwrap();
            (headers, serde_json::from_slice(&body).unwrap())
        }

        /// The next event of a chunked event stream; `None` when the stream ends, or when
        /// none comes in time (keep-alive comments do not count).
        fn event(&mut self) -> Option<Value> {
            let deadline = std::time::Instant::now() + support::PATIENCE;
            loop {
                if std::time::Instant::now() > deadline {
                    return None;
                }
                if let Some(end) = self.events.find("\n\n") {
                    let event: String = self.events.drain(..end + 2).collect();
                    if let Some(data) = event.lines().find_map(|l| l.strip_prefix("data: ")) {
                        return Some(serde_json::from_str(data).unwrap());
                    }
                    continue; // a keep-alive comment
                }
                let mut size = String::new();
                if self.reader.read_line(&mut size).ok()? == 0 {
                    return None;
                }
                let size = usize::from_str_radix(size.trim(), 16).ok()?;
                if size == 0 {
                    return None;
                }
                let mut chunk = vec![0; size + 2];
                self.reader.read_exact(&mut chunk).ok()?;
                self.events.push_str(std::str::from_utf8(&chunk[..size]).unwrap());
            }
        }

        /// Opens a `subscriptions/listen` stream and reads its acknowledgment, and nothing
        /// more.
        fn listen(url: &str, id: &str, notifications: Value) -> Wire {
            let mut wire = Wire::open(url);
            wire.post_modern(&json!({
                "jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
                "params": { "_meta": modern_meta(json!({})), "notifications": notifications }
            }));
            let (status, _) = wire.head();
            assert_eq!(status, 200);
            let ack = wire.event().expect("an acknowledgment");
            assert_eq!(ack["method"], "notifications/subscriptions/acknowledged", "{ack}");
            wire
        }
    }

    /// The server process's resident memory, in KiB.
    fn rss_kib(pid: u32) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    /// A 2025-03-26 session on the notes server, which may send batches.
    struct Session {
        wire: Wire,
        id: String,
        next: u64,
    }

    impl Session {
        fn open(url: &str) -> Session {
            let mut wire = Wire::open(url);
            wire.post(
                &[],
                &json!({
                    "jsonrpc": "2.0", "id": 0, "method": "initialize",
                    "params": { "protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": { "name": "limits", "version": "1" } }
                }),
            );
            let (headers, _) = wire.response();
            let id = headers
                .into_iter()
                .find(|(name, _)| name == "mcp-session-id")
                .expect("a session id")
                .1;
            wire.post(
                &[("Mcp-Session-Id", &id)],
                &json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
            );
            let (status, _) = wire.head();
            assert_eq!(status, 202);
            Session { wire, id, next: 1 }
        }

        /// Adds notes 1 to 1023 and returns the 1,024 URIs a stream may watch: `notes://all`
        /// and each note's.
        fn notes_to_watch(&mut self) -> Vec<String> {
            self.add_notes(1023);
            std::iter::once("notes://all".to_owned())
                .chain((1..1024).map(|id| format!("notes://{id}")))
                .collect()
        }

        /// Adds 50 batches of 150 notes, each updating every note a stream watches; how many
        /// KiB the server process `pid` grew by meanwhile.
        fn flood(&mut self, pid: u32) -> u64 {
            let before = rss_kib(pid);
            for _ in 0..50 {
                self.add_notes(150);
            }
            rss_kib(pid).saturating_sub(before)
        }

        /// Adds `count` notes in one batch.
        fn add_notes(&mut self, count: u64) {
            let calls: Vec<Value> = (self.next..self.next + count)
                .map(|id| {
                    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
                            "params": { "name": "add_note", "arguments": { "title": "t", "body": "b" } } })
                })
                .collect();
            self.next += count;
            let session = self.id.clone();
            self.wire
                .post(&[("Mcp-Session-Id", &session)], &Value::Array(calls));
            let (_, answers) = self.wire.response();
            assert_eq!(
                answers.as_array().map(Vec::len),
                Some(count as usize),
                "{answers}"
            );
        }
    }

    /// Streams that stop reading, flooded with updates: the server's memory stays bounded
    /// (before the backlog was bounded it grew by 36 MiB in this run, and on without end),
    /// and a stream that reads again hears, after what waited, that everything it listens
    /// to changed, once each. (It may hear so more than once: the kernel lets a socket's
    /// buffer grow while the server waits for room, so a stream can drain, fill and fall
    /// behind again before the client reads.)
    #[test]
    fn listen_streams_that_stop_reading_hold_a_bounded_backlog_and_hear_what_they_missed() {
        let server = HttpProcess::spawn(NOTES);
        let mut session = Session::open(&server.url);
        let watched = session.notes_to_watch();
        let stalled: Vec<Wire> = (0..4)
            .map(|i| {
                Wire::listen(
                    &server.url,
                    &format!("stalled-{i}"),
                    json!({ "resourceSubscriptions": watched }),
                )
            })
            .collect();
        let mut resumed = Wire::listen(
            &server.url,
            "resumed",
            json!({ "toolsListChanged": true, "resourceSubscriptions": watched }),
        );

        // Each batch updates more URIs than the server's buffer of announcements holds, so
        // every stream falls behind it and is told of all 1,024 URIs: about 200 KiB per
        // stream per batch, which the streams' sockets stop taking after a few MiB.
        let grown = session.flood(server.pid());
        assert!(
            grown < 16 * 1024,
            "five streams that stopped reading grew the server by {grown} KiB"
        );

        // Reading again, the stream gets what waited, then that everything it listens to
        // changed: the tool list (which never changed, so only this can say it), then each
        // URI once.
        let spec = Spec::of(MODERN);
        let mut waited = 0;
        let changed = loop {
            let event = resumed.event().expect("the stream stays open");
            if event["method"] == "notifications/tools/list_changed" {
                break event;
            }
            assert_eq!(event["method"], "notifications/resources/updated", "{event}");
            waited += 1;
        };
        assert!(waited > 0);
        spec.assert_valid("ToolListChangedNotification", &changed);
        assert_eq!(
            changed,
            json!({ "jsonrpc": "2.0", "method": "notifications/tools/list_changed",
                    "params": { "_meta": { "io.modelcontextprotocol/subscriptionId": "resumed" } } })
        );
        let mut told = BTreeSet::new();
        for _ in 0..watched.len() {
            let updated = resumed.event().expect("the stream stays open");
            spec.assert_valid("ResourceUpdatedNotification", &updated);
            assert_eq!(
                updated["params"]["_meta"],
                json!({ "io.modelcontextprotocol/subscriptionId": "resumed" })
            );
            told.insert(updated["params"]["uri"].as_str().unwrap().to_owned());
        }
        assert_eq!(told, watched.iter().cloned().collect::<BTreeSet<_>>());
        drop(stalled);
    }

    /// A legacy session's GET stream that stops reading is bounded the same way, and hears
    /// what it missed once it reads again: every list changed, every URI it subscribed to
    /// was updated.
    #[test]
    fn a_legacy_sessions_stream_that_stops_reading_hears_what_it_missed() {
        let server = HttpProcess::spawn(NOTES);
        let mut session = Session::open(&server.url);
        let watched = session.notes_to_watch();
        let subscribes: Vec<Value> = watched
            .iter()
            .enumerate()
            .map(|(i, uri)| json!({ "jsonrpc": "2.0", "id": format!("s{i}"), "method": "resources/subscribe", "params": { "uri": uri } }))
            .collect();
        let id = session.id.clone();
        session
            .wire
            .post(&[("Mcp-Session-Id", &id)], &Value::Array(subscribes));
        let (_, answers) = session.wire.response();
        assert!(
            answers
                .as_array()
                .unwrap()
                .iter()
                .all(|a| a["result"] == json!({})),
            "{answers}"
        );

        let mut stream = Wire::open(&server.url);
        let get = format!(
            "GET /mcp HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\nMcp-Session-Id: {id}\r\n\r\n",
            stream.host
        );
        stream.writer.write_all(get.as_bytes()).unwrap();
        let (status, _) = stream.head();
        assert_eq!(status, 200);

        let grown = session.flood(server.pid());
        assert!(
            grown < 16 * 1024,
            "a stream that stopped reading grew the server by {grown} KiB"
        );

        // What waited, then every list (the tool list never changed, so only this can say
        // so), then each URI once.
        let spec = Spec::of("2025-03-26");
        let tools = loop {
            let event = stream.event().expect("the stream stays open");
            if event["method"] == "notifications/tools/list_changed" {
                break event;
            }
            assert_eq!(event["method"], "notifications/resources/updated", "{event}");
        };
        assert_eq!(
            tools,
            json!({ "jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {} })
        );
        spec.assert_valid("ToolListChangedNotification", &tools);
        let mut lists = BTreeSet::from(["notifications/tools/list_changed".to_owned()]);
        let mut told = BTreeSet::new();
        while told.len() < watched.len() {
            let event = stream.event().expect("the stream stays open");
            let method = event["method"].as_str().unwrap().to_owned();
            if method == "notifications/resources/updated" {
                spec.assert_valid("ResourceUpdatedNotification", &event);
                assert!(
                    told.insert(event["params"]["uri"].as_str().unwrap().to_owned()),
                    "{event}"
                );
            } else {
                assert!(told.is_empty(), "{method} after the URIs");
                lists.insert(method);
            }
        }
        assert_eq!(
            lists,
            BTreeSet::from([
                "notifications/prompts/list_changed".to_owned(),
                "notifications/resources/list_changed".to_owned(),
                "notifications/tools/list_changed".to_owned(),
            ])
        );
        assert_eq!(told, watched.iter().cloned().collect::<BTreeSet<_>>());
    }

    /// A value that changes.
    #[resource(uri = "counter://value", mime_type = "text/plain")]
    fn value() -> String {
        "0".to_owned()
    }

    /// Announces that the value changed, `times` times.
    #[tool]
    async fn bump(
        /// How many times
        times: u64,
        resources: ResourceRegistry,
    ) -> String {
        for _ in 0..times {
            resources.notify_updated("counter://value");
            tokio::task::yield_now().await;
        }
        format!("bumped {times} times")
    }

    /// A stream whose client takes nothing from its full backlog for the stall time is
    /// ended: its connection closes and its place among the streams allowed is free again.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_listen_stream_whose_client_takes_nothing_is_ended_after_the_stall_time() {
        let server = Server::new("streams", "1.0.0")
            .tools(tools![bump])
            .resources(resources![value])
            .limits(
                mcp_toolkit::server::Limits::default()
                    .max_listen_streams(1)
                    .stream_backlog(16, 4096)
                    .stream_stall_timeout(Duration::from_millis(500)),
            );
        let http = server.bind_http("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", http.local_addr());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(http.run_until(async move {
            let _ = stopped.await;
        }));
        let watch = json!({ "resourceSubscriptions": ["counter://value"] });
        let mut stalled = {
            let (url, watch) = (url.clone(), watch.clone());
            tokio::task::spawn_blocking(move || Wire::listen(&url, "stalled", watch))
                .await
                .unwrap()
        };

        // More updates than the socket, hyper and the backlog hold together.
        let client = reqwest::Client::builder().no_proxy().build().unwrap();
        let modern = |method: &str| {
            client
                .post(&url)
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .header("mcp-protocol-version", MODERN)
                .header("mcp-method", method)
        };
        let bumped: Value = modern("tools/call")
            .header("mcp-name", "bump")
            .json(&json!({
                "jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": { "_meta": modern_meta(json!({})), "name": "bump", "arguments": { "times": 60_000 } }
            }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(bumped["result"]["content"][0]["text"], "bumped 60000 times");

        // Only one stream may be open: another is accepted once the stalled one has ended.
        let deadline = tokio::time::Instant::now() + support::PATIENCE;
        loop {
            let listen = modern("subscriptions/listen")
                .json(&json!({
                    "jsonrpc": "2.0", "id": "next", "method": "subscriptions/listen",
                    "params": { "_meta": modern_meta(json!({})), "notifications": watch }
                }))
                .send()
                .await
                .unwrap();
            if listen.status() == reqwest::StatusCode::OK {
                break;
            }
            assert_eq!(listen.status(), reqwest::StatusCode::SERVICE_UNAVAILABLE);
            assert!(
                tokio::time::Instant::now() < deadline,
                "the stalled stream was never ended"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // What the connection held arrives, then it ends, with no closing result: the
        // stream was cut, as HTTP ends a stream the server tears down.
        let ended = tokio::task::spawn_blocking(move || {
            let mut updates = 0;
            while let Some(event) = stalled.event() {
                assert_eq!(event["method"], "notifications/resources/updated", "{event}");
                updates += 1;
            }
            updates
        })
        .await
        .unwrap();
        assert!(ended < 60_000, "{ended} updates: none was left out");
        let _ = stop.send(());
    }
}
