//! What a call tells while it runs: its progress and log notifications, handed to a
//! callback as each arrives ([`Client::call_with_updates`]), on every transport.

use super::{CallResponse, Client, ClientError};
use crate::protocol::LoggingLevel;
use serde::Deserialize;
use serde_json::Value;

/// A notification the server sent for a call while it ran, as
/// [`Client::call_with_updates`] hands it over; the example there reads them.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CallUpdate {
    /// `notifications/progress`: how far the call has come.
    #[non_exhaustive]
    Progress {
        /// The progress so far; it only grows.
        progress: f64,
        /// The total it goes to, when the tool knows it.
        total: Option<f64>,
        /// What the tool is doing, when it says.
        message: Option<String>,
    },
    /// `notifications/message`: a line the tool logged, at or above the level asked for
    /// with [`Client::set_log_level`].
    #[non_exhaustive]
    Log {
        /// How severe it is.
        level: LoggingLevel,
        /// Who logged it, when the server says.
        logger: Option<String>,
        /// What was logged: a string or any JSON.
        data: Value,
    },
    /// Any other notification sent for the call (a server's own, or one whose `params`
    /// do not read as the protocol's), whole.
    Other(Value),
}

impl CallUpdate {
    /// Reads a notification.
    fn read(note: &Value) -> CallUpdate {
        let params = &note["params"];
        let read = match note["method"].as_str() {
            Some("notifications/progress") => {
                params["progress"].as_f64().map(|progress| CallUpdate::Progress {
                    progress,
                    total: params["total"].as_f64(),
                    message: params["message"].as_str().map(str::to_owned),
                })
            }
            Some("notifications/message") => {
                LoggingLevel::deserialize(&params["level"])
                    .ok()
                    .map(|level| CallUpdate::Log {
                        level,
                        logger: params["logger"].as_str().map(str::to_owned),
                        data: params["data"].clone(),
                    })
            }
            _ => None,
        };
        read.unwrap_or_else(|| CallUpdate::Other(note.clone()))
    }
}

impl Client {
    /// Calls a tool as [`call_with_progress`](Client::call_with_progress) does, and hands
    /// each progress or log notification the call sends to `on_update` as it arrives,
    /// while the call runs: in process, over stdio, and over HTTP (the events of the
    /// call's SSE stream). The notifications are also in
    /// [`CallResponse::notifications`] once the call ends.
    ///
    /// `on_update` runs on the task that awaits the call, between reads: a slow one delays
    /// reading the rest. Over stdio and HTTP the notifications wait in a ring of 10,000 for
    /// it; when it falls further behind, the oldest are dropped (and logged), so a
    /// flooding server cannot grow the client's memory.
    ///
    /// ```
    /// use mcp_toolkit::client::CallUpdate;
    /// use mcp_toolkit::protocol::LoggingLevel;
    /// use mcp_toolkit::{tool, tools, Context, Server};
    /// use serde_json::json;
    ///
    /// /// Counts to `n`, reporting progress.
    /// #[tool]
    /// async fn count(n: u32, cx: Context) -> String {
    ///     cx.info("counting");
    ///     for i in 1..=n {
    ///         cx.report_progress(f64::from(i), Some(f64::from(n)), None);
    ///     }
    ///     format!("counted to {n}")
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::client::ClientError> {
    /// let client = Server::new("counter", "1.0.0").tools(tools![count]).test_client()?;
    /// client.set_log_level(LoggingLevel::Info).await?;
    ///
    /// let mut seen = Vec::new();
    /// let result = client
    ///     .call_with_updates("count", json!({"n": 2}), |update| match update {
    ///         CallUpdate::Progress { progress, total, .. } => seen.push(format!("{progress}/{}", total.unwrap())),
    ///         CallUpdate::Log { level, data, .. } => seen.push(format!("{level:?}: {data}")),
    ///         _ => {}
    ///     })
    ///     .await?;
    /// assert_eq!(seen, ["Info: \"counting\"", "1/2", "2/2"]);
    /// assert_eq!(result.text(), Some("counted to 2"));
    /// assert_eq!(result.notifications().len(), 3);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn call_with_updates<F>(
        &self,
        name: &str,
        arguments: Value,
        mut on_update: F,
    ) -> Result<CallResponse, ClientError>
    where
        F: FnMut(CallUpdate) + Send,
    {
        let mut watch = |note: &Value| on_update(CallUpdate::read(note));
        self.call_tool(name, arguments, true, Some(&mut watch)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_watched_call_may_run_on_another_task() {
        fn sent<T: Send>(_: T) {}
        let client = crate::Server::new("any", "1.0.0").test_client().unwrap();
        let mut seen = 0;
        sent(client.call_with_updates("any", json!({}), |_| seen += 1));
    }

    #[test]
    fn notifications_read_as_updates_and_odd_ones_stay_whole() {
        let progress = json!({"method": "notifications/progress", "params": {"progressToken": 1, "progress": 2, "message": "half"}});
        assert_eq!(
            CallUpdate::read(&progress),
            CallUpdate::Progress {
                progress: 2.0,
                total: None,
                message: Some("half".into())
            }
        );
        let log = json!({"method": "notifications/message", "params": {"level": "warning", "logger": "db", "data": {"slow": true}}});
        assert_eq!(
            CallUpdate::read(&log),
            CallUpdate::Log {
                level: LoggingLevel::Warning,
                logger: Some("db".into()),
                data: json!({"slow": true})
            }
        );
        for odd in [
            json!({"method": "notifications/progress", "params": {"progress": "lots"}}),
            json!({"method": "notifications/message", "params": {"level": "loud", "data": 1}}),
            json!({"method": "vendor/ping", "params": {}}),
        ] {
            assert_eq!(CallUpdate::read(&odd), CallUpdate::Other(odd.clone()));
        }
    }
}
