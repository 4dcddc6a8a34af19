//! What tool search serves, made from one snapshot of the tools and kept until the tools
//! change: the ranker's index, the groups, and the list `tools/list` answers with search on
//! (the `always_load` tools, then `search_tools` and `call_tool`), its definitions encoded
//! once per revision like any catalog's.

use crate::discovery::{CALL_TOOL, SEARCH_TOOLS, ToolIndex, ToolSearch};
use crate::registry::catalog::Snapshot;
use crate::result::CallToolResult;
use crate::tool::Tool;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex, PoisonError};

/// Tool search on a server: how it searches, and what it made of the tools last searched.
pub(crate) struct Searching {
    pub(crate) config: ToolSearch,
    prepared: Mutex<Option<Arc<Prepared>>>,
}

/// What one snapshot of the tools is searched with.
pub(crate) struct Prepared {
    /// The snapshot it was made from: the catalog's tools, in the positions hits name.
    pub(crate) tools: Arc<Snapshot<Tool>>,
    pub(crate) index: Box<dyn ToolIndex>,
    /// What `tools/list` lists: the `always_load` tools, then the two of search.
    pub(crate) listed: Snapshot<Tool>,
    /// The groups of the tools, in the order they first appear.
    pub(crate) groups: Vec<String>,
}

impl Searching {
    pub(crate) fn new(config: ToolSearch) -> Searching {
        Searching {
            config,
            prepared: Mutex::new(None),
        }
    }

    /// What `tools` is searched with: made on first use, and again only once the tools
    /// change.
    pub(crate) fn prepared(&self, tools: Arc<Snapshot<Tool>>) -> Arc<Prepared> {
        let mut prepared = self.prepared.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(ready) = &*prepared
            && Arc::ptr_eq(&ready.tools, &tools)
        {
            return Arc::clone(ready);
        }
        let index = self.config.ranker.index(tools.items());
        let mut groups: Vec<String> = Vec::new();
        for group in tools.items().iter().filter_map(Tool::group) {
            if !groups.iter().any(|g| g == group) {
                groups.push(group.to_owned());
            }
        }
        let mut listed: Vec<Tool> = tools
            .items()
            .iter()
            .filter(|t| t.always_load())
            .cloned()
            .collect();
        listed.push(search_tool(tools.items().len(), &groups, self.config.results()));
        listed.push(call_tool());
        let ready = Arc::new(Prepared {
            index,
            listed: Snapshot::new(listed),
            groups,
            tools,
        });
        *prepared = Some(Arc::clone(&ready));
        ready
    }
}

/// `search_tools`'s definition. Its calls are answered by the engine, never by this
/// handler.
fn search_tool(tools: usize, groups: &[String], results: usize) -> Tool {
    let mut properties = json!({
        "query": {
            "type": "string",
            "description": "What you want to do, in plain words (\"refund last Tuesday's order\")",
        },
        "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": results,
            "description": format!("The most tools to answer (at most {results}, the default)"),
        },
    });
    if !groups.is_empty() {
        properties["group"] = json!({
            "type": "string",
            "enum": groups,
            "description": "Only the tools of this group",
        });
    }
    let description = format!(
        "Finds the tools for a task among this server's {tools} tools. Describe the task in plain words; the best matches are answered with their input schemas. Call one with `call_tool`."
    );
    let schema = json!({"type": "object", "properties": properties, "required": ["query"]});
    framework_tool(SEARCH_TOOLS, "Search tools", &description, schema)
}

/// `call_tool`'s definition; its calls become calls of the tool they name.
fn call_tool() -> Tool {
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "The tool's name, as `search_tools` answers it"},
            "arguments": {"type": "object", "description": "The tool's arguments, as its input schema says"},
        },
        "required": ["name"],
    });
    let description = "Calls a tool of this server by its name (find it with `search_tools`), with the arguments its input schema asks for, and answers what the tool answers.";
    framework_tool(CALL_TOOL, "Call a tool", description, schema)
}

fn framework_tool(name: &str, title: &str, description: &str, schema: Value) -> Tool {
    Tool::from_json(name, description, schema, |_, _| async {
        CallToolResult::internal("the framework's search tools are answered by the engine")
    })
    .map(|tool| tool.with_title(title))
    .unwrap_or_else(|error| unreachable!("the framework's tool definitions are valid: {error}"))
}
