//! The JSON-RPC errors the engine answers with, and the reading of params that produces
//! most of them.

use crate::protocol::ErrorCode;
use crate::protocol::arguments::{QUOTED_NAME_CHARS, clip_quoted};
use crate::protocol::messages::{RequestMeta, WithMeta};
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use std::borrow::Cow;

/// A JSON-RPC error to answer with.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) code: ErrorCode,
    pub(crate) message: String,
    pub(crate) data: Option<Value>,
    /// Refused before its method ran: the request's revision or metadata were wrong.
    pub(crate) before_dispatch: bool,
}

impl Failure {
    pub(crate) fn new(code: ErrorCode, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
            data: None,
            before_dispatch: false,
        }
    }

    pub(crate) fn invalid_params(message: impl Into<String>) -> Failure {
        Failure::new(ErrorCode::INVALID_PARAMS, message)
    }

    pub(crate) fn with_data(mut self, data: Value) -> Failure {
        self.data = Some(data);
        self
    }

    /// Marks the failure as a refusal of the request's revision or metadata.
    pub(crate) fn before_dispatch(mut self) -> Failure {
        self.before_dispatch = true;
        self
    }
}

/// What a request handler returns: `Err` is answered as a JSON-RPC error.
pub(crate) type Outcome = Result<(), Failure>;

/// Parses params; absent params read as `{}`, so required fields are reported missing.
pub(crate) fn parse<'a, T: Deserialize<'a>>(params: Option<&'a RawValue>) -> Result<T, String> {
    serde_json::from_str(params.map_or("{}", RawValue::get))
        .map_err(|e| strip_position(&e.to_string()).into_owned())
}

/// Parses a method's params and their `_meta` in one pass over the request.
pub(crate) fn parse_with_meta<'a, T: Deserialize<'a> + WithMeta<'a>>(
    params: Option<&'a RawValue>,
) -> Result<(T, Option<RequestMeta<'a>>), Failure> {
    let text = params.map_or("{}", RawValue::get);
    match serde_json::from_str::<T>(text) {
        Ok(mut parsed) => {
            let meta = parsed.take_meta();
            Ok((parsed, meta))
        }
        Err(error) => Err(invalid_params(&error)),
    }
}

pub(crate) fn invalid_params(error: &serde_json::Error) -> Failure {
    Failure::invalid_params(format!("invalid params: {}", strip_position(&error.to_string())))
}

/// A serde message without its ` at line 1 column 7`, and with each value of the client's
/// it quotes cut (a client that sent megabytes does not get them back).
pub(crate) fn strip_position(message: &str) -> Cow<'_, str> {
    let message = message.rfind(" at line ").map_or(message, |i| &message[..i]);
    clip_quoted(message, QUOTED_NAME_CHARS)
}
