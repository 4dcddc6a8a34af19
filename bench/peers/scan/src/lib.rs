//! What the echo floors read of a JSON-RPC message, by a byte scan and no JSON parser:
//! the `id` (as its bytes, to echo) and the `method`, and the canned answer of the right
//! shape for each method the load generator sends. Nothing can answer faster than this on
//! the same pipe or socket; it is not a server (it checks nothing).

/// The bytes of the member `name`'s value: a string with its quotes, or a number, `null`,
/// `true`, `false`. Objects and arrays are not read (an `id` or a `method` is neither).
pub fn member<'a>(message: &'a [u8], name: &str) -> Option<&'a [u8]> {
    let key = format!("\"{name}\"");
    let at = find(message, key.as_bytes())? + key.len();
    let rest = &message[at..];
    let colon = rest.iter().position(|&b| b == b':')?;
    let rest = &rest[colon + 1..];
    let start = rest.iter().position(|b| !b.is_ascii_whitespace())?;
    let rest = &rest[start..];
    if rest.first() == Some(&b'"') {
        let mut escaped = false;
        for (i, &b) in rest.iter().enumerate().skip(1) {
            match b {
                b'\\' if !escaped => escaped = true,
                b'"' if !escaped => return Some(&rest[..=i]),
                _ => escaped = false,
            }
        }
        return None;
    }
    let end = rest
        .iter()
        .position(|&b| b == b',' || b == b'}' || b.is_ascii_whitespace())
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The canned answer to a request (`None` for a notification), written into `out`.
pub fn answer(message: &[u8], out: &mut Vec<u8>) -> bool {
    let Some(id) = member(message, "id") else {
        return false;
    };
    let result: &[u8] = match member(message, "method") {
        Some(b"\"initialize\"") => {
            br#"{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"echo-floor","version":"0.1.0"}}"#
        }
        Some(b"\"tools/list\"") => br#"{"tools":[{"name":"calculator","inputSchema":{"type":"object"}}]}"#,
        Some(b"\"tools/call\"") => br#"{"content":[{"type":"text","text":"3"}]}"#,
        _ => b"{}",
    };
    out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    out.extend_from_slice(id);
    out.extend_from_slice(br#","result":"#);
    out.extend_from_slice(result);
    out.push(b'}');
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_ids_and_methods_and_echoes_the_id_as_sent() {
        let call = br#"{"jsonrpc":"2.0","id":"a\"b","method":"tools/call","params":{"name":"x","arguments":{"id":7}}}"#;
        assert_eq!(member(call, "id"), Some(&br#""a\"b""#[..]));
        assert_eq!(member(call, "method"), Some(&br#""tools/call""#[..]));
        let mut out = Vec::new();
        assert!(answer(call, &mut out));
        assert_eq!(
            out,
            br#"{"jsonrpc":"2.0","id":"a\"b","result":{"content":[{"type":"text","text":"3"}]}}"#
        );
        let numbered = br#"{"jsonrpc":"2.0", "id" : 12 ,"method":"ping"}"#;
        assert_eq!(member(numbered, "id"), Some(&b"12"[..]));
        out.clear();
        assert!(!answer(
            br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            &mut out
        ));
        assert!(out.is_empty());
    }
}
