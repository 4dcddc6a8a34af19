//! What `#[prompt]` expands to: the builder that assembles a prompt, and how a handler's
//! return type converts (a prompt's, a resource's, a method's).

use crate::completion::{Complete, CompletionsBuilder};
use crate::context::StateKey;
use crate::error::ToolError;
use crate::prompt::work::HandlerError;
use crate::prompt::{Definition, GetPromptResult, HandlerFn, Prompt, PromptArgument};
use crate::tool::param::{Kind, Param};
use crate::tool::{Icon, validate_tool_name};
use serde::Serialize;
use serde_json::{Map, Value};
use std::sync::Arc;

/// How a handler's return type `R` converts into its result `T` (a prompt's, a
/// resource's). Generated code builds it in one place, spanned at the return type, from the
/// conversion named by its trait (`<R as IntoPromptResult>::into_prompt_result`), so a type
/// that does not convert fails that trait's own bound, reported once, there, with its
/// message alone.
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct Converter<R, T> {
    convert: fn(R) -> Result<T, ToolError>,
}

/// How a prompt's return type converts.
pub type PromptRet<R> = Converter<R, GetPromptResult>;

impl<R, T> Converter<R, T> {
    /// A conversion by `convert`.
    pub const fn new(convert: fn(R) -> Result<T, ToolError>) -> Converter<R, T> {
        Converter { convert }
    }

    /// Converts a return value.
    pub fn convert(self, value: R) -> Result<T, HandlerError> {
        (self.convert)(value).map_err(HandlerError::Failed)
    }
}

impl<R, T> Clone for Converter<R, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R, T> Copy for Converter<R, T> {}

/// Assembles a prompt from what the macro read.
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct PromptBuilder {
    name: &'static str,
    description: Option<&'static str>,
    title: Option<&'static str>,
    icons: Vec<Icon>,
    meta: Option<Map<String, Value>>,
    arguments: Vec<PromptArgument>,
    completions: CompletionsBuilder,
    required_state: Vec<StateKey>,
    may_ask: bool,
}

impl PromptBuilder {
    /// Starts a prompt.
    pub fn new(name: &'static str, description: Option<&'static str>) -> PromptBuilder {
        debug_assert!(validate_tool_name(name).is_ok(), "checked by `#[prompt]`");
        PromptBuilder {
            name,
            description,
            title: None,
            icons: Vec::new(),
            meta: None,
            arguments: Vec::new(),
            completions: CompletionsBuilder::default(),
            required_state: Vec::new(),
            may_ask: false,
        }
    }

    /// Sets the title.
    pub fn title(mut self, title: &'static str) -> PromptBuilder {
        self.title = Some(title);
        self
    }

    /// Adds an icon.
    pub fn icon(mut self, icon: Icon) -> PromptBuilder {
        self.icons.push(icon);
        self
    }

    /// Adds a `_meta` entry.
    pub fn meta<V: Serialize + ?Sized>(mut self, key: &'static str, value: &V) -> PromptBuilder {
        crate::tool::insert_meta(&mut self.meta, self.name, key, value);
        self
    }

    /// Adds a parameter: an argument (a string on the wire), or one the framework fills in.
    pub fn param<T>(
        mut self,
        name: &'static str,
        description: Option<&'static str>,
        param: Param<T>,
    ) -> PromptBuilder {
        self.completions.param(name, &param);
        match param.kind {
            Kind::Injected { state, .. } => {
                self.may_ask = true;
                self.required_state.extend(state().into_keys());
            }
            Kind::Argument(argument) => {
                self.arguments.push(PromptArgument {
                    name: name.to_owned(),
                    description: description.map(str::to_owned),
                    required: argument.absent.is_none(),
                });
            }
        }
        self
    }

    /// Completes argument `name` with `complete` (`#[complete(..)]`), in place of the
    /// choices of its type.
    pub fn complete<M>(mut self, name: &'static str, complete: impl Complete<M>) -> PromptBuilder {
        self.completions
            .complete(name, complete, &mut self.required_state);
        self
    }

    /// Finishes the prompt.
    pub fn build(self, handler: HandlerFn) -> Prompt {
        Prompt {
            def: Arc::new(Definition {
                name: self.name.to_owned(),
                title: self.title.map(str::to_owned),
                description: self.description.map(str::to_owned),
                arguments: self.arguments,
                completions: self.completions.build(),
                icons: self.icons,
                meta: self.meta,
                required_state: self.required_state,
                may_ask: self.may_ask,
            }),
            handler,
        }
    }
}
