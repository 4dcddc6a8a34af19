//! What tools and prompts share in revision 2026-07-28 when their handler asks: the round
//! a request brings (its answers, from a `requestState` that must open for that very
//! request), and the `input_required` answer that ends a round with its questions.

use super::core::{Auth, Engine};
use super::encode;
use super::failure::Failure;
use super::outbox::Outbox;
use super::rounds::{self, Binding, InputRequest, Round};
use crate::protocol::messages::CallToolParams;
use crate::tool::RawArguments;
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::sync::Arc;

/// What a round (revision 2026-07-28) of a request whose handler may ask needs to seal its
/// state: the request it belongs to.
pub(crate) struct Sealing<'a> {
    /// The request's method: `tools/call`, `prompts/get`.
    method: &'static str,
    arguments: Arguments<'a>,
    caller: Option<String>,
}

/// A call's arguments as its state is bound to them: put in canonical form only when a
/// state is opened or sealed, which most calls of a tool that may ask never do.
enum Arguments<'a> {
    Canonical(String),
    Received(RawArguments<'a>),
}

impl Sealing<'_> {
    /// The call this round's state belongs to; `arguments` is [`Sealing::canonical`].
    pub(crate) fn binding<'a>(&'a self, tool: &'a str, arguments: &'a str) -> Binding<'a> {
        Binding {
            method: self.method,
            name: tool,
            arguments,
            caller: self.caller.as_deref(),
        }
    }

    /// The arguments in canonical form.
    pub(crate) fn canonical(&self) -> std::borrow::Cow<'_, str> {
        match &self.arguments {
            Arguments::Canonical(text) => text.as_str().into(),
            Arguments::Received(raw) => raw.canonical().into(),
        }
    }

    /// The same, owning what it needs: for a call whose work outlives its message.
    pub(crate) fn into_owned(self) -> Sealing<'static> {
        let arguments = match self.arguments {
            Arguments::Canonical(text) => text,
            Arguments::Received(raw) => raw.canonical(),
        };
        Sealing {
            method: self.method,
            arguments: Arguments::Canonical(arguments),
            caller: self.caller,
        }
    }
}

impl Engine {
    /// The round of a `tools/call` or `prompts/get` in revision 2026-07-28, for a handler that
    /// may ask or a request that brings answers: the answers it knows (from a `requestState` that must open for this
    /// very call, and its `inputResponses`), and what sealing the next state needs.
    pub(crate) fn round_of<'a>(
        &self,
        method: &'static str,
        name: &str,
        may_ask: bool,
        call: &CallToolParams<'a>,
        auth: Auth<'_>,
    ) -> Result<Option<(Arc<Round>, Sealing<'a>)>, Failure> {
        let brings_answers = call.request_state.is_some() || call.input_responses.is_some();
        if !may_ask && !brings_answers {
            return Ok(None);
        }
        let caller = auth.map(|principal| principal.subject.clone());
        if !brings_answers {
            let arguments = Arguments::Received(call.arguments.clone());
            return Ok(Some((
                Arc::new(Round::default()),
                Sealing {
                    method,
                    arguments,
                    caller,
                },
            )));
        }
        let sealing = Sealing {
            method,
            arguments: Arguments::Canonical(call.arguments.canonical()),
            caller,
        };
        let answers = match &self.keys {
            Some(keys) => {
                let arguments = sealing.canonical();
                let binding = sealing.binding(name, &arguments);
                rounds::answers(
                    keys,
                    &binding,
                    call.request_state.as_deref(),
                    call.input_responses,
                )
                .map_err(Failure::invalid_params)?
            }
            None if call.request_state.is_some() => return Err(Failure::invalid_params(rounds::BAD_STATE)),
            None => HashMap::new(),
        };
        Ok(Some((Arc::new(Round::new(answers)), sealing)))
    }

    /// Ends a round with its questions and sealed state; `false` (logged) when the state
    /// could not be sealed, for the caller to answer with an internal error.
    pub(crate) fn respond_input_required(
        &self,
        out: &Outbox,
        id: &RawValue,
        asked: &[InputRequest],
        round: Option<(&Round, &Sealing<'_>)>,
        name: &str,
    ) -> bool {
        let sealed = match (&self.keys, round) {
            (Some(keys), Some((round, sealing))) => rounds::seal(
                keys,
                &sealing.binding(name, &sealing.canonical()),
                self.options.request_state_ttl,
                round.answers(),
                asked,
            ),
            _ => Err("no key to seal requestState with".to_owned()),
        };
        match sealed {
            Ok(state) => {
                out.respond(encode::input_required(id, asked, &state, &self.identity));
                true
            }
            Err(error) => {
                tracing::error!(name, %error, "a round's state could not be sealed");
                false
            }
        }
    }
}
