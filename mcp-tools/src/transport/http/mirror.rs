//! The headers of revision 2026-07-28 that repeat the body, so that proxies can route
//! without reading it: `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, and one
//! `Mcp-Param-{name}` for each argument a tool mirrors into a header (`x-mcp-header`). Any
//! that does not say what the body says refuses the request with 400 and `HeaderMismatch`
//! (-32020).
//!
//! Every value is read one way ([`decoded`]): optional whitespace around it trimmed (RFC
//! 9110, section 5.5), then a value written `=?base64?...?=` decoded from standard Base64
//! with its padding, strictly (a value without both markers is taken as it is). Text is
//! compared as text, integers as numbers (within the ±(2^53 − 1) a client can carry),
//! booleans as `true` or `false`.
//!
//! Sessions of revisions before 2026-07-28 define none of these headers: their requests
//! are not checked (their clients send none), and the `x-mcp-header` annotations their
//! tool lists carry are schema keywords such clients ignore. stdio has no headers.

use super::admission::Heads;
use crate::protocol::arguments::{QUOTED_NAME_CHARS, RawArguments, clip};
use crate::protocol::messages::ParamsHead;
use crate::tool::headers::HeaderParam;
use axum::http::{HeaderMap, HeaderValue};
use base64::Engine as _;
use serde_json::Value;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

/// What marks a value as Base64 (case-sensitive).
const BASE64_PREFIX: &str = "=?base64?";
const BASE64_SUFFIX: &str = "?=";

/// The largest integer a header carries: 2^53 − 1, the safe integers of JavaScript.
const MAX_SAFE: i64 = (1 << 53) - 1;

/// Why a header's value cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BadValue {
    /// It has bytes outside visible ASCII, space and tab.
    NotAscii,
    /// It is marked as Base64 but is not valid standard Base64 with its padding.
    Base64,
    /// It decodes to bytes that are not UTF-8.
    NotUtf8,
}

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BadValue::NotAscii => {
                "has characters other than visible ASCII, spaces and tabs; send such values as `=?base64?...?=`"
            }
            BadValue::Base64 => {
                "is marked `=?base64?...?=` but is not standard Base64 with its `=` padding"
            }
            BadValue::NotUtf8 => "is marked `=?base64?...?=` but does not decode to UTF-8 text",
        })
    }
}

/// A header's value as the body would say it: optional whitespace around it trimmed, and
/// `=?base64?...?=` decoded.
pub(super) fn decoded(value: &HeaderValue) -> Result<Cow<'_, str>, BadValue> {
    let text = value.to_str().map_err(|_| BadValue::NotAscii)?;
    let text = text.trim_matches([' ', '\t']);
    let encoded = text
        .strip_prefix(BASE64_PREFIX)
        .and_then(|rest| rest.strip_suffix(BASE64_SUFFIX));
    match encoded {
        None => Ok(Cow::Borrowed(text)),
        Some(encoded) => {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(encoded)
                .map_err(|_| BadValue::Base64)?;
            String::from_utf8(bytes)
                .map(Cow::Owned)
                .map_err(|_| BadValue::NotUtf8)
        }
    }
}

/// The value a header must repeat.
#[derive(Debug, PartialEq)]
enum Expected<'a> {
    /// No value: the argument is absent or `null`, so no header is expected.
    Nothing,
    Text(Cow<'a, str>),
    Integer(i64),
    Boolean(bool),
    /// A value no header carries: what it is.
    Uncarried(&'static str),
    /// An integer outside ±(2^53 − 1), as written.
    OutOfRange(String),
}

impl<'a> Expected<'a> {
    /// What a member of the arguments, as sent, says; objects and lists are not parsed.
    fn of_raw(raw: &'a RawValue) -> Expected<'a> {
        let text = raw.get().trim_start();
        match text.as_bytes().first() {
            Some(b'{') => Expected::Uncarried("an object"),
            Some(b'[') => Expected::Uncarried("a list"),
            Some(b'"') => match serde_json::from_str::<Cow<'a, str>>(text) {
                Ok(text) => Expected::Text(text),
                Err(_) => Expected::Nothing,
            },
            _ => match serde_json::from_str::<Value>(text) {
                Ok(value) => Expected::of_value(&value),
                Err(_) => Expected::Nothing,
            },
        }
    }

    fn of_value(value: &Value) -> Expected<'a> {
        match value {
            Value::Null => Expected::Nothing,
            Value::String(text) => Expected::Text(Cow::Owned(text.clone())),
            Value::Bool(value) => Expected::Boolean(*value),
            Value::Number(number) => {
                let integer = number.as_i64().or_else(|| {
                    // `7.0` is an integer too, as JSON Schema counts them.
                    number
                        .as_f64()
                        .filter(|f| f.fract() == 0.0 && f.abs() <= MAX_SAFE as f64)
                        .map(|f| f as i64)
                });
                match integer {
                    Some(integer) if integer.abs() <= MAX_SAFE => Expected::Integer(integer),
                    Some(_) => Expected::OutOfRange(number.to_string()),
                    None if number.is_f64() && number.as_f64().is_some_and(|f| f.fract() != 0.0) => {
                        Expected::Uncarried("a number with a fraction")
                    }
                    None => Expected::OutOfRange(number.to_string()),
                }
            }
            Value::Array(_) => Expected::Uncarried("a list"),
            Value::Object(_) => Expected::Uncarried("an object"),
        }
    }

    /// Whether a header's decoded value says this.
    fn matches(&self, header: &str) -> bool {
        match self {
            Expected::Text(text) => text == header,
            Expected::Integer(integer) => parse_integer(header) == Some(*integer),
            Expected::Boolean(value) => header == if *value { "true" } else { "false" },
            Expected::Nothing | Expected::Uncarried(_) | Expected::OutOfRange(_) => false,
        }
    }
}

impl fmt::Display for Expected<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Text(text) => f.write_str(text),
            Expected::Integer(integer) => write!(f, "{integer}"),
            Expected::Boolean(value) => write!(f, "{value}"),
            Expected::OutOfRange(number) => f.write_str(number),
            Expected::Nothing => f.write_str("(nothing)"),
            Expected::Uncarried(what) => f.write_str(what),
        }
    }
}

/// A decimal integer, as a header carries one: an optional `-`, then digits, within
/// ±(2^53 − 1).
fn parse_integer(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<i64>().ok().filter(|n| n.abs() <= MAX_SAFE)
}

/// Checks that the header `label` (`value`, when sent) repeats `expected`.
fn expect(label: &str, value: Option<&HeaderValue>, expected: &Expected<'_>) -> Result<(), String> {
    let body = || expected.to_string();
    let Some(value) = value else {
        return Err(format!(
            "Header mismatch: the {label} header is required and must be '{}'",
            clip(&body(), QUOTED_NAME_CHARS)
        ));
    };
    let shown = || {
        value.to_str().map_or(Cow::Borrowed("(not text)"), |v| {
            clip(v.trim_matches([' ', '\t']), QUOTED_NAME_CHARS)
        })
    };
    match decoded(value) {
        Err(bad) => Err(format!(
            "Header mismatch: the {label} header value '{}' {bad}",
            shown()
        )),
        Ok(header) if expected.matches(&header) => Ok(()),
        Ok(_) => Err(format!(
            "Header mismatch: {label} header value '{}' does not match body value '{}'",
            shown(),
            clip(&body(), QUOTED_NAME_CHARS)
        )),
    }
}

/// 2026-07-28: the standard headers must repeat what the body says, once each.
pub(super) fn check_standard(
    heads: &Heads<'_>,
    version: &RawValue,
    method: &str,
    head: &ParamsHead<'_>,
) -> Result<(), String> {
    if let Some(label) = heads.doubled {
        return Err(sent_twice(label));
    }
    let body_version: Cow<'_, str> =
        serde_json::from_str(version.get()).unwrap_or(Cow::Borrowed(version.get()));
    expect(
        "MCP-Protocol-Version",
        heads.version,
        &Expected::Text(body_version),
    )?;
    expect("Mcp-Method", heads.method, &Expected::Text(Cow::Borrowed(method)))?;
    let target = match method {
        "tools/call" | "prompts/get" => string_of(head.name),
        "resources/read" => string_of(head.uri),
        "tasks/get" | "tasks/update" | "tasks/cancel" => string_of(head.task_id),
        _ => None,
    };
    if let Some(target) = target {
        expect("Mcp-Name", heads.name, &Expected::Text(target))?;
    }
    Ok(())
}

/// The refusal of a header sent more than once: which of its values would the server
/// believe?
pub(super) fn sent_twice(label: &str) -> String {
    format!("Header mismatch: the {label} header is sent more than once; send it once")
}

/// A member's text, when it is a string.
pub(super) fn string_of(raw: Option<&RawValue>) -> Option<Cow<'_, str>> {
    serde_json::from_str(raw?.get()).ok()
}

/// 2026-07-28: each `Mcp-Param-*` header of a tool's call must repeat its argument: sent
/// once when the argument has a value, and not sent when it has none.
pub(super) fn check_params(
    headers: &HeaderMap,
    params: &[HeaderParam],
    arguments: &RawArguments<'_>,
) -> Result<(), String> {
    for param in params {
        let mut values = headers.get_all(param.key.as_str()).iter();
        let value = values.next();
        if values.next().is_some() {
            return Err(sent_twice(&param.label));
        }
        let expected = argument(arguments, &param.path);
        let property = param.property();
        match (&expected, value) {
            (Expected::Nothing, None) => {}
            (Expected::Nothing, Some(_)) => {
                return Err(format!(
                    "Header mismatch: the {} header is sent, but the body has no value for the argument `{property}` that it repeats",
                    param.label
                ));
            }
            (Expected::Uncarried(what), _) => {
                return Err(format!(
                    "Header mismatch: the argument `{property}` is {what}, which no header carries; {} repeats a string, an integer or a boolean",
                    param.label
                ));
            }
            (Expected::OutOfRange(number), _) => {
                return Err(format!(
                    "Header mismatch: the argument `{property}` is {number}, outside the integers a header carries (-{MAX_SAFE} to {MAX_SAFE})"
                ));
            }
            _ => expect(&param.label, value, &expected)?,
        }
    }
    Ok(())
}

/// The value at a property path of the arguments: the first step read as sent, deeper
/// steps (rare) parsed.
fn argument<'a>(arguments: &RawArguments<'a>, path: &[String]) -> Expected<'a> {
    let Some((first, rest)) = path.split_first() else {
        return Expected::Nothing;
    };
    let Some(raw) = arguments.get(first) else {
        return Expected::Nothing;
    };
    if rest.is_empty() {
        return Expected::of_raw(raw);
    }
    let Ok(mut value) = serde_json::from_str::<Value>(raw.get()) else {
        return Expected::Nothing;
    };
    for step in rest {
        match value {
            Value::Object(mut members) => match members.remove(step) {
                Some(member) => value = member,
                None => return Expected::Nothing,
            },
            _ => return Expected::Nothing,
        }
    }
    Expected::of_value(&value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(value: &'static str) -> HeaderValue {
        HeaderValue::from_static(value)
    }

    #[test]
    fn values_are_trimmed_and_base64_decoded_strictly() {
        let read = |value: &'static str| decoded(&header(value)).map(Cow::into_owned);
        assert_eq!(read("us-west1"), Ok("us-west1".to_owned()));
        assert_eq!(read(" \t us-west1 \t"), Ok("us-west1".to_owned()));
        // The examples of the specification.
        assert_eq!(
            read("=?base64?SGVsbG8sIOS4lueVjA==?="),
            Ok("Hello, 世界".to_owned())
        );
        assert_eq!(read("=?base64?IHBhZGRlZCA=?="), Ok(" padded ".to_owned()));
        assert_eq!(read("=?base64?bGluZTEKbGluZTI=?="), Ok("line1\nline2".to_owned()));
        assert_eq!(
            read("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
            Ok("=?base64?literal?=".to_owned())
        );
        assert_eq!(read("  =?base64?SGVsbG8=?=  "), Ok("Hello".to_owned()));
        assert_eq!(read("=?base64??="), Ok(String::new()));
        // Padding left out, characters outside the alphabet, URL-safe Base64: refused.
        assert_eq!(read("=?base64?SGVsbG8?="), Err(BadValue::Base64));
        assert_eq!(read("=?base64?SGVs!!!bG8=?="), Err(BadValue::Base64));
        assert_eq!(read("=?base64?SGVsbG8=?=?="), Err(BadValue::Base64));
        assert_eq!(read("=?base64?_-8=?="), Err(BadValue::Base64));
        assert_eq!(read("=?base64?/w==?="), Err(BadValue::NotUtf8));
        // Without both markers, exactly as written (lowercase), a value is literal.
        assert_eq!(read("SGVsbG8="), Ok("SGVsbG8=".to_owned()));
        assert_eq!(read("=?base64?SGVsbG8="), Ok("=?base64?SGVsbG8=".to_owned()));
        assert_eq!(read("SGVsbG8=?="), Ok("SGVsbG8=?=".to_owned()));
        assert_eq!(read("=?BASE64?SGVsbG8=?="), Ok("=?BASE64?SGVsbG8=?=".to_owned()));
        assert_eq!(read("=?base64?="), Ok("=?base64?=".to_owned()));
        let not_ascii = HeaderValue::from_bytes("Zürich".as_bytes()).unwrap();
        assert_eq!(decoded(&not_ascii), Err(BadValue::NotAscii));
    }

    #[test]
    fn integers_compare_as_numbers_within_the_safe_range() {
        let int = |raw: &'static str| Expected::of_raw(serde_json::from_str::<&RawValue>(raw).unwrap());
        assert!(int("42").matches("42"));
        assert!(int("42").matches("042"));
        assert!(int("-7").matches("-7"));
        assert!(int("7.0").matches("7"));
        assert!(int("9007199254740991").matches("9007199254740991"));
        assert!(!int("42").matches("+42"));
        assert!(!int("42").matches("42.0"));
        assert!(!int("42").matches("4 2"));
        assert!(!int("42").matches(""));
        assert!(!int("42").matches("-"));
        assert_eq!(
            int("9007199254740992"),
            Expected::OutOfRange("9007199254740992".into())
        );
        assert_eq!(
            int("-9007199254740992"),
            Expected::OutOfRange("-9007199254740992".into())
        );
        assert_eq!(int("1e300"), Expected::OutOfRange("1e+300".into()));
        assert_eq!(int("2.5"), Expected::Uncarried("a number with a fraction"));
        assert_eq!(parse_integer("9007199254740992"), None);
        assert_eq!(parse_integer("99999999999999999999"), None);
    }

    #[test]
    fn booleans_text_and_nothing() {
        let of = |raw: &'static str| Expected::of_raw(serde_json::from_str::<&RawValue>(raw).unwrap());
        assert!(of("true").matches("true"));
        assert!(!of("true").matches("True"));
        assert!(!of("true").matches("1"));
        assert!(of("false").matches("false"));
        assert!(of(r#""a\"b""#).matches("a\"b"));
        assert!(!of(r#""abc""#).matches("ABC"));
        assert_eq!(of("null"), Expected::Nothing);
        assert_eq!(of(r#"{"a": 1}"#), Expected::Uncarried("an object"));
        assert_eq!(of(" [1]"), Expected::Uncarried("a list"));
    }

    #[test]
    fn params_are_found_by_path_and_checked_each() {
        let params = vec![
            HeaderParam {
                path: vec!["region".into()],
                label: "Mcp-Param-Region".into(),
                key: "mcp-param-region".into(),
            },
            HeaderParam {
                path: vec!["target".into(), "dry".into()],
                label: "Mcp-Param-Dry".into(),
                key: "mcp-param-dry".into(),
            },
        ];
        let args = r#"{"region": "eu", "target": {"dry": true}}"#;
        let args = RawArguments::from_json(args).unwrap();
        let mut headers = HeaderMap::new();
        headers.insert("mcp-param-region", header("=?base64?ZXU=?="));
        headers.insert("MCP-PARAM-DRY", header("true"));
        assert_eq!(check_params(&headers, &params, &args), Ok(()));
        headers.insert("mcp-param-dry", header("false"));
        assert_eq!(
            check_params(&headers, &params, &args),
            Err(
                "Header mismatch: Mcp-Param-Dry header value 'false' does not match body value 'true'".into()
            )
        );
        headers.append("mcp-param-dry", header("true"));
        assert_eq!(
            check_params(&headers, &params, &args),
            Err("Header mismatch: the Mcp-Param-Dry header is sent more than once; send it once".into())
        );
        let none = RawArguments::from_json(r#"{"region": null}"#).unwrap();
        assert_eq!(check_params(&HeaderMap::new(), &params, &none), Ok(()));
        assert_eq!(
            check_params(&headers, &params[..1], &none),
            Err("Header mismatch: the Mcp-Param-Region header is sent, but the body has no value for the argument `region` that it repeats".into())
        );
    }

    #[test]
    fn an_error_repeats_at_most_200_characters_of_a_value() {
        let long = format!("{}é{}", "a".repeat(199), "b".repeat(100_000));
        let value = HeaderValue::from_str(&"c".repeat(100_000)).unwrap();
        let expected = Expected::Text(Cow::Borrowed(&long));
        let error = expect("Mcp-Param-Text", Some(&value), &expected).unwrap_err();
        assert_eq!(
            error,
            format!(
                "Header mismatch: Mcp-Param-Text header value '{}…' does not match body value '{}é…'",
                "c".repeat(200),
                "a".repeat(199)
            )
        );
        let missing = expect("Mcp-Param-Text", None, &expected).unwrap_err();
        assert_eq!(
            missing.len(),
            "Header mismatch: the Mcp-Param-Text header is required and must be ''…".len()
                + 199
                + 'é'.len_utf8()
        );
    }
}
