//! Completion (`completion/complete`): how an argument completes as the user types it, for
//! a prompt's arguments and a resource template's variables alike. An argument whose type
//! is an enum of strings completes from its values; one with `#[complete(path)]`, from its
//! completion fn ([`Complete`]), which gets what the user typed as a [`Partial`]. The
//! framework keeps the candidates that contain the typed value, ignoring case, those that
//! start with it first, and sends at most 100 with how many matched in all.

use crate::context::{Context, FromContext, StateKey};
use crate::error::ToolError;
use crate::tool::FromArgument;
use crate::tool::param::{Kind, Param, Plan};
use schemars::SchemaGenerator;
use serde_json::{Map, Value};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// The most values a completion answers with, as the protocol allows.
const MOST_COMPLETIONS: usize = 100;

/// What the user has typed so far into the argument being completed, and the arguments
/// already given: what a completion fn ([`Complete`]) completes from.
#[derive(Debug, Clone, PartialEq)]
pub struct Partial {
    value: String,
    arguments: Map<String, Value>,
}

impl Partial {
    /// What has been typed so far (maybe nothing). Candidates need not start with it: the
    /// framework keeps those that contain it, ignoring case, those that start with it first.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// The other arguments already given (`context.arguments`), by name.
    pub fn arguments(&self) -> &Map<String, Value> {
        &self.arguments
    }

    /// The argument `name` already given, as a string: `None` when it was not given or is
    /// not a string.
    pub fn argument(&self, name: &str) -> Option<&str> {
        self.arguments.get(name).and_then(Value::as_str)
    }
}

/// What a completion fn answers with: the candidates, or an error.
pub trait IntoCompletions: Send + 'static {
    /// The candidates; an internal error fails the completion (its detail is logged).
    fn into_completions(self) -> Result<Vec<String>, ToolError>;
}

impl IntoCompletions for Vec<String> {
    fn into_completions(self) -> Result<Vec<String>, ToolError> {
        Ok(self)
    }
}

impl IntoCompletions for Vec<&'static str> {
    fn into_completions(self) -> Result<Vec<String>, ToolError> {
        Ok(self.into_iter().map(str::to_owned).collect())
    }
}

impl<T: IntoCompletions, E: Into<ToolError> + Send + 'static> IntoCompletions for Result<T, E> {
    fn into_completions(self) -> Result<Vec<String>, ToolError> {
        self.map_err(Into::into)?.into_completions()
    }
}

/// The candidates a completion fn answers with, once it has run.
pub(crate) type Candidates = Pin<Box<dyn Future<Output = Result<Vec<String>, ToolError>> + Send>>;

/// A completion fn: what `#[complete(path)]` on a prompt's argument or a resource
/// template's variable names.
///
/// A completion fn takes what tools take from the request ([`State<T>`](crate::State),
/// [`Context`], any [`FromContext`] type), then the [`Partial`] value it completes, and
/// returns the candidates (`Vec<String>`, or a `Result` of them); it may be `async`. The
/// simplest form, `fn(&str, &Map<String, Value>) -> Vec<String>` (the typed value and the
/// arguments given), works too.
///
/// ```
/// use mcp_toolkit::completion::Partial;
/// use mcp_toolkit::{prompt, State};
///
/// struct Catalog { cities: Vec<String> }
///
/// /// The cities the catalog knows, from the server's state.
/// async fn cities(catalog: State<Catalog>, typed: Partial) -> Vec<String> {
///     let country = typed.argument("country").unwrap_or("any");
///     catalog.cities.iter().map(|city| format!("{city} ({country})")).collect()
/// }
///
/// /// Plans a trip.
/// #[prompt]
/// fn plan_trip(#[complete(cities)] city: String, country: String) -> String {
///     format!("Plan a trip to {city}, {country}.")
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a completion fn",
    label = "expected a fn taking injected values, then `Partial`, returning `Vec<String>`",
    note = "a completion fn takes values the server injects (`State<T>`, `Context`, any `FromContext` type), then `Partial`, and returns `Vec<String>` or a `Result` of it; it may be `async`",
    note = "the simplest form is `fn(&str, &Map<String, Value>) -> Vec<String>`: the typed value and the arguments given"
)]
pub trait Complete<M>: Send + Sync + 'static {
    /// Runs the fn for `typed`, with the request's context.
    #[doc(hidden)]
    fn complete(&self, cx: &Context, typed: Partial) -> Candidates;

    /// The shared state the fn takes, so a server can refuse to start without it.
    #[doc(hidden)]
    fn required_state(&self) -> Vec<StateKey> {
        Vec::new()
    }

    /// The fn, erased: what `#[complete(path)]` hands the builder. Generated code calls
    /// `Complete::erase(path)`, spanned at the path, so that a fn that is not a completion
    /// fn fails this trait's own bound there, reported with its message alone.
    #[doc(hidden)]
    fn erase(self) -> Completer
    where
        Self: Sized,
    {
        Completer {
            required: self.required_state(),
            run: Arc::new(move |cx: &Context, typed: Partial| self.complete(cx, typed)),
        }
    }
}

/// A parameter type that `#[complete(..)]` can go on: an argument the client types, such as
/// `String` or an enum ([`FromArgument`]). A value the server injects ([`Context`],
/// [`State<T>`](crate::State), any [`FromContext`] type) is not typed by anyone, so it has
/// no completion: `#[complete(..)]` on it is a compile error at the attribute that names
/// this trait.
///
/// Every argument type implements it; there is nothing to implement.
///
/// ```
/// use mcp_toolkit::completion::Completable;
///
/// fn completable<T: Completable>() {}
/// completable::<String>();
/// completable::<Option<u32>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`#[complete(..)]` is for arguments the client types; `{Self}` is injected by the server",
    label = "an injected parameter has no completion",
    note = "put `#[complete(..)]` on a parameter that is an argument, such as `city: String`"
)]
pub trait Completable: Sized {
    /// Checks, for a `#[complete(..)]`, the type the parameter's probe named. Generated code
    /// calls it as `Completable::check(plan)`, so that an injected type fails this trait's
    /// own bound, reported with its message alone.
    #[doc(hidden)]
    fn check<T, A>(plan: Plan<T, A, Self>) {
        let _ = plan;
    }
}

// Not recommended, so that the compiler reports `Completable` itself, with its message.
#[diagnostic::do_not_recommend]
impl<T: FromArgument> Completable for T {}

// The erased fn and the marks of a completion fn's form: `pub`, as `Complete`'s impls name
// them, in a module no path outside the crate reaches.
mod forms {
    use super::{Candidates, Complete, CompleteFn, Context, Partial, StateKey};

    /// A completion fn, erased: what `#[complete(path)]` hands the builder.
    #[derive(Clone)]
    pub struct Completer {
        pub(crate) run: CompleteFn,
        pub(crate) required: Vec<StateKey>,
    }

    impl std::fmt::Debug for Completer {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("Completer")
                .field("required", &self.required)
                .finish_non_exhaustive()
        }
    }

    /// Marks an erased completion fn.
    #[derive(Debug)]
    pub enum ErasedForm {}

    // Not recommended: an error about a user's fn names no erased form.
    #[diagnostic::do_not_recommend]
    impl Complete<ErasedForm> for Completer {
        fn complete(&self, cx: &Context, typed: Partial) -> Candidates {
            (self.run)(cx, typed)
        }

        fn required_state(&self) -> Vec<StateKey> {
            self.required.clone()
        }
    }

    /// Marks the plain form, `fn(&str, &Map<String, Value>) -> Vec<String>`.
    #[derive(Debug)]
    pub enum PlainForm {}

    /// Marks a sync fn of injected values and [`Partial`].
    #[derive(Debug)]
    pub struct SyncForm<T>(std::marker::PhantomData<T>);

    /// Marks an async fn of injected values and [`Partial`].
    #[derive(Debug)]
    pub struct AsyncForm<T>(std::marker::PhantomData<T>);
}

pub(crate) use forms::Completer;
use forms::{AsyncForm, PlainForm, SyncForm};

impl<F, R> Complete<PlainForm> for F
where
    F: Fn(&str, &Map<String, Value>) -> R + Send + Sync + 'static,
    R: IntoCompletions,
{
    fn complete(&self, _cx: &Context, typed: Partial) -> Candidates {
        let done = self(&typed.value, &typed.arguments).into_completions();
        Box::pin(std::future::ready(done))
    }
}

/// Binds each injected value from the request's context, or returns the completion's
/// failure with the first rejection.
macro_rules! extract {
    ($cx:ident; $($injected:ident),*) => {
        $(
            let $injected = match $injected::from_context($cx) {
                Ok(value) => value,
                Err(rejection) => return Box::pin(std::future::ready(Err(rejection.into()))),
            };
        )*
    };
}

/// The state the injected values need.
macro_rules! required_state_of {
    ($($injected:ident),*) => {
        fn required_state(&self) -> Vec<StateKey> {
            crate::context::RequiredState::default()
                $(.and($injected::required_state()))*
                .into_keys()
        }
    };
}

macro_rules! complete_with_injected {
    ($($injected:ident),*) => {
        impl<F, R, $($injected,)*> Complete<SyncForm<($($injected,)*)>> for F
        where
            F: Fn($($injected,)* Partial) -> R + Send + Sync + 'static,
            R: IntoCompletions,
            $($injected: FromContext,)*
        {
            #[allow(non_snake_case)]
            fn complete(&self, _cx: &Context, typed: Partial) -> Candidates {
                extract!(_cx; $($injected),*);
                Box::pin(std::future::ready(self($($injected,)* typed).into_completions()))
            }

            required_state_of!($($injected),*);
        }

        impl<F, Fut, $($injected,)*> Complete<AsyncForm<($($injected,)*)>> for F
        where
            F: Fn($($injected,)* Partial) -> Fut + Send + Sync + 'static,
            Fut: Future + Send + 'static,
            Fut::Output: IntoCompletions,
            $($injected: FromContext,)*
        {
            #[allow(non_snake_case)]
            fn complete(&self, _cx: &Context, typed: Partial) -> Candidates {
                extract!(_cx; $($injected),*);
                let running = self($($injected,)* typed);
                Box::pin(async move { running.await.into_completions() })
            }

            required_state_of!($($injected),*);
        }
    };
}

complete_with_injected!();
complete_with_injected!(A);
complete_with_injected!(A, B);
complete_with_injected!(A, B, C);
complete_with_injected!(A, B, C, D);

/// A completion under way: what [`Completions::complete`] returns.
pub(crate) type Completing = Pin<Box<dyn Future<Output = Result<Completed, ToolError>> + Send>>;

/// A completion fn with its form erased.
type CompleteFn = Arc<dyn Fn(&Context, Partial) -> Candidates + Send + Sync>;

/// How an argument completes.
#[derive(Clone)]
enum Completion {
    /// The values an enum-typed argument takes.
    Choices(Vec<String>),
    /// A fn of the partial value, the arguments already given and the request.
    With(CompleteFn),
}

/// What a completion found: the values to show (at most 100), how many matched in all,
/// and whether there are more than shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Completed {
    pub(crate) values: Vec<String>,
    pub(crate) total: usize,
    pub(crate) has_more: bool,
}

/// How each argument of one prompt or resource template completes, by name. An argument
/// not in it has no candidates.
#[derive(Clone, Default)]
pub(crate) struct Completions {
    by_name: Vec<(String, Completion)>,
}

impl Completions {
    /// Completes `argument` from its partial `value`, given the other arguments. The
    /// candidates that start with `value` come first, then those that contain it elsewhere,
    /// ignoring case; at most 100 of them, with how many matched in all. An argument with
    /// no choices and no completion fn has none. A completion fn runs with `cx`, the
    /// request's context; its error is the completion's.
    pub(crate) fn complete(
        &self,
        cx: &Context,
        argument: &str,
        value: &str,
        given: &Map<String, Value>,
    ) -> Completing {
        let needle = value.to_lowercase();
        let candidates: Candidates = match self.by_name.iter().find(|(name, _)| name == argument) {
            Some((_, Completion::Choices(choices))) => Box::pin(std::future::ready(Ok(choices.clone()))),
            Some((_, Completion::With(complete))) => complete(
                cx,
                Partial {
                    value: value.to_owned(),
                    arguments: given.clone(),
                },
            ),
            None => Box::pin(std::future::ready(Ok(Vec::new()))),
        };
        Box::pin(async move { Ok(filter(candidates.await?, &needle)) })
    }
}

/// The candidates that contain `needle` (lowercase), those that start with it first; at
/// most 100, with how many matched in all.
fn filter(candidates: Vec<String>, needle: &str) -> Completed {
    let (mut first, mut then) = (Vec::new(), Vec::new());
    for candidate in candidates {
        let lower = candidate.to_lowercase();
        if lower.starts_with(needle) {
            first.push(candidate);
        } else if lower.contains(needle) {
            then.push(candidate);
        }
    }
    first.append(&mut then);
    let total = first.len();
    first.truncate(MOST_COMPLETIONS);
    Completed {
        has_more: total > first.len(),
        total,
        values: first,
    }
}

/// Gathers a capability's completions while its builder reads its parameters.
#[derive(Default)]
pub(crate) struct CompletionsBuilder {
    by_name: Vec<(String, Completion)>,
    /// Made for the first argument, to read enum values from its schema.
    schemas: Option<SchemaGenerator>,
}

impl CompletionsBuilder {
    /// Reads parameter `name`: an argument whose type is an enum of strings completes from
    /// its values; anything else (another type, an injected parameter) from nothing, unless
    /// [`complete`](Self::complete) gives it a fn.
    pub(crate) fn param<T>(&mut self, name: &str, param: &Param<T>) {
        let Kind::Argument(argument) = &param.kind else {
            return;
        };
        let schemas = self
            .schemas
            .get_or_insert_with(crate::tool::schema::input_generator);
        let choices = choices((argument.schema)(schemas).as_value());
        if !choices.is_empty() {
            self.by_name.push((name.to_owned(), Completion::Choices(choices)));
        }
    }

    /// Completes argument `name` with `complete`, in place of the choices of its type; the
    /// state it takes is added to `required`.
    pub(crate) fn complete<M, C: Complete<M>>(
        &mut self,
        name: &str,
        complete: C,
        required: &mut Vec<StateKey>,
    ) {
        required.extend(complete.required_state());
        let complete: CompleteFn = Arc::new(move |cx: &Context, typed: Partial| complete.complete(cx, typed));
        self.by_name.retain(|(argument, _)| argument != name);
        self.by_name.push((name.to_owned(), Completion::With(complete)));
    }

    /// The completions gathered.
    pub(crate) fn build(self) -> Completions {
        Completions {
            by_name: self.by_name,
        }
    }
}

/// The values of an enum's schema (`enum`, or `oneOf`/`anyOf` of `const`s), strings only,
/// in order; none for a schema that is not an enum of strings.
fn choices(schema: &Value) -> Vec<String> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
    }
    ["oneOf", "anyOf"]
        .iter()
        .filter_map(|key| schema.get(*key).and_then(Value::as_array))
        .flatten()
        .flat_map(|variant| match variant.get("const") {
            Some(Value::String(value)) => vec![value.clone()],
            _ => choices(variant),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_enum_schema_gives_its_values_in_order() {
        assert_eq!(
            choices(&json!({"type": "string", "enum": ["b", "a"]})),
            ["b", "a"]
        );
        let titled = json!({"oneOf": [{"const": "x", "title": "X"}, {"const": "y"}]});
        assert_eq!(choices(&titled), ["x", "y"]);
        let optional = json!({"anyOf": [{"type": "string", "enum": ["on", "off"]}, {"type": "null"}]});
        assert_eq!(choices(&optional), ["on", "off"]);
        assert!(choices(&json!({"type": "string"})).is_empty());
        assert!(choices(&json!({"type": "integer", "enum": [1, 2]})).is_empty());
    }

    fn words(_typed: &str, given: &Map<String, Value>) -> Vec<String> {
        let mut words: Vec<String> = ["Alpha", "beta", "Gamma", "alphabet"].map(str::to_owned).to_vec();
        if let Some(Value::String(extra)) = given.get("extra") {
            words.push(extra.clone());
        }
        words
    }

    fn completions() -> Completions {
        let mut builder = CompletionsBuilder::default();
        builder.by_name.push((
            "level".to_owned(),
            Completion::Choices(vec!["low".to_owned(), "high".to_owned()]),
        ));
        builder.complete("word", words, &mut Vec::new());
        builder.build()
    }

    /// Completes at once: the fns here never wait.
    fn now(completions: &Completions, argument: &str, value: &str, given: &Map<String, Value>) -> Completed {
        now_with(&Context::default(), completions, argument, value, given).unwrap()
    }

    fn now_with(
        cx: &Context,
        completions: &Completions,
        argument: &str,
        value: &str,
        given: &Map<String, Value>,
    ) -> Result<Completed, ToolError> {
        let mut done = completions.complete(cx, argument, value, given);
        let waker = std::task::Waker::noop();
        match done.as_mut().poll(&mut std::task::Context::from_waker(waker)) {
            std::task::Poll::Ready(completed) => completed,
            std::task::Poll::Pending => panic!("the completion waited"),
        }
    }

    #[test]
    fn prefixes_come_first_then_the_rest_that_contain_the_value_ignoring_case() {
        let completed = now(&completions(), "word", "A", &Map::new());
        assert_eq!(
            completed,
            Completed {
                values: ["Alpha", "alphabet", "beta", "Gamma"].map(str::to_owned).to_vec(),
                total: 4,
                has_more: false,
            }
        );
        let given = json!({"extra": "Delta"});
        let with_extra = now(&completions(), "word", "del", given.as_object().unwrap());
        assert_eq!(with_extra.values, ["Delta"]);
        assert_eq!(now(&completions(), "level", "H", &Map::new()).values, ["high"]);
    }

    #[test]
    fn an_argument_without_completion_has_no_candidates() {
        let none = now(&completions(), "other", "", &Map::new());
        assert_eq!((none.values.len(), none.total, none.has_more), (0, 0, false));
    }

    #[test]
    fn a_fn_replaces_the_choices_of_its_type() {
        let mut builder = CompletionsBuilder::default();
        builder
            .by_name
            .push(("word".to_owned(), Completion::Choices(vec!["zeta".to_owned()])));
        builder.complete("word", words, &mut Vec::new());
        assert_eq!(now(&builder.build(), "word", "z", &Map::new()).total, 0);
    }

    #[test]
    fn at_most_100_values_are_kept_with_the_total() {
        fn many(_typed: &str, _given: &Map<String, Value>) -> Vec<String> {
            (0..250).map(|i| format!("v{i}")).collect()
        }
        let mut builder = CompletionsBuilder::default();
        builder.complete("n", many, &mut Vec::new());
        let completed = now(&builder.build(), "n", "", &Map::new());
        assert_eq!(
            (completed.values.len(), completed.total, completed.has_more),
            (100, 250, true)
        );
        assert_eq!(completed.values[99], "v99");
    }

    struct Towns(Vec<&'static str>);

    fn towns(towns: crate::State<Towns>, typed: Partial) -> Vec<String> {
        let near = typed.argument("near").unwrap_or("");
        let Towns(list) = &*towns;
        list.iter().map(|town| format!("{town}{near}")).collect()
    }

    async fn slow_towns(
        towns: crate::State<Towns>,
        _cx: Context,
        _typed: Partial,
    ) -> Result<Vec<&'static str>, ToolError> {
        let Towns(list) = &*towns;
        Ok(list.clone())
    }

    #[test]
    fn a_completion_fn_takes_state_and_the_partial_value_sync_or_async() {
        let mut required = Vec::new();
        let mut builder = CompletionsBuilder::default();
        builder.complete("town", towns, &mut required);
        builder.complete("slow", slow_towns, &mut required);
        let completions = builder.build();
        assert_eq!(required.len(), 2);
        assert!(required.iter().all(|key| key.type_name().ends_with("Towns")));

        let cx = Context::default().with_state(Towns(vec!["Oslo", "Bergen"]));
        let given = json!({"near": "!"});
        let completed = now_with(&cx, &completions, "town", "o", given.as_object().unwrap()).unwrap();
        assert_eq!(completed.values, ["Oslo!"]);
        let slow = now_with(&cx, &completions, "slow", "ber", &Map::new()).unwrap();
        assert_eq!(slow.values, ["Bergen"]);

        // Without the state, the completion fails as an injected parameter fails a call.
        let failed = now_with(&Context::default(), &completions, "town", "", &Map::new()).unwrap_err();
        assert_eq!(failed.message(), "internal error");
    }
}
