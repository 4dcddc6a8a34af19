//! `roots/list`: the directories and files the client lets the server work on.

use super::{answer_as, read};
use crate::context::Context;
use crate::error::{AskError, ClientCapability};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::future::{Future, IntoFuture};
use std::pin::Pin;

/// A root the client shares: a directory or file the server may work on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Root {
    /// The root's URI, `file://` for now.
    pub uri: String,
    /// A name for people, when the client gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The root's `_meta`, when the client sent one.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl Root {
    /// The local path of a `file://` root (`file:///home/ada/src` is `/home/ada/src`), with
    /// percent-escapes decoded; `None` for other schemes, or a file URI naming another host.
    ///
    /// ```
    /// use mcp_tools::Root;
    ///
    /// let root = Root { uri: "file:///home/ada/my%20src".into(), name: None, meta: None };
    /// assert_eq!(root.path(), Some(std::path::PathBuf::from("/home/ada/my src")));
    /// let web = Root { uri: "https://example.com/".into(), name: None, meta: None };
    /// assert_eq!(web.path(), None);
    /// ```
    pub fn path(&self) -> Option<std::path::PathBuf> {
        let rest = self.uri.strip_prefix("file://")?;
        let path = rest.strip_prefix("localhost").unwrap_or(rest);
        if !path.starts_with('/') {
            return None;
        }
        let bytes = path.as_bytes();
        let mut decoded = Vec::with_capacity(bytes.len());
        let mut at = 0;
        while at < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if bytes[at] == b'%'
                && let (Some(&h), Some(&l)) = (bytes.get(at + 1), bytes.get(at + 2))
                && let (Some(h), Some(l)) = (hex(h), hex(l))
            {
                decoded.push((h * 16 + l) as u8);
                at += 3;
            } else {
                decoded.push(bytes[at]);
                at += 1;
            }
        }
        String::from_utf8(decoded).ok().map(std::path::PathBuf::from)
    }
}

/// The result of `roots/list`.
#[derive(Deserialize)]
struct ListRootsResult {
    roots: Vec<Root>,
}

/// Whether an answer is a `ListRootsResult`: roots, each with a `uri` string, and a `name`
/// string and a `_meta` object when it has them.
fn check(answer: &Value) -> Result<(), String> {
    read::<ListRootsResult>(answer).map(drop)
}

/// An ask for the client's roots, made by [`Context::list_roots`]; `.await` it.
#[must_use = "an ask does nothing until it is awaited"]
pub struct ListRoots<'a> {
    cx: &'a Context,
    key: Option<String>,
}

impl ListRoots<'_> {
    /// The key of this ask among the call's input requests in revision 2026-07-28
    /// (`roots_1`, `roots_2`, ... in the order asked, by default). Keys must differ within
    /// a call.
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl<'a> IntoFuture for ListRoots<'a> {
    type Output = Result<Vec<Root>, AskError>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let answer = (self.cx)
                .ask(
                    &[ClientCapability::Roots],
                    "roots/list",
                    json!({}),
                    self.key.as_deref(),
                    check,
                )
                .await?;
            Ok(answer_as::<ListRootsResult>("roots/list", &answer)?.roots)
        })
    }
}

impl Context {
    /// Asks the client for its roots: the directories and files it lets the server work
    /// on. Needs the client's `roots` capability; see [the asks](crate::ask) for how this
    /// works in each protocol era.
    ///
    /// ```
    /// use mcp_tools::{tool, tools, Context, Server, ToolError};
    /// use serde_json::json;
    ///
    /// /// Names the folders it may search.
    /// #[tool]
    /// async fn search_scope(cx: Context) -> Result<String, ToolError> {
    ///     let roots = cx.list_roots().await?;
    ///     let names: Vec<String> = roots.iter().map(|r| r.name.clone().unwrap_or(r.uri.clone())).collect();
    ///     Ok(names.join(", "))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_tools::ClientError> {
    /// let client = Server::new("search", "1.0.0")
    ///     .tools(tools![search_scope])
    ///     .test_client()?
    ///     .with_roots([("file:///home/ada/src", "src"), ("file:///home/ada/notes", "notes")]);
    /// assert_eq!(client.call("search_scope", json!({})).await?.text(), Some("src, notes"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn list_roots(&self) -> ListRoots<'_> {
        ListRoots { cx: self, key: None }
    }
}
