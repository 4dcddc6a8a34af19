//! The codes of JSON-RPC error responses: JSON-RPC 2.0's own and those MCP adds, in one
//! table.

use std::fmt;

/// The `code` of a JSON-RPC error object.
///
/// The named constants are the codes the framework sends and reads, each documented with
/// what it means and the protocol revisions that use it. Any other integer a peer sends is an
/// `ErrorCode` too ([`ErrorCode::new`]), so a code read from the wire keeps its value.
///
/// | code | constant | revisions |
/// |---|---|---|
/// | -32700 | [`PARSE_ERROR`](ErrorCode::PARSE_ERROR) | JSON-RPC 2.0, every revision |
/// | -32600 | [`INVALID_REQUEST`](ErrorCode::INVALID_REQUEST) | JSON-RPC 2.0, every revision |
/// | -32601 | [`METHOD_NOT_FOUND`](ErrorCode::METHOD_NOT_FOUND) | JSON-RPC 2.0, every revision |
/// | -32602 | [`INVALID_PARAMS`](ErrorCode::INVALID_PARAMS) | JSON-RPC 2.0, every revision |
/// | -32603 | [`INTERNAL_ERROR`](ErrorCode::INTERNAL_ERROR) | JSON-RPC 2.0, every revision |
/// | -32000 | [`SERVER_BUSY`](ErrorCode::SERVER_BUSY) | this framework, every revision |
/// | -32002 | [`RESOURCE_NOT_FOUND`](ErrorCode::RESOURCE_NOT_FOUND) | 2024-11-05 to 2025-11-25 |
/// | -32020 | [`HEADER_MISMATCH`](ErrorCode::HEADER_MISMATCH) | 2026-07-28 |
/// | -32021 | [`MISSING_CAPABILITY`](ErrorCode::MISSING_CAPABILITY) | 2026-07-28 |
/// | -32022 | [`UNSUPPORTED_PROTOCOL_VERSION`](ErrorCode::UNSUPPORTED_PROTOCOL_VERSION) | 2026-07-28 |
/// | -32042 | [`URL_ELICITATION_REQUIRED`](ErrorCode::URL_ELICITATION_REQUIRED) | 2025-11-25 on |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ErrorCode(i64);

impl ErrorCode {
    /// `-32700`: the message is not valid JSON (JSON-RPC 2.0).
    pub const PARSE_ERROR: ErrorCode = ErrorCode(-32700);
    /// `-32600`: valid JSON that is not a valid request: a missing or wrong `jsonrpc`,
    /// `method` or `id`, `params` that are not an object, a request the session's state does
    /// not allow (JSON-RPC 2.0).
    pub const INVALID_REQUEST: ErrorCode = ErrorCode(-32600);
    /// `-32601`: no such method, or one of a capability the server did not declare
    /// (JSON-RPC 2.0). Also what a client answers a request it has no handler for.
    pub const METHOD_NOT_FOUND: ErrorCode = ErrorCode(-32601);
    /// `-32602`: the method's params are wrong: an unknown tool or prompt, arguments that do
    /// not decode (JSON-RPC 2.0). In revision 2026-07-28, also a resource that is not found.
    pub const INVALID_PARAMS: ErrorCode = ErrorCode(-32602);
    /// `-32603`: an error of the receiver's own (JSON-RPC 2.0).
    pub const INTERNAL_ERROR: ErrorCode = ErrorCode(-32603);
    /// `-32000`: a limit on what the server holds for its clients is reached (sessions,
    /// subscriptions, requests in flight); try again later. JSON-RPC leaves -32000 to -32099
    /// to implementations; this framework uses it so.
    pub const SERVER_BUSY: ErrorCode = ErrorCode(-32000);
    /// `-32002`: `resources/read` of a URI no resource has, with the URI in `data`
    /// (revisions 2024-11-05 to 2025-11-25; 2026-07-28 answers [`INVALID_PARAMS`], SEP-2164).
    ///
    /// [`INVALID_PARAMS`]: ErrorCode::INVALID_PARAMS
    pub const RESOURCE_NOT_FOUND: ErrorCode = ErrorCode(-32002);
    /// `-32020`: an HTTP header does not match the request body, or a required header is
    /// missing or malformed (HTTP status 400), revision 2026-07-28.
    pub const HEADER_MISMATCH: ErrorCode = ErrorCode(-32020);
    /// `-32021`: the request needs a client capability the client did not declare (HTTP
    /// status 400), revision 2026-07-28.
    pub const MISSING_CAPABILITY: ErrorCode = ErrorCode(-32021);
    /// `-32022`: the request's protocol revision is unknown or not supported (HTTP status
    /// 400); `data` lists the supported ones. Revision 2026-07-28.
    pub const UNSUPPORTED_PROTOCOL_VERSION: ErrorCode = ErrorCode(-32022);
    /// `-32042`: the request needs the user to visit a URL first; `data.elicitations` holds
    /// the URL elicitations to show. From revision 2025-11-25 on.
    pub const URL_ELICITATION_REQUIRED: ErrorCode = ErrorCode(-32042);

    /// The code `code`, named or not.
    pub const fn new(code: i64) -> ErrorCode {
        ErrorCode(code)
    }

    /// The code as a number, as it is written on the wire.
    pub const fn get(self) -> i64 {
        self.0
    }
}

impl fmt::Display for ErrorCode {
    /// The number, as JSON writes it: `-32602`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl From<i64> for ErrorCode {
    fn from(code: i64) -> ErrorCode {
        ErrorCode(code)
    }
}

impl From<ErrorCode> for i64 {
    fn from(code: ErrorCode) -> i64 {
        code.0
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn the_named_codes_are_the_specifications() {
        for (code, number) in [
            (ErrorCode::PARSE_ERROR, -32700),
            (ErrorCode::INVALID_REQUEST, -32600),
            (ErrorCode::METHOD_NOT_FOUND, -32601),
            (ErrorCode::INVALID_PARAMS, -32602),
            (ErrorCode::INTERNAL_ERROR, -32603),
            (ErrorCode::SERVER_BUSY, -32000),
            (ErrorCode::RESOURCE_NOT_FOUND, -32002),
            (ErrorCode::HEADER_MISMATCH, -32020),
            (ErrorCode::MISSING_CAPABILITY, -32021),
            (ErrorCode::UNSUPPORTED_PROTOCOL_VERSION, -32022),
            (ErrorCode::URL_ELICITATION_REQUIRED, -32042),
        ] {
            assert_eq!(code.get(), number);
            assert_eq!(code.to_string(), number.to_string());
            assert_eq!(ErrorCode::from(number), code);
        }
    }

    #[test]
    fn a_named_code_is_a_pattern() {
        let named = |code: i64| match ErrorCode::new(code) {
            ErrorCode::METHOD_NOT_FOUND => "method not found",
            ErrorCode::INVALID_PARAMS => "invalid params",
            _ => "other",
        };
        assert_eq!(named(-32601), "method not found");
        assert_eq!(named(-32602), "invalid params");
        assert_eq!(named(7), "other");
    }
}
