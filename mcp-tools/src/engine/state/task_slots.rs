//! The places for tasks running on this instance: a bound of their own, apart from the
//! calls in progress, so that long tasks never take the places plain calls need; and a
//! bound per client, so that one client cannot take every place.

use crate::engine::wire::failure::Failure;
use crate::protocol::ErrorCode;
use crate::rate::ClientKey;
use std::sync::{Arc, Mutex};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How many tasks may run at once on an instance, unless the server says otherwise.
pub(crate) const DEFAULT_MAX_RUNNING: usize = 1024;

/// How many of them one client may run, unless the server says otherwise.
pub(crate) const DEFAULT_MAX_RUNNING_PER_CLIENT: usize = 256;

type PerClient = Arc<Mutex<foldhash::HashMap<ClientKey, Arc<Semaphore>>>>;

/// The places for running tasks, in all and per client.
pub(crate) struct Slots {
    all: Arc<Semaphore>,
    max: usize,
    max_per_client: usize,
    /// The semaphores of the clients running a task (or waiting to): an entry goes once
    /// its client holds none of its places and nobody waits on it.
    clients: PerClient,
}

/// A running task's place: given back when dropped.
pub(crate) struct Slot {
    all: Option<OwnedSemaphorePermit>,
    client: Option<OwnedSemaphorePermit>,
    key: ClientKey,
    clients: PerClient,
    max_per_client: usize,
}

impl Slots {
    pub(crate) fn new(max: usize, max_per_client: usize) -> Slots {
        let max = max.clamp(1, Semaphore::MAX_PERMITS);
        Slots {
            all: Arc::new(Semaphore::new(max)),
            max,
            max_per_client: max_per_client.clamp(1, Semaphore::MAX_PERMITS),
            clients: PerClient::default(),
        }
    }

    fn clients(&self) -> std::sync::MutexGuard<'_, foldhash::HashMap<ClientKey, Arc<Semaphore>>> {
        self.clients.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The semaphore of `key`'s places, made when it has none.
    fn of(&self, key: &ClientKey) -> Arc<Semaphore> {
        let mut clients = self.clients();
        if let Some(semaphore) = clients.get(key) {
            return Arc::clone(semaphore);
        }
        let semaphore = Arc::new(Semaphore::new(self.max_per_client));
        clients.insert(key.clone(), Arc::clone(&semaphore));
        semaphore
    }

    fn slot(&self, key: ClientKey, all: OwnedSemaphorePermit, client: OwnedSemaphorePermit) -> Slot {
        Slot {
            all: Some(all),
            client: Some(client),
            key,
            clients: Arc::clone(&self.clients),
            max_per_client: self.max_per_client,
        }
    }

    /// A place for a new task of `key`'s, now: `Err` is the `-32000` error that refuses
    /// the task, naming the bound it is over. The client's own bound is checked first, so
    /// a client over it takes nothing from the others.
    pub(crate) fn try_take(&self, key: &ClientKey) -> Result<Slot, Failure> {
        let semaphore = self.of(key);
        let Ok(client) = Arc::clone(&semaphore).try_acquire_owned() else {
            drop(semaphore);
            self.forget_if_idle(key);
            let limit = self.max_per_client;
            tracing::warn!(limit, "refused a task: its client has too many running");
            return Err(Failure::new(
                ErrorCode::SERVER_BUSY,
                format!(
                    "too many tasks: this client has {limit} running, its limit (`max_running_tasks_per_client`); try again when one has ended"
                ),
            ));
        };
        let Ok(all) = Arc::clone(&self.all).try_acquire_owned() else {
            drop((client, semaphore));
            self.forget_if_idle(key);
            let limit = self.max;
            tracing::warn!(limit, "refused a task: too many running");
            return Err(Failure::new(
                ErrorCode::SERVER_BUSY,
                format!(
                    "the server is busy: {limit} tasks are running, its limit (`max_running_tasks`); try again shortly"
                ),
            ));
        };
        Ok(self.slot(key.clone(), all, client))
    }

    /// A place for a task of `key`'s that runs again, once there is one.
    pub(crate) async fn take(&self, key: ClientKey) -> Option<Slot> {
        let semaphore = self.of(&key);
        let client = semaphore.acquire_owned().await.ok()?;
        let all = Arc::clone(&self.all).acquire_owned().await.ok()?;
        Some(self.slot(key, all, client))
    }

    fn forget_if_idle(&self, key: &ClientKey) {
        forget_if_idle(&mut self.clients(), key, self.max_per_client);
    }

    /// How many clients have a semaphore now.
    #[cfg(test)]
    fn clients_known(&self) -> usize {
        self.clients().len()
    }
}

/// Drops `key`'s semaphore when none of its places is taken and nobody holds it.
fn forget_if_idle(clients: &mut foldhash::HashMap<ClientKey, Arc<Semaphore>>, key: &ClientKey, max: usize) {
    if clients
        .get(key)
        .is_some_and(|s| Arc::strong_count(s) == 1 && s.available_permits() == max)
    {
        clients.remove(key);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        drop(self.all.take());
        drop(self.client.take());
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        forget_if_idle(&mut clients, &self.key, self.max_per_client);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_over_its_bound_is_refused_before_the_server_is() {
        let slots = Slots::new(3, 2);
        let (ada, bob) = (
            ClientKey::Principal("ada".into()),
            ClientKey::Principal("bob".into()),
        );
        let first = slots.try_take(&ada).unwrap();
        let _second = slots.try_take(&ada).unwrap();
        let refused = slots.try_take(&ada).map(|_| ()).unwrap_err();
        assert_eq!(refused.code, ErrorCode::SERVER_BUSY);
        assert!(
            refused.message.contains("`max_running_tasks_per_client`"),
            "{}",
            refused.message
        );
        let _third = slots.try_take(&bob).unwrap();
        let busy = slots.try_take(&bob).map(|_| ()).unwrap_err();
        assert_eq!(
            busy.message,
            "the server is busy: 3 tasks are running, its limit (`max_running_tasks`); try again shortly"
        );
        drop(first);
        let _again = slots.try_take(&bob).unwrap();
    }

    #[test]
    fn a_client_with_nothing_running_is_forgotten() {
        let slots = Slots::new(1, 1);
        let key = ClientKey::Local;
        let slot = slots.try_take(&key).unwrap();
        assert!(slots.try_take(&ClientKey::Principal("x".into())).is_err());
        assert_eq!(slots.clients_known(), 1, "a refused client is not kept");
        drop(slot);
        assert_eq!(slots.clients_known(), 0);
    }

    #[tokio::test]
    async fn a_task_run_again_waits_for_a_place() {
        let slots = Arc::new(Slots::new(1, 1));
        let held = slots.try_take(&ClientKey::Local).unwrap();
        let waiting = tokio::spawn({
            let slots = Arc::clone(&slots);
            async move { slots.take(ClientKey::Local).await.is_some() }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished());
        drop(held);
        assert!(waiting.await.unwrap());
        assert_eq!(slots.clients_known(), 0);
    }
}
