//! The `id` of a message too long to keep, found as its bytes stream past: a refusal can
//! then answer the request it refuses, so the client waiting on that id hears why instead
//! of timing out.
//!
//! [`IdScan`] is a byte-at-a-time state machine over JSON text that remembers nothing but
//! its nesting depth and, while it reads a member name or the value of `id` at the top
//! level, a few bytes of it. It never holds the message.

/// The longest `id` value kept, in bytes of its JSON text; a longer one is not reported.
const MAX_ID: usize = 256;

/// Finds the top-level `"id"` member of a JSON object fed to it in pieces.
#[derive(Debug, Default)]
pub(crate) struct IdScan {
    /// Objects and arrays open around the current byte.
    depth: usize,
    /// Inside a string, and just after a backslash in it.
    in_string: bool,
    escaped: bool,
    /// What comes next in the top-level object.
    expect: Expect,
    /// The top-level member name being read (only whether it is `id` matters).
    name: Vec<u8>,
    /// The top-level member's name was `id`.
    named_id: bool,
    /// The `id` value being read, then found.
    value: Vec<u8>,
    found: Option<Vec<u8>>,
    /// The text cannot be a JSON-RPC message (or its `id` is too long): stop looking.
    gave_up: bool,
}

#[derive(Debug, Default, PartialEq, Clone, Copy)]
enum Expect {
    /// Before the opening `{`.
    #[default]
    Start,
    /// A member name (or the closing `}`).
    Name,
    /// The `:` after a name.
    Colon,
    /// A member's value.
    Value,
    /// Inside a value that is not `id`'s, or a scalar of `id`'s being read.
    InValue,
    /// `,` or `}` after a value.
    Next,
}

impl IdScan {
    /// A scan at the start of a message.
    pub(crate) fn new() -> IdScan {
        IdScan::default()
    }

    /// Reads the next piece of the message.
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if self.found.is_some() || self.gave_up {
                return;
            }
            self.step(byte);
        }
    }

    /// The `id`'s JSON text (a string with its quotes, a number or `null`), once read whole.
    pub(crate) fn id(&self) -> Option<&[u8]> {
        self.found.as_deref()
    }

    fn step(&mut self, byte: u8) {
        if self.in_string {
            self.keep(byte);
            if self.escaped {
                self.escaped = false;
            } else if byte == b'\\' {
                self.escaped = true;
            } else if byte == b'"' {
                self.in_string = false;
                self.string_ended();
            }
            return;
        }
        if byte.is_ascii_whitespace() {
            if self.depth == 1 && self.expect == Expect::InValue && self.named_id {
                self.value_ended();
            }
            return;
        }
        match (self.depth, self.expect, byte) {
            (0, Expect::Start, b'{') => {
                self.depth = 1;
                self.expect = Expect::Name;
            }
            (0, _, _) => self.gave_up = true,
            (1, Expect::Name, b'"') => {
                self.in_string = true;
                self.name.clear();
            }
            (1, Expect::Name | Expect::Next, b'}') => self.gave_up = true, // no `id`
            (1, Expect::Colon, b':') => self.expect = Expect::Value,
            (1, Expect::Value, b'"') => {
                self.in_string = true;
                self.expect = Expect::InValue;
                self.keep(byte);
            }
            (1, Expect::Value, b'{' | b'[') => {
                // An object or array is no id; any other member's is skipped.
                if self.named_id {
                    self.gave_up = true;
                }
                self.depth += 1;
                self.expect = Expect::InValue;
            }
            (1, Expect::Value, _) => {
                self.expect = Expect::InValue;
                self.keep(byte);
            }
            (1, Expect::InValue, b',' | b'}') => {
                if self.named_id {
                    self.value_ended();
                }
                self.expect = if byte == b',' { Expect::Name } else { Expect::Next };
                if byte == b'}' {
                    self.gave_up = true;
                }
            }
            (1, Expect::InValue, _) => self.keep(byte),
            (1, Expect::Next, b',') => self.expect = Expect::Name,
            (1, _, _) => self.gave_up = true,
            (_, _, b'{' | b'[') => self.depth += 1,
            (_, _, b'}' | b']') => {
                self.depth -= 1;
                if self.depth == 1 {
                    self.expect = Expect::Next;
                }
            }
            (_, _, b'"') => self.in_string = true,
            _ => {}
        }
    }

    /// Keeps a byte of the top-level name being read, or of `id`'s value.
    fn keep(&mut self, byte: u8) {
        if self.depth != 1 {
            return;
        }
        match self.expect {
            Expect::Name if self.name.len() < 4 => self.name.push(byte),
            Expect::Name => {}
            Expect::InValue if self.named_id => {
                if self.value.len() == MAX_ID {
                    self.gave_up = true;
                } else {
                    self.value.push(byte);
                }
            }
            _ => {}
        }
    }

    fn string_ended(&mut self) {
        if self.depth != 1 {
            return;
        }
        match self.expect {
            Expect::Name => {
                self.named_id = self.name == b"id\"";
                self.expect = Expect::Colon;
            }
            Expect::InValue if self.named_id => self.value_ended(),
            Expect::InValue => self.expect = Expect::Next,
            _ => {}
        }
    }

    fn value_ended(&mut self) {
        let value = std::mem::take(&mut self.value);
        self.named_id = false;
        self.expect = Expect::Next;
        let text = std::str::from_utf8(&value).unwrap_or_default();
        // What a request id may be: a string or a number (and `null`, which answers none).
        let valid = serde_json::from_str::<serde_json::Value>(text)
            .is_ok_and(|v| v.is_string() || v.is_number() || v.is_null());
        if valid {
            self.found = Some(value);
        } else {
            self.gave_up = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The id found in `text`, fed in pieces of `chunk` bytes.
    fn id_of(text: &str, chunk: usize) -> Option<String> {
        let mut scan = IdScan::new();
        for piece in text.as_bytes().chunks(chunk) {
            scan.feed(piece);
        }
        scan.id().map(|id| String::from_utf8(id.to_vec()).unwrap())
    }

    #[test]
    fn finds_the_top_level_id_wherever_it_stands_in_any_pieces() {
        let cases = [
            (r#"{"jsonrpc":"2.0","id":7,"method":"tools/call"}"#, Some("7")),
            (
                r#"{"jsonrpc":"2.0","method":"x","params":{"id":1,"a":[{"id":2}]},"id":"abc"}"#,
                Some(r#""abc""#),
            ),
            (r#" { "id" : -12.5e3 , "method" : "x" } "#, Some("-12.5e3")),
            (
                r#"{"params":{"s":"a \"quoted\" } ] string","id":9},"id":"x\"y"}"#,
                Some(r#""x\"y""#),
            ),
            (r#"{"method":"x","params":{"big":"…"},"id":null}"#, Some("null")),
            (r#"{"ids":1,"i":2,"id2":3,"idd":4}"#, None),
            (
                r#"{"method":"notifications/cancelled","params":{"requestId":3}}"#,
                None,
            ),
            (r#"{"id":{"a":1}}"#, None),
            (r#"{"id":[1]}"#, None),
            (r#"{"id":tru}"#, None),
            (r#"[{"id":1}]"#, None),
            ("not json at all", None),
        ];
        for (text, expected) in cases {
            for chunk in [1, 2, 3, 5, 64] {
                assert_eq!(
                    id_of(text, chunk).as_deref(),
                    expected,
                    "{text} in pieces of {chunk}"
                );
            }
        }
    }

    #[test]
    fn an_id_found_early_is_kept_whatever_follows() {
        let mut scan = IdScan::new();
        scan.feed(br#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"arguments":{"text":""#);
        assert_eq!(scan.id(), Some(&b"42"[..]));
        scan.feed(&vec![b'x'; 1 << 20]);
        assert_eq!(scan.id(), Some(&b"42"[..]));
    }

    #[test]
    fn an_overlong_id_is_not_reported() {
        let long = format!(r#"{{"id":"{}"}}"#, "x".repeat(MAX_ID));
        assert_eq!(id_of(&long, 7), None);
        let fits = format!(r#"{{"id":"{}"}}"#, "x".repeat(MAX_ID - 2));
        assert_eq!(id_of(&fits, 7).map(|id| id.len()), Some(MAX_ID));
    }
}
