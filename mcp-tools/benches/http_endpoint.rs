//! The Streamable HTTP endpoint as `serve_http` runs it: one keep-alive connection over
//! loopback, the client and the server on one thread, a request written and its whole
//! response read per iteration. A `tools/call` in a 2025-06-18 session and in 2026-07-28,
//! and `ping`; the difference between them and the engine's figures in `hot_paths` is
//! what HTTP costs (hyper, the endpoint's checks, the socket).
//!
//! `cargo bench -p mcp-toolkit --bench http_endpoint`

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_toolkit::{Server, ToolError, tool, tools};
use std::hint::black_box;
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Add two numbers.
#[tool]
async fn add(
    /// The first operand
    a: f64,
    /// The second operand
    b: f64,
) -> Result<f64, ToolError> {
    Ok(a + b)
}

/// One HTTP/1.1 client connection that reads each response to its end.
struct Client {
    stream: TcpStream,
    buffer: Vec<u8>,
}

impl Client {
    async fn connect(addr: SocketAddr) -> Client {
        let stream = TcpStream::connect(addr).await.expect("the server listens");
        stream.set_nodelay(true).expect("TCP_NODELAY");
        Client {
            stream,
            buffer: Vec::with_capacity(4096),
        }
    }

    /// POSTs `body` to `/mcp` with `headers`; returns the response head and body.
    async fn post(&mut self, headers: &str, body: &str) -> (String, String) {
        let request = format!(
            "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\n{headers}content-length: {}\r\n\r\n{body}",
            body.len()
        );
        self.stream.write_all(request.as_bytes()).await.expect("written");
        self.buffer.clear();
        loop {
            let mut chunk = [0u8; 4096];
            let read = self.stream.read(&mut chunk).await.expect("read");
            assert!(read > 0, "the server closed the connection");
            self.buffer.extend_from_slice(&chunk[..read]);
            let text = String::from_utf8_lossy(&self.buffer);
            if let Some(end) = text.find("\r\n\r\n") {
                let head = &text[..end];
                let length = header(head, "content-length")
                    .and_then(|v| v.parse::<usize>().ok())
                    .expect("a JSON answer with its length");
                if self.buffer.len() >= end + 4 + length {
                    return (head.to_owned(), text[end + 4..end + 4 + length].to_owned());
                }
            }
        }
    }
}

/// The value of the header `name` (lowercase) in a response head.
fn header(head: &str, name: &str) -> Option<String> {
    head.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.eq_ignore_ascii_case(name).then(|| value.trim().to_owned())
    })
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let server = runtime
        .block_on(
            Server::new("bench", "1.0.0")
                .tools(tools![add])
                .bind_http("127.0.0.1:0"),
        )
        .expect("bound");
    let addr = server.local_addr();
    runtime.spawn(server.run_until(std::future::pending()));
    let mut client = runtime.block_on(Client::connect(addr));

    // A 2025-06-18 session.
    let (head, _) = runtime.block_on(client.post(
        "",
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#,
    ));
    let session = header(&head, "mcp-session-id").expect("a session id");
    let session_headers = format!("mcp-session-id: {session}\r\nmcp-protocol-version: 2025-06-18\r\n");
    runtime
        .block_on(client.post(
            &session_headers,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.trim(),
        ))
        .0
        .starts_with("HTTP/1.1 202")
        .then_some(())
        .expect("the notification is accepted");

    let legacy_call =
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}"#;
    let modern_headers = "mcp-protocol-version: 2026-07-28\r\nmcp-method: tools/call\r\nmcp-name: add\r\n";
    let modern_call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"add","arguments":{"a":1,"b":2}}}"#;
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    for (headers, body) in [
        (session_headers.as_str(), legacy_call),
        (modern_headers, modern_call),
    ] {
        let (head, answer) = runtime.block_on(client.post(headers, body));
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        assert!(answer.contains(r#""text":"3""#), "{answer}");
    }

    let mut group = c.benchmark_group("http");
    group.bench_function("ping, 2025-06-18 session", |b| {
        b.iter(|| black_box(runtime.block_on(client.post(&session_headers, ping))))
    });
    group.bench_function("tools/call, 2025-06-18 session", |b| {
        b.iter(|| black_box(runtime.block_on(client.post(&session_headers, legacy_call))))
    });
    group.bench_function("tools/call, 2026-07-28", |b| {
        b.iter(|| black_box(runtime.block_on(client.post(modern_headers, modern_call))))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
