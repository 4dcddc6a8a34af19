//! This repository's client against servers nobody here wrote (the official Python SDK's,
//! the TypeScript SDK's `server-everything`) and against its own examples, over stdio or
//! Streamable HTTP, in the era the probe finds or pinned to a legacy revision. Each check
//! prints PASS or FAIL; the last line is "N passed, M failed" (tests/interop/run.sh reads
//! it), and the exit status is 1 when any failed.
//!
//! ```text
//! interop_client --server python|everything|notes (--stdio "COMMAND ARGS" | --http URL) [--mode auto|legacy]
//! ```

use mcp_toolkit::client::{CallResponse, Client, ClientError};
use serde_json::{Map, Value, json};
use std::process::ExitCode;
use std::time::Duration;

struct Checks {
    passed: usize,
    failed: usize,
}

impl Checks {
    fn check(&mut self, name: &str, outcome: Result<(), String>) {
        match outcome {
            Ok(()) => {
                self.passed += 1;
                println!("PASS {name}");
            }
            Err(why) => {
                self.failed += 1;
                println!("FAIL {name}: {why}");
            }
        }
    }
}

/// Accepts an elicitation with a value for each field its schema asks for.
async fn accept(request: Value) -> Value {
    let mut content = Map::new();
    if let Some(properties) = request["requestedSchema"]["properties"].as_object() {
        for (name, schema) in properties {
            let value = match schema["type"].as_str() {
                Some("boolean") => json!(true),
                Some("integer" | "number") => json!(1),
                _ => match schema["enum"].as_array().and_then(|values| values.first()) {
                    Some(first) => first.clone(),
                    None => json!("yes"),
                },
            };
            content.insert(name.clone(), value);
        }
    }
    json!({"action": "accept", "content": content})
}

/// Answers every sampling request with one title.
async fn sample(_request: Value) -> Value {
    json!({"role": "assistant", "content": {"type": "text", "text": "Shopping"}, "model": "interop", "stopReason": "endTurn"})
}

fn text_of(response: &CallResponse) -> Result<String, String> {
    if response.is_error() {
        return Err(format!("the tool failed: {:?}", response.text()));
    }
    let texts: Vec<&str> = response
        .content()
        .iter()
        .filter_map(|block| match block {
            mcp_toolkit::Content::Text(text) => Some(text.text.as_str()),
            _ => None,
        })
        .collect();
    Ok(texts.join("\n"))
}

fn expect_contains(text: &str, wanted: &str) -> Result<(), String> {
    if text.contains(wanted) {
        Ok(())
    } else {
        Err(format!("{wanted:?} not in {text:?}"))
    }
}

fn progress_count(response: &CallResponse) -> usize {
    response
        .notifications()
        .iter()
        .filter(|n| n["method"] == "notifications/progress")
        .count()
}

async fn tool_names(client: &Client) -> Result<Vec<String>, ClientError> {
    Ok(client
        .list_tools()
        .await?
        .iter()
        .map(|t| t.name().to_owned())
        .collect())
}

fn has_all(names: &[String], wanted: &[&str]) -> Result<(), String> {
    let missing: Vec<&&str> = wanted.iter().filter(|w| !names.iter().any(|n| n == *w)).collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("missing {missing:?} in {names:?}"))
    }
}

async fn python(client: &Client, checks: &mut Checks) {
    let names = tool_names(client).await.map_err(|e| e.to_string());
    checks.check(
        "list tools",
        names.and_then(|n| has_all(&n, &["add", "wipe", "title", "count"])),
    );
    let call = client.call("add", json!({"a": 2, "b": 3})).await;
    checks.check(
        "call add",
        call.map_err(|e| e.to_string())
            .and_then(|r| text_of(&r))
            .and_then(|t| expect_contains(&t, "5")),
    );
    let call = client.call("wipe", json!({})).await;
    checks.check(
        "answered elicitation",
        call.map_err(|e| e.to_string())
            .and_then(|r| text_of(&r))
            .and_then(|t| expect_contains(&t, "wiped")),
    );
    let call = client.call("title", json!({"text": "milk, eggs"})).await;
    checks.check(
        "answered sampling",
        call.map_err(|e| e.to_string())
            .and_then(|r| text_of(&r))
            .and_then(|t| expect_contains(&t, "Shopping")),
    );
    let call = client.call_with_progress("count", json!({"n": 3})).await;
    checks.check(
        "progress",
        call.map_err(|e| e.to_string())
            .and_then(|r| match progress_count(&r) {
                3 => Ok(()),
                n => Err(format!(
                    "{n} progress notifications, not 3: {:?}",
                    r.notifications()
                )),
            }),
    );
    let read = client.read_resource("memo://greeting").await;
    checks.check(
        "resource read",
        read.map_err(|e| e.to_string())
            .and_then(|r| expect_contains(r.text().unwrap_or_default(), "hello from python")),
    );
    let prompt = client.get_prompt("review", json!({"language": "rust"})).await;
    checks.check(
        "prompt",
        prompt
            .map_err(|e| e.to_string())
            .and_then(|p| expect_contains(p.text().unwrap_or_default(), "Review this rust code")),
    );
    let completion = client
        .complete_prompt("review", "language", "ru", json!(null))
        .await;
    checks.check(
        "completion",
        completion.map_err(|e| e.to_string()).and_then(|c| {
            if c.values == ["rust"] {
                Ok(())
            } else {
                Err(format!("{:?}", c.values))
            }
        }),
    );
}

async fn everything(client: &Client, checks: &mut Checks) {
    let names = tool_names(client).await.map_err(|e| e.to_string());
    checks.check(
        "list tools",
        names.and_then(|n| {
            has_all(
                &n,
                &[
                    "echo",
                    "get-sum",
                    "trigger-long-running-operation",
                    "trigger-elicitation-request",
                    "trigger-sampling-request",
                ],
            )
        }),
    );
    let call = client.call("get-sum", json!({"a": 2, "b": 3})).await;
    checks.check(
        "call get-sum",
        call.map_err(|e| e.to_string())
            .and_then(|r| text_of(&r))
            .and_then(|t| expect_contains(&t, "5")),
    );
    let call = client.call("echo", json!({"message": "over the wire"})).await;
    checks.check(
        "call echo",
        call.map_err(|e| e.to_string())
            .and_then(|r| text_of(&r))
            .and_then(|t| expect_contains(&t, "over the wire")),
    );
    let call = client.call("trigger-elicitation-request", json!({})).await;
    checks.check(
        "answered elicitation",
        call.map_err(|e| e.to_string())
            .and_then(|r| text_of(&r))
            .map(drop),
    );
    let call = client
        .call(
            "trigger-sampling-request",
            json!({"prompt": "name this list", "maxTokens": 20}),
        )
        .await;
    checks.check(
        "answered sampling",
        call.map_err(|e| e.to_string())
            .and_then(|r| text_of(&r))
            .and_then(|t| expect_contains(&t, "Shopping")),
    );
    let call = client
        .call_with_progress(
            "trigger-long-running-operation",
            json!({"duration": 1, "steps": 3}),
        )
        .await;
    checks.check(
        "progress",
        call.map_err(|e| e.to_string())
            .and_then(|r| match progress_count(&r) {
                0 => Err("no progress notifications".to_owned()),
                _ => Ok(()),
            }),
    );
    let resources = client.list_resources().await;
    let first = resources
        .as_ref()
        .ok()
        .and_then(|r| r.first())
        .map(|r| r.uri().to_owned());
    checks.check("list resources", resources.map_err(|e| e.to_string()).map(drop));
    match first {
        Some(uri) => {
            let read = client.read_resource(&uri).await;
            checks.check(
                "resource read",
                read.map_err(|e| e.to_string()).and_then(|r| {
                    if r.contents().is_empty() {
                        Err("no contents".into())
                    } else {
                        Ok(())
                    }
                }),
            );
        }
        None => checks.check("resource read", Err("no resource listed".to_owned())),
    }
    let prompts = client.list_prompts().await;
    let first = prompts
        .as_ref()
        .ok()
        .and_then(|p| p.iter().find(|p| p.arguments().is_empty()))
        .map(|p| p.name().to_owned());
    checks.check("list prompts", prompts.map_err(|e| e.to_string()).map(drop));
    match first {
        Some(name) => {
            let prompt = client.get_prompt(&name, json!({})).await;
            checks.check(
                "prompt",
                prompt.map_err(|e| e.to_string()).and_then(|p| {
                    if p.messages().is_empty() {
                        Err("no messages".into())
                    } else {
                        Ok(())
                    }
                }),
            );
        }
        None => checks.check("prompt", Err("no prompt without arguments listed".to_owned())),
    }
}

/// The notes board, an MCP Apps view (extension `io.modelcontextprotocol/ui`): declared in
/// the capabilities, linked from `list_notes` and `board_add`, listed and read with its MIME
/// type and `_meta.ui`; `board_add` adds a note that `list_notes` then lists.
async fn apps(client: &Client, checks: &mut Checks) {
    const BOARD: &str = "ui://notes/board";
    const MIME: &str = "text/html;profile=mcp-app";
    let board_ui = json!({"csp": {"connectDomains": ["https://api.example.com"]}, "prefersBorder": true});
    // The `initialize` or `server/discover` result, as the client keeps it.
    let extension = &client.server_info()["capabilities"]["extensions"]["io.modelcontextprotocol/ui"];
    checks.check(
        "capabilities declare io.modelcontextprotocol/ui",
        match extension["mimeTypes"].as_array() {
            Some(types) if types.iter().any(|t| t == MIME) => Ok(()),
            _ => Err(format!("extension {extension}")),
        },
    );
    let tools = client.list_tools().await;
    for (name, ui) in [
        ("list_notes", json!({"resourceUri": BOARD})),
        ("board_add", json!({"resourceUri": BOARD, "visibility": ["app"]})),
    ] {
        let meta = tools.as_ref().map_err(|e| e.to_string()).and_then(|tools| {
            let tool = tools.iter().find(|t| t.name() == name);
            tool.map(|t| t.meta().cloned().unwrap_or_default())
                .ok_or(format!("no {name} listed"))
        });
        checks.check(
            &format!("{name} linked to the board"),
            meta.and_then(|meta| {
                if meta.get("ui") == Some(&ui) && meta.get("ui/resourceUri") == Some(&json!(BOARD)) {
                    Ok(())
                } else {
                    Err(format!("_meta {meta:?}, expected ui {ui}"))
                }
            }),
        );
    }
    let listed = client.list_resources().await;
    checks.check(
        "board listed with its MIME type and _meta.ui",
        listed.map_err(|e| e.to_string()).and_then(|resources| {
            let board = resources
                .iter()
                .find(|r| r.uri() == BOARD)
                .ok_or("no board listed")?;
            let ui = board.meta().and_then(|meta| meta.get("ui"));
            if board.mime_type() == Some(MIME) && ui == Some(&board_ui) {
                Ok(())
            } else {
                Err(format!("{}", board.json()))
            }
        }),
    );
    let read = client.read_resource(BOARD).await;
    checks.check(
        "board read with its MIME type and _meta.ui",
        read.map_err(|e| e.to_string()).and_then(|read| {
            // `ResourceContents` has no `_meta`: the raw result does.
            let contents = &read.response()["result"]["contents"];
            let html = contents[0]["text"].as_str().unwrap_or_default();
            if contents.as_array().map(Vec::len) == Some(1)
                && contents[0]["mimeType"] == MIME
                && contents[0]["_meta"]["ui"] == board_ui
                && html.trim_start().to_lowercase().starts_with("<!doctype html>")
            {
                Ok(())
            } else {
                Err(format!("{:.300}", contents.to_string()))
            }
        }),
    );
    let title = format!("from the board {}", std::process::id());
    let has_title = |response: &CallResponse| {
        let notes = &response.structured_content().cloned().unwrap_or_default()["notes"];
        match notes.as_array() {
            Some(notes) if notes.iter().any(|n| n["title"] == title.as_str()) => Ok(()),
            _ => Err(format!("no note {title:?} in {notes}")),
        }
    };
    let added = client.call("board_add", json!({"title": title})).await;
    checks.check(
        "board_add answers the notes, the new one with them",
        added.map_err(|e| e.to_string()).and_then(|r| has_title(&r)),
    );
    let listed = client.call("list_notes", json!({})).await;
    checks.check(
        "list_notes then lists it",
        listed.map_err(|e| e.to_string()).and_then(|r| has_title(&r)),
    );
}

async fn notes(client: &Client, checks: &mut Checks, modern: bool) {
    let call = client
        .call("add_note", json!({"title": "milk", "body": "2 litres"}))
        .await;
    // The server may have served other clients: the note's id is the one it gives.
    let id = call
        .as_ref()
        .ok()
        .and_then(|r| r.structured_content())
        .and_then(|note| note["id"].as_u64());
    checks.check(
        "call add_note",
        call.map_err(|e| e.to_string())
            .and_then(|r| text_of(&r))
            .map(drop),
    );
    apps(client, checks).await;
    let call = client.call("suggest_title", json!({"id": id})).await;
    checks.check(
        "answered sampling",
        call.map_err(|e| e.to_string())
            .and_then(|r| text_of(&r))
            .and_then(|t| expect_contains(&t, "Shopping")),
    );
    let read = client.read_resource("notes://all").await;
    checks.check(
        "resource read",
        read.map_err(|e| e.to_string())
            .and_then(|r| expect_contains(r.text().unwrap_or_default(), "milk")),
    );
    if modern {
        let archive = client.call("archive_notes", json!({})).await;
        checks.check(
            "task followed to its end",
            archive.map_err(|e| e.to_string()).and_then(|r| {
                if r.task_id().is_some() {
                    Ok(())
                } else {
                    Err("not a task".to_owned())
                }
            }),
        );
        let created = client
            .request("tools/call", json!({"name": "archive_notes", "arguments": {}}))
            .await;
        let cancelled = async {
            let created = created.map_err(|e| e.to_string())?;
            let id = created["taskId"].as_str().ok_or(format!("no task: {created}"))?;
            client
                .request("tasks/cancel", json!({"taskId": id}))
                .await
                .map_err(|e| e.to_string())?;
            match client.follow_task(id).await {
                Err(ClientError::TaskCancelled { .. }) => Ok(()),
                other => Err(format!("expected a cancelled task, got {other:?}")),
            }
        };
        checks.check("task cancelled", cancelled.await);
    }
    let call = client.call("clear_notes", json!({})).await;
    checks.check(
        "answered elicitation",
        call.map_err(|e| e.to_string())
            .and_then(|r| text_of(&r))
            .and_then(|t| expect_contains(&t, "deleted")),
    );
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut server, mut stdio, mut http, mut mode) = (None, None, None, "auto".to_owned());
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--server" => server = args.next(),
            "--stdio" => stdio = args.next(),
            "--http" => http = args.next(),
            "--mode" => mode = args.next().unwrap_or_default(),
            other => {
                eprintln!("interop_client: unknown argument {other}");
                return ExitCode::from(2);
            }
        }
    }
    let connector = match (stdio, http) {
        (Some(command), None) => {
            let mut words = command.split_whitespace();
            let mut command = tokio::process::Command::new(words.next().unwrap_or_default());
            command.args(words);
            Client::stdio(command)
        }
        (None, Some(url)) => Client::http(url),
        _ => {
            eprintln!("interop_client: give one of --stdio COMMAND and --http URL");
            return ExitCode::from(2);
        }
    };
    let connector = connector
        .on_elicit(accept)
        .on_sample(sample)
        .with_roots([("file:///tmp", "tmp")])
        .with_tasks()
        .request_timeout(Duration::from_secs(30));
    let connector = if mode == "legacy" {
        connector.protocol_version("2025-11-25")
    } else {
        connector
    };
    let mut checks = Checks { passed: 0, failed: 0 };
    let client = match connector.connect().await {
        Ok(client) => client,
        Err(e) => {
            println!("FAIL connect: {e}");
            println!("0 passed, 1 failed");
            return ExitCode::FAILURE;
        }
    };
    println!("connected, speaking {}", client.protocol_version());
    let modern = client.protocol_version().is_modern();
    match server.as_deref() {
        Some("python") => python(&client, &mut checks).await,
        Some("everything") => everything(&client, &mut checks).await,
        Some("notes") => notes(&client, &mut checks, modern).await,
        other => {
            eprintln!("interop_client: --server is python, everything or notes, not {other:?}");
            return ExitCode::from(2);
        }
    }
    client.close().await;
    println!("{} passed, {} failed", checks.passed, checks.failed);
    if checks.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
