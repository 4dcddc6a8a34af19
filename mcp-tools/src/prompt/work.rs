//! The work of one request a handler answers (`prompts/get`, `resources/read`, a custom
//! method), and the request's arguments: public items that only `crate::__private` names.

use crate::context::Context;
use crate::error::ToolError;
use crate::prompt::GetPromptResult;
use crate::protocol::arguments::RawArguments;
use crate::tool::args::{Arguments, Of, Refusal};
use crate::tool::param::Param;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::Poll;

/// Why a `prompts/get` has no messages.
#[derive(Debug, Clone, PartialEq)]
pub enum HandlerError {
    /// The arguments do not fit the prompt's parameters: every problem (`-32602`).
    Arguments(String),
    /// The prompt's fn failed: its error, as a tool's would be.
    Failed(ToolError),
}

/// The work of one request a handler answers (`prompts/get`, `resources/read`): its
/// result `T`, or why there is none.
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub enum Work<T> {
    /// Answered already (bad arguments, a sync fn).
    Ready(Result<T, HandlerError>),
    /// An `async fn`'s future.
    Future(Pin<Box<dyn Future<Output = Result<T, HandlerError>> + Send>>),
}

/// The work of one `prompts/get`.
pub type PromptInvocation = Work<GetPromptResult>;

impl<T: Send + 'static> Work<T> {
    /// Boxes an async fn's work.
    pub fn future<F>(future: F) -> Work<T>
    where
        F: Future<Output = Result<T, HandlerError>> + Send + 'static,
    {
        Work::Future(Box::pin(future))
    }

    /// A sync fn's result, made at once: prompts and resources are assembled, not
    /// scheduled. A panic is an internal error, as a tool's is.
    pub fn now(fill: impl FnOnce() -> Result<T, HandlerError>) -> Work<T> {
        Work::Ready(
            std::panic::catch_unwind(AssertUnwindSafe(fill)).unwrap_or_else(|panic| Err(panicked(&*panic))),
        )
    }

    /// Runs the work to its result; a panic becomes an internal error.
    pub(crate) async fn run(self) -> Result<T, HandlerError> {
        match self {
            Work::Ready(result) => result,
            Work::Future(mut future) => {
                std::future::poll_fn(|cx| {
                    match std::panic::catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(cx))) {
                        Ok(poll) => poll,
                        Err(panic) => Poll::Ready(Err(panicked(&*panic))),
                    }
                })
                .await
            }
        }
    }
}

fn panicked(panic: &(dyn std::any::Any + Send)) -> HandlerError {
    let message = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(a non-string panic payload)");
    HandlerError::Failed(ToolError::internal(format!("the handler panicked: {message}")))
}

/// A request's arguments (a prompt's, a resource template's variables), all strings on
/// the wire, split by parameter: a tool's [`Arguments`], reading strings.
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct RequestArguments<'a, T>(Arguments<'a>, std::marker::PhantomData<fn() -> T>);

/// A prompt's arguments.
pub type PromptArguments<'a> = RequestArguments<'a, GetPromptResult>;

impl<'a, T> RequestArguments<'a, T> {
    /// Matches a request's arguments to the handler's parameters.
    pub fn parse(
        raw: RawArguments<'a>,
        names: &'static [&'static str],
    ) -> Result<RequestArguments<'a, T>, Work<T>> {
        Arguments::split(raw, names, Of::Prompt)
            .map(|args| RequestArguments(args, std::marker::PhantomData))
            .map_err(|problem| Work::Ready(Err(HandlerError::Arguments(problem))))
    }

    /// Fills parameter `index`; `None` when that failed.
    pub fn take<P>(&mut self, index: usize, param: Param<P>, cx: &Context) -> Option<P> {
        self.0.take(index, param, cx)
    }

    /// Checks for arguments no parameter took; `Err` when anything failed.
    pub fn finish(&mut self) -> Result<(), crate::tool::args::Rejected> {
        self.0.finish()
    }

    /// The failed request's error.
    pub fn into_failure(self) -> Work<T> {
        Work::Ready(Err(match self.0.into_refusal() {
            Refusal::Problems(problems) => HandlerError::Arguments(problems),
            Refusal::Internal(detail) => HandlerError::Failed(ToolError::internal(detail)),
        }))
    }
}
