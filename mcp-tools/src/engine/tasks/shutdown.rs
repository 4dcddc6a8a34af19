//! A server that shuts down lets the tasks running here finish for its grace, then writes
//! each one still running as `failed`, so that no client waits on a task nobody runs, and
//! none reads the generic failure of a lease run out.

use crate::engine::state::core::Engine;
use crate::engine::state::task_record::Status;
use crate::protocol::ErrorCode;
use serde_json::json;
use std::future::Future;

/// What a task still running when its server shut down says, as its status message and
/// its error's message.
const SHUT_DOWN: &str = "the server shut down before the task finished";

impl Engine {
    /// Waits for the tasks running here to finish, for the server's shutdown grace at most
    /// (less if `cut_short` completes first: a second signal), then writes each one still
    /// running as `failed`. The transports call it once they take no more requests.
    pub(crate) async fn finish_tasks(&self, cut_short: impl Future<Output = ()>) {
        let runs = &self.tasks.runs;
        runs.close();
        if runs.is_empty() {
            return;
        }
        let grace = self.options.shutdown_grace;
        tracing::info!(
            tasks = runs.len(),
            "waiting up to {grace:?} for the tasks running here to finish"
        );
        tokio::select! {
            () = runs.wait() => return,
            () = tokio::time::sleep(grace) => {}
            () = cut_short => tracing::info!("asked again to stop: not waiting for the tasks any longer"),
        }
        let unfinished: Vec<(String, tokio_util::sync::CancellationToken)> = self
            .tasks
            .running()
            .iter()
            .map(|(id, cancel)| (id.clone(), cancel.clone()))
            .collect();
        for (id, cancel) in unfinished {
            // A task runs here only once the task methods are linked.
            let failed = match crate::engine::tasks::linked::hooks() {
                Some(hooks) => (hooks.fail_at_shutdown)(self, &id).await,
                None => false,
            };
            if failed {
                tracing::warn!(task = id, "a task was still running at shutdown; it is failed");
            }
            // Its tool sees `ctx.cancelled()`, for as long as the process lives.
            cancel.cancel();
        }
    }

    /// Writes task `id`, still working, as `failed` by the shutdown; whether it was.
    pub(super) async fn fail_at_shutdown(&self, id: &str) -> bool {
        let failed = self
            .update(id, |record| {
                (record.status == Status::Working).then(|| {
                    record.status = Status::Failed;
                    record.lease = None;
                    record.status_message = Some(SHUT_DOWN.to_owned());
                    record.error =
                        Some(json!({ "code": ErrorCode::INTERNAL_ERROR.get(), "message": SHUT_DOWN }));
                })
            })
            .await;
        matches!(failed, super::Written::Done)
    }
}
