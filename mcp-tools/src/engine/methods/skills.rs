//! The skills extension (`io.modelcontextprotocol/skills`, SEP-2640): `skills/list`,
//! `skills/get` and `resources/directory/read`. The skills' files themselves are resources,
//! listed and read by `resources`; `state::skill_index` holds what these methods serve, made once.

use crate::engine::state::core::Engine;
use crate::engine::state::handle::Handle;
use crate::engine::state::listing::{self, ListKind};
use crate::engine::state::skill_index::{self, SkillIndex};
use crate::engine::wire::era::era_of;
use crate::engine::wire::failure::{Failure, Outcome, parse_with_meta};
use crate::protocol::arguments::{QUOTED_NAME_CHARS, clip};
use crate::protocol::jsonrpc::{self};
use crate::protocol::messages::{META_SERVER_INFO, RequestMeta, WithMeta};
use crate::registry::catalog::Item;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::borrow::Cow;
use std::sync::OnceLock;

/// The extension's name in `capabilities.extensions`.
pub(crate) const EXTENSION: &str = "io.modelcontextprotocol/skills";

/// Skills, as `skills/list` lists them. Never announced as changed: skills do not change
/// while a server serves.
const SKILLS: ListKind = ListKind {
    key: "skills",
    changed: "",
    listen_filter: "",
};

/// The params of the skills methods: `uri` (`skills/get`, `resources/directory/read`) and
/// `cursor` (`skills/list`, `resources/directory/read`).
#[derive(Deserialize, Default)]
struct SkillParams<'a> {
    #[serde(borrow, default)]
    uri: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    cursor: Option<Cow<'a, str>>,
    #[serde(rename = "_meta", borrow, default)]
    meta: Option<RequestMeta<'a>>,
}

impl<'a> WithMeta<'a> for SkillParams<'a> {
    fn take_meta(&mut self) -> Option<RequestMeta<'a>> {
        self.meta.take()
    }
}

/// The skills methods, by function pointer: installed by [`link`], which only
/// `Server::skills` calls, so that a server without skills links none of them (the
/// index's making and the three methods; see bench/README.md, "Footprint").
struct Hooks {
    request: fn(&Engine, &SkillIndex, Handle<'_>, &str, Option<&RawValue>) -> Outcome,
}

/// The skills methods, once a server was given skills.
static LINKED: OnceLock<Hooks> = OnceLock::new();

/// Installs the skills methods, and the making of their index.
pub(crate) fn link() {
    let _ = skill_index::MAKE.set(SkillIndex::new);
    LINKED.get_or_init(|| Hooks {
        request: Engine::serve_skills,
    });
}

impl Engine {
    /// Whether the server serves skills.
    pub(crate) fn has_skills(&self) -> bool {
        self.skills.is_some()
    }

    /// `skills/list`, `skills/get` or `resources/directory/read`, on a server with skills.
    pub(crate) fn skills_request(&self, req: Handle<'_>, method: &str, params: Option<&RawValue>) -> Outcome {
        match (&self.skills, LINKED.get()) {
            (Some(index), Some(hooks)) => (hooks.request)(self, index, req, method, params),
            _ => Err(Failure::invalid_params("this server serves no skills")),
        }
    }

    /// What `skills_request` does once the skills methods are linked.
    fn serve_skills(
        &self,
        index: &SkillIndex,
        req: Handle<'_>,
        method: &str,
        params: Option<&RawValue>,
    ) -> Outcome {
        let Handle { conn, id, out, .. } = req;
        let (params, meta) = parse_with_meta::<SkillParams<'_>>(params)?;
        let era = era_of(conn, method, meta.as_ref())?;
        let uri = || {
            params
                .uri
                .as_deref()
                .ok_or_else(|| Failure::invalid_params("invalid params: missing field `uri`"))
        };
        match method {
            "skills/list" => {
                let request = self.list_request(id, &era, params.cursor.as_deref());
                out.respond(listing::list_page(
                    &SKILLS,
                    &index.entries,
                    &request,
                    None,
                    false,
                )?);
            }
            "skills/get" => {
                let uri = uri()?;
                let Some(entry) = index.entries.get(uri) else {
                    let uri = clip(uri, QUOTED_NAME_CHARS);
                    return Err(Failure::invalid_params(format!("No skill is served at {uri}"))
                        .with_data(json!({ "uri": uri })));
                };
                let mut result = json!({ "skill": entry.definition(era.version()) });
                if era.is_modern() {
                    result["resultType"] = json!("complete");
                    result["ttlMs"] = json!(self.options.list_ttl_ms);
                    result["cacheScope"] = json!("public");
                    let identity: Value = serde_json::from_str(self.identity.get()).unwrap_or(Value::Null);
                    result["_meta"] = json!({ META_SERVER_INFO: identity });
                }
                let mut bytes = Vec::with_capacity(512);
                jsonrpc::write_result(&mut bytes, id.raw, &result);
                out.respond(bytes);
            }
            _ => {
                let uri = uri()?;
                let Some(children) = index.directories.get(uri) else {
                    let uri = clip(uri, QUOTED_NAME_CHARS);
                    return Err(
                        Failure::invalid_params(format!("{uri} is not a directory resource"))
                            .with_data(json!({ "uri": uri })),
                    );
                };
                let request = self.list_request(id, &era, params.cursor.as_deref());
                out.respond(listing::list_page(
                    &listing::RESOURCES,
                    children,
                    &request,
                    None,
                    false,
                )?);
            }
        }
        Ok(())
    }
}
