//! An authorization server and an MCP server with OAuth, on loopback, for the official
//! clients' interop lane (tests/interop/run.sh): prints one JSON line with the endpoint's URL,
//! the issuer, two access tokens, `reader` (scope `notes:read`) and `writer` (`notes:read
//! notes:write`), and the credentials of a client that may get tokens itself (client
//! credentials grant), then serves until killed. Tools: `whoami` (any token) and
//! `delete_note` (scope `notes:write`).

// Public, so that what only the tests use of it (key rotation, counters, opaque tokens) is
// not dead code here: the test binary, where it is private, checks that all of it is used.
pub mod oauth_as;

use mcp_toolkit::oauth::ResourceServer;
use mcp_toolkit::{Server, tools};
use oauth_as::tools::{delete_note, whoami};
use oauth_as::{AuthServer, SigningKey, TOKEN_CLIENT_ID, TOKEN_CLIENT_SECRET};

const KEY: SigningKey = SigningKey::new("fixture-key", 7);

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), mcp_toolkit::Error> {
    mcp_toolkit::log_to_stderr();
    let auth = AuthServer::start(&[KEY]).await;
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    let addr = listener.local_addr()?;
    drop(listener);
    let url = format!("http://{addr}/mcp");
    let resource = ResourceServer::new(&url)
        .authorization_server(&auth.issuer)
        .scopes_supported(["notes:read"]);
    let http = Server::new("oauth-fixture", "1.0.0")
        .tools(tools![whoami, delete_note])
        .oauth(resource)
        .bind_http(addr)
        .await?;
    let reader = auth.mint(&KEY, &auth.claims(&url, "ada", "notes:read"));
    let writer = auth.mint(&KEY, &auth.claims(&url, "bob", "notes:read notes:write"));
    println!(
        "{}",
        serde_json::json!({ "url": url, "issuer": auth.issuer, "reader": reader, "writer": writer, "client_id": TOKEN_CLIENT_ID, "client_secret": TOKEN_CLIENT_SECRET })
    );
    http.run().await
}
