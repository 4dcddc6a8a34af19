//! Under load, nothing is lost: 10,000 calls in flight at once over one stdio connection, and
//! 10,000 calls over HTTP with 400 in flight at a time (HTTP/1.1 takes a connection per call
//! in flight, and a test process may hold only so many sockets), are each answered exactly
//! once, with their own result. The soak test (a million calls, memory must stay flat) is
//! ignored by default:
//!
//! ```text
//! cargo test --release --test it -- --ignored --nocapture load::
//! ```

use crate::support;

use support::tools::sleep;

use mcp_toolkit::server::Limits;
use mcp_toolkit::{Server, tools};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::{Peer, initialize};

const FIXTURE: &str = env!("CARGO_BIN_EXE_mcp-toolkit-fixture");
const CALCULATOR: &str = env!("CARGO_BIN_EXE_calculator");
const CALLS: usize = 10_000;

#[test]
fn ten_thousand_calls_in_flight_on_one_stdio_connection_are_each_answered_once() {
    let mut peer = Peer::spawn(FIXTURE);
    initialize(&mut peer, "2025-11-25");
    // Every call waits, so all of them are in flight together; a third answer at once.
    let mut batch = String::new();
    for id in 0..CALLS {
        let call = if id % 3 == 0 {
            json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": "echo", "arguments": { "text": format!("e{id}") } } })
        } else {
            json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": "sleep", "arguments": { "ms": 200 + id % 50 } } })
        };
        batch.push_str(&call.to_string());
        batch.push('\n');
    }
    peer.send_bytes(batch.as_bytes());
    let mut seen: HashMap<u64, Value> = HashMap::new();
    while seen.len() < CALLS {
        let response = peer.recv();
        let id = response["id"].as_u64().expect("a response with its id");
        assert!(seen.insert(id, response).is_none(), "id {id} answered twice");
    }
    for (id, response) in &seen {
        let text = response["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        let expected = if id % 3 == 0 {
            format!("e{id}")
        } else {
            format!("slept {} ms", 200 + id % 50)
        };
        assert_eq!(text, expected, "the answer to {id}");
    }
    assert_eq!(peer.silent_for(Duration::from_millis(300)), None, "nothing more");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_calls_over_http_are_each_answered_once() {
    const IN_FLIGHT: usize = 400;
    let server = Server::new("load", "1.0.0")
        .limits(Limits::default().max_concurrent_calls(CALLS))
        .tools(tools![sleep]);
    let http = server.bind_http("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", http.local_addr());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(http.run_until(async move {
        let _ = stopped.await;
    }));
    let client = reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(IN_FLIGHT)
        .build()
        .unwrap();
    let slots = std::sync::Arc::new(tokio::sync::Semaphore::new(IN_FLIGHT));
    let meta = support::modern_meta(json!({}));
    let calls = (0..CALLS).map(|id| {
        let client = client.clone();
        let url = url.clone();
        let body = json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "_meta": meta, "name": "sleep", "arguments": { "ms": 100 } } });
        let slots = std::sync::Arc::clone(&slots);
        tokio::spawn(async move {
            let _slot = slots.acquire_owned().await.expect("the semaphore is open");
            let response = client
                .post(&url)
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .header("mcp-protocol-version", "2026-07-28")
                .header("mcp-method", "tools/call")
                .header("mcp-name", "sleep")
                .json(&body)
                .send()
                .await
                .expect("the request is answered");
            assert_eq!(response.status(), 200);
            let answer: Value = response.json().await.expect("a JSON answer");
            (id, answer)
        })
    });
    let started = Instant::now();
    let mut seen = vec![false; CALLS];
    for call in calls.collect::<Vec<_>>() {
        let (id, answer) = call.await.expect("the client task");
        assert_eq!(answer["id"], id);
        assert_eq!(answer["result"]["content"][0]["text"], "slept 100 ms", "{answer}");
        assert!(!std::mem::replace(&mut seen[id], true), "id {id} answered twice");
    }
    assert!(seen.iter().all(|s| *s));
    // 10,000 calls of half a second each finish together, not one after another.
    eprintln!(
        "{CALLS} concurrent HTTP calls of 500 ms answered in {:?}",
        started.elapsed()
    );
    let _ = stop.send(());
    serving.await.unwrap().unwrap();
}

/// A million sequential calls over stdio; prints the server's memory as it goes and fails if
/// it keeps growing. By its own command (see the top of this file).
#[test]
#[ignore = "a soak test: minutes long; run with --ignored"]
fn a_million_calls_leave_memory_flat() {
    const TOTAL: usize = 1_000_000;
    const WINDOW: usize = 256;
    let mut child = Command::new(CALCULATOR)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let init = json!({"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"soak","version":"1"}}});
    writeln!(stdin, "{init}").unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .unwrap();

    let started = Instant::now();
    let mut rss = Vec::new();
    let (mut sent, mut answered) = (0, 0);
    while answered < TOTAL {
        while sent < TOTAL && sent - answered < WINDOW {
            writeln!(
                stdin,
                r#"{{"jsonrpc":"2.0","id":{sent},"method":"tools/call","params":{{"name":"calculator","arguments":{{"operation":"add","a":{sent},"b":1}}}}}}"#
            )
            .unwrap();
            sent += 1;
        }
        stdin.flush().unwrap();
        line.clear();
        stdout.read_line(&mut line).unwrap();
        assert!(line.contains("\"result\""), "{line}");
        answered += 1;
        if answered % 100_000 == 0 {
            let kib = resident_kib(pid);
            eprintln!(
                "{answered:>9} calls, {:>6.1} s, RSS {kib} KiB",
                started.elapsed().as_secs_f64()
            );
            rss.push(kib);
        }
    }
    drop(stdin);
    child.wait().unwrap();
    // After warm-up, memory stays within a small band: no growth per call.
    assert!(rss.len() >= 3, "too few memory readings to judge growth: {rss:?}");
    let settled = &rss[1..];
    let (low, high) = (
        settled.iter().min().copied().unwrap_or_default(),
        settled.iter().max().copied().unwrap_or_default(),
    );
    eprintln!(
        "{TOTAL} calls in {:.1} s; RSS from 200k calls on: {low}..{high} KiB",
        started.elapsed().as_secs_f64()
    );
    assert!(high - low <= 512, "RSS grew from {low} to {high} KiB");
}

/// The server's resident memory, from `/proc`; a soak that cannot read it fails, since it
/// could not tell growth from none.
fn resident_kib(pid: u32) -> u64 {
    let path = format!("/proc/{pid}/status");
    let status = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the soak reads memory from {path}, which cannot be read here: {e}"));
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or_else(|| panic!("{path} has no readable `VmRSS:` line:\n{status}"))
}
