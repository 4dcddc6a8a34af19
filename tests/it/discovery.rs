//! Tool search (`Server::tool_search`): `tools/list` lists the `always_load` tools and the
//! two of search; `search_tools` finds tools by what a request says; `call_tool` calls one
//! exactly as `tools/call` would, in both eras: arguments checked, asks, tasks, result
//! budgets, visibility. Against servers built here, over the in-process client, real HTTP
//! (the toolsets header) and, with the `payments` example, real pipes.

use crate::support::{Peer, Spec, found, initialize, modern_meta, names_of};
use mcp_toolkit::ask::Elicitation;
use mcp_toolkit::discovery::{Bm25, Hit, Query, Ranker, ToolIndex, ToolSearch};
use mcp_toolkit::middleware::{Exchange, Middleware, Outcome};
use mcp_toolkit::protocol::ProtocolVersion;
use mcp_toolkit::testing::TestClient;
use mcp_toolkit::{Context, Server, Tool, ToolError, tool, tools};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Confirm {
    /// Refund it
    confirm: bool,
}

/// Refunds a charge, in full or in part.
///
/// # Arguments
/// * `charge` - The charge to refund
/// * `amount` - How much to refund, in cents (all of it by default)
#[tool(group = "billing", search_hint = "money back reimburse")]
async fn create_refund(ctx: Context, charge: String, amount: Option<u64>) -> Result<String, ToolError> {
    let amount = amount.unwrap_or(5_000);
    if amount > 10_000 {
        match ctx
            .elicit::<Confirm>(format!("Refund {amount} cents of {charge}?"))
            .await?
        {
            Elicitation::Accept(Confirm { confirm: true }) => {}
            _ => return Ok(format!("nothing refunded on {charge}")),
        }
    }
    Ok(format!("refunded {amount} cents of {charge}"))
}

/// Cancels a subscription at once.
#[tool(group = "billing", annotations(destructive))]
fn cancel_subscription(subscription: String) -> String {
    format!("cancelled {subscription}")
}

/// Retrieves the account's balance.
#[tool(always_load, group = "billing", annotations(read_only))]
fn retrieve_balance() -> String {
    "available: 1200.00 EUR".into()
}

/// Builds a report of every payout; takes a while.
#[tool(task, group = "reporting")]
async fn create_report_run(month: String) -> String {
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    format!("report for {month}")
}

/// Lists every balance transaction, oldest first.
#[tool(group = "reporting", max_result_chars = 2000)]
fn list_balance_transactions() -> String {
    (1..=300).map(|n| format!("txn_{n:04}: +{n}.00 EUR\n")).collect()
}

/// Pays out the available balance to the bank account.
#[tool(group = "payouts", scopes("payouts:write"))]
fn create_payout(amount: u64) -> String {
    format!("paid out {amount}")
}

/// Opens an issue in the tracker.
#[tool(group = "issues")]
fn create_issue(title: String) -> String {
    format!("opened {title}")
}

fn shop() -> Server {
    Server::new("shop", "1.0.0")
        .tools(tools![
            create_refund,
            cancel_subscription,
            retrieve_balance,
            create_report_run,
            list_balance_transactions,
            create_payout,
            create_issue
        ])
        .tool_search(ToolSearch::bm25().max_results(3))
}

async fn clients() -> Vec<(String, TestClient)> {
    let mut clients = vec![("2026-07-28".to_owned(), shop().test_client().unwrap())];
    for version in [
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2024_11_05,
    ] {
        clients.push((
            version.to_string(),
            shop().test_client_legacy(version).await.unwrap(),
        ));
    }
    clients
}

#[tokio::test]
async fn the_list_holds_the_always_loaded_tools_and_the_two_of_search_in_every_revision() {
    for (revision, client) in clients().await {
        let response = client.request("tools/list", json!({})).await.unwrap();
        let names = names_of(&response["tools"]);
        assert_eq!(
            names,
            ["retrieve_balance", "search_tools", "call_tool"],
            "{revision}"
        );
        let search = &response["tools"][1];
        assert_eq!(search["inputSchema"]["required"], json!(["query"]), "{revision}");
        assert_eq!(search["inputSchema"]["properties"]["limit"]["maximum"], 3);
        assert_eq!(
            search["inputSchema"]["properties"]["group"]["enum"],
            json!(["billing", "reporting", "payouts", "issues"])
        );
        assert_eq!(
            response["tools"][0]["_meta"]["anthropic/alwaysLoad"], true,
            "{revision}"
        );
        Spec::of(&revision).assert_valid("ListToolsResult", &response);
    }
}

#[tokio::test]
async fn a_search_answers_full_definitions_best_first_and_a_text_list() {
    for (revision, client) in clients().await {
        let result = client
            .call(
                "search_tools",
                json!({"query": "give the customer her money back"}),
            )
            .await
            .unwrap();
        assert!(!result.is_error(), "{revision}: {:?}", result.response());
        let modern_or_structured = revision.as_str() >= "2025-06-18";
        let text = result.text().unwrap();
        assert!(
            text.starts_with("Call one with `call_tool`")
                && text.contains("\n- create_refund(charge, amount?): Refunds a charge, in full or in part."),
            "{revision}: {text}"
        );
        if modern_or_structured {
            assert_eq!(found(&result)[0], "create_refund", "{revision}");
            let definition = &result.structured_content().unwrap()["tools"][0];
            assert_eq!(
                definition["inputSchema"]["properties"]["charge"]["description"],
                "The charge to refund"
            );
            assert_eq!(
                definition["_meta"]["anthropic/searchHint"],
                "money back reimburse"
            );
        }
    }
}

#[tokio::test]
async fn limit_and_group_narrow_a_search_and_bad_arguments_say_what_is_accepted() {
    let client = shop().test_client().unwrap();
    let one = client
        .call("search_tools", json!({"query": "create", "limit": 1}))
        .await
        .unwrap();
    assert_eq!(found(&one).len(), 1);
    let issues = client
        .call("search_tools", json!({"query": "create", "group": "issues"}))
        .await
        .unwrap();
    assert_eq!(found(&issues), ["create_issue"]);
    let cases = [
        (
            json!({}),
            "`query` is missing or empty: say in plain words what you want to do",
        ),
        (
            json!({"query": "  "}),
            "`query` is missing or empty: say in plain words what you want to do",
        ),
        (json!({"query": 3}), "`query` must be a string, not a number"),
        (
            json!({"query": "x", "limit": 9}),
            "`limit` must be a whole number from 1 to 3, not 9",
        ),
        (
            json!({"query": "x", "group": "nope"}),
            "no group `nope`; the groups are `billing`, `reporting`, `payouts`, `issues`",
        ),
    ];
    for (arguments, message) in cases {
        let result = client.call("search_tools", arguments.clone()).await.unwrap();
        assert!(result.is_error(), "{arguments}");
        assert_eq!(result.text(), Some(message), "{arguments}");
    }
    let unknown = client
        .call("search_tools", json!({"query": "x", "max": 2}))
        .await
        .unwrap();
    assert!(
        unknown.text().unwrap().starts_with("unknown field `max`"),
        "{:?}",
        unknown.text()
    );
    let nothing = client
        .call("search_tools", json!({"query": "zzzz qqqq"}))
        .await
        .unwrap();
    assert!(!nothing.is_error());
    assert_eq!(found(&nothing), Vec::<String>::new());
}

#[tokio::test]
async fn call_tool_runs_the_tool_it_names_as_a_direct_call_would() {
    for (revision, client) in clients().await {
        let through = client
            .call(
                "call_tool",
                json!({"name": "cancel_subscription", "arguments": {"subscription": "sub_1"}}),
            )
            .await
            .unwrap();
        let direct = client
            .call("cancel_subscription", json!({"subscription": "sub_1"}))
            .await
            .unwrap();
        assert_eq!(
            through.response()["result"],
            direct.response()["result"],
            "{revision}"
        );
        // Its arguments are checked as the tool's own, every problem named.
        let wrong = client
            .call(
                "call_tool",
                json!({"name": "create_refund", "arguments": {"amount": "ten"}}),
            )
            .await
            .unwrap();
        let direct = client
            .call("create_refund", json!({"amount": "ten"}))
            .await
            .unwrap();
        assert!(wrong.is_error(), "{revision}");
        assert_eq!(
            wrong.response()["result"],
            direct.response()["result"],
            "{revision}"
        );
        assert!(
            wrong
                .text()
                .unwrap()
                .starts_with("2 problems with the arguments:"),
            "{revision}"
        );
    }
}

#[tokio::test]
async fn call_tool_of_no_tool_names_the_closest_and_a_misuse_says_how_it_is_called() {
    let client = shop().test_client().unwrap();
    let cases = [
        (
            json!({"name": "create_refnd", "arguments": {}}),
            "no tool `create_refnd` is offered; did you mean `create_refund`, `create_issue`, `create_payout`? Find tools with `search_tools`.",
        ),
        (
            json!({"name": "xyzzy"}),
            "no tool `xyzzy` is offered. Find tools with `search_tools`.",
        ),
        (
            json!({"arguments": {}}),
            "`name` is missing; `call_tool` takes {\"name\": \"<a tool's name, from search_tools>\", \"arguments\": {...}}",
        ),
        (
            json!({"name": "create_refund", "charge": "ch_1"}),
            "`charge` is beside `name`: a tool's arguments go in `arguments`; `call_tool` takes {\"name\": \"<a tool's name, from search_tools>\", \"arguments\": {...}}",
        ),
        (
            json!({"name": "call_tool", "arguments": {}}),
            "`call_tool` calls the server's tools; call `call_tool` directly",
        ),
    ];
    for (arguments, message) in cases {
        let result = client.call("call_tool", arguments.clone()).await.unwrap();
        assert!(result.is_error(), "{arguments}");
        assert_eq!(result.text(), Some(message), "{arguments}");
    }
}

#[tokio::test]
async fn a_tool_that_asks_asks_through_call_tool_in_both_eras() {
    for (revision, client) in clients().await {
        if revision.as_str() < "2025-06-18" {
            continue; // no elicitation before 2025-06-18
        }
        let client = client.on_elicit(|request| async move {
            assert!(
                request["message"]
                    .as_str()
                    .unwrap()
                    .starts_with("Refund 20000 cents of ch_9")
            );
            json!({"action": "accept", "content": {"confirm": true}})
        });
        let result = client
            .call(
                "call_tool",
                json!({"name": "create_refund", "arguments": {"charge": "ch_9", "amount": 20000}}),
            )
            .await
            .unwrap();
        assert_eq!(result.text(), Some("refunded 20000 cents of ch_9"), "{revision}");
        if revision == "2026-07-28" {
            assert_eq!(result.rounds(), 1, "one round for the question");
        }
    }
}

#[tokio::test]
async fn a_task_tool_runs_as_a_task_through_call_tool() {
    let client = shop().test_client().unwrap().with_tasks();
    let result = client
        .call(
            "call_tool",
            json!({"name": "create_report_run", "arguments": {"month": "2026-10"}}),
        )
        .await
        .unwrap();
    assert!(result.task_id().is_some(), "{:?}", result.response());
    assert_eq!(result.text(), Some("report for 2026-10"));
}

#[tokio::test]
async fn a_result_over_its_max_result_chars_is_paged_through_call_tool() {
    let client = shop().test_client().unwrap();
    let result = client
        .call(
            "call_tool",
            json!({"name": "list_balance_transactions", "arguments": {}}),
        )
        .await
        .unwrap();
    let first = result.content()[0].as_text().unwrap();
    assert!(
        first.starts_with("txn_0001: +1.00 EUR\n") && first.len() <= 2000,
        "{}",
        first.len()
    );
    assert!(result.content()[2].as_text().unwrap().contains("read_result"));
}

#[tokio::test]
async fn a_caller_never_finds_or_calls_a_tool_it_may_not_see() {
    let hidden = |tool: &Tool, _: Option<&mcp_toolkit::auth::Principal>| tool.name() != "create_payout";
    let client = shop().tool_visibility(hidden).test_client().unwrap();
    for query in [
        "pay out the balance to the bank",
        "payout",
        "create payout amount",
    ] {
        let result = client
            .call("search_tools", json!({"query": query, "limit": 3}))
            .await
            .unwrap();
        assert!(!found(&result).contains(&"create_payout".to_owned()), "{query}");
        assert!(!result.text().unwrap().contains("create_payout"), "{query}");
    }
    let called = client
        .call(
            "call_tool",
            json!({"name": "create_payout", "arguments": {"amount": 1}}),
        )
        .await
        .unwrap();
    assert!(called.is_error());
    assert!(!called.text().unwrap().contains("did you mean `create_payout`"));
    assert!(
        called
            .text()
            .unwrap()
            .starts_with("no tool `create_payout` is offered")
    );
}

#[test]
fn a_tool_named_like_a_search_tool_stops_the_server() {
    /// Searches.
    #[tool]
    fn search_tools() -> String {
        String::new()
    }
    let error = Server::new("s", "1")
        .tools(tools![search_tools])
        .tool_search(ToolSearch::bm25())
        .test_client();
    let Err(error) = error else {
        panic!("a server with a tool named search_tools started")
    };
    let message = error.to_string();
    assert!(
        message.contains("the tool name `search_tools` is the framework's on a server with tool search"),
        "{message}"
    );
    // Without search the name is the user's.
    assert!(
        Server::new("s", "1")
            .tools(tools![search_tools])
            .test_client()
            .is_ok()
    );
}

/// Records the name each exchange ends with, as an audit middleware logs it.
#[derive(Clone, Default)]
struct Names(Arc<Mutex<Vec<String>>>);

impl Middleware for Names {
    fn on_end(&self, exchange: &Exchange, _outcome: Outcome) {
        self.0
            .lock()
            .unwrap()
            .push(exchange.name().unwrap_or_default().to_owned());
    }
}

#[tokio::test]
async fn the_middleware_sees_the_tool_call_tool_called() {
    let names = Names::default();
    let client = shop().middleware(names.clone()).test_client().unwrap();
    client
        .call(
            "call_tool",
            json!({"name": "cancel_subscription", "arguments": {"subscription": "sub_2"}}),
        )
        .await
        .unwrap();
    client
        .call("search_tools", json!({"query": "cancel"}))
        .await
        .unwrap();
    let seen = names.0.lock().unwrap().clone();
    assert_eq!(seen, ["cancel_subscription", "search_tools"]);
}

#[tokio::test]
async fn a_ranker_of_ones_own_is_used_and_its_mistakes_are_checked() {
    /// Answers every tool, twice, and past the limit: the engine keeps what it may.
    struct Careless;
    struct All(usize);
    impl Ranker for Careless {
        fn index(&self, tools: &[Tool]) -> Box<dyn ToolIndex> {
            Box::new(All(tools.len()))
        }
    }
    impl ToolIndex for All {
        fn search(&self, _query: &Query<'_>, hits: &mut Vec<Hit>) {
            for position in (0..self.0).chain(0..self.0).chain([999]) {
                hits.push(Hit { position, score: 1.0 });
            }
        }
    }
    let hidden = |tool: &Tool, _: Option<&mcp_toolkit::auth::Principal>| tool.name() != "create_refund";
    let client = shop()
        .tool_search(ToolSearch::with_ranker(Careless).max_results(10))
        .tool_visibility(hidden)
        .test_client()
        .unwrap();
    let result = client
        .call("search_tools", json!({"query": "anything"}))
        .await
        .unwrap();
    assert_eq!(
        found(&result),
        [
            "cancel_subscription",
            "retrieve_balance",
            "create_report_run",
            "list_balance_transactions",
            "create_payout",
            "create_issue"
        ]
    );
}

#[test]
fn plain_bm25_ranks_what_the_refinements_rank_when_the_words_are_the_tools() {
    let catalogue = tools![create_refund, cancel_subscription, create_issue];
    for ranker in [Bm25::new(), Bm25::plain()] {
        let mut hits = Vec::new();
        ranker
            .index(&catalogue)
            .search(&Query::new("cancel the subscription", 3), &mut hits);
        assert_eq!(catalogue[hits[0].position].name(), "cancel_subscription");
    }
}

/// `tools/list` and `search_tools` over HTTP with `X-MCP-Toolsets`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_toolsets_header_narrows_the_list_and_the_search_over_http() {
    for search in [false, true] {
        let mut server = shop().toolsets_header("X-MCP-Toolsets");
        if !search {
            server = Server::new("shop", "1.0.0")
                .tools(tools![
                    create_refund,
                    cancel_subscription,
                    retrieve_balance,
                    create_issue
                ])
                .toolsets_header("X-MCP-Toolsets");
        }
        let bound = server.bind_http("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", bound.local_addr());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = tokio::spawn(bound.run_until(async {
            stopped.await.ok();
        }));
        let http = reqwest::Client::new();
        let post = |method: &str, params: Value, toolsets: Option<&str>| {
            let mut params = params;
            params["_meta"] = modern_meta(json!({}));
            let mut request = http
                .post(&url)
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", method)
                .json(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}));
            if method == "tools/call" {
                request = request.header("Mcp-Name", params["name"].as_str().unwrap());
            }
            if let Some(toolsets) = toolsets {
                request = request.header("X-MCP-Toolsets", toolsets);
            }
            async move { request.send().await.unwrap().json::<Value>().await.unwrap() }
        };
        let names = |response: &Value| names_of(&response["result"]["tools"]);
        let all = names(&post("tools/list", json!({}), None).await);
        let issues = names(&post("tools/list", json!({}), Some("issues")).await);
        let both = names(&post("tools/list", json!({}), Some(" issues , billing")).await);
        if search {
            assert_eq!(all, ["retrieve_balance", "search_tools", "call_tool"]);
            assert_eq!(issues, ["search_tools", "call_tool"]);
            assert_eq!(both, ["retrieve_balance", "search_tools", "call_tool"]);
            let call = json!({"name": "search_tools", "arguments": {"query": "create", "limit": 3}});
            let found = post("tools/call", call.clone(), Some("issues")).await;
            let tools = &found["result"]["structuredContent"]["tools"];
            assert_eq!(tools.as_array().unwrap().len(), 1, "{found}");
            assert_eq!(tools[0]["name"], "create_issue");
            // Calls are not narrowed.
            let call = json!({"name": "call_tool", "arguments": {"name": "cancel_subscription", "arguments": {"subscription": "s"}}});
            let called = post("tools/call", call, Some("issues")).await;
            assert_eq!(called["result"]["content"][0]["text"], "cancelled s", "{called}");
        } else {
            assert_eq!(
                all,
                [
                    "create_refund",
                    "cancel_subscription",
                    "retrieve_balance",
                    "create_issue"
                ]
            );
            assert_eq!(issues, ["create_issue"]);
            assert_eq!(
                both,
                [
                    "create_refund",
                    "cancel_subscription",
                    "retrieve_balance",
                    "create_issue"
                ]
            );
        }
        let _ = stop.send(());
        serving.await.unwrap().unwrap();
    }
}

#[test]
fn a_toolsets_header_that_is_no_header_name_stops_the_server() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let bound = runtime.block_on(shop().toolsets_header("X MCP Toolsets").bind_http("127.0.0.1:0"));
    let Err(error) = bound else {
        panic!("a server with no header name started")
    };
    let message = error.to_string();
    assert_eq!(
        message,
        "`X MCP Toolsets` is not an HTTP header name; `Server::toolsets_header` takes one such as `X-MCP-Toolsets`"
    );
}

/// The payments example over real pipes: search, then call what was found.
#[test]
fn the_payments_example_finds_and_calls_over_stdio_in_both_eras() {
    let mut peer = Peer::spawn(env!("CARGO_BIN_EXE_payments"));
    initialize(&mut peer, "2025-11-25");
    let listed = peer.request(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let names = names_of(&listed["result"]["tools"]);
    assert!(
        names.ends_with(&["search_tools".to_owned(), "call_tool".to_owned()]),
        "{names:?}"
    );
    assert!(names.len() <= 8, "{names:?}");
    Spec::of("2025-11-25").assert_valid("JSONRPCResultResponse", &listed);
    let found = peer.request(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "search_tools", "arguments": {"query": "stop charging them every month"}}}));
    Spec::of("2025-11-25").assert_valid("JSONRPCResultResponse", &found);
    let tools = found["result"]["structuredContent"]["tools"].as_array().unwrap();
    assert!(
        tools.iter().any(|t| t["name"] == "cancel_subscription"),
        "{found}"
    );
    // 2026-07-28: no `initialize`, every request names its revision.
    let mut modern = Peer::spawn(env!("CARGO_BIN_EXE_payments"));
    let called = modern.request(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "call_tool", "arguments": {"name": "retrieve_balance", "arguments": {}},
                   "_meta": modern_meta(json!({}))}}));
    Spec::of("2026-07-28").assert_valid("JSONRPCResultResponse", &called);
    assert_eq!(called["result"]["isError"], Value::Null, "{called}");
    assert!(
        called["result"]["content"][0]["text"].as_str().is_some(),
        "{called}"
    );
}

/// The payments example over HTTP with its demo tokens: a token without `payouts:write`
/// never finds `create_payout` (`ScopePolicy::Hide`), and cannot call it; one with it does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_hidden_by_scopes_is_never_found() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    /// Stops the server however the test ends.
    struct Stop(std::process::Child);
    impl Drop for Stop {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let _server = Stop(
        std::process::Command::new(env!("CARGO_BIN_EXE_payments"))
            .args(["--http", &format!("127.0.0.1:{port}")])
            .env(
                "PAYMENTS_TOKENS",
                "reader=payments:read;admin=payments:read payouts:write",
            )
            .stdin(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    let deadline = std::time::Instant::now() + crate::support::PATIENCE;
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(std::time::Instant::now() < deadline, "payments is not listening");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let url = format!("http://127.0.0.1:{port}/mcp");
    let http = reqwest::Client::new();
    let call = |token: &'static str, name: &'static str, arguments: Value| {
        let request = http
            .post(&url)
            .bearer_auth(token)
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", "tools/call")
            .header("Mcp-Name", name)
            .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": name, "arguments": arguments, "_meta": modern_meta(json!({}))}}));
        async move { request.send().await.unwrap().json::<Value>().await.unwrap() }
    };
    let found = |answer: &Value| names_of(&answer["result"]["structuredContent"]["tools"]);
    for query in [
        "pay out the balance to the bank",
        "create payout",
        "create_payout",
    ] {
        let reader = call("reader", "search_tools", json!({"query": query})).await;
        assert!(
            !found(&reader).contains(&"create_payout".to_owned()),
            "{query}: {reader}"
        );
        let admin = call("admin", "search_tools", json!({"query": query})).await;
        assert!(
            found(&admin).contains(&"create_payout".to_owned()),
            "{query}: {admin}"
        );
    }
    let refused = call(
        "reader",
        "call_tool",
        json!({"name": "create_payout", "arguments": {"amount": 100}}),
    )
    .await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    let text = refused["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("no tool `create_payout` is offered")
            && !text.contains("did you mean `create_payout`"),
        "{text}"
    );
}
