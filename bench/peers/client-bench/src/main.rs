//! One MCP client at a time against one server, calling a tool in sequence: mcp-toolkit's
//! `Client`, rmcp 3.11's client, or a bare client that writes a line and parses the answer
//! with serde_json (stdio only: the floor of what a client can cost). Prints one JSON line:
//! calls, seconds, calls per second, and this process's CPU per call (user + system).
//!
//! ```text
//! client-bench --client ours|rmcp|serde (--stdio "COMMAND ARGS" | --http URL) [--calls N]
//! ```

use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// This process's CPU time so far, user and system.
fn cpu() -> Duration {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `getrusage` writes the struct it is given, which is a valid `rusage`.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let time = |t: libc::timeval| Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64);
    time(usage.ru_utime) + time(usage.ru_stime)
}

fn command(line: &str) -> tokio::process::Command {
    let mut words = line.split_whitespace();
    let mut command = tokio::process::Command::new(words.next().expect("a server command"));
    command.args(words);
    command.stderr(std::process::Stdio::null());
    command
}

fn arguments(n: usize) -> Value {
    json!({"operation": "add", "a": n, "b": 2})
}

async fn ours(stdio: Option<&str>, http: Option<&str>, calls: usize) -> (Duration, Duration) {
    let connector = match (stdio, http) {
        (Some(line), _) => mcp_toolkit::client::Client::stdio(command(line)),
        (_, Some(url)) => mcp_toolkit::client::Client::http(url),
        _ => unreachable!(),
    };
    let client = connector.protocol_version("2025-06-18").connect().await.expect("connect");
    let (started, cpu_before) = (Instant::now(), cpu());
    for n in 0..calls {
        let answer = client.call("calculator", arguments(n)).await.expect("call");
        assert!(answer.text().is_some());
    }
    let measured = (started.elapsed(), cpu() - cpu_before);
    client.close().await;
    measured
}

async fn rmcp(stdio: Option<&str>, http: Option<&str>, calls: usize) -> (Duration, Duration) {
    use rmcp::ServiceExt;
    use rmcp::model::CallToolRequestParams;
    let service = match (stdio, http) {
        (Some(line), _) => {
            let transport = rmcp::transport::TokioChildProcess::new(command(line)).expect("spawn");
            ().serve(transport).await.expect("connect")
        }
        (_, Some(url)) => {
            let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(url.to_owned());
            ().serve(transport).await.expect("connect")
        }
        _ => unreachable!(),
    };
    let (started, cpu_before) = (Instant::now(), cpu());
    for n in 0..calls {
        let Value::Object(arguments) = arguments(n) else { unreachable!() };
        let answer = service
            .call_tool(CallToolRequestParams::new("calculator").with_arguments(arguments))
            .await
            .expect("call");
        assert!(!answer.content.is_empty());
    }
    let measured = (started.elapsed(), cpu() - cpu_before);
    let _ = service.cancel().await;
    measured
}

/// The floor: a line out, a line in, parsed into a `Value`; nothing else.
async fn serde(stdio: &str, calls: usize) -> (Duration, Duration) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let mut child = command(stdio)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "serde", "version": "0"}}});
    input.write_all(format!("{initialize}\n").as_bytes()).await.unwrap();
    output.read_line(&mut line).await.unwrap();
    input
        .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .await
        .unwrap();
    let (started, cpu_before) = (Instant::now(), cpu());
    for n in 1..=calls {
        let request = json!({"jsonrpc": "2.0", "id": n, "method": "tools/call",
            "params": {"name": "calculator", "arguments": arguments(n)}});
        let mut bytes = serde_json::to_vec(&request).unwrap();
        bytes.push(b'\n');
        input.write_all(&bytes).await.unwrap();
        line.clear();
        output.read_line(&mut line).await.unwrap();
        let answer: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(answer["id"], n);
    }
    let measured = (started.elapsed(), cpu() - cpu_before);
    drop(input);
    let _ = child.wait().await;
    measured
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut args = std::env::args().skip(1);
    let (mut client, mut stdio, mut http, mut calls) = (String::new(), None, None, 20_000);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--client" => client = args.next().unwrap(),
            "--stdio" => stdio = args.next(),
            "--http" => http = args.next(),
            "--calls" => calls = args.next().unwrap().parse().unwrap(),
            other => panic!("unknown argument {other}"),
        }
    }
    let (elapsed, cpu) = match client.as_str() {
        "ours" => ours(stdio.as_deref(), http.as_deref(), calls).await,
        "rmcp" => rmcp(stdio.as_deref(), http.as_deref(), calls).await,
        "serde" => serde(stdio.as_deref().expect("the serde client is stdio only"), calls).await,
        other => panic!("--client is ours, rmcp or serde, not {other:?}"),
    };
    println!(
        "{}",
        json!({
            "client": client,
            "transport": if stdio.is_some() { "stdio" } else { "http" },
            "calls": calls,
            "seconds": elapsed.as_secs_f64(),
            "calls_per_sec": calls as f64 / elapsed.as_secs_f64(),
            "cpu_us_per_call": cpu.as_secs_f64() * 1e6 / calls as f64,
        })
    );
}
