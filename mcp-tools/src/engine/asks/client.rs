//! The way back to the client of one call: its notifications, and requests of the
//! server's own. In the `initialize` era a request goes out on the way of the call that
//! makes it (stdout; the call's HTTP event stream), and the client's response, arriving as
//! a message of its own, is routed back by id. Revision 2026-07-28 has no such requests:
//! there an ask is a question of the call's round (see `rounds`).

use crate::context::{Check, ClientChannel, Notification};
use crate::engine::wire::connection::{ClientAnswer, Connection};
use crate::engine::wire::encode;
use crate::engine::wire::outbox::Outbox;
use crate::engine::wire::rounds::Round;
use crate::error::ClientRequestError;
use crate::protocol::jsonrpc::WireError;
use crate::protocol::{ErrorCode, ProtocolVersion, RequestId};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// The way to the client of one call.
pub(crate) struct CallChannel {
    pub(crate) conn: Arc<Connection>,
    pub(crate) out: Outbox,
    /// Cancelled when the call ends early: nothing more goes out for it, and an answer
    /// after that finds nobody waiting.
    pub(crate) call: CancellationToken,
    /// The round of a call in revision 2026-07-28, which carries no requests of the
    /// server's own: asks are answered from it, or become its questions.
    pub(crate) round: Option<Arc<Round>>,
    /// The call's revision.
    pub(crate) version: ProtocolVersion,
    /// The status message of the task the call may become (a task tool's call from a
    /// client that declares the tasks extension).
    pub(crate) status: Option<Arc<crate::engine::state::task_record::StatusCell>>,
}

impl ClientChannel for CallChannel {
    fn set_status(&self, message: String) {
        if let Some(status) = &self.status {
            status.set(message);
        }
    }

    fn notify(&self, notification: Notification) {
        let answered = self.status.as_ref().is_some_and(|status| status.is_answered());
        if !self.call.is_cancelled() && !answered {
            self.out
                .notify(encode::notification(notification.method, &notification.params));
        }
    }

    fn notify_custom(&self, method: &str, params: Value) {
        let answered = self.status.as_ref().is_some_and(|status| status.is_answered());
        if !self.call.is_cancelled() && !answered {
            self.out.notify(encode::notification(method, &params));
        }
    }

    fn request(
        &self,
        method: &str,
        params: Value,
        key: Option<&str>,
        check: Check,
    ) -> Pin<Box<dyn Future<Output = Result<Value, ClientRequestError>> + Send>> {
        if let Some(round) = &self.round {
            return ask_in_round(round, method, params, key, check);
        }
        if self.version.is_modern() {
            // A call of a tool that takes nothing from its context has no round (and no way
            // to ask); nothing goes on the wire.
            let version = self.version;
            return Box::pin(std::future::ready(Err(ClientRequestError::NotInThisRevision(
                version,
            ))));
        }
        let (id, answered) = match self.conn.ask(self.call.clone(), self.out.clone()) {
            Ok(asked) => asked,
            Err(error) => {
                tracing::error!(%error, "no randomness for the id of a request to the client; it is not sent");
                return Box::pin(std::future::ready(Err(ClientRequestError::Closed)));
            }
        };
        self.out.request(encode::request(&id, method, &params));
        // Whatever ends the wait (an answer, the call's end), the id is forgotten with it,
        // so a late answer finds nobody waiting and is dropped; a request still unanswered
        // is withdrawn.
        let waiting = Waiting {
            conn: Arc::clone(&self.conn),
            out: self.out.clone(),
            id,
        };
        Box::pin(async move {
            let _waiting = waiting;
            answered.await.unwrap_or(Err(ClientRequestError::Closed))
        })
    }
}

/// An ask answered from a round (or a task's answers): at once when it has the answer,
/// else never, and the round (or the task) ends with the questions asked so far.
pub(crate) fn ask_in_round(
    round: &Round,
    method: &str,
    params: Value,
    key: Option<&str>,
    check: Check,
) -> Pin<Box<dyn Future<Output = Result<Value, ClientRequestError>> + Send>> {
    match round.ask(method, params, key, check) {
        Some(answer) => Box::pin(std::future::ready(Ok(answer))),
        None => Box::pin(std::future::pending()),
    }
}

/// A request of the server's own that a call waits on.
struct Waiting {
    conn: Arc<Connection>,
    out: Outbox,
    id: RequestId,
}

impl Drop for Waiting {
    /// The wait is over. If no answer came (the call was cancelled, ran out of time, or its
    /// client went away), the client is told the request is withdrawn, so it can stop asking
    /// its user or its model.
    fn drop(&mut self) {
        if self.conn.forget_ask(&self.id) {
            withdraw(&self.id, &self.out);
        }
    }
}

/// Tells the client that a request of the server's own is withdrawn: the call that made
/// it has ended.
pub(crate) fn withdraw(id: &RequestId, out: &Outbox) {
    out.notify_always(encode::notification(
        "notifications/cancelled",
        &json!({ "requestId": id, "reason": "the call that asked has ended" }),
    ));
}

/// A client's response to a request of the server's: hands it to the call waiting on it,
/// or logs and drops it when none is (unknown id, answered already, call ended).
pub(crate) fn route_response(
    conn: &Connection,
    id: &RawValue,
    result: Option<&RawValue>,
    error: Option<&RawValue>,
) {
    let Ok(id) = serde_json::from_str::<RequestId>(id.get()) else {
        tracing::warn!(
            id = id.get(),
            "dropped a response whose id no request of this server's has"
        );
        return;
    };
    let answer: ClientAnswer = match (result, error) {
        (Some(result), None) => Ok(serde_json::from_str(result.get()).unwrap_or(Value::Null)),
        (None, Some(error)) => match serde_json::from_str::<WireError>(error.get()) {
            Ok(error) => Err(ClientRequestError::Refused {
                code: error.code,
                message: error.message,
                data: error.data,
            }),
            Err(_) => Err(ClientRequestError::Refused {
                code: ErrorCode::INVALID_REQUEST,
                message: format!("the client answered with a malformed error: {}", error.get()),
                data: None,
            }),
        },
        _ => Err(ClientRequestError::Refused {
            code: ErrorCode::INVALID_REQUEST,
            message: "the client's response has both `result` and `error`, or neither".to_owned(),
            data: None,
        }),
    };
    conn.answer(&id, answer);
}
