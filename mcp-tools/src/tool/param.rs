//! How a parameter's type decides what it is: injected from the request ([`FromContext`]),
//! an optional argument (`Option<T>`), or a required argument.
//!
//! The macro emits `FromArgument::parameter((&&&Slot::<T>::new()).__mcp_plan())` for every
//! parameter, spanned at its type. Method lookup tries the receiver `&&&Slot<T>` first, then
//! `&&Slot<T>`, then `&Slot<T>`: the first probe whose impl holds wins (autoref
//! specialization). The types alone decide, so aliases and paths work. The probe's [`Plan`]
//! names the type that must be an argument: none (`()`) for an injected parameter, `U` for an
//! `Option<U>`, the type itself otherwise. `FromArgument::parameter`, whose `Self` is that
//! type, then builds the parameter. A type that is no argument is reported there, at the
//! parameter, with [`FromArgument`]'s message alone: the bound is the trait's own, so the
//! compiler points at no bound of a hidden item, and lists no types that meet the bounds.

use super::FormCheckFn;
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

/// Shows a default value in the schema, when its type serializes.
type ShowFn<T> = fn(&T) -> Option<Value>;

pub(crate) struct Argument<T> {
    /// The schema of the value the client sends (of `T` inside an `Option`).
    pub(crate) schema: SchemaFn,
    pub(crate) decode: fn(&str) -> Result<T, serde_json::Error>,
    /// Decodes again, tracking where in the value it failed; for error messages only.
    pub(crate) locate: LocateFn,
    /// The value when the client leaves the argument out; `None` when it is required.
    pub(crate) absent: Option<fn() -> T>,
    /// The default shown in the schema.
    pub(crate) default_json: Option<ShowFn<T>>,
}

impl<T> Param<T> {
    /// Uses `default()` when the client leaves the argument out, and shows it in the schema
    /// with `show` (from [`DefaultShown`]: `None` for a type that does not serialize).
    pub fn with_default(mut self, default: fn() -> T, show: Option<ShowFn<T>>) -> Param<T> {
        if let Kind::Argument(argument) = &mut self.kind {
            argument.absent = Some(default);
            argument.default_json = show;
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

/// A type a client can send as an argument of a tool, a prompt or a resource template: it
/// decodes from JSON (`serde::Deserialize`), describes itself in the input schema
/// (`schemars::JsonSchema`), and can move to the task that runs the call (`Send +
/// 'static`).
///
/// Every such type implements it: derive the two traits rather than implementing this one.
/// A parameter whose type is neither an argument nor injected ([`FromContext`]) is a
/// compile error at the parameter that names this trait.
///
/// ```
/// use mcp_toolkit::tool::FromArgument;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Point {
///     x: f64,
///     y: f64,
/// }
///
/// fn is_argument<T: FromArgument>() {}
/// is_argument::<Point>();
/// is_argument::<Option<Vec<String>>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a parameter of a tool, a prompt or a resource",
    label = "not an argument a client can send, nor a value the server injects",
    note = "an argument's type implements `serde::Deserialize` and `schemars::JsonSchema` (derive both) and is `Send + 'static`; `Option<T>` and `Json<T>` of one are arguments too",
    note = "an injected parameter's type implements `FromContext`, such as `Context` or `State<T>`"
)]
pub trait FromArgument: Sized {
    /// Builds the parameter the probes planned, whose argument has this type. Generated
    /// code calls it as `FromArgument::parameter(plan)`, so that a type that is no argument
    /// fails this trait's own bound, reported with its message alone.
    #[doc(hidden)]
    fn parameter<T, C>(plan: Plan<T, Self, C>) -> Param<T>;
}

// Not recommended, so that the compiler reports `FromArgument` itself, with its message,
// rather than each of the bounds below and every type that meets them.
#[diagnostic::do_not_recommend]
impl<A: DeserializeOwned + JsonSchema + Send + 'static> FromArgument for A {
    fn parameter<T, C>(plan: Plan<T, A, C>) -> Param<T> {
        (plan.build)(Decoders {
            schema: schema_of::<A>,
            decode: decode::<A>,
            locate: locate::<A>,
            decode_optional: decode::<Option<A>>,
            locate_optional: locate::<Option<A>>,
        })
    }
}

/// What the probes found a parameter of type `T` to be: how to build it once its argument
/// type `A` is known to be an argument (`()` for an injected parameter, which has none), and
/// `C`, the type that must be [`Completable`](crate::completion::Completable) for a
/// `#[complete(..)]` on it (the type itself when injected; `()`, which is, otherwise).
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct Plan<T, A, C> {
    build: fn(Decoders<A>) -> Param<T>,
    completable: PhantomData<fn() -> C>,
}

impl<T, A, C> Plan<T, A, C> {
    const fn new(build: fn(Decoders<A>) -> Param<T>) -> Self {
        Plan {
            build,
            completable: PhantomData,
        }
    }
}

/// How an argument of type `A` is read: what [`FromArgument`] knows and a [`Plan`] needs.
struct Decoders<A> {
    schema: SchemaFn,
    decode: fn(&str) -> Result<A, serde_json::Error>,
    locate: LocateFn,
    decode_optional: fn(&str) -> Result<Option<A>, serde_json::Error>,
    locate_optional: LocateFn,
}

/// Extracts an injected parameter, its rejection made the call's error.
fn extract<T: FromContext>(cx: &Context) -> Result<T, ToolError> {
    T::from_context(cx).map_err(Into::into)
}

fn injected<T: FromContext>(_: Decoders<()>) -> Param<T> {
    Param {
        kind: Kind::Injected {
            extract: extract::<T>,
            state: T::required_state,
        },
    }
}

fn optional<U>(decoders: Decoders<U>) -> Param<Option<U>> {
    Param {
        kind: Kind::Argument(Argument {
            schema: decoders.schema,
            decode: decoders.decode_optional,
            locate: decoders.locate_optional,
            absent: Some(|| None),
            default_json: None,
        }),
    }
}

fn required<T>(decoders: Decoders<T>) -> Param<T> {
    Param {
        kind: Kind::Argument(Argument {
            schema: decoders.schema,
            decode: decoders.decode,
            locate: decoders.locate,
            absent: None,
            default_json: None,
        }),
    }
}

/// First choice: a type the framework injects.
pub trait InjectedProbe<T> {
    /// What the parameter is.
    fn __mcp_plan(&self) -> Plan<T, (), T>;
}

impl<T: FromContext> InjectedProbe<T> for &&Slot<T> {
    fn __mcp_plan(&self) -> Plan<T, (), T> {
        Plan::new(injected::<T>)
    }
}

/// Second choice: `Option<U>`, an argument the client may leave out or send as `null`.
pub trait OptionalProbe<U> {
    /// What the parameter is.
    fn __mcp_plan(&self) -> Plan<Option<U>, U, ()>;
}

impl<U> OptionalProbe<U> for &Slot<Option<U>> {
    fn __mcp_plan(&self) -> Plan<Option<U>, U, ()> {
        Plan::new(optional::<U>)
    }
}

/// Last choice: a required argument.
pub trait RequiredProbe<T> {
    /// What the parameter is.
    fn __mcp_plan(&self) -> Plan<T, T, ()>;
}

impl<T> RequiredProbe<T> for Slot<T> {
    fn __mcp_plan(&self) -> Plan<T, T, ()> {
        Plan::new(required::<T>)
    }
}

/// A `#[default(..)]` shows in the schema when its type serializes, and is only used
/// otherwise: `(&&Slot::<T>::new()).__mcp_show_default()` finds which, so a default never
/// adds a bound to the parameter.
pub trait DefaultShown<T> {
    /// How the default shows in the schema.
    fn __mcp_show_default(&self) -> Option<ShowFn<T>>;
}

impl<T: Serialize> DefaultShown<T> for &Slot<T> {
    fn __mcp_show_default(&self) -> Option<ShowFn<T>> {
        Some(to_json::<T>)
    }
}

/// A default whose type does not serialize: used, not shown.
pub trait DefaultUnshown<T> {
    /// `None`: the default does not show in the schema.
    fn __mcp_show_default(&self) -> Option<ShowFn<T>>;
}

impl<T> DefaultUnshown<T> for Slot<T> {
    fn __mcp_show_default(&self) -> Option<ShowFn<T>> {
        None
    }
}

/// A form a tool's body asks for (`elicit::<T>`) is checked when the server starts if `T`
/// has a schema: `(&&Slot::<T>::new()).__mcp_form()` finds the check. A type without one is
/// the body's own `elicit::<T>` call's mistake, which the compiler reports there; the
/// macro's record of the form adds no error of its own.
pub trait FormAsked<T> {
    /// The check of the form.
    fn __mcp_form(&self) -> Option<FormCheckFn>;
}

impl<T: JsonSchema> FormAsked<T> for &Slot<T> {
    fn __mcp_form(&self) -> Option<FormCheckFn> {
        Some(super::form_check::<T>())
    }
}

/// A form whose type has no schema: not checked, as it does not compile.
pub trait FormUnasked<T> {
    /// `None`.
    fn __mcp_form(&self) -> Option<FormCheckFn>;
}

impl<T> FormUnasked<T> for Slot<T> {
    fn __mcp_form(&self) -> Option<FormCheckFn> {
        None
    }
}
