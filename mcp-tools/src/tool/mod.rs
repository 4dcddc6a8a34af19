//! The tool model: a [`Tool`] is a definition (name, description, schemas, annotations)
//! and a handler that turns a call's arguments into a [`CallToolResult`].

mod api;
pub(crate) mod args;
pub(crate) mod headers;
pub(crate) mod param;
pub(crate) mod schema;
mod scopes;
#[cfg(feature = "validate-output")]
mod validate;

// What generated code names, through `crate::__private`.
#[doc(hidden)]
pub use crate::protocol::arguments::RawArguments;
#[doc(hidden)]
pub use args::Arguments;
pub use headers::HeaderArgument;
#[doc(hidden)]
pub use headers::HeaderType;
pub use param::FromArgument;
#[doc(hidden)]
pub use param::{
    DefaultShown, DefaultUnshown, FormAsked, FormUnasked, InjectedProbe, OptionalProbe, Param, Plan,
    RequiredProbe, Slot,
};
pub use scopes::ScopePolicy;

use crate::context::{Context, StateKey};
use crate::error::{DefinitionError, HeaderError};
use crate::protocol::ProtocolVersion;
use crate::result::{CallToolResult, IntoCallToolResult};
use param::Kind;
use schemars::{Schema, SchemaGenerator};
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;

/// A tool a server offers: its definition and the code that runs it.
///
/// `#[tool]` functions become tools through [`tools!`](crate::tools); [`Tool::from_json`]
/// builds one at run time from a name, a description, a JSON Schema and a closure. Cloning
/// is cheap. Serialized, a tool is its definition as the newest revision lists it
/// ([`Tool::definition`] gives it for any revision).
///
/// ```
/// use mcp_toolkit::{tool, tools, Json};
/// use serde_json::json;
///
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Forecast { celsius: f64 }
///
/// /// Tells the weather in a city.
/// #[tool(
///     title = "Weather",
///     annotations(read_only, open_world),
///     icons("https://example.com/sun.svg"),
///     meta(team = "travel")
/// )]
/// fn weather(
///     /// The city
///     city: String,
/// ) -> Json<Forecast> {
///     Json(Forecast { celsius: 21.5 })
/// }
///
/// let weather = tools![weather].remove(0);
/// assert_eq!(weather.name(), "weather");
/// assert_eq!(weather.title(), Some("Weather"));
/// assert_eq!(weather.description(), Some("Tells the weather in a city."));
/// assert_eq!(weather.input_schema()["properties"]["city"], json!({"type": "string", "description": "The city"}));
/// assert_eq!(weather.output_schema().unwrap()["properties"]["celsius"]["type"], "number");
/// assert_eq!(weather.annotations().unwrap().read_only_hint, Some(true));
/// assert_eq!(weather.icons()[0].src, "https://example.com/sun.svg");
/// assert_eq!(weather.meta().unwrap()["team"], "travel");
/// assert_eq!(serde_json::to_value(&weather).unwrap()["name"], "weather");
/// ```
#[derive(Clone)]
// Shown at the crate's root, its one documented path.
#[doc(hidden)]
pub struct Tool {
    def: Arc<Definition>,
    handler: Handler,
}

#[derive(Clone)]
struct Definition {
    name: String,
    title: Option<String>,
    description: Option<String>,
    input_schema: Map<String, Value>,
    output_schema: Option<Value>,
    annotations: Option<ToolAnnotations>,
    icons: Vec<Icon>,
    meta: Option<Map<String, Value>>,
    required_state: Vec<StateKey>,
    /// Whether a call can ask the client things: the tool takes something from its
    /// context (a `Context`, its own `FromContext` type), the only way to an ask.
    may_ask: bool,
    /// The forms the tool's body asks for (`elicit::<T>`), checked when a server starts.
    forms: Vec<FormCheck>,
    /// The OAuth scopes a caller's token must hold to call it.
    scopes: Vec<String>,
    /// Whether its calls may run as tasks.
    task_support: TaskSupport,
    /// The parameters mirrored into headers, read from the input schema; `Err` when an
    /// annotation breaks a rule (a server refuses to start with such a tool).
    headers: Result<Vec<headers::HeaderParam>, HeaderError>,
    /// The most its answer carries at once, in bytes of text (`#[tool(result_budget)]`).
    result_budget: Option<usize>,
    /// The output schema, compiled on first use.
    #[cfg(feature = "validate-output")]
    output_validator: validate::OutputValidator,
}

type HandlerFn = dyn Fn(&Context, RawArguments<'_>) -> Invocation + Send + Sync;

#[derive(Clone)]
enum Handler {
    Fn(fn(&Context, RawArguments<'_>) -> Invocation),
    Closure(Arc<HandlerFn>),
}

impl Tool {
    /// Builds a tool at run time, for servers whose tools come from data.
    ///
    /// The schema must be a JSON object schema (`{"type": "object", ...}`); the closure
    /// receives the call's arguments object (empty when the client sent none) and returns
    /// anything a `#[tool]` fn may return. Checking the arguments against the schema is the
    /// closure's job.
    ///
    /// ```
    /// use mcp_toolkit::{Context, Tool, ToolError};
    /// use serde_json::json;
    ///
    /// let greet = Tool::from_json(
    ///     "greet",
    ///     "Greets someone by name.",
    ///     json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}),
    ///     |args, _cx: Context| async move {
    ///         let name = args.get("name").and_then(|v| v.as_str()).ok_or(ToolError::new("`name` must be a string"))?;
    ///         Ok::<_, ToolError>(format!("Hello, {name}!"))
    ///     },
    /// )
    /// .unwrap();
    /// assert_eq!(greet.name(), "greet");
    ///
    /// let bad = Tool::from_json("no spaces", "x", json!({"type": "object"}), |_, _| async { "" });
    /// assert!(bad.is_err());
    /// ```
    pub fn from_json<F, Fut, R>(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: Value,
        handler: F,
    ) -> Result<Tool, DefinitionError>
    where
        F: Fn(Map<String, Value>, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
        R: IntoCallToolResult,
    {
        let name = name.into();
        validate_tool_name(&name)?;
        let input_schema = match input_schema {
            Value::Object(map) if map.get("type").and_then(Value::as_str) == Some("object") => map,
            other => {
                return Err(DefinitionError::InvalidInputSchema {
                    tool: name,
                    schema: other,
                });
            }
        };
        let headers = headers::scan(&input_schema).map_err(|error| DefinitionError::InvalidHeader {
            tool: name.clone(),
            error,
        })?;
        let handler = Arc::new(handler);
        let invoke = move |cx: &Context, raw: RawArguments<'_>| -> Invocation {
            let args = match raw.into_map() {
                Ok(map) => map,
                Err(received) => {
                    return Invocation::Ready(CallToolResult::error(format!(
                        "the arguments must be a JSON object; received {received}"
                    )));
                }
            };
            let future = handler(args, cx.clone());
            Invocation::future(async move { future.await.into_call_tool_result() })
        };
        Ok(Tool {
            def: Arc::new(Definition {
                name,
                title: None,
                description: Some(description.into()),
                input_schema,
                output_schema: None,
                annotations: None,
                icons: Vec::new(),
                meta: None,
                required_state: Vec::new(),
                may_ask: true,
                forms: Vec::new(),
                scopes: Vec::new(),
                task_support: TaskSupport::Forbidden,
                headers: Ok(headers),
                result_budget: None,
                #[cfg(feature = "validate-output")]
                output_validator: Default::default(),
            }),
            handler: Handler::Closure(Arc::new(invoke)),
        })
    }

    /// Sets the display title.
    ///
    /// ```
    /// # use mcp_toolkit::{tool, tools};
    /// # /// Adds two numbers.
    /// # #[tool]
    /// # fn add(a: i64, b: i64) -> i64 { a + b }
    /// let add = tools![add].remove(0).with_title("Addition");
    /// assert_eq!(add.title(), Some("Addition"));
    /// ```
    pub fn with_title(mut self, title: impl Into<String>) -> Tool {
        self.def_mut().title = Some(title.into());
        self
    }

    /// Sets the behaviour hints, replacing those the tool had.
    ///
    /// ```
    /// use mcp_toolkit::tool::ToolAnnotations;
    /// # use mcp_toolkit::{tool, tools};
    /// # /// Adds two numbers.
    /// # #[tool]
    /// # fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let mut hints = ToolAnnotations::default();
    /// hints.read_only_hint = Some(true);
    /// let add = tools![add].remove(0).with_annotations(hints);
    /// assert_eq!(add.annotations().unwrap().read_only_hint, Some(true));
    /// ```
    pub fn with_annotations(mut self, annotations: ToolAnnotations) -> Tool {
        self.def_mut().annotations = Some(annotations);
        self
    }

    /// Sets the output schema: the JSON Schema of the `structuredContent` the tool returns.
    /// A `#[tool]` returning [`Json<T>`](crate::Json) has one from `T`; this is for tools built
    /// with [`Tool::from_json`].
    ///
    /// ```
    /// use mcp_toolkit::{CallToolResult, Tool};
    /// use serde_json::json;
    ///
    /// let now = Tool::from_json("now", "The time.", json!({"type": "object"}), |_, _| async {
    ///     CallToolResult::structured(&json!({"hour": 12, "minute": 30}))
    /// })
    /// .unwrap()
    /// .with_output_schema(json!({"type": "object", "properties": {"hour": {"type": "integer"}, "minute": {"type": "integer"}}}));
    /// assert_eq!(now.output_schema().unwrap()["properties"]["hour"]["type"], "integer");
    /// ```
    pub fn with_output_schema(mut self, schema: Value) -> Tool {
        let def = self.def_mut();
        def.output_schema = Some(schema);
        #[cfg(feature = "validate-output")]
        {
            def.output_validator = Default::default();
        }
        self
    }

    /// Renames the tool, checking the new name as [`validate_tool_name`] does: to offer one
    /// tool under two names, say, or to fit a model API's rules.
    ///
    /// ```
    /// # use mcp_toolkit::{tool, tools};
    /// # /// Adds two numbers.
    /// # #[tool]
    /// # fn add(a: i64, b: i64) -> i64 { a + b }
    /// let plus = tools![add].remove(0).with_name("plus").unwrap();
    /// assert_eq!(plus.name(), "plus");
    /// assert!(tools![add].remove(0).with_name("add numbers").is_err());
    /// ```
    pub fn with_name(mut self, name: impl Into<String>) -> Result<Tool, DefinitionError> {
        let name = name.into();
        validate_tool_name(&name)?;
        self.def_mut().name = name;
        Ok(self)
    }

    /// Sets its task support, without linking the task engine (see `Tool::with_task_support`,
    /// which does).
    pub(crate) fn set_task_support(&mut self, support: TaskSupport) {
        self.def_mut().task_support = support;
    }

    /// Mirrors an argument into an HTTP header (revision 2026-07-28): the property
    /// `property` of the input schema gets `"x-mcp-header": name`, and clients calling over
    /// Streamable HTTP send its value as the header `Mcp-Param-{name}` too, which the
    /// server checks against the body. What `#[header("...")]` does for a `#[tool]`
    /// parameter, for tools built with [`Tool::from_json`]. The property must be a string,
    /// an integer or a boolean, and `name` an HTTP token, unique in the tool ignoring case;
    /// `Err` says which rule is broken.
    ///
    /// ```
    /// use mcp_toolkit::Tool;
    /// use serde_json::json;
    ///
    /// let schema = json!({"type": "object", "properties": {"region": {"type": "string"}, "query": {"type": "string"}}});
    /// let run = Tool::from_json("run_query", "Runs a query.", schema, |_, _| async { "done" })
    ///     .unwrap()
    ///     .with_header("region", "Region")
    ///     .unwrap();
    /// assert_eq!(run.input_schema()["properties"]["region"]["x-mcp-header"], "Region");
    ///
    /// // Header names are compared ignoring case.
    /// assert!(run.clone().with_header("query", "REGION").is_err());
    /// assert!(run.with_header("missing", "Missing").is_err());
    /// ```
    pub fn with_header(mut self, property: &str, name: &str) -> Result<Tool, DefinitionError> {
        let tool = self.def.name.clone();
        let invalid = |error| DefinitionError::InvalidHeader {
            tool: tool.clone(),
            error,
        };
        let def = self.def_mut();
        let schema = def
            .input_schema
            .get_mut("properties")
            .and_then(|properties| properties.get_mut(property))
            .and_then(Value::as_object_mut)
            .ok_or_else(|| {
                invalid(HeaderError::NoSuchProperty {
                    property: property.to_owned(),
                })
            })?;
        schema.insert(headers::ANNOTATION.to_owned(), Value::String(name.to_owned()));
        def.headers = headers::scan(&def.input_schema);
        match &def.headers {
            Ok(_) => Ok(self),
            Err(error) => Err(invalid(error.clone())),
        }
    }

    /// Whether the tool's calls may run as tasks.
    ///
    /// ```
    /// use mcp_toolkit::tool::TaskSupport;
    /// # use mcp_toolkit::{tool, tools};
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// assert_eq!(tools![add][0].task_support(), TaskSupport::Forbidden);
    /// ```
    pub fn task_support(&self) -> TaskSupport {
        self.def.task_support
    }

    /// Sets its result budget, without linking the spilling (see `Tool::with_result_budget`,
    /// which does).
    pub(crate) fn set_result_budget(&mut self, bytes: usize) {
        self.def_mut().result_budget = Some(bytes.max(MIN_RESULT_BUDGET));
    }

    /// The tool's own result budget, if it has one (`#[tool(result_budget = ...)]`).
    ///
    /// ```
    /// # use mcp_toolkit::{tool, tools};
    /// /// Exports everything.
    /// #[tool(result_budget = 50_000)]
    /// fn export() -> String { String::new() }
    ///
    /// assert_eq!(tools![export][0].result_budget(), Some(50_000));
    /// ```
    pub fn result_budget(&self) -> Option<usize> {
        self.def.result_budget
    }

    fn def_mut(&mut self) -> &mut Definition {
        Arc::make_mut(&mut self.def)
    }

    /// The name clients call the tool by.
    ///
    /// ```
    /// # use mcp_toolkit::{tool, tools};
    /// /// Adds two numbers.
    /// #[tool(name = "add")]
    /// fn plus(a: i64, b: i64) -> i64 { a + b }
    ///
    /// assert_eq!(tools![plus][0].name(), "add");
    /// ```
    pub fn name(&self) -> &str {
        &self.def.name
    }

    /// The display title: `#[tool(title = "...")]`, or else one made from the name.
    ///
    /// ```
    /// # use mcp_toolkit::{tool, tools};
    /// /// Counts the words of a text.
    /// #[tool]
    /// fn count_words(text: String) -> usize { text.split_whitespace().count() }
    ///
    /// assert_eq!(tools![count_words][0].title(), Some("Count Words"));
    /// ```
    pub fn title(&self) -> Option<&str> {
        self.def.title.as_deref()
    }

    /// What the tool does, for the model: the fn's doc comment, or
    /// `#[tool(description = "...")]`.
    ///
    /// ```
    /// # use mcp_toolkit::{tool, tools};
    /// # /// Adds two numbers.
    /// # #[tool]
    /// # fn add(a: i64, b: i64) -> i64 { a + b }
    /// assert_eq!(tools![add][0].description(), Some("Adds two numbers."));
    /// ```
    pub fn description(&self) -> Option<&str> {
        self.def.description.as_deref()
    }

    /// The JSON Schema of the arguments: an object schema with a property per argument.
    ///
    /// ```
    /// use serde_json::json;
    /// # use mcp_toolkit::{tool, tools};
    /// # /// Adds two numbers.
    /// # #[tool]
    /// # fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let add = tools![add].remove(0);
    /// assert_eq!(add.input_schema()["required"], json!(["a", "b"]));
    /// assert_eq!(add.input_schema()["properties"]["a"], json!({"type": "integer"}));
    /// ```
    pub fn input_schema(&self) -> &Map<String, Value> {
        &self.def.input_schema
    }

    /// The JSON Schema of the structured output, for tools that have one (a `#[tool]`
    /// returning [`Json<T>`](crate::Json)).
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Json};
    ///
    /// /// Lists the primes below ten.
    /// #[tool]
    /// fn primes() -> Json<Vec<u32>> { Json(vec![2, 3, 5, 7]) }
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// assert_eq!(tools![primes][0].output_schema().unwrap()["type"], "array");
    /// assert!(tools![add][0].output_schema().is_none());
    /// ```
    pub fn output_schema(&self) -> Option<&Value> {
        self.def.output_schema.as_ref()
    }

    /// The behaviour hints, if any were given.
    ///
    /// ```
    /// # use mcp_toolkit::{tool, tools};
    /// /// Deletes a file.
    /// #[tool(annotations(destructive, idempotent))]
    /// fn delete(path: String) -> String { format!("deleted {path}") }
    ///
    /// let delete = tools![delete].remove(0);
    /// let hints = delete.annotations().unwrap();
    /// assert_eq!((hints.destructive_hint, hints.idempotent_hint, hints.read_only_hint), (Some(true), Some(true), None));
    /// ```
    pub fn annotations(&self) -> Option<&ToolAnnotations> {
        self.def.annotations.as_ref()
    }

    /// The icons (sent from revision 2025-11-25 on).
    ///
    /// ```
    /// # use mcp_toolkit::{tool, tools};
    /// /// Adds two numbers.
    /// #[tool(icons(icon(src = "https://example.com/add.png", mime_type = "image/png", sizes = ["48x48"])))]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let add = tools![add].remove(0);
    /// assert_eq!(add.icons()[0].sizes, ["48x48"]);
    /// ```
    pub fn icons(&self) -> &[Icon] {
        &self.def.icons
    }

    /// The definition's `_meta` (sent from revision 2025-06-18 on).
    ///
    /// ```
    /// # use mcp_toolkit::{tool, tools};
    /// /// Adds two numbers.
    /// #[tool(meta("com.example/cost" = 1, team = "math"))]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let add = tools![add].remove(0);
    /// assert_eq!(add.meta().unwrap()["com.example/cost"], 1);
    /// assert_eq!(add.meta().unwrap()["team"], "math");
    /// ```
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.def.meta.as_ref()
    }

    /// The definition as a client of this protocol revision sees it: fields the revision
    /// does not know are left out, and a non-object output schema is wrapped as
    /// `{"result": ...}` where the revision requires objects (its results are wrapped
    /// the same way).
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Json, protocol::ProtocolVersion};
    ///
    /// /// Lists the primes below ten.
    /// #[tool]
    /// fn primes() -> Json<Vec<u32>> { Json(vec![2, 3, 5, 7]) }
    ///
    /// let primes = tools![primes].remove(0);
    /// let modern = primes.definition(ProtocolVersion::V2026_07_28);
    /// assert_eq!(modern["outputSchema"]["type"], "array");
    /// let legacy = primes.definition(ProtocolVersion::V2025_06_18);
    /// assert_eq!(legacy["outputSchema"]["properties"]["result"]["type"], "array");
    /// let oldest = primes.definition(ProtocolVersion::V2024_11_05);
    /// assert!(oldest.get("outputSchema").is_none() && oldest.get("title").is_none());
    /// ```
    pub fn definition(&self, version: ProtocolVersion) -> Value {
        let d = &self.def;
        let mut map = Map::new();
        map.insert("name".into(), Value::String(d.name.clone()));
        let v2025_06 = version >= ProtocolVersion::V2025_06_18;
        if let (true, Some(title)) = (v2025_06, &d.title) {
            map.insert("title".into(), Value::String(title.clone()));
        }
        if let Some(description) = &d.description {
            map.insert("description".into(), Value::String(description.clone()));
        }
        map.insert("inputSchema".into(), Value::Object(d.input_schema.clone()));
        if let (true, Some(output)) = (version.has_structured_output(), &d.output_schema) {
            let output = if self.wraps_structured_output(version) {
                schema::wrap_output_schema(output)
            } else {
                output.clone()
            };
            map.insert("outputSchema".into(), output);
        }
        if let (true, Some(annotations)) = (version >= ProtocolVersion::V2025_03_26, &d.annotations) {
            map.insert(
                "annotations".into(),
                serde_json::to_value(annotations).unwrap_or_default(),
            );
        }
        if version >= ProtocolVersion::V2025_11_25 && !d.icons.is_empty() {
            map.insert("icons".into(), serde_json::to_value(&d.icons).unwrap_or_default());
        }
        if let (true, Some(meta)) = (v2025_06, &d.meta) {
            map.insert("_meta".into(), Value::Object(meta.clone()));
        }
        Value::Object(map)
    }

    /// Whether this revision gets the tool's structured output wrapped as `{"result": ...}`:
    /// it requires objects and the output schema does not promise one.
    pub(crate) fn wraps_structured_output(&self, version: ProtocolVersion) -> bool {
        version.structured_output_must_be_object()
            && self
                .def
                .output_schema
                .as_ref()
                .is_some_and(|s| !schema::is_object_schema(s))
    }

    /// Whether `result` matches the tool's output schema (feature `validate-output`); `Err`
    /// says how it does not. A tool without an output schema accepts any result.
    #[cfg(feature = "validate-output")]
    pub(crate) fn check_output(&self, result: &CallToolResult) -> Result<(), String> {
        match &self.def.output_schema {
            Some(schema) => self.def.output_validator.check(schema, result),
            None => Ok(()),
        }
    }

    /// The shared state (`State<T>`) the tool's parameters need.
    #[doc(hidden)]
    pub fn required_state(&self) -> &[StateKey] {
        &self.def.required_state
    }

    /// Whether a call of this tool can ask the client things (it takes something from its
    /// context): only such calls need a round in revision 2026-07-28.
    pub(crate) fn may_ask(&self) -> bool {
        self.def.may_ask
    }

    /// The parameters mirrored into headers (none when an annotation is invalid, which the
    /// server refuses to start with).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn header_params(&self) -> &[headers::HeaderParam] {
        self.def.headers.as_deref().unwrap_or_default()
    }

    /// What is wrong with the tool's parameters mirrored into headers, if anything.
    pub(crate) fn header_error(&self) -> Option<DefinitionError> {
        let error = self.def.headers.as_ref().err()?;
        Some(DefinitionError::InvalidHeader {
            tool: self.def.name.clone(),
            error: error.clone(),
        })
    }

    /// What is wrong with the forms the tool asks for: each type that is not a form the
    /// protocol can carry, and why.
    pub(crate) fn form_errors(&self) -> Vec<(&'static str, crate::form::FormError)> {
        self.def
            .forms
            .iter()
            .filter_map(|form| (form.check.0)().err().map(|error| (form.type_name, error)))
            .collect()
    }

    /// Starts a call: decodes the arguments and, if they are good, returns the work to run.
    pub(crate) fn invoke(&self, cx: &Context, arguments: RawArguments<'_>) -> Invocation {
        match &self.handler {
            Handler::Fn(f) => f(cx, arguments),
            Handler::Closure(f) => f(cx, arguments),
        }
    }

    /// Calls the tool with a JSON arguments object, outside any server: for tests.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let add = tools![add].remove(0);
    /// let result = add.call(&Context::default(), serde_json::json!({"a": 2, "b": 3})).await;
    /// assert_eq!(result.content()[0].as_text(), Some("5"));
    ///
    /// let wrong = add.call(&Context::default(), serde_json::json!({"a": "two", "b": 3})).await;
    /// assert!(wrong.is_error());
    /// assert_eq!(wrong.content()[0].as_text(), Some("argument `a`: expected an integer, received the string \"two\""));
    /// # });
    /// ```
    pub async fn call(&self, cx: &Context, arguments: Value) -> CallToolResult {
        let text = arguments.to_string();
        match RawArguments::from_json(&text) {
            Ok(raw) => self.invoke(cx, raw).run().await,
            Err(_) => CallToolResult::error("the arguments are not valid JSON"),
        }
    }
}

impl fmt::Debug for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.def.name)
            .finish_non_exhaustive()
    }
}

/// The tool's definition as the newest protocol revision lists it.
impl Serialize for Tool {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let d = &self.def;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("name", &d.name)?;
        if let Some(title) = &d.title {
            map.serialize_entry("title", title)?;
        }
        if let Some(description) = &d.description {
            map.serialize_entry("description", description)?;
        }
        map.serialize_entry("inputSchema", &d.input_schema)?;
        if let Some(output) = &d.output_schema {
            map.serialize_entry("outputSchema", output)?;
        }
        if let Some(annotations) = &d.annotations {
            map.serialize_entry("annotations", annotations)?;
        }
        if !d.icons.is_empty() {
            map.serialize_entry("icons", &d.icons)?;
        }
        if let Some(meta) = &d.meta {
            map.serialize_entry("_meta", meta)?;
        }
        map.end()
    }
}

/// Hints about how a tool behaves, for clients deciding how to present or confirm a call.
/// They are hints: a client must not trust them from a server it does not trust.
/// `#[tool(annotations(...))]` sets them; fields left `None` are not sent, and clients
/// assume the defaults below.
///
/// ```
/// use mcp_toolkit::{tool, tools, tool::ToolAnnotations};
/// use serde_json::json;
///
/// /// Fetches a web page.
/// #[tool(annotations(read_only, open_world, title = "Fetch a page"))]
/// fn fetch(url: String) -> String { url }
///
/// let mut expected = ToolAnnotations::default();
/// expected.title = Some("Fetch a page".into());
/// expected.read_only_hint = Some(true);
/// expected.open_world_hint = Some(true);
/// assert_eq!(tools![fetch][0].annotations(), Some(&expected));
/// assert_eq!(
///     serde_json::to_value(&expected).unwrap(),
///     json!({"title": "Fetch a page", "readOnlyHint": true, "openWorldHint": true})
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolAnnotations {
    /// A display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not change its environment (default `false`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may destroy or overwrite, not only add (default `true`; meaningful when not
    /// read-only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling again with the same arguments has no further effect (default `false`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool reaches an open world of external entities, such as the web (default
    /// `true`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

/// An icon a client may show for a tool.
///
/// ```
/// use mcp_toolkit::{tool::Icon, tool::IconTheme};
/// let icon = Icon::new("https://example.com/calc.svg")
///     .with_mime_type("image/svg+xml")
///     .with_size("any")
///     .with_theme(IconTheme::Dark);
/// assert_eq!(
///     serde_json::to_value(&icon).unwrap(),
///     serde_json::json!({"src": "https://example.com/calc.svg", "mimeType": "image/svg+xml", "sizes": ["any"], "theme": "dark"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Icon {
    /// An `https:` URL or a `data:` URI.
    pub src: String,
    /// The MIME type, when the source does not make it clear.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Sizes such as `48x48`, or `any` for scalable formats.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<String>,
    /// The background the icon is drawn for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<IconTheme>,
}

impl Icon {
    /// An icon at this URL or `data:` URI, with nothing else said about it.
    ///
    /// ```
    /// use mcp_toolkit::tool::Icon;
    ///
    /// let icon = Icon::new("https://example.com/calc.png");
    /// assert_eq!(serde_json::to_value(&icon).unwrap(), serde_json::json!({"src": "https://example.com/calc.png"}));
    /// ```
    pub fn new(src: impl Into<String>) -> Icon {
        Icon {
            src: src.into(),
            mime_type: None,
            sizes: Vec::new(),
            theme: None,
        }
    }

    /// Sets the MIME type.
    ///
    /// ```
    /// use mcp_toolkit::tool::Icon;
    ///
    /// let icon = Icon::new("data:image/svg+xml;base64,PHN2Zy8+").with_mime_type("image/svg+xml");
    /// assert_eq!(icon.mime_type.as_deref(), Some("image/svg+xml"));
    /// ```
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Icon {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Adds a size, such as `48x48`, or `any` for a scalable format.
    ///
    /// ```
    /// use mcp_toolkit::tool::Icon;
    ///
    /// let icon = Icon::new("https://example.com/calc.png").with_size("48x48").with_size("96x96");
    /// assert_eq!(icon.sizes, ["48x48", "96x96"]);
    /// ```
    pub fn with_size(mut self, size: impl Into<String>) -> Icon {
        self.sizes.push(size.into());
        self
    }

    /// Sets the theme.
    ///
    /// ```
    /// use mcp_toolkit::{tool::Icon, tool::IconTheme};
    ///
    /// let icon = Icon::new("https://example.com/calc-dark.png").with_theme(IconTheme::Dark);
    /// assert_eq!(icon.theme, Some(IconTheme::Dark));
    /// ```
    pub fn with_theme(mut self, theme: IconTheme) -> Icon {
        self.theme = Some(theme);
        self
    }
}

/// The background an icon is designed for.
///
/// ```
/// use mcp_toolkit::tool::IconTheme;
///
/// assert_eq!("dark".parse::<IconTheme>(), Ok(IconTheme::Dark));
/// assert_eq!("dim".parse::<IconTheme>().unwrap_err().to_string(), "unknown icon theme `dim`; expected `light` or `dark`");
/// assert_eq!(serde_json::to_value(IconTheme::Light).unwrap(), "light");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum IconTheme {
    /// A light background.
    Light,
    /// A dark background.
    Dark,
}

impl std::str::FromStr for IconTheme {
    type Err = UnknownIconTheme;

    /// `"light"` or `"dark"`, as the protocol spells them.
    fn from_str(s: &str) -> Result<IconTheme, UnknownIconTheme> {
        match s {
            "light" => Ok(IconTheme::Light),
            "dark" => Ok(IconTheme::Dark),
            _ => Err(UnknownIconTheme(s.to_owned())),
        }
    }
}

/// A text that names no [`IconTheme`]: it holds the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown icon theme `{0}`; expected `light` or `dark`")]
pub struct UnknownIconTheme(pub String);

/// Checks a tool name against the specification: 1 to 128 characters, each of
/// `A-Z a-z 0-9 _ - .`. `#[tool]` applies the same rule at compile time, with the same
/// message.
///
/// ```
/// use mcp_toolkit::tool::validate_tool_name;
/// assert!(validate_tool_name("admin.tools.list").is_ok());
/// let error = validate_tool_name("my tool").unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "tool name `my tool` contains the character ` ` (a space); a name may only contain `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`"
/// );
/// ```
pub fn validate_tool_name(name: &str) -> Result<(), DefinitionError> {
    mcp_toolkit_core::name::check(name).map_err(|error| DefinitionError::InvalidName {
        name: name.to_owned(),
        error,
    })
}

/// The work a call does once its arguments are decoded.
#[doc(hidden)]
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub enum Invocation {
    /// Already answered (bad arguments, say).
    Ready(CallToolResult),
    /// An `async fn` tool's future.
    Future(Pin<Box<dyn Future<Output = CallToolResult> + Send>>),
    /// A sync fn tool, to run where blocking is allowed.
    Blocking(Box<dyn FnOnce() -> CallToolResult + Send>),
}

impl Invocation {
    /// Boxes an async tool's work.
    pub fn future<F: Future<Output = CallToolResult> + Send + 'static>(future: F) -> Invocation {
        Invocation::Future(Box::pin(future))
    }

    /// Boxes a sync tool's work.
    pub fn blocking<F: FnOnce() -> CallToolResult + Send + 'static>(work: F) -> Invocation {
        Invocation::Blocking(Box::new(work))
    }

    /// Runs the work to its result. A sync tool runs on tokio's blocking pool, so it never
    /// stalls the threads that serve other requests. A panic becomes an
    /// [internal error](CallToolResult::internal) whose detail is the panic's message: the
    /// server logs it, and the client reads `internal error`.
    pub async fn run(self) -> CallToolResult {
        match self {
            Invocation::Ready(result) => result,
            Invocation::Future(mut future) => {
                std::future::poll_fn(|cx| {
                    match std::panic::catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(cx))) {
                        Ok(poll) => poll,
                        Err(panic) => Poll::Ready(panicked(&*panic)),
                    }
                })
                .await
            }
            Invocation::Blocking(work) => match tokio::task::spawn_blocking(in_current_span(work)).await {
                Ok(result) => result,
                Err(error) if error.is_panic() => panicked(&*error.into_panic()),
                Err(error) => CallToolResult::internal(format!("the runtime cancelled the tool: {error}")),
            },
        }
    }
}

impl Invocation {
    /// Polls an `async fn` tool's future once, without a waker to call: its result if it
    /// finished (a panic made an internal error, as [`run`](Invocation::run) makes it),
    /// else the work, to run again where it can be woken.
    pub(crate) fn poll_once(
        mut future: Pin<Box<dyn Future<Output = CallToolResult> + Send>>,
    ) -> Result<CallToolResult, Invocation> {
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match std::panic::catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(&mut cx))) {
            Ok(Poll::Ready(result)) => Ok(result),
            Ok(Poll::Pending) => Err(Invocation::Future(future)),
            Err(panic) => Ok(panicked(&*panic)),
        }
    }
}

/// Work for the blocking pool that runs in the span of its caller (the request's).
fn in_current_span<T>(work: impl FnOnce() -> T) -> impl FnOnce() -> T {
    let span = tracing::Span::current();
    move || span.in_scope(work)
}

/// The result of a tool that panicked.
fn panicked(panic: &(dyn std::any::Any + Send)) -> CallToolResult {
    let message = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(a non-string panic payload)");
    CallToolResult::internal(format!("the tool panicked: {message}"))
}

/// A `#[tool]` fn: what `tools![...]` takes. `#[tool]` implements it for each fn it marks;
/// there is nothing to implement or call by hand. A name in `tools![...]` that is not a
/// `#[tool]` fn is a compile error that names this trait.
///
/// ```
/// use mcp_toolkit::{tool, tools};
///
/// /// Adds two numbers.
/// #[tool]
/// fn add(a: i64, b: i64) -> i64 {
///     a + b
/// }
///
/// assert_eq!(tools![add][0].name(), "add");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool",
    label = "not a `#[tool]` fn",
    note = "`tools![...]` takes the names of fns marked with `#[tool]`, and `tools![instance => ...]` the names of `&self` methods marked with it"
)]
pub trait ToolFn {
    /// The tool's name, checked at compile time.
    #[doc(hidden)]
    const NAME: &'static str;
    /// Builds the tool.
    #[doc(hidden)]
    fn tool() -> Tool;

    /// The tool of a method that `tools![instance => method]` names. Generated code calls it
    /// as `ToolFn::method_tool(..)`: `Self` is [`Built`] for a `#[tool]` method, and a
    /// struct named as the method for any other, which is no `ToolFn`, so the compiler says
    /// the method is not a tool, at its name.
    #[doc(hidden)]
    fn method_tool(method: MethodTool<Self>) -> Tool
    where
        Self: Sized,
    {
        match method.tool {
            Some(tool) => tool,
            None => unreachable!("a method without `#[tool]` in `tools![instance => ...]` was built"),
        }
    }
}

/// What a method yields to `tools![instance => method]`: the tool a `#[tool]` method
/// builds, marked [`Built`]; or, from any other method, nothing, marked with a struct named
/// as the method.
#[doc(hidden)]
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct MethodTool<M> {
    tool: Option<Tool>,
    marker: PhantomData<M>,
}

impl MethodTool<Built> {
    /// The tool a `#[tool]` method built.
    pub fn built(tool: Tool) -> MethodTool<Built> {
        MethodTool {
            tool: Some(tool),
            marker: PhantomData,
        }
    }
}

impl<M> MethodTool<M> {
    /// What a method without `#[tool]` yields; the crate does not compile.
    pub fn unmarked() -> MethodTool<M> {
        MethodTool {
            tool: None,
            marker: PhantomData,
        }
    }
}

/// The mark of a tool that a `#[tool]` method built: a [`ToolFn`] only so that
/// `ToolFn::method_tool` takes it; it names no fn.
#[doc(hidden)]
#[derive(Debug)]
pub struct Built;

impl ToolFn for Built {
    const NAME: &'static str = "";

    fn tool() -> Tool {
        unreachable!("`Built` marks a method's tool; it names no fn")
    }
}

/// How a tool's return type converts. Generated code builds it in one place, spanned at
/// the return type, from the conversion named by its trait, so a type that does not
/// convert fails `IntoCallToolResult` itself, reported once, there, with its message alone.
#[doc(hidden)]
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct Ret<R> {
    convert: fn(R) -> CallToolResult,
    schema: fn(&mut SchemaGenerator) -> Option<Schema>,
}

impl<R> Ret<R> {
    /// The conversion of return type `R`: `<R as IntoCallToolResult>::into_call_tool_result`
    /// and `output_schema`.
    pub const fn new(
        convert: fn(R) -> CallToolResult,
        schema: fn(&mut SchemaGenerator) -> Option<Schema>,
    ) -> Ret<R> {
        Ret { convert, schema }
    }

    /// Converts a return value.
    pub fn convert(self, value: R) -> CallToolResult {
        (self.convert)(value)
    }

    /// The output schema of the return type.
    pub fn schema(&self, generator: &mut SchemaGenerator) -> Option<Schema> {
        (self.schema)(generator)
    }
}

impl<R> Clone for Ret<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Ret<R> {}

/// Adds a `_meta` entry of a definition (a tool's, a prompt's) named `owner`; a value that
/// does not serialize is left out and logged.
pub(crate) fn insert_meta<V: Serialize + ?Sized>(
    meta: &mut Option<Map<String, Value>>,
    owner: &str,
    key: &'static str,
    value: &V,
) {
    match serde_json::to_value(value) {
        Ok(value) => {
            meta.get_or_insert_with(Map::new).insert(key.to_owned(), value);
        }
        Err(error) => tracing::error!(owner, key, %error, "a `_meta` value did not serialize; left out"),
    }
}

/// A form a tool asks for, and how to check that it is one.
#[derive(Clone, Copy)]
struct FormCheck {
    type_name: &'static str,
    check: FormCheckFn,
}

/// Checks that a type can be asked for as a form. Not public API.
#[doc(hidden)]
#[derive(Clone, Copy)]
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct FormCheckFn(fn() -> Result<(), crate::form::FormError>);

/// The check that `T` can be asked for as a form.
pub(crate) fn form_check<T: schemars::JsonSchema>() -> FormCheckFn {
    FormCheckFn(|| crate::form::requested_schema::<T>().map(drop))
}

/// Whether a tool's calls may run as tasks, the tasks extension of revision 2026-07-28
/// (`io.modelcontextprotocol/tasks`): the call is answered at once with a task the client
/// polls, and the tool goes on working.
///
/// Only a client that declares the extension on its request gets a task; see the guide's
/// tasks chapter for when a call becomes one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TaskSupport {
    /// Never a task: every call is answered with its result. The default.
    Forbidden,
    /// A task for a client that declares the extension, once the tool has to wait;
    /// a plain call for any other client (`#[tool(task)]`).
    Optional,
    /// Always a task: a client without the extension is refused, and revisions before
    /// 2026-07-28 do not list the tool (`#[tool(task = "required")]`).
    Required,
}

/// The smallest result budget, in bytes: room for a page and the line that says how to read
/// on. A smaller budget given at run time is raised to it; `#[tool(result_budget)]` refuses
/// one.
///
/// ```
/// use mcp_toolkit::tool::MIN_RESULT_BUDGET;
///
/// assert_eq!(MIN_RESULT_BUDGET, 1024);
/// ```
pub const MIN_RESULT_BUDGET: usize = 1024;

/// Assembles a tool from what the macro read. Not public API.
#[doc(hidden)]
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct ToolBuilder {
    name: &'static str,
    description: &'static str,
    title: Option<&'static str>,
    annotations: Option<ToolAnnotations>,
    icons: Vec<Icon>,
    meta: Option<Map<String, Value>>,
    properties: Vec<schema::Property>,
    required_state: Vec<StateKey>,
    may_ask: bool,
    forms: Vec<FormCheck>,
    scopes: Vec<String>,
    task_support: TaskSupport,
    result_budget: Option<usize>,
    input: schemars::SchemaGenerator,
    output_schema: Option<Value>,
}

impl ToolBuilder {
    /// Starts a tool.
    pub fn new(name: &'static str, description: &'static str) -> ToolBuilder {
        ToolBuilder {
            name,
            description,
            title: None,
            annotations: None,
            icons: Vec::new(),
            meta: None,
            properties: Vec::new(),
            required_state: Vec::new(),
            may_ask: false,
            forms: Vec::new(),
            scopes: Vec::new(),
            task_support: TaskSupport::Forbidden,
            result_budget: None,
            input: schema::input_generator(),
            output_schema: None,
        }
    }

    /// Sets the title.
    pub fn title(mut self, title: &'static str) -> ToolBuilder {
        self.title = Some(title);
        self
    }

    /// Sets the annotations.
    pub fn annotations(mut self, annotations: ToolAnnotations) -> ToolBuilder {
        self.annotations = Some(annotations);
        self
    }

    /// Adds an icon.
    pub fn icon(mut self, icon: Icon) -> ToolBuilder {
        self.icons.push(icon);
        self
    }

    /// Adds a `_meta` entry.
    pub fn meta<V: Serialize + ?Sized>(mut self, key: &'static str, value: &V) -> ToolBuilder {
        insert_meta(&mut self.meta, self.name, key, value);
        self
    }

    /// Adds a scope a caller's token must hold (`#[tool(scopes(...))]`).
    pub fn scope(mut self, scope: &'static str) -> ToolBuilder {
        self.scopes.push(scope.to_owned());
        self
    }

    /// Sets its task support, without linking the task engine (see `ToolBuilder::task`,
    /// which does).
    pub(crate) fn set_task_support(&mut self, support: TaskSupport) {
        self.task_support = support;
    }

    /// Sets its result budget, without linking the spilling (see
    /// `ToolBuilder::result_budget`, which does).
    pub(crate) fn set_result_budget(&mut self, bytes: usize) {
        self.result_budget = Some(bytes.max(MIN_RESULT_BUDGET));
    }

    /// Adds a parameter.
    pub fn param<T>(
        mut self,
        name: &'static str,
        description: Option<&'static str>,
        param: Param<T>,
    ) -> ToolBuilder {
        match param.kind {
            Kind::Injected { state, .. } => {
                self.may_ask = true;
                self.required_state.extend(state().into_keys());
            }
            Kind::Argument(argument) => {
                let mut schema = (argument.schema)(&mut self.input).to_value();
                schema::tidy(&mut schema);
                let default = match (argument.absent, argument.default_json) {
                    (Some(absent), Some(to_json)) => to_json(&absent()),
                    _ => None,
                };
                self.properties.push(schema::Property {
                    name,
                    schema,
                    description,
                    required: argument.absent.is_none(),
                    default,
                });
            }
        }
        self
    }

    /// Mirrors the parameter added last into the header `Mcp-Param-{name}`
    /// (`#[header("...")]`), which the macro has checked.
    pub fn header(mut self, name: &'static str) -> ToolBuilder {
        if let Some(Value::Object(schema)) = self.properties.last_mut().map(|p| &mut p.schema) {
            schema.insert(headers::ANNOTATION.to_owned(), Value::String(name.to_owned()));
        }
        self
    }

    /// Records a form the tool's body asks for (`elicit::<T>`), for the server to check
    /// when it starts: `check` is [`form_check`] when `T` has a schema (from
    /// `FormAsked`), and `None` otherwise, which the body's own `elicit::<T>` reports.
    pub fn asks_form<T>(mut self, check: Option<FormCheckFn>) -> ToolBuilder {
        if let Some(check) = check {
            self.forms.push(FormCheck {
                type_name: std::any::type_name::<T>(),
                check,
            });
        }
        self
    }

    /// Sets the output schema from the return type.
    pub fn output<R>(mut self, ret: Ret<R>) -> ToolBuilder {
        let mut generator = schema::output_generator();
        self.output_schema = ret
            .schema(&mut generator)
            .map(|s| schema::output_schema(s, &mut generator));
        self
    }

    /// Finishes the tool.
    pub fn build(self, handler: fn(&Context, RawArguments<'_>) -> Invocation) -> Tool {
        self.finish(Handler::Fn(handler))
    }

    /// Finishes a tool whose handler holds state (a method's instance).
    pub fn build_with(
        self,
        handler: impl Fn(&Context, RawArguments<'_>) -> Invocation + Send + Sync + 'static,
    ) -> Tool {
        self.finish(Handler::Closure(Arc::new(handler)))
    }

    fn finish(mut self, handler: Handler) -> Tool {
        let defs = schema::take_defs(&mut self.input);
        let input_schema = schema::object_schema(self.properties, defs);
        let headers = headers::scan(&input_schema);
        Tool {
            def: Arc::new(Definition {
                name: self.name.to_owned(),
                title: self.title.map(str::to_owned),
                description: Some(self.description.to_owned()),
                input_schema,
                output_schema: self.output_schema,
                annotations: self.annotations,
                icons: self.icons,
                meta: self.meta,
                required_state: self.required_state,
                may_ask: self.may_ask,
                forms: self.forms,
                scopes: self.scopes,
                task_support: self.task_support,
                headers,
                result_budget: self.result_budget,
                #[cfg(feature = "validate-output")]
                output_validator: Default::default(),
            }),
            handler,
        }
    }
}
