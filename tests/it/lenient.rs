//! Lenient arguments (`Server::lenient_arguments`): an object or array argument sent as a
//! string of JSON is decoded when the server opts in, never otherwise, and a parameter that
//! takes a string always gets the string.

use mcp_toolkit::{Json, Server, testing::ClientError, testing::TestClient, tool, tools};
use serde_json::json;

#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
struct Filter {
    tag: String,
    limit: Option<u32>,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Seen {
    tag: String,
    limit: Option<u32>,
    ids: Vec<u32>,
    note: String,
}

/// Echoes what it was given.
#[tool]
async fn find(filter: Filter, ids: Vec<u32>, note: String) -> Json<Seen> {
    Json(Seen {
        tag: filter.tag,
        limit: filter.limit,
        ids,
        note,
    })
}

fn client(lenient: bool) -> Result<TestClient, mcp_toolkit::testing::ClientError> {
    Server::new("lenient", "1.0.0")
        .lenient_arguments(lenient)
        .tools(tools![find])
        .test_client()
}

#[tokio::test]
async fn json_text_is_decoded_where_an_object_or_array_goes_when_the_server_opts_in()
-> Result<(), ClientError> {
    let client = client(true)?;
    let result = client
        .call(
            "find",
            json!({"filter": "{\"tag\": \"rust\", \"limit\": 3}", "ids": " [1, 2]", "note": "{\"kept\": true}"}),
        )
        .await?;
    assert!(!result.is_error(), "{:?}", result.text());
    assert_eq!(
        result.structured_content(),
        Some(&json!({"tag": "rust", "limit": 3, "ids": [1, 2], "note": "{\"kept\": true}"}))
    );

    // Text that is not what the parameter takes is still reported as the string it is.
    let wrong = client
        .call(
            "find",
            json!({"filter": "{\"limit\": 3}", "ids": "[1]", "note": ""}),
        )
        .await?;
    assert!(wrong.is_error());
    assert_eq!(
        wrong.text(),
        Some(
            "argument `filter`: expected an object with the fields `tag`, `limit`, received the string \"{\\\"limit\\\": 3}\""
        )
    );
    Ok(())
}

#[tokio::test]
async fn json_text_is_refused_by_default() -> Result<(), ClientError> {
    let client = client(false)?;
    let result = client
        .call(
            "find",
            json!({"filter": "{\"tag\": \"rust\"}", "ids": [1], "note": ""}),
        )
        .await?;
    assert!(result.is_error());
    assert_eq!(
        result.text(),
        Some(
            "argument `filter`: expected an object with the fields `tag`, `limit`, received the string \"{\\\"tag\\\": \\\"rust\\\"}\""
        )
    );
    Ok(())
}
