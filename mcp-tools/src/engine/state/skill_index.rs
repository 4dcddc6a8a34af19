//! What the skills methods serve, made once when the engine is built: the skills' entries
//! and each skill folder's children, as snapshots that `listing` pages like any catalog.

use crate::protocol::ProtocolVersion;
use crate::registry::catalog::{Item, Snapshot};
use crate::skill::Skills;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// One listed thing (a skill's entry, a folder's child), its JSON made once: it is the same
/// in every revision.
#[derive(Clone)]
pub(crate) struct Listed {
    key: Arc<str>,
    value: Arc<Value>,
}

impl Item for Listed {
    fn key(&self) -> &str {
        &self.key
    }

    fn definition(&self, _version: ProtocolVersion) -> Value {
        Value::clone(&self.value)
    }
}

/// The skills' entries, by `SKILL.md` URI, and the children of every skill folder, by the
/// folder's URI. Skills do not change while a server serves.
pub(crate) struct SkillIndex {
    pub(crate) entries: Snapshot<Listed>,
    pub(crate) directories: BTreeMap<String, Snapshot<Listed>>,
}

impl SkillIndex {
    pub(crate) fn new(skills: &Skills) -> SkillIndex {
        let listed = |key: String, value: Value| Listed {
            key: key.into(),
            value: Arc::new(value),
        };
        let entries = skills
            .entries()
            .into_iter()
            .map(|(uri, entry)| listed(uri, entry))
            .collect();
        let directories = skills
            .directories(&skills.resources())
            .into_iter()
            .map(|(uri, children)| {
                let children = children
                    .into_iter()
                    .map(|child| listed(child["uri"].as_str().unwrap_or_default().to_owned(), child))
                    .collect();
                (uri, Snapshot::new(children))
            })
            .collect();
        SkillIndex {
            entries: Snapshot::new(entries),
            directories,
        }
    }
}

/// Makes the index: installed with the skills methods by `methods::skills::link`, which only
/// `Server::skills` calls, so that a server without skills links none of it.
pub(crate) static MAKE: OnceLock<fn(&Skills) -> SkillIndex> = OnceLock::new();

/// What the skills methods serve of `skills`; `None` if no server was given skills (then
/// there are none to serve).
pub(crate) fn index(skills: &Skills) -> Option<SkillIndex> {
    MAKE.get().map(|make| make(skills))
}
