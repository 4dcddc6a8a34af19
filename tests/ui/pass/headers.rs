//! `#[header("...")]` forms that must compile: the example verbatim, every type a
//! header carries, an alias, an `Option`, a header beside a default and injected values.
#![allow(unused_variables)] // the body is elided
use mcp_toolkit::{Context, tool, tools};

/// Today's forecast.
#[tool]
async fn forecast(
    /// The region, also sent as the `Mcp-Param-Region` header
    #[header("Region")] region: String,
    city: String,
) -> String { /* … */ String::new() }

type Tenant = String;

/// Lists a tenant's jobs.
#[tool]
fn jobs(
    cx: Context,
    #[header("Tenant")] tenant: Tenant,
    #[header("Page")] page: Option<u32>,
    #[header("Dry-Run")] #[default(false)] dry_run: bool,
    #[header("X_Trace.v2!#$%&'*+^`|~")] trace: i64,
    #[header("Zone")] zone: Option<Box<str>>,
) -> String {
    drop(cx);
    format!("{tenant} {page:?} {dry_run} {trace} {zone:?}")
}

fn main() {
    let tools = tools![forecast, jobs];
    let region = &tools[0].input_schema()["properties"]["region"];
    assert_eq!(region["x-mcp-header"], "Region");
    assert_eq!(tools[1].input_schema()["properties"]["page"]["x-mcp-header"], "Page");
    assert_eq!(tools[1].input_schema()["properties"]["dry_run"]["x-mcp-header"], "Dry-Run");
    assert!(tools[1].input_schema()["properties"].get("cx").is_none());
}
