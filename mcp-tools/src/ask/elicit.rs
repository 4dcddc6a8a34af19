//! `elicitation/create`: a form for the user to fill, or a URL for the user to visit.

use super::{answer_as, read};
use crate::context::Context;
use crate::error::{AskError, ClientCapability};
use crate::form;
use crate::protocol::ProtocolVersion;
use crate::protocol::arguments::{QUOTED_CHARS, cut};
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::fmt;
use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::sync::Arc;

/// What the user did with a form ([`Context::elicit`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Elicitation<T> {
    /// The user filled the form and submitted it: the content, decoded.
    Accept(T),
    /// The user said no.
    Decline,
    /// The user dismissed the form without saying yes or no.
    Cancel,
}

/// What the user did when sent to a URL ([`Context::elicit_url`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlElicitation {
    /// The user agreed to open the URL. What happens there happens out of band: the tool
    /// learns the outcome its own way (its service calls back, say).
    Accept,
    /// The user said no.
    Decline,
    /// The user dismissed the request without saying yes or no.
    Cancel,
}

/// `ElicitResult`.
#[derive(Deserialize)]
struct ElicitResult {
    action: Action,
    #[serde(default)]
    content: Option<Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Action {
    Accept,
    Decline,
    Cancel,
}

/// Whether an answer is an `ElicitResult`: an action, and content (when there is any)
/// whose values are strings, numbers, booleans or lists of strings. `null` values pass
/// too, as some clients send them for fields left empty: the form's check has the last
/// word on those.
fn check(answer: &Value) -> Result<(), String> {
    let result: ElicitResult = read(answer)?;
    let Some(content) = result.content else {
        return Ok(());
    };
    let Value::Object(fields) = content else {
        return Err("`content`: expected an object of the form's fields".to_owned());
    };
    for (name, value) in &fields {
        let fits = match value {
            Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => true,
            Value::Array(items) => items.iter().all(Value::is_string),
            Value::Object(_) => false,
        };
        if !fits {
            let name = cut(name, QUOTED_CHARS).unwrap_or(name);
            return Err(format!(
                "`content.{name}`: expected a string, a number, a boolean or a list of strings"
            ));
        }
    }
    Ok(())
}

/// A type a tool can ask the user to fill in as a form ([`Context::elicit`]): it decodes
/// from the user's answer (`serde::Deserialize`) and describes its fields
/// (`schemars::JsonSchema`). Implemented for every such type: derive the two traits rather
/// than implementing this one. Whether the fields fit a form (a struct of named fields whose
/// values are text, numbers, booleans or enums of text) is checked when the server starts.
///
/// ```
/// use mcp_toolkit::ask::Form;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Shipping {
///     /// Where to send the order
///     address: String,
///     /// Whether to wrap it as a gift
///     gift: bool,
/// }
///
/// fn askable<T: Form>() {}
/// askable::<Shipping>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be asked for as a form",
    label = "not a form a tool can ask for",
    note = "a form's type derives `serde::Deserialize` and `schemars::JsonSchema` and is `Send + 'static`: a struct of named fields whose values are text, numbers, booleans or enums of text"
)]
pub trait Form: DeserializeOwned + JsonSchema + Send + 'static {}

// Not recommended, so that the compiler reports `Form` itself, with its message, rather
// than each of the bounds below and every type that meets them.
#[diagnostic::do_not_recommend]
impl<T: DeserializeOwned + JsonSchema + Send + 'static> Form for T {}

/// An ask for a form, made by [`Context::elicit`]; `.await` it.
#[must_use = "an ask does nothing until it is awaited"]
pub struct Elicit<'a, T> {
    cx: &'a Context,
    message: String,
    key: Option<String>,
    /// The form's schema and the decoding of its answer, taken where `T: Form` is known,
    /// so that a `T` that is no form is reported once, at `elicit`, and not again at
    /// `.await`.
    schema: fn() -> Result<Arc<Value>, form::FormError>,
    decode: fn(Value) -> Result<T, form::ContentError>,
}

impl<T> Elicit<'_, T> {
    /// The key of this ask among the call's input requests in revision 2026-07-28
    /// (`elicit_N` by default, N its place among the call's asks). Keys must differ within
    /// a call.
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl<'a, T: Send + 'static> IntoFuture for Elicit<'a, T> {
    type Output = Result<Elicitation<T>, AskError>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let requested = (self.schema)().map_err(|error| AskError::NotAForm {
                type_name: std::any::type_name::<T>(),
                field: error.field,
                reason: error.reason,
            })?;
            let params = json!({ "message": self.message, "requestedSchema": *requested });
            let needs = [ClientCapability::ElicitationForm];
            let answer = self
                .cx
                .ask(&needs, "elicitation/create", params, self.key.as_deref(), check)
                .await?;
            let answer: ElicitResult = answer_as("elicitation/create", &answer)?;
            match answer.action {
                Action::Decline => Ok(Elicitation::Decline),
                Action::Cancel => Ok(Elicitation::Cancel),
                Action::Accept => {
                    let content = answer.content.unwrap_or_else(|| json!({}));
                    let unfit = |error: form::ContentError| AskError::InvalidContent {
                        field: error.field,
                        reason: error.reason,
                    };
                    form::check_content(&requested, &content).map_err(unfit)?;
                    // Fields the form did not ask for (a client's extras) are not the
                    // type's business: a `deny_unknown_fields` type still decodes.
                    let mut content = content;
                    if let (Value::Object(values), Some(fields)) =
                        (&mut content, requested["properties"].as_object())
                    {
                        values.retain(|name, _| fields.contains_key(name));
                    }
                    Ok(Elicitation::Accept((self.decode)(content).map_err(unfit)?))
                }
            }
        })
    }
}

/// An ask to send the user to a URL, made by [`Context::elicit_url`]; `.await` it.
#[must_use = "an ask does nothing until it is awaited"]
pub struct ElicitUrl<'a> {
    cx: &'a Context,
    url: String,
    message: String,
    key: Option<String>,
}

impl ElicitUrl<'_> {
    /// The key of this ask among the call's input requests in revision 2026-07-28
    /// (`elicit_N` by default). Keys must differ within a call.
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl<'a> IntoFuture for ElicitUrl<'a> {
    type Output = Result<UrlElicitation, AskError>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let mut params = json!({ "mode": "url", "message": self.message, "url": self.url });
            // 2025-11-25 names each URL elicitation, for its completion notice; 2026-07-28
            // ties it to the call's round instead.
            if self.cx.protocol_version() == Some(ProtocolVersion::V2025_11_25) {
                params["elicitationId"] = json!(elicitation_id());
            }
            let needs = [ClientCapability::ElicitationUrl];
            let answer = self
                .cx
                .ask(&needs, "elicitation/create", params, self.key.as_deref(), check)
                .await?;
            Ok(
                match answer_as::<ElicitResult>("elicitation/create", &answer)?.action {
                    Action::Accept => UrlElicitation::Accept,
                    Action::Decline => UrlElicitation::Decline,
                    Action::Cancel => UrlElicitation::Cancel,
                },
            )
        })
    }
}

/// The one-field form [`Context::confirm`] asks for.
///
/// The box is shown ticked (the schema's `default`), but only an answer that carries
/// `confirm: true` is a yes: a client that does not fill in defaults and leaves untouched
/// fields out sends an accept with no `confirm` at all, and that is not a yes.
#[derive(Deserialize, JsonSchema)]
struct Confirmation {
    /// Go ahead?
    #[serde(default)]
    #[schemars(default = "ticked", title = "Confirm")]
    confirm: bool,
}

/// A confirmation's box is shown ticked: the user's choice is the accept or decline
/// button, and unticking it says no too.
fn ticked() -> bool {
    true
}

/// A yes-or-no question, made by [`Context::confirm`]; `.await` it.
#[must_use = "an ask does nothing until it is awaited"]
pub struct Confirm<'a>(Elicit<'a, Confirmation>);

impl std::fmt::Debug for Confirm<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Confirm")
            .field("message", &self.0.message)
            .field("key", &self.0.key)
            .finish()
    }
}

impl Confirm<'_> {
    /// The key of this ask among the call's input requests in revision 2026-07-28
    /// (`elicit_N` by default). Keys must differ within a call.
    pub fn key(self, key: impl Into<String>) -> Self {
        Confirm(self.0.key(key))
    }
}

impl<'a> IntoFuture for Confirm<'a> {
    type Output = Result<bool, AskError>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            Ok(matches!(
                self.0.await?,
                Elicitation::Accept(Confirmation { confirm: true })
            ))
        })
    }
}

/// A fresh, unguessable elicitation id: 128 random bits in hex.
pub(crate) fn elicitation_id() -> String {
    // Without randomness, a counter-free id still differs per process and call.
    crate::protocol::random_hex::<16>().unwrap_or_else(|_| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        format!("{nanos:032x}")
    })
}

impl Context {
    /// Asks the user to fill a form whose fields are those of `T`, with `message` saying
    /// why. `T`'s doc comments become the fields' descriptions, `#[serde(default)]` values
    /// their defaults, unit enums their choices (a `Vec` of one for several).
    ///
    /// A form is flat: strings, numbers, integers, booleans and enums of strings. A `T`
    /// with a nested struct, a map or a list of structs cannot be asked for; a server
    /// whose tool asks for one refuses to start, naming the field (`#[tool]` records the
    /// types a tool asks for), and the ask fails with [`AskError::NotAForm`]. Content the
    /// client accepts is checked against the form and decoded; content that does not fit
    /// is [`AskError::InvalidContent`], naming the field.
    ///
    /// Needs the client's `elicitation` capability (forms). See [the asks](crate::ask)
    /// for how this works in each protocol era: in revision 2026-07-28 the tool runs
    /// again from the top once the user has answered.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, ask::Elicitation, Server, ToolError};
    /// use serde_json::json;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Confirm {
    ///     /// Delete them all?
    ///     confirm: bool,
    /// }
    ///
    /// /// Deletes every draft, once the user confirms.
    /// #[tool]
    /// async fn clear_drafts(cx: Context) -> Result<&'static str, ToolError> {
    ///     match cx.elicit::<Confirm>("Delete all 3 drafts?").await? {
    ///         Elicitation::Accept(Confirm { confirm: true }) => Ok("deleted"),
    ///         _ => Ok("kept"),
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("drafts", "1.0.0")
    ///     .tools(tools![clear_drafts])
    ///     .test_client()?
    ///     .on_elicit(|request| async move {
    ///         assert_eq!(request["message"], "Delete all 3 drafts?");
    ///         json!({"action": "accept", "content": {"confirm": true}})
    ///     });
    /// assert_eq!(client.call("clear_drafts", json!({})).await?.text(), Some("deleted"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn elicit<T: Form>(&self, message: impl Into<String>) -> Elicit<'_, T> {
        Elicit {
            cx: self,
            message: message.into(),
            key: None,
            schema: form::requested_schema_of::<T>,
            decode: form::decode::<T>,
        }
    }

    /// Asks the user a yes-or-no question: `true` only when the user accepts with the box
    /// ticked, that is when the answer carries `"content": {"confirm": true}`. Declining,
    /// dismissing the question, unticking its box, and an accept without `confirm: true`
    /// (no content, `null` or `{}`, as a client that fills in no defaults sends) all answer
    /// `false`, so a tool that acts only on `true` never acts without a clear yes.
    ///
    /// The client shows `message` with one checkbox, `confirm`, ticked by default (the
    /// schema's `"default": true`): what [`elicit`](Context::elicit) would ask for a
    /// struct with one `bool` field. Needs the
    /// client's `elicitation` capability, like any form; without it the ask fails with
    /// [`AskError::MissingCapability`].
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server, ToolError};
    /// use serde_json::json;
    ///
    /// /// Deletes every draft, once the user confirms.
    /// #[tool]
    /// async fn clear_drafts(cx: Context) -> Result<&'static str, ToolError> {
    ///     if cx.confirm("Delete all 3 drafts?").await? {
    ///         Ok("deleted")
    ///     } else {
    ///         Ok("kept")
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("drafts", "1.0.0")
    ///     .tools(tools![clear_drafts])
    ///     .test_client()?
    ///     .on_elicit(|request| async move {
    ///         assert_eq!(request["message"], "Delete all 3 drafts?");
    ///         assert_eq!(request["requestedSchema"]["properties"]["confirm"]["default"], true);
    ///         json!({"action": "decline"})
    ///     });
    /// assert_eq!(client.call("clear_drafts", json!({})).await?.text(), Some("kept"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn confirm(&self, message: impl Into<String>) -> Confirm<'_> {
        Confirm(self.elicit(message))
    }

    /// Asks the user to visit `url` (to sign in somewhere, say, or pay), with `message`
    /// saying why: for what must not pass through the client. Needs the client's
    /// `elicitation.url` capability (revision 2025-11-25 on).
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server, ToolError, ask::UrlElicitation};
    /// use serde_json::json;
    ///
    /// /// Connects the user's calendar.
    /// #[tool]
    /// async fn connect_calendar(cx: Context) -> Result<&'static str, ToolError> {
    ///     let asked = cx.elicit_url("https://calendar.example/authorize?state=7", "Sign in to your calendar").await?;
    ///     Ok(if asked == UrlElicitation::Accept { "waiting for the sign-in" } else { "not connected" })
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("calendar", "1.0.0")
    ///     .tools(tools![connect_calendar])
    ///     .test_client()?
    ///     .on_elicit(|request| async move {
    ///         assert_eq!(request["mode"], "url");
    ///         json!({"action": "accept"})
    ///     });
    /// assert_eq!(client.call("connect_calendar", json!({})).await?.text(), Some("waiting for the sign-in"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn elicit_url(&self, url: impl Into<String>, message: impl Into<String>) -> ElicitUrl<'_> {
        ElicitUrl {
            cx: self,
            url: url.into(),
            message: message.into(),
            key: None,
        }
    }
}

impl<T> fmt::Debug for Elicit<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Elicit")
            .field("message", &self.message)
            .field("key", &self.key)
            .field("form", &std::any::type_name::<T>())
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for ElicitUrl<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ElicitUrl")
            .field("url", &self.url)
            .field("message", &self.message)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes an accepted answer's content as [`Confirm`] does.
    fn said_yes(content: Value) -> bool {
        let requested = form::requested_schema_of::<Confirmation>().unwrap();
        form::check_content(&requested, &content).unwrap();
        form::decode::<Confirmation>(content).unwrap().confirm
    }

    #[test]
    fn the_box_is_shown_ticked_but_optional() {
        let requested = form::requested_schema_of::<Confirmation>().unwrap();
        assert_eq!(
            *requested,
            json!({
                "type": "object",
                "properties": {
                    "confirm": { "type": "boolean", "title": "Confirm", "description": "Go ahead?", "default": true }
                }
            })
        );
    }

    #[test]
    fn only_confirm_true_is_a_yes() {
        assert!(said_yes(json!({ "confirm": true })));
        assert!(said_yes(json!({ "confirm": true, "extra": "kept out" })));
        assert!(!said_yes(json!({ "confirm": false })));
        // A client that leaves untouched fields out, or fills in no defaults: not a yes.
        assert!(!said_yes(json!({})));
        assert!(!said_yes(json!({ "extra": true })));
    }
}
