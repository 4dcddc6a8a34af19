//! A server over a byte stream, one JSON-RPC message a line: a child's standard streams
//! ([`Client::stdio`](super::Client::stdio)), or any reader and writer.
//!
//! One task writes the client's lines; another reads the server's and sorts them: a
//! response goes to the request with its `id`, a progress notification to the request
//! whose token it carries, a notification of a `subscriptions/listen` stream to the
//! request whose id its `_meta` names, a request of the server's own (legacy revisions) to
//! the client's handlers, and any other notification to the client's feed. A log message
//! names no request: it goes to the one call in flight that takes its notifications as
//! they come, when there is exactly one, and to the feed otherwise. Whatever the
//! server sends, memory stays bounded: a line over the limit is skipped as it streams past
//! (and fails the request it answers, when its `id` can be found), a request's queue of
//! notifications and the feed drop what finds them full, and answers to ids the client
//! never sent, or lines that are not JSON, are counted and logged, never kept.

use super::message::Members;
use super::ring::Ring;
use super::{Answers, ClientError, lock};
use crate::protocol::arguments::clip;
use crate::protocol::messages::META_SUBSCRIPTION_ID;
use crate::transport::stdio::{Line, LineScanner, read_line};
use serde_json::Value;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::Child;
use tokio::sync::{broadcast, mpsc, oneshot};

/// The most notifications kept for one request; more are dropped.
pub(super) const REQUEST_BACKLOG: usize = 10_000;

/// The most notifications the client's feed holds for a reader that falls behind.
pub(super) const FEED_BACKLOG: usize = 1024;

/// How many characters of a line that is no message an error quotes.
const JUNK_CHARS: usize = 200;

/// How long a child is given to exit once its input is closed, before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(2);

/// A request waiting for its answer over a shared channel.
pub(super) struct Waiting {
    /// The response with the notifications that came for the request before it, or why
    /// there will be none.
    pub(super) answer: oneshot::Receiver<Result<Delivered, ClientError>>,
}

/// What came for a request: its notifications, then its response.
pub(super) struct Delivered {
    pub(super) notes: Vec<Value>,
    pub(super) response: Value,
}

/// Where a request's notifications go as they arrive: kept until its response (at most
/// [`REQUEST_BACKLOG`]), or handed at once to a reader that takes them as they come.
pub(super) struct Notes {
    kept: Vec<Value>,
    live: Option<Arc<Ring>>,
}

impl Notes {
    pub(super) fn new(live: Option<Arc<Ring>>) -> Notes {
        Notes {
            kept: Vec::new(),
            live,
        }
    }

    pub(super) fn push(&mut self, note: Value) {
        match &self.live {
            Some(ring) => ring.push(note),
            None if self.kept.len() < REQUEST_BACKLOG => self.kept.push(note),
            None => {}
        }
    }

    /// What was kept for the response (nothing, for a live reader).
    pub(super) fn into_kept(self) -> Vec<Value> {
        self.kept
    }
}

/// A request waiting over the pipe.
struct Entry {
    notes: Notes,
    answer: oneshot::Sender<Result<Delivered, ClientError>>,
    /// Whether log messages that name no request may be its: a call whose notifications
    /// are taken as they come.
    takes_logs: bool,
}

/// What the reading task and the client share.
struct Shared {
    pending: Mutex<foldhash::HashMap<i64, Entry>>,
    /// Why the pipe is closed, once it is.
    closed: Mutex<Option<String>>,
    /// Cancelled once the pipe is closed, for those that wait on nothing else.
    gone: tokio_util::sync::CancellationToken,
    feed: broadcast::Sender<Value>,
    answers: Mutex<Answers>,
    /// Lines that were no JSON-RPC message of a server's, and the last of them (cut).
    junk: AtomicU64,
    last_junk: Mutex<Option<String>>,
}

/// The client's end of a line-delimited connection.
pub(crate) struct Pipe {
    shared: Arc<Shared>,
    /// The writer's queue; taken away to close the server's input.
    lines: Mutex<Option<mpsc::UnboundedSender<Vec<u8>>>>,
    child: Mutex<Option<Child>>,
}

impl Pipe {
    /// Starts the tasks that write to `writer` and read from `reader`; `child` is the
    /// process behind them, if any, waited for (and killed if it lingers) when the pipe
    /// closes.
    pub(super) fn start<R, W>(
        reader: R,
        writer: W,
        child: Option<Child>,
        answers: Answers,
        limit: usize,
    ) -> Arc<Pipe>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (lines, queue) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared {
            pending: Mutex::new(foldhash::HashMap::default()),
            closed: Mutex::new(None),
            gone: tokio_util::sync::CancellationToken::new(),
            feed: broadcast::channel(FEED_BACKLOG).0,
            answers: Mutex::new(answers),
            junk: AtomicU64::new(0),
            last_junk: Mutex::new(None),
        });
        tokio::spawn(write(writer, queue, Arc::clone(&shared)));
        tokio::spawn(read(reader, Arc::clone(&shared), lines.downgrade(), limit));
        Arc::new(Pipe {
            shared,
            lines: Mutex::new(Some(lines)),
            child: Mutex::new(child),
        })
    }

    /// Sends request `id` and gives what will come back for it; its notifications go to
    /// `live` as they arrive, if given.
    pub(super) fn open(
        &self,
        id: i64,
        message: &Value,
        live: Option<Arc<Ring>>,
    ) -> Result<Waiting, ClientError> {
        let (answer_in, answer) = oneshot::channel();
        let takes_logs = live.is_some() && message["method"] != "subscriptions/listen";
        {
            let mut pending = lock(&self.shared.pending);
            if let Some(reason) = lock(&self.shared.closed).clone() {
                return Err(ClientError::Closed { reason });
            }
            pending.insert(
                id,
                Entry {
                    notes: Notes::new(live),
                    answer: answer_in,
                    takes_logs,
                },
            );
        }
        self.send(message);
        Ok(Waiting { answer })
    }

    /// Writes one message, unless the pipe is closed.
    pub(super) fn send(&self, message: &Value) {
        let mut line = serde_json::to_vec(message).unwrap_or_default();
        line.push(b'\n');
        if let Some(lines) = lock(&self.lines).as_ref() {
            let _ = lines.send(line);
        }
    }

    /// Forgets request `id`: whatever comes for it later is dropped.
    pub(super) fn forget(&self, id: i64) {
        lock(&self.shared.pending).remove(&id);
    }

    /// The notifications that belong to no request.
    pub(super) fn feed(&self) -> broadcast::Receiver<Value> {
        self.shared.feed.subscribe()
    }

    /// The handlers that answer the server's requests from now on.
    pub(super) fn set_answers(&self, answers: Answers) {
        *lock(&self.shared.answers) = answers;
    }

    /// Completes once the pipe is closed, with why.
    pub(super) async fn closed(&self) -> String {
        self.shared.gone.cancelled().await;
        lock(&self.shared.closed).clone().unwrap_or_default()
    }

    /// What the server wrote that was no message, for an error that needs context.
    pub(super) fn junk(&self) -> Option<(u64, String)> {
        let count = self.shared.junk.load(Ordering::Relaxed);
        let last = lock(&self.shared.last_junk).clone()?;
        Some((count, last))
    }

    /// Closes the server's input and waits for the child to exit, killing it after a
    /// grace; the exit status, if there is a child.
    pub(super) async fn shut(&self) -> Option<std::process::ExitStatus> {
        close(&self.shared, "the client closed the connection".to_owned());
        // The writer ends once its queue's sender is gone, closing the server's input.
        drop(lock(&self.lines).take());
        let child = lock(&self.child).take();
        let mut child = child?;
        match tokio::time::timeout(EXIT_GRACE, child.wait()).await {
            Ok(status) => status.ok(),
            Err(_) => {
                let _ = child.kill().await;
                child.wait().await.ok()
            }
        }
    }
}

impl Drop for Pipe {
    fn drop(&mut self) {
        close(&self.shared, "the client closed the connection".to_owned());
        let Some(mut child) = lock(&self.child).take() else {
            return;
        };
        // The writer task ends with the last sender, closing the child's input: a server
        // exits on that. One that does not is killed after the grace.
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(async move {
                    if tokio::time::timeout(EXIT_GRACE, child.wait()).await.is_err() {
                        let _ = child.kill().await;
                    }
                });
            }
            Err(_) => {
                let _ = child.start_kill();
            }
        }
    }
}

/// Marks the pipe closed for `reason` (the first reason stays) and fails every request
/// still waiting.
fn close(shared: &Shared, reason: String) {
    let pending: Vec<Entry> = {
        let mut pending = lock(&shared.pending);
        let mut closed = lock(&shared.closed);
        closed.get_or_insert(reason);
        pending.drain().map(|(_, entry)| entry).collect()
    };
    shared.gone.cancel();
    let reason = lock(&shared.closed).clone().unwrap_or_default();
    for entry in pending {
        let _ = entry.answer.send(Err(ClientError::Closed {
            reason: reason.clone(),
        }));
    }
}

/// Writes the queued lines, gathering what is ready into one write.
async fn write<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut queue: mpsc::UnboundedReceiver<Vec<u8>>,
    shared: Arc<Shared>,
) {
    let mut batch = Vec::new();
    while let Some(line) = queue.recv().await {
        batch.clear();
        batch.extend_from_slice(&line);
        while let Ok(more) = queue.try_recv() {
            batch.extend_from_slice(&more);
        }
        let written = async {
            writer.write_all(&batch).await?;
            writer.flush().await
        };
        if let Err(e) = written.await {
            close(&shared, format!("writing to the server failed: {e}"));
            return;
        }
    }
    let _ = writer.shutdown().await;
}

/// Reads the server's lines until its output ends, sorting each.
async fn read<R: AsyncRead + Unpin>(
    reader: R,
    shared: Arc<Shared>,
    lines: mpsc::WeakUnboundedSender<Vec<u8>>,
    limit: usize,
) {
    let mut input = BufReader::new(reader);
    let mut scanner = LineScanner::new(limit);
    let mut line = Vec::new();
    let reason = loop {
        match read_line(&mut input, &mut scanner, &mut line).await {
            Ok(Line::Message) => sort(&shared, &lines, &line),
            Ok(Line::TooLong { bytes, id }) => too_long(&shared, bytes, id.as_deref(), limit),
            Ok(Line::End) => break "the server closed its output".to_owned(),
            Err(e) => break format!("reading from the server failed: {e}"),
        }
    };
    close(&shared, reason);
}

/// A line over the limit: the request it answers fails; anything else is logged.
fn too_long(shared: &Shared, bytes: usize, id: Option<&[u8]>, limit: usize) {
    let id = id.and_then(|id| serde_json::from_slice::<i64>(id).ok());
    let entry = id.and_then(|id| lock(&shared.pending).remove(&id));
    match entry {
        Some(entry) => {
            let _ = entry.answer.send(Err(ClientError::TooLarge { bytes, limit }));
        }
        None => tracing::warn!(
            bytes,
            limit,
            "the server sent a message over the size limit; skipped"
        ),
    }
}

/// Routes one message.
fn sort(shared: &Shared, lines: &mpsc::WeakUnboundedSender<Vec<u8>>, line: &[u8]) {
    let message: Value = match serde_json::from_slice(line) {
        Ok(message @ Value::Object(_)) => message,
        _ => return junk(shared, line),
    };
    let members = Members::of(&message);
    let id = members.id;
    if let Some(method) = members.method {
        match id {
            Some(id) => ask(shared, lines, method, id.clone(), &message),
            None => notification(shared, message),
        }
        return;
    }
    if members.result.is_none() && members.error.is_none() {
        return junk(shared, line);
    }
    let entry = id
        .and_then(Value::as_i64)
        .and_then(|id| lock(&shared.pending).remove(&id));
    match entry {
        Some(entry) => {
            let _ = entry.answer.send(Ok(Delivered {
                notes: entry.notes.into_kept(),
                response: message,
            }));
        }
        None => tracing::warn!(
            id = %id.map(|id| id.to_string()).unwrap_or_default(),
            "the server answered a request the client is not waiting for; dropped"
        ),
    }
}

/// A line that is not a JSON-RPC message: counted, the last kept (cut) for errors.
fn junk(shared: &Shared, line: &[u8]) {
    shared.junk.fetch_add(1, Ordering::Relaxed);
    let text = clip(&String::from_utf8_lossy(line), JUNK_CHARS).into_owned();
    tracing::warn!(line = %text, "the server wrote a line that is not a JSON-RPC message");
    *lock(&shared.last_junk) = Some(text);
}

/// A notification: the request's whose progress token it carries, or whose listen stream
/// its `_meta` names, else the feed's.
fn notification(shared: &Shared, message: Value) {
    let params = message.get("params");
    let stream = params
        .and_then(|params| params.get("_meta")?.get(META_SUBSCRIPTION_ID))
        .and_then(Value::as_i64);
    let owner = params
        .and_then(|params| params.get("progressToken"))
        .and_then(Value::as_i64)
        .or(stream);
    if let Some(owner) = owner {
        let mut pending = lock(&shared.pending);
        if let Some(entry) = pending.get_mut(&owner) {
            entry.notes.push(message);
            return;
        }
    } else if message.get("method").and_then(Value::as_str) == Some("notifications/message") {
        let mut pending = lock(&shared.pending);
        let mut takers = pending.values_mut().filter(|entry| entry.takes_logs);
        if let (Some(entry), None) = (takers.next(), takers.next()) {
            entry.notes.push(message);
            return;
        }
    }
    // What a listen stream the client has let go of still sends belongs to nobody.
    if stream.is_none() {
        let _ = shared.feed.send(message);
    }
}

/// A request of the server's own: answered by the client's handlers, in a task of its own
/// so that reading goes on while a handler waits (on a person, say).
fn ask(
    shared: &Shared,
    lines: &mpsc::WeakUnboundedSender<Vec<u8>>,
    method: &str,
    id: Value,
    message: &Value,
) {
    let answers = lock(&shared.answers).clone();
    let Some(lines) = lines.upgrade() else {
        return;
    };
    let method = method.to_owned();
    let params = message.get("params").cloned().unwrap_or(Value::Null);
    tokio::spawn(async move {
        let answer = answers.respond(&method, id, params).await;
        let mut line = serde_json::to_vec(&answer).unwrap_or_default();
        line.push(b'\n');
        let _ = lines.send(line);
    });
}
