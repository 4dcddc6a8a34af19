//! `subscriptions/listen` (2026-07-28): a request that stays open, acknowledged at once,
//! carrying each list change the client asked for until the client cancels it.

use super::connection::Connection;
use super::core::Engine;
use super::encode;
use super::failure::Outcome;
use super::listing::{self, Feed};
use super::outbox::Outbox;
use crate::protocol::jsonrpc::Id;
use crate::protocol::messages::{ListenParams, META_SUBSCRIPTION_ID};
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::sync::Arc;

impl Engine {
    /// Acknowledges, then forwards the list changes asked for until cancelled.
    pub(crate) fn listen(
        self: &Arc<Self>,
        conn: &Arc<Connection>,
        id: Id<'_>,
        params: ListenParams,
        out: &Outbox,
    ) -> Outcome {
        let (request_id, cancel) = conn.begin_request(id)?;
        let mut feeds: Vec<Feed> = self
            .feeds()
            .into_iter()
            .filter(|feed| params.asks_for(feed.kind.listen_filter))
            .collect();
        let subscription: Value = serde_json::from_str(id.raw.get()).unwrap_or(Value::Null);
        let agreed: serde_json::Map<String, Value> = feeds
            .iter()
            .map(|feed| (feed.kind.listen_filter.to_owned(), Value::Bool(true)))
            .collect();
        out.notify(encode::notification(
            "notifications/subscriptions/acknowledged",
            &json!({ "_meta": { META_SUBSCRIPTION_ID: subscription }, "notifications": agreed }),
        ));
        let raw_id: Box<RawValue> = id.raw.to_owned();
        let conn2 = Arc::clone(conn);
        let engine = Arc::clone(self);
        let out = out.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = conn2.closed() => break,
                    _ = cancel.cancelled() => {
                        out.respond(encode::listen_closed(&raw_id, &subscription, &engine.identity));
                        break;
                    }
                    Some(kind) = listing::next_change(&mut feeds) => {
                        out.notify(encode::notification(
                            kind.changed,
                            &json!({ "_meta": { META_SUBSCRIPTION_ID: subscription } }),
                        ));
                    }
                }
            }
            conn2.finish(&request_id);
        });
        Ok(())
    }
}
