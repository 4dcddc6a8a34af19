//! Tools that ask: a form for the user ([`Context::elicit`]), a URL for the user to visit
//! ([`Context::elicit_url`]), a message from the client's model ([`Context::sample`]), the
//! client's roots ([`Context::list_roots`]).
//!
//! One tool body serves both protocol eras. In the `initialize` era (2024-11-05 to
//! 2025-11-25) an ask is a request of the server's own, sent while the call runs, and the
//! tool waits for the answer. In revision 2026-07-28 the server sends no requests: a call
//! whose tool asks something not yet answered ends its round with an `input_required`
//! result carrying the questions and a sealed `requestState`; the client calls again with
//! the answers, and the tool runs again **from the top**, each ask now returning its answer
//! at once. So code before an ask runs once per round: keep side effects after the asks,
//! or make them idempotent.
//!
//! In revision 2026-07-28 an answer is taken only for the question it was given to: the
//! state seals each question the client is sent (a digest of its method and params), so
//! an answer to "Delete all 1 notes?" is no answer to "Delete all 2 notes?" asked under
//! the same key when the tool runs again; that question is asked anew. Answers that come
//! without a state (a client answering before it is asked, which SEP-2322 allows) are
//! taken by the asks under their keys, as no question is known to have been put to compare
//! them with; only answers the tool took are sealed into the next state, each bound to the
//! question it was taken for.
//!
//! Every answer is checked against its request's result type (`ElicitResult`,
//! `CreateMessageResult`, `ListRootsResult`) before the tool sees it. In revision
//! 2026-07-28 one that does not pass is asked for again; in the `initialize` era, where
//! nothing is asked twice, the tool gets [`AskError::InvalidAnswer`], saying the client
//! answered badly (a message for the model, logged as a warning: the client's fault).
//!
//! An ask the client did not declare the capability for is never sent: it fails with
//! [`AskError::MissingCapability`], which a tool can handle (to do without), or let
//! propagate with `?` (the server then answers as the protocol says).

mod elicit;
mod roots;
mod sampling;

pub use crate::error::{AskError, ClientCapability, ClientRequestError};
pub(crate) use elicit::elicitation_id;
pub use elicit::{Confirm, Elicit, ElicitUrl, Elicitation, Form, UrlElicitation};
pub use roots::{ListRoots, Root, RootError};
pub use sampling::{ModelPreferences, Sample, SamplingMessage, SamplingRequest, SamplingResponse};

use crate::context::{Check, Context};
use crate::protocol::ProtocolVersion;
use crate::protocol::arguments::cut;
use serde::de::DeserializeOwned;
use serde_json::Value;

impl Context {
    /// Asks the client `method` once its capability is known to be declared: the answer,
    /// which passed `check`, or why there is none.
    pub(crate) async fn ask(
        &self,
        needs: &[ClientCapability],
        method: &'static str,
        params: Value,
        key: Option<&str>,
        check: Check,
    ) -> Result<Value, AskError> {
        if let Some(missing) = self.missing_capability(needs) {
            return Err(AskError::MissingCapability(missing));
        }
        let answer = self.request_keyed(method, params, key, check).await?;
        // A round (2026-07-28) takes only an answer that passes; a request's answer (the
        // `initialize` era) comes as the client sent it.
        if let Err(reason) = check(&answer) {
            let error = AskError::InvalidAnswer { method, reason };
            tracing::warn!(%error, "the client answered badly");
            return Err(error);
        }
        Ok(answer)
    }

    /// The first of `needs` the client did not declare (or the call's revision lacks);
    /// `None` when it may be asked, or when there is no client (the request then says so).
    fn missing_capability(&self, needs: &[ClientCapability]) -> Option<ClientCapability> {
        let declared = self.client_capabilities()?;
        let version = self.protocol_version();
        needs.iter().copied().find(|need| {
            let in_revision = version.is_none_or(|version| version >= introduced_in(*need));
            !(in_revision && need.declared_in(declared))
        })
    }
}

/// The revision that brought a capability.
fn introduced_in(capability: ClientCapability) -> ProtocolVersion {
    match capability {
        ClientCapability::Sampling | ClientCapability::Roots => ProtocolVersion::V2024_11_05,
        ClientCapability::ElicitationForm => ProtocolVersion::V2025_06_18,
        ClientCapability::ElicitationUrl | ClientCapability::SamplingTools => ProtocolVersion::V2025_11_25,
    }
}

/// The most characters of a reason an answer is refused for: serde's messages quote the
/// client's values, which may be long.
const REASON_CHARS: usize = 200;

/// An answer's `result` as `T`, or why it is not one (the field to blame first).
fn read<T: DeserializeOwned>(answer: &Value) -> Result<T, String> {
    serde_path_to_error::deserialize(answer).map_err(|error| {
        let path = error.path().to_string();
        let reason = error.inner().to_string();
        let reason = match cut(&reason, REASON_CHARS) {
            Some(head) => format!("{head}..."),
            None => reason,
        };
        if path == "." {
            reason
        } else {
            format!("`{path}`: {reason}")
        }
    })
}

/// An answer's `result` as `T`, once its check has passed.
fn answer_as<T: DeserializeOwned>(method: &'static str, answer: &Value) -> Result<T, AskError> {
    read(answer).map_err(|reason| AskError::InvalidAnswer { method, reason })
}
