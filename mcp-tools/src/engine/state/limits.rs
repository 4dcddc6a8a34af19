//! [`Limits`]: how much a server takes on, the same over every transport.

use crate::engine::wire::outbox::Backlog;
use crate::rate::RateLimit;
use std::collections::HashMap;
use std::time::Duration;

/// How much a server takes on: message and result sizes, calls at once and their time,
/// open streams and how far they may fall behind, call rates, list pages. The engine keeps
/// them alike over every transport; give them with [`Server::limits`](crate::Server::limits).
///
/// Start from the defaults and change what you need; each setter takes and gives the value:
///
/// ```
/// use mcp_toolkit::Server;
/// use mcp_toolkit::server::{Limits, RateLimit};
/// use std::time::Duration;
///
/// let limits = Limits::default()
///     .max_message_size(1024 * 1024)
///     .max_concurrent_calls(64)
///     .call_timeout(Duration::from_secs(20))
///     .tool_timeout("run_build", Duration::from_secs(15 * 60))
///     .client_rate_limit(RateLimit::per_second(10).burst(30));
/// let server = Server::new("builds", "1.0.0").limits(limits);
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Limits {
    /// Items per list page; `None` lists all in one page.
    pub(crate) page_size: Option<usize>,
    /// The longest message a transport accepts, in bytes.
    pub(crate) max_message_bytes: usize,
    /// The longest result sent, in bytes of its encoded message.
    pub(crate) max_result_bytes: usize,
    /// How many calls may be in progress at once (calls answered without waiting do not
    /// count).
    pub(crate) max_concurrent_calls: usize,
    /// How many `subscriptions/listen` streams may be open at once.
    pub(crate) max_listen_streams: usize,
    /// The most notifications one stream holds for a client that does not read them yet.
    pub(crate) stream_backlog: Backlog,
    /// How long a stream that fell behind may go without its client taking anything
    /// before the server ends it.
    pub(crate) stream_stall_timeout: Duration,
    /// How long a call may take unless its tool has a time of its own.
    pub(crate) call_timeout: Duration,
    /// Times of their own, by tool name.
    pub(crate) tool_timeouts: HashMap<String, Duration>,
    /// Calls all clients together may make.
    pub(crate) rate_limit: Option<RateLimit>,
    /// Calls each client may make.
    pub(crate) client_rate_limit: Option<RateLimit>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            page_size: None,
            max_message_bytes: 16 * 1024 * 1024,
            max_result_bytes: 16 * 1024 * 1024,
            max_concurrent_calls: 1024,
            max_listen_streams: 10_000,
            stream_backlog: Backlog::DEFAULT,
            stream_stall_timeout: Duration::from_secs(30),
            call_timeout: Duration::from_secs(60),
            tool_timeouts: HashMap::new(),
            rate_limit: None,
            client_rate_limit: None,
        }
    }
}

impl Limits {
    /// How long a call of `tool` may run: its own time, or the call timeout.
    pub(crate) fn timeout_of(&self, tool: &str) -> Duration {
        self.tool_timeouts.get(tool).copied().unwrap_or(self.call_timeout)
    }

    /// Splits `tools/list` (and the other lists) into pages of this many items (default:
    /// one page, since many clients never ask for a next page). A page that is not the last
    /// has a `nextCursor`.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    /// use mcp_toolkit::server::Limits;
    /// use serde_json::json;
    ///
    /// /// Says hello.
    /// #[tool]
    /// fn hello() -> &'static str { "hello" }
    ///
    /// /// Says goodbye.
    /// #[tool]
    /// fn goodbye() -> &'static str { "goodbye" }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let server = Server::new("greeter", "1.0.0")
    ///     .tools(tools![hello, goodbye])
    ///     .limits(Limits::default().page_size(1));
    /// let client = server.test_client()?;
    /// let first = client.request("tools/list", json!(null)).await?;
    /// assert_eq!(first["tools"].as_array().unwrap().len(), 1);
    /// let second = client.request("tools/list", json!({"cursor": first["nextCursor"]})).await?;
    /// assert_eq!(second["tools"][0]["name"], "goodbye");
    /// assert!(second.get("nextCursor").is_none());
    /// # Ok(())
    /// # }
    /// ```
    pub fn page_size(mut self, items_per_page: usize) -> Limits {
        self.page_size = Some(items_per_page.max(1));
        self
    }

    /// The longest message accepted, in bytes (default 16 MiB; at least 1024). A longer one
    /// is refused without being read into memory: on stdio with error `-32600` and the
    /// connection goes on; on HTTP with status 413.
    ///
    /// ```
    /// use mcp_toolkit::Server;
    /// use mcp_toolkit::server::Limits;
    /// use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let server = Server::new("small", "1.0.0").limits(Limits::default().max_message_size(1024));
    /// let (client, served) = tokio::io::duplex(64 * 1024);
    /// let (reader, writer) = tokio::io::split(served);
    /// let serving = tokio::spawn(server.serve_io(reader, writer));
    ///
    /// let (from_server, mut to_server) = tokio::io::split(client);
    /// let padding = "x".repeat(2000);
    /// let line = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"padding":"{padding}"}}}}"#);
    /// to_server.write_all(format!("{line}\n").as_bytes()).await?;
    /// to_server.shutdown().await?; // end of input
    ///
    /// let answer = BufReader::new(from_server).lines().next_line().await?.unwrap();
    /// let answer: serde_json::Value = serde_json::from_str(&answer)?;
    /// assert_eq!(answer["error"]["code"], -32600);
    /// assert_eq!(
    ///     answer["error"]["message"],
    ///     "the message is 2064 bytes long; this server accepts messages of up to 1024 bytes"
    /// );
    /// serving.await??;
    /// # Ok(())
    /// # }
    /// ```
    pub fn max_message_size(mut self, bytes: usize) -> Limits {
        self.max_message_bytes = bytes.max(1024);
        self
    }

    /// The longest result sent, in bytes of its encoded message (default 16 MiB; at least
    /// 1024). A larger result is not sent: the client gets an error result that gives its
    /// size, so a tool that returns too much fails one call rather than the connection.
    pub fn max_result_size(mut self, bytes: usize) -> Limits {
        self.max_result_bytes = bytes.max(1024);
        self
    }

    /// How many calls may be in progress at once (default 1024). A call over the limit is
    /// answered at once with an error result asking the client to try again; calls that
    /// finish without waiting are answered as they arrive and never count.
    pub fn max_concurrent_calls(mut self, calls: usize) -> Limits {
        self.max_concurrent_calls = calls.max(1);
        self
    }

    /// How many 2026-07-28 `subscriptions/listen` streams may be open at once, over every
    /// transport (default 10,000). One more is refused with error `-32000` (HTTP 503 with
    /// `Retry-After`) until another ends; streams already open are not disturbed.
    pub fn max_listen_streams(mut self, streams: usize) -> Limits {
        self.max_listen_streams = streams.max(1);
        self
    }

    /// The most notifications one stream holds for a client that reads it more slowly than
    /// it fills (default 256 messages and 256 KiB): a `subscriptions/listen` stream, a
    /// legacy session's GET stream, the event stream of a call, the output of
    /// [`Server::serve_io`](crate::Server::serve_io). Past it, a stream of subscriptions
    /// notes that it fell behind and, once its client has caught up, tells it that
    /// everything it listens to changed; a call's progress and log notifications are left
    /// out. Responses, and requests of the server's own, always go. One message larger than
    /// `bytes` goes when nothing waits.
    pub fn stream_backlog(mut self, messages: usize, bytes: usize) -> Limits {
        self.stream_backlog = Backlog {
            messages: messages.max(1),
            bytes: bytes.max(1),
        };
        self
    }

    /// How long a stream of subscriptions whose backlog is full may go without its client
    /// taking anything from it (default 30 s). Then the server ends it: over HTTP the
    /// connection is closed; on a byte stream
    /// ([`Server::serve_io`](crate::Server::serve_io)) a `subscriptions/listen` gets its
    /// closing result. A client that reads, however slowly, is never cut off.
    pub fn stream_stall_timeout(mut self, timeout: Duration) -> Limits {
        self.stream_stall_timeout = timeout;
        self
    }

    /// How long a call may run (default 60 s, what the official clients wait for an
    /// answer). A call that runs longer is stopped (its future is dropped) and answered with
    /// an error result saying it timed out. A sync tool's thread cannot be stopped: its
    /// answer is sent on time and its result dropped when it ends.
    pub fn call_timeout(mut self, timeout: Duration) -> Limits {
        self.call_timeout = timeout;
        self
    }

    /// A time limit for one tool, instead of [`Limits::call_timeout`]'s; the tool may also
    /// be added later through the [`ToolRegistry`](crate::registry::ToolRegistry).
    pub fn tool_timeout(mut self, tool: impl Into<String>, timeout: Duration) -> Limits {
        self.tool_timeouts.insert(tool.into(), timeout);
        self
    }

    /// Limits the tool calls all clients together may make, with a token bucket: a call over
    /// the limit gets an `isError` result at once that gives the limit and how long to wait.
    /// Calls of unknown tools and other requests are not counted. No limit by default.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    /// use mcp_toolkit::server::{Limits, RateLimit};
    /// use serde_json::json;
    ///
    /// /// Looks a word up in a paid dictionary API.
    /// #[tool]
    /// fn define(word: String) -> String { format!("{word}: …") }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let server = Server::new("dictionary", "1.0.0")
    ///     .tools(tools![define])
    ///     .limits(Limits::default().rate_limit(RateLimit::per_minute(2)));
    /// let client = server.test_client()?;
    /// assert!(!client.call("define", json!({"word": "a"})).await?.is_error());
    /// assert!(!client.call("define", json!({"word": "b"})).await?.is_error());
    /// let refused = client.call("define", json!({"word": "c"})).await?;
    /// assert!(refused.is_error());
    /// assert!(refused.text().unwrap().starts_with("too many calls: this server takes 2 calls per minute; try again in "));
    /// # Ok(())
    /// # }
    /// ```
    pub fn rate_limit(mut self, limit: RateLimit) -> Limits {
        self.rate_limit = Some(limit);
        self
    }

    /// Limits the tool calls each client may make, with a token bucket of its own, so one
    /// busy client cannot take every call the server allows. No limit by default.
    ///
    /// Over HTTP a client is the subject of its bearer token (see `Server::bearer_auth`),
    /// or else its IP address. Behind a reverse proxy every client has the proxy's address;
    /// authenticate clients to tell them apart. An application serving `Server::into_router`
    /// itself must serve it with `into_make_service_with_connect_info::<SocketAddr>()` for
    /// addresses to be known; without, unauthenticated clients share one bucket. Over stdio
    /// there is one client.
    ///
    /// When both limits are set, a call counts against its client's bucket first, so a
    /// client over its own limit takes nothing from the server's.
    pub fn client_rate_limit(mut self, limit: RateLimit) -> Limits {
        self.client_rate_limit = Some(limit);
        self
    }
}
