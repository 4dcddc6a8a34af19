//! Tool arguments mirrored into headers (revision 2026-07-28, `x-mcp-header`): the
//! conformance example's `forecast` sends `region` as `Mcp-Param-Region` and `days` as
//! `Mcp-Param-Days`. Real requests to the example binary over HTTP: each rule of the check,
//! its exact JSON error, and the server serving on afterwards.

use crate::support::{HttpProcess, Spec, modern_meta};
use reqwest::StatusCode;
use serde_json::{Value, json};

const CONFORMANCE: &str = env!("CARGO_BIN_EXE_conformance");
const MODERN: &str = "2026-07-28";

/// A `tools/call` of `forecast` with `arguments`, its standard headers and `extra`; the
/// status and the answer.
async fn call(url: &str, arguments: Value, extra: &[(&str, &str)]) -> (StatusCode, Value) {
    let mut request = reqwest::Client::builder()
        .no_proxy()
        .build()
        .unwrap()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", MODERN)
        .header("mcp-method", "tools/call");
    if !extra
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("mcp-name"))
    {
        request = request.header("mcp-name", "forecast");
    }
    for (name, value) in extra {
        request = request.header(*name, *value);
    }
    let body = json!({
        "jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": { "_meta": modern_meta(json!({})), "name": "forecast", "arguments": arguments }
    });
    let response = request.json(&body).send().await.unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}")),
    )
}

/// A case: the arguments, the headers besides the standard ones, and what is expected.
type Case<'a> = (Value, Vec<(&'a str, &'a str)>, &'a str);

fn answered(text: &str) -> Value {
    json!({
        "jsonrpc": "2.0", "id": 7,
        "result": {
            "resultType": "complete",
            "content": [{ "type": "text", "text": text }],
            "_meta": { "io.modelcontextprotocol/serverInfo": { "name": "mcp-toolkit-conformance", "version": env!("CARGO_PKG_VERSION") } }
        }
    })
}

fn mismatch(message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": 7, "error": { "code": -32020, "message": message } })
}

#[tokio::test]
async fn the_tool_list_carries_the_annotations() {
    let server = HttpProcess::spawn(CONFORMANCE);
    let response = reqwest::Client::builder()
        .no_proxy()
        .build()
        .unwrap()
        .post(&server.url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", MODERN)
        .header("mcp-method", "tools/list")
        .json(&json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": { "_meta": modern_meta(json!({})) } }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let list: Value = response.json().await.unwrap();
    Spec::of(MODERN).assert_valid("ListToolsResultResponse", &list);
    let tools = list["result"]["tools"].as_array().unwrap();
    let forecast = tools.iter().find(|tool| tool["name"] == "forecast").unwrap();
    assert_eq!(
        forecast["inputSchema"],
        json!({
            "type": "object",
            "properties": {
                "region": { "type": "string", "x-mcp-header": "Region", "description": "The region, also sent as the `Mcp-Param-Region` header" },
                "city": { "type": "string" },
                "days": { "type": "integer", "minimum": 0, "maximum": 255, "x-mcp-header": "Days", "description": "How many days ahead, also sent as the `Mcp-Param-Days` header" }
            },
            "required": ["region", "city"],
            "additionalProperties": false
        })
    );
    // No other tool of the example mirrors an argument.
    let annotated = tools
        .iter()
        .filter(|tool| tool["inputSchema"].to_string().contains("x-mcp-header"))
        .count();
    assert_eq!(annotated, 1);
}

#[tokio::test]
async fn param_headers_must_repeat_the_arguments() {
    let server = HttpProcess::spawn(CONFORMANCE);
    let url = &server.url;
    let eu = json!({ "region": "eu-west", "city": "Paris" });
    let spec = Spec::of(MODERN);

    // Accepted: the header as sent, its name in any case, whitespace around its value,
    // Base64 for what plain ASCII cannot say, an integer as a number.
    let accepted: [Case<'_>; 8] = [
        (
            eu.clone(),
            vec![("Mcp-Param-Region", "eu-west")],
            "Paris (eu-west): sunny",
        ),
        (
            eu.clone(),
            vec![("MCP-PARAM-REGION", "eu-west")],
            "Paris (eu-west): sunny",
        ),
        (
            eu.clone(),
            vec![("mcp-param-region", " \t eu-west \t ")],
            "Paris (eu-west): sunny",
        ),
        (
            eu.clone(),
            vec![("Mcp-Param-Region", "=?base64?ZXUtd2VzdA==?=")],
            "Paris (eu-west): sunny",
        ),
        (
            json!({ "region": "Zürich Süd", "city": "Zürich" }),
            vec![("Mcp-Param-Region", "=?base64?WsO8cmljaCBTw7xk?=")],
            "Zürich (Zürich Süd): sunny",
        ),
        (
            json!({ "region": "=?base64?ZXU", "city": "Paris" }),
            vec![("Mcp-Param-Region", "=?base64?ZXU")],
            "Paris (=?base64?ZXU): sunny",
        ),
        (
            json!({ "region": "eu-west", "city": "Paris", "days": 3 }),
            vec![("Mcp-Param-Region", "eu-west"), ("Mcp-Param-Days", "03")],
            "Paris (eu-west), in 3 days: sunny",
        ),
        // No value, no header: `days` is absent or null.
        (
            json!({ "region": "eu-west", "city": "Paris", "days": null }),
            vec![("Mcp-Param-Region", "eu-west")],
            "Paris (eu-west): sunny",
        ),
    ];
    for (arguments, headers, text) in accepted {
        let (status, answer) = call(url, arguments, &headers).await;
        assert_eq!(
            (status, &answer),
            (StatusCode::OK, &answered(text)),
            "{headers:?}"
        );
        spec.assert_valid("CallToolResultResponse", &answer);
    }

    let refused: [Case<'_>; 11] = [
        (
            eu.clone(),
            vec![],
            "Header mismatch: the Mcp-Param-Region header is required and must be 'eu-west'",
        ),
        (
            eu.clone(),
            vec![("Mcp-Param-Region", "us-east")],
            "Header mismatch: Mcp-Param-Region header value 'us-east' does not match body value 'eu-west'",
        ),
        (
            eu.clone(),
            vec![("Mcp-Param-Region", "EU-WEST")],
            "Header mismatch: Mcp-Param-Region header value 'EU-WEST' does not match body value 'eu-west'",
        ),
        (
            json!({ "region": "Hello", "city": "Paris" }),
            vec![("Mcp-Param-Region", "=?base64?SGVsbG8?=")],
            "Header mismatch: the Mcp-Param-Region header value '=?base64?SGVsbG8?=' is marked `=?base64?...?=` but is not standard Base64 with its `=` padding",
        ),
        (
            json!({ "region": "Hello", "city": "Paris" }),
            vec![("Mcp-Param-Region", "=?base64?SGVs!!!bG8=?=")],
            "Header mismatch: the Mcp-Param-Region header value '=?base64?SGVs!!!bG8=?=' is marked `=?base64?...?=` but is not standard Base64 with its `=` padding",
        ),
        (
            json!({ "region": "SGVsbG8=", "city": "Paris" }),
            vec![("Mcp-Param-Region", "=?base64?SGVsbG8=?=")],
            "Header mismatch: Mcp-Param-Region header value '=?base64?SGVsbG8=?=' does not match body value 'SGVsbG8='",
        ),
        (
            json!({ "region": "eu-west", "city": "Paris", "days": 3 }),
            vec![("Mcp-Param-Region", "eu-west")],
            "Header mismatch: the Mcp-Param-Days header is required and must be '3'",
        ),
        (
            json!({ "region": "eu-west", "city": "Paris", "days": 3 }),
            vec![("Mcp-Param-Region", "eu-west"), ("Mcp-Param-Days", "3.0")],
            "Header mismatch: Mcp-Param-Days header value '3.0' does not match body value '3'",
        ),
        (
            json!({ "city": "Paris" }),
            vec![("Mcp-Param-Region", "eu-west")],
            "Header mismatch: the Mcp-Param-Region header is sent, but the body has no value for the argument `region` that it repeats",
        ),
        (
            json!({ "region": { "name": "eu-west" }, "city": "Paris" }),
            vec![("Mcp-Param-Region", "eu-west")],
            "Header mismatch: the argument `region` is an object, which no header carries; Mcp-Param-Region repeats a string, an integer or a boolean",
        ),
        (
            json!({ "region": "eu-west", "city": "Paris", "days": 9007199254740992_i64 }),
            vec![
                ("Mcp-Param-Region", "eu-west"),
                ("Mcp-Param-Days", "9007199254740992"),
            ],
            "Header mismatch: the argument `days` is 9007199254740992, outside the integers a header carries (-9007199254740991 to 9007199254740991)",
        ),
    ];
    for (arguments, headers, message) in refused {
        let (status, answer) = call(url, arguments, &headers).await;
        assert_eq!(
            (status, &answer),
            (StatusCode::BAD_REQUEST, &mismatch(message)),
            "{headers:?}"
        );
        spec.assert_valid("HeaderMismatchError", &answer);
    }

    // Sent twice, even with one value: refused.
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let twice = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", MODERN)
        .header("mcp-method", "tools/call")
        .header("mcp-name", "forecast")
        .header("mcp-param-region", "eu-west")
        .header("mcp-param-region", "eu-west")
        .json(&json!({
            "jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": { "_meta": modern_meta(json!({})), "name": "forecast", "arguments": eu }
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(twice.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        twice.json::<Value>().await.unwrap(),
        mismatch("Header mismatch: the Mcp-Param-Region header is sent more than once; send it once")
    );

    // The server serves on.
    let (status, answer) = call(url, eu, &[("Mcp-Param-Region", "eu-west")]).await;
    assert_eq!(
        (status, answer),
        (StatusCode::OK, answered("Paris (eu-west): sunny"))
    );
}

#[tokio::test]
async fn mcp_name_is_read_as_param_headers_are() {
    let server = HttpProcess::spawn(CONFORMANCE);
    let eu = json!({ "region": "eu-west", "city": "Paris" });
    // `forecast` in Base64, and with whitespace around it.
    for name in ["=?base64?Zm9yZWNhc3Q=?=", "  forecast\t"] {
        let (status, answer) = call(
            &server.url,
            eu.clone(),
            &[("Mcp-Name", name), ("Mcp-Param-Region", "eu-west")],
        )
        .await;
        assert_eq!(
            (status, answer),
            (StatusCode::OK, answered("Paris (eu-west): sunny")),
            "{name:?}"
        );
    }
    let (status, answer) = call(
        &server.url,
        eu,
        &[
            ("Mcp-Name", "=?base64?Zm9yZWNhc3Q?="),
            ("Mcp-Param-Region", "eu-west"),
        ],
    )
    .await;
    assert_eq!(
        (status, answer),
        (
            StatusCode::BAD_REQUEST,
            mismatch(
                "Header mismatch: the Mcp-Name header value '=?base64?Zm9yZWNhc3Q?=' is marked `=?base64?...?=` but is not standard Base64 with its `=` padding"
            )
        )
    );
}

/// `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` sent twice, the right value first:
/// refused with 400, as a doubled `Mcp-Param-*` is, for the server cannot tell which of
/// the values an intermediary read. In a session of an earlier revision too.
#[tokio::test]
async fn a_standard_header_sent_twice_is_refused() {
    let server = HttpProcess::spawn(CONFORMANCE);
    let url = &server.url;
    let spec = Spec::of(MODERN);
    let eu = json!({ "region": "eu-west", "city": "Paris" });
    let region = ("Mcp-Param-Region", "eu-west");
    let doubled: [(&str, Vec<(&str, &str)>); 3] = [
        (
            "Mcp-Name",
            vec![("Mcp-Name", "forecast"), ("Mcp-Name", "other"), region],
        ),
        ("Mcp-Method", vec![("Mcp-Method", "tools/list"), region]),
        (
            "MCP-Protocol-Version",
            vec![("MCP-Protocol-Version", "2025-11-25"), region],
        ),
    ];
    for (label, headers) in doubled {
        let (status, answer) = call(url, eu.clone(), &headers).await;
        let expected = format!("Header mismatch: the {label} header is sent more than once; send it once");
        assert_eq!(
            (status, &answer),
            (StatusCode::BAD_REQUEST, &mismatch(&expected)),
            "{label}"
        );
        spec.assert_valid("HeaderMismatchError", &answer);
    }
    // The same value twice is refused too: one header, one value.
    let (status, answer) = call(
        url,
        eu.clone(),
        &[("Mcp-Name", "forecast"), ("Mcp-Name", "forecast"), region],
    )
    .await;
    assert_eq!(
        (status, answer),
        (
            StatusCode::BAD_REQUEST,
            mismatch("Header mismatch: the Mcp-Name header is sent more than once; send it once")
        )
    );

    // A session's request naming its revision twice.
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let post = || {
        client
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
    };
    let initialized = post()
        .json(&json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": { "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } }
        }))
        .send()
        .await
        .unwrap();
    let session = initialized.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let listed = |versions: &'static [&'static str]| {
        let mut request = post().header("mcp-session-id", &session);
        for version in versions {
            request = request.header("mcp-protocol-version", *version);
        }
        request
            .json(&json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }))
            .send()
    };
    let twice = listed(&["2025-11-25", "2025-06-18"]).await.unwrap();
    assert_eq!(twice.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        twice.json::<Value>().await.unwrap(),
        json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": -32600, "message": "the MCP-Protocol-Version header is sent more than once; send it once" } })
    );

    // The server serves on, in both.
    let once = listed(&["2025-11-25"]).await.unwrap();
    assert_eq!(once.status(), StatusCode::OK);
    let (status, answer) = call(url, eu, &[region]).await;
    assert_eq!(
        (status, answer),
        (StatusCode::OK, answered("Paris (eu-west): sunny"))
    );
}

/// Sessions of earlier revisions define no `Mcp-Param-*` headers: their calls are not
/// checked, and their tool lists carry the annotations as schema keywords.
#[tokio::test]
async fn legacy_sessions_are_not_checked() {
    let server = HttpProcess::spawn(CONFORMANCE);
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let post = || {
        client
            .post(&server.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
    };
    let initialized = post()
        .json(&json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": { "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } }
        }))
        .send()
        .await
        .unwrap();
    let session = initialized.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let session_post = || {
        post()
            .header("mcp-session-id", &session)
            .header("mcp-protocol-version", "2025-11-25")
    };
    let notified = session_post()
        .json(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
        .send()
        .await
        .unwrap();
    assert_eq!(notified.status(), StatusCode::ACCEPTED);
    let answer: Value = session_post()
        .header("mcp-param-region", "somewhere else")
        .json(&json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": { "name": "forecast", "arguments": { "region": "eu-west", "city": "Paris" } }
        }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        answer,
        json!({ "jsonrpc": "2.0", "id": 1, "result": { "content": [{ "type": "text", "text": "Paris (eu-west): sunny" }] } })
    );
}

/// A tool whose annotations a client would have to reject is never served: refused when it
/// is built from data, when it is added while serving, and when a server starts with it.
#[test]
fn a_tool_breaking_a_header_rule_is_never_served() {
    use mcp_toolkit::registry::{DefinitionError, HeaderError, HeaderNameError};
    use mcp_toolkit::{Error, Server, Tool, testing::ClientError};

    let schema = json!({
        "type": "object",
        "properties": {
            "from": { "type": "string", "x-mcp-header": "Region" },
            "to": { "type": "string", "x-mcp-header": "REGION" }
        }
    });
    let refused = Tool::from_json("copy", "Copies.", schema, |_, _| async { "" }).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "tool `copy` cannot be offered: properties `from` and `to` are both sent as the header `Mcp-Param-REGION` (header names are compared ignoring case); give each its own name"
    );

    let plain = json!({ "type": "object", "properties": { "region": { "type": "string" } } });
    let plain = Tool::from_json("deploy", "Deploys.", plain, |_, _| async { "" }).unwrap();
    assert_eq!(
        plain.clone().with_header("region", "Cloud Region").unwrap_err(),
        DefinitionError::InvalidHeader {
            tool: "deploy".into(),
            error: HeaderError::Name {
                property: "region".into(),
                error: HeaderNameError::Characters {
                    name: "Cloud Region".into(),
                    characters: vec![' ']
                },
            },
        }
    );

    // Generated code's builder, given a name the macro would have refused: the server
    // refuses to start with the tool, and the registry to add it.
    let unchecked = || {
        mcp_toolkit::__private::ToolBuilder::new("deploy", "Deploys.")
            .param(
                "region",
                None,
                mcp_toolkit::tool::FromArgument::parameter({
                    use mcp_toolkit::__private::RequiredProbe as _;
                    mcp_toolkit::__private::Slot::<String>::new().__mcp_plan()
                }),
            )
            .header("Region:")
            .build(|_, _| mcp_toolkit::__private::Invocation::Ready(mcp_toolkit::CallToolResult::text("")))
    };
    let expected = "tool `deploy` cannot be offered: the `x-mcp-header` of property `region`: header name `Region:` contains the character `:`; a header name is an HTTP token of ASCII letters, digits and ``!#$%&'*+-.^_`|~``";
    let mut server = Server::new("s", "1.0.0").tools([unchecked()]);
    let registry = server.tool_registry();
    match server.test_client() {
        Err(ClientError::Server(Error::Definition(problem))) => assert_eq!(problem.to_string(), expected),
        other => panic!("expected the tool to be refused, got {other:?}"),
    }
    assert_eq!(
        registry.add(plain).map_err(|e| e.to_string()),
        Err("duplicate tool name `deploy`: every tool of a server needs its own name".into())
    );
    let fresh = Server::new("s", "1.0.0").tool_registry();
    assert_eq!(fresh.add(unchecked()).unwrap_err().to_string(), expected);
    assert!(fresh.tools().is_empty());
}
