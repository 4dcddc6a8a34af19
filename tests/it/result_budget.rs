//! Result budgets: a result larger than its tool's budget comes as a first page, a link to
//! the whole result and a line saying how to read on; the rest is read page by page as the
//! resource `mcp-result://{id}/{page}` or through the `read_result` tool. Against the notes
//! example (its `export_markdown` has a budget of 1 KiB) over stdio and HTTP in both eras,
//! and against servers built here for what the example does not show: structured output,
//! budgets per tool and per server, another principal, expiry, a 5 MB answer and many
//! spilled results in a bounded store.

use super::notes::{Wire, add, client_request, wires};
use crate::support::callers::TwoCallers;
use crate::support::modern_meta;
use mcp_toolkit::task::{MemoryStore, TaskStore};
use mcp_toolkit::{Json, Server, tool, tools};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

/// The notes `export_markdown` exports, in the order added: title, body, tags.
const NOTES: [(&str, &str, &[&str]); 5] = [
    (
        "Rust traits",
        "Traits define shared behaviour. A trait object erases the type behind a pointer;\n\
         generics keep it and monomorphize. Prefer generics on hot paths, objects where the\n\
         set of types is open. Blanket impls give a trait to every type that has another.",
        &["rust", "lang"],
    ),
    (
        "Groceries",
        "eggs, rice, green tea, oat milk, two lemons, a loaf of rye, butter, black pepper,\n\
         tomatoes (the small ones), basil, olive oil, sea salt, coffee beans for the week",
        &[],
    ),
    (
        "Reading list",
        "Crafting Interpreters; The Rust Programming Language; Designing Data-Intensive\n\
         Applications; A Philosophy of Software Design; Programming Pearls; SICP, again.",
        &["books"],
    ),
    (
        "Déjà vu — café notes",
        "Naïve questions are welcome: «pourquoi?» leads to better design. 日本語のメモも\n\
         ここに書く。Emoji travel too: 🦀📚☕. Each page must cut between characters.",
        &["unicode"],
    ),
    (
        "Trip",
        "Train at 07:42 from platform 3; change at Lyon; arrive 12:15. Hotel on rue Victor\n\
         Hugo, check-in from 15:00. Dinner booked at 20:00 near the river. Return Sunday.",
        &["travel", "plans"],
    ),
];

/// What `export_markdown` answers for `NOTES`, as the example writes it.
fn expected_markdown() -> String {
    let mut markdown = String::from("# Notes\n");
    for (title, body, tags) in NOTES {
        markdown.push_str(&format!("\n## {title}\n\n{body}\n"));
        if !tags.is_empty() {
            markdown.push_str(&format!("\nTags: {}\n", tags.join(", ")));
        }
    }
    markdown
}

/// The id in a page's URI `mcp-result://<id>/<page>`.
fn id_of(uri: &str) -> &str {
    let rest = uri.strip_prefix("mcp-result://").expect("a page's URI");
    rest.rsplit_once('/').expect("an id and a page").0
}

/// The first page's answer as the server must give it, for a result `id` of `bytes`
/// bytes in `pages` pages with `first` as its first page's text.
fn first_answer(id: &str, first: &str, bytes: usize, budget: usize, pages: usize, structured: bool) -> Value {
    let left_out = if structured {
        " Its structuredContent is left out of this answer: read the pages for all of it."
    } else {
        ""
    };
    json!([
        { "type": "text", "text": first },
        {
            "type": "resource_link",
            "uri": format!("mcp-result://{id}/1"),
            "name": format!("result-{id}"),
            "title": "The whole result",
            "description": format!(
                "{bytes} bytes of text in {pages} pages: mcp-result://{id}/1 to mcp-result://{id}/{pages}"
            ),
            "mimeType": "text/plain"
        },
        {
            "type": "text",
            "text": format!(
                "[This result is {bytes} bytes of text, more than the {budget} this tool answers with at once, \
                 so it comes in {pages} pages; this is page 1.{left_out} Read page 2 with the tool `read_result` \
                 and arguments {{\"id\": \"{id}\", \"page\": 2}}, or as the resource mcp-result://{id}/2.]"
            )
        }
    ])
}

/// The line `read_result` gives after page `page` of `pages`.
fn page_line(id: &str, page: usize, pages: usize) -> String {
    if page == pages {
        return format!("[Page {page} of {pages}: the end of result {id}.]");
    }
    let next = page + 1;
    format!(
        "[Page {page} of {pages} of result {id}. Read page {next} with the tool `read_result` and \
         arguments {{\"id\": \"{id}\", \"page\": {next}}}, or as the resource mcp-result://{id}/{next}.]"
    )
}

/// The bytes the first page's answer counts against the budget: its text blocks and what a
/// model reads of its link.
fn counted(content: &Value) -> usize {
    let text = |block: &Value, key: &str| block[key].as_str().map_or(0, str::len);
    content
        .as_array()
        .unwrap()
        .iter()
        .map(|block| {
            text(block, "text")
                + text(block, "uri")
                + text(block, "name")
                + text(block, "title")
                + text(block, "description")
        })
        .sum()
}

#[test]
fn the_notes_export_comes_in_pages_read_to_the_end_both_ways_on_every_wire() {
    let whole = expected_markdown();
    for mut wire in wires(json!({})) {
        let wire = wire.as_mut();
        let label = wire.label();
        // Under its budget the answer is the tool's own, untouched.
        let empty = wire.call_plain("export_markdown", json!({}));
        assert_eq!(
            empty.response["result"]["content"],
            json!([{ "type": "text", "text": "# Notes\n" }]),
            "{label}"
        );
        let listed = |wire: &mut dyn Wire| {
            let list = wire.request("tools/list", json!({}));
            list["result"]["tools"]
                .as_array()
                .unwrap()
                .iter()
                .find(|tool| tool["name"] == "read_result")
                .cloned()
        };
        assert_eq!(listed(wire), None, "{label}: nothing spilled yet");

        for (title, body, tags) in NOTES {
            add(wire, title, body, tags);
        }
        let called = wire.call_plain("export_markdown", json!({}));
        if label == "2025-11-25 over stdio" {
            // `read_result` is listed with the first spilled result: the session is told.
            assert_eq!(
                wire.notification(),
                json!({ "jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {} }),
                "{label}"
            );
        }
        let result = &called.response["result"];
        assert!(result.get("structuredContent").is_none(), "{label}: {result}");
        let content = &result["content"];
        let uri = content[1]["uri"].as_str().expect("a link to the whole result");
        let id = id_of(uri).to_owned();
        let first = content[0]["text"].as_str().unwrap().to_owned();
        let pages: usize = content[1]["description"]
            .as_str()
            .unwrap()
            .split(" in ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(pages >= 2, "{label}: {pages} pages of {}", whole.len());
        assert_eq!(
            *content,
            first_answer(&id, &first, whole.len(), 1024, pages, false),
            "{label}"
        );
        assert!(
            counted(content) <= 1024,
            "{label}: the first page's answer is within the budget"
        );
        assert!(whole.starts_with(&first), "{label}");

        // Read on as resources: each page's text, then the next page's URI.
        // Page 1 reads as a resource too: the link points at it.
        let mut as_resources = String::new();
        for page in 1..=pages {
            let read = client_request(
                wire,
                "resources/read",
                json!({ "uri": format!("mcp-result://{id}/{page}") }),
            );
            let contents = &read["result"]["contents"];
            let text = contents[0]["text"].as_str().unwrap();
            assert!(text.len() <= 1024, "{label}: page {page}");
            assert_eq!(contents[0]["uri"], format!("mcp-result://{id}/{page}"), "{label}");
            assert_eq!(contents[0]["mimeType"], "text/plain", "{label}");
            if page < pages {
                let next = format!("mcp-result://{id}/{}", page + 1);
                assert_eq!(
                    contents[1],
                    json!({ "uri": next, "mimeType": "text/uri-list", "text": next }),
                    "{label}"
                );
            } else {
                assert_eq!(
                    contents.as_array().unwrap().len(),
                    1,
                    "{label}: the last page has no next"
                );
            }
            as_resources.push_str(text);
        }
        assert_eq!(
            as_resources, whole,
            "{label}: the pages read as resources are the whole export"
        );

        // And through `read_result`, listed now.
        let tool =
            listed(wire).unwrap_or_else(|| panic!("{label}: `read_result` is listed once a result spilled"));
        assert_eq!(tool["inputSchema"]["required"], json!(["id", "page"]), "{label}");
        assert_eq!(
            tool["inputSchema"]["properties"]["page"],
            json!({
                "type": "integer", "minimum": 1, "description": "The page to read: 2 is the one after the first"
            }),
            "{label}"
        );
        let mut through_tool = first.clone();
        for page in 2..=pages {
            let read = wire.call_plain("read_result", json!({ "id": id, "page": page }));
            let content = &read.response["result"]["content"];
            let text = content[0]["text"].as_str().unwrap();
            assert_eq!(
                content[1],
                json!({ "type": "text", "text": page_line(&id, page, pages) }),
                "{label}"
            );
            assert!(
                text.len() + page_line(&id, page, pages).len() <= 1024,
                "{label}: page {page}"
            );
            through_tool.push_str(text);
        }
        assert_eq!(
            through_tool, whole,
            "{label}: the pages read through the tool are the whole export"
        );

        // A page that is not there answers as a URI no resource has, word for word.
        let nowhere = client_request(wire, "resources/read", json!({ "uri": "nothing://here" }));
        for missing in [
            format!("mcp-result://{id}/{}", pages + 1),
            format!("mcp-result://{id}/0"),
            format!("mcp-result://{}/2", "0".repeat(32)),
        ] {
            let refused = client_request(wire, "resources/read", json!({ "uri": missing }));
            let mut expected = nowhere["error"].clone();
            if let Some(message) = expected["message"]
                .as_str()
                .map(|m| m.replace("nothing://here", &missing))
            {
                expected["message"] = json!(message);
            }
            expected["data"]["uri"] = json!(missing);
            assert_eq!(refused["error"], expected, "{label}: {missing}");
        }
        let never = "0".repeat(32);
        let unknown = wire.call_plain("read_result", json!({ "id": never, "page": 2 }));
        assert!(unknown.is_error(), "{label}");
        assert_eq!(
            unknown.text(),
            format!("no page 2 of a result `{never}`: unknown or expired result id, or no such page"),
            "{label}"
        );
        let not_an_id = wire.call_plain("read_result", json!({ "id": "nope", "page": 2 }));
        assert_eq!(
            not_an_id.text(),
            "no page 2 of such a result: `id` is not a result id (the answer that gave the first page says it)",
            "{label}"
        );
    }
}

/// Exports a report: `size` bytes of numbered lines.
#[tool]
fn report(size: usize) -> String {
    let mut text = String::with_capacity(size + 32);
    let mut n = 0;
    while text.len() < size {
        n += 1;
        text.push_str(&format!(
            "line {n}: the quick brown fox jumps over the lazy dog\n"
        ));
    }
    text.truncate(size);
    text
}

/// Exports the same report with a budget of its own.
#[tool(result_budget = 2048)]
fn small_report(size: usize) -> String {
    report(size)
}

/// A structured inventory of `count` items.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Inventory {
    /// The items.
    items: Vec<String>,
}

/// Lists the inventory.
#[tool]
fn inventory(count: usize) -> Json<Inventory> {
    Json(Inventory {
        items: (0..count).map(|n| format!("item number {n}")).collect(),
    })
}

/// Reads a result's pages after the first through `read_result`, in process.
async fn read_rest(
    client: &mcp_toolkit::testing::TestClient,
    first: &mcp_toolkit::testing::CallResponse,
) -> String {
    let text = |c: &mcp_toolkit::Content| c.as_text().unwrap().to_owned();
    let mut whole = text(&first.content()[0]);
    let link = serde_json::to_value(&first.content()[1]).unwrap();
    let id = id_of(link["uri"].as_str().unwrap()).to_owned();
    let mut page = 2;
    loop {
        let read = client
            .call("read_result", json!({ "id": id, "page": page }))
            .await
            .unwrap();
        assert!(!read.is_error(), "{:?}", read.response());
        whole.push_str(&text(&read.content()[0]));
        if text(&read.content()[1]).contains("the end of result") {
            return whole;
        }
        page += 1;
    }
}

#[tokio::test]
async fn a_tool_budget_beats_the_servers_and_a_result_under_it_is_untouched() {
    let server = Server::new("reports", "1.0.0")
        .tools(tools![report, small_report])
        .result_budget(4096);
    let client = server.test_client().unwrap();
    // Exactly the budget is within it: the tool's own answer.
    let exact = client.call("report", json!({ "size": 4096 })).await.unwrap();
    assert_eq!(exact.content().len(), 1);
    assert_eq!(exact.text().unwrap(), report(4096));
    // One byte more spills under the server's budget...
    let over = client.call("report", json!({ "size": 4097 })).await.unwrap();
    assert_eq!(over.content().len(), 3);
    let line = over.content()[2].as_text().unwrap();
    assert!(
        line.contains("more than the 4096 this tool answers with at once"),
        "{line}"
    );
    assert_eq!(read_rest(&client, &over).await, report(4097));
    // ...and `small_report` under its own.
    let small = client
        .call("small_report", json!({ "size": 4096 }))
        .await
        .unwrap();
    let line = small.content()[2].as_text().unwrap();
    assert!(
        line.contains("more than the 2048 this tool answers with at once"),
        "{line}"
    );
    assert_eq!(read_rest(&client, &small).await, report(4096));
}

/// Exports the same report, for hosts that accept 2,000 characters of it.
#[tool(max_result_chars = 2000)]
fn host_report(size: usize) -> String {
    report(size)
}

#[tokio::test]
async fn max_result_chars_is_a_budget_the_server_keeps() {
    // No budget of the server's: the tool's `max_result_chars` alone spills.
    let server = Server::new("reports", "1.0.0").tools(tools![host_report]);
    let client = server.test_client().unwrap();
    let listed = client.request("tools/list", json!({})).await.unwrap();
    let host_report = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == "host_report")
        .expect("listed");
    assert_eq!(host_report["_meta"]["anthropic/maxResultSizeChars"], 2000);
    // Exactly the characters is within them...
    let exact = client.call("host_report", json!({ "size": 2000 })).await.unwrap();
    assert_eq!(exact.content().len(), 1);
    assert_eq!(exact.text().unwrap(), report(2000));
    // ...and a long result comes in pages, none over the 2,000.
    let long = client
        .call("host_report", json!({ "size": 10_000 }))
        .await
        .unwrap();
    assert_eq!(long.content().len(), 3, "{:?}", long.response());
    let answer = serde_json::to_value(long.content()).unwrap();
    assert!(counted(&answer) <= 2000, "{} bytes", counted(&answer));
    let line = long.content()[2].as_text().unwrap();
    assert!(
        line.contains("more than the 2000 this tool answers with at once"),
        "{line}"
    );
    assert_eq!(read_rest(&client, &long).await, report(10_000));
}

#[tokio::test]
async fn structured_output_is_left_out_of_the_first_page_never_cut() {
    let server = Server::new("inventory", "1.0.0")
        .tools(tools![inventory])
        .result_budget(1024);
    let client = server.test_client().unwrap();
    let small = client.call("inventory", json!({ "count": 2 })).await.unwrap();
    assert_eq!(
        small.structured_content(),
        Some(&json!({ "items": ["item number 0", "item number 1"] }))
    );

    let large = client.call("inventory", json!({ "count": 200 })).await.unwrap();
    assert_eq!(large.structured_content(), None);
    let line = large.content()[2].as_text().unwrap();
    assert!(
        line.contains("Its structuredContent is left out of this answer"),
        "{line}"
    );
    let whole = read_rest(&client, &large).await;
    let document: Value = serde_json::from_str(&whole).expect("the pages together are the JSON document");
    assert_eq!(document["items"].as_array().unwrap().len(), 200);
    assert_eq!(document["items"][199], "item number 199");
}

#[tokio::test]
async fn a_five_megabyte_answer_comes_within_its_budget_and_reads_whole() {
    const BUDGET: usize = 50_000;
    let server = Server::new("reports", "1.0.0")
        .tools(tools![report])
        .result_budget(BUDGET);
    let client = server.test_client().unwrap();
    let first = client.call("report", json!({ "size": 5_000_000 })).await.unwrap();
    let answer = serde_json::to_value(first.content()).unwrap();
    assert!(counted(&answer) <= BUDGET, "{} bytes", counted(&answer));
    let line = first.content()[2].as_text().unwrap();
    assert!(
        line.starts_with("[This result is 5000000 bytes of text"),
        "{line}"
    );
    assert_eq!(read_rest(&client, &first).await, report(5_000_000));
}

#[tokio::test]
async fn spilled_pages_expire_and_read_result_is_unlisted_after() {
    let server = Server::new("reports", "1.0.0")
        .tools(tools![report])
        .result_budget(1024)
        .spilled_result_ttl(Duration::from_millis(300));
    let client = server.test_client().unwrap();
    let names = |tools: Vec<mcp_toolkit::testing::ListedTool>| -> Vec<String> {
        tools.iter().map(|t| t.name().to_owned()).collect()
    };
    assert_eq!(names(client.list_tools().await.unwrap()), ["report"]);
    let first = client.call("report", json!({ "size": 3000 })).await.unwrap();
    let link = serde_json::to_value(&first.content()[1]).unwrap();
    let id = id_of(link["uri"].as_str().unwrap()).to_owned();
    assert_eq!(
        names(client.list_tools().await.unwrap()),
        ["report", "read_result"]
    );
    let page = format!("mcp-result://{id}/2");
    assert!(client.read_resource(&page).await.is_ok());

    tokio::time::sleep(Duration::from_millis(500)).await;
    let gone = client
        .call("read_result", json!({ "id": id, "page": 2 }))
        .await
        .unwrap();
    assert!(gone.is_error(), "an expired page is unknown");
    assert!(client.read_resource(&page).await.is_err());
    assert_eq!(
        names(client.list_tools().await.unwrap()),
        ["report"],
        "unlisted once none is left"
    );
}

#[tokio::test]
async fn a_tool_named_read_result_is_refused_at_start_on_a_budgeted_server() {
    /// The user's own reader.
    #[tool]
    fn read_result() -> &'static str {
        "mine"
    }
    let refused = Server::new("clash", "1.0.0")
        .tools(tools![read_result, report])
        .result_budget(2048)
        .test_client();
    let Err(error) = refused else {
        panic!("a clash with `read_result` must be refused")
    };
    assert_eq!(
        error.to_string(),
        "the tool name `read_result` is the framework's on a server with a result budget (it reads the \
         pages of results over their budget); rename the tool"
    );
    // Without a budget the name is the user's.
    let client = Server::new("clash", "1.0.0")
        .tools(tools![read_result])
        .test_client()
        .unwrap();
    assert_eq!(
        client.call("read_result", json!({})).await.unwrap().text(),
        Some("mine")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_spilled_results_stay_within_the_stores_byte_limit() {
    const LIMIT: usize = 1024 * 1024;
    let store = Arc::new(MemoryStore::new().with_result_limit(LIMIT));
    let server = Server::new("reports", "1.0.0")
        .tools(tools![report])
        .result_budget(1024)
        .task_store(SharedStore(Arc::clone(&store)));
    let client = server.test_client().unwrap();
    let mut most = 0;
    for _ in 0..10_000 {
        let first = client.call("report", json!({ "size": 3000 })).await.unwrap();
        assert_eq!(first.content().len(), 3);
        most = most.max(store.result_bytes());
    }
    assert!(most <= LIMIT, "{most} bytes held");
    // The newest result is whole: the oldest were dropped to make room for it.
    let last = client.call("report", json!({ "size": 3000 })).await.unwrap();
    assert_eq!(read_rest(&client, &last).await, report(3000));
}

/// A store shared with the test, to look into.
struct SharedStore(Arc<MemoryStore>);

impl TaskStore for SharedStore {
    fn create(&self, task: mcp_toolkit::task::StoredTask) -> mcp_toolkit::task::StoreFuture<'_, ()> {
        self.0.create(task)
    }
    fn load<'a>(
        &'a self,
        id: &'a str,
    ) -> mcp_toolkit::task::StoreFuture<'a, Option<mcp_toolkit::task::StoredTask>> {
        self.0.load(id)
    }
    fn replace(&self, task: mcp_toolkit::task::StoredTask) -> mcp_toolkit::task::StoreFuture<'_, bool> {
        self.0.replace(task)
    }
    fn changes(&self) -> tokio::sync::broadcast::Receiver<Arc<str>> {
        self.0.changes()
    }
    fn is_shared(&self) -> bool {
        false
    }
}

#[tokio::test]
async fn a_spilled_result_is_its_callers_alone() {
    let server = Server::new("reports", "1.0.0")
        .tools(tools![report])
        .result_budget(1024);
    let http = TwoCallers::serve(server).await;
    let post = |token, id, method, params| http.post(token, id, method, params, modern_meta(json!({})));

    let call = json!({ "name": "report", "arguments": { "size": 3000 } });
    let first = post("ada-token", 1, "tools/call", call).await;
    let id = id_of(first["result"]["content"][1]["uri"].as_str().unwrap()).to_owned();
    let page = format!("mcp-result://{id}/2");
    let mine = post("ada-token", 2, "resources/read", json!({ "uri": page })).await;
    assert_eq!(mine["result"]["contents"][0]["uri"], page);
    // A cache must not share it: it is the caller's.
    assert_eq!(mine["result"]["cacheScope"], "private");

    // To another principal it is as unknown as a page never made.
    let theirs = post("bob-token", 3, "resources/read", json!({ "uri": page })).await;
    let never = format!("mcp-result://{}/2", "0".repeat(32));
    let unknown = post("bob-token", 4, "resources/read", json!({ "uri": never })).await;
    assert_eq!(theirs["error"]["code"], -32602);
    assert_eq!(
        theirs["error"]["message"].as_str().unwrap().replace(&id, "ID"),
        unknown["error"]["message"]
            .as_str()
            .unwrap()
            .replace(&"0".repeat(32), "ID")
    );
    let through_tool = post(
        "bob-token",
        5,
        "tools/call",
        json!({ "name": "read_result", "arguments": { "id": id, "page": 2 } }),
    )
    .await;
    assert_eq!(through_tool["result"]["isError"], true);
    assert_eq!(
        through_tool["result"]["content"][0]["text"],
        format!("no page 2 of a result `{id}`: unknown or expired result id, or no such page")
    );
    // An id the server cannot have made is not looked for, nor written back.
    let forged = json!({ "name": "read_result", "arguments": { "id": "x".repeat(100_000), "page": 2 } });
    let forged = post("bob-token", 6, "tools/call", forged).await;
    assert_eq!(
        forged["result"]["content"][0]["text"],
        "no page 2 of such a result: `id` is not a result id (the answer that gave the first page says it)"
    );
    http.stop().await;
}
