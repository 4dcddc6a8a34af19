//! Stage 3, the server asking the client: `client` (a request of the server's own in the
//! legacy era, or a question of an `input_required` round in 2026-07-28) and `asking` (the
//! rounds tools and prompts share: running a handler until it answers or asks).

pub(crate) mod asking;
pub(crate) mod client;
