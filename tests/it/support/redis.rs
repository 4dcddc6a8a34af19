//! A real `redis-server` (Debian's package) for the Redis task store's tests, on a free
//! loopback port, with its append-only file in a folder of its own.
//!
//! Where `redis-server` is not installed the tests that need it are skipped, with one line
//! on stderr, so that `cargo test` passes on a machine with only Rust; with `CI` set (as
//! `.ci/run` runs) a missing `redis-server` is a failure instead.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Once;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// How long a server may take to answer `PING` after it is started.
const START_PATIENCE: Duration = Duration::from_secs(20);

/// A `redis-server` process, killed (and its folder removed) when dropped.
pub struct RedisServer {
    binary: PathBuf,
    port: u16,
    dir: PathBuf,
    child: Option<Child>,
}

impl RedisServer {
    /// Starts a server with `--appendonly yes` and no snapshots, or says the test is
    /// skipped and returns `None` when `redis-server` is not installed (and `CI` is not set).
    pub fn start() -> Option<RedisServer> {
        let binary = match find_binary() {
            Some(binary) => binary,
            None if std::env::var_os("CI").is_some() => panic!(
                "`redis-server` is not on PATH nor at /usr/bin/redis-server, and CI is set: the \
                 Redis task store must be tested there; `.ci/run` must install it (Debian's \
                 `redis-server` package)"
            ),
            None => {
                say_skipped();
                return None;
            }
        };
        static COUNT: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "mcp-toolkit-redis-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("creating {}: {e}", dir.display()));
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free loopback port")
            .port();
        let mut server = RedisServer {
            binary,
            port,
            dir,
            child: None,
        };
        server.spawn();
        Some(server)
    }

    /// `redis://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kills the server with SIGKILL, as a crash would: nothing is flushed on the way out.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again, on the same port and with the same folder (so the same
    /// append-only file), once it was killed.
    pub fn restart(&mut self) {
        assert!(
            self.child.is_none(),
            "restart a redis-server that was killed first"
        );
        self.spawn();
    }

    /// Sends one command (plain words) and returns the first line of the answer, as in
    /// `:42` or `+OK`: enough to read integers and statuses behind the store's back.
    pub fn command(&self, words: &[&str]) -> String {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect to redis-server");
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .expect("a read timeout");
        stream.write_all(&encode(words)).expect("write to redis-server");
        let mut line = String::new();
        BufReader::new(stream)
            .read_line(&mut line)
            .expect("read from redis-server");
        line.trim_end().to_owned()
    }

    fn spawn(&mut self) {
        let port = self.port.to_string();
        let child = Command::new(&self.binary)
            .args([
                "--port",
                &port,
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "yes",
            ])
            .arg("--dir")
            .arg(&self.dir)
            .arg("--logfile")
            .arg(self.log_path())
            .args(["--daemonize", "no"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {}: {e}", self.binary.display()));
        self.child = Some(child);
        self.wait_ready();
    }

    /// Waits until the server answers `PING` with `PONG` (not `LOADING`).
    fn wait_ready(&mut self) {
        let deadline = Instant::now() + START_PATIENCE;
        loop {
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(status)) = child.try_wait()
            {
                panic!(
                    "redis-server exited at start ({status}); its log:\n{}",
                    self.log()
                );
            }
            let answer = TcpStream::connect(("127.0.0.1", self.port))
                .ok()
                .and_then(|mut stream| {
                    stream.set_read_timeout(Some(Duration::from_secs(1))).ok()?;
                    stream.write_all(&encode(&["PING"])).ok()?;
                    let mut line = String::new();
                    BufReader::new(stream).read_line(&mut line).ok()?;
                    Some(line)
                });
            if answer.is_some_and(|line| line.starts_with("+PONG")) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "redis-server did not answer PING within {START_PATIENCE:?}; its log:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn log_path(&self) -> PathBuf {
        self.dir.join("redis.log")
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.log_path()).unwrap_or_default()
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A command as RESP: an array of bulk strings.
fn encode(words: &[&str]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", words.len()).into_bytes();
    for word in words {
        out.extend_from_slice(format!("${}\r\n{word}\r\n", word.len()).as_bytes());
    }
    out
}

/// `redis-server` on PATH, or at /usr/bin/redis-server.
fn find_binary() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH")
        .map(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join("redis-server"))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    on_path
        .into_iter()
        .chain([PathBuf::from("/usr/bin/redis-server")])
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// Says once per test binary, on the real stderr (not the harness's captured one), that the
/// Redis tests are skipped.
fn say_skipped() {
    static SAID: Once = Once::new();
    SAID.call_once(|| {
        let _ = writeln!(
            std::io::stderr(),
            "note: `redis-server` not found (on PATH or at /usr/bin/redis-server): the Redis task \
             store tests are skipped. Install Debian's `redis-server` package to run them; with \
             CI set they fail instead."
        );
    });
}
