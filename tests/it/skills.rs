//! Skills (the `io.modelcontextprotocol/skills` extension, SEP-2640) over the example
//! binaries' real pipes and sockets: the notes example's skill over stdio in 2026-07-28 and
//! in 2025-11-25 (the capability, `skills/list` as a whole document with digests hashed here
//! from the files on disk, `skills/get`, the files through `resources/list` and
//! `resources/read`); the conformance server's nested skill over Streamable HTTP
//! (`resources/directory/read` of each folder, and what is not a folder); bad params
//! answered with `-32602` while the server keeps serving; pages that never split a skill;
//! and a folder of skills refused at start with every problem at once.

use crate::support;

use mcp_toolkit::server::Limits;
use mcp_toolkit::skill::{Skills, SkillsError};
use mcp_toolkit::{Server, skills};
use serde_json::{Value, json};
use sha2::Digest;
use support::{HttpProcess, Peer, Spec, initialize, modern_meta};

const NOTES: &str = env!("CARGO_BIN_EXE_notes");
const CONFORMANCE: &str = env!("CARGO_BIN_EXE_conformance");

/// The notes example's skill file `path`, as the server must describe it in an entry.
fn described(path: &str) -> Value {
    let bytes = std::fs::read(format!("{}/examples/skills/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    json!({
        "uri": format!("skill://{path}"),
        "digest": format!("sha256:{:x}", sha2::Sha256::digest(&bytes)),
        "size": bytes.len(),
    })
}

fn notes_entry() -> Value {
    json!({
        "uri": "skill://notes-workflow/SKILL.md",
        "frontmatter": {
            "name": "notes-workflow",
            "description": "Keep the user's notes tidy with the notes server's tools. Use when the user asks to remember, note down, find, look up, tidy or export something they wrote before.",
            "metadata": {"server": "notes"}
        },
        "resources": [
            described("notes-workflow/SKILL.md"),
            described("notes-workflow/references/tagging.md"),
        ]
    })
}

fn modern(id: u64, method: &str, mut params: Value) -> Value {
    params["_meta"] = modern_meta(json!({}));
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

fn identity() -> Value {
    json!({ "io.modelcontextprotocol/serverInfo": { "name": "notes", "version": env!("CARGO_PKG_VERSION"), "title": "Notes" } })
}

#[test]
fn the_notes_skill_is_declared_listed_got_and_read_over_stdio_in_2026_07_28() {
    let mut peer = Peer::spawn(NOTES);
    let discover = peer.request(modern(1, "server/discover", json!({})));
    let capabilities = &discover["result"]["capabilities"];
    assert_eq!(
        capabilities["extensions"]["io.modelcontextprotocol/skills"],
        json!({ "directoryRead": true })
    );
    assert!(capabilities["resources"].is_object());

    let listed = peer.request(modern(2, "skills/list", json!({})));
    assert_eq!(
        listed,
        json!({ "jsonrpc": "2.0", "id": 2, "result": {
            "resultType": "complete",
            "skills": [notes_entry()],
            "ttlMs": 60000,
            "cacheScope": "public",
            "_meta": identity(),
        }})
    );
    let got = peer.request(modern(
        3,
        "skills/get",
        json!({ "uri": "skill://notes-workflow/SKILL.md" }),
    ));
    assert_eq!(
        got,
        json!({ "jsonrpc": "2.0", "id": 3, "result": {
            "skill": notes_entry(),
            "resultType": "complete",
            "ttlMs": 60000,
            "cacheScope": "public",
            "_meta": identity(),
        }})
    );

    let resources = peer.request(modern(4, "resources/list", json!({})));
    let listed = resources["result"]["resources"].as_array().unwrap();
    let manifest = listed
        .iter()
        .find(|r| r["uri"] == "skill://notes-workflow/SKILL.md")
        .unwrap();
    let size = described("notes-workflow/SKILL.md")["size"].clone();
    assert_eq!(
        *manifest,
        json!({
            "uri": "skill://notes-workflow/SKILL.md",
            "name": "notes-workflow",
            "description": notes_entry()["frontmatter"]["description"],
            "mimeType": "text/markdown",
            "size": size,
        })
    );
    Spec::of("2026-07-28").assert_valid("ListResourcesResult", &resources["result"]);

    let read = peer.request(modern(
        5,
        "resources/read",
        json!({ "uri": "skill://notes-workflow/references/tagging.md" }),
    ));
    let text = std::fs::read_to_string(format!(
        "{}/examples/skills/notes-workflow/references/tagging.md",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    assert_eq!(
        read["result"]["contents"],
        json!([{ "uri": "skill://notes-workflow/references/tagging.md", "mimeType": "text/markdown", "text": text }])
    );
    Spec::of("2026-07-28").assert_valid("ReadResourceResult", &read["result"]);
}

#[test]
fn skills_are_served_without_the_extension_declared_in_2025_11_25() {
    let mut peer = Peer::spawn(NOTES);
    let initialized = initialize(&mut peer, "2025-11-25");
    let capabilities = &initialized["result"]["capabilities"];
    // Only MCP Apps, whose hosts read it in every revision, is declared in `initialize`.
    let extensions = capabilities["extensions"].as_object().unwrap();
    assert_eq!(
        extensions.keys().collect::<Vec<_>>(),
        ["io.modelcontextprotocol/ui"],
        "{capabilities}"
    );
    assert!(capabilities["resources"].is_object());
    let listed = peer.request(json!({ "jsonrpc": "2.0", "id": 1, "method": "skills/list" }));
    assert_eq!(
        listed,
        json!({ "jsonrpc": "2.0", "id": 1, "result": { "skills": [notes_entry()] } })
    );
    let read = peer.request(json!({
        "jsonrpc": "2.0", "id": 2, "method": "resources/read",
        "params": { "uri": "skill://notes-workflow/SKILL.md" }
    }));
    let text = read["result"]["contents"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("---\nname: notes-workflow\n"), "{text}");
    Spec::of("2025-11-25").assert_valid("ReadResourceResult", &read["result"]);
}

#[test]
fn bad_params_are_invalid_params_and_the_server_keeps_serving() {
    let mut peer = Peer::spawn(NOTES);
    let cases = [
        (
            json!({ "uri": "skill://nothing/SKILL.md" }),
            "skills/get",
            "No skill is served at skill://nothing/SKILL.md",
        ),
        (json!({}), "skills/get", "invalid params: missing field `uri`"),
        (
            json!({ "uri": 7 }),
            "skills/get",
            "invalid params: invalid type: integer `7`, expected a string",
        ),
        (
            json!({ "cursor": "not-a-cursor" }),
            "skills/list",
            "Invalid cursor",
        ),
        (
            json!({ "uri": "skill://notes-workflow/SKILL.md" }),
            "resources/directory/read",
            "skill://notes-workflow/SKILL.md is not a directory resource",
        ),
        (
            json!({ "uri": "skill://elsewhere" }),
            "resources/directory/read",
            "skill://elsewhere is not a directory resource",
        ),
    ];
    for (id, (params, method, message)) in cases.into_iter().enumerate() {
        let answer = peer.request(modern(id as u64, method, params));
        assert_eq!(answer["error"]["code"], -32602, "{method}: {answer}");
        assert_eq!(answer["error"]["message"], message, "{method}: {answer}");
    }
    let listed = peer.request(modern(99, "skills/list", json!({})));
    assert_eq!(
        listed["result"]["skills"][0]["uri"],
        "skill://notes-workflow/SKILL.md"
    );
}

#[tokio::test]
async fn folders_of_the_conformance_skill_are_read_over_http() {
    let server = HttpProcess::spawn(CONFORMANCE);
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let read = |id: u64, uri: &str| {
        let mut params = json!({ "uri": uri });
        params["_meta"] = modern_meta(json!({}));
        client
            .post(&server.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "resources/directory/read")
            .json(&json!({ "jsonrpc": "2.0", "id": id, "method": "resources/directory/read", "params": params }))
            .send()
    };
    let size = |path: &str| {
        let path = format!(
            "{}/examples/conformance-skills/conformance-guide/{path}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::metadata(path).unwrap().len()
    };
    let root: Value = read(1, "skill://conformance-guide")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        root["result"]["resources"],
        json!([
            {
                "uri": "skill://conformance-guide/SKILL.md",
                "name": "conformance-guide",
                "description": "A skill of the conformance server, to exercise the skills extension. Use when a conformance scenario asks for one.",
                "mimeType": "text/markdown",
                "size": size("SKILL.md"),
            },
            { "uri": "skill://conformance-guide/templates", "name": "templates", "mimeType": "inode/directory" },
        ])
    );
    assert_eq!(root["result"]["resultType"], "complete");
    assert!(root["result"].get("nextCursor").is_none());
    let templates: Value = read(2, "skill://conformance-guide/templates")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        templates["result"]["resources"],
        json!([
            { "uri": "skill://conformance-guide/templates/regional", "name": "regional", "mimeType": "inode/directory" },
            { "uri": "skill://conformance-guide/templates/report.md", "name": "report.md", "mimeType": "text/markdown", "size": size("templates/report.md") },
        ])
    );
    let file = read(3, "skill://conformance-guide/templates/report.md")
        .await
        .unwrap();
    let file: Value = file.json().await.unwrap();
    assert_eq!(file["error"]["code"], -32602);
    assert_eq!(
        file["error"]["message"],
        "skill://conformance-guide/templates/report.md is not a directory resource"
    );
}

#[tokio::test]
async fn pages_hold_whole_skills_and_directory_reads_page_too() {
    let client = Server::new("paged", "1.0.0")
        .limits(Limits::default().page_size(1))
        .skills(skills!("examples/skills"))
        .skills(skills!("examples/conformance-skills"))
        .test_client()
        .unwrap();
    let first = client.request("skills/list", json!({})).await.unwrap();
    assert_eq!(first["skills"].as_array().unwrap().len(), 1);
    assert_eq!(first["skills"][0]["uri"], "skill://notes-workflow/SKILL.md");
    assert_eq!(first["skills"][0]["resources"].as_array().unwrap().len(), 2);
    let cursor = first["nextCursor"].as_str().unwrap();
    let second = client
        .request("skills/list", json!({ "cursor": cursor }))
        .await
        .unwrap();
    assert_eq!(second["skills"][0]["uri"], "skill://conformance-guide/SKILL.md");
    assert_eq!(second["skills"][0]["resources"].as_array().unwrap().len(), 3);
    assert!(second.get("nextCursor").is_none());

    let dir = json!({ "uri": "skill://conformance-guide" });
    let page = client
        .request("resources/directory/read", dir.clone())
        .await
        .unwrap();
    assert_eq!(page["resources"][0]["uri"], "skill://conformance-guide/SKILL.md");
    let mut next = dir;
    next["cursor"] = page["nextCursor"].clone();
    let page = client.request("resources/directory/read", next).await.unwrap();
    assert_eq!(page["resources"][0]["uri"], "skill://conformance-guide/templates");
    assert!(page.get("nextCursor").is_none());
}

#[test]
fn a_folder_of_skills_is_refused_at_start_with_every_problem() {
    let dir = std::env::temp_dir().join(format!("it-skills-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in [
        ("a/SKILL.md", "---\nname: b\ndescription: d\n---\n"),
        (
            "c/SKILL.md",
            "---\nname: c\ndescription: d\nmetadata:\n  io.modelcontextprotocol/k: v\n---\n",
        ),
        ("d/SKILL.md", "no frontmatter"),
    ] {
        std::fs::create_dir_all(dir.join(path).parent().unwrap()).unwrap();
        std::fs::write(dir.join(path), text).unwrap();
    }
    let Err(error @ SkillsError::Invalid { .. }) = Skills::from_dir(&dir) else {
        panic!("the folder is refused");
    };
    let shown = dir.display();
    assert_eq!(
        error.to_string(),
        format!(
            "the skills in `{shown}` have 3 problems:\n  `{shown}/a/SKILL.md`: `name` is `b` but the skill's folder is `a`; they must be the same\n  `{shown}/c/SKILL.md`: the `metadata` key `io.modelcontextprotocol/k` uses the prefix `io.modelcontextprotocol/`, which is reserved for MCP extensions; choose a key without it\n  `{shown}/d/SKILL.md`: `SKILL.md` does not begin with YAML frontmatter: its first line must be `---`"
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_same_skill_twice_is_refused_when_serving_starts() {
    let server = Server::new("twice", "1.0.0")
        .skills(skills!("examples/skills"))
        .skills(skills!("examples/skills"));
    let error = server.test_client().unwrap_err().to_string();
    assert!(error.contains("skill://notes-workflow/SKILL.md"), "{error}");
}
