//! `#[tool(task)]` in every form it is written, on every form of tool: async and sync fns,
//! `&self` methods, tools that take a `Context` and ask.
use mcp_toolkit::ask::Elicitation;
use mcp_toolkit::tool::TaskSupport;
use mcp_toolkit::{Context, ToolError, tool, tools};
use std::sync::Arc;

/// Builds the monthly report; takes a while.
#[tool(task)]
async fn build_report(month: String) -> String {
    format!("report for {month}")
}

/// Re-indexes everything; only ever runs as a task.
#[tool(task = "required")]
async fn reindex(ctx: Context) -> Result<String, ToolError> {
    if ctx.is_cancelled() {
        return Err(ToolError::new("cancelled"));
    }
    Ok("done".into())
}

/// Compresses the archive, on the blocking pool.
#[tool(task = "optional")]
fn compress(level: u8) -> String {
    format!("compressed at level {level}")
}

/// Adds two numbers, never as a task.
#[tool(task = "forbidden")]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Confirm {
    /// Delete them all?
    confirm: bool,
}

/// Deletes every draft, once the user confirms.
#[tool(task = "required", annotations(destructive))]
async fn clear_drafts(ctx: Context) -> Result<&'static str, ToolError> {
    match ctx.elicit::<Confirm>("Delete all drafts?").await? {
        Elicitation::Accept(Confirm { confirm: true }) => Ok("deleted"),
        _ => Ok("kept"),
    }
}

struct Crawler {
    pages: u32,
}

impl Crawler {
    /// Crawls the site.
    #[tool(task)]
    async fn crawl(&self, ctx: Context, site: String) -> String {
        let _ = ctx.is_cancelled();
        format!("{} pages of {site}", self.pages)
    }

    /// Counts the pages crawled, on the blocking pool.
    #[tool(task = "required")]
    fn count(&self) -> u32 {
        self.pages
    }

    /// Says hello.
    #[tool]
    fn hello(&self) -> &'static str {
        "hello"
    }
}

fn main() {
    let supports = |tools: Vec<mcp_toolkit::Tool>| {
        tools
            .iter()
            .map(|t| (t.name().to_owned(), t.task_support()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        supports(tools![build_report, reindex, compress, add, clear_drafts]),
        [
            ("build_report".to_owned(), TaskSupport::Optional),
            ("reindex".to_owned(), TaskSupport::Required),
            ("compress".to_owned(), TaskSupport::Optional),
            ("add".to_owned(), TaskSupport::Forbidden),
            ("clear_drafts".to_owned(), TaskSupport::Required),
        ]
    );
    let crawler = Arc::new(Crawler { pages: 3 });
    assert_eq!(
        supports(tools![crawler => crawl, count, hello]),
        [
            ("crawl".to_owned(), TaskSupport::Optional),
            ("count".to_owned(), TaskSupport::Required),
            ("hello".to_owned(), TaskSupport::Forbidden),
        ]
    );
}
