//! The SQLite task store (feature `sqlite`): one file that outlives the process.
//!
//! One connection lives on a thread of its own and serves the store's operations in the
//! order they arrive, a batch at a time: rusqlite blocks, and the async runtime must not.
//! A dedicated thread rather than `tokio::task::spawn_blocking` per operation because one
//! connection serializes every operation anyway: a burst of calls would park as many of
//! tokio's blocking threads (up to 512) on a mutex, where a channel queues them for one
//! thread. And queueing lets the thread commit every write waiting in the queue in one
//! transaction, so that a burst of creates pays for one `fsync`, not one each, while each
//! create still returns only once it is durable (see `open_connection`).

use super::{CHANGES_BACKLOG, StoreError, StoreFuture, StoredTask, TaskStore, now_ms};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, oneshot};

/// How a [`StoreError::Unavailable`] names this store.
const STORE: &str = "sqlite";

/// The layout of the file, kept in `PRAGMA user_version`: a later layout migrates from the
/// versions before it, and a file of a later layout than this build knows is refused.
const SCHEMA_VERSION: i32 = 1;

/// The layout of version 1. `expires_at` is indexed so that sweeping the expired tasks
/// reads only those.
const SCHEMA_V1: &str = "
    CREATE TABLE tasks (
        id TEXT PRIMARY KEY NOT NULL,
        version INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        data TEXT NOT NULL
    );
    CREATE INDEX tasks_by_expiry ON tasks (expires_at);
    PRAGMA user_version = 1;
";

/// How often the tasks whose time is up are deleted, so that the file stays bounded by the
/// tasks alive at once. [`TaskStore::load`] and [`TaskStore::replace`] ignore them
/// meanwhile.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// How many queued operations one transaction serves at most.
const BATCH: usize = 256;

/// How long a write waits for another connection on the same file (a second store, or a
/// process restarting) to finish its own, before it fails.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Keeps tasks in a SQLite file: a single server that restarts keeps its tasks until
/// their time is up. Not shared: another process may open the same file, but hears
/// nothing of this one's [`changes`](TaskStore::changes).
///
/// The file holds one table, `tasks`, in SQLite's write-ahead-log mode; every write is on
/// disk before it returns. Tasks whose time is up are deleted once a minute (and when the
/// store opens), so the file stays about as large as the most tasks alive at once.
/// rusqlite builds SQLite from the source it bundles: no system library is needed.
///
/// ```
/// use mcp_toolkit::task::{SqliteStore, StoredTask, TaskStore};
///
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// let path = std::env::temp_dir().join(format!("tasks-doc-{}.db", std::process::id()));
/// # let _ = std::fs::remove_file(&path);
/// let store = SqliteStore::open(&path).unwrap();
/// store.create(StoredTask::new("t1", 1, u64::MAX, r#"{"status":"working"}"#)).await.unwrap();
/// drop(store);
///
/// // A restart: the task is still there.
/// let store = SqliteStore::open(&path).unwrap();
/// let task = store.load("t1").await.unwrap().unwrap();
/// assert_eq!(task.data, r#"{"status":"working"}"#);
/// # drop(store);
/// # for end in ["", "-wal", "-shm"] {
/// #     let _ = std::fs::remove_file(format!("{}{end}", path.display()));
/// # }
/// # }
/// ```
#[derive(Debug)]
pub struct SqliteStore {
    path: PathBuf,
    jobs: mpsc::Sender<Job>,
    changes: broadcast::Sender<Arc<str>>,
}

impl SqliteStore {
    /// Opens the store in the file at `path`, creating the file and its table if there are
    /// none. An error if the file cannot be opened or created, is no SQLite database, or
    /// holds tasks in a layout newer than this build reads.
    ///
    /// It blocks while it opens the file (and deletes the tasks whose time is up), as a
    /// server does once, at start.
    ///
    /// ```
    /// use mcp_toolkit::task::SqliteStore;
    ///
    /// let path = std::env::temp_dir().join(format!("tasks-open-{}.db", std::process::id()));
    /// std::fs::write(&path, "not a database, but a text that is long enough to tell").unwrap();
    /// let wrong = SqliteStore::open(&path).unwrap_err();
    /// assert_eq!(wrong.to_string(), format!("cannot open the task store sqlite:{}", path.display()));
    /// assert_eq!(std::error::Error::source(&wrong).unwrap().to_string(), "file is not a database");
    /// # std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(path.as_ref(), SWEEP_EVERY)
    }

    fn open_with(path: &Path, sweep_every: Duration) -> Result<SqliteStore, StoreError> {
        let conn = open_connection(path).map_err(|source| StoreError::Open {
            store: format!("{STORE}:{}", path.display()),
            source,
        })?;
        let (jobs, queue) = mpsc::channel();
        let changes = broadcast::channel(CHANGES_BACKLOG).0;
        let worker = Worker {
            conn,
            changes: changes.clone(),
            sweep_every,
            next_sweep: Instant::now(),
        };
        std::thread::Builder::new()
            .name("mcp-task-sqlite".to_owned())
            .spawn(move || worker.run(&queue))
            .map_err(|source| StoreError::Open {
                store: format!("{STORE}:{}", path.display()),
                source: Box::new(source),
            })?;
        tracing::debug!(path = %path.display(), "opened the sqlite task store");
        Ok(SqliteStore {
            path: path.to_owned(),
            jobs,
            changes,
        })
    }

    /// The file the store keeps its tasks in.
    ///
    /// ```
    /// use mcp_toolkit::task::SqliteStore;
    ///
    /// let path = std::env::temp_dir().join(format!("tasks-path-{}.db", std::process::id()));
    /// let store = SqliteStore::open(&path).unwrap();
    /// assert_eq!(store.path(), path);
    /// # drop(store);
    /// # for end in ["", "-wal", "-shm"] {
    /// #     let _ = std::fs::remove_file(format!("{}{end}", path.display()));
    /// # }
    /// ```
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Hands `job` to the store's thread and waits for its answer.
    async fn ask<T>(
        &self,
        job: impl FnOnce(oneshot::Sender<Result<T, StoreError>>) -> Job,
    ) -> Result<T, StoreError> {
        let (answer, answered) = oneshot::channel();
        self.jobs
            .send(job(answer))
            .map_err(|_| StoreError::unavailable(STORE, Failure::Stopped))?;
        answered
            .await
            .map_err(|_| StoreError::unavailable(STORE, Failure::Stopped))?
    }
}

/// Opens the file, sets it up for durable writes and brings its layout to
/// [`SCHEMA_VERSION`]; why not, as the source of a [`StoreError::Open`] that names the file.
fn open_connection(path: &Path) -> Result<Connection, Box<dyn std::error::Error + Send + Sync>> {
    // SQLite says only "unable to open database file" of these two.
    if path.is_dir() {
        return Err(Box::new(Failure::Folder));
    }
    if let Some(folder) = path.parent().filter(|folder| !folder.as_os_str().is_empty())
        && !folder.is_dir()
    {
        return Err(Box::new(Failure::NoFolder(folder.to_owned())));
    }
    // Setting the journal mode of a file another process is setting up at the same moment
    // can answer "database is locked" at once, without waiting on the busy handler (SQLite
    // does not wait where waiting could deadlock). Two servers started together on one new
    // file hit it, so the whole setup is tried again until the busy timeout has passed.
    let started = Instant::now();
    loop {
        match set_up(path) {
            Err(Failure::Sqlite(e)) if is_busy(&e) && started.elapsed() < BUSY_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(failure) => return Err(Box::new(failure)),
            Ok(conn) => return Ok(conn),
        }
    }
}

/// Whether SQLite refused because another connection holds the file's lock.
fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

/// One attempt at what [`open_connection`] does once the path has been checked.
fn set_up(path: &Path) -> Result<Connection, Failure> {
    let mut conn = Connection::open(path).map_err(Failure::Sqlite)?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(Failure::Sqlite)?;
    // Write-ahead log: a commit appends to the log instead of rewriting pages, and readers
    // on other connections do not block the writer.
    let mode: String = conn
        .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))
        .map_err(Failure::Sqlite)?;
    if !mode.eq_ignore_ascii_case("wal") {
        // Some file systems (network ones) cannot share the log's memory map; SQLite then
        // keeps its rollback journal, slower but as durable.
        tracing::warn!(path = %path.display(), %mode, "the sqlite task store could not use a write-ahead log");
    }
    // FULL, not NORMAL: in WAL mode NORMAL syncs the log only at checkpoints, so a commit
    // survives the process dying but may be lost with the machine (power, kernel). The trait
    // promises that a created task is durable once `create` returns, so each commit syncs
    // the log; batching the queued writes into one transaction pays for that.
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(Failure::Sqlite)?;
    migrate(&mut conn).map_err(|e| match e {
        Migration::Sql(source) => Failure::Sqlite(source),
        Migration::Newer(found) => Failure::NewerSchema { found },
    })?;
    Ok(conn)
}

/// Why a file's layout could not be brought to [`SCHEMA_VERSION`].
enum Migration {
    Sql(rusqlite::Error),
    Newer(i32),
}

impl From<rusqlite::Error> for Migration {
    fn from(e: rusqlite::Error) -> Migration {
        Migration::Sql(e)
    }
}

/// Creates the table in a new file; a later layout adds its steps here, each from the one
/// before. One immediate transaction, so two processes opening a new file at once do not
/// both create it.
fn migrate(conn: &mut Connection) -> Result<(), Migration> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let found: i32 = tx.pragma_query_value(None, "user_version", |row| row.get(0))?;
    match found {
        0 => tx.execute_batch(SCHEMA_V1)?,
        SCHEMA_VERSION => {}
        newer => return Err(Migration::Newer(newer)),
    }
    tx.commit()?;
    Ok(())
}

/// What the store fails with, as the source of a [`StoreError::Unavailable`] (or of a
/// [`StoreError::Open`]).
#[derive(Debug, thiserror::Error)]
enum Failure {
    /// What SQLite says, which its message holds whole: rusqlite's source would say it
    /// again after its code.
    #[error("{0}")]
    Sqlite(rusqlite::Error),
    #[error("it is a folder; expected a file's path (the file is created if missing)")]
    Folder,
    #[error("the folder `{}` does not exist", .0.display())]
    NoFolder(PathBuf),
    #[error(
        "it holds tasks in layout {found} (`PRAGMA user_version`); this build reads layout {SCHEMA_VERSION} and older"
    )]
    NewerSchema { found: i32 },
    #[error("task version {0} is out of range; the sqlite task store keeps versions up to {max}", max = i64::MAX)]
    VersionOutOfRange(u64),
    #[error("the sqlite task store's thread has stopped")]
    Stopped,
}

/// A task as the table keeps it.
struct Row {
    id: String,
    version: i64,
    expires_at: i64,
    data: String,
}

impl Row {
    fn new(task: StoredTask) -> Result<Row, StoreError> {
        let version = i64::try_from(task.version)
            .map_err(|_| StoreError::unavailable(STORE, Failure::VersionOutOfRange(task.version)))?;
        Ok(Row {
            id: task.id,
            version,
            expires_at: time_to_sql(task.expires_at),
            data: task.data,
        })
    }
}

/// SQLite's integers are signed: a time past `i64::MAX` ms (some 292 million years) is
/// kept as `i64::MAX`, and read back as `u64::MAX`, the usual "never".
fn time_to_sql(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

fn time_from_sql(ms: i64) -> u64 {
    if ms == i64::MAX {
        u64::MAX
    } else {
        u64::try_from(ms).unwrap_or(0)
    }
}

/// An operation for the store's thread, with where its answer goes.
enum Job {
    Create(Row, oneshot::Sender<Result<(), StoreError>>),
    Load(String, oneshot::Sender<Result<Option<StoredTask>, StoreError>>),
    /// The task, and the version it replaces.
    Replace(Row, i64, oneshot::Sender<Result<bool, StoreError>>),
}

impl Job {
    fn writes(&self) -> bool {
        !matches!(self, Job::Load(..))
    }
}

/// What a job did, before its transaction commits.
struct Done {
    /// A create or replace wrote the task.
    wrote: bool,
    /// What a load found.
    found: Option<StoredTask>,
}

/// The thread that owns the connection.
struct Worker {
    conn: Connection,
    changes: broadcast::Sender<Arc<str>>,
    sweep_every: Duration,
    next_sweep: Instant,
}

impl Worker {
    /// Serves jobs until the store is dropped, sweeping between them.
    fn run(mut self, queue: &mpsc::Receiver<Job>) {
        loop {
            // Checked before each wait, not only when one times out: a queue that is never
            // empty must not put the sweep off for ever.
            if Instant::now() >= self.next_sweep {
                self.sweep();
            }
            let wait = self.next_sweep.saturating_duration_since(Instant::now());
            let first = match queue.recv_timeout(wait) {
                Ok(job) => job,
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            };
            let mut batch = vec![first];
            while batch.len() < BATCH {
                match queue.try_recv() {
                    Ok(job) => batch.push(job),
                    Err(_) => break,
                }
            }
            self.serve(batch);
        }
    }

    /// Deletes the tasks whose time is up.
    fn sweep(&mut self) {
        self.next_sweep = Instant::now() + self.sweep_every;
        let now = time_to_sql(now_ms());
        let swept = self
            .conn
            .prepare_cached("DELETE FROM tasks WHERE expires_at <= ?1")
            .and_then(|mut delete| delete.execute([now]));
        match swept {
            Ok(0) => {}
            Ok(count) => tracing::debug!(count, "deleted expired tasks from the sqlite task store"),
            Err(error) => tracing::warn!(%error, "could not delete expired tasks from the sqlite task store"),
        }
    }

    /// Serves a batch: its writes in one transaction, answered once it commits.
    fn serve(&mut self, batch: Vec<Job>) {
        let now = time_to_sql(now_ms());
        let done = if batch.iter().any(Job::writes) {
            self.transaction(&batch, now)
        } else {
            batch.iter().map(|job| run(&self.conn, job, now)).collect()
        };
        match done {
            Ok(done) => {
                for (job, done) in batch.into_iter().zip(done) {
                    self.answer(job, done);
                }
            }
            Err(error) => {
                // One failed statement may have rolled the whole transaction back, so no
                // job of the batch is known to have happened.
                tracing::warn!(%error, "the sqlite task store failed");
                let error = Arc::new(error);
                let failed = || StoreError::unavailable(STORE, Arc::clone(&error));
                for job in batch {
                    // A caller that stopped waiting is no error.
                    match job {
                        Job::Create(_, answer) => {
                            let _ = answer.send(Err(failed()));
                        }
                        Job::Load(_, answer) => {
                            let _ = answer.send(Err(failed()));
                        }
                        Job::Replace(_, _, answer) => {
                            let _ = answer.send(Err(failed()));
                        }
                    }
                }
            }
        }
    }

    fn transaction(&mut self, batch: &[Job], now: i64) -> rusqlite::Result<Vec<Done>> {
        // Immediate: take the write lock now, rather than read first and find another
        // connection wrote meanwhile.
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let done = batch
            .iter()
            .map(|job| run(&tx, job, now))
            .collect::<rusqlite::Result<Vec<_>>>()?;
        tx.commit()?;
        Ok(done)
    }

    /// Answers a job that is done (and committed), announcing what it changed.
    fn answer(&self, job: Job, done: Done) {
        // A caller that stopped waiting is no error; nor is nobody listening for changes.
        match job {
            Job::Create(row, answer) if done.wrote => {
                let _ = self.changes.send(row.id.into());
                let _ = answer.send(Ok(()));
            }
            Job::Create(row, answer) => {
                let _ = answer.send(Err(StoreError::Exists { id: row.id }));
            }
            Job::Load(_, answer) => {
                let _ = answer.send(Ok(done.found));
            }
            Job::Replace(row, _, answer) => {
                if done.wrote {
                    let _ = self.changes.send(row.id.into());
                }
                let _ = answer.send(Ok(done.wrote));
            }
        }
    }
}

/// Runs one job's statement at `now` (ms since the epoch).
fn run(conn: &Connection, job: &Job, now: i64) -> rusqlite::Result<Done> {
    match job {
        Job::Create(row, _) => {
            // A task whose time is up but that is not swept yet leaves its id free.
            let created = conn
                .prepare_cached(
                    "INSERT INTO tasks (id, version, expires_at, data) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (id) DO UPDATE SET
                         version = excluded.version, expires_at = excluded.expires_at, data = excluded.data
                     WHERE tasks.expires_at <= ?5",
                )?
                .execute((&row.id, row.version, row.expires_at, &row.data, now))?;
            Ok(Done {
                wrote: created == 1,
                found: None,
            })
        }
        Job::Load(id, _) => {
            let task = conn
                .prepare_cached(
                    "SELECT version, expires_at, data FROM tasks WHERE id = ?1 AND expires_at > ?2",
                )?
                .query_row((id, now), |found| {
                    let version: i64 = found.get(0)?;
                    Ok(StoredTask {
                        id: id.clone(),
                        version: u64::try_from(version)
                            .map_err(|_| rusqlite::Error::IntegralValueOutOfRange(0, version))?,
                        expires_at: time_from_sql(found.get(1)?),
                        data: found.get(2)?,
                    })
                })
                .optional()?;
            Ok(Done {
                wrote: false,
                found: task,
            })
        }
        Job::Replace(row, kept, _) => {
            let replaced = conn
                .prepare_cached(
                    "UPDATE tasks SET version = ?1, expires_at = ?2, data = ?3
                     WHERE id = ?4 AND version = ?5 AND expires_at > ?6",
                )?
                .execute((row.version, row.expires_at, &row.data, &row.id, kept, now))?;
            Ok(Done {
                wrote: replaced == 1,
                found: None,
            })
        }
    }
}

impl TaskStore for SqliteStore {
    fn create(&self, task: StoredTask) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let row = Row::new(task)?;
            self.ask(|answer| Job::Create(row, answer)).await
        })
    }

    fn load<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<StoredTask>> {
        Box::pin(self.ask(|answer| Job::Load(id.to_owned(), answer)))
    }

    fn replace(&self, task: StoredTask) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            // No task is kept at version -1, nor past `i64::MAX`: such a replace loses.
            let Some(kept) = task
                .version
                .checked_sub(1)
                .and_then(|kept| i64::try_from(kept).ok())
            else {
                return Ok(false);
            };
            let row = Row::new(task)?;
            self.ask(|answer| Job::Replace(row, kept, answer)).await
        })
    }

    fn changes(&self) -> broadcast::Receiver<Arc<str>> {
        self.changes.subscribe()
    }

    fn is_shared(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file in the temp dir, removed (with its log) when dropped.
    struct TempDb(PathBuf);

    impl TempDb {
        fn new(name: &str) -> TempDb {
            let path =
                std::env::temp_dir().join(format!("mcp-task-{name}-{}-{}.db", std::process::id(), now_ms()));
            TempDb(path)
        }

        fn rows(&self) -> i64 {
            let conn = Connection::open(&self.0).unwrap();
            conn.query_row("SELECT count(*) FROM tasks", [], |row| row.get(0))
                .unwrap()
        }
    }

    impl Drop for TempDb {
        fn drop(&mut self) {
            for end in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{end}", self.0.display()));
            }
        }
    }

    #[tokio::test]
    async fn the_sweep_deletes_the_tasks_whose_time_is_up() {
        let db = TempDb::new("sweep");
        let store = SqliteStore::open_with(&db.0, Duration::from_millis(50)).unwrap();
        let soon = now_ms() + 100;
        store
            .create(StoredTask::new("brief", 1, soon, "{}"))
            .await
            .unwrap();
        store
            .create(StoredTask::new("lasting", 1, u64::MAX, "{}"))
            .await
            .unwrap();
        assert_eq!(db.rows(), 2);
        let deadline = Instant::now() + Duration::from_secs(5);
        while db.rows() == 2 {
            assert!(
                Instant::now() < deadline,
                "the expired task was not deleted within 5 s"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(db.rows(), 1);
        assert!(store.load("lasting").await.unwrap().is_some());
    }

    #[test]
    fn servers_started_together_on_one_new_file_all_open_it() {
        // Setting a new file's journal mode while another connection does the same can
        // answer "database is locked" at once, busy timeout or not: CI saw two servers
        // started together refuse to start.
        for round in 0..20 {
            let db = TempDb::new(&format!("together-{round}"));
            let start = std::sync::Barrier::new(8);
            std::thread::scope(|scope| {
                let opened: Vec<_> = (0..8)
                    .map(|_| {
                        scope.spawn(|| {
                            start.wait();
                            SqliteStore::open(&db.0).map(drop)
                        })
                    })
                    .collect();
                for one in opened {
                    if let Err(e) = one.join().unwrap() {
                        let why = std::error::Error::source(&e).map(ToString::to_string);
                        panic!("round {round}: {e}: {why:?}");
                    }
                }
            });
        }
    }

    #[tokio::test]
    async fn a_file_of_a_newer_layout_is_refused() {
        let db = TempDb::new("newer");
        drop(SqliteStore::open(&db.0).unwrap());
        Connection::open(&db.0)
            .unwrap()
            .pragma_update(None, "user_version", 2)
            .unwrap();
        let refused = SqliteStore::open(&db.0).unwrap_err();
        let why = std::error::Error::source(&refused).unwrap().to_string();
        assert!(why.contains("holds tasks in layout 2"), "{why}");
        assert!(why.contains("reads layout 1 and older"), "{why}");
    }

    #[tokio::test]
    async fn a_file_with_a_foreign_tasks_table_is_refused() {
        let db = TempDb::new("foreign");
        Connection::open(&db.0)
            .unwrap()
            .execute_batch("CREATE TABLE tasks (name TEXT)")
            .unwrap();
        let refused = SqliteStore::open(&db.0).unwrap_err();
        assert_eq!(
            refused.to_string(),
            format!("cannot open the task store sqlite:{}", db.0.display())
        );
        let why = std::error::Error::source(&refused).unwrap();
        assert!(why.to_string().contains("already exists"), "{why:?}");
    }

    #[tokio::test]
    async fn times_past_i64_keep_their_meaning() {
        assert_eq!(time_from_sql(time_to_sql(u64::MAX)), u64::MAX);
        assert_eq!(time_from_sql(time_to_sql(1_700_000_000_000)), 1_700_000_000_000);
        let db = TempDb::new("versions");
        let store = SqliteStore::open(&db.0).unwrap();
        let too_late = store
            .create(StoredTask::new("t", u64::MAX, u64::MAX, "{}"))
            .await
            .unwrap_err();
        let why = std::error::Error::source(&too_late).unwrap().to_string();
        assert!(why.contains("out of range"), "{why}");
        assert!(
            !store
                .replace(StoredTask::new("t", 0, u64::MAX, "{}"))
                .await
                .unwrap()
        );
    }
}
