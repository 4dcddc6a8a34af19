//! The work of a tool call, and what generated code hands `tools![..]`: public items that
//! only `crate::__private` names.

use crate::result::CallToolResult;
use crate::tool::{Tool, ToolFn};
use std::future::Future;
use std::marker::PhantomData;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::Poll;

/// The work a call does once its arguments are decoded.
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

/// What a method yields to `tools![instance => method]`: the tool a `#[tool]` method
/// builds, marked [`Built`]; or, from any other method, nothing, marked with a struct named
/// as the method.
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct MethodTool<M> {
    pub(crate) tool: Option<Tool>,
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
#[derive(Debug)]
pub struct Built;

impl ToolFn for Built {
    const NAME: &'static str = "";

    fn tool() -> Tool {
        unreachable!("`Built` marks a method's tool; it names no fn")
    }
}

/// Checks that a type can be asked for as a form. Not public API.
#[derive(Clone, Copy)]
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct FormCheckFn(pub(crate) fn() -> Result<(), crate::form::FormError>);

/// The check that `T` can be asked for as a form.
pub(crate) fn form_check<T: schemars::JsonSchema>() -> FormCheckFn {
    FormCheckFn(|| crate::form::requested_schema::<T>().map(drop))
}
