//! What the client reads of every message it receives, whatever carried it: below the
//! transports and the client, which all sort messages by it.

use serde_json::Value;

/// The members of a JSON-RPC message the client sorts it by, found in one pass over its
/// object: no key is hashed, as a lookup in the map would each time.
#[derive(Default, Clone, Copy)]
pub(super) struct Members<'a> {
    pub(super) jsonrpc: Option<&'a Value>,
    pub(super) id: Option<&'a Value>,
    pub(super) method: Option<&'a str>,
    pub(super) params: Option<&'a Value>,
    pub(super) result: Option<&'a Value>,
    pub(super) error: Option<&'a Value>,
}

impl<'a> Members<'a> {
    pub(super) fn of(message: &'a Value) -> Members<'a> {
        let mut members = Members::default();
        if let Value::Object(object) = message {
            for (key, value) in object {
                match key.as_str() {
                    "jsonrpc" => members.jsonrpc = Some(value),
                    "id" => members.id = Some(value),
                    "method" => members.method = value.as_str(),
                    "params" => members.params = Some(value),
                    "result" => members.result = Some(value),
                    "error" => members.error = Some(value),
                    _ => {}
                }
            }
        }
        members
    }
}
