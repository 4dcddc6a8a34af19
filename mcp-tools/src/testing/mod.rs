//! Testing a server without a transport: [`Server::test_client`] gives a [`Client`]
//! (the crate's one client, [`crate::client`]) that talks to the server inside the test
//! process, through the same engine every transport drives.
//!
//! No feature gates it: it brings no dependency the engine does not have, and a binary
//! that never calls `test_client` links none of it.
//!
//! Every request is encoded as JSON-RPC, handed to the engine with the client's connection
//! and an outbox of its own (as HTTP gives each request its own stream), and whatever the
//! engine answers is decoded from the bytes it wrote: notifications sent while the request
//! ran, then the response. The names this module had before the client grew transports
//! ([`TestClient`], [`ClientError`] and the typed results) stay, as the same types.

pub use crate::client::{
    CallResponse, Client, ClientError, Completion, ListedPrompt, ListedResource, ListedResourceTemplate,
    ListedTool, PromptResponse, ReadResponse,
};

use crate::protocol::ProtocolVersion;
use crate::server::builder::Server;

/// The in-process client, by the name it had before it grew transports: the same type as
/// [`Client`].
pub type TestClient = Client;

impl Server {
    /// A client for tests that speaks protocol revision 2026-07-28 to this server in
    /// process: no transport, no spawned binary, but every message goes through the real
    /// engine as JSON, so results look exactly as a client would receive them.
    ///
    /// Fails as serving would ([`ClientError::Server`]): a tool that needs state the server
    /// was not given, or two tools with one name. Both test clients fail with the one
    /// [`ClientError`].
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server};
    /// use serde_json::json;
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("calc", "1.0.0").tools(tools![add]).test_client()?;
    /// let result = client.call("add", json!({"a": 2, "b": 3})).await?;
    /// assert_eq!(result.text(), Some("5"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn test_client(self) -> Result<TestClient, ClientError> {
        Ok(Client::in_process(
            self.into_engine()?,
            ProtocolVersion::V2026_07_28,
        ))
    }

    /// A client for tests that opens a legacy session with this server in process: it sends
    /// `initialize` asking for `version` (2024-11-05 to 2025-11-25), then
    /// `notifications/initialized`, and serves every later request in that session.
    ///
    /// Fails when the server cannot serve (see [`Server::test_client`]), or offers another
    /// revision than the one asked for ([`ClientError::Negotiation`]; asking for 2026-07-28,
    /// which has no handshake, is answered that way).
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Server, protocol::ProtocolVersion};
    /// use serde_json::json;
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let server = Server::new("calc", "1.0.0").tools(tools![add]);
    /// let client = server.test_client_legacy(ProtocolVersion::V2025_06_18).await?;
    /// assert_eq!(client.protocol_version(), ProtocolVersion::V2025_06_18);
    /// assert_eq!(client.call("add", json!({"a": 2, "b": 3})).await?.text(), Some("5"));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn test_client_legacy(self, version: ProtocolVersion) -> Result<TestClient, ClientError> {
        let client = Client::in_process(self.into_engine()?, version);
        client.initialize().await?;
        Ok(client)
    }
}
