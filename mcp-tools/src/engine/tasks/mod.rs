//! The tasks extension of revision 2026-07-28 (`io.modelcontextprotocol/tasks`, SEP-2663):
//! a `tools/call` answered with a task the client polls (`tasks/get`), answers
//! (`tasks/update`) and stops (`tasks/cancel`).
//!
//! A call of a task tool from a client that declares the extension starts as any call: its
//! asks are rounds of the call itself. When the tool first has to wait on something else,
//! the call becomes a task: it is written to the store, the client is answered with it,
//! and the tool goes on working on this instance, which holds the task's lease. A tool that
//! asks inside a task puts the task in `input_required` and its future is dropped: the
//! questions and the answers so far live in the store, and once the client has answered
//! every question, whichever instance took the last answer runs the tool again from the
//! top, each ask answered from the store.
//!
//! Every change is a compare-and-set on the task's version ([`TaskStore::replace`]), so
//! instances sharing a store agree: a cancellation is a write the instance running the task
//! hears on the store's change feed; a task whose lease ran out (its instance died) is
//! turned `failed` by whoever reads it next.

mod linked;
mod shutdown;

use crate::context::{Check, ClientChannel, Notification, Principal};
use crate::engine::state::core::{Auth, CallParts, Engine};
use crate::engine::state::handle::Handle;
use crate::engine::state::task_record::{
    Asked, Caller, Loaded, Record, Status, encode_record, millis, timestamp,
};
pub(crate) use crate::engine::state::task_record::{
    EXTENSION, StatusCell, declares_tasks, missing_extension,
};
use crate::engine::wire::connection::Connection;
use crate::engine::wire::encode;
use crate::engine::wire::era::Client;
use crate::engine::wire::failure::{Failure, Outcome};
use crate::engine::wire::outbox::Outbox;
use crate::engine::wire::rounds::{Answer, Answers, Finished, Question, Round, Rounds};
use crate::error::ClientRequestError;
use crate::protocol::jsonrpc::Id;
use crate::protocol::{ErrorCode, ProtocolVersion, RequestId};
use crate::rate::ClientKey;
use crate::result::CallToolResult;
use crate::task::{StoreError, StoredTask, now_ms};
use crate::tool::{RawArguments, TaskSupport, Tool};
pub(crate) use linked::link;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::OwnedSemaphorePermit;
use tokio_util::sync::CancellationToken;

/// How long a cancelled task's tool may go on to clean up (it sees `ctx.cancelled()`)
/// before its work is dropped.
const CANCEL_GRACE: Duration = Duration::from_secs(5);

/// How many times a change is tried again when another write to the task came first.
const RETRIES: usize = 16;

/// What became of a change to a task.
enum Written {
    /// Written.
    Done,
    /// Left as it was (the change did not apply), with the status found.
    Left(Status),
    /// The task is gone (expired) or unreadable.
    Gone,
    /// The store could not be reached.
    Unavailable,
}

/// A store failure as a client sees it: the cause logged, not sent.
fn store_failure(error: &StoreError) -> Failure {
    match error {
        StoreError::Full { .. } | StoreError::BytesFull { .. } => {
            Failure::new(ErrorCode::SERVER_BUSY, error.to_string())
        }
        _ => {
            tracing::error!(error = %error, source = ?std::error::Error::source(error), "the task store failed");
            Failure::new(
                ErrorCode::INTERNAL_ERROR,
                "internal error: the task store is unavailable",
            )
        }
    }
}

/// The error for a task id that names no task the caller may see.
fn not_found() -> Failure {
    Failure::invalid_params("task not found: unknown or expired task id")
}

/// The task's fields every shape carries (`Task`): id, status, times, TTL, poll interval.
fn task_fields(id: &str, record: &Record, map: &mut Map<String, Value>) {
    map.insert("taskId".into(), Value::String(id.to_owned()));
    map.insert(
        "status".into(),
        serde_json::to_value(record.status).unwrap_or_default(),
    );
    if let Some(message) = &record.status_message {
        map.insert("statusMessage".into(), Value::String(message.clone()));
    }
    map.insert("createdAt".into(), Value::String(timestamp(record.created_at)));
    map.insert(
        "lastUpdatedAt".into(),
        Value::String(timestamp(record.last_updated_at)),
    );
    map.insert("ttlMs".into(), Value::from(record.ttl_ms));
    map.insert("pollIntervalMs".into(), Value::from(record.poll_interval_ms));
}

/// A `DetailedTask`: the task's fields, with its result, error or questions inlined.
fn detailed(id: &str, record: &Record) -> Map<String, Value> {
    let mut map = Map::new();
    task_fields(id, record, &mut map);
    match record.status {
        Status::Completed => {
            map.insert(
                "result".into(),
                record.result.clone().unwrap_or_else(|| json!({})),
            );
        }
        Status::Failed => {
            let error = record.error.clone().unwrap_or_else(
                || json!({ "code": ErrorCode::INTERNAL_ERROR.get(), "message": "internal error" }),
            );
            map.insert("error".into(), error);
        }
        Status::InputRequired => {
            let requests: Map<String, Value> = record
                .asked
                .iter()
                .map(|asked| {
                    (
                        asked.key.clone(),
                        json!({ "method": asked.method, "params": asked.params }),
                    )
                })
                .collect();
            map.insert("inputRequests".into(), Value::Object(requests));
        }
        Status::Working | Status::Cancelled => {}
    }
    map
}

/// `notifications/tasks` for a task, tagged with the listen stream it goes on.
fn status_notification(task: &StoredTask, tag: &Value) -> Option<Vec<u8>> {
    let record: Record = serde_json::from_str(&task.data).ok()?;
    let mut params = detailed(&task.id, &record);
    params.insert("_meta".into(), tag.clone());
    Some(encode::notification("notifications/tasks", &params))
}

/// How a call that may become a task came to be, for the task to be created from.
pub(crate) struct TaskCall {
    pub(crate) tool: Tool,
    /// The call's arguments in canonical form.
    pub(crate) arguments: String,
    pub(crate) capabilities: Option<Arc<Value>>,
    pub(crate) principal: Option<Arc<Principal>>,
    /// Who the task counts against, for the bound on each client's running tasks.
    pub(crate) client: ClientKey,
    /// The round the call's asks were answered in, if it had one.
    pub(crate) round: Option<Arc<Round>>,
    /// The status message the tool has set so far.
    pub(crate) status: Arc<StatusCell>,
    /// The token the tool's context watches, if it has a context.
    pub(crate) cancel: Option<CancellationToken>,
}

/// A task running on this instance: what driving it needs besides its work.
struct Run {
    id: String,
    tool: Tool,
    /// The round its asks are answered from, if it has one.
    round: Option<Arc<Round>>,
    status: Arc<StatusCell>,
    cancel: CancellationToken,
    /// Its place among the running tasks (none for one run again after its answers).
    slot: Option<crate::engine::state::task_slots::Slot>,
    /// When its time to live runs out, in milliseconds since the epoch.
    until: u64,
}

/// A call's work that will finish as a task.
pub(crate) type TaskWork = Rounds<Pin<Box<dyn Future<Output = CallToolResult> + Send>>>;

/// What becomes of a task call: it finished before it had to wait (a `required` task is
/// created finished), or it goes on as a task.
pub(crate) enum Begun {
    Finished(CallToolResult),
    Running(TaskWork),
}

/// A channel for a tool running in a task: its asks are questions of the task (answered
/// from the store when it runs again), its notifications go nowhere (the protocol sends no
/// progress or log messages for tasks), and its status messages go to the task.
struct TaskChannel {
    round: Arc<Round>,
    status: Arc<StatusCell>,
}

impl ClientChannel for TaskChannel {
    fn notify(&self, notification: Notification) {
        tracing::debug!(
            method = notification.method,
            "a task's notification is not sent: tasks carry none"
        );
    }

    fn request(
        &self,
        method: &str,
        params: Value,
        key: Option<&str>,
        check: Check,
    ) -> Pin<Box<dyn Future<Output = Result<Value, ClientRequestError>> + Send>> {
        crate::engine::asks::client::ask_in_round(&self.round, method, params, key, check)
    }

    fn set_status(&self, message: String) {
        self.status.set(message);
    }
}

impl Engine {
    /// Whether the server has a tool that runs as a task.
    pub(crate) fn has_task_tools(&self) -> bool {
        self.tools
            .snapshot()
            .items()
            .iter()
            .any(|tool| tool.task_support() != TaskSupport::Forbidden)
    }

    /// Turns a call into a task: writes it to the store, answers the call with it once a
    /// `tasks/get` anywhere would find it, then drives its work here. A store that fails,
    /// or no place for one more running task, answers the call with an error and stops the
    /// work. The call's place among the calls in progress (`permit`) is given back: a
    /// running task holds a place of its own.
    fn start_task(
        self: &Arc<Self>,
        req: Handle<'_>,
        request_id: RequestId,
        call: TaskCall,
        begun: Begun,
        permit: OwnedSemaphorePermit,
    ) {
        let Handle { conn, id, out, .. } = req;
        let slot = match begun {
            Begun::Running(_) => match self.tasks.slots.try_take(&call.client) {
                Ok(slot) => Some(slot),
                Err(failure) => {
                    if let Some(cancel) = &call.cancel {
                        cancel.cancel();
                    }
                    conn.finish(&request_id);
                    return encode::respond_failure(out, Some(id.raw), failure);
                }
            },
            Begun::Finished(_) => None,
        };
        drop(permit);
        let engine = Arc::clone(self);
        let conn2 = Arc::clone(conn);
        let out = out.clone();
        let raw_id: Box<RawValue> = id.raw.to_owned();
        let key = request_id.clone();
        let task = conn
            .tasks()
            .spawn(tracing::Instrument::in_current_span(async move {
                let (finished, work) = match begun {
                    Begun::Finished(result) => (Some(result), None),
                    Begun::Running(work) => (None, Some(work)),
                };
                let created = engine.create_task(&call, finished.as_ref()).await;
                conn2.finish(&key);
                match created {
                    Ok((task_id, record)) => {
                        engine.answer_created(&out, &raw_id, &task_id, &record);
                        call.status.answered();
                        if let Some(work) = work {
                            engine.run_here(task_id, &record, call, work, slot);
                        }
                    }
                    Err(failure) => {
                        if let Some(cancel) = &call.cancel {
                            cancel.cancel();
                        }
                        encode::respond_failure(&out, Some(&raw_id), failure);
                    }
                }
            }));
        conn.set_abort(&request_id, task.abort_handle());
    }

    /// Answers the call that made a task with the task, as `tasks/get` would show it.
    fn answer_created(&self, out: &Outbox, raw_id: &RawValue, task_id: &str, record: &Record) {
        let mut created = Map::new();
        created.insert("resultType".into(), Value::String("task".into()));
        task_fields(task_id, record, &mut created);
        created.insert(
            "_meta".into(),
            json!({ crate::protocol::messages::META_SERVER_INFO: &*self.identity }),
        );
        out.respond_as(
            encode::result(raw_id, &created),
            crate::engine::wire::outbox::Answer::Task,
        );
    }

    /// Runs a task created working on this instance. The task outlives its request: it runs
    /// apart from the connection, which may close (stdin ends, the HTTP response is sent)
    /// without waiting for it.
    fn run_here(
        self: &Arc<Self>,
        task_id: String,
        record: &Record,
        call: TaskCall,
        work: TaskWork,
        slot: Option<crate::engine::state::task_slots::Slot>,
    ) {
        let run = Run {
            id: task_id,
            tool: call.tool,
            round: call.round,
            status: call.status,
            cancel: call.cancel.unwrap_or_default(),
            slot,
            until: record.created_at.saturating_add(record.ttl_ms),
        };
        let runs = self.tasks.runs.clone();
        runs.spawn(tracing::Instrument::in_current_span(
            Arc::clone(self).drive(run, work),
        ));
    }

    /// Writes a new task for `call`: working with this instance's lease, or already
    /// finished.
    async fn create_task(
        &self,
        call: &TaskCall,
        finished: Option<&CallToolResult>,
    ) -> Result<(String, Record), Failure> {
        let tasks = &self.tasks;
        let now = now_ms();
        let id = tasks.new_id()?;
        let mut record = Record {
            status: Status::Working,
            status_message: call.status.get(),
            created_at: now,
            last_updated_at: now,
            ttl_ms: millis(tasks.ttl),
            poll_interval_ms: millis(tasks.poll_interval),
            caller: call.principal.as_deref().map(|p| Caller {
                subject: p.subject.clone(),
                scopes: p.scopes.clone(),
                claims: p.claims.clone(),
            }),
            tool: call.tool.name().to_owned(),
            arguments: call.arguments.clone(),
            capabilities: call.capabilities.as_deref().cloned(),
            answers: call.round.as_ref().map(|r| r.taken()).unwrap_or_default(),
            asked: Vec::new(),
            result: None,
            error: None,
            lease: Some(tasks.lease_from(now)),
        };
        match finished {
            Some(result) => self.settle(&mut record, result, &call.tool),
            None => {
                if let Some(cancel) = &call.cancel {
                    tasks.running().insert(id.clone(), cancel.clone());
                }
            }
        }
        let expires_at = now.saturating_add(record.ttl_ms);
        let stored = StoredTask::new(&id, 1, expires_at, encode_record(&record));
        if let Err(error) = tasks.store.create(stored).await {
            tasks.running().remove(&id);
            return Err(store_failure(&error));
        }
        Ok((id, record))
    }

    /// Records a tool's result as the task's end: `completed` with the result as the call
    /// would have answered it (tool errors included), or `failed` with the JSON-RPC error
    /// the call would have answered.
    fn settle(&self, record: &mut Record, result: &CallToolResult, tool: &Tool) {
        record.lease = None;
        record.asked.clear();
        record.ended();
        if let Some(capability) = result.missing_capability() {
            let message = result
                .content()
                .first()
                .and_then(|c| c.as_text())
                .unwrap_or_default();
            let failure = crate::engine::asks::asking::missing_capability(message, capability);
            record.status = Status::Failed;
            record.status_message = Some(failure.message.clone());
            record.error = Some(failure_json(&failure));
            return;
        }
        let internal = result.internal_detail().is_some();
        let result = self.options.finish(tool, result.clone());
        if internal {
            // A panic or an internal error: the JSON-RPC error the call would have been
            // answered with, had it not been a task; its detail is in the server's log.
            let message = result
                .content()
                .first()
                .and_then(|c| c.as_text())
                .unwrap_or("internal error");
            record.status = Status::Failed;
            record.status_message = Some("the tool failed with an internal error".to_owned());
            record.error = Some(json!({ "code": ErrorCode::INTERNAL_ERROR.get(), "message": message }));
            return;
        }
        let wraps = tool.wraps_structured_output(ProtocolVersion::V2026_07_28);
        record.status = Status::Completed;
        record.result = Some(encode::call_result_value(&result, wraps, &self.identity));
    }

    /// Drives a task's work on this instance until it ends, asks, or is cancelled, then
    /// records how it ended.
    async fn drive(self: Arc<Self>, run: Run, work: TaskWork) {
        let finished = self.work_on(&run, work).await;
        let Run {
            id,
            tool,
            round,
            slot,
            until,
            ..
        } = run;
        drop(slot);
        self.tasks.running().remove(&id);
        match finished {
            None => {}
            Some(Finished::Complete(result)) => {
                self.record_end(&id, until, |record| {
                    (!record.status.is_terminal()).then(|| self.settle(record, &result, &tool))
                })
                .await;
            }
            Some(Finished::InputRequired(asked)) => {
                let answers = round.map(|round| round.taken()).unwrap_or_default();
                self.record_end(&id, until, |record| {
                    (record.status == Status::Working).then(|| {
                        record.status = Status::InputRequired;
                        record.lease = None;
                        record.answers.extend(answers.clone());
                        record.asked = asked
                            .iter()
                            .map(|request| Asked {
                                key: request.key.clone(),
                                method: request.method.clone(),
                                params: request.params.clone(),
                            })
                            .collect();
                    })
                })
                .await;
            }
        }
    }

    /// Polls a task's work until it finishes (`None` once cancelled): renews its lease,
    /// writes its status messages, and hears of a cancellation from any instance.
    async fn work_on(&self, run: &Run, mut work: TaskWork) -> Option<Finished> {
        let (id, cancel) = (&run.id, &run.cancel);
        let tasks = &self.tasks;
        tasks.running().insert(id.clone(), cancel.clone());
        let mut changes = tasks.store.changes();
        let mut messages = run.status.subscribe();
        messages.mark_unchanged();
        let mut renew = tokio::time::interval(tasks.lease / 3);
        renew.tick().await;
        // The task's time to live counts from its creation, whichever run this is.
        let deadline = tokio::time::sleep(Duration::from_millis(run.until.saturating_sub(now_ms())));
        tokio::pin!(deadline);
        loop {
            tokio::select! {
                biased;
                () = cancel.cancelled() => {
                    // Cancelled here (or heard from the store): the tool may clean up, briefly.
                    let _ = tokio::time::timeout(CANCEL_GRACE, &mut work).await;
                    return None;
                }
                finished = &mut work => return Some(finished),
                () = &mut deadline => {
                    tracing::warn!(task = id, "a task ran past its time to live and was stopped");
                    return Some(Finished::Complete(CallToolResult::error(
                        "the task ran past its time to live and was stopped",
                    )));
                }
                changed = changes.recv() => {
                    let concerns = match changed {
                        Ok(changed) => *changed == **id,
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => true,
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => false,
                    };
                    if concerns && self.ended_in_store(id).await {
                        cancel.cancel();
                    }
                }
                Ok(()) = messages.changed() => {
                    let message = messages.borrow_and_update().clone();
                    self.update(id, |record| {
                        (record.status == Status::Working).then(|| record.status_message = message.clone())
                    })
                    .await;
                }
                _ = renew.tick() => {
                    let lease = tasks.lease_from(now_ms());
                    let renewed = self.update(id, |record| {
                        (record.status == Status::Working).then(|| record.lease = Some(lease.clone()))
                    })
                    .await;
                    match renewed {
                        Written::Left(status) if status.is_terminal() => cancel.cancel(),
                        Written::Gone => cancel.cancel(),
                        _ => {}
                    }
                }
            }
        }
    }

    /// Whether the store says task `id` has ended (cancelled, or failed by an instance that
    /// took this one for dead): its work is for nothing.
    async fn ended_in_store(&self, id: &str) -> bool {
        match self.tasks.store.load(id).await {
            Ok(Some(task)) => Loaded::parse(task).is_ok_and(|t| t.record.status.is_terminal()),
            // Expired or gone: nobody can see its end.
            Ok(None) => true,
            Err(_) => false,
        }
    }

    /// Changes task `id` with `change` (which returns `None` to leave it as it is), trying
    /// again when another write came first.
    async fn update(&self, id: &str, mut change: impl FnMut(&mut Record) -> Option<()>) -> Written {
        for _ in 0..RETRIES {
            let loaded = match self.tasks.store.load(id).await {
                Ok(Some(task)) => match Loaded::parse(task) {
                    Ok(loaded) => loaded,
                    Err(_) => return Written::Gone,
                },
                Ok(None) => return Written::Gone,
                Err(error) => {
                    tracing::warn!(task = id, %error, "a task could not be read to change it");
                    return Written::Unavailable;
                }
            };
            let mut record = loaded.record.clone();
            if change(&mut record).is_none() {
                return Written::Left(loaded.record.status);
            }
            record.last_updated_at = now_ms().max(record.last_updated_at);
            match self.tasks.store.replace(loaded.next(&record)).await {
                Ok(true) => return Written::Done,
                Ok(false) => continue,
                Err(error) => {
                    tracing::warn!(task = id, %error, "a task could not be changed");
                    return Written::Unavailable;
                }
            }
        }
        tracing::warn!(task = id, "a task changed too often to be changed");
        Written::Unavailable
    }

    /// Writes how a run of task `id` ended, trying again while the store is unreachable
    /// (until `until`, the task's end of life): a result is not dropped for an outage.
    async fn record_end(&self, id: &str, until: u64, mut change: impl FnMut(&mut Record) -> Option<()>) {
        let mut pause = Duration::from_millis(50);
        while let Written::Unavailable = self.update(id, &mut change).await {
            if now_ms() >= until {
                tracing::error!(
                    task = id,
                    "a task's end could not be written before its time ran out"
                );
                return;
            }
            tokio::time::sleep(pause).await;
            // Well within a lease, so the end is written before another instance, reading
            // a lease run out, takes the task for dead.
            pause = (pause * 2).min(self.tasks.lease / 4);
        }
    }

    /// Reads task `id` for `caller`: `-32602` when it is unknown, expired or another's; a
    /// working task whose instance is gone is failed first.
    async fn load_for(&self, id: &str, caller: Auth<'_>) -> Result<Loaded, Failure> {
        // A spilled result's page is kept beside the tasks, and is none; an id this server
        // cannot have made is not looked for.
        if crate::task::is_result_id(id) || !crate::task::could_be_id(id) {
            return Err(not_found());
        }
        for _ in 0..RETRIES {
            let task = match self.tasks.store.load(id).await {
                Ok(Some(task)) => task,
                Ok(None) => return Err(not_found()),
                Err(error) => return Err(store_failure(&error)),
            };
            let mut loaded = Loaded::parse(task)?;
            let owner = loaded.record.caller.as_ref().map(|c| c.subject.as_str());
            if owner != caller.map(|p| p.subject.as_str()) {
                return Err(not_found());
            }
            let now = now_ms();
            if !self.tasks.orphaned(&loaded.record, now) || self.tasks.running().contains_key(id) {
                return Ok(loaded);
            }
            let record = &mut loaded.record;
            record.status = Status::Failed;
            record.ended();
            record.lease = None;
            record.last_updated_at = now;
            let message = "the server instance running this task stopped before it finished";
            record.status_message = Some(message.to_owned());
            record.error = Some(json!({ "code": ErrorCode::INTERNAL_ERROR.get(), "message": message }));
            match self.tasks.store.replace(loaded.next(&loaded.record)).await {
                Ok(true) => {
                    loaded.version += 1;
                    return Ok(loaded);
                }
                Ok(false) => continue,
                Err(error) => return Err(store_failure(&error)),
            }
        }
        Err(Failure::new(
            ErrorCode::INTERNAL_ERROR,
            "internal error: the task changed too often to be read",
        ))
    }

    /// Serves a `tasks/*` request on a task of the connection's: `serve` reads or writes
    /// the store, then gives the members of the result (`resultType` and the server's
    /// identity are added), or the failure that answers instead.
    fn serve_task_request<Fut>(
        self: &Arc<Self>,
        conn: &Connection,
        id: Id<'_>,
        out: &Outbox,
        auth: Auth<'_>,
        serve: impl FnOnce(Arc<Engine>, Option<Arc<Principal>>) -> Fut,
    ) -> Outcome
    where
        Fut: Future<Output = Result<Map<String, Value>, Failure>> + Send + 'static,
    {
        let engine = Arc::clone(self);
        let raw_id: Box<RawValue> = id.raw.to_owned();
        let out = out.clone();
        let served = serve(Arc::clone(self), auth.cloned());
        conn.tasks()
            .spawn(tracing::Instrument::in_current_span(async move {
                match served.await {
                    Ok(members) => {
                        let mut result = Map::new();
                        result.insert("resultType".into(), Value::String("complete".into()));
                        result.extend(members);
                        result.insert(
                            "_meta".into(),
                            json!({ crate::protocol::messages::META_SERVER_INFO: &*engine.identity }),
                        );
                        out.respond(encode::result(&raw_id, &result));
                    }
                    Err(failure) => encode::respond_failure(&out, Some(&raw_id), failure),
                }
            }));
        Ok(())
    }

    /// `tasks/get`: the task as it is now, with its result, error or questions inlined.
    fn serve_get(self: &Arc<Self>, req: Handle<'_>, task_id: String) -> Outcome {
        let Handle { conn, id, out, auth } = req;
        self.serve_task_request(conn, id, out, auth, |engine, caller| async move {
            let loaded = engine.load_for(&task_id, caller.as_ref()).await?;
            Ok(detailed(&loaded.id, &loaded.record))
        })
    }

    /// `tasks/update`: takes the answers to questions the task is waiting on (others are
    /// ignored); once none is left, the tool runs again here, from the top.
    fn serve_update(
        self: &Arc<Self>,
        req: Handle<'_>,
        task_id: String,
        responses: Map<String, Value>,
    ) -> Outcome {
        let Handle { conn, id, out, auth } = req;
        let client = Engine::client_key(conn, auth);
        self.serve_task_request(conn, id, out, auth, |engine, caller| async move {
            if let Some(record) = engine.take_answers(&task_id, &responses, caller.as_ref()).await? {
                let runs = engine.tasks.runs.clone();
                runs.spawn(engine.resume(task_id, record, client));
            }
            Ok(Map::new())
        })
    }

    /// Writes the answers to the task's outstanding questions; the record to run again when
    /// that left none (this instance took the lease).
    async fn take_answers(
        &self,
        id: &str,
        responses: &Map<String, Value>,
        caller: Auth<'_>,
    ) -> Result<Option<Record>, Failure> {
        for _ in 0..RETRIES {
            let loaded = self.load_for(id, caller).await?;
            let mut record = loaded.record.clone();
            if record.status != Status::InputRequired {
                return Ok(None);
            }
            let before = record.asked.len();
            record.asked.retain(|asked| match responses.get(&asked.key) {
                Some(value) => {
                    let question = Question::of(&asked.method, &asked.params);
                    record.answers.insert(
                        asked.key.clone(),
                        Answer {
                            question,
                            value: value.clone(),
                        },
                    );
                    false
                }
                None => true,
            });
            if record.asked.len() == before {
                return Ok(None);
            }
            let now = now_ms();
            record.last_updated_at = now;
            let resume = record.asked.is_empty();
            if resume {
                record.status = Status::Working;
                record.lease = Some(self.tasks.lease_from(now));
            }
            match self.tasks.store.replace(loaded.next(&record)).await {
                Ok(true) => return Ok(resume.then_some(record)),
                Ok(false) => continue,
                Err(error) => return Err(store_failure(&error)),
            }
        }
        Err(Failure::new(
            ErrorCode::INTERNAL_ERROR,
            "internal error: the task changed too often to be updated",
        ))
    }

    /// Runs a task's tool again from the top on this instance, every ask answered from
    /// what the task holds.
    async fn resume(self: Arc<Self>, id: String, record: Record, client: ClientKey) {
        let Some(tool) = self.tools.snapshot().get(&record.tool).cloned() else {
            let message = format!("the tool `{}` is no longer served", record.tool);
            self.update(&id, |r| {
                (!r.status.is_terminal()).then(|| {
                    r.status = Status::Failed;
                    r.ended();
                    r.lease = None;
                    r.status_message = Some(message.clone());
                    r.error = Some(json!({ "code": ErrorCode::INTERNAL_ERROR.get(), "message": message }));
                })
            })
            .await;
            return;
        };
        let round = Arc::new(Round::new(Answers {
            bound: record.answers.clone().into_iter().collect(),
            unbound: Default::default(),
        }));
        let status = Arc::new(StatusCell::new(record.status_message.clone()));
        let cancel = CancellationToken::new();
        let channel: Arc<dyn ClientChannel> = Arc::new(TaskChannel {
            round: Arc::clone(&round),
            status: Arc::clone(&status),
        });
        let principal = record.caller.as_ref().map(|c| {
            let mut principal = Principal::new(c.subject.clone());
            principal.scopes = c.scopes.clone();
            principal.claims = c.claims.clone();
            Arc::new(principal)
        });
        let cx = self.context(CallParts {
            request_id: None,
            version: Some(ProtocolVersion::V2026_07_28),
            client: Client {
                info: None,
                capabilities: record.capabilities.clone().map(Arc::new),
                log_level: None,
            },
            progress_token: None,
            cancel: cancel.clone(),
            principal,
            channel: Some(channel),
        });
        let invocation = match RawArguments::from_json(&record.arguments) {
            Ok(arguments) => tool.invoke(&cx, arguments),
            Err(_) => {
                crate::tool::Invocation::Ready(CallToolResult::internal("a task's arguments do not read"))
            }
        };
        let work = Rounds {
            work: Box::pin(invocation.run()) as Pin<Box<dyn Future<Output = CallToolResult> + Send>>,
            round: Some(Arc::clone(&round)),
        };
        let until = record.created_at.saturating_add(record.ttl_ms);
        let engine = Arc::clone(&self);
        self.tasks.runs.spawn(async move {
            // A task run again counts among the running tasks, its creator's included, as
            // its first run did; it waits for a place rather than failing.
            let slot = engine.tasks.slots.take(client).await;
            let run = Run {
                id,
                tool,
                round: Some(round),
                status,
                cancel,
                slot,
                until,
            };
            engine.drive(run, work).await;
        });
    }

    /// `tasks/cancel`: a task not yet ended ends `cancelled`, and the instance running it
    /// stops its tool; a task ended already is left as it is. Either way the answer is an
    /// empty acknowledgment.
    fn serve_cancel(self: &Arc<Self>, req: Handle<'_>, task_id: String) -> Outcome {
        let Handle { conn, id, out, auth } = req;
        self.serve_task_request(conn, id, out, auth, |engine, caller| async move {
            engine.cancel_task(&task_id, caller.as_ref()).await?;
            Ok(Map::new())
        })
    }

    async fn cancel_task(&self, id: &str, caller: Auth<'_>) -> Result<(), Failure> {
        for _ in 0..RETRIES {
            let loaded = self.load_for(id, caller).await?;
            if loaded.record.status.is_terminal() {
                return Ok(());
            }
            let mut record = loaded.record.clone();
            record.status = Status::Cancelled;
            record.ended();
            record.status_message = Some("cancelled by the client".to_owned());
            record.asked.clear();
            record.lease = None;
            record.last_updated_at = now_ms();
            match self.tasks.store.replace(loaded.next(&record)).await {
                Ok(true) => {
                    if let Some(cancel) = self.tasks.running().get(id) {
                        cancel.cancel();
                    }
                    return Ok(());
                }
                Ok(false) => continue,
                Err(error) => return Err(store_failure(&error)),
            }
        }
        Err(Failure::new(
            ErrorCode::INTERNAL_ERROR,
            "internal error: the task changed too often to be cancelled",
        ))
    }

    /// `notifications/tasks` for each of the tasks `ids` still kept, as they are now.
    async fn notifications_of(&self, ids: &[String], tag: &Value) -> Vec<Vec<u8>> {
        let mut messages = Vec::with_capacity(ids.len());
        for id in ids {
            if let Ok(Some(task)) = self.tasks.store.load(id).await
                && let Some(message) = status_notification(&task, tag)
            {
                messages.push(message);
            }
        }
        messages
    }

    /// The tasks of `ids` that `caller` may see, for a listen stream to watch.
    async fn watchable_of(&self, ids: &[String], caller: Auth<'_>) -> Vec<String> {
        let mut known = Vec::new();
        for id in ids {
            if self.load_for(id, caller).await.is_ok() {
                known.push(id.clone());
            }
        }
        known
    }
}

/// A failure as the `error` of a failed task.
fn failure_json(failure: &Failure) -> Value {
    let mut error = json!({ "code": failure.code.get(), "message": failure.message });
    if let Some(data) = &failure.data {
        error["data"] = data.clone();
    }
    error
}

/// What a call needs to know of its client to decide whether it may become a task, and
/// whether it must: `Err` refuses a `required` task tool's call from a client without the
/// extension.
pub(crate) fn task_mode(tool: &Tool, capabilities: Option<&Value>, modern: bool) -> Result<bool, Failure> {
    match tool.task_support() {
        TaskSupport::Forbidden => Ok(false),
        _ if modern && declares_tasks(capabilities) => Ok(true),
        TaskSupport::Required if modern => Err(missing_extension(format!(
            "the tool `{}` runs only as a task: declare the `{EXTENSION}` extension in the request's client capabilities",
            tool.name()
        ))),
        TaskSupport::Required => Err(Failure::invalid_params(format!(
            "the tool `{}` runs only as a task, which needs protocol revision 2026-07-28 and the `{EXTENSION}` extension",
            tool.name()
        ))),
        _ => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn record(status: Status) -> Record {
        Record {
            status,
            status_message: None,
            created_at: 0,
            last_updated_at: 1,
            ttl_ms: 60_000,
            poll_interval_ms: 1000,
            caller: None,
            tool: "t".into(),
            arguments: "{}".into(),
            capabilities: None,
            answers: BTreeMap::new(),
            asked: vec![Asked {
                key: "elicit_1".into(),
                method: "elicitation/create".into(),
                params: json!({"message": "?"}),
            }],
            result: Some(json!({"content": []})),
            error: None,
            lease: None,
        }
    }

    #[test]
    fn a_detailed_task_inlines_what_its_status_carries() {
        let waiting = detailed("x", &record(Status::InputRequired));
        assert_eq!(
            waiting["inputRequests"]["elicit_1"]["method"],
            "elicitation/create"
        );
        assert!(waiting.get("result").is_none());
        let done = detailed("x", &record(Status::Completed));
        assert_eq!(done["result"], json!({"content": []}));
        assert!(done.get("inputRequests").is_none());
        let failed = detailed("x", &record(Status::Failed));
        assert_eq!(failed["error"]["code"], -32603);
        assert_eq!(done["createdAt"], "1970-01-01T00:00:00.000Z");
        assert_eq!(done["ttlMs"], 60_000);
    }

    #[test]
    fn only_a_declared_extension_counts() {
        assert!(declares_tasks(Some(&json!({"extensions": {EXTENSION: {}}}))));
        assert!(!declares_tasks(Some(&json!({"extensions": {EXTENSION: true}}))));
        assert!(!declares_tasks(Some(&json!({"extensions": {}}))));
        assert!(!declares_tasks(None));
    }
}
