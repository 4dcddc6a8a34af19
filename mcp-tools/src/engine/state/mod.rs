//! Stage 2, what the engine holds: `core` (the [`Engine`](core::Engine) itself, its options
//! and the contexts it makes for handlers), `handle` (what a method family is given
//! for a request), `limits` (sizes and rates it enforces),
//! `listing` (pages and change feeds of any catalog, as a caller sees it), and the records
//! the later stages keep: `task_record` and `task_slots` (tasks, and the bounds on those
//! running), `spill_record` (pages of results over their budgets), `skill_index` (the
//! skills' entries, made once).

pub(crate) mod core;
pub(crate) mod handle;
pub(crate) mod limits;
pub(crate) mod listing;
pub(crate) mod search_index;
pub(crate) mod skill_index;
pub(crate) mod spill_record;
pub(crate) mod task_record;
pub(crate) mod task_slots;
