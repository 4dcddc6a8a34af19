//! The prompts a server offers while it runs: [`PromptRegistry`] adds, removes, enables
//! and disables them, and every change reaches connected clients as
//! `notifications/prompts/list_changed`.

use super::catalog::Item;
use super::handle::Registry;
use crate::error::DefinitionError;
use crate::prompt::Prompt;
use crate::protocol::ProtocolVersion;
use serde_json::Value;

impl Item for Prompt {
    fn key(&self) -> &str {
        self.name()
    }

    fn definition(&self, version: ProtocolVersion) -> Value {
        Prompt::definition(self, version)
    }
}

/// A handle on a server's prompts, for changing them while it serves; from
/// [`Server::prompt_registry`](crate::Server::prompt_registry). It works as the
/// [`ToolRegistry`](crate::registry::ToolRegistry) does, for prompts; clients are told of changes with
/// `notifications/prompts/list_changed`.
pub type PromptRegistry = Registry<Prompt>;

impl Registry<Prompt> {
    /// Adds a prompt, enabled; its name must be new.
    pub fn add(&self, prompt: Prompt) -> Result<(), DefinitionError> {
        self.add_item(prompt)
            .map_err(|prompt| DefinitionError::DuplicatePromptName(prompt.name().to_owned()))
    }

    /// The enabled prompts, in registration order.
    pub fn prompts(&self) -> Vec<Prompt> {
        self.items()
    }
}
