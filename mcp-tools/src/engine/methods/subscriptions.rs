//! What a client hears without asking each time: list changes and the updates of the
//! resources it watches.
//!
//! - Up to 2025-11-25 a session hears every list change, and the updates of the resources
//!   it named with `resources/subscribe` (until `resources/unsubscribe`), on its stream for
//!   unsolicited messages (stdout; HTTP's GET stream).
//! - In 2026-07-28, `subscriptions/listen` is a request that stays open: acknowledged at
//!   once with what the server agreed to, it carries the list changes and resource updates
//!   the client opted in to, each tagged with the request's id, until the client cancels it.

use crate::engine::methods::resources::Watchable;
use crate::engine::state::core::Engine;
use crate::engine::state::handle::Handle;
use crate::engine::state::listing::{self, Feed};
use crate::engine::wire::connection::Connection;
use crate::engine::wire::encode;
use crate::engine::wire::era::Era;
use crate::engine::wire::failure::{Failure, Outcome, parse};
use crate::engine::wire::outbox::Outbox;
use crate::protocol::ErrorCode;
use crate::protocol::messages::{ListenParams, META_SUBSCRIPTION_ID, SubscribeParams};
use crate::registry::ResourceRegistry;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::OwnedSemaphorePermit;
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::time::Instant;

/// The most resource URIs one legacy session, or one listen stream, may watch.
pub(crate) const MAX_WATCHED: usize = 1024;

/// `notifications/resources/updated`.
const UPDATED: &str = "notifications/resources/updated";

/// The announcements of changed resources, as one subscriber receives them.
pub(crate) struct Updates(Option<broadcast::Receiver<Arc<str>>>);

/// What changed: one resource, or any (the subscriber fell behind and missed some).
enum Updated {
    One(Arc<str>),
    Missed,
}

impl Updates {
    /// The announcements from now on, on a server with these resources.
    pub(crate) fn of(resources: Option<&ResourceRegistry>) -> Updates {
        Updates(resources.map(ResourceRegistry::updates))
    }

    /// The next announcement; never completes on a server with no resources.
    async fn next(&mut self) -> Updated {
        let Some(receiver) = &mut self.0 else {
            return std::future::pending().await;
        };
        match receiver.recv().await {
            Ok(uri) => Updated::One(uri),
            Err(RecvError::Lagged(missed)) => {
                tracing::debug!(missed, "a subscriber fell behind the resource updates");
                Updated::Missed
            }
            Err(RecvError::Closed) => {
                self.0 = None;
                std::future::pending().await
            }
        }
    }
}

impl Updated {
    /// The URIs this update concerns: the one announced if it is watched; every one
    /// watched when some were missed, since any of them may have changed.
    fn concerning(
        self,
        watches: impl Fn(&str) -> bool,
        watched: impl FnOnce() -> Vec<Arc<str>>,
    ) -> Vec<Arc<str>> {
        match self {
            Updated::One(uri) if watches(&uri) => vec![uri],
            Updated::One(_) => Vec::new(),
            Updated::Missed => watched(),
        }
    }
}

impl Engine {
    /// `resources/subscribe`: the URI must name a resource the caller may see, whose read
    /// does not say it is not found ([`Engine::check_read`]).
    pub(crate) fn resources_subscribe(
        &self,
        req: Handle<'_>,
        params: Option<&RawValue>,
        era: &Era,
    ) -> Outcome {
        let Handle {
            conn: _,
            id: _,
            out: _,
            auth,
        } = req;
        let registry =
            crate::engine::asks::asking::served(self.resources.as_ref(), "resources/subscribe", "resources")?;
        let SubscribeParams { uri } = parse_subscribe(params)?;
        let Some((resource, variables)) = self.resource_for(&registry.snapshot(), &uri, auth) else {
            return Err(crate::engine::methods::resources::not_found(era, &uri));
        };
        let check = self.check_read(&resource, &uri, &variables, era.is_modern(), auth);
        self.answer_when_found(req, check, move |conn| {
            if !conn.watch(&uri, MAX_WATCHED) {
                return Err(Failure::invalid_params(format!(
                    "this session watches {MAX_WATCHED} resources, the most it may; unsubscribe from one first"
                )));
            }
            Ok(())
        })
    }

    /// `resources/unsubscribe`: unwatching a URI not watched is no error.
    pub(crate) fn resources_unsubscribe(&self, req: Handle<'_>, params: Option<&RawValue>) -> Outcome {
        let Handle { conn, id, out, .. } = req;
        crate::engine::asks::asking::served(self.resources.as_ref(), "resources/unsubscribe", "resources")?;
        let SubscribeParams { uri } = parse_subscribe(params)?;
        conn.unwatch(&uri);
        out.respond(encode::empty_result(id.raw));
        Ok(())
    }

    /// `subscriptions/listen`: acknowledges what it agrees to, then forwards it until
    /// cancelled. Of the resource URIs asked for, those that name no resource, or whose
    /// read refuses them ([`Engine::watchable`]), are left out of the acknowledgment and
    /// never announced.
    pub(crate) fn listen(
        self: &Arc<Self>,
        req: Handle<'_>,
        params: ListenParams,
        declares_tasks: bool,
    ) -> Outcome {
        let Handle { conn, id, out, auth } = req;
        let slot = self.admit_listen(&params, declares_tasks)?;
        let (request_id, cancel) = conn.begin_request(id)?;
        let asked = params
            .notifications
            .resource_subscriptions
            .as_deref()
            .unwrap_or_default();
        let feeds: Vec<Feed> = self
            .feeds()
            .into_iter()
            .filter(|feed| params.asks_for(feed.kind.listen_filter))
            .collect();
        let subscription: Value = serde_json::from_str(id.raw.get()).unwrap_or(Value::Null);
        let agreed: serde_json::Map<String, Value> = feeds
            .iter()
            .map(|feed| (feed.kind.listen_filter.to_owned(), Value::Bool(true)))
            .collect();
        // Of the resource URIs asked for, those that name no resource (or that a read does
        // not find) are left out.
        let watchable = match (&self.resources, &params.notifications.resource_subscriptions) {
            (Some(resources), Some(_)) => Some(self.watchable(&resources.snapshot(), asked, auth)),
            _ => None,
        };
        let task_ids = params.notifications.task_ids;
        let mut watched: HashSet<Arc<str>> = HashSet::new();
        let mut pending = None;
        // The tasks a stream may watch are read from the store: its acknowledgment waits.
        match watchable {
            None if task_ids.is_none() => acknowledge(out, &subscription, agreed, None),
            Some(Watchable::Now(known)) if task_ids.is_none() => {
                acknowledge(out, &subscription, agreed, Some(&known));
                watched = known.into_iter().collect();
            }
            resources => pending = Some((resources, agreed)),
        }
        let updates = if watched.is_empty() && pending.is_none() {
            Updates(None)
        } else {
            Updates::of(self.resources.as_ref())
        };
        let stream = Stream {
            engine: Arc::clone(self),
            conn: Arc::clone(conn),
            out: out.clone(),
            raw_id: id.raw.to_owned(),
            tag: json!({ META_SUBSCRIPTION_ID: subscription }),
            subscription,
            lists: feeds.iter().map(|feed| feed.kind.changed).collect(),
            feeds,
            task_changes: task_ids.as_ref().map(|_| self.tasks.store().changes()),
            updates,
            watched,
            tasks_watched: HashSet::new(),
            behind: None,
            stall: self.options.limits.stream_stall_timeout,
        };
        let caller = auth.cloned();
        // The stream is the request: its span lasts until the stream closes.
        tokio::spawn(tracing::Instrument::in_current_span(async move {
            let conn = Arc::clone(&stream.conn);
            stream.run(pending, task_ids, caller, cancel).await;
            conn.finish(&request_id);
            drop(slot);
        }));
        Ok(())
    }

    /// Checks what a listen stream asks for against the bounds, and takes its place among
    /// the streams open.
    fn admit_listen(
        &self,
        params: &ListenParams,
        declares_tasks: bool,
    ) -> Result<OwnedSemaphorePermit, Failure> {
        let asked = params
            .notifications
            .resource_subscriptions
            .as_deref()
            .unwrap_or_default();
        if let Some(ids) = &params.notifications.task_ids {
            if !declares_tasks {
                return Err(crate::engine::tasks::missing_extension(format!(
                    "`taskIds` needs the `{}` extension: declare it in the request's client capabilities",
                    crate::engine::tasks::EXTENSION
                )));
            }
            if ids.len() > MAX_WATCHED {
                return Err(Failure::invalid_params(format!(
                    "`taskIds` names {} tasks; a stream may watch at most {MAX_WATCHED}",
                    ids.len()
                )));
            }
        }
        if asked.len() > MAX_WATCHED {
            return Err(Failure::invalid_params(format!(
                "`resourceSubscriptions` names {} URIs; a stream may watch at most {MAX_WATCHED}",
                asked.len()
            )));
        }
        Arc::clone(&self.listens).try_acquire_owned().map_err(|_| {
            tracing::warn!(
                max = self.options.limits.max_listen_streams,
                "refused a listen stream: as many are open as allowed"
            );
            Failure::new(
                ErrorCode::SERVER_BUSY,
                format!(
                    "this server has {} listen streams open, as many as it keeps; try again later",
                    self.options.limits.max_listen_streams
                ),
            )
        })
    }
}

/// An open `subscriptions/listen` stream: what it listens to, and how far its client is
/// behind.
struct Stream {
    engine: Arc<Engine>,
    conn: Arc<Connection>,
    out: Outbox,
    raw_id: Box<RawValue>,
    /// The request's id, which tags everything the stream carries.
    subscription: Value,
    /// `_meta` of every notification the stream carries.
    tag: Value,
    /// The `list_changed` notifications of the lists it listens to.
    lists: Vec<&'static str>,
    feeds: Vec<Feed>,
    task_changes: Option<broadcast::Receiver<Arc<str>>>,
    updates: Updates,
    /// The resource URIs it watches.
    watched: HashSet<Arc<str>>,
    /// The tasks it watches.
    tasks_watched: HashSet<String>,
    behind: Option<Behind>,
    stall: Duration,
}

/// The resources and agreement of a stream whose acknowledgment waits on a read.
type Pending = Option<(Option<Watchable>, serde_json::Map<String, Value>)>;

impl Stream {
    /// Acknowledges the stream if that waited, then forwards what it listens to until the
    /// client cancels it, its connection closes, or it stalls.
    async fn run(
        mut self,
        pending: Pending,
        task_ids: Option<Vec<String>>,
        caller: Option<Arc<crate::context::Principal>>,
        cancel: tokio_util::sync::CancellationToken,
    ) {
        if let Some((resources, mut agreed)) = pending {
            let known = match resources {
                None => None,
                Some(Watchable::Now(known)) => Some(known),
                Some(Watchable::Later(known)) => Some(known.await),
            };
            if let Some(ids) = &task_ids {
                let ids = self.engine.watchable_tasks(ids, caller.as_ref()).await;
                agreed.insert("taskIds".to_owned(), json!(ids));
                self.tasks_watched = ids.into_iter().collect();
            }
            acknowledge(&self.out, &self.subscription, agreed, known.as_deref());
            self.watched = known.into_iter().flatten().collect();
        }
        // Each task watched is told as it is now, so one that changes no more (ended
        // already, or waiting for answers) is heard of too.
        self.tell_tasks_as_they_are().await;
        let conn = Arc::clone(&self.conn);
        loop {
            let look_again = self.behind.as_ref().map_or_else(Instant::now, |b| b.look_again);
            let behind = self.behind.is_some();
            tokio::select! {
                // An ended stream tells nothing more, though a change came with its end.
                biased;
                _ = conn.closed() => break,
                // The client ended the stream: a cancelled request gets no answer.
                _ = cancel.cancelled() => break,
                Some(kind) = listing::next_change(&mut self.feeds) => {
                    if !behind {
                        let changed = encode::notification(kind.changed, &json!({ "_meta": self.tag }));
                        self.behind = Behind::unless_sent(&self.out, changed, self.stall);
                    }
                }
                changed = next_task_change(self.task_changes.as_mut()), if !self.tasks_watched.is_empty() => {
                    // Behind, it is told with everything else once caught up.
                    if !behind {
                        self.task_changed(changed).await;
                    }
                }
                updated = self.updates.next() => {
                    if !behind {
                        self.resources_updated(updated);
                    }
                }
                () = self.out.drained(), if behind => {
                    // Caught up: what it missed is told as everything it listens to
                    // having changed.
                    self.behind = None;
                    let uris = self.watched.iter().map(|uri| &**uri);
                    tell_all_changed(&self.out, &self.lists, uris, Some(&self.tag));
                    self.tell_tasks_as_they_are().await;
                }
                () = tokio::time::sleep_until(look_again), if behind => {
                    if self.behind.as_mut().is_some_and(|b| b.moved(&self.out, self.stall)) {
                        continue;
                    }
                    self.close_stalled();
                    break;
                }
            }
        }
    }

    /// Tells every task watched as it is now, whatever the backlog holds.
    async fn tell_tasks_as_they_are(&mut self) {
        let ids: Vec<String> = self.tasks_watched.iter().cloned().collect();
        for message in self.engine.task_notifications(&ids, &self.tag).await {
            self.out.notify_always(message);
        }
    }

    /// Tells of a change on the task feed, if it concerns a task watched (every one, when
    /// the feed lagged).
    async fn task_changed(&mut self, changed: Result<Arc<str>, RecvError>) {
        let concerned: Vec<String> = match changed {
            Ok(id) if self.tasks_watched.contains(&*id) => vec![id.to_string()],
            Ok(_) => return,
            Err(RecvError::Lagged(_)) => self.tasks_watched.iter().cloned().collect(),
            Err(RecvError::Closed) => {
                self.tasks_watched.clear();
                return;
            }
        };
        for message in self.engine.task_notifications(&concerned, &self.tag).await {
            if self.behind.is_some() {
                break;
            }
            self.behind = Behind::unless_sent(&self.out, message, self.stall);
        }
    }

    /// Tells of the updated resources the stream watches.
    fn resources_updated(&mut self, updated: Updated) {
        let concerned = updated.concerning(
            |uri| self.watched.contains(uri),
            || self.watched.iter().cloned().collect(),
        );
        for uri in concerned {
            if self.behind.is_some() {
                break;
            }
            let changed = encode::notification(UPDATED, &json!({ "_meta": self.tag, "uri": &*uri }));
            self.behind = Behind::unless_sent(&self.out, changed, self.stall);
        }
    }

    /// Ends a stream whose client took nothing from its full backlog for the stall time.
    fn close_stalled(&self) {
        let stall = self.stall;
        tracing::warn!(
            ?stall,
            "ended a listen stream whose client took nothing from its full backlog for that long"
        );
        // On a way out the stream shares (`serve_io`), the result closes it; an HTTP stream
        // is cut with its connection, and the result goes nowhere.
        let engine = &self.engine;
        self.out.respond(encode::listen_closed(
            &self.raw_id,
            &self.subscription,
            &engine.identity,
        ));
        self.out.end();
    }
}

/// The next change on a task feed; never, without one.
async fn next_task_change(
    changes: Option<&mut broadcast::Receiver<Arc<str>>>,
) -> Result<Arc<str>, RecvError> {
    match changes {
        Some(changes) => changes.recv().await,
        None => std::future::pending().await,
    }
}

/// Sends a listen stream's acknowledgment: what it agreed to, with the resource URIs it
/// watches when it was asked for some.
fn acknowledge(
    out: &Outbox,
    subscription: &Value,
    mut agreed: serde_json::Map<String, Value>,
    known: Option<&[Arc<str>]>,
) {
    if let Some(known) = known {
        let known: Vec<&str> = known.iter().map(|uri| &**uri).collect();
        agreed.insert("resourceSubscriptions".to_owned(), json!(known));
    }
    out.notify_always(encode::notification(
        "notifications/subscriptions/acknowledged",
        &json!({ "_meta": { META_SUBSCRIPTION_ID: subscription }, "notifications": agreed }),
    ));
}

/// Tells a stream that fell behind and has caught up that everything it listens to changed:
/// each list, then each resource URI it watches, every one once (`tag`: a listen stream's
/// `_meta`). Queued whatever the backlog holds, as a response would be.
fn tell_all_changed<'a>(
    out: &Outbox,
    lists: &[&str],
    uris: impl Iterator<Item = &'a str>,
    tag: Option<&Value>,
) {
    let params = |uri: Option<&str>| {
        let mut params = serde_json::Map::new();
        if let Some(tag) = tag {
            params.insert("_meta".to_owned(), tag.clone());
        }
        if let Some(uri) = uri {
            params.insert("uri".to_owned(), uri.into());
        }
        Value::Object(params)
    };
    for method in lists {
        out.notify_always(encode::notification(method, &params(None)));
    }
    for uri in uris {
        out.notify_always(encode::notification(UPDATED, &params(Some(uri))));
    }
}

/// A stream whose client fell behind: its backlog was full, so what it hears next is that
/// everything it listens to changed, once it has taken what waits. A client that takes
/// nothing at all for the stall time has its stream ended.
struct Behind {
    /// How many messages the client had taken at the last look.
    taken: u64,
    /// When to look again.
    look_again: Instant,
}

impl Behind {
    /// Offers `message` to the stream; `Some` when it was left out, the backlog full.
    fn unless_sent(out: &Outbox, message: Vec<u8>, stall: Duration) -> Option<Behind> {
        (!out.offer(message)).then(|| Behind {
            taken: out.taken(),
            look_again: Instant::now() + stall,
        })
    }

    /// Whether the client took something since the last look; if it did, looks again
    /// after another stall time.
    fn moved(&mut self, out: &Outbox, stall: Duration) -> bool {
        let taken = out.taken();
        if taken == self.taken {
            return false;
        }
        self.taken = taken;
        self.look_again = Instant::now() + stall;
        true
    }
}

/// The params of `resources/subscribe` and `resources/unsubscribe`.
fn parse_subscribe(params: Option<&RawValue>) -> Result<SubscribeParams, Failure> {
    parse(params).map_err(|e| Failure::invalid_params(format!("invalid params: {e}")))
}

/// Sends a legacy session what it hears unsolicited, until it closes: each list change,
/// and the updates of the resources it subscribed to. When its stream for them falls
/// behind, it hears, once it has caught up, that every list changed and every resource it
/// watches was updated; a stream that stalls for `stall` is ended.
pub(crate) async fn notify_legacy(
    conn: Arc<Connection>,
    mut feeds: Vec<Feed>,
    mut updates: Updates,
    stall: Duration,
) {
    let lists: Vec<&'static str> = feeds.iter().map(|feed| feed.kind.changed).collect();
    // The stream the session fell behind on, if it did.
    let mut behind: Option<(Outbox, Behind)> = None;
    loop {
        let look_again = behind.as_ref().map_or_else(Instant::now, |(_, b)| b.look_again);
        let drained = async {
            if let Some((out, _)) = &behind {
                out.drained().await;
            }
        };
        tokio::select! {
            _ = conn.closed() => return,
            changed = listing::next_change(&mut feeds), if !feeds.is_empty() => match changed {
                Some(kind) => {
                    if behind.is_none() {
                        behind = send_unsolicited(&conn, encode::notification(kind.changed, &json!({})), stall);
                    }
                }
                // Every catalog is gone; resource updates may still come.
                None => feeds.clear(),
            },
            updated = updates.next() => {
                if behind.is_some() {
                    continue; // told with everything else once caught up
                }
                let concerned = updated.concerning(|uri| conn.watches(uri), || conn.watched());
                for uri in concerned {
                    if behind.is_some() {
                        break;
                    }
                    behind = send_unsolicited(&conn, encode::notification(UPDATED, &json!({ "uri": &*uri })), stall);
                }
            }
            () = drained, if behind.is_some() => {
                behind = None;
                if let Some(out) = conn.unsolicited() {
                    tell_all_changed(&out, &lists, conn.watched().iter().map(|uri| &**uri), None);
                }
            }
            () = tokio::time::sleep_until(look_again), if behind.is_some() => {
                if let Some((out, b)) = &mut behind
                    && b.moved(out, stall)
                {
                    continue;
                }
                if let Some((out, _)) = behind.take() {
                    tracing::warn!(
                        ?stall,
                        "ended a session's stream whose client took nothing from its full backlog for that long"
                    );
                    out.end();
                }
            }
        }
    }
}

/// Sends a legacy session a message that answers no request, on its stream for them if it
/// has one open; `Some` when that stream's backlog is full and the message was left out.
fn send_unsolicited(conn: &Connection, message: Vec<u8>, stall: Duration) -> Option<(Outbox, Behind)> {
    let Some(out) = conn.unsolicited() else {
        tracing::debug!("dropped a notification: no stream is open for it");
        return None;
    };
    Behind::unless_sent(&out, message, stall).map(|behind| (out, behind))
}
