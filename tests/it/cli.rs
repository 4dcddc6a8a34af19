//! Every server's command line (`Server::run`, feature `cli`), driven as a process: the
//! example binaries' `tools`, `call` (of tools that ask, too), `prompts`, `prompt`,
//! `resources`, `read`, `--help`, `--version` and a wrong flag. Serving stdio (no arguments) and `--http` are driven in `tests/it/stdio.rs` and
//! `tests/it/http.rs`. The terminal's prompts are tested in `mcp-tools/src/cli/terminal.rs`:
//! here standard input is never a terminal.

use crate::support;

use serde_json::{Value, json};
use std::process::{Command, Output};
use support::Spec;

const CALCULATOR: &str = env!("CARGO_BIN_EXE_calculator");
const NOTES: &str = env!("CARGO_BIN_EXE_notes");
const CONFORMANCE: &str = env!("CARGO_BIN_EXE_conformance");

fn run(binary: &str, args: &[&str]) -> Output {
    Command::new(binary).args(args).output().expect("the binary runs")
}

fn stdout_json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}",
            String::from_utf8_lossy(&output.stdout)
        )
    })
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn tools_prints_the_definitions_as_json() {
    let output = run(CALCULATOR, &["tools"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let tools = stdout_json(&output);
    assert_eq!(tools.as_array().map(Vec::len), Some(1));
    assert_eq!(tools[0]["name"], "calculator");
    assert_eq!(
        tools[0]["inputSchema"]["required"],
        json!(["operation", "a", "b"])
    );

    let notes = stdout_json(&run(NOTES, &["tools"]));
    let names: Vec<&str> = notes
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "add_note",
            "search_notes",
            "delete_note",
            "summarize_notes",
            "clear_notes",
            "suggest_title",
            "export_notes",
            "archive_notes",
            "export_markdown",
            "list_notes",
            "board_add"
        ]
    );
}

#[test]
fn call_runs_one_tool_and_prints_its_result() {
    let output = run(
        CALCULATOR,
        &["call", "calculator", r#"{"operation":"add","a":1,"b":2}"#],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout_json(&output),
        json!({ "content": [{ "type": "text", "text": "3" }] })
    );

    // A tool error is printed as the result it is, with exit status 1.
    let output = run(
        CALCULATOR,
        &["call", "calculator", r#"{"operation":"divide","a":1,"b":0}"#],
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stdout_json(&output),
        json!({ "content": [{ "type": "text", "text": "cannot divide by zero: `b` must be a non-zero number" }], "isError": true })
    );
}

#[test]
fn call_explains_what_is_wrong_with_its_input() {
    let unknown = run(CALCULATOR, &["call", "nope", "{}"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(unknown.stdout.is_empty());
    assert_eq!(
        stderr(&unknown).trim_end(),
        "error: no tool is named `nope`; the tools are `calculator`"
    );

    let not_json = run(CALCULATOR, &["call", "calculator", "not json"]);
    assert_eq!(not_json.status.code(), Some(2));
    assert_eq!(
        stderr(&not_json).trim_end(),
        "error: the arguments are not JSON: expected ident at line 1 column 2"
    );

    let bad_arguments = run(CALCULATOR, &["call", "calculator", r#"{"a":"x"}"#]);
    assert_eq!(bad_arguments.status.code(), Some(1));
    assert_eq!(stdout_json(&bad_arguments)["isError"], true);
}

#[test]
fn prompts_prints_the_prompt_definitions_as_json() {
    let output = run(NOTES, &["prompts"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout_json(&output),
        json!([
            {
                "name": "review_note",
                "title": "Review Note",
                "description": "Ask for a review of a note: what works, and what to change.",
                "arguments": [
                    { "name": "id", "description": "The note's id", "required": true },
                    {
                        "name": "focus",
                        "description": "What to look at: `clarity`, `brevity` or `tone`; everything when not given",
                        "required": false
                    }
                ]
            },
            {
                "name": "digest",
                "title": "Digest",
                "description": "Start a digest of the latest notes: they are listed for the model, which sums them up.",
                "arguments": [
                    { "name": "limit", "description": "How many of the latest notes to include", "required": false }
                ]
            }
        ])
    );

    // A server with no prompts has none to print.
    let none = run(CALCULATOR, &["prompts"]);
    assert_eq!(none.status.code(), Some(0), "{}", stderr(&none));
    assert_eq!(stdout_json(&none), json!([]));
}

#[test]
fn prompt_fills_one_in_and_prints_it() {
    // Each run of the command line starts with an empty store.
    let expected = json!({
        "messages": [
            {
                "role": "user",
                "content": {
                    "type": "text",
                    "text": "Write a short digest of my latest notes, oldest first: what they are about, \
                             grouped by topic, and anything in them that needs doing.\n\n(there are no notes yet)"
                }
            },
            { "role": "assistant", "content": { "type": "text", "text": "Here is your digest:" } }
        ]
    });
    for args in [
        &["prompt", "digest", "{}"][..],
        &["prompt", "digest"],
        &["prompt", "digest", r#"{"limit": "3"}"#],
    ] {
        let output = run(NOTES, args);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {}", stderr(&output));
        assert_eq!(stdout_json(&output), expected, "{args:?}");
        assert_eq!(stderr(&output), "", "{args:?}");
    }
}

#[test]
fn prompt_says_why_it_could_not_be_filled_in() {
    // The prompt's error: exit status 1, its message on stderr, nothing on stdout.
    let unknown_note = run(NOTES, &["prompt", "review_note", r#"{"id":"1"}"#]);
    assert_eq!(unknown_note.status.code(), Some(1));
    assert!(unknown_note.stdout.is_empty());
    assert_eq!(stderr(&unknown_note).trim_end(), "error: there is no note 1");

    // Arguments that do not fit the parameters.
    let bad = run(NOTES, &["prompt", "review_note", r#"{"id":"x","focus":"loud"}"#]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(bad.stdout.is_empty());
    assert_eq!(
        stderr(&bad).trim_end(),
        "error: 2 problems with the arguments:\n\
         argument `id`: expected an integer of at least 0, received the string \"x\"\n\
         argument `focus`: expected one of \"clarity\", \"brevity\", \"tone\", received the string \"loud\""
    );

    // A wrong command line: exit status 2.
    let unknown = run(NOTES, &["prompt", "nope"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert_eq!(
        stderr(&unknown).trim_end(),
        "error: there is no prompt `nope`; the prompts are `review_note`, `digest`"
    );
    let none = run(CALCULATOR, &["prompt", "nope"]);
    assert_eq!(none.status.code(), Some(2));
    assert_eq!(
        stderr(&none).trim_end(),
        "error: there is no prompt `nope`; this server has no prompts"
    );
    let not_json = run(NOTES, &["prompt", "digest", "{"]);
    assert_eq!(not_json.status.code(), Some(2));
    assert_eq!(
        stderr(&not_json).trim_end(),
        "error: the arguments are not JSON: EOF while parsing an object at line 1 column 1"
    );
}

#[test]
fn prompt_without_a_terminal_asks_for_no_form() {
    // As for `call`: nobody could answer, so the prompt's ask fails, and the note says why.
    let output = run(CONFORMANCE, &["prompt", "test_input_required_result_prompt"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    let said = stderr(&output);
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 2, "{said}");
    assert!(
        lines[0].starts_with("error: ") && lines[0].contains("`elicitation.form`"),
        "{said}"
    );
    assert!(
        lines[1].starts_with(
            "note: `test_input_required_result_prompt` needs the client capability `elicitation.form`, \
             which the command line offers only when standard input and standard error are a terminal"
        ),
        "{said}"
    );
}

#[test]
fn resources_prints_the_definitions_as_json() {
    let output = run(CONFORMANCE, &["resources"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
    assert_eq!(
        stdout_json(&output),
        json!({
            "resources": [
                {
                    "uri": "test://static-text",
                    "name": "static_text",
                    "title": "Static Text",
                    "description": "A static text resource.",
                    "mimeType": "text/plain"
                },
                {
                    "uri": "test://static-binary",
                    "name": "static_binary",
                    "title": "Static Binary",
                    "description": "A static binary resource: a 1×1 red PNG.",
                    "mimeType": "image/png"
                },
                {
                    "uri": "test://watched-resource",
                    "name": "watched_resource",
                    "title": "Watched Resource",
                    "description": "A resource to subscribe to: `test_trigger_resource_update` changes it.",
                    "mimeType": "text/plain"
                },
                {
                    "uri": "skill://conformance-guide/SKILL.md",
                    "name": "conformance-guide",
                    "description": "A skill of the conformance server, to exercise the skills extension. Use when a conformance scenario asks for one.",
                    "mimeType": "text/markdown",
                    "size": 343
                },
                {
                    "uri": "skill://conformance-guide/templates/regional/eu.md",
                    "name": "eu.md",
                    "mimeType": "text/markdown",
                    "size": 58
                },
                {
                    "uri": "skill://conformance-guide/templates/report.md",
                    "name": "report.md",
                    "mimeType": "text/markdown",
                    "size": 45
                }
            ],
            "resourceTemplates": [
                {
                    "uriTemplate": "test://template/{id}/data",
                    "name": "template_data",
                    "title": "Template Data",
                    "description": "A template whose `id` is put into the data.",
                    "mimeType": "application/json"
                }
            ]
        })
    );

    // Each definition is one of the newest revision, as `tools` and `prompts` print theirs.
    let listed = stdout_json(&output);
    let spec = Spec::of("2026-07-28");
    for resource in listed["resources"].as_array().unwrap() {
        spec.assert_valid("Resource", resource);
    }
    for template in listed["resourceTemplates"].as_array().unwrap() {
        spec.assert_valid("ResourceTemplate", template);
    }

    // A server with no resources has none to print.
    let none = run(CALCULATOR, &["resources"]);
    assert_eq!(none.status.code(), Some(0), "{}", stderr(&none));
    assert_eq!(
        stdout_json(&none),
        json!({ "resources": [], "resourceTemplates": [] })
    );
}

#[test]
fn read_prints_what_a_resource_reads() {
    let read = |uri: &str| {
        let output = run(CONFORMANCE, &["read", uri]);
        assert_eq!(output.status.code(), Some(0), "{uri}: {}", stderr(&output));
        assert_eq!(stderr(&output), "", "{uri}");
        let read = stdout_json(&output);
        // The contents are those of a `ReadResourceResult` of the newest revision (whose
        // `resultType` and cache hints, for a client, are left out, as `prompt` leaves them).
        let spec = Spec::of("2026-07-28");
        for contents in read["contents"].as_array().unwrap() {
            let kind = if contents.get("blob").is_some() {
                "BlobResourceContents"
            } else {
                "TextResourceContents"
            };
            spec.assert_valid(kind, contents);
        }
        read
    };
    assert_eq!(
        read("test://static-text"),
        json!({
            "contents": [{
                "uri": "test://static-text",
                "mimeType": "text/plain",
                "text": "This is the content of the static text resource."
            }]
        })
    );
    // Bytes arrive base64-encoded, as `resources/read` sends them.
    assert_eq!(
        read("test://static-binary"),
        json!({
            "contents": [{
                "uri": "test://static-binary",
                "mimeType": "image/png",
                "blob": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
            }]
        })
    );
    // A URI a template matches: its variable fills the fn's parameter, and the contents
    // carry the URI read.
    assert_eq!(
        read("test://template/42/data"),
        json!({
            "contents": [{
                "uri": "test://template/42/data",
                "mimeType": "application/json",
                "text": r#"{"id":"42","templateTest":true,"data":"Data for ID: 42"}"#
            }]
        })
    );
}

#[test]
fn read_says_why_it_could_not_read() {
    // The resource's fn failed, or the URI's variable does not parse: exit status 1, the
    // message the server would answer with on stderr, nothing on stdout.
    let unknown_note = run(NOTES, &["read", "notes://1"]);
    assert_eq!(unknown_note.status.code(), Some(1));
    assert!(unknown_note.stdout.is_empty());
    assert_eq!(stderr(&unknown_note).trim_end(), "error: there is no note 1");
    let not_an_id = run(NOTES, &["read", "notes://one"]);
    assert_eq!(not_an_id.status.code(), Some(1));
    assert!(not_an_id.stdout.is_empty());
    assert_eq!(
        stderr(&not_an_id).trim_end(),
        "error: argument `id`: expected an integer of at least 0, received the string \"one\""
    );

    // A URI no resource has: a wrong command line, exit status 2.
    let unknown = run(CONFORMANCE, &["read", "test://nope"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(unknown.stdout.is_empty());
    assert_eq!(
        stderr(&unknown).trim_end(),
        "error: no resource has the URI `test://nope`, and no template matches it; the resources are \
         `test://static-text`, `test://static-binary`, `test://watched-resource`, \
         `test://template/{id}/data`, `skill://conformance-guide/SKILL.md`, \
         `skill://conformance-guide/templates/regional/eu.md`, `skill://conformance-guide/templates/report.md`, \
         `mcp-result://{id}/{page}`"
    );
    let none = run(CALCULATOR, &["read", "test://static-text"]);
    assert_eq!(none.status.code(), Some(2));
    assert_eq!(
        stderr(&none).trim_end(),
        "error: no resource has the URI `test://static-text`; this server has no resources"
    );

    // Arguments that do not fit the command.
    let no_uri = run(CONFORMANCE, &["read"]);
    assert_eq!(no_uri.status.code(), Some(2));
    assert!(no_uri.stdout.is_empty());
    assert_eq!(
        stderr(&no_uri).trim_end(),
        "error: `read` needs the resource's URI: read <URI>"
    );
    let extra = run(CONFORMANCE, &["read", "test://static-text", "extra"]);
    assert_eq!(extra.status.code(), Some(2));
    assert!(extra.stdout.is_empty());
    assert_eq!(
        stderr(&extra).trim_end(),
        "error: unexpected argument 'extra' found\n\nFor more information, try '--help'."
    );
    let listing = run(CONFORMANCE, &["resources", "test://static-text"]);
    assert_eq!(listing.status.code(), Some(2));
    assert!(
        stderr(&listing).starts_with("error: unexpected argument 'test://static-text' found"),
        "{}",
        stderr(&listing)
    );
}

#[test]
fn help_version_and_wrong_flags() {
    let help = run(CALCULATOR, &["--help"]);
    assert_eq!(help.status.code(), Some(0));
    let text = String::from_utf8_lossy(&help.stdout);
    for expected in [
        "With no arguments it serves MCP on stdin and stdout",
        "--http <ADDR>",
        "tools",
        "call",
        "prompts",
        "prompt <NAME> [ARGUMENTS]",
        "resources  Print the resource and resource-template definitions as JSON",
        "read <URI>",
        "--wire-log <FILE>",
    ] {
        assert!(text.contains(expected), "--help lacks {expected:?}:\n{text}");
    }

    let version = run(CALCULATOR, &["--version"]);
    assert_eq!(version.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&version.stdout).trim_end(),
        format!("calculator {}", env!("CARGO_PKG_VERSION"))
    );

    let wrong = run(CALCULATOR, &["--bogus"]);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(
        stderr(&wrong).starts_with("error: unexpected argument '--bogus' found"),
        "{}",
        stderr(&wrong)
    );
}

#[test]
fn call_says_sampling_is_unavailable_from_the_command_line() {
    let output = run(CONFORMANCE, &["call", "test_sampling", r#"{"prompt": "Hi"}"#]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(
        stdout_json(&output),
        json!({
            "content": [{ "type": "text", "text": "this request needs the client capability `sampling`, which the client did not declare" }],
            "isError": true
        })
    );
    assert_eq!(
        stderr(&output).trim_end(),
        "note: `test_sampling` needs the client capability `sampling`, which the command line \
         cannot offer (it has no model to ask); call it from an MCP client"
    );
}

#[test]
fn call_without_a_terminal_asks_for_no_form() {
    // Standard input is not a terminal here: nobody could answer, so `elicitation` is not
    // declared and the tool's ask fails before anything is asked.
    let output = run(
        CONFORMANCE,
        &["call", "test_elicitation", r#"{"message": "Who are you?"}"#],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(
        stdout_json(&output),
        json!({
            "content": [{ "type": "text", "text": "this request needs the client capability `elicitation.form`, which the client did not declare" }],
            "isError": true
        })
    );
    assert_eq!(
        stderr(&output).trim_end(),
        "note: `test_elicitation` needs the client capability `elicitation.form`, which the command \
         line offers only when standard input and standard error are a terminal, to prompt on; \
         run the command in one, or call the tool from an MCP client"
    );
}

#[test]
fn call_gives_the_current_directory_as_the_root() {
    // A space and non-ASCII in the path: the root's URI percent-encodes them, and the tool
    // (`Root::path`) decodes them back.
    let dir = std::env::temp_dir().join(format!("mcp-toolkit cli roots {} é", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let output = Command::new(NOTES)
        .args(["call", "export_notes"])
        .current_dir(&dir)
        .output()
        .expect("the binary runs");
    let file = dir.join("notes.md");
    let written = std::fs::read_to_string(&file);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout_json(&output),
        json!({ "content": [{ "type": "text", "text": format!("exported 0 notes to {}", file.display()) }] })
    );
    assert_eq!(written.unwrap(), "# Notes\n\n");
    assert_eq!(stderr(&output), "");

    let roots = run(CONFORMANCE, &["call", "test_input_required_result_list_roots"]);
    assert_eq!(roots.status.code(), Some(0), "{}", stderr(&roots));
    let text = stdout_json(&roots)["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(text.starts_with("Found 1 root(s): file:///"), "{text}");
}

/// A folder of its own for one test, removed when dropped.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = std::env::temp_dir().join(format!("mcp-cli-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Serves with `--task-store URL` and expects it to stop before serving, saying why on
/// stderr as one line: the store's URL, then every cause.
fn store_refused(url: &str) -> String {
    let output = Command::new(CONFORMANCE)
        .args(["--task-store", url])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let said = stderr(&output);
    let prefix = format!("error: cannot open the task store {url}: ");
    let line = said
        .lines()
        .find(|line| line.starts_with("error: "))
        .unwrap_or_else(|| panic!("no error line: {said}"));
    assert!(line.starts_with(&prefix), "{said}");
    line[prefix.len()..].to_owned()
}

#[test]
fn a_task_store_that_cannot_open_is_named_with_its_cause() {
    let dir = TempDir::new("stores");
    // A file that starts as SQLite's do, then breaks off into noise.
    let corrupt = dir.0.join("corrupt.db");
    let mut bytes = b"SQLite format 3\0".to_vec();
    bytes.extend((0..8192u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    std::fs::write(&corrupt, bytes).unwrap();
    let corrupt = format!("sqlite:{}", corrupt.display());
    assert_eq!(store_refused(&corrupt), "file is not a database");

    let random = dir.0.join("random.db");
    let noise: Vec<u8> = (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect();
    std::fs::write(&random, noise).unwrap();
    let random = format!("sqlite:{}", random.display());
    assert_eq!(store_refused(&random), "file is not a database");

    let folder = format!("sqlite:{}", dir.0.display());
    assert_eq!(
        store_refused(&folder),
        "it is a folder; expected a file's path (the file is created if missing)"
    );

    let missing = dir.0.join("no-such-folder");
    let in_missing = format!("sqlite:{}", missing.join("tasks.db").display());
    assert_eq!(
        store_refused(&in_missing),
        format!("the folder `{}` does not exist", missing.display())
    );

    // A port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .unwrap()
        .port();
    let why = store_refused(&format!("redis://127.0.0.1:{port}"));
    assert!(why.to_lowercase().starts_with("connection refused"), "{why}");
    // The address is named, never the password.
    let with_password = format!("redis://ada:hunter2@127.0.0.1:{port}/0");
    let output = Command::new(CONFORMANCE)
        .args(["--task-store", &with_password])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let said = stderr(&output);
    assert!(
        said.contains(&format!(
            "error: cannot open the task store redis://127.0.0.1:{port}: "
        )),
        "{said}"
    );
    assert!(!said.contains("hunter2"), "{said}");
}
