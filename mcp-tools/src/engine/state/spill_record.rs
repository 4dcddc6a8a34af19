//! What the engine keeps of spilled results, apart from the methods that spill them
//! (`super`), so that the engine's core can hold it: the options, the pages' reader, the
//! `read_result` tool and the page resource, and whether the tool is listed.

use crate::__private::{ResourceBuilder, ResourceInvocation};
use crate::content::{Content, ResourceContents};
use crate::context::{Context, Principal};
use crate::error::ToolError;
use crate::prompt::HandlerError;
use crate::protocol::arguments::{QUOTED_NAME_CHARS, clip};
use crate::registry::ToolRegistry;
use crate::resource::{ReadOutput, Resource};
use crate::result::CallToolResult;
use crate::task::{RESULT_ID_PREFIX, TaskStore, now_ms};
use crate::tool::{RawArguments, Tool, ToolAnnotations};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// The tool that reads a spilled result's pages.
pub(crate) const READ_RESULT: &str = "read_result";

/// The URI template of a spilled result's pages.
pub(crate) const PAGE_TEMPLATE: &str = "mcp-result://{id}/{page}";

/// The URI of page `page` of result `id`.
pub(crate) fn page_uri(id: &str, page: usize) -> String {
    format!("mcp-result://{id}/{page}")
}

/// How results are budgeted, set through `Server`.
#[derive(Debug, Clone)]
pub(crate) struct SpillOptions {
    /// The server's budget, for tools without one of their own; `None`: no budget.
    pub(crate) budget: Option<usize>,
    /// How long a spilled result's pages are kept.
    pub(crate) ttl: Duration,
    /// The largest result spilled, in bytes of its text; a larger one is sent whole,
    /// which `max_result_size` then refuses.
    pub(crate) max_spilled_bytes: usize,
}

impl Default for SpillOptions {
    fn default() -> SpillOptions {
        SpillOptions {
            budget: None,
            ttl: Duration::from_secs(600),
            max_spilled_bytes: 64 * 1024 * 1024,
        }
    }
}

/// The line after a later page read through `read_result`.
pub(crate) fn page_line(id: &str, page: usize, pages: usize) -> String {
    if page >= pages {
        return format!("[Page {page} of {pages}: the end of result {id}.]");
    }
    let next = page + 1;
    format!(
        "[Page {page} of {pages} of result {id}. Read page {next} with the tool `{READ_RESULT}` \
         and arguments {{\"id\": \"{id}\", \"page\": {next}}}, or as the resource {uri}.]",
        uri = page_uri(id, next),
    )
}

/// One page as the store keeps it (the [`StoredTask::data`]).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct PageRecord {
    /// The subject of the principal whose call made the result; only it reads the pages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) owner: Option<String>,
    pub(crate) page: usize,
    pub(crate) pages: usize,
    pub(crate) text: String,
}

/// The store's id of page `page` of result `id`.
pub(crate) fn record_id(id: &str, page: usize) -> String {
    format!("{RESULT_ID_PREFIX}{id}:{page}")
}

/// Reads the spilled results' pages: what the `read_result` tool and the page resource
/// take from their context.
#[derive(Clone)]
pub(crate) struct Pages {
    store: Arc<dyn TaskStore>,
}

impl Pages {
    /// Page `page` of result `id` with the number of pages, if `caller` may read it: `None`
    /// alike when there is no such page, its time is up, or another made it.
    async fn read(&self, id: &str, page: usize, caller: Option<&Principal>) -> Option<(String, usize)> {
        if page == 0 || !crate::task::could_be_id(id) {
            return None;
        }
        let stored = match self.store.load(&record_id(id, page)).await {
            Ok(stored) => stored?,
            Err(error) => {
                tracing::warn!(%error, "could not read a spilled result's page");
                return None;
            }
        };
        let record: PageRecord = serde_json::from_str(&stored.data).ok()?;
        (record.owner.as_deref() == caller.map(|p| p.subject.as_str()) && record.page == page)
            .then_some((record.text, record.pages))
    }
}

/// Whether `read_result` is listed, and until when this instance knows of spilled results.
#[derive(Default)]
struct Listed {
    listed: bool,
    until: u64,
}

/// The engine's spilled results.
pub(crate) struct Spills {
    pub(crate) options: SpillOptions,
    pages: Arc<Pages>,
    /// The `read_result` tool, listed while this instance knows of spilled results.
    tool: Tool,
    tools: ToolRegistry,
    listed: Arc<Mutex<Listed>>,
}

impl Spills {
    pub(crate) fn new(options: SpillOptions, store: Arc<dyn TaskStore>, tools: ToolRegistry) -> Spills {
        let pages = Arc::new(Pages { store });
        Spills {
            tool: read_result_tool(Arc::clone(&pages)),
            pages,
            options,
            tools,
            listed: Arc::default(),
        }
    }

    /// What the page resource reads pages with, lent through its context.
    pub(crate) fn pages(&self) -> Pages {
        Pages::clone(&self.pages)
    }

    /// The `read_result` tool, for a call of it when it is not listed.
    pub(crate) fn tool(&self) -> &Tool {
        &self.tool
    }

    /// Lists `read_result` until `until` at least, and unlists it once that time has
    /// passed with no result spilled since.
    pub(crate) fn keep_listed(&self, until: u64) {
        let mut listed = self.listed.lock().unwrap_or_else(|e| e.into_inner());
        listed.until = listed.until.max(until);
        if listed.listed {
            return;
        }
        if self.tools.add_item(self.tool.clone()).is_err() {
            // The server has a tool of that name (added while serving): calls go to it.
            return;
        }
        listed.listed = true;
        let (state, tools) = (Arc::clone(&self.listed), self.tools.clone());
        tokio::spawn(async move {
            loop {
                let until = state.lock().unwrap_or_else(|e| e.into_inner()).until;
                let wait = until.saturating_sub(now_ms());
                tokio::time::sleep(Duration::from_millis(wait)).await;
                let mut listed = state.lock().unwrap_or_else(|e| e.into_inner());
                if listed.until <= now_ms() {
                    tools.remove(READ_RESULT);
                    listed.listed = false;
                    return;
                }
            }
        });
    }
}

/// The pages' resource template, once a budget was set (`budgets::link_spilling`): a server
/// without budgets lists none, and does not link it.
static PAGES: OnceLock<fn() -> Resource> = OnceLock::new();

/// Installs the pages' resource template.
pub(crate) fn link_pages() {
    PAGES.get_or_init(|| page_resource);
}

/// The resource template of the pages, for a server with budgets; `None` if no budget was
/// ever set.
pub(crate) fn linked_page_resource() -> Option<Resource> {
    PAGES.get().map(|page_resource| page_resource())
}

/// The resource template of the pages, listed so that clients can find them.
fn page_resource() -> Resource {
    ResourceBuilder::new(
        PAGE_TEMPLATE,
        "result_page",
        Some(
            "A page of a tool result too large to answer with at once: the answer gave its id \
             and how many pages it has. The contents are the page's text, then (unless it is \
             the last) the next page's URI as text/uri-list.",
        ),
    )
    .title("Result page")
    .mime_type("text/plain")
    .with_context()
    .build(read_page)
}

/// The page resource's fn: the page's text, and the next page's URI.
fn read_page(cx: &Context, variables: RawArguments<'_>) -> ResourceInvocation {
    let variables = variables.into_map().unwrap_or_default();
    let id = variables
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let page_text = variables.get("page").and_then(Value::as_str).unwrap_or_default();
    let uri = format!("mcp-result://{id}/{page_text}");
    let page = page_text
        .parse::<usize>()
        .ok()
        .filter(|_| !page_text.starts_with('0'));
    let pages = cx.service::<Pages>();
    let caller = cx.principal().cloned();
    // The same words as for any URI no resource has, so that nothing tells an expired id
    // from another's or from one never made.
    let missing = match cx.protocol_version() {
        Some(version) if version.is_modern() => {
            format!("Resource not found: {}", clip(&uri, QUOTED_NAME_CHARS))
        }
        _ => "Resource not found".to_owned(),
    };
    ResourceInvocation::future(async move {
        let found = match (pages, page) {
            (Some(pages), Some(page)) => pages.read(&id, page, caller.as_ref()).await.map(|f| (page, f)),
            _ => None,
        };
        let Some((page, (text, count))) = found else {
            return Err(HandlerError::Failed(ToolError::not_found(missing)));
        };
        let mut contents = vec![ResourceContents::Text {
            uri: page_uri(&id, page),
            mime_type: Some("text/plain".to_owned()),
            text,
        }];
        if page < count {
            let next = page_uri(&id, page + 1);
            contents.push(ResourceContents::Text {
                uri: next.clone(),
                mime_type: Some("text/uri-list".to_owned()),
                text: next,
            });
        }
        Ok(ReadOutput::Contents(contents))
    })
}

/// The `read_result` tool: a page and the line that says how to read on.
fn read_result_tool(pages: Arc<Pages>) -> Tool {
    let schema = json!({
        "type": "object",
        "properties": {
            "id": {
                "type": "string",
                "description": "The result's id, as the answer that gave its first page said"
            },
            "page": {
                "type": "integer",
                "minimum": 1,
                "description": "The page to read: 2 is the one after the first"
            }
        },
        "required": ["id", "page"],
        "additionalProperties": false
    });
    let tool = Tool::from_json(
        READ_RESULT,
        "Reads the next page of a tool result too large to answer with at once. The answer \
         that gave the first page says the result's id and how many pages it has.",
        schema,
        move |arguments: Map<String, Value>, cx: Context| {
            let pages = Arc::clone(&pages);
            async move {
                let (Some(id), Some(page)) = (
                    arguments.get("id").and_then(Value::as_str),
                    arguments.get("page").and_then(Value::as_u64),
                ) else {
                    return CallToolResult::error(
                        "`read_result` takes `id` (a string) and `page` (an integer from 1)",
                    );
                };
                let page = usize::try_from(page).unwrap_or(usize::MAX);
                match pages.read(id, page, cx.principal()).await {
                    Some((text, count)) => CallToolResult::new(vec![
                        Content::text(text),
                        Content::text(page_line(id, page, count)),
                    ]),
                    None if crate::task::could_be_id(id) => CallToolResult::error(format!(
                        "no page {page} of a result `{}`: unknown or expired result id, or no such page",
                        clip(id, QUOTED_NAME_CHARS)
                    )),
                    None => CallToolResult::error(format!(
                        "no page {page} of such a result: `id` is not a result id (the answer that gave the first page says it)"
                    )),
                }
            }
        },
    );
    // The name and schema above are valid: `from_json` cannot refuse them.
    let tool = tool.unwrap_or_else(|_| unreachable!("`read_result` is a valid tool"));
    let annotations = ToolAnnotations {
        read_only_hint: Some(true),
        idempotent_hint: Some(true),
        open_world_hint: Some(false),
        ..ToolAnnotations::default()
    };
    tool.with_title("Read a result's next page")
        .with_annotations(annotations)
}
