//! stdio: one JSON-RPC message per line.
//!
//! [`serve_stdio`] reads standard input on a thread of its own with plain blocking reads
//! and answers on standard output from whichever thread has the answer: a tool that
//! finishes without waiting (most do) is answered on the reading thread itself, so a call
//! crosses no thread and no scheduler. Tools that wait run as tasks on the runtime and
//! write their answers when they finish. The reading thread's answers to lines that
//! were read together leave together, in one write, once those lines are handled.
//!
//! [`serve_lines`] serves any async reader and writer the same way, with a task that
//! drains queued messages into one write.

use crate::engine::{Carrier, Connection, Engine, ErrorInfo, Outbox, Outgoing, Queue, Sink, encode_error};
use crate::protocol::ErrorCode;
use crate::protocol::id_scan::IdScan;
use serde_json::value::RawValue;
use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio_util::sync::CancellationToken;

/// Serves the process's standard input and output.
pub(crate) async fn serve_stdio(engine: Arc<Engine>) -> io::Result<()> {
    let conn = Arc::new(Connection::over(Carrier::Stdio, None));
    let stdout = Arc::new(StdoutSink {
        conn: conn.id(),
        closed: CancellationToken::new(),
        stopping: CancellationToken::new(),
        held: Mutex::new(Vec::new()),
    });
    let out = Outbox::direct(Arc::clone(&stdout) as Arc<dyn Sink>);
    conn.set_unsolicited(Some(out.clone()));
    // Catch SIGTERM and Ctrl-C before the first request can arrive.
    let stop = super::signal::shutdown_signal();
    let (finished, read) = tokio::sync::oneshot::channel();
    let runtime = tokio::runtime::Handle::current();
    {
        let (engine, conn, stdout) = (Arc::clone(&engine), Arc::clone(&conn), Arc::clone(&stdout));
        std::thread::Builder::new()
            .name("mcp-stdio".into())
            .spawn(move || {
                // Tools polled on this thread, and the tasks it spawns, need the runtime.
                let _runtime = runtime.enter();
                let result = read_stdin(&engine, &conn, &out, &stdout);
                stdout.flush();
                let _ = finished.send(result);
            })?;
    }
    let result = tokio::select! {
        result = read => result.unwrap_or(Ok(())),
        // The client stopped reading: nothing more can be answered.
        _ = stdout.closed.cancelled() => Ok(()),
        // Asked to stop: take nothing new, answer what is in flight (below), then return.
        () = stop => {
            tracing::info!("stopping on a signal; finishing the calls in flight");
            stdout.stopping.cancel();
            Ok(())
        }
    };
    // Finish what is in flight (its answers still go out), then the tasks running here
    // (for the shutdown grace), then stop. Standard input's end is how a client stops a
    // stdio server, as a signal is.
    conn.close().await;
    conn.set_unsolicited(None);
    engine
        .finish_tasks(async { super::signal::shutdown_signal().await })
        .await;
    result
}

/// Reads standard input until it ends, handing each line to the engine.
fn read_stdin(
    engine: &Arc<Engine>,
    conn: &Arc<Connection>,
    out: &Outbox,
    stdout: &StdoutSink,
) -> io::Result<()> {
    let stdin = io::stdin();
    let mut input = io::BufReader::with_capacity(64 * 1024, stdin.lock());
    let mut scanner = LineScanner::new(engine.options.limits.max_message_bytes);
    let mut line = Vec::new();
    loop {
        line.clear();
        let found = loop {
            if input.buffer().is_empty() {
                // Every line read so far is handled: their answers go out before the
                // thread waits for more.
                stdout.flush();
            }
            let available = input.fill_buf()?;
            if available.is_empty() {
                break scanner.end(&mut line);
            }
            let (consumed, found) = scanner.scan(available, &mut line);
            input.consume(consumed);
            if let Some(found) = found {
                break found;
            }
        };
        if stdout.closed.is_cancelled() || stdout.stopping.is_cancelled() {
            return Ok(());
        }
        match found {
            Line::Message => {
                crate::wire_log::received(conn.id(), &line);
                // With more input read already, answers wait to go out with the next lines';
                // with none, they go out at once, while the client waits.
                HOLDING.set(!input.buffer().is_empty());
                engine.handle(conn, &line, out, None);
                HOLDING.set(false);
            }
            Line::TooLong { bytes, id } => too_long(engine, bytes, id.as_deref(), out),
            Line::End => return Ok(()),
        }
    }
}

/// Standard output, written one whole message at a time by any thread.
///
/// What the reading thread answers while more input is read already is held until that
/// input is handled (or [`HOLD`] bytes are held), then written at once: a client that sends
/// many requests together gets their answers in a few writes, not one each. An answer with
/// no input behind it goes out at once, while its client waits. Other threads' answers go
/// out at once too, after whatever is held, so the answers of one request keep their order.
struct StdoutSink {
    conn: u64,
    /// Set when writing fails: the client closed its end.
    closed: CancellationToken,
    /// Set on SIGTERM or Ctrl-C: no new requests are taken.
    stopping: CancellationToken,
    /// Messages not yet written, each with its end-of-line; the lock also keeps each write
    /// whole when threads answer at once.
    held: Mutex<Vec<u8>>,
}

/// The most the reading thread holds before writing.
const HOLD: usize = 64 * 1024;

thread_local! {
    /// Set on the reading thread while it handles a line that has more input behind it.
    static HOLDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl StdoutSink {
    /// Writes what is held.
    fn flush(&self) {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        if !held.is_empty() {
            self.write(&mut held, &[]);
        }
    }

    /// Writes `held` and then `message`, and empties `held`.
    fn write(&self, held: &mut Vec<u8>, message: &[u8]) {
        let mut stdout = io::stdout().lock();
        let written = [&held[..], message]
            .into_iter()
            .filter(|part| !part.is_empty())
            .try_for_each(|part| stdout.write_all(part))
            .and_then(|()| stdout.flush());
        held.clear();
        if held.capacity() > 4 * HOLD {
            // A burst of big answers: do not keep its room.
            held.shrink_to(HOLD);
        }
        if let Err(error) = written {
            tracing::debug!(%error, "output closed");
            self.closed.cancel();
        }
    }
}

impl Sink for StdoutSink {
    fn send(&self, mut message: Vec<u8>) {
        if self.closed.is_cancelled() {
            return;
        }
        crate::wire_log::sent(self.conn, &message);
        message.push(b'\n');
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        if HOLDING.get() && held.len() + message.len() <= HOLD {
            if held.is_empty() {
                // The usual case: one answer, kept as it is.
                *held = message;
            } else {
                held.extend_from_slice(&message);
            }
        } else {
            self.write(&mut held, &message);
        }
    }
}

/// Answers a line longer than the server accepts: the request it was, when its `id` was
/// found as the line streamed past, so the client waiting on that id hears why.
fn too_long(engine: &Engine, bytes: usize, id: Option<&[u8]>, out: &Outbox) {
    let message = format!(
        "the message is {bytes} bytes long; this server accepts messages of up to {} bytes",
        engine.options.limits.max_message_bytes
    );
    let id: Option<Box<RawValue>> = id.and_then(|id| serde_json::from_slice(id).ok());
    tracing::warn!(
        bytes,
        id = id.as_ref().map(|id| id.get()),
        "refused an oversized message"
    );
    let error = ErrorInfo {
        code: ErrorCode::INVALID_REQUEST,
        before_dispatch: true,
    };
    out.respond_error(
        encode_error(id.as_deref(), ErrorCode::INVALID_REQUEST, &message, None),
        error,
    );
}

/// Serves one connection over an async reader and writer, a message per line.
pub(crate) async fn serve_lines<R, W>(engine: Arc<Engine>, reader: R, writer: W) -> io::Result<()>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let conn = Arc::new(Connection::new());
    // Responses always go in; notifications past the backlog wait for the writer no more.
    let (out, queue) = Outbox::bounded(engine.options.limits.stream_backlog, None);
    conn.set_unsolicited(Some(out.clone()));
    let finish = CancellationToken::new();
    let output_closed = CancellationToken::new();
    let writer = tokio::spawn(write_lines(
        writer,
        queue,
        finish.clone(),
        output_closed.clone(),
        conn.id(),
    ));
    let mut input = BufReader::with_capacity(64 * 1024, reader);
    let mut scanner = LineScanner::new(engine.options.limits.max_message_bytes);
    let mut line = Vec::new();
    let result = loop {
        let next = tokio::select! {
            biased;
            _ = output_closed.cancelled() => break Ok(()),
            next = read_line(&mut input, &mut scanner, &mut line) => next,
        };
        match next {
            Ok(Line::Message) => {
                crate::wire_log::received(conn.id(), &line);
                engine.handle(&conn, &line, &out, None);
            }
            Ok(Line::TooLong { bytes, id }) => too_long(&engine, bytes, id.as_deref(), &out),
            Ok(Line::End) => break Ok(()),
            Err(error) => break Err(error),
        }
    };
    // Finish what is in flight, then let the writer drain and stop.
    conn.close().await;
    conn.set_unsolicited(None);
    drop(out);
    finish.cancel();
    match writer.await {
        Ok(()) => result,
        Err(join) => Err(io::Error::other(join)),
    }
}

pub(crate) async fn read_line<R: AsyncRead + Unpin>(
    input: &mut BufReader<R>,
    scanner: &mut LineScanner,
    line: &mut Vec<u8>,
) -> io::Result<Line> {
    line.clear();
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            return Ok(scanner.end(line));
        }
        let (consumed, found) = scanner.scan(available, line);
        input.consume(consumed);
        if let Some(found) = found {
            return Ok(found);
        }
    }
}

/// Writes queued messages, one per line, gathering what is ready into one write.
async fn write_lines<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut queue: Queue,
    finish: CancellationToken,
    output_closed: CancellationToken,
    conn: u64,
) {
    const GATHER: usize = 256 * 1024;
    let mut buffer = Vec::with_capacity(16 * 1024);
    loop {
        let first = tokio::select! {
            biased;
            message = queue.recv() => message,
            _ = finish.cancelled() => queue.try_recv().ok(),
        };
        let Some(first) = first else { break };
        append_line(&mut buffer, first, conn);
        while buffer.len() < GATHER {
            match queue.try_recv() {
                Ok(message) => append_line(&mut buffer, message, conn),
                Err(_) => break,
            }
        }
        let written = async {
            writer.write_all(&buffer).await?;
            writer.flush().await
        };
        if let Err(error) = written.await {
            // The client stopped reading: stop serving, quietly.
            tracing::debug!(%error, "output closed");
            output_closed.cancel();
            return;
        }
        buffer.clear();
    }
    let _ = writer.shutdown().await;
}

fn append_line(buffer: &mut Vec<u8>, message: Outgoing, conn: u64) {
    crate::wire_log::sent(conn, &message.bytes);
    buffer.extend_from_slice(&message.bytes);
    buffer.push(b'\n');
}

/// What reading a line found.
#[derive(Debug, PartialEq)]
pub(crate) enum Line {
    /// A line, in the buffer given, without its end-of-line.
    Message,
    /// A line longer than the limit, skipped without being kept: its length, and its
    /// `id`'s JSON text when the line was a request whose id could be found.
    TooLong { bytes: usize, id: Option<Vec<u8>> },
    /// The input ended.
    End,
}

/// Finds lines of at most `limit` bytes in the chunks a reader yields. A longer line is
/// skipped as it streams past, so memory stays bounded whatever a client sends, while its
/// `id` is looked for ([`IdScan`]); blank lines are passed over and a trailing `\r` is
/// dropped.
pub(crate) struct LineScanner {
    limit: usize,
    /// The line being skipped: its length so far, and the look for its id.
    skipped: Option<(usize, IdScan)>,
}

impl LineScanner {
    pub(crate) fn new(limit: usize) -> LineScanner {
        LineScanner { limit, skipped: None }
    }

    /// Takes what it needs from `available` into `line`: how many bytes it consumed, and
    /// what it found if a line ended.
    fn scan(&mut self, available: &[u8], line: &mut Vec<u8>) -> (usize, Option<Line>) {
        let newline = memchr::memchr(b'\n', available);
        let take = newline.unwrap_or(available.len());
        match &mut self.skipped {
            Some((bytes, scan)) => {
                *bytes += take;
                scan.feed(&available[..take]);
            }
            None if line.len() + take > self.limit => {
                let mut scan = IdScan::new();
                scan.feed(line);
                scan.feed(&available[..take]);
                self.skipped = Some((line.len() + take, scan));
                line.clear();
            }
            None => line.extend_from_slice(&available[..take]),
        }
        let Some(_) = newline else {
            return (take, None);
        };
        if let Some(skipped) = self.skipped.take() {
            return (take + 1, Some(skipped_line(skipped)));
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            line.clear();
            return (take + 1, None);
        }
        (take + 1, Some(Line::Message))
    }

    /// The input ended: a last line without its end-of-line still counts.
    fn end(&mut self, line: &mut Vec<u8>) -> Line {
        if let Some(skipped) = self.skipped.take() {
            return skipped_line(skipped);
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            line.clear();
            Line::End
        } else {
            Line::Message
        }
    }
}

/// What a skipped line was.
fn skipped_line((bytes, scan): (usize, IdScan)) -> Line {
    Line::TooLong {
        bytes,
        id: scan.id().map(<[u8]>::to_vec),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every split of the input into chunks must find the same lines.
    fn lines_of(input: &[u8], limit: usize, chunk: usize) -> Vec<(Line, Vec<u8>)> {
        let mut scanner = LineScanner::new(limit);
        let mut found = Vec::new();
        let mut line = Vec::new();
        let mut rest = input;
        loop {
            if rest.is_empty() {
                let end = scanner.end(&mut line);
                let done = end == Line::End;
                found.push((end, std::mem::take(&mut line)));
                if done {
                    return found;
                }
                continue;
            }
            let available = &rest[..chunk.min(rest.len())];
            let (consumed, result) = scanner.scan(available, &mut line);
            rest = &rest[consumed..];
            if let Some(result) = result {
                found.push((result, std::mem::take(&mut line)));
            }
        }
    }

    #[test]
    fn splits_lines_and_skips_the_oversized_whatever_the_chunks() {
        let input = b"{\"a\":1}\n\n{\"b\":2}\r\n0123456789abcdef\n  \n{\"c\":3}";
        let expected = vec![
            (Line::Message, b"{\"a\":1}".to_vec()),
            (Line::Message, b"{\"b\":2}".to_vec()),
            (Line::TooLong { bytes: 16, id: None }, Vec::new()),
            (Line::Message, b"{\"c\":3}".to_vec()),
            (Line::End, Vec::new()),
        ];
        for chunk in [1, 2, 3, 7, 64] {
            assert_eq!(lines_of(input, 10, chunk), expected, "chunks of {chunk}");
        }
    }

    #[test]
    fn an_oversized_line_gives_its_id_wherever_it_stands() {
        let input = br#"{"id":"early","params":{"text":"0123456789"}}
{"params":{"text":"0123456789"},"id":17}
{"method":"x","params":{"text":"0123456789"}}
"#;
        for chunk in [1, 4, 9, 64] {
            let found: Vec<Option<Vec<u8>>> = lines_of(input, 20, chunk)
                .into_iter()
                .filter_map(|(line, _)| match line {
                    Line::TooLong { id, .. } => Some(id),
                    _ => None,
                })
                .collect();
            let expected = vec![Some(br#""early""#.to_vec()), Some(b"17".to_vec()), None];
            assert_eq!(found, expected, "chunks of {chunk}");
        }
    }

    #[test]
    fn an_oversized_last_line_without_newline_is_too_long() {
        assert_eq!(
            lines_of(b"0123456789abc", 5, 4),
            vec![
                (Line::TooLong { bytes: 13, id: None }, Vec::new()),
                (Line::End, Vec::new())
            ]
        );
    }
}
