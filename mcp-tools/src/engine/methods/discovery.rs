//! Tool search in the engine: `tools/list` with search on, `search_tools`, and `call_tool`,
//! which becomes the call of the tool it names before anything else sees it, so that the
//! call goes the one way every call goes.

use crate::discovery::{CALL_TOOL, Hit, Query, SEARCH_TOOLS, close_names};
use crate::engine::state::core::{Auth, Engine};
use crate::engine::state::handle::Handle;
use crate::engine::state::listing;
use crate::engine::state::search_index::{Prepared, Searching};
use crate::engine::wire::connection::Connection;
use crate::engine::wire::era::Era;
use crate::engine::wire::failure::Outcome;
use crate::engine::wire::outbox::Answer;
use crate::engine::wire::telemetry;
use crate::protocol::ProtocolVersion;
use crate::protocol::arguments::{QUOTED_NAME_CHARS, RawArguments, clip};
use crate::protocol::messages::CallToolParams;
use crate::result::CallToolResult;
use crate::tool::{TaskSupport, Tool};
use serde::Deserialize;
use serde_json::{Value, json};
use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::OnceLock;

/// The longest query a search reads, in bytes: what a model writes is a sentence.
const MAX_QUERY_BYTES: usize = 1024;

/// How many close names an unknown tool's error suggests.
const SUGGESTIONS: usize = 3;

/// What tool search runs, installed by `Server::tool_search` ([`link`]): the engine calls
/// through it, so a server that never searches links none of search (see bench/README.md,
/// "Footprint").
pub(crate) struct Linked {
    /// `tools/list` with search on.
    pub(crate) list: fn(&Engine, &Searching, Handle<'_>, &Era, Option<&str>) -> Outcome,
    /// `search_tools` over the protocol.
    pub(crate) search: fn(&Engine, &Searching, Handle<'_>, &Era, &RawArguments<'_>) -> Outcome,
    /// `call_tool`, as the call of the tool it names.
    pub(crate) call: for<'a> fn(
        &Engine,
        &Searching,
        Handle<'_>,
        &Era,
        CallToolParams<'a>,
    ) -> Result<CallToolParams<'a>, CallToolResult>,
    /// `search_tools` outside the protocol (`Server::execute`, the command line's `call`).
    pub(crate) result: SearchResult,
}

/// What `search_tools` answers, finding only the tools the last argument allows.
pub(crate) type SearchResult =
    fn(&Engine, &Searching, &RawArguments<'_>, ProtocolVersion, &dyn Fn(&Tool) -> bool) -> CallToolResult;

static LINKED: OnceLock<Linked> = OnceLock::new();

/// Installs tool search.
pub(crate) fn link() {
    LINKED.get_or_init(|| Linked {
        list: Engine::list_searchable,
        search: Engine::search_tools,
        call: Engine::called_through,
        result: Engine::search_result,
    });
}

/// Tool search, on a server whose `tool_search` installed it.
pub(crate) fn linked() -> Option<&'static Linked> {
    LINKED.get()
}

impl Engine {
    /// Whether the groups a connection asked for (`Server::toolsets_header`) take in
    /// `tool`: always, when it asked for none.
    pub(crate) fn in_groups(conn: &Connection, tool: &Tool) -> bool {
        conn.groups().is_none_or(|groups| {
            tool.group()
                .is_some_and(|group| groups.iter().any(|g| **g == *group))
        })
    }

    /// `tools/list` with search on: the `always_load` tools the caller may see, then
    /// `search_tools` and `call_tool`.
    pub(crate) fn list_searchable(
        &self,
        searching: &Searching,
        req: Handle<'_>,
        era: &Era,
        cursor: Option<&str>,
    ) -> Outcome {
        let Handle { conn, id, out, auth } = req;
        let prepared = searching.prepared(self.tools.snapshot());
        let request = self.list_request(id, era, cursor);
        // No tool of the server's own has the framework's names (`Server::check`).
        let framework = |tool: &Tool| matches!(tool.name(), SEARCH_TOOLS | CALL_TOOL);
        let visible = |tool: &Tool| framework(tool) || self.searchable(conn, tool, era, auth);
        let private = self.visibility.tools.is_some();
        out.respond(listing::list_page(
            &listing::TOOLS,
            &prepared.listed,
            &request,
            Some(&visible),
            private,
        )?);
        Ok(())
    }

    /// Whether a caller may find `tool`: it may see it, it is in the groups its connection
    /// asked for, its era can call it (a tool that runs only as a task needs 2026-07-28),
    /// and it is the model's (not a tool only an MCP Apps view calls).
    fn searchable(&self, conn: &Connection, tool: &Tool, era: &Era, auth: Auth<'_>) -> bool {
        tool.visible_to_model()
            && (era.is_modern() || tool.task_support() != TaskSupport::Required)
            && Engine::in_groups(conn, tool)
            && self.tool_visible(tool, auth)
    }

    /// `search_tools`: the best matches the caller may call, as full definitions in
    /// `structuredContent` and as a list in the text.
    pub(crate) fn search_tools(
        &self,
        searching: &Searching,
        req: Handle<'_>,
        era: &Era,
        arguments: &RawArguments<'_>,
    ) -> Outcome {
        let Handle { conn, id, out, auth } = req;
        let findable = |tool: &Tool| self.searchable(conn, tool, era, auth);
        let result = self.search_result(searching, arguments, era.version(), &findable);
        out.respond_as(
            self.encode_call(id.raw, &result, era.version(), false, era.is_modern()),
            if result.is_error() {
                Answer::ToolError
            } else {
                Answer::Complete
            },
        );
        Ok(())
    }

    /// What `search_tools` answers for `arguments`, finding only what `findable` allows,
    /// with definitions as `version` has them.
    pub(crate) fn search_result(
        &self,
        searching: &Searching,
        arguments: &RawArguments<'_>,
        version: ProtocolVersion,
        findable: &dyn Fn(&Tool) -> bool,
    ) -> CallToolResult {
        let search = match SearchArguments::read(arguments, searching.config.results()) {
            Ok(search) => search,
            Err(refusal) => return CallToolResult::error(refusal),
        };
        let prepared = searching.prepared(self.tools.snapshot());
        if let Some(group) = &search.group
            && !prepared.groups.iter().any(|g| g == group)
        {
            return CallToolResult::error(unknown_group(group, &prepared.groups));
        }
        let tools = prepared.tools.items();
        let admit = |position: usize| {
            let tool = &tools[position];
            search.group.as_deref().is_none_or(|g| tool.group() == Some(g)) && findable(tool)
        };
        let hits = find(&prepared, &search.query, search.limit, &admit);
        let found: Vec<&Tool> = hits.iter().map(|hit| &tools[hit.position]).collect();
        found_result(&search.query, &found, version)
    }

    /// `call_tool`'s call as the call of the tool it names, which the span and the
    /// middleware name from now on; `Err` is the tool error that refuses it: no `name`, or
    /// the name of no tool the caller may call.
    pub(crate) fn called_through<'a>(
        &self,
        searching: &Searching,
        req: Handle<'_>,
        era: &Era,
        call: CallToolParams<'a>,
    ) -> Result<CallToolParams<'a>, CallToolResult> {
        let (name, arguments) = read_call(&call.arguments)?;
        if matches!(&*name, SEARCH_TOOLS | CALL_TOOL) {
            return Err(CallToolResult::error(format!(
                "`call_tool` calls the server's tools; call `{name}` directly"
            )));
        }
        let Handle { conn, out, auth, .. } = req;
        // `call_tool` is the model's way in, so a tool only views call is not found by it.
        let callable = self.tools.snapshot().get(&name).is_some_and(|tool| {
            tool.visible_to_model()
                && self.tool_visible(tool, auth)
                && (era.is_modern() || tool.task_support() != TaskSupport::Required)
        });
        if !callable {
            let prepared = searching.prepared(self.tools.snapshot());
            let tools = prepared.tools.items();
            let admit = |position: usize| self.searchable(conn, &tools[position], era, auth);
            return Err(CallToolResult::error(unknown_tool(&name, &prepared, &admit)));
        }
        telemetry::record_call(&name);
        out.name_call(&name);
        Ok(CallToolParams {
            name,
            arguments,
            ..call
        })
    }
}

/// The hits of a search, checked again: at most `limit`, each admitted, none twice.
fn find(prepared: &Prepared, query: &str, limit: usize, admit: &dyn Fn(usize) -> bool) -> Vec<Hit> {
    let mut hits = Vec::with_capacity(limit);
    prepared
        .index
        .search(&Query::new(query, limit).only(admit), &mut hits);
    let count = prepared.tools.items().len();
    let mut seen = Vec::with_capacity(hits.len());
    hits.retain(|hit| {
        let keep = hit.position < count && admit(hit.position) && !seen.contains(&hit.position);
        seen.push(hit.position);
        keep
    });
    hits.truncate(limit);
    hits
}

/// What `search_tools` was asked.
struct SearchArguments {
    query: String,
    limit: usize,
    group: Option<String>,
}

impl SearchArguments {
    /// Reads the arguments; `Err` says what is wrong with them, and what is accepted.
    fn read(arguments: &RawArguments<'_>, most: usize) -> Result<SearchArguments, String> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Sent {
            query: Option<Value>,
            limit: Option<Value>,
            group: Option<Value>,
        }
        let map = arguments
            .clone()
            .into_map()
            .map_err(|_| "`search_tools` takes an object: {\"query\": \"what you want to do\"}".to_owned())?;
        let sent: Sent = serde_json::from_value(Value::Object(map)).map_err(|error| {
            format!("{error}; `search_tools` takes `query` (a string), `limit` (1 to {most}) and `group`")
        })?;
        let query = match sent.query {
            Some(Value::String(query)) if !query.trim().is_empty() => query,
            Some(Value::String(_)) | None => {
                return Err("`query` is missing or empty: say in plain words what you want to do".to_owned());
            }
            Some(other) => return Err(format!("`query` must be a string, not {}", kind(&other))),
        };
        if query.len() > MAX_QUERY_BYTES {
            return Err(format!(
                "`query` is {} bytes, more than the {MAX_QUERY_BYTES} a search reads; say it in fewer words",
                query.len()
            ));
        }
        let limit = match sent.limit {
            None | Some(Value::Null) => most,
            Some(Value::Number(n)) => match n.as_u64() {
                Some(n) if (1..=most as u64).contains(&n) => n as usize,
                _ => {
                    return Err(format!(
                        "`limit` must be a whole number from 1 to {most}, not {n}"
                    ));
                }
            },
            Some(other) => {
                return Err(format!(
                    "`limit` must be a whole number from 1 to {most}, not {}",
                    kind(&other)
                ));
            }
        };
        let group = match sent.group {
            None | Some(Value::Null) => None,
            Some(Value::String(group)) => Some(group),
            Some(other) => return Err(format!("`group` must be a string, not {}", kind(&other))),
        };
        Ok(SearchArguments { query, limit, group })
    }
}

/// `a string`, `a number`, ... for messages.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `call_tool`'s `name` and `arguments`; `Err` is the error result that says how it is called.
fn read_call<'a>(arguments: &RawArguments<'a>) -> Result<(Cow<'a, str>, RawArguments<'a>), CallToolResult> {
    const USAGE: &str =
        "`call_tool` takes {\"name\": \"<a tool's name, from search_tools>\", \"arguments\": {...}}";
    let name = match arguments.get("name") {
        Some(raw) => match <&'a str>::deserialize(raw) {
            Ok(name) => Cow::Borrowed(name),
            Err(_) => match String::deserialize(raw) {
                Ok(name) => Cow::Owned(name),
                Err(_) => return Err(CallToolResult::error(format!("`name` must be a string; {USAGE}"))),
            },
        },
        None => return Err(CallToolResult::error(format!("`name` is missing; {USAGE}"))),
    };
    let inner = match arguments.get("arguments").filter(|raw| raw.get() != "null") {
        Some(raw) => RawArguments::from_json(raw.get())
            .map_err(|_| CallToolResult::error(format!("`arguments` is not JSON; {USAGE}")))?,
        None => {
            if let Some(stray) = arguments.keys().find(|key| !matches!(*key, "name" | "arguments")) {
                return Err(CallToolResult::error(format!(
                    "`{}` is beside `name`: a tool's arguments go in `arguments`; {USAGE}",
                    clip(stray, QUOTED_NAME_CHARS)
                )));
            }
            RawArguments::from_json("{}").map_err(|_| CallToolResult::internal_error())?
        }
    };
    Ok((name, inner))
}

/// The error of a `call_tool` naming no tool the caller may call, with the closest names:
/// by spelling first, then by search on the name's words.
fn unknown_tool(name: &str, prepared: &Prepared, admit: &dyn Fn(usize) -> bool) -> String {
    let tools = prepared.tools.items();
    let names = tools
        .iter()
        .enumerate()
        .filter(|(position, _)| admit(*position))
        .map(|(_, tool)| tool.name());
    let mut close: Vec<&str> = close_names(name, names, SUGGESTIONS);
    if close.len() < SUGGESTIONS {
        for hit in find(prepared, &name.replace(['_', '-', '.'], " "), SUGGESTIONS, admit) {
            let found = tools[hit.position].name();
            if close.len() < SUGGESTIONS && !close.contains(&found) {
                close.push(found);
            }
        }
    }
    let mut message = format!("no tool `{}` is offered", clip(name, QUOTED_NAME_CHARS));
    if close.is_empty() {
        message.push('.');
    } else {
        let listed: Vec<String> = close.iter().map(|n| format!("`{n}`")).collect();
        let _ = write!(message, "; did you mean {}?", listed.join(", "));
    }
    message.push_str(" Find tools with `search_tools`.");
    message
}

fn unknown_group(group: &str, groups: &[String]) -> String {
    let listed: Vec<String> = groups.iter().map(|g| format!("`{g}`")).collect();
    format!(
        "no group `{}`; the groups are {}",
        clip(group, QUOTED_NAME_CHARS),
        listed.join(", ")
    )
}

/// `search_tools`'s answer: `{"tools": [definitions]}`, and a line per tool (its name,
/// parameters and the first sentence of its description) for clients that read only text.
fn found_result(query: &str, found: &[&Tool], version: ProtocolVersion) -> CallToolResult {
    let definitions: Vec<Value> = found.iter().map(|tool| tool.definition(version)).collect();
    let mut text = if found.is_empty() {
        format!(
            "No tool matches \"{}\". Try other words: what you want done, in plain language.",
            clip(query, MAX_QUERY_BYTES)
        )
    } else {
        "Call one with `call_tool` {\"name\": ..., \"arguments\": {...}}:".to_owned()
    };
    for tool in found {
        let _ = write!(text, "\n- {}({})", tool.name(), parameters(tool));
        if let Some(summary) = tool.description().map(first_sentence) {
            let _ = write!(text, ": {summary}");
        }
    }
    // A `Value` always serializes.
    CallToolResult::structured_with_text(&json!({ "tools": definitions }), text)
        .unwrap_or_else(|_| CallToolResult::internal_error())
}

/// `charge, amount?`: a tool's parameters, the optional ones marked.
fn parameters(tool: &Tool) -> String {
    let schema = tool.input_schema();
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return String::new();
    };
    let names: Vec<String> = properties
        .keys()
        .map(|name| {
            if required.contains(&name.as_str()) {
                name.clone()
            } else {
                format!("{name}?")
            }
        })
        .collect();
    names.join(", ")
}

/// The first sentence of a description, or its first line.
fn first_sentence(description: &str) -> &str {
    let line = description.lines().next().unwrap_or_default();
    match line.find(". ") {
        Some(end) => &line[..=end],
        None => line,
    }
}
