//! The notifications held for a reader that takes them as they come (a call's
//! [`on_update`](super::Client::call_with_updates) callback, a [`Subscription`]), in a
//! ring of fixed size: when the server sends faster than the reader takes, the oldest are
//! dropped and counted, so memory stays bounded whatever the server does, and the reader
//! learns how many it missed before it reads what was kept.
//!
//! [`Subscription`]: super::Subscription

use super::cache::ListCache;
use super::{ClientError, lock};
use serde_json::Value;
use std::collections::VecDeque;
use std::future::poll_fn;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

/// What a reader takes from a [`Ring`].
#[derive(Debug)]
pub(super) enum Taken {
    /// The next notification kept.
    Note(Value),
    /// This many notifications, older than any still held, were dropped to make room.
    Missed(u64),
    /// Nothing more will come: the exchange ended, with the error that ended it if it
    /// failed (given once; `None` after).
    Ended(Option<ClientError>),
}

/// A bounded queue of notifications with one reader.
pub(super) struct Ring {
    state: Mutex<State>,
    capacity: usize,
    /// The client's list cache, told of every `list_changed` as it arrives.
    cache: Option<Arc<ListCache>>,
}

struct State {
    notes: VecDeque<Value>,
    missed: u64,
    /// Whether the ring is closed, and the error to give once what it holds is read.
    ended: Option<Option<ClientError>>,
    waker: Option<Waker>,
}

impl Ring {
    /// A ring holding at most `capacity` notifications (at least one); `cache`, when
    /// given, hears of every list change that passes.
    pub(super) fn new(capacity: usize, cache: Option<Arc<ListCache>>) -> Arc<Ring> {
        Arc::new(Ring {
            state: Mutex::new(State {
                notes: VecDeque::new(),
                missed: 0,
                ended: None,
                waker: None,
            }),
            capacity: capacity.max(1),
            cache,
        })
    }

    /// Adds a notification, dropping the oldest held when the ring is full; nothing once
    /// the ring is closed.
    pub(super) fn push(&self, note: Value) {
        if let Some(cache) = &self.cache {
            cache.heard(&note);
        }
        let mut state = lock(&self.state);
        if state.ended.is_some() {
            return;
        }
        if state.notes.len() == self.capacity {
            state.notes.pop_front();
            state.missed += 1;
        }
        state.notes.push_back(note);
        wake(&mut state);
    }

    /// Counts `count` notifications dropped before they reached the ring (a feed that
    /// fell behind).
    pub(super) fn missed(&self, count: u64) {
        if let Some(cache) = &self.cache {
            cache.clear();
        }
        let mut state = lock(&self.state);
        state.missed = state.missed.saturating_add(count);
        wake(&mut state);
    }

    /// Closes the ring: the reader takes what it holds, then [`Taken::Ended`] with
    /// `error`. The first close stands.
    pub(super) fn close(&self, error: Option<ClientError>) {
        let mut state = lock(&self.state);
        if state.ended.is_none() {
            state.ended = Some(error);
            wake(&mut state);
        }
    }

    /// What the reader takes next, if anything is there: what was missed first, then the
    /// notifications in order, then the end.
    pub(super) fn try_take(&self) -> Option<Taken> {
        let mut state = lock(&self.state);
        if state.missed > 0 {
            return Some(Taken::Missed(std::mem::take(&mut state.missed)));
        }
        if let Some(note) = state.notes.pop_front() {
            return Some(Taken::Note(note));
        }
        state.ended.as_mut().map(|error| Taken::Ended(error.take()))
    }

    /// [`try_take`](Ring::try_take), or a wake-up for `cx` when something comes.
    pub(super) fn poll_take(&self, cx: &mut Context<'_>) -> Poll<Taken> {
        if let Some(taken) = self.try_take() {
            return Poll::Ready(taken);
        }
        let mut state = lock(&self.state);
        // Something may have come between the look and the lock.
        if state.missed > 0 || !state.notes.is_empty() || state.ended.is_some() {
            cx.waker().wake_by_ref();
        } else {
            state.waker = Some(cx.waker().clone());
        }
        Poll::Pending
    }

    /// The next thing to take, when it comes.
    pub(super) async fn take(&self) -> Taken {
        poll_fn(|cx| self.poll_take(cx)).await
    }
}

fn wake(state: &mut State) {
    if let Some(waker) = state.waker.take() {
        waker.wake();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn taken(ring: &Ring) -> Vec<String> {
        std::iter::from_fn(|| ring.try_take())
            .map(|taken| match taken {
                Taken::Note(note) => note.to_string(),
                Taken::Missed(n) => format!("missed {n}"),
                Taken::Ended(error) => format!("ended {}", error.is_some()),
            })
            .take(10)
            .collect()
    }

    #[test]
    fn a_full_ring_drops_the_oldest_and_says_how_many_first() {
        let ring = Ring::new(2, None);
        for n in 0..5 {
            ring.push(json!(n));
        }
        assert_eq!(taken(&ring), ["missed 3", "3", "4"]);
        ring.push(json!(5));
        ring.missed(7);
        ring.close(Some(ClientError::InvalidResponse("gone".into())));
        ring.push(json!(6)); // closed: not kept
        let rest = taken(&ring);
        assert_eq!(&rest[..3], ["missed 7", "5", "ended true"]);
        assert!(rest[3..].iter().all(|t| t == "ended false"), "{rest:?}");
    }

    #[tokio::test]
    async fn a_reader_waits_for_what_comes() {
        let ring = Ring::new(4, None);
        let writer = Arc::clone(&ring);
        tokio::spawn(async move {
            tokio::task::yield_now().await;
            writer.push(json!("late"));
            writer.close(None);
        });
        assert!(matches!(ring.take().await, Taken::Note(note) if note == "late"));
        assert!(matches!(ring.take().await, Taken::Ended(None)));
    }
}
