//! stdio: one JSON-RPC message per line on standard input and output.
//!
//! Standard input and output are read and written as non-blocking pipes when they are
//! pipes (as when a client launches the server), so no message takes a hop through a
//! blocking thread pool. Responses are written by one task, which gathers whatever is
//! ready into one write.

use crate::engine::{Connection, Engine, Outbox};
use crate::server::Error;
use std::io;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// Serves the process's standard input and output.
pub(crate) async fn serve_stdio(engine: Arc<Engine>) -> Result<(), Error> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use tokio::net::unix::pipe;
        let input = io::stdin().as_fd().try_clone_to_owned().map(std::fs::File::from);
        let output = io::stdout().as_fd().try_clone_to_owned().map(std::fs::File::from);
        if let (Ok(input), Ok(output)) = (input, output) {
            let input = pipe::Receiver::from_file(input);
            let output = pipe::Sender::from_file(output);
            match (input, output) {
                (Ok(input), Ok(output)) => return serve_lines(engine, input, output).await,
                (Ok(input), Err(_)) => return serve_lines(engine, input, tokio::io::stdout()).await,
                (Err(_), Ok(output)) => return serve_lines(engine, tokio::io::stdin(), output).await,
                (Err(_), Err(_)) => {}
            }
        }
    }
    serve_lines(engine, tokio::io::stdin(), tokio::io::stdout()).await
}

/// Serves one connection over a reader and a writer, a message per line.
pub(crate) async fn serve_lines<R, W>(engine: Arc<Engine>, reader: R, writer: W) -> Result<(), Error>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let conn = Arc::new(Connection::new());
    let (out, queue) = Outbox::channel();
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
    let mut lines = LineReader::new(reader, engine.options.max_message_bytes);
    let mut line = Vec::new();
    let result = loop {
        let next = tokio::select! {
            biased;
            _ = output_closed.cancelled() => break Ok(()),
            next = lines.next(&mut line) => next,
        };
        match next {
            Ok(Line::Message) => {
                crate::wire_log::received(conn.id(), &line);
                engine.handle(&conn, &line, &out, None);
            }
            Ok(Line::TooLong(bytes)) => {
                let message = format!(
                    "the message is {bytes} bytes long; this server accepts messages of up to {} bytes",
                    engine.options.max_message_bytes
                );
                tracing::warn!(bytes, "refused an oversized message");
                out.respond(crate::engine::encode_error(
                    None,
                    crate::protocol::jsonrpc::INVALID_REQUEST,
                    &message,
                ));
            }
            Ok(Line::End) => break Ok(()),
            Err(error) => break Err(Error::Io(error)),
        }
    };
    // Finish what is in flight, then let the writer drain and stop.
    conn.close().await;
    conn.set_unsolicited(None);
    drop(out);
    finish.cancel();
    match writer.await {
        Ok(()) => result,
        Err(join) => Err(Error::Io(io::Error::other(join))),
    }
}

/// Writes queued messages, one per line, gathering what is ready into one write.
async fn write_lines<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut queue: mpsc::UnboundedReceiver<Vec<u8>>,
    finish: CancellationToken,
    output_closed: CancellationToken,
    conn: u64,
) {
    let logging = crate::wire_log::enabled();
    const GATHER: usize = 256 * 1024;
    let mut buffer = Vec::with_capacity(16 * 1024);
    loop {
        let first = tokio::select! {
            biased;
            message = queue.recv() => message,
            _ = finish.cancelled() => queue.try_recv().ok(),
        };
        let Some(first) = first else { break };
        append_line(&mut buffer, first, logging.then_some(conn));
        while buffer.len() < GATHER {
            match queue.try_recv() {
                Ok(message) => append_line(&mut buffer, message, logging.then_some(conn)),
                Err(_) => break,
            }
        }
        let written = async {
            writer.write_all(&buffer).await?;
            writer.flush().await
        };
        if let Err(error) = written.await {
            // The client stopped reading (closed stdout): stop serving, quietly.
            tracing::debug!(%error, "output closed");
            output_closed.cancel();
            return;
        }
        if buffer.capacity() > 4 * GATHER {
            buffer = Vec::with_capacity(16 * 1024);
        } else {
            buffer.clear();
        }
    }
    let _ = writer.shutdown().await;
}

fn append_line(buffer: &mut Vec<u8>, message: Vec<u8>, log: Option<u64>) {
    if let Some(conn) = log {
        crate::wire_log::sent(conn, &message);
    }
    if buffer.is_empty() && message.capacity() > buffer.capacity() {
        *buffer = message;
    } else {
        buffer.extend_from_slice(&message);
    }
    buffer.push(b'\n');
}

/// What reading a line found.
#[derive(Debug, PartialEq)]
enum Line {
    /// A line, in the buffer given, without its end-of-line.
    Message,
    /// A line longer than the limit, skipped without being kept; its length.
    TooLong(usize),
    /// The input ended.
    End,
}

/// Reads lines of at most `limit` bytes; longer ones are skipped as they stream past, so
/// memory stays bounded whatever a client sends.
struct LineReader<R> {
    inner: BufReader<R>,
    limit: usize,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    fn new(reader: R, limit: usize) -> LineReader<R> {
        LineReader {
            inner: BufReader::with_capacity(64 * 1024, reader),
            limit,
        }
    }

    async fn next(&mut self, line: &mut Vec<u8>) -> io::Result<Line> {
        line.clear();
        let mut skipped: Option<usize> = None;
        loop {
            let available = self.inner.fill_buf().await?;
            if available.is_empty() {
                return Ok(match skipped {
                    Some(bytes) => Line::TooLong(bytes),
                    None if line.iter().all(u8::is_ascii_whitespace) => Line::End,
                    None => Line::Message,
                });
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let take = newline.unwrap_or(available.len());
            match &mut skipped {
                Some(bytes) => *bytes += take,
                None if line.len() + take > self.limit => skipped = Some(line.len() + take),
                None => line.extend_from_slice(&available[..take]),
            }
            if skipped.is_some() {
                line.clear();
            }
            let consumed = take + usize::from(newline.is_some());
            self.inner.consume(consumed);
            if newline.is_some() {
                if let Some(bytes) = skipped {
                    return Ok(Line::TooLong(bytes));
                }
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if line.iter().all(u8::is_ascii_whitespace) {
                    line.clear();
                    continue; // blank lines separate nothing
                }
                return Ok(Line::Message);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn read_all(input: &[u8], limit: usize) -> Vec<(Line, Vec<u8>)> {
        let mut reader = LineReader::new(input, limit);
        let mut out = Vec::new();
        let mut line = Vec::new();
        loop {
            let next = reader.next(&mut line).await.unwrap();
            let end = next == Line::End;
            out.push((next, line.clone()));
            if end {
                return out;
            }
        }
    }

    #[tokio::test]
    async fn splits_lines_and_skips_the_oversized() {
        let input = b"{\"a\":1}\n\n{\"b\":2}\r\n0123456789abcdef\n{\"c\":3}";
        let lines = read_all(input, 10).await;
        assert_eq!(
            lines,
            vec![
                (Line::Message, b"{\"a\":1}".to_vec()),
                (Line::Message, b"{\"b\":2}".to_vec()),
                (Line::TooLong(16), Vec::new()),
                (Line::Message, b"{\"c\":3}".to_vec()),
                (Line::End, Vec::new()),
            ]
        );
    }
}
