//! What makes the task methods part of a binary only when a server can have a task.
//!
//! The engine reaches the methods that make and serve tasks through [`Hooks`], a table of
//! function pointers that [`link`] installs. `link` is called only where a task can come
//! from: a tool given task support (`#[tool(task)]`, [`ToolBuilder::task`] and
//! [`Tool::with_task_support`], which are defined here for that reason), a store the server
//! is given (`Server::task_store`), and a store that other instances share (the
//! `sqlite` and `redis` features). A server that does none of
//! these never refers to the table, so the linker leaves the task engine out: about
//! 210 KB of the calculator's stripped binary (bench/README.md, "Footprint").
//!
//! The table is process-wide, and changes nothing a client sees: `tasks/*` is served only
//! by a server with a task tool (which installed it), and until it is installed every
//! task request is answered as by a server whose store holds no task.

use super::{Begun, TaskCall, not_found};
use crate::__private::ToolBuilder;
use crate::engine::state::core::{Auth, Engine};
use crate::engine::state::handle::Handle;
use crate::engine::wire::encode;
use crate::engine::wire::failure::{Failure, Outcome};
use crate::protocol::{ErrorCode, RequestId};
use crate::tool::{TaskSupport, Tool};
use serde_json::{Map, Value};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use tokio::sync::OwnedSemaphorePermit;

/// A future of a hook's, borrowing the engine.
type Boxed<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Turns a call into a task (`Engine::start_task`).
type Begin = fn(&Arc<Engine>, Handle<'_>, RequestId, TaskCall, Begun, OwnedSemaphorePermit);

/// Serves `tasks/get` or `tasks/cancel` on a task id.
type Serve = fn(&Arc<Engine>, Handle<'_>, String) -> Outcome;

/// Serves `tasks/update`: a task id and the answers.
type Update = fn(&Arc<Engine>, Handle<'_>, String, Answers) -> Outcome;

/// `tasks/update`'s answers, by the keys of the questions.
type Answers = Map<String, Value>;

/// The notifications of tasks, by id, with a listen stream's tag.
type Notify = for<'a> fn(&'a Engine, &'a [String], &'a Value) -> Boxed<'a, Vec<Vec<u8>>>;

/// The tasks of some ids a caller may watch.
type Watchable = for<'a> fn(&'a Engine, &'a [String], Auth<'a>) -> Boxed<'a, Vec<String>>;

/// The task methods, by function pointer.
pub(crate) struct Hooks {
    begin: Begin,
    get: Serve,
    update: Update,
    cancel: Serve,
    notifications: Notify,
    watchable: Watchable,
    /// Writes a task still working at shutdown as `failed`; whether it was.
    pub(super) fail_at_shutdown: for<'a> fn(&'a Engine, &'a str) -> Boxed<'a, bool>,
}

/// The table, once something that can make a task was built.
static LINKED: OnceLock<&'static Hooks> = OnceLock::new();

/// Installs the task methods (see the module's documentation for who calls it).
pub(crate) fn link() {
    static HOOKS: Hooks = Hooks {
        begin: Engine::start_task,
        get: Engine::serve_get,
        update: Engine::serve_update,
        cancel: Engine::serve_cancel,
        notifications: |engine, ids, tag| Box::pin(engine.notifications_of(ids, tag)),
        watchable: |engine, ids, caller| Box::pin(engine.watchable_of(ids, caller)),
        fail_at_shutdown: |engine, id| Box::pin(engine.fail_at_shutdown(id)),
    };
    LINKED.get_or_init(|| &HOOKS);
}

/// The task methods, when installed.
pub(super) fn hooks() -> Option<&'static Hooks> {
    LINKED.get().copied()
}

/// The answer to a `tasks/*` request before any task can exist: the task is not found.
fn unknown_task(req: Handle<'_>) -> Outcome {
    encode::respond_failure(req.out, Some(req.id.raw), not_found());
    Ok(())
}

impl Engine {
    /// Turns a call into a task (see `start_task`). Only a tool with task support gets here,
    /// and making one installed the methods; were they missing, the call fails.
    pub(crate) fn begin_task(
        self: &Arc<Self>,
        req: Handle<'_>,
        request_id: RequestId,
        call: TaskCall,
        begun: Begun,
        permit: OwnedSemaphorePermit,
    ) {
        match hooks() {
            Some(hooks) => (hooks.begin)(self, req, request_id, call, begun, permit),
            None => {
                req.conn.finish(&request_id);
                let failure = Failure::new(ErrorCode::INTERNAL_ERROR, "internal error: tasks are not linked");
                encode::respond_failure(req.out, Some(req.id.raw), failure);
            }
        }
    }

    /// `tasks/get`.
    pub(crate) fn tasks_get(self: &Arc<Self>, req: Handle<'_>, task_id: String) -> Outcome {
        match hooks() {
            Some(hooks) => (hooks.get)(self, req, task_id),
            None => unknown_task(req),
        }
    }

    /// `tasks/update`.
    pub(crate) fn tasks_update(
        self: &Arc<Self>,
        req: Handle<'_>,
        task_id: String,
        responses: Map<String, Value>,
    ) -> Outcome {
        match hooks() {
            Some(hooks) => (hooks.update)(self, req, task_id, responses),
            None => unknown_task(req),
        }
    }

    /// `tasks/cancel`.
    pub(crate) fn tasks_cancel(self: &Arc<Self>, req: Handle<'_>, task_id: String) -> Outcome {
        match hooks() {
            Some(hooks) => (hooks.cancel)(self, req, task_id),
            None => unknown_task(req),
        }
    }

    /// `notifications/tasks` for each of the tasks `ids` still kept, as they are now.
    pub(crate) async fn task_notifications(&self, ids: &[String], tag: &Value) -> Vec<Vec<u8>> {
        match hooks() {
            Some(hooks) => (hooks.notifications)(self, ids, tag).await,
            None => Vec::new(),
        }
    }

    /// The tasks of `ids` that `caller` may see, for a listen stream to watch.
    pub(crate) async fn watchable_tasks(&self, ids: &[String], caller: Auth<'_>) -> Vec<String> {
        match hooks() {
            Some(hooks) => (hooks.watchable)(self, ids, caller).await,
            None => Vec::new(),
        }
    }
}

impl Tool {
    /// Sets whether the tool's calls may run as tasks: what `#[tool(task)]` and
    /// `#[tool(task = "required")]` say, for tools built with [`Tool::from_json`].
    ///
    /// ```
    /// use mcp_toolkit::Tool;
    /// use mcp_toolkit::tool::TaskSupport;
    /// use serde_json::json;
    ///
    /// let export = Tool::from_json("export", "Exports everything.", json!({"type": "object"}), |_, _| async {
    ///     "exported"
    /// })
    /// .unwrap()
    /// .with_task_support(TaskSupport::Optional);
    /// assert_eq!(export.task_support(), TaskSupport::Optional);
    /// ```
    pub fn with_task_support(mut self, support: TaskSupport) -> Tool {
        link();
        self.set_task_support(support);
        self
    }
}

impl ToolBuilder {
    /// Sets whether its calls may run as tasks (`#[tool(task)]`, `#[tool(task = "required")]`).
    pub fn task(mut self, support: TaskSupport) -> ToolBuilder {
        link();
        self.set_task_support(support);
        self
    }
}
