//! A server on loopback HTTP that tells two callers apart by their bearer tokens, for the
//! tests that check what one caller makes is the other's to neither see nor touch.

use mcp_toolkit::Server;
use mcp_toolkit::auth::Principal;
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// `ada-token` is the principal `ada`, `bob-token` the principal `bob`; any other token is
/// refused.
pub struct TwoCallers {
    url: String,
    stop: oneshot::Sender<()>,
    serving: JoinHandle<Result<(), mcp_toolkit::Error>>,
}

impl TwoCallers {
    /// Serves `server` on `127.0.0.1:0` with the two callers' tokens.
    pub async fn serve(server: Server) -> TwoCallers {
        let http = server
            .bearer_auth(|token| async move {
                match token.as_str() {
                    "ada-token" => Some(Principal::new("ada")),
                    "bob-token" => Some(Principal::new("bob")),
                    _ => None,
                }
            })
            .bind_http("127.0.0.1:0")
            .await
            .unwrap();
        let url = format!("http://{}/mcp", http.local_addr());
        let (stop, stopped) = oneshot::channel::<()>();
        let serving = tokio::spawn(http.run_until(async {
            stopped.await.ok();
        }));
        TwoCallers { url, stop, serving }
    }

    /// A 2026-07-28 request with `token`, `meta` as its `_meta`, and the `Mcp-Name` header
    /// its `name`, `uri` or `taskId` asks for: the JSON-RPC answer.
    pub async fn post(&self, token: &str, id: u64, method: &str, mut params: Value, meta: Value) -> Value {
        params["_meta"] = meta;
        let name = ["name", "uri", "taskId"]
            .iter()
            .find_map(|key| params.get(key).and_then(Value::as_str))
            .map(str::to_owned);
        let mut request = reqwest::Client::new()
            .post(&self.url)
            .bearer_auth(token)
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", method);
        if let Some(name) = name {
            request = request.header("Mcp-Name", name);
        }
        let body = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        let text = request.json(&body).send().await.unwrap().text().await.unwrap();
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"))
    }

    /// Stops the server and waits until it has.
    pub async fn stop(self) {
        self.stop.send(()).ok();
        self.serving.await.unwrap().unwrap();
    }
}
