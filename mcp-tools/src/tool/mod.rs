//! The tool model: a [`Tool`] is a definition (name, description, schemas, annotations)
//! and a handler that turns a call's arguments into a [`CallToolResult`].

mod api;
mod app;
pub(crate) mod args;
pub(crate) mod headers;
mod hints;
pub(crate) mod param;
pub(crate) mod schema;
mod scopes;
#[cfg(feature = "validate-output")]
mod validate;

pub(crate) mod invocation;

// The items below are `pub` for generated code, which names them through
// `crate::__private`; the tool module does not show them.
pub(crate) use crate::protocol::arguments::RawArguments;
pub use headers::HeaderArgument;
pub use hints::MAX_RESULT_CHARS;
pub(crate) use hints::clamp_result_chars;
pub(crate) use invocation::{FormCheckFn, Invocation, MethodTool, form_check};
pub use param::FromArgument;
pub use scopes::ScopePolicy;

use crate::context::{Context, StateKey};
use crate::error::{DefinitionError, HeaderError};
use crate::protocol::ProtocolVersion;
use crate::result::{CallToolResult, IntoCallToolResult};
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};
use std::fmt;
use std::future::Future;
use std::sync::Arc;

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
    pub(crate) def: Arc<Definition>,
    pub(crate) handler: Handler,
}

#[derive(Clone)]
pub(crate) struct Definition {
    pub(crate) name: String,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) input_schema: Map<String, Value>,
    pub(crate) output_schema: Option<Value>,
    pub(crate) annotations: Option<ToolAnnotations>,
    pub(crate) icons: Vec<Icon>,
    pub(crate) meta: Option<Map<String, Value>>,
    pub(crate) required_state: Vec<StateKey>,
    /// Whether a call can ask the client things: the tool takes something from its
    /// context (a `Context`, its own `FromContext` type), the only way to an ask.
    pub(crate) may_ask: bool,
    /// The forms the tool's body asks for (`elicit::<T>`), checked when a server starts.
    pub(crate) forms: Vec<FormCheck>,
    /// The OAuth scopes a caller's token must hold to call it.
    pub(crate) scopes: Vec<String>,
    /// Whether its calls may run as tasks.
    pub(crate) task_support: TaskSupport,
    /// The parameters mirrored into headers, read from the input schema; `Err` when an
    /// annotation breaks a rule (a server refuses to start with such a tool).
    pub(crate) headers: Result<Vec<headers::HeaderParam>, HeaderError>,
    /// The most its answer carries at once, in bytes of text (`#[tool(result_budget)]`);
    /// `Tool::result_budget` gives it with `max_result_chars`'s.
    pub(crate) result_budget: Option<usize>,
    /// The group the server may sort its tools by (`#[tool(group)]`); never sent.
    pub(crate) group: Option<String>,
    /// The words a host's tool search should match (`#[tool(search_hint)]`).
    pub(crate) search_hint: Option<String>,
    /// Whether a host should load the tool up front (`#[tool(always_load)]`).
    pub(crate) always_load: bool,
    /// The most characters of a result hosts should accept (`#[tool(max_result_chars)]`),
    /// 1 to `MAX_RESULT_CHARS`; also a result budget.
    pub(crate) max_result_chars: Option<usize>,
    /// The view the tool's results are shown in (`#[tool(app = "ui://..")]`).
    pub(crate) app: Option<String>,
    /// Who may see and call it, when said (`#[tool(visibility = "app")]`).
    pub(crate) app_visibility: Option<Vec<crate::app::Audience>>,
    /// The `_meta` entries the two make (`ui`, `ui/resourceUri`), made when they are set.
    pub(crate) app_meta: Option<Map<String, Value>>,
    /// The output schema, compiled on first use.
    #[cfg(feature = "validate-output")]
    pub(crate) output_validator: validate::OutputValidator,
}

type HandlerFn = dyn Fn(&Context, RawArguments<'_>) -> Invocation + Send + Sync;

#[derive(Clone)]
pub(crate) enum Handler {
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
                group: None,
                search_hint: None,
                always_load: false,
                max_result_chars: None,
                app: None,
                app_visibility: None,
                app_meta: None,
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

    /// The tool's own result budget, if it has one: `#[tool(result_budget = ...)]`, or
    /// `max_result_chars` (at least [`MIN_RESULT_BUDGET`]); the smaller when both are set.
    ///
    /// ```
    /// # use mcp_toolkit::{tool, tools};
    /// /// Exports everything.
    /// #[tool(result_budget = 50_000)]
    /// fn export() -> String { String::new() }
    ///
    /// /// Exports everything, for hosts that take 20,000 characters.
    /// #[tool(result_budget = 50_000, max_result_chars = 20_000)]
    /// fn export_for_hosts() -> String { String::new() }
    ///
    /// assert_eq!(tools![export][0].result_budget(), Some(50_000));
    /// assert_eq!(tools![export_for_hosts][0].result_budget(), Some(20_000));
    /// ```
    pub fn result_budget(&self) -> Option<usize> {
        hints::own_budget(self.def.result_budget, self.def.max_result_chars)
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

    /// The definition's `_meta` as `meta(...)` gave it (sent from revision 2025-06-18 on).
    /// The hints for hosts ([`Tool::search_hint`], [`Tool::always_load`],
    /// [`Tool::max_result_chars`]) join it when the tool is listed, in every revision.
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
    /// the same way). The hints for hosts are in `_meta` in every revision; the rest of
    /// `_meta` from 2025-06-18 on.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Json, protocol::ProtocolVersion};
    /// use serde_json::json;
    ///
    /// /// Lists the primes below ten.
    /// #[tool(always_load, meta(team = "math"))]
    /// fn primes() -> Json<Vec<u32>> { Json(vec![2, 3, 5, 7]) }
    ///
    /// let primes = tools![primes].remove(0);
    /// let modern = primes.definition(ProtocolVersion::V2026_07_28);
    /// assert_eq!(modern["outputSchema"]["type"], "array");
    /// assert_eq!(modern["_meta"], json!({"team": "math", "anthropic/alwaysLoad": true}));
    /// let legacy = primes.definition(ProtocolVersion::V2025_06_18);
    /// assert_eq!(legacy["outputSchema"]["properties"]["result"]["type"], "array");
    /// let oldest = primes.definition(ProtocolVersion::V2024_11_05);
    /// assert!(oldest.get("outputSchema").is_none() && oldest.get("title").is_none());
    /// assert_eq!(oldest["_meta"], json!({"anthropic/alwaysLoad": true}));
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
        if let Some(meta) = self.listed_meta(v2025_06) {
            map.insert("_meta".into(), Value::Object(meta));
        }
        Value::Object(map)
    }

    /// The `_meta` a listing sends: the user's entries where the revision has `_meta`
    /// (`with_user_meta`), then the hints for hosts, in every revision, replacing an entry of
    /// the same key.
    fn listed_meta(&self, with_user_meta: bool) -> Option<Map<String, Value>> {
        let d = &self.def;
        let mut meta = if with_user_meta { d.meta.clone() } else { None };
        hints::insert_hints(
            &mut meta,
            d.always_load,
            d.search_hint.as_deref(),
            d.max_result_chars,
        );
        if let Some(app) = &d.app_meta {
            // A link to a view replaces `meta(...)` entries of its keys, as the hints do.
            meta.get_or_insert_with(Map::new).extend(app.clone());
        }
        meta
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
    pub(crate) fn required_state(&self) -> &[StateKey] {
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
        if let Some(meta) = self.listed_meta(true) {
            map.serialize_entry("_meta", &meta)?;
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
pub(crate) struct FormCheck {
    pub(crate) type_name: &'static str,
    pub(crate) check: FormCheckFn,
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
