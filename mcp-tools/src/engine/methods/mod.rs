//! Stage 6, one module per method family: `lifecycle` (`initialize`, `server/discover`,
//! `ping`), `tools`, `prompts`, `resources`, `skills` (the skills extension), `completion`,
//! `subscriptions`, and `extensions` (the extensions a server declares and the custom
//! methods they serve).

pub(crate) mod completion;
pub(crate) mod discovery;
pub(crate) mod extensions;
pub(crate) mod lifecycle;
pub(crate) mod prompts;
pub(crate) mod resources;
pub(crate) mod skills;
pub(crate) mod subscriptions;
pub(crate) mod tools;
