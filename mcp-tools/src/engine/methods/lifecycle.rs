//! The methods around the tools: the legacy handshake (`initialize`), `server/discover`
//! (2026-07-28), and `logging/setLevel`.

use crate::engine::methods::subscriptions::{self, Updates};
use crate::engine::state::core::Engine;
use crate::engine::state::handle::Handle;
use crate::engine::state::listing::{self, Feed};
use crate::engine::wire::connection::LegacySession;
use crate::engine::wire::encode;
use crate::engine::wire::era::LEGACY;
use crate::engine::wire::failure::{Failure, Outcome, parse};
use crate::engine::wire::outbox::Outbox;
use crate::protocol::jsonrpc::Id;
use crate::protocol::messages::{InitializeParams, SetLevelParams};
use crate::protocol::{ErrorCode, ProtocolVersion};
use serde_json::value::RawValue;
use std::sync::Arc;

impl Engine {
    /// `initialize`: starts the connection's legacy session in the client's revision when
    /// this server speaks it, else in the newest legacy one.
    pub(crate) fn initialize(self: &Arc<Self>, req: Handle<'_>, params: Option<&RawValue>) -> Outcome {
        let Handle { conn, id, out, .. } = req;
        let params: InitializeParams = parse(params)
            .map_err(|e| Failure::invalid_params(format!("invalid `initialize` params: {e}")))?;
        let version = ProtocolVersion::parse(&params.protocol_version)
            .filter(|v| !v.is_modern())
            .unwrap_or(LEGACY[0]);
        let session = LegacySession {
            version,
            initialized: false,
            client_info: params.client_info.map(Arc::new),
            client_capabilities: params.capabilities.map(Arc::new),
            log_level: None,
        };
        if let Err(existing) = conn.begin_legacy(session) {
            return Err(Failure::new(
                ErrorCode::INVALID_REQUEST,
                format!("the connection is already initialized with protocol revision {existing}"),
            ));
        }
        // Watch from now, before the client can ask for anything: a change made by the very
        // next request must be announced, however late the watching task first runs.
        let feeds = self.feeds();
        let updates = Updates::of(self.resources.as_ref());
        out.respond(encode::initialize_result(
            id.raw,
            &self.info,
            version,
            self.initialize_capabilities(),
        ));
        let stall = self.options.limits.stream_stall_timeout;
        tokio::spawn(subscriptions::notify_legacy(
            Arc::clone(conn),
            feeds,
            updates,
            stall,
        ));
        Ok(())
    }

    /// `server/discover`: what `initialize` told legacy clients, per request.
    pub(crate) fn discover(&self, id: Id<'_>, out: &Outbox) -> Outcome {
        out.respond(encode::discover(
            id.raw,
            &self.info,
            self.modern_capabilities(),
            self.options.list_ttl_ms,
            &self.identity,
        ));
        Ok(())
    }

    /// `logging/setLevel`: the least severe level the session's log messages have from now.
    pub(crate) fn set_level(req: Handle<'_>, params: Option<&RawValue>) -> Outcome {
        let Handle { conn, id, out, .. } = req;
        let set: SetLevelParams =
            parse(params).map_err(|e| Failure::invalid_params(format!("invalid params: {e}")))?;
        conn.set_log_level(set.level);
        out.respond(encode::empty_result(id.raw));
        Ok(())
    }

    /// What the server offers, as `initialize` and `server/discover` declare it.
    pub(crate) fn capabilities(&self) -> serde_json::Value {
        let mut capabilities = serde_json::json!({ "tools": { "listChanged": true }, "logging": {} });
        if self.prompts.is_some() {
            capabilities["prompts"] = serde_json::json!({ "listChanged": true });
        }
        if self.resources.is_some() {
            capabilities["resources"] = serde_json::json!({ "listChanged": true, "subscribe": true });
        }
        // Prompt arguments and template variables complete.
        if self.prompts.is_some() || self.resources.is_some() {
            capabilities["completions"] = serde_json::json!({});
        }
        capabilities
    }

    /// What `initialize` declares: what the server offers, and the extensions whose clients
    /// read them there (MCP Apps, when the server has a view). `extensions` is not in those
    /// revisions' schemas, which let capabilities carry more than they name.
    fn initialize_capabilities(&self) -> serde_json::Value {
        let mut capabilities = self.capabilities();
        let extensions = self.extensions.declared_in_initialize();
        if !extensions.is_empty() {
            capabilities["extensions"] = serde_json::Value::Object(extensions);
        }
        capabilities
    }

    /// What the server offers in revision 2026-07-28: the same, and its extensions: those
    /// it was given, the tasks extension when it has a task tool, and the skills extension
    /// (with `resources/directory/read`) when it has skills. Revisions before have no
    /// `extensions` to declare them in.
    fn modern_capabilities(&self) -> serde_json::Value {
        let mut capabilities = self.capabilities();
        let extensions = self.extensions.declared(self.has_task_tools());
        if !extensions.is_empty() {
            capabilities["extensions"] = serde_json::Value::Object(extensions);
        }
        capabilities
    }

    /// A feed of changes to every catalog the server lists, from now on.
    pub(crate) fn feeds(&self) -> Vec<Feed> {
        let mut feeds = vec![Feed::new(&listing::TOOLS, self.tools.watch())];
        if let Some(prompts) = &self.prompts {
            feeds.push(Feed::new(&listing::PROMPTS, prompts.watch()));
        }
        if let Some(resources) = &self.resources {
            feeds.push(Feed::new(&listing::RESOURCES, resources.watch()));
        }
        feeds
    }
}
