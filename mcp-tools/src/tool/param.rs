//! How a parameter's type decides what it is: injected from the request ([`FromContext`]),
//! an optional argument (`Option<T>`), or a required argument.
//!
//! The macro emits `(&&&Slot::<T>::new()).__mcp_param()` for every parameter. Method lookup
//! tries the receiver `&&&Slot<T>` first, then `&&Slot<T>`, then `&Slot<T>`: the first probe
//! whose `where` clauses hold wins (autoref specialization). The types alone decide, so
//! aliases and paths work. The argument probes require [`FromArgument`], so a type that is
//! none of the three is reported at the parameter with one message that says what a
//! parameter can be, instead of every bound it lacks and every type that has them.

use crate::ToolError;
use crate::context::{Context, FromContext, RequiredState};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::marker::PhantomData;

/// The type of one parameter, to be probed.
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct Slot<T>(PhantomData<fn() -> T>);

impl<T> Slot<T> {
    /// A probe for `T`.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Slot(PhantomData)
    }
}

/// What a parameter is, with the functions that fill it.
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct Param<T> {
    pub(crate) kind: Kind<T>,
}

pub(crate) enum Kind<T> {
    Injected {
        extract: fn(&Context) -> Result<T, ToolError>,
        state: fn() -> RequiredState,
    },
    Argument(Argument<T>),
}

/// Writes a parameter's schema.
pub(crate) type SchemaFn = fn(&mut SchemaGenerator) -> Schema;

/// Decodes an argument again, tracking where in the value it failed.
pub(crate) type LocateFn = fn(&str) -> Option<serde_path_to_error::Error<serde_json::Error>>;

pub(crate) struct Argument<T> {
    /// The schema of the value the client sends (of `T` inside an `Option`).
    pub(crate) schema: SchemaFn,
    pub(crate) decode: fn(&str) -> Result<T, serde_json::Error>,
    /// Decodes again, tracking where in the value it failed; for error messages only.
    pub(crate) locate: LocateFn,
    /// The value when the client leaves the argument out; `None` when it is required.
    pub(crate) absent: Option<fn() -> T>,
    /// The default shown in the schema.
    pub(crate) default_json: Option<fn(&T) -> Option<Value>>,
}

impl<T> Param<T> {
    /// Uses `default()` when the client leaves the argument out, and shows it in the schema.
    pub fn with_default(mut self, default: fn() -> T) -> Param<T>
    where
        T: Serialize,
    {
        if let Kind::Argument(argument) = &mut self.kind {
            argument.absent = Some(default);
            argument.default_json = Some(to_json::<T>);
        }
        self
    }
}

fn to_json<T: Serialize>(value: &T) -> Option<Value> {
    serde_json::to_value(value).ok()
}

fn decode<T: DeserializeOwned>(json: &str) -> Result<T, serde_json::Error> {
    serde_json::from_str(json)
}

fn locate<T: DeserializeOwned>(json: &str) -> Option<serde_path_to_error::Error<serde_json::Error>> {
    let mut deserializer = serde_json::Deserializer::from_str(json);
    serde_path_to_error::deserialize::<_, T>(&mut deserializer).err()
}

fn schema_of<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

/// A type a client can send as an argument: it decodes from JSON (`serde::Deserialize`),
/// describes itself in the input schema (`schemars::JsonSchema`), and can move to the task
/// that runs the tool. Implemented for every such type; derive the two traits rather than
/// implementing this one.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a parameter of a tool or a prompt",
    label = "not an argument a client can send, nor a value the server injects",
    note = "an argument's type implements `serde::Deserialize` and `schemars::JsonSchema` (derive both) and is `Send + 'static`; `Option<T>` of one is an optional argument",
    note = "an injected parameter's type implements `FromContext`, such as `Context` or `State<T>`"
)]
pub trait FromArgument: DeserializeOwned + JsonSchema + Send + 'static {}

// Not recommended, so that the compiler reports `FromArgument` itself, with its message,
// rather than each of the bounds below and every type that meets them.
#[diagnostic::do_not_recommend]
impl<T: DeserializeOwned + JsonSchema + Send + 'static> FromArgument for T {}

/// Extracts an injected parameter, its rejection made the call's error.
fn extract<T: FromContext>(cx: &Context) -> Result<T, ToolError> {
    T::from_context(cx).map_err(Into::into)
}

/// First choice: a type the framework injects.
pub trait InjectedProbe<T> {
    /// Describes the parameter.
    fn __mcp_param(&self) -> Param<T>;
}

impl<T: FromContext> InjectedProbe<T> for &&Slot<T> {
    fn __mcp_param(&self) -> Param<T> {
        Param {
            kind: Kind::Injected {
                extract: extract::<T>,
                state: T::required_state,
            },
        }
    }
}

/// Second choice: `Option<U>`, an argument the client may leave out or send as `null`.
pub trait OptionalProbe<U> {
    /// Describes the parameter.
    fn __mcp_param(&self) -> Param<Option<U>>
    where
        U: FromArgument;
}

impl<U> OptionalProbe<U> for &Slot<Option<U>> {
    fn __mcp_param(&self) -> Param<Option<U>>
    where
        U: FromArgument,
    {
        Param {
            kind: Kind::Argument(Argument {
                schema: schema_of::<U>,
                decode: decode::<Option<U>>,
                locate: locate::<Option<U>>,
                absent: Some(|| None),
                default_json: None,
            }),
        }
    }
}

/// Last choice: a required argument.
pub trait RequiredProbe<T> {
    /// Describes the parameter.
    fn __mcp_param(&self) -> Param<T>
    where
        T: FromArgument;
}

impl<T> RequiredProbe<T> for Slot<T> {
    fn __mcp_param(&self) -> Param<T>
    where
        T: FromArgument,
    {
        Param {
            kind: Kind::Argument(Argument {
                schema: schema_of::<T>,
                decode: decode::<T>,
                locate: locate::<T>,
                absent: None,
                default_json: None,
            }),
        }
    }
}
