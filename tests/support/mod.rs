//! What the integration tests share: the official schemas of every protocol revision, and
//! a client that drives a server binary over real pipes.

#![allow(dead_code)] // each test file uses its own part

pub mod tools;

use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// How long a test waits for a message before failing.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// The official JSON Schema of a revision, from `../shared/spec/<revision>/schema.json`.
pub struct Spec {
    schema: Value,
    defs: &'static str,
    validators: Mutex<HashMap<String, &'static jsonschema::Validator>>,
}

impl Spec {
    /// The schema of a revision, loaded once per test binary.
    pub fn of(revision: &str) -> &'static Spec {
        static SPECS: OnceLock<Mutex<HashMap<String, &'static Spec>>> = OnceLock::new();
        let mut specs = SPECS.get_or_init(Default::default).lock().unwrap();
        specs.entry(revision.to_owned()).or_insert_with(|| {
            let path = spec_dir().join(revision).join("schema.json");
            let text =
                std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
            let schema: Value = serde_json::from_str(&text).unwrap();
            let defs = if schema.get("$defs").is_some() {
                "$defs"
            } else {
                "definitions"
            };
            Box::leak(Box::new(Spec {
                schema,
                defs,
                validators: Mutex::new(HashMap::new()),
            }))
        })
    }

    /// Whether the revision defines a type.
    pub fn defines(&self, name: &str) -> bool {
        self.schema[self.defs].get(name).is_some()
    }

    /// Asserts that `value` is a valid `name` (a type of the schema's definitions).
    pub fn assert_valid(&self, name: &str, value: &Value) {
        let validator = *self
            .validators
            .lock()
            .unwrap()
            .entry(name.to_owned())
            .or_insert_with(|| {
                assert!(self.defines(name), "the schema defines no `{name}`");
                let mut root = self.schema.clone();
                root["$ref"] = json!(format!("#/{}/{name}", self.defs));
                Box::leak(Box::new(
                    jsonschema::validator_for(&root).expect("the official schema compiles"),
                ))
            });
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
}

/// `$MCP_SPEC_DIR`, or `../shared/spec` beside the repository.
fn spec_dir() -> PathBuf {
    match std::env::var_os("MCP_SPEC_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/spec"),
    }
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
        Peer::start(binary, false)
    }

    /// Starts a binary of this package and keeps what it writes to stderr, for `log`.
    pub fn spawn_logged(binary: &str) -> Peer {
        Peer::start(binary, true)
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

    fn start(binary: &str, logged: bool) -> Peer {
        let mut command = Command::new(binary);
        if logged {
            command.env("RUST_LOG", "warn").stderr(Stdio::piped());
        } else if std::env::var_os("RUST_LOG").is_none() {
            // Quiet unless asked: many tests provoke warnings on purpose.
            command.env("RUST_LOG", "off");
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {binary}: {e}"));
        let log = child.stderr.take().map(|stderr| {
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
        });
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
}

impl HttpProcess {
    pub fn spawn(binary: &str) -> HttpProcess {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(binary)
            .args(["--http", &format!("127.0.0.1:{port}")])
            .stdin(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {binary}: {e}"));
        let process = HttpProcess {
            child,
            url: format!("http://127.0.0.1:{port}/mcp"),
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

impl Drop for HttpProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
