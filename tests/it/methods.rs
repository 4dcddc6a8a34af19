//! `#[tool]` on `&self` methods: tools built from an instance that owns what they share (a
//! pool, a cache), registered with `tools![instance => method, ...]`.

use mcp_toolkit::{Context, Json, Server, testing::ClientError, tool, tools};
use serde_json::json;
use std::sync::{Arc, Mutex};

/// A library that owns its shelf.
struct Library {
    name: String,
    shelf: Mutex<Vec<String>>,
}

impl Library {
    /// Put a book on the shelf; says how many there are now.
    #[tool]
    async fn add_book(
        &self,
        /// The book's title
        title: String,
    ) -> usize {
        let mut shelf = self.shelf.lock().unwrap();
        shelf.push(title);
        shelf.len()
    }

    /// List the books on the shelf.
    ///
    /// # Arguments
    /// * `limit` - At most this many
    #[tool(annotations(read_only))]
    fn list_books(&self, #[default(10)] limit: usize) -> Json<Vec<String>> {
        Json(self.shelf.lock().unwrap().iter().take(limit).cloned().collect())
    }

    /// Which library this is, and which protocol revision asked.
    #[tool(name = "library.about")]
    async fn about(&self, cx: Context) -> String {
        let revision = cx.protocol_version().map(|v| v.to_string()).unwrap_or_default();
        format!("{} ({revision})", self.name)
    }

    /// Not a tool: an ordinary method beside them.
    fn count(&self) -> usize {
        self.shelf.lock().unwrap().len()
    }
}

/// A free tool beside the methods.
#[tool]
fn ping() -> &'static str {
    "pong"
}

#[tokio::test]
async fn methods_are_tools_of_the_instance_they_were_built_from() -> Result<(), ClientError> {
    let library = Arc::new(Library {
        name: "City library".to_owned(),
        shelf: Mutex::new(Vec::new()),
    });
    let client = Server::new("library", "1.0.0")
        .tools(tools![library => add_book, list_books, about])
        .tools(tools![ping])
        .test_client()?;

    let names: Vec<String> = client
        .list_tools()
        .await?
        .iter()
        .map(|t| t.name().to_owned())
        .collect();
    assert_eq!(names, ["add_book", "list_books", "library.about", "ping"]);
    let tools = client.list_tools().await?;
    assert_eq!(
        tools[1].json()["inputSchema"],
        json!({
            "type": "object",
            "properties": { "limit": { "type": "integer", "minimum": 0, "description": "At most this many", "default": 10 } },
            "additionalProperties": false
        })
    );
    assert_eq!(tools[1].annotations().and_then(|a| a.read_only_hint), Some(true));
    assert_eq!(tools[1].json()["annotations"], json!({ "readOnlyHint": true }));

    for (title, count) in [("Dune", "1"), ("Emma", "2")] {
        let added = client.call("add_book", json!({ "title": title })).await?;
        assert_eq!(added.text(), Some(count));
    }
    let listed = client.call("list_books", json!({})).await?;
    assert_eq!(listed.structured::<Vec<String>>()?, ["Dune", "Emma"]);
    let about = client.call("library.about", json!({})).await?;
    assert_eq!(about.text(), Some("City library (2026-07-28)"));
    let wrong = client.call("add_book", json!({ "title": 7 })).await?;
    assert!(wrong.is_error());
    assert_eq!(
        wrong.text(),
        Some("argument `title`: expected a string, received the number 7")
    );

    // The server's calls changed the instance the program holds.
    assert_eq!(library.count(), 2);
    Ok(())
}
