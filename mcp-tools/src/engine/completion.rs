//! `completion/complete`: candidates for a prompt's argument as the user types it (an
//! enum-typed argument from its values; one with `#[complete(..)]` from its fn).

use super::connection::Connection;
use super::core::Engine;
use super::era::era_of;
use super::failure::{Failure, Outcome, parse};
use super::outbox::Outbox;
use crate::protocol::jsonrpc::{self, Id};
use crate::protocol::messages::META_SERVER_INFO;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

/// `completion/complete`'s params.
#[derive(Deserialize)]
struct CompleteParams {
    #[serde(rename = "ref")]
    reference: Reference,
    argument: Argument,
    #[serde(default)]
    context: Option<CompletionContext>,
}

/// What is being completed.
#[derive(Deserialize)]
#[serde(tag = "type")]
enum Reference {
    #[serde(rename = "ref/prompt")]
    Prompt { name: String },
    #[serde(rename = "ref/resource")]
    Resource { uri: String },
}

#[derive(Deserialize)]
struct Argument {
    name: String,
    value: String,
}

#[derive(Deserialize, Default)]
struct CompletionContext {
    #[serde(default)]
    arguments: Map<String, Value>,
}

#[derive(Deserialize, Default)]
struct MetaOfComplete<'a> {
    #[serde(rename = "_meta", borrow, default)]
    meta: Option<crate::protocol::messages::RequestMeta<'a>>,
}

impl Engine {
    /// `completion/complete`: at most 100 candidates, with how many matched in all.
    pub(crate) fn complete(
        &self,
        conn: &Connection,
        id: Id<'_>,
        params: Option<&RawValue>,
        out: &Outbox,
    ) -> Outcome {
        let head: MetaOfComplete<'_> =
            parse(params).map_err(|e| Failure::invalid_params(format!("invalid params: {e}")))?;
        let era = era_of(conn, "completion/complete", head.meta.as_ref())?;
        let prompts = super::asking::served(self.prompts.as_ref(), "completion/complete", "prompts")?;
        let request: CompleteParams =
            parse(params).map_err(|e| Failure::invalid_params(format!("invalid params: {e}")))?;
        let name = match request.reference {
            Reference::Prompt { name } => name,
            Reference::Resource { uri } => {
                return Err(Failure::invalid_params(format!(
                    "the variables of resource template `{uri}` have no completions; prompt arguments do"
                )));
            }
        };
        let Some(prompt) = prompts.get(&name) else {
            return Err(Failure::invalid_params(format!("Unknown prompt: {name}")));
        };
        let given = request.context.unwrap_or_default().arguments;
        let Some(completed) = prompt.complete(&request.argument.name, &request.argument.value, &given) else {
            return Err(Failure::invalid_params(format!(
                "the prompt `{name}` has no argument `{}`",
                request.argument.name
            )));
        };
        let mut result = json!({
            "completion": { "values": completed.values, "total": completed.total, "hasMore": completed.has_more }
        });
        if era.is_modern() {
            result["resultType"] = json!("complete");
            let identity: Value = serde_json::from_str(self.identity.get()).unwrap_or(Value::Null);
            result["_meta"] = json!({ META_SERVER_INFO: identity });
        }
        let mut bytes = Vec::with_capacity(128);
        jsonrpc::write_result(&mut bytes, id.raw, &result);
        out.respond(bytes);
        Ok(())
    }
}
