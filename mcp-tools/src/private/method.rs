//! What `#[method]` expands to: the builder that assembles a custom method, and its params.

use crate::context::{Context, StateKey};
use crate::error::ToolError;
use crate::extension::{Definition, HandlerFn, Method};
use crate::prompt::{HandlerError, Work};
use crate::protocol::arguments::RawArguments;
use crate::tool::args::{Arguments, Of, Refusal};
use crate::tool::param::{Kind, Param};
use serde_json::Value;
use std::sync::Arc;

/// The work of one custom method's request.
pub type MethodInvocation = Work<Value>;

/// Assembles a method from what `#[method]` read.
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct MethodBuilder {
    name: &'static str,
    notification: bool,
    required_state: Vec<StateKey>,
    may_ask: bool,
}

impl MethodBuilder {
    /// Starts a method.
    pub fn new(name: &'static str) -> MethodBuilder {
        debug_assert!(
            mcp_toolkit_core::method::check(name).is_ok(),
            "checked by `#[method]`"
        );
        MethodBuilder {
            name,
            notification: false,
            required_state: Vec::new(),
            may_ask: false,
        }
    }

    /// Marks it a notification handler (its fn returns `()`).
    pub fn notification(mut self) -> MethodBuilder {
        self.notification = true;
        self
    }

    /// Adds a parameter: an argument (a member of the params), or one the framework fills in.
    pub fn param<T>(
        mut self,
        name: &'static str,
        description: Option<&'static str>,
        param: Param<T>,
    ) -> MethodBuilder {
        let _ = (name, description);
        if let Kind::Injected { state, .. } = param.kind {
            self.may_ask = true;
            self.required_state.extend(state().into_keys());
        }
        self
    }

    /// Finishes the method.
    pub fn build(self, handler: HandlerFn) -> Method {
        Method {
            def: Arc::new(Definition {
                name: self.name,
                notification: self.notification,
                required_state: self.required_state,
                may_ask: self.may_ask,
                handler,
            }),
        }
    }
}

/// A custom method's params, split by parameter: a tool's [`Arguments`], named as a
/// method's.
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct MethodArguments<'a>(Arguments<'a>);

impl<'a> MethodArguments<'a> {
    /// Matches a request's params to the fn's parameters.
    pub fn parse(
        raw: RawArguments<'a>,
        names: &'static [&'static str],
    ) -> Result<MethodArguments<'a>, MethodInvocation> {
        Arguments::split(raw, names, Of::Method)
            .map(MethodArguments)
            .map_err(|problem| Work::Ready(Err(HandlerError::Arguments(problem))))
    }

    /// Fills parameter `index`; `None` when that failed.
    pub fn take<P>(&mut self, index: usize, param: Param<P>, cx: &Context) -> Option<P> {
        self.0.take(index, param, cx)
    }

    /// Checks for params no parameter took; `Err` when anything failed.
    pub fn finish(&mut self) -> Result<(), crate::tool::args::Rejected> {
        self.0.finish()
    }

    /// The failed request's error.
    pub fn into_failure(self) -> MethodInvocation {
        Work::Ready(Err(match self.0.into_refusal() {
            Refusal::Problems(problems) => HandlerError::Arguments(problems),
            Refusal::Internal(detail) => HandlerError::Failed(ToolError::internal(detail)),
        }))
    }
}
