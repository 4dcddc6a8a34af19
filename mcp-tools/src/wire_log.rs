//! An optional record of every message a server receives and sends, for debugging clients
//! and for checking a server's traffic against the specification.
//!
//! Set `MCP_TOOLKIT_WIRE_LOG=/path/to/file.jsonl` (or pass `--wire-log PATH` to a server
//! that uses `Server::run`) and each message is appended to that file
//! as one line: `{"conn":3,"dir":"in","msg":{...}}`. `conn` tells connections apart (a
//! stdio process has one; each HTTP session, and each stateless HTTP request, has its own);
//! `dir` is `in` or `out`. Without the variable nothing is recorded and nothing is paid.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::{Mutex, OnceLock, PoisonError};

static LOG: OnceLock<Option<Mutex<File>>> = OnceLock::new();

/// Records to `path` instead of where `MCP_TOOLKIT_WIRE_LOG` says (the `--wire-log` flag);
/// takes effect only before the first message.
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub(crate) fn record_to(path: &std::path::Path) {
    let _ = LOG.set(open(path.as_os_str()));
}

fn log() -> Option<&'static Mutex<File>> {
    LOG.get_or_init(|| open(&std::env::var_os("MCP_TOOLKIT_WIRE_LOG")?))
        .as_ref()
}

fn open(path: &std::ffi::OsStr) -> Option<Mutex<File>> {
    match OpenOptions::new().create(true).append(true).open(path) {
        Ok(file) => Some(Mutex::new(file)),
        Err(error) => {
            tracing::error!(%error, path = %path.to_string_lossy(), "cannot open the wire log; not recording");
            None
        }
    }
}

/// Records a message received on connection `conn`.
pub(crate) fn received(conn: u64, message: &[u8]) {
    record(conn, "in", message);
}

/// Records a message sent on connection `conn`.
pub(crate) fn sent(conn: u64, message: &[u8]) {
    record(conn, "out", message);
}

fn record(conn: u64, dir: &str, message: &[u8]) {
    let Some(log) = log() else { return };
    // A message that is not JSON (a client's garbage) is recorded as a string.
    let msg = match serde_json::from_slice::<&serde_json::value::RawValue>(message) {
        Ok(raw) => raw.get().to_owned(),
        Err(_) => serde_json::to_string(&String::from_utf8_lossy(message)).unwrap_or_default(),
    };
    let line = format!("{{\"conn\":{conn},\"dir\":\"{dir}\",\"msg\":{msg}}}\n");
    // One write per line, so lines from concurrent connections never interleave.
    if let Err(error) = log
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .write_all(line.as_bytes())
    {
        tracing::debug!(%error, "could not write the wire log");
    }
}
