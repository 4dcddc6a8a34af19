//! The tool arguments a client repeats in `Mcp-Param-{Name}` headers (SEP-2243, revision
//! 2026-07-28 over HTTP): a top-level property of a tool's `inputSchema` annotated
//! `"x-mcp-header": "Name"`.
//!
//! A tool whose annotations break the rules (an empty name, a character that is no HTTP
//! token character, a name twice whatever its case, a property that is not a string,
//! integer or boolean: a number with a fraction has no one text) is left out of the tool list the client gives, as the
//! specification asks; the other tools stay.

use serde_json::{Map, Value};

/// One argument a tool's calls repeat in a header.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct HeaderParam {
    /// The property of the arguments.
    pub(super) property: String,
    /// The header's name: `Mcp-Param-` and the annotation.
    pub(super) header: String,
}

/// The header parameters of a tool's `inputSchema`, or why the tool must be left out.
pub(super) fn header_params(input_schema: &Map<String, Value>) -> Result<Vec<HeaderParam>, String> {
    let mut params: Vec<HeaderParam> = Vec::new();
    let Some(properties) = input_schema.get("properties").and_then(Value::as_object) else {
        return Ok(params);
    };
    for (property, schema) in properties {
        let Some(annotation) = schema.get("x-mcp-header") else {
            continue;
        };
        let Some(name) = annotation.as_str() else {
            return Err(format!("`x-mcp-header` of `{property}` is not a string"));
        };
        if name.is_empty() {
            return Err(format!("`x-mcp-header` of `{property}` is empty"));
        }
        if !name.bytes().all(is_token_char) {
            return Err(format!(
                "`x-mcp-header` of `{property}` has a character an HTTP header name cannot have"
            ));
        }
        let primitive = matches!(
            schema.get("type").and_then(Value::as_str),
            Some("string" | "integer" | "boolean")
        );
        if !primitive {
            return Err(format!(
                "`{property}` is repeated in a header but is not a string, an integer or a boolean"
            ));
        }
        let header = format!("Mcp-Param-{name}");
        if params.iter().any(|p| p.header.eq_ignore_ascii_case(&header)) {
            return Err(format!("`x-mcp-header` {name:?} is given to two properties"));
        }
        params.push(HeaderParam {
            property: property.clone(),
            header,
        });
    }
    Ok(params)
}

/// Whether `byte` may be in an HTTP header name (RFC 9110's `tchar`).
fn is_token_char(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte)
}

#[cfg(feature = "http")]
/// The header value that repeats an argument: its text, a number as JSON writes it, a
/// boolean as `true` or `false`; `None` for `null` or anything else, which is not sent.
pub(super) fn header_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(flag) => Some(flag.to_string()),
        _ => None,
    }
}

#[cfg(feature = "http")]
/// `text` as a header carries it: as it is when every character is visible ASCII or an
/// inner space, else `=?base64?…?=` (a control character, a tab, a character past ASCII,
/// or a space at either end).
pub(super) fn encoded(text: &str) -> String {
    use base64::Engine as _;
    let plain =
        text.bytes().all(|b| (0x20..=0x7e).contains(&b)) && !text.starts_with(' ') && !text.ends_with(' ');
    if plain {
        text.to_owned()
    } else {
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(text)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn annotated_primitive_properties_become_headers() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "priority": {"type": "integer", "x-mcp-header": "Priority"},
            "query": {"type": "string"}
        }});
        let params = header_params(schema.as_object().unwrap()).unwrap();
        let headers: Vec<&str> = params.iter().map(|p| p.header.as_str()).collect();
        assert_eq!(headers, ["Mcp-Param-Region", "Mcp-Param-Priority"]);
    }

    #[test]
    fn each_broken_rule_leaves_the_tool_out() {
        for (property, why) in [
            (json!({"type": "string", "x-mcp-header": ""}), "empty"),
            (
                json!({"type": "string", "x-mcp-header": "Has Space"}),
                "character",
            ),
            (json!({"type": "string", "x-mcp-header": "Co:lon"}), "character"),
            (
                json!({"type": "string", "x-mcp-header": "Caf\u{e9}"}),
                "character",
            ),
            (json!({"type": "object", "x-mcp-header": "Thing"}), "not a string"),
            (json!({"type": "array", "x-mcp-header": "Things"}), "not a string"),
            (json!({"type": "null", "x-mcp-header": "Nothing"}), "not a string"),
            (json!({"type": "number", "x-mcp-header": "Ratio"}), "not a string"),
        ] {
            let schema = json!({"properties": {"p": property}});
            let error = header_params(schema.as_object().unwrap()).unwrap_err();
            assert!(error.contains(why), "{error} for {schema}");
        }
        let twice = json!({"properties": {
            "a": {"type": "string", "x-mcp-header": "Region"},
            "b": {"type": "string", "x-mcp-header": "region"}
        }});
        assert!(
            header_params(twice.as_object().unwrap())
                .unwrap_err()
                .contains("two properties")
        );
    }

    #[cfg(feature = "http")]
    #[test]
    fn values_are_sent_plain_only_when_a_header_carries_them_unchanged() {
        assert_eq!(encoded("us west 1"), "us west 1");
        assert_eq!(encoded(""), "");
        assert_eq!(encoded(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(encoded("\tindented"), "=?base64?CWluZGVudGVk?=");
        assert_eq!(encoded("line1\r\nline2"), "=?base64?bGluZTENCmxpbmUy?=");
        assert_eq!(encoded("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
        assert_eq!(header_text(&json!(42)).as_deref(), Some("42"));
        assert_eq!(header_text(&json!(false)).as_deref(), Some("false"));
        assert_eq!(header_text(&json!(null)), None);
    }
}
