//! The tasks extension (`io.modelcontextprotocol/tasks`) over stdio, against the
//! conformance example's task tools: whole exchanges, every result checked against the
//! schema of revision 2026-07-28 where it defines one.

use crate::support::callers::TwoCallers;
use crate::support::{Peer, Spec, initialize, modern_meta};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const CONFORMANCE: &str = env!("CARGO_BIN_EXE_conformance");
const MODERN: &str = "2026-07-28";
const EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// `_meta` of a request from a client that declares the tasks extension (and forms).
fn with_tasks() -> Value {
    modern_meta(json!({
        "io.modelcontextprotocol/clientCapabilities": { "elicitation": { "form": {} }, "extensions": { EXTENSION: {} } }
    }))
}

/// A `tools/call` of `name` with `arguments`, from a client that declares the extension
/// (`tasks`) or not.
fn call(peer: &mut Peer, id: u64, name: &str, arguments: Value, tasks: bool) -> Value {
    let meta = if tasks {
        with_tasks()
    } else {
        modern_meta(json!({}))
    };
    peer.request(json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "_meta": meta, "name": name, "arguments": arguments }
    }))
}

/// A `tasks/*` request with `params` (the `_meta` of a declaring client added).
fn task_request(peer: &mut Peer, id: u64, method: &str, mut params: Value) -> Value {
    params["_meta"] = with_tasks();
    peer.request(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
}

/// Polls `tasks/get` until the task's status is one of `statuses`; the last result.
fn wait_for(peer: &mut Peer, id: &mut u64, task: &str, statuses: &[&str]) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        *id += 1;
        let got = task_request(peer, *id, "tasks/get", json!({ "taskId": task }));
        let result = got["result"].clone();
        assert_eq!(result["taskId"], task, "{got}");
        if statuses.contains(&result["status"].as_str().unwrap_or_default()) {
            return result;
        }
        assert!(
            Instant::now() < deadline,
            "the task never became {statuses:?}: {result}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The fields of a task every shape has, checked; its id.
fn assert_task(result: &Value, result_type: &str, status: &str) -> String {
    assert_eq!(result["resultType"], result_type, "{result}");
    assert_eq!(result["status"], status, "{result}");
    for key in ["createdAt", "lastUpdatedAt"] {
        let text = result[key]
            .as_str()
            .unwrap_or_else(|| panic!("no {key}: {result}"));
        assert!(
            text.len() == 24 && text.ends_with('Z') && text.as_bytes()[10] == b'T',
            "{text}"
        );
    }
    assert!(result["ttlMs"].as_u64().is_some_and(|ttl| ttl > 0), "{result}");
    assert!(
        result["pollIntervalMs"].as_u64().is_some_and(|ms| ms > 0),
        "{result}"
    );
    for absent in ["requestState", "ttl", "pollInterval", "task"] {
        assert!(result.get(absent).is_none(), "`{absent}` in {result}");
    }
    let id = result["taskId"].as_str().expect("a task id");
    assert_eq!(id.len(), 32, "128 random bits in hex: {id}");
    id.to_owned()
}

#[test]
fn the_extension_is_advertised_by_a_server_with_task_tools() {
    let mut peer = Peer::spawn(CONFORMANCE);
    let discovered = peer.request(json!({
        "jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": { "_meta": modern_meta(json!({})) }
    }));
    assert_eq!(
        discovered["result"]["capabilities"]["extensions"],
        // The conformance server serves a skill too.
        json!({ EXTENSION: {}, "io.modelcontextprotocol/skills": { "directoryRead": true } })
    );
    assert!(discovered["result"]["capabilities"].get("tasks").is_none());
    Spec::of(MODERN).assert_valid("DiscoverResult", &discovered["result"]);
}

#[test]
fn a_task_is_created_polled_and_finished_with_its_result_inlined() {
    let spec = Spec::of(MODERN);
    let mut peer = Peer::spawn(CONFORMANCE);
    let created = call(
        &mut peer,
        1,
        "slow_compute",
        json!({ "seconds": 1, "label": "x" }),
        true,
    );
    let task = assert_task(&created["result"], "task", "working");
    for absent in ["result", "error", "inputRequests"] {
        assert!(created["result"].get(absent).is_none(), "{created}");
    }
    // Found at once: the answer came only once the task was stored.
    let mut id = 2;
    let now = task_request(&mut peer, id, "tasks/get", json!({ "taskId": task }));
    assert_task(&now["result"], "complete", "working");
    assert!(now["result"].get("result").is_none(), "{now}");
    let done = wait_for(&mut peer, &mut id, &task, &["completed"]);
    assert_task(&done, "complete", "completed");
    assert_eq!(
        done["result"]["content"],
        json!([{ "type": "text", "text": "computed x in 1 s" }])
    );
    assert_eq!(done["result"]["resultType"], "complete");
    assert!(
        done["result"]["_meta"]
            .get("io.modelcontextprotocol/related-task")
            .is_none()
    );
    spec.assert_valid("CallToolResult", &done["result"]);
    // Still there after it ended, until its time to live runs out.
    std::thread::sleep(Duration::from_millis(300));
    let later = task_request(&mut peer, id + 1, "tasks/get", json!({ "taskId": task }));
    assert_eq!(later["result"]["status"], "completed");
}

#[test]
fn a_tool_error_completes_the_task_and_a_panic_fails_it() {
    let mut peer = Peer::spawn(CONFORMANCE);
    let failing = call(&mut peer, 1, "failing_job", json!({}), true);
    let failing = assert_task(&failing["result"], "task", "working");
    let broken = call(&mut peer, 2, "protocol_error_job", json!({}), true);
    let broken = assert_task(&broken["result"], "task", "working");
    let mut id = 3;
    let completed = wait_for(&mut peer, &mut id, &failing, &["completed", "failed"]);
    assert_eq!(
        completed["status"], "completed",
        "a tool error is a result: {completed}"
    );
    assert_eq!(completed["result"]["isError"], true);
    assert_eq!(
        completed["result"]["content"][0]["text"],
        "the job failed: its input was not usable"
    );
    let failed = wait_for(&mut peer, &mut id, &broken, &["completed", "failed"]);
    assert_eq!(failed["status"], "failed", "{failed}");
    assert_eq!(
        failed["error"],
        json!({ "code": -32603, "message": "internal error" })
    );
    assert!(failed.get("result").is_none());
    assert!(
        !failed.to_string().contains("the job hit a bug"),
        "the panic's detail stays in the log"
    );
}

#[test]
fn a_cancelled_task_ends_cancelled_and_cancelling_again_is_acknowledged() {
    let mut peer = Peer::spawn(CONFORMANCE);
    let created = call(&mut peer, 1, "slow_compute", json!({ "seconds": 60 }), true);
    let task = assert_task(&created["result"], "task", "working");
    let ack = task_request(&mut peer, 2, "tasks/cancel", json!({ "taskId": task }));
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    for absent in ["taskId", "status", "result", "error", "inputRequests"] {
        assert!(ack["result"].get(absent).is_none(), "{ack}");
    }
    let got = task_request(&mut peer, 3, "tasks/get", json!({ "taskId": task }));
    assert_eq!(got["result"]["status"], "cancelled", "{got}");
    let again = task_request(&mut peer, 4, "tasks/cancel", json!({ "taskId": task }));
    assert_eq!(again["result"]["resultType"], "complete", "{again}");
    // A finished task is left as it is.
    let quick = call(&mut peer, 5, "failing_job", json!({}), true);
    let quick = assert_task(&quick["result"], "task", "working");
    let mut id = 6;
    wait_for(&mut peer, &mut id, &quick, &["completed"]);
    let late = task_request(&mut peer, 50, "tasks/cancel", json!({ "taskId": quick }));
    assert_eq!(late["result"]["resultType"], "complete");
    let still = task_request(&mut peer, 51, "tasks/get", json!({ "taskId": quick }));
    assert_eq!(still["result"]["status"], "completed");
}

#[test]
fn a_task_that_asks_waits_for_its_answers_and_runs_on_with_them() {
    let mut peer = Peer::spawn(CONFORMANCE);
    let created = call(
        &mut peer,
        1,
        "confirm_delete",
        json!({ "filename": "a.txt" }),
        true,
    );
    let task = assert_task(&created["result"], "task", "working");
    let mut id = 2;
    let waiting = wait_for(&mut peer, &mut id, &task, &["input_required"]);
    let requests = waiting["inputRequests"].as_object().expect("inputRequests");
    assert_eq!(requests.len(), 1, "{waiting}");
    let (key, request) = requests.iter().next().unwrap();
    assert_eq!(request["method"], "elicitation/create");
    assert_eq!(request["params"]["message"], "Delete a.txt?");
    Spec::of(MODERN).assert_valid("ElicitRequestParams", &request["params"]);
    // An answer to no question of the task's is ignored.
    let ignored = task_request(
        &mut peer,
        20,
        "tasks/update",
        json!({ "taskId": task, "inputResponses": { "unknown-key": { "ignored": true } } }),
    );
    assert_eq!(ignored["result"]["resultType"], "complete", "{ignored}");
    let still = task_request(&mut peer, 21, "tasks/get", json!({ "taskId": task }));
    assert_eq!(still["result"]["status"], "input_required");
    let answered = task_request(
        &mut peer,
        22,
        "tasks/update",
        json!({ "taskId": task, "inputResponses": { key: { "action": "accept", "content": { "confirm": true } } } }),
    );
    assert_eq!(answered["result"]["resultType"], "complete");
    let mut id = 23;
    let done = wait_for(&mut peer, &mut id, &task, &["completed"]);
    assert_eq!(done["result"]["content"][0]["text"], "deleted a.txt");
}

#[test]
fn questions_asked_together_may_be_answered_one_at_a_time() {
    let mut peer = Peer::spawn(CONFORMANCE);
    let created = call(&mut peer, 1, "multi_input", json!({}), true);
    let task = assert_task(&created["result"], "task", "working");
    let mut id = 2;
    let waiting = wait_for(&mut peer, &mut id, &task, &["input_required"]);
    let keys: Vec<&String> = waiting["inputRequests"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["first", "second"], "{waiting}");
    let answer = |name: &str| json!({ "action": "accept", "content": { "name": name, "confirm": true } });
    task_request(
        &mut peer,
        20,
        "tasks/update",
        json!({ "taskId": task, "inputResponses": { "first": answer("A") } }),
    );
    let partial = task_request(&mut peer, 21, "tasks/get", json!({ "taskId": task }));
    assert_eq!(partial["result"]["status"], "input_required");
    let left: Vec<&String> = partial["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(left, ["second"]);
    task_request(
        &mut peer,
        22,
        "tasks/update",
        json!({ "taskId": task, "inputResponses": { "second": answer("B") } }),
    );
    let mut id = 23;
    let done = wait_for(&mut peer, &mut id, &task, &["completed"]);
    assert_eq!(done["result"]["content"][0]["text"], "Got A and B");
}

#[test]
fn questions_before_the_task_are_rounds_of_the_call_itself() {
    let mut peer = Peer::spawn(CONFORMANCE);
    let first = call(&mut peer, 1, "test_tool_with_task", json!({}), true);
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    assert!(first["result"].get("taskId").is_none());
    let state = first["result"]["requestState"].clone();
    let second = peer.request(json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {
            "_meta": with_tasks(), "name": "test_tool_with_task", "arguments": {},
            "inputResponses": { "user_name": { "action": "accept", "content": { "name": "Alice" } } },
            "requestState": state
        }
    }));
    let task = assert_task(&second["result"], "task", "working");
    let mut id = 3;
    let done = wait_for(&mut peer, &mut id, &task, &["completed"]);
    assert_eq!(
        done["result"]["content"][0]["text"],
        "Hello, Alice! Your task is done."
    );
}

#[test]
fn a_client_without_the_extension_gets_plain_calls_and_is_refused_tasks() {
    let mut peer = Peer::spawn(CONFORMANCE);
    let plain = call(
        &mut peer,
        1,
        "slow_compute",
        json!({ "seconds": 0, "label": "now" }),
        false,
    );
    assert_eq!(plain["result"]["resultType"], "complete", "{plain}");
    assert_eq!(plain["result"]["content"][0]["text"], "computed now in 0 s");
    let required = call(&mut peer, 2, "failing_job", json!({}), false);
    assert_eq!(required["error"]["code"], -32021, "{required}");
    assert_eq!(
        required["error"]["data"],
        json!({ "requiredCapabilities": { "extensions": { EXTENSION: {} } } })
    );
    Spec::of(MODERN).assert_valid("MissingRequiredClientCapabilityError", &required);
    for (id, method) in [(3, "tasks/get"), (4, "tasks/update"), (5, "tasks/cancel")] {
        let refused = peer.request(json!({
            "jsonrpc": "2.0", "id": id, "method": method,
            "params": { "_meta": modern_meta(json!({})), "taskId": "x", "inputResponses": {} }
        }));
        assert_eq!(refused["error"]["code"], -32021, "{method}: {refused}");
    }
    let listen = peer.request(json!({
        "jsonrpc": "2.0", "id": 6, "method": "subscriptions/listen",
        "params": { "_meta": modern_meta(json!({})), "notifications": { "taskIds": ["x"] } }
    }));
    assert_eq!(listen["error"]["code"], -32021, "{listen}");
}

#[test]
fn unknown_tasks_and_removed_methods_are_errors() {
    let mut peer = Peer::spawn(CONFORMANCE);
    for (id, method) in [(1, "tasks/get"), (2, "tasks/cancel"), (3, "tasks/update")] {
        let unknown = task_request(
            &mut peer,
            id,
            method,
            json!({ "taskId": "tasks-conformance-nonexistent-12345", "inputResponses": {} }),
        );
        assert_eq!(unknown["error"]["code"], -32602, "{method}: {unknown}");
    }
    for (id, method) in [(4, "tasks/result"), (5, "tasks/list")] {
        let removed = task_request(&mut peer, id, method, json!({ "taskId": "x" }));
        assert_eq!(removed["error"]["code"], -32601, "{method}: {removed}");
    }
    let malformed = task_request(&mut peer, 6, "tasks/get", json!({ "taskId": 7 }));
    assert_eq!(malformed["error"]["code"], -32602, "{malformed}");
    // The server goes on serving.
    let greeted = call(&mut peer, 7, "greet", json!({ "name": "Ada" }), true);
    assert_eq!(greeted["result"]["content"][0]["text"], "Hello, Ada!");
}

#[test]
fn a_listen_stream_hears_the_tasks_it_names() {
    let spec = Spec::of(MODERN);
    let mut peer = Peer::spawn(CONFORMANCE);
    let created = call(
        &mut peer,
        1,
        "slow_compute",
        json!({ "seconds": 1, "label": "heard" }),
        true,
    );
    let task = assert_task(&created["result"], "task", "working");
    peer.send(json!({
        "jsonrpc": "2.0", "id": "listen-1", "method": "subscriptions/listen",
        "params": { "_meta": with_tasks(), "notifications": { "taskIds": [task, "not-a-task"] } }
    }));
    let ack = peer.recv();
    spec.assert_valid("SubscriptionsAcknowledgedNotification", &ack);
    assert_eq!(
        ack["params"]["notifications"],
        json!({ "taskIds": [task] }),
        "{ack}"
    );
    // Status messages, then the end, each a whole task as tasks/get would read it.
    let deadline = Instant::now() + Duration::from_secs(20);
    let done = loop {
        let heard = peer.recv();
        assert_eq!(heard["method"], "notifications/tasks", "{heard}");
        assert_eq!(
            heard["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
            "listen-1"
        );
        assert_eq!(heard["params"]["taskId"], task);
        if heard["params"]["status"] == "completed" {
            break heard;
        }
        assert!(Instant::now() < deadline, "no end heard");
    };
    assert_eq!(
        done["params"]["result"]["content"][0]["text"],
        "computed heard in 1 s"
    );
    // A stream opened once the task has ended hears it as it is, at once.
    peer.send(json!({
        "jsonrpc": "2.0", "id": "listen-2", "method": "subscriptions/listen",
        "params": { "_meta": with_tasks(), "notifications": { "taskIds": [task] } }
    }));
    assert_eq!(peer.recv()["method"], "notifications/subscriptions/acknowledged");
    let now = peer.recv();
    assert_eq!(
        now["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        "listen-2"
    );
    assert_eq!(now["params"]["status"], "completed", "{now}");
    assert_eq!(now["params"]["result"], done["params"]["result"]);
}

#[test]
fn before_2026_07_28_task_tools_are_plain_and_task_only_tools_are_not_there() {
    let mut peer = Peer::spawn(CONFORMANCE);
    initialize(&mut peer, "2025-11-25");
    let list = peer.request(json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }));
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"slow_compute") && names.contains(&"greet"),
        "{names:?}"
    );
    assert!(
        !names.contains(&"failing_job") && !names.contains(&"test_tool_with_task"),
        "{names:?}"
    );
    let plain = peer.request(json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": "slow_compute", "arguments": { "seconds": 0 } }
    }));
    assert_eq!(plain["result"]["content"][0]["text"], "computed  in 0 s");
    let refused = peer.request(json!({
        "jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": { "name": "failing_job" }
    }));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("runs only as a task"),
        "{refused}"
    );
    let get = peer
        .request(json!({ "jsonrpc": "2.0", "id": 4, "method": "tasks/get", "params": { "taskId": "x" } }));
    assert_eq!(get["error"]["code"], -32601, "{get}");
}

/// A fresh folder in the temp dir, for a SQLite store's file.
fn temp_folder(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "mcp-toolkit-{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_sqlite_store_keeps_finished_tasks_across_a_restart_and_fails_the_one_that_was_running() {
    let dir = temp_folder("tasks");
    let store = format!("sqlite:{}", dir.join("tasks.db").display());
    let args = ["--task-store", store.as_str()];
    let lease = [("MCP_TOOLKIT_TASK_LEASE", "1s")];

    let mut peer = Peer::spawn_with_env(CONFORMANCE, &args, &lease);
    let finished = call(&mut peer, 1, "failing_job", json!({}), true);
    let finished = assert_task(&finished["result"], "task", "working");
    let mut id = 2;
    let before = wait_for(&mut peer, &mut id, &finished, &["completed"]);
    let running = call(&mut peer, 50, "slow_compute", json!({ "seconds": 60 }), true);
    let running = assert_task(&running["result"], "task", "working");
    // The process dies with the task working: no chance to say so.
    peer.child().kill().unwrap();
    peer.child().wait().unwrap();
    let died = Instant::now();

    let mut restarted = Peer::spawn_with_env(CONFORMANCE, &args, &lease);
    let after = task_request(&mut restarted, 1, "tasks/get", json!({ "taskId": finished }));
    assert_eq!(after["result"]["status"], "completed", "{after}");
    assert_eq!(after["result"]["result"], before["result"]);
    assert_eq!(after["result"]["createdAt"], before["createdAt"]);
    // Its lease runs out within a second of the death; then it reads `failed`.
    let mut id = 2;
    let orphan = wait_for(&mut restarted, &mut id, &running, &["failed"]);
    assert!(died.elapsed() < Duration::from_secs(10), "{:?}", died.elapsed());
    assert_eq!(orphan["error"]["code"], -32603);
    assert_eq!(
        orphan["statusMessage"],
        "the server instance running this task stopped before it finished"
    );
    drop(restarted);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_process_on_the_same_sqlite_file_leaves_a_live_lease_alone() {
    let dir = temp_folder("two-processes");
    let store = format!("sqlite:{}", dir.join("tasks.db").display());
    let args = ["--task-store", store.as_str()];
    let mut first = Peer::spawn_with(CONFORMANCE, &args);
    let mut second = Peer::spawn_with(CONFORMANCE, &args);

    let created = call(
        &mut first,
        1,
        "slow_compute",
        json!({ "seconds": 2, "label": "here" }),
        true,
    );
    let task = assert_task(&created["result"], "task", "working");
    // Read from the other process while the first holds a live lease: still working.
    let read = task_request(&mut second, 1, "tasks/get", json!({ "taskId": task }));
    assert_eq!(read["result"]["status"], "working", "{read}");
    // And it finishes, where it runs, with its result, read from either process.
    let mut id = 2;
    let done = wait_for(&mut second, &mut id, &task, &["completed", "failed"]);
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(
        done["result"]["content"],
        json!([{ "type": "text", "text": "computed here in 2 s" }])
    );
    let there = task_request(&mut first, 2, "tasks/get", json!({ "taskId": task }));
    assert_eq!(there["result"]["result"], done["result"]);
    drop((first, second));
    let _ = std::fs::remove_dir_all(&dir);
}

/// What a task still running when its server stopped says.
const SHUT_DOWN: &str = "the server shut down before the task finished";

/// Waits for `peer`'s process to exit (20 s at most): its status, and how long that took.
fn exit_of(peer: &mut Peer) -> (std::process::ExitStatus, Duration) {
    let asked = Instant::now();
    loop {
        if let Some(status) = peer.child().try_wait().unwrap() {
            return (status, asked.elapsed());
        }
        assert!(
            asked.elapsed() < Duration::from_secs(20),
            "the server did not exit"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_stopped_server_lets_running_tasks_finish_for_its_grace_then_fails_the_rest() {
    let dir = temp_folder("grace");
    let store = format!("sqlite:{}", dir.join("tasks.db").display());
    let args = ["--task-store", store.as_str()];
    let grace = Duration::from_secs(3);

    // SIGTERM with a short task and a long one running.
    let mut peer = Peer::spawn_with_env(CONFORMANCE, &args, &[("MCP_TOOLKIT_SHUTDOWN_GRACE", "3s")]);
    let short = call(
        &mut peer,
        1,
        "slow_compute",
        json!({ "seconds": 1, "label": "short" }),
        true,
    );
    let short = assert_task(&short["result"], "task", "working");
    let long = call(
        &mut peer,
        2,
        "slow_compute",
        json!({ "seconds": 60, "label": "long" }),
        true,
    );
    let long = assert_task(&long["result"], "task", "working");
    let pid = peer.child().id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    let (status, took) = exit_of(&mut peer);
    assert_eq!(status.code(), Some(0));
    // It waited for the long task as long as the grace, not for the task itself.
    assert!(took >= grace && took < grace + Duration::from_secs(2), "{took:?}");

    // Another process on the same file reads how each ended.
    let mut after = Peer::spawn_with(CONFORMANCE, &args);
    let finished = task_request(&mut after, 1, "tasks/get", json!({ "taskId": short }));
    assert_task(&finished["result"], "complete", "completed");
    assert_eq!(
        finished["result"]["result"]["content"],
        json!([{ "type": "text", "text": "computed short in 1 s" }])
    );
    let failed = task_request(&mut after, 2, "tasks/get", json!({ "taskId": long }));
    assert_task(&failed["result"], "complete", "failed");
    assert_eq!(failed["result"]["statusMessage"], SHUT_DOWN, "{failed}");
    assert_eq!(
        failed["result"]["error"],
        json!({ "code": -32603, "message": SHUT_DOWN })
    );
    // With no task running, a stop is at once.
    let pid = after.child().id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    let (status, took) = exit_of(&mut after);
    assert_eq!(status.code(), Some(0));
    assert!(took < Duration::from_secs(1), "{took:?}");

    // The end of standard input stops a stdio server the same way.
    let mut peer = Peer::spawn_with_env(CONFORMANCE, &args, &[("MCP_TOOLKIT_SHUTDOWN_GRACE", "500ms")]);
    let long = call(&mut peer, 1, "slow_compute", json!({ "seconds": 60 }), true);
    let long = assert_task(&long["result"], "task", "working");
    let (status, rest) = peer.finish();
    assert_eq!(status.code(), Some(0));
    assert!(rest.is_empty(), "{rest:?}");
    let mut after = Peer::spawn_with(CONFORMANCE, &args);
    let failed = task_request(&mut after, 1, "tasks/get", json!({ "taskId": long }));
    assert_eq!(failed["result"]["status"], "failed", "{failed}");
    assert_eq!(failed["result"]["statusMessage"], SHUT_DOWN, "{failed}");
    drop(after);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Works until cancelled; only ever a task.
#[mcp_toolkit::tool(task = "required")]
async fn forever(cx: mcp_toolkit::Context) -> &'static str {
    cx.cancelled().await;
    "stopped"
}

#[tokio::test]
async fn a_task_is_invisible_to_every_caller_but_its_creator() {
    use mcp_toolkit::{Server, tools};
    let http = TwoCallers::serve(Server::new("tasks", "1.0.0").tools(tools![forever])).await;
    let post = |token, id, method, params| http.post(token, id, method, params, with_tasks());

    let created = post(
        "ada-token",
        1,
        "tools/call",
        json!({ "name": "forever", "arguments": {} }),
    )
    .await;
    let task = assert_task(&created["result"], "task", "working");
    // To another principal the task is as unknown as an id never issued.
    let unknown = post("bob-token", 2, "tasks/get", json!({ "taskId": "0".repeat(32) })).await;
    for (id, method) in [(3, "tasks/get"), (4, "tasks/update"), (5, "tasks/cancel")] {
        let refused = post(
            "bob-token",
            id,
            method,
            json!({ "taskId": task, "inputResponses": {} }),
        )
        .await;
        assert_eq!(refused["error"], unknown["error"], "{method}: {refused}");
        assert_eq!(refused["error"]["code"], -32602);
    }
    let still = post("ada-token", 6, "tasks/get", json!({ "taskId": task })).await;
    assert_eq!(
        still["result"]["status"], "working",
        "bob's cancel did nothing: {still}"
    );
    let cancelled = post("ada-token", 7, "tasks/cancel", json!({ "taskId": task })).await;
    assert_eq!(cancelled["result"]["resultType"], "complete");
    let ended = post("ada-token", 8, "tasks/get", json!({ "taskId": task })).await;
    assert_eq!(ended["result"]["status"], "cancelled");

    http.stop().await;
}

#[tokio::test]
async fn running_tasks_have_bounds_of_their_own_and_leave_calls_theirs() {
    use mcp_toolkit::server::Limits;
    use mcp_toolkit::{Server, tools};
    let server = Server::new("tasks", "1.0.0")
        .tools(tools![forever, brief])
        .limits(Limits::default().max_concurrent_calls(2))
        .max_running_tasks(3)
        .max_running_tasks_per_client(2);
    let http = TwoCallers::serve(server).await;
    let forever = json!({ "name": "forever", "arguments": {} });
    let start = |token, id| http.post(token, id, "tools/call", forever.clone(), with_tasks());

    // Two long tasks of ada's: as many as the calls in progress may be.
    let mut ada_tasks = Vec::new();
    for id in 1..=2 {
        let created = start("ada-token", id).await;
        ada_tasks.push(assert_task(&created["result"], "task", "working"));
    }
    let refused = start("ada-token", 3).await;
    assert_eq!(refused["error"]["code"], -32000, "{refused}");
    assert_eq!(
        refused["error"]["message"],
        "too many tasks: this client has 2 running, its limit (`max_running_tasks_per_client`); try again when one has ended"
    );
    // Another client still has places, until the server's bound.
    let created = start("bob-token", 4).await;
    let mut bob_tasks = vec![assert_task(&created["result"], "task", "working")];
    let busy = start("bob-token", 5).await;
    assert_eq!(busy["error"]["code"], -32000, "{busy}");
    assert_eq!(
        busy["error"]["message"],
        "the server is busy: 3 tasks are running, its limit (`max_running_tasks`); try again shortly"
    );
    // Plain calls that wait keep their own places, two at once.
    let plain = |token, id| {
        http.post(
            token,
            id,
            "tools/call",
            json!({ "name": "brief", "arguments": {} }),
            modern_meta(json!({})),
        )
    };
    let (a, b) = tokio::join!(plain("ada-token", 6), plain("bob-token", 7));
    for answer in [a, b] {
        assert_eq!(answer["result"]["content"][0]["text"], "done", "{answer}");
        assert!(answer["result"].get("isError").is_none(), "{answer}");
    }
    // A task that ends gives its place back.
    let cancelled = http
        .post(
            "ada-token",
            8,
            "tasks/cancel",
            json!({ "taskId": ada_tasks[0] }),
            with_tasks(),
        )
        .await;
    assert_eq!(cancelled["result"]["resultType"], "complete", "{cancelled}");
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut id = 9;
    loop {
        let again = start("bob-token", id).await;
        if again["result"]["resultType"] == "task" {
            bob_tasks.push(assert_task(&again["result"], "task", "working"));
            break;
        }
        assert!(Instant::now() < deadline, "no place came back: {again}");
        tokio::time::sleep(Duration::from_millis(20)).await;
        id += 1;
    }
    // Every task cancelled, for the server to stop at once.
    let owned = ada_tasks[1..]
        .iter()
        .map(|t| ("ada-token", t))
        .chain(bob_tasks.iter().map(|t| ("bob-token", t)));
    for (token, task) in owned {
        id += 1;
        let params = json!({ "taskId": task });
        let cancelled = http.post(token, id, "tasks/cancel", params, with_tasks()).await;
        assert_eq!(cancelled["result"]["resultType"], "complete", "{cancelled}");
    }
    http.stop().await;
}

/// Works a moment on its text, then says how long it was.
#[mcp_toolkit::tool(task)]
async fn measure(text: String) -> String {
    tokio::time::sleep(Duration::from_millis(200)).await;
    format!("{} bytes", text.len())
}

/// A `tools/call` of `measure` from a client that declares the extension.
async fn measure_task(
    client: &mcp_toolkit::testing::TestClient,
    text: &str,
) -> Result<Value, mcp_toolkit::testing::ClientError> {
    let meta = json!({ "io.modelcontextprotocol/clientCapabilities": { "extensions": { EXTENSION: {} } } });
    client
        .request(
            "tools/call",
            json!({ "_meta": meta, "name": "measure", "arguments": { "text": text } }),
        )
        .await
}

/// Polls `tasks/get` on `client` until task `id` has ended; its last state.
async fn ended(client: &mcp_toolkit::testing::TestClient, id: &str) -> Value {
    let meta = json!({ "io.modelcontextprotocol/clientCapabilities": { "extensions": { EXTENSION: {} } } });
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let got = client
            .request("tasks/get", json!({ "_meta": meta, "taskId": id }))
            .await
            .unwrap();
        if got["status"] != "working" {
            return got;
        }
        assert!(Instant::now() < deadline, "the task never ended: {got}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn the_memory_store_bounds_the_bytes_of_tasks_and_an_ended_task_keeps_no_arguments() {
    use mcp_toolkit::task::MemoryStore;
    use mcp_toolkit::{Server, tools};
    let client = Server::new("tasks", "1.0.0")
        .tools(tools![measure])
        .task_store(MemoryStore::new().with_task_byte_limit(100_000))
        .test_client()
        .unwrap();
    let text = "x".repeat(60_000);
    let first = measure_task(&client, &text).await.unwrap();
    assert_eq!(first["resultType"], "task", "{first}");
    // The first task holds its arguments while it runs: no room for another as large.
    let refused = measure_task(&client, &text).await.unwrap_err();
    let mcp_toolkit::testing::ClientError::Rpc { code, message, .. } = &refused else {
        panic!("{refused:?}")
    };
    assert_eq!(*code, mcp_toolkit::protocol::ErrorCode::SERVER_BUSY);
    assert!(
        message.starts_with("the task store holds ")
            && message.ends_with("more than the 100000 bytes it may hold; try again when some have expired"),
        "{message}"
    );
    // A client without the extension gets a plain call, which the store does not bound.
    assert_eq!(
        client
            .call("measure", json!({ "text": text }))
            .await
            .unwrap()
            .text(),
        Some("60000 bytes")
    );
    let done = ended(&client, first["taskId"].as_str().unwrap()).await;
    assert_eq!(done["result"]["content"][0]["text"], "60000 bytes", "{done}");
    // Ended, the task never runs again: its arguments are gone, and so is their room.
    let second = measure_task(&client, &text).await.unwrap();
    assert_eq!(second["resultType"], "task", "{second}");
}

#[tokio::test]
async fn a_sqlite_record_keeps_a_task_s_arguments_only_while_it_may_run() {
    use mcp_toolkit::task::{SqliteStore, TaskStore};
    use mcp_toolkit::{Server, tools};
    let dir = temp_folder("arguments");
    let path = dir.join("tasks.db");
    let client = Server::new("tasks", "1.0.0")
        .tools(tools![measure])
        .task_store(SqliteStore::open(&path).unwrap())
        .test_client()
        .unwrap();
    // Another handle on the file reads the records as they are written.
    let reader = SqliteStore::open(&path).unwrap();
    let marker = "an argument worth forgetting";
    let created = measure_task(&client, marker).await.unwrap();
    let id = created["taskId"].as_str().unwrap();
    let running = reader.load(id).await.unwrap().unwrap();
    assert!(running.data.contains(marker), "{}", running.data);
    let done = ended(&client, id).await;
    assert_eq!(done["status"], "completed", "{done}");
    let kept = reader.load(id).await.unwrap().unwrap();
    assert!(
        !kept.data.contains(marker) && !kept.data.contains("\"arguments\""),
        "{}",
        kept.data
    );
    assert!(
        kept.data.contains("28 bytes"),
        "the result is kept: {}",
        kept.data
    );
    drop((client, reader));
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn over_http_a_stop_lets_running_tasks_finish_for_the_grace_then_fails_them() {
    use mcp_toolkit::task::{SqliteStore, TaskStore};
    use mcp_toolkit::{Server, tools};
    let dir = temp_folder("grace-http");
    let path = dir.join("tasks.db");
    let grace = Duration::from_millis(400);
    let server = Server::new("tasks", "1.0.0")
        .tools(tools![forever])
        .task_store(SqliteStore::open(&path).unwrap())
        .shutdown_grace(grace);
    let http = TwoCallers::serve(server).await;
    let created = http
        .post(
            "ada-token",
            1,
            "tools/call",
            json!({ "name": "forever", "arguments": {} }),
            with_tasks(),
        )
        .await;
    let task = assert_task(&created["result"], "task", "working");
    let stopping = Instant::now();
    http.stop().await;
    let took = stopping.elapsed();
    assert!(
        took >= grace && took < grace + Duration::from_millis(1500),
        "{took:?}"
    );
    // The file says how the task ended, for whichever process opens it next.
    let store = SqliteStore::open(&path).unwrap();
    let stored = store.load(&task).await.unwrap().expect("the task is kept");
    let record: Value = serde_json::from_str(&stored.data).unwrap();
    assert_eq!(record["status"], "failed", "{record}");
    assert_eq!(record["statusMessage"], SHUT_DOWN, "{record}");
    assert_eq!(record["error"], json!({ "code": -32603, "message": SHUT_DOWN }));
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A task store that is down until told otherwise, over an in-memory one.
struct Flaky {
    inner: mcp_toolkit::task::MemoryStore,
    down: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Flaky {
    fn check(&self) -> Result<(), mcp_toolkit::task::StoreError> {
        if self.down.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(mcp_toolkit::task::StoreError::unavailable(
                "flaky",
                std::io::Error::other("connection refused"),
            ));
        }
        Ok(())
    }
}

impl mcp_toolkit::task::TaskStore for Flaky {
    fn create(&self, task: mcp_toolkit::task::StoredTask) -> mcp_toolkit::task::StoreFuture<'_, ()> {
        match self.check() {
            Ok(()) => self.inner.create(task),
            Err(error) => Box::pin(std::future::ready(Err(error))),
        }
    }

    fn load<'a>(
        &'a self,
        id: &'a str,
    ) -> mcp_toolkit::task::StoreFuture<'a, Option<mcp_toolkit::task::StoredTask>> {
        match self.check() {
            Ok(()) => self.inner.load(id),
            Err(error) => Box::pin(std::future::ready(Err(error))),
        }
    }

    fn replace(&self, task: mcp_toolkit::task::StoredTask) -> mcp_toolkit::task::StoreFuture<'_, bool> {
        match self.check() {
            Ok(()) => self.inner.replace(task),
            Err(error) => Box::pin(std::future::ready(Err(error))),
        }
    }

    fn changes(&self) -> tokio::sync::broadcast::Receiver<std::sync::Arc<str>> {
        self.inner.changes()
    }

    fn is_shared(&self) -> bool {
        false
    }
}

/// Works a moment, then reports.
#[mcp_toolkit::tool(task)]
async fn brief() -> &'static str {
    tokio::time::sleep(Duration::from_millis(100)).await;
    "done"
}

#[tokio::test]
async fn a_store_that_is_down_refuses_tasks_clearly_and_plain_calls_go_on() {
    use mcp_toolkit::{Server, tools};
    use std::sync::atomic::{AtomicBool, Ordering};
    let down = std::sync::Arc::new(AtomicBool::new(true));
    let store = Flaky {
        inner: mcp_toolkit::task::MemoryStore::new(),
        down: std::sync::Arc::clone(&down),
    };
    let client = Server::new("tasks", "1.0.0")
        .tools(tools![brief])
        .task_store(store)
        .test_client()
        .unwrap();
    let tasks = json!({ "io.modelcontextprotocol/clientCapabilities": { "extensions": { EXTENSION: {} } } });
    let refused = client
        .request(
            "tools/call",
            json!({ "_meta": tasks.clone(), "name": "brief", "arguments": {} }),
        )
        .await
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "the server answered with JSON-RPC error -32603: internal error: the task store is unavailable"
    );
    // A client without the extension gets a plain call, which needs no store.
    assert_eq!(
        client.call("brief", json!({})).await.unwrap().text(),
        Some("done")
    );
    // Back up, tasks work again.
    down.store(false, Ordering::SeqCst);
    let created = client
        .request(
            "tools/call",
            json!({ "_meta": tasks, "name": "brief", "arguments": {} }),
        )
        .await
        .unwrap();
    assert_eq!(created["resultType"], "task", "{created}");
}

#[test]
fn a_task_sends_no_progress_or_log_messages_once_it_is_answered() {
    let mut peer = Peer::spawn(env!("CARGO_BIN_EXE_mcp-toolkit-fixture"));
    let mut meta = with_tasks();
    meta["progressToken"] = json!("p-1");
    meta["io.modelcontextprotocol/logLevel"] = json!("debug");
    let created = peer.request(json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "_meta": meta, "name": "quiet_task", "arguments": {} }
    }));
    let task = assert_task(&created["result"], "task", "working");
    assert_eq!(peer.silent_for(Duration::from_millis(400)), None);
    let mut id = 2;
    let done = wait_for(&mut peer, &mut id, &task, &["completed"]);
    assert_eq!(done["result"]["content"][0]["text"], "done");
}

/// A server with no task tool (the calculator) does not link the task engine
/// (bench/README.md, "Footprint"), and serves no `tasks/*` method, with or without the
/// extension declared; a server with task tools does.
#[test]
fn a_server_without_task_tools_serves_no_tasks_methods() {
    const CALCULATOR: &str = env!("CARGO_BIN_EXE_calculator");
    let unknown = "0123456789abcdef0123456789abcdef";
    let mut with_tasks = Peer::spawn(CONFORMANCE);
    let mut without = Peer::spawn(CALCULATOR);
    for (id, method) in (1..).zip(["tasks/get", "tasks/cancel", "tasks/update"]) {
        let params = json!({ "taskId": unknown, "inputResponses": {} });
        let served = task_request(&mut with_tasks, id, method, params.clone());
        assert_eq!(
            served["error"]["message"], "task not found: unknown or expired task id",
            "{served}"
        );
        let refused = task_request(&mut without, id, method, params);
        assert_eq!(refused["error"]["code"], -32601, "{refused}");
        assert_eq!(
            refused["error"]["message"],
            format!("method `{method}` is not served by this server in protocol revision 2026-07-28")
        );
    }
}
