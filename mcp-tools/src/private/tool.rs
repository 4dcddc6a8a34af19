//! What `#[tool]` expands to: the builder that assembles a tool, and its return type's
//! conversion.

use crate::context::{Context, StateKey};
use crate::result::CallToolResult;
use crate::tool::invocation::{FormCheckFn, Invocation};
use crate::tool::param::{Kind, Param};
use crate::tool::{
    Definition, FormCheck, Handler, Icon, MIN_RESULT_BUDGET, RawArguments, TaskSupport, Tool,
    ToolAnnotations, clamp_result_chars, headers, insert_meta, schema,
};
use schemars::{Schema, SchemaGenerator};
use serde::Serialize;
use serde_json::{Map, Value};
use std::sync::Arc;

/// How a tool's return type converts. Generated code builds it in one place, spanned at
/// the return type, from the conversion named by its trait, so a type that does not
/// convert fails `IntoCallToolResult` itself, reported once, there, with its message alone.
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

/// How the `_meta` of a tool's link to a view is made (`app::tool_meta`).
type AppMetaFn = fn(Option<&str>, Option<&[crate::app::Audience]>) -> Map<String, Value>;

/// Assembles a tool from what the macro read. Not public API.
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
    group: Option<&'static str>,
    search_hint: Option<&'static str>,
    always_load: bool,
    max_result_chars: Option<usize>,
    app: Option<&'static str>,
    app_visibility: Option<Vec<crate::app::Audience>>,
    /// Makes the `_meta` of a link to a view: set only by `app` and `app_visibility`, so a
    /// server without views does not link it.
    app_meta: Option<AppMetaFn>,
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
            group: None,
            search_hint: None,
            always_load: false,
            max_result_chars: None,
            app: None,
            app_visibility: None,
            app_meta: None,
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

    /// Sets the group (`#[tool(group = "...")]`), which the macro has checked.
    pub fn group(mut self, group: &'static str) -> ToolBuilder {
        self.group = Some(group);
        self
    }

    /// Sets the words a host's tool search should match (`#[tool(search_hint = "...")]`),
    /// which the macro has checked are not blank.
    pub fn search_hint(mut self, hint: &'static str) -> ToolBuilder {
        self.search_hint = Some(hint);
        self
    }

    /// Links the tool to the view at `uri` (`#[tool(app = "ui://..")]`, or `app = board`,
    /// the view's fn, whose URI is `<board as ViewFn>::URI`), which the macro has checked is
    /// a fixed `ui://` URI; the server checks at start that it serves that view.
    pub fn app(mut self, uri: &'static str) -> ToolBuilder {
        self.app = Some(uri);
        self.app_meta = Some(crate::app::tool_meta);
        self
    }

    /// Says who may see and call the tool (`#[tool(visibility = "app")]`, or
    /// `["model", "app"]`), each once, as the macro has checked.
    pub fn app_visibility(mut self, audiences: &[crate::app::Audience]) -> ToolBuilder {
        self.app_visibility = Some(audiences.to_vec());
        self.app_meta = Some(crate::app::tool_meta);
        self
    }

    /// Asks hosts to load the tool up front (`#[tool(always_load)]`).
    pub fn always_load(mut self) -> ToolBuilder {
        self.always_load = true;
        self
    }

    /// Sets how many characters of a result hosts should accept, without linking the
    /// spilling (see `ToolBuilder::max_result_chars`, which does). With a `result_budget`
    /// too, the smaller is the budget, in whichever order they came.
    pub(crate) fn set_max_result_chars(&mut self, chars: usize) {
        self.max_result_chars = Some(clamp_result_chars(chars));
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
                group: self.group.map(str::to_owned),
                search_hint: self.search_hint.map(str::to_owned),
                always_load: self.always_load,
                max_result_chars: self.max_result_chars,
                app_meta: self
                    .app_meta
                    .map(|meta| meta(self.app, self.app_visibility.as_deref())),
                app: self.app.map(str::to_owned),
                app_visibility: self.app_visibility,
                #[cfg(feature = "validate-output")]
                output_validator: Default::default(),
            }),
            handler,
        }
    }
}
