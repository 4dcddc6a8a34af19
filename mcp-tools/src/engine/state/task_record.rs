//! What a task is, as the engine keeps it: its record in the store, its status, the
//! lease of the instance running it, and the engine's view of its store. Apart from the
//! methods that serve tasks (`super`), so that the engine's core can hold it.

use crate::engine::wire::failure::Failure;
use crate::engine::wire::rounds::Answer;
use crate::protocol::ErrorCode;
use crate::task::{MemoryStore, StoredTask, TaskStore};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

/// The extension's identifier, as clients declare it and the server advertises it.
pub(crate) const EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// Whether capabilities a request declares name the tasks extension.
pub(crate) fn declares_tasks(capabilities: Option<&Value>) -> bool {
    capabilities
        .and_then(|c| c.get("extensions"))
        .and_then(|e| e.get(EXTENSION))
        .is_some_and(Value::is_object)
}

/// The `-32021` error for a client that did not declare the extension.
pub(crate) fn missing_extension(message: impl Into<String>) -> Failure {
    Failure::new(ErrorCode::MISSING_CAPABILITY, message)
        .with_data(json!({ "requiredCapabilities": { "extensions": { EXTENSION: {} } } }))
}

/// A task's status, as the protocol names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Status {
    Working,
    InputRequired,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    pub(crate) fn is_terminal(self) -> bool {
        matches!(self, Status::Completed | Status::Failed | Status::Cancelled)
    }
}

/// A question of a task's, waiting for the client's answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Asked {
    pub(crate) key: String,
    pub(crate) method: String,
    pub(crate) params: Value,
}

/// Who created a task: only the same principal may see it again.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Caller {
    pub(crate) subject: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) scopes: Vec<String>,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub(crate) claims: Value,
}

/// The instance running a task, and until when it is taken to be alive.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Lease {
    pub(crate) holder: String,
    pub(crate) until: u64,
}

/// A task as the server writes it to its store (the [`StoredTask::data`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Record {
    pub(crate) status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) status_message: Option<String>,
    pub(crate) created_at: u64,
    pub(crate) last_updated_at: u64,
    pub(crate) ttl_ms: u64,
    pub(crate) poll_interval_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) caller: Option<Caller>,
    /// What runs it again: the tool, its arguments (canonical JSON), the capabilities the
    /// client declared when it called. The arguments are dropped once the task has ended
    /// ([`Record::ended`]): it never runs again.
    pub(crate) tool: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) arguments: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) capabilities: Option<Value>,
    /// Every answer the tool has taken, by key, each bound to its question.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) answers: BTreeMap<String, Answer>,
    /// The questions still unanswered (`input_required`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) asked: Vec<Asked>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) result: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) lease: Option<Lease>,
}

impl Record {
    /// Drops what only a run of the tool needs, its arguments and the answers it took: a
    /// task that has ended never runs again, and its record is kept until its time to live
    /// runs out. Called wherever a task's status becomes terminal.
    pub(crate) fn ended(&mut self) {
        self.arguments = String::new();
        self.answers.clear();
    }
}

/// A task read from the store: its record, and the version the next write replaces.
pub(crate) struct Loaded {
    pub(crate) id: String,
    pub(crate) version: u64,
    pub(crate) expires_at: u64,
    pub(crate) record: Record,
}

impl Loaded {
    pub(crate) fn parse(task: StoredTask) -> Result<Loaded, Failure> {
        let record: Record = serde_json::from_str(&task.data).map_err(|error| {
            tracing::error!(task = task.id, %error, "a task in the store does not read as one");
            Failure::new(
                ErrorCode::INTERNAL_ERROR,
                "internal error: the task could not be read",
            )
        })?;
        Ok(Loaded {
            id: task.id,
            version: task.version,
            expires_at: task.expires_at,
            record,
        })
    }

    /// The write that replaces this version with `record`.
    pub(crate) fn next(&self, record: &Record) -> StoredTask {
        StoredTask::new(&self.id, self.version + 1, self.expires_at, encode_record(record))
    }
}

pub(crate) fn encode_record(record: &Record) -> String {
    // A record is plain data: strings, numbers and JSON values always serialize.
    serde_json::to_string(record).unwrap_or_default()
}

/// The engine's tasks: where they are kept, and those this instance runs.
pub(crate) struct Tasks {
    pub(crate) store: Arc<dyn TaskStore>,
    /// This process, as a lease names it: random, so a restarted process is another.
    pub(crate) holder: String,
    /// The instance's name, which task ids start with when the store is not shared.
    pub(crate) instance: Option<String>,
    pub(crate) lease: Duration,
    pub(crate) ttl: Duration,
    pub(crate) poll_interval: Duration,
    /// The tasks running here, each with the token that stops it.
    pub(crate) running: Mutex<foldhash::HashMap<String, CancellationToken>>,
    /// The places for tasks running here, in all and per client.
    pub(crate) slots: crate::engine::state::task_slots::Slots,
    /// The runs of tasks on this instance, each from the moment it is spawned until its end
    /// is written: what a shutdown waits for.
    pub(crate) runs: tokio_util::task::TaskTracker,
}

/// How the engine's tasks are set up.
#[derive(Clone)]
pub(crate) struct TaskOptions {
    pub(crate) store: Option<Arc<dyn TaskStore>>,
    pub(crate) lease: Duration,
    pub(crate) ttl: Duration,
    pub(crate) poll_interval: Duration,
    pub(crate) instance: Option<String>,
    /// How many tasks may run here at once, in all and per client.
    pub(crate) max_running: usize,
    pub(crate) max_running_per_client: usize,
}

impl std::fmt::Debug for TaskOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskOptions")
            .field("store", &self.store.as_ref().map(|_| "custom"))
            .field("lease", &self.lease)
            .field("ttl", &self.ttl)
            .field("poll_interval", &self.poll_interval)
            .field("instance", &self.instance)
            .field("max_running", &self.max_running)
            .field("max_running_per_client", &self.max_running_per_client)
            .finish()
    }
}

impl Default for TaskOptions {
    fn default() -> TaskOptions {
        TaskOptions {
            store: None,
            lease: Duration::from_secs(30),
            ttl: Duration::from_secs(3600),
            poll_interval: Duration::from_secs(1),
            instance: None,
            max_running: crate::engine::state::task_slots::DEFAULT_MAX_RUNNING,
            max_running_per_client: crate::engine::state::task_slots::DEFAULT_MAX_RUNNING_PER_CLIENT,
        }
    }
}

impl Tasks {
    pub(crate) fn new(options: &TaskOptions) -> Tasks {
        let holder = crate::protocol::random_hex::<16>().unwrap_or_else(|error| {
            tracing::error!(%error, "no randomness for this process's task lease name");
            format!("pid-{}", std::process::id())
        });
        Tasks {
            store: options
                .store
                .clone()
                .unwrap_or_else(|| Arc::new(MemoryStore::new())),
            holder,
            instance: options.instance.clone(),
            lease: options.lease,
            ttl: options.ttl,
            poll_interval: options.poll_interval,
            running: Mutex::default(),
            slots: crate::engine::state::task_slots::Slots::new(
                options.max_running,
                options.max_running_per_client,
            ),
            runs: tokio_util::task::TaskTracker::new(),
        }
    }

    pub(crate) fn store(&self) -> &Arc<dyn TaskStore> {
        &self.store
    }

    pub(crate) fn running(&self) -> std::sync::MutexGuard<'_, foldhash::HashMap<String, CancellationToken>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new task id: 128 random bits, after `<instance>.` when the store is not shared
    /// and the instance has a name.
    pub(crate) fn new_id(&self) -> Result<String, Failure> {
        let random = crate::protocol::random_hex::<16>().map_err(|error| {
            tracing::error!(%error, "no randomness for a task id");
            Failure::new(
                ErrorCode::INTERNAL_ERROR,
                "internal error: no task id could be made",
            )
        })?;
        Ok(match (&self.instance, self.store.is_shared()) {
            (Some(name), false) => format!("{name}.{random}"),
            _ => random,
        })
    }

    pub(crate) fn lease_from(&self, now: u64) -> Lease {
        Lease {
            holder: self.holder.clone(),
            until: now.saturating_add(millis(self.lease)),
        }
    }

    /// Whether a working task's lease says its instance is gone: the lease ran out. A
    /// lease another holder renews is alive until then, whoever holds it: another instance
    /// on a shared store, a second process on the same SQLite file, or an earlier run of
    /// this one (whose lease then runs out soon enough).
    pub(crate) fn orphaned(&self, record: &Record, now: u64) -> bool {
        record.status == Status::Working && record.lease.as_ref().is_none_or(|lease| lease.until <= now)
    }
}

pub(crate) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// An RFC 3339 timestamp in UTC, to the millisecond, of `ms` since the Unix epoch.
pub(crate) fn timestamp(ms: u64) -> String {
    let at = std::time::UNIX_EPOCH + Duration::from_millis(ms);
    humantime::format_rfc3339_millis(at).to_string()
}

/// What a task's status message is while it runs: set by `ctx.set_status`, written to
/// the store by whoever drives the task.
pub(crate) struct StatusCell {
    message: watch::Sender<Option<String>>,
    /// Set once the call has been answered with its task: from then on, what the tool
    /// sends on the call's way out (progress, log messages) goes nowhere, as the protocol
    /// sends none for tasks.
    answered: std::sync::atomic::AtomicBool,
}

impl StatusCell {
    /// A cell holding `message`.
    pub(crate) fn new(message: Option<String>) -> StatusCell {
        StatusCell {
            message: watch::channel(message).0,
            answered: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Sets the status message.
    pub(crate) fn set(&self, message: String) {
        self.message.send_replace(Some(message));
    }

    /// The status message now.
    pub(crate) fn get(&self) -> Option<String> {
        self.message.borrow().clone()
    }

    /// The status messages from now on.
    pub(crate) fn subscribe(&self) -> watch::Receiver<Option<String>> {
        self.message.subscribe()
    }

    /// Marks the call answered with its task.
    pub(crate) fn answered(&self) {
        self.answered.store(true, std::sync::atomic::Ordering::Release);
    }

    /// Whether the call was answered with its task.
    pub(crate) fn is_answered(&self) -> bool {
        self.answered.load(std::sync::atomic::Ordering::Acquire)
    }
}
