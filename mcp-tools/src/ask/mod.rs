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
//! An ask the client did not declare the capability for is never sent: it fails with
//! [`AskError::MissingCapability`], which a tool can handle (to do without), or let
//! propagate with `?` (the server then answers as the protocol says).

mod elicit;
mod roots;
mod sampling;

pub(crate) use elicit::elicitation_id;
pub use elicit::{Elicit, ElicitUrl, Elicitation, UrlElicitation};
pub use roots::{ListRoots, Root, RootError};
pub use sampling::{ModelPreferences, Sample, SamplingMessage, SamplingRequest, SamplingResponse};

use crate::context::Context;
use crate::error::{AskError, ClientCapability};
use crate::protocol::ProtocolVersion;
use serde_json::Value;

impl Context {
    /// Asks the client `method` once its capability is known to be declared: the answer,
    /// or why there is none.
    pub(crate) async fn ask(
        &self,
        needs: &[ClientCapability],
        method: &'static str,
        params: Value,
        key: Option<&str>,
    ) -> Result<Value, AskError> {
        if let Some(missing) = self.missing_capability(needs) {
            return Err(AskError::MissingCapability(missing));
        }
        Ok(self.request_keyed(method, params, key).await?)
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

/// An answer's `result` as `T`, or why it is not one.
fn answer_as<T: serde::de::DeserializeOwned>(method: &'static str, answer: Value) -> Result<T, AskError> {
    serde_json::from_value(answer).map_err(|error| AskError::InvalidAnswer {
        method,
        reason: error.to_string(),
    })
}
