//! What the integration tests share: the official schemas of every protocol revision, and
//! a client that drives a server binary over real pipes.
//!
//! `fixture.rs` and `oauth_fixture.rs` beside this file are not modules of it: they are the
//! roots of the fixture binaries (`[[bin]]` in Cargo.toml), which reach `tools.rs` and
//! `oauth_as.rs` as their own modules, so the binaries and the tests serve the same tools.

pub mod callers;
pub mod oauth_as;
pub mod redis;
pub mod tools;

use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex, Once, OnceLock, PoisonError};
use std::time::Duration;

/// How long a test waits for a message before failing.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// The protocol revisions whose official schemas the tests validate against.
pub const REVISIONS: [&str; 5] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];

/// The official JSON Schema of a revision, from `$MCP_SPEC_DIR/<revision>/schema.json`
/// (default `../shared/spec` beside the repository).
///
/// The schemas are not part of the repository. Where they are missing, every message is
/// still compared with its exact expected document, validation against the schema is
/// skipped and one line on stderr says so; with `MCP_SPEC_REQUIRED=1` (set by `.ci/run`) a
/// missing schema fails the test instead.
///
/// Nothing here is behind a lock that a failing test could poison: each revision is loaded
/// once into a `OnceLock`, and validators are compiled outside the lock that caches them.
pub struct Spec {
    /// `None` where the schema file is not there (and not required).
    schema: Option<Value>,
    defs: &'static str,
    validators: Mutex<HashMap<String, &'static jsonschema::Validator>>,
}

impl Spec {
    /// The schema of a revision, loaded once per test binary.
    pub fn of(revision: &str) -> &'static Spec {
        static SPECS: [OnceLock<Spec>; REVISIONS.len()] = [const { OnceLock::new() }; REVISIONS.len()];
        let Some(at) = REVISIONS.iter().position(|r| *r == revision) else {
            panic!("no protocol revision `{revision}`; expected one of {REVISIONS:?}")
        };
        SPECS[at].get_or_init(|| Spec::load(revision))
    }

    fn load(revision: &str) -> Spec {
        let path = spec_dir().join(revision).join("schema.json");
        let schema = match std::fs::read_to_string(&path) {
            Ok(text) => Some(
                serde_json::from_str::<Value>(&text)
                    .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display())),
            ),
            Err(e) if spec_required() => panic!(
                "reading {}: {e} (MCP_SPEC_REQUIRED is set: the official schemas must be there; \
                 point MCP_SPEC_DIR at the folder that holds <revision>/schema.json)",
                path.display()
            ),
            Err(_) => {
                say_skipped(&path);
                None
            }
        };
        let defs = match &schema {
            Some(schema) if schema.get("$defs").is_none() => "definitions",
            _ => "$defs",
        };
        Spec {
            schema,
            defs,
            validators: Mutex::new(HashMap::new()),
        }
    }

    /// Whether the schema was found, so messages are validated against it.
    pub fn available(&self) -> bool {
        self.schema.is_some()
    }

    /// Whether the revision defines a type (false where the schema is not available).
    pub fn defines(&self, name: &str) -> bool {
        self.schema
            .as_ref()
            .is_some_and(|schema| schema[self.defs].get(name).is_some())
    }

    /// Asserts that `value` is a valid `name` (a type of the schema's definitions); does
    /// nothing where the schema is not available.
    pub fn assert_valid(&self, name: &str, value: &Value) {
        let Some(validator) = self.validator(name) else {
            return;
        };
        let errors: Vec<String> = validator
            .iter_errors(value)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "not a valid `{name}`:\n{}\n{value:#}",
            errors.join("\n")
        );
    }

    fn validator(&self, name: &str) -> Option<&'static jsonschema::Validator> {
        let schema = self.schema.as_ref()?;
        let cached = |validators: &Self| {
            validators
                .validators
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get(name)
                .copied()
        };
        if let Some(validator) = cached(self) {
            return Some(validator);
        }
        assert!(self.defines(name), "the schema defines no `{name}`");
        let mut root = schema.clone();
        root["$ref"] = json!(format!("#/{}/{name}", self.defs));
        let compiled: &'static jsonschema::Validator = Box::leak(Box::new(
            jsonschema::validator_for(&root).expect("the official schema compiles"),
        ));
        let mut validators = self.validators.lock().unwrap_or_else(PoisonError::into_inner);
        Some(*validators.entry(name.to_owned()).or_insert(compiled))
    }
}

/// `$MCP_SPEC_DIR`, or `../shared/spec` beside the repository.
fn spec_dir() -> PathBuf {
    match std::env::var_os("MCP_SPEC_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/spec"),
    }
}

/// Whether a missing schema is a failure (`MCP_SPEC_REQUIRED` set to anything but `0`).
fn spec_required() -> bool {
    std::env::var_os("MCP_SPEC_REQUIRED").is_some_and(|v| v != "0" && !v.is_empty())
}

/// Says once per test binary, on the real stderr (not the harness's captured one), that
/// messages are not being validated against the official schemas.
fn say_skipped(path: &std::path::Path) {
    static SAID: Once = Once::new();
    SAID.call_once(|| {
        let _ = writeln!(
            std::io::stderr(),
            "note: {} not found: messages are compared with their expected documents, but not \
             validated against the official MCP schemas. To validate them, set MCP_SPEC_DIR to a \
             folder holding <revision>/schema.json (from the specification repository's \
             schema/ folder); MCP_SPEC_REQUIRED=1 makes a missing schema a failure.",
            path.display()
        );
    });
}

/// A server process, driven over its stdin and stdout.
pub struct Peer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    log: Option<Arc<Mutex<String>>>,
}

impl Peer {
    /// Starts a binary of this package.
    pub fn spawn(binary: &str) -> Peer {
        Peer::start(binary, &[], &[], None)
    }

    /// Starts a binary of this package with command-line arguments.
    pub fn spawn_with(binary: &str, args: &[&str]) -> Peer {
        Peer::start(binary, args, &[], None)
    }

    /// Starts a binary of this package with command-line arguments and environment
    /// variables.
    pub fn spawn_with_env(binary: &str, args: &[&str], env: &[(&str, &str)]) -> Peer {
        Peer::start(binary, args, env, None)
    }

    /// Starts a binary of this package and keeps what it writes to stderr, for `log`.
    pub fn spawn_logged(binary: &str) -> Peer {
        Peer::start(binary, &[], &[], Some("warn"))
    }

    /// Starts a binary of this package with `RUST_LOG=rust_log` and keeps what it writes to
    /// stderr, for `log`.
    pub fn spawn_with_log(binary: &str, rust_log: &str) -> Peer {
        Peer::start(binary, &[], &[], Some(rust_log))
    }

    /// What the server has written to stderr so far (after `spawn_logged`).
    pub fn log(&self) -> String {
        let log = self.log.as_ref().expect("the peer was spawned with spawn_logged");
        log.lock().unwrap().clone()
    }

    /// The log once it satisfies `done`, or as it is after `PATIENCE`: stderr is read on a
    /// thread of its own, so it may lag behind the answers on stdout.
    pub fn log_when(&self, done: impl Fn(&str) -> bool) -> String {
        let deadline = std::time::Instant::now() + PATIENCE;
        loop {
            let log = self.log();
            if done(&log) || std::time::Instant::now() > deadline {
                return log;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Starts `binary`; with `rust_log`, under that `RUST_LOG` and keeping its stderr.
    fn start(binary: &str, args: &[&str], env: &[(&str, &str)], rust_log: Option<&str>) -> Peer {
        let mut command = Command::new(binary);
        command.args(args).envs(env.iter().copied());
        if let Some(rust_log) = rust_log {
            command.env("RUST_LOG", rust_log).stderr(Stdio::piped());
        } else if std::env::var_os("RUST_LOG").is_none() {
            // Quiet unless asked: many tests provoke warnings on purpose.
            command.env("RUST_LOG", "off");
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {binary}: {e}"));
        let log = child.stderr.take().map(keep_lines);
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Peer {
            child,
            stdin,
            lines,
            log,
        }
    }

    /// Sends one line as it is.
    pub fn send_raw(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends bytes as they are (they need not be UTF-8), then a newline.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Takes the server's stdin, for another thread to write to; `give_back_stdin` returns it.
    pub fn take_stdin(&mut self) -> ChildStdin {
        self.stdin.take().expect("stdin is open")
    }

    /// Returns the stdin `take_stdin` took.
    pub fn give_back_stdin(&mut self, stdin: ChildStdin) {
        self.stdin = Some(stdin);
    }

    /// The next line the server writes, as it is.
    pub fn recv_line(&mut self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no message from the server in {PATIENCE:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
        }
    }

    /// Sends a message.
    pub fn send(&mut self, message: Value) {
        self.send_raw(&message.to_string());
    }

    /// The next line the server writes, which must be one JSON message.
    pub fn recv(&mut self) -> Value {
        let line = match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no message from the server in {PATIENCE:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
        };
        assert!(!line.contains('\n'), "one message per line");
        serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("the server wrote something that is not JSON ({e}): {line}"))
    }

    /// Sends a request and returns the next message, which must be its response.
    pub fn request(&mut self, message: Value) -> Value {
        let id = message["id"].clone();
        self.send(message);
        let response = self.recv();
        assert_eq!(
            response["id"], id,
            "expected the response to {id}, got {response}"
        );
        response
    }

    /// Whether the server writes nothing more within `wait`.
    pub fn silent_for(&mut self, wait: Duration) -> Option<Value> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => Some(serde_json::from_str(&line).unwrap()),
            Err(_) => None,
        }
    }

    /// Closes the server's stdin and waits for it to exit, returning what it wrote after.
    pub fn finish(mut self) -> (ExitStatus, Vec<Value>) {
        drop(self.stdin.take());
        let mut rest = Vec::new();
        loop {
            match self.lines.recv_timeout(PATIENCE) {
                Ok(line) => rest.push(serde_json::from_str(&line).unwrap()),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => panic!("the server did not exit after stdin closed"),
            }
        }
        (self.child.wait().unwrap(), rest)
    }

    /// Closes the pipe the server writes to, from our end.
    pub fn child(&mut self) -> &mut Child {
        &mut self.child
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads `stderr` on a thread of its own into the string returned.
fn keep_lines(stderr: std::process::ChildStderr) -> Arc<Mutex<String>> {
    let log = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&log);
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            let mut sink = sink.lock().unwrap();
            sink.push_str(&line);
            sink.push('\n');
        }
    });
    log
}

/// The names of the tools `client` lists.
pub async fn tool_names(client: &mcp_toolkit::client::Client) -> Vec<String> {
    let tools = client.list_tools().await.unwrap();
    tools.iter().map(|tool| tool.name().to_owned()).collect()
}

/// The names in a `search_tools` answer, best first.
pub fn found(result: &mcp_toolkit::client::CallResponse) -> Vec<String> {
    names_of(&result.structured_content().expect("structured tools")["tools"])
}

/// The names of an array of tool definitions (a list's `tools`, a search's), in order.
pub fn names_of(tools: &Value) -> Vec<String> {
    let tools = tools
        .as_array()
        .unwrap_or_else(|| panic!("not an array of tools: {tools}"));
    tools
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

/// `params._meta` of a 2026-07-28 request, with `extra` keys added.
pub fn modern_meta(extra: Value) -> Value {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "tests", "version": "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    if let (Value::Object(meta), Value::Object(extra)) = (&mut meta, extra) {
        meta.extend(extra);
    }
    meta
}

/// `initialize` with a revision, then `notifications/initialized`; returns the result.
pub fn initialize(peer: &mut Peer, revision: &str) -> Value {
    let response = peer.request(json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": { "protocolVersion": revision, "capabilities": {}, "clientInfo": { "name": "tests", "version": "1.0.0" } }
    }));
    peer.send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    response
}

/// A server binary serving Streamable HTTP as a process of its own, on a free port of
/// 127.0.0.1 (`--http`); it is listening once `spawn` returns, and killed when dropped.
pub struct HttpProcess {
    child: Child,
    /// The MCP endpoint, `http://127.0.0.1:PORT/mcp`.
    pub url: String,
    log: Option<Arc<Mutex<String>>>,
}

impl HttpProcess {
    pub fn spawn(binary: &str) -> HttpProcess {
        HttpProcess::start(binary, None)
    }

    /// The same with `RUST_LOG=rust_log`, keeping what it writes to stderr for `log`.
    pub fn spawn_with_log(binary: &str, rust_log: &str) -> HttpProcess {
        HttpProcess::start(binary, Some(rust_log))
    }

    /// What the server has written to stderr so far (after `spawn_with_log`).
    pub fn log(&self) -> String {
        let log = self
            .log
            .as_ref()
            .expect("the server was spawned with spawn_with_log");
        log.lock().unwrap().clone()
    }

    fn start(binary: &str, rust_log: Option<&str>) -> HttpProcess {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let mut command = Command::new(binary);
        command
            .args(["--http", &format!("127.0.0.1:{port}")])
            .stdin(Stdio::null());
        if let Some(rust_log) = rust_log {
            command.env("RUST_LOG", rust_log).stderr(Stdio::piped());
        }
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {binary}: {e}"));
        let log = child.stderr.take().map(keep_lines);
        let process = HttpProcess {
            child,
            url: format!("http://127.0.0.1:{port}/mcp"),
            log,
        };
        let deadline = std::time::Instant::now() + PATIENCE;
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                std::time::Instant::now() < deadline,
                "{binary} is not listening on port {port}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        process
    }
}

impl HttpProcess {
    /// The server process's id, to read what it uses in `/proc`.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for HttpProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A client end of an in-memory connection to a server (`Server::serve_io`), speaking
/// JSON lines.
pub struct Duplex {
    write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    lines: tokio::io::Lines<tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
}

impl Duplex {
    pub fn serve(
        server: mcp_toolkit::Server,
    ) -> (Duplex, tokio::task::JoinHandle<Result<(), mcp_toolkit::Error>>) {
        let (client, server_end) = tokio::io::duplex(64 * 1024);
        let (read, write) = tokio::io::split(server_end);
        let task = tokio::spawn(server.serve_io(read, write));
        let (read, write) = tokio::io::split(client);
        (
            Duplex {
                write,
                lines: tokio::io::AsyncBufReadExt::lines(tokio::io::BufReader::new(read)),
            },
            task,
        )
    }

    pub async fn send(&mut self, message: Value) {
        tokio::io::AsyncWriteExt::write_all(&mut self.write, format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }

    pub async fn recv(&mut self) -> Value {
        let line = tokio::time::timeout(PATIENCE, self.lines.next_line())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        serde_json::from_str(&line).unwrap()
    }

    pub async fn request(&mut self, message: Value) -> Value {
        self.send(message).await;
        self.recv().await
    }
}
