//! JSON-RPC 2.0 framing: reading one incoming message without copying what only passes
//! through, and writing responses whose ids echo the request's bytes exactly.

use super::ErrorCode;
use super::messages::RawCall;
use super::types::{RequestId, valid_id};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;
use std::io::Write as _;

/// One JSON-RPC message as it arrived, every member borrowed from the input.
///
/// A member that is present is `Some` even when it is `null`. When `method` comes before
/// `params` (as clients write them) and is `tools/call`, the params are read in the same
/// pass, so a call's arguments are scanned once before their parameters decode them.
#[derive(Default)]
pub(crate) struct Envelope<'a> {
    pub(crate) jsonrpc: Option<&'a RawValue>,
    pub(crate) id: Option<&'a RawValue>,
    pub(crate) method: Option<&'a RawValue>,
    pub(crate) params: Option<Params<'a>>,
    pub(crate) result: Option<&'a RawValue>,
    pub(crate) error: Option<&'a RawValue>,
}

/// A message's `params`.
pub(crate) enum Params<'a> {
    /// As sent, for the method to read.
    Raw(&'a RawValue),
    /// A `tools/call`'s, read with the envelope.
    Call(RawCall<'a>),
    /// Not an object: what it is, in words.
    NotObject(&'static str),
}

impl<'a> Params<'a> {
    /// The params as sent; `None` when they were read already.
    pub(crate) fn raw(&self) -> Option<&'a RawValue> {
        match self {
            Params::Raw(raw) => Some(raw),
            Params::Call(_) | Params::NotObject(_) => None,
        }
    }
}

impl<'de> Deserialize<'de> for Envelope<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(EnvelopeVisitor { calls: true })
    }
}

impl<'a> Envelope<'a> {
    /// Reads a message, a `tools/call`'s params with it.
    pub(crate) fn parse(text: &'a [u8]) -> serde_json::Result<Envelope<'a>> {
        Envelope::read(text, EnvelopeVisitor { calls: true })
    }

    /// Reads a message keeping every `params` as sent, `tools/call`'s too: for when reading
    /// a call's params with the envelope failed, so the error can go back with the id.
    pub(crate) fn parse_without_call(text: &'a [u8]) -> serde_json::Result<Envelope<'a>> {
        Envelope::read(text, EnvelopeVisitor { calls: false })
    }

    /// The whole text is checked to be UTF-8 once, then read as a `str`: read from bytes,
    /// serde_json checks every string and every raw value apart, which cost more than a
    /// third of reading a call. Text that is not UTF-8 is read from the bytes, so it fails
    /// as it always did.
    fn read(text: &'a [u8], visitor: EnvelopeVisitor) -> serde_json::Result<Envelope<'a>> {
        fn whole<'de, R: serde_json::de::Read<'de>>(
            mut deserializer: serde_json::Deserializer<R>,
            visitor: EnvelopeVisitor,
        ) -> serde_json::Result<Envelope<'de>> {
            let envelope = deserializer.deserialize_map(visitor)?;
            deserializer.end()?;
            Ok(envelope)
        }
        match std::str::from_utf8(text) {
            Ok(text) => whole(serde_json::Deserializer::from_str(text), visitor),
            Err(_) => whole(serde_json::Deserializer::from_slice(text), visitor),
        }
    }
}

#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum Member {
    Jsonrpc,
    Id,
    Method,
    Params,
    Result,
    Error,
    #[serde(other)]
    Other,
}

/// `calls`: read a `tools/call`'s params in the envelope's pass.
struct EnvelopeVisitor {
    calls: bool,
}

impl<'de> Visitor<'de> for EnvelopeVisitor {
    type Value = Envelope<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC message object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Envelope<'de>, A::Error> {
        fn once<'de, E: de::Error>(
            slot: &mut Option<&'de RawValue>,
            name: &'static str,
            value: &'de RawValue,
        ) -> Result<(), E> {
            match slot.replace(value) {
                None => Ok(()),
                Some(_) => Err(E::duplicate_field(name)),
            }
        }
        let mut envelope = Envelope::default();
        while let Some(member) = map.next_key::<Member>()? {
            match member {
                Member::Jsonrpc => once(&mut envelope.jsonrpc, "jsonrpc", map.next_value()?)?,
                Member::Id => once(&mut envelope.id, "id", map.next_value()?)?,
                Member::Method => once(&mut envelope.method, "method", map.next_value()?)?,
                Member::Result => once(&mut envelope.result, "result", map.next_value()?)?,
                Member::Error => once(&mut envelope.error, "error", map.next_value()?)?,
                Member::Params if envelope.params.is_some() => {
                    return Err(de::Error::duplicate_field("params"));
                }
                Member::Params
                    if self.calls && envelope.method.is_some_and(|m| m.get() == "\"tools/call\"") =>
                {
                    envelope.params = Some(map.next_value::<CallParams<'de>>()?.0);
                }
                Member::Params => {
                    let raw: &RawValue = map.next_value()?;
                    envelope.params = Some(match raw.get().as_bytes().first() {
                        Some(b'{') => Params::Raw(raw),
                        _ => Params::NotObject(describe_json_kind(raw.get())),
                    });
                }
                Member::Other => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        Ok(envelope)
    }
}

/// A `tools/call`'s params in the envelope's pass: any JSON value is accepted here, and
/// what is wrong with it is reported once the message is known to be a request.
struct CallParams<'a>(Params<'a>);

impl<'de> Deserialize<'de> for CallParams<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CallVisitor;
        impl<'de> Visitor<'de> for CallVisitor {
            type Value = CallParams<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("params")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                let call = RawCall::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(CallParams(Params::Call(call)))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<de::IgnoredAny>()?.is_some() {}
                Ok(CallParams(Params::NotObject("an array")))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(CallParams(Params::NotObject("null")))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(CallParams(Params::NotObject("a boolean")))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
                Ok(CallParams(Params::NotObject("a string")))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(CallParams(Params::NotObject("a number")))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(CallParams(Params::NotObject("a number")))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(CallParams(Params::NotObject("a number")))
            }
        }
        deserializer.deserialize_any(CallVisitor)
    }
}

/// What an incoming message is, once checked.
pub(crate) enum Message<'a> {
    Request {
        id: Id<'a>,
        method: Cow<'a, str>,
        params: Option<Params<'a>>,
    },
    Notification {
        method: Cow<'a, str>,
        params: Option<&'a RawValue>,
    },
    /// A client's response to a request of the server's own.
    Response {
        id: &'a RawValue,
        result: Option<&'a RawValue>,
        error: Option<&'a RawValue>,
    },
}

/// A request id: its bytes as sent (echoed exactly) and its value.
#[derive(Clone, Copy)]
pub(crate) struct Id<'a> {
    pub(crate) raw: &'a RawValue,
}

impl Id<'_> {
    pub(crate) fn value(&self) -> RequestId {
        // Checked to be a string or an integer when the message was classified. A string
        // that does not decode (a lone surrogate escape) is known by its text as sent.
        serde_json::from_str(self.raw.get()).unwrap_or_else(|_| RequestId::String(self.raw.get().to_owned()))
    }
}

/// A message that cannot be served, with the id to answer (`null` when unreadable).
pub(crate) struct Rejection<'a> {
    pub(crate) id: Option<&'a RawValue>,
    pub(crate) code: ErrorCode,
    pub(crate) message: String,
}

/// Checks an envelope: `jsonrpc` is `"2.0"`, `method` a string, `id` a string or an
/// integer that fits 64 bits.
pub(crate) fn classify<'a>(envelope: Envelope<'a>) -> Result<Message<'a>, Rejection<'a>> {
    let id_ok = envelope.id.map(valid_id);
    let answer_id = match id_ok {
        Some(true) => envelope.id,
        _ => None,
    };
    let invalid = |message: String| Rejection {
        id: answer_id,
        code: ErrorCode::INVALID_REQUEST,
        message,
    };
    match envelope.jsonrpc.map(RawValue::get) {
        Some("\"2.0\"") => {}
        Some(other) => return Err(invalid(format!("`jsonrpc` must be \"2.0\", not {other}"))),
        None => return Err(invalid("`jsonrpc` is missing; it must be \"2.0\"".into())),
    }
    let Some(method) = envelope.method else {
        if let Some(id) = envelope.id
            && (envelope.result.is_some() || envelope.error.is_some())
        {
            return Ok(Message::Response {
                id,
                result: envelope.result,
                error: envelope.error,
            });
        }
        return Err(invalid("`method` is missing".into()));
    };
    let method: Cow<'a, str> = match Cow::<str>::deserialize(method) {
        Ok(m) => m,
        Err(_) => {
            return Err(invalid(format!(
                "`method` must be a string, not {}",
                method.get()
            )));
        }
    };
    if let Some(Params::NotObject(kind)) = envelope.params {
        return Err(invalid(format!("`params` must be an object, not {kind}")));
    }
    match (envelope.id, id_ok) {
        (None, _) => Ok(Message::Notification {
            method,
            params: envelope.params.as_ref().and_then(Params::raw),
        }),
        (Some(raw), Some(true)) => Ok(Message::Request {
            id: Id { raw },
            method,
            params: envelope.params,
        }),
        (Some(raw), _) => Err(invalid(format!(
            "the request id must be a string or an integer between -2^63 and 2^63-1, not {}",
            short(raw.get())
        ))),
    }
}

/// `a string`, `an array`... for a JSON text already known to be valid.
pub(crate) fn describe_json_kind(json: &str) -> &'static str {
    match json.as_bytes().first() {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

fn short(json: &str) -> Cow<'_, str> {
    const LIMIT: usize = 60;
    if json.len() <= LIMIT {
        Cow::Borrowed(json)
    } else {
        let mut end = LIMIT;
        while !json.is_char_boundary(end) {
            end -= 1;
        }
        Cow::Owned(format!("{}…", &json[..end]))
    }
}

/// Appends `{"jsonrpc":"2.0","id":<id>,"result":<result>}`.
pub(crate) fn write_result<T: Serialize + ?Sized>(out: &mut Vec<u8>, id: &RawValue, result: &T) {
    out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    out.extend_from_slice(id.get().as_bytes());
    out.extend_from_slice(b",\"result\":");
    if serde_json::to_writer(&mut *out, result).is_err() {
        // Our own result types always serialize; keep the line well-formed regardless.
        out.extend_from_slice(b"{}");
    }
    out.push(b'}');
}

/// Serde of an [`ErrorCode`] field (`#[serde(with = "...")]`): the code as a JSON integer.
pub(crate) mod code {
    use super::ErrorCode;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(code: &ErrorCode, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_i64(code.get())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<ErrorCode, D::Error> {
        i64::deserialize(deserializer).map(ErrorCode::new)
    }
}

/// An error object as a peer sent it.
#[derive(Deserialize)]
pub(crate) struct WireError {
    #[serde(with = "code")]
    pub(crate) code: ErrorCode,
    pub(crate) message: String,
    #[serde(default)]
    pub(crate) data: Option<serde_json::Value>,
}

/// An error object.
#[derive(Serialize)]
pub(crate) struct ErrorObject<'a> {
    #[serde(with = "code")]
    pub(crate) code: ErrorCode,
    pub(crate) message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) data: Option<serde_json::Value>,
}

/// Appends `{"jsonrpc":"2.0","id":<id or null>,"error":{...}}`.
pub(crate) fn write_error(out: &mut Vec<u8>, id: Option<&RawValue>, error: &ErrorObject<'_>) {
    out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    out.extend_from_slice(id.map_or("null", RawValue::get).as_bytes());
    out.extend_from_slice(b",\"error\":");
    if serde_json::to_writer(&mut *out, error).is_err() {
        let _ = write!(
            out,
            "{{\"code\":{},\"message\":\"internal error\"}}",
            ErrorCode::INTERNAL_ERROR
        );
    }
    out.push(b'}');
}

/// Appends `{"jsonrpc":"2.0","method":<method>,"params":<params>}`.
pub(crate) fn write_notification<T: Serialize + ?Sized>(out: &mut Vec<u8>, method: &str, params: &T) {
    out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"method\":");
    let _ = serde_json::to_writer(&mut *out, method);
    out.extend_from_slice(b",\"params\":");
    if serde_json::to_writer(&mut *out, params).is_err() {
        out.extend_from_slice(b"{}");
    }
    out.push(b'}');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(json: &str) -> Result<&'static str, (Option<String>, String)> {
        let envelope: Envelope<'_> = serde_json::from_str(json).unwrap();
        match classify(envelope) {
            Ok(Message::Request { .. }) => Ok("request"),
            Ok(Message::Notification { .. }) => Ok("notification"),
            Ok(Message::Response { .. }) => Ok("response"),
            Err(r) => Err((r.id.map(|i| i.get().to_owned()), r.message)),
        }
    }

    #[test]
    fn classifies_messages() {
        assert_eq!(
            check(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Ok("request")
        );
        assert_eq!(
            check(r#"{"jsonrpc":"2.0","id":"a","method":"ping","params":{}}"#),
            Ok("request")
        );
        assert_eq!(
            check(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Ok("notification")
        );
        assert_eq!(check(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#), Ok("response"));
    }

    #[test]
    fn rejects_bad_envelopes_with_the_id_when_it_is_valid() {
        assert_eq!(
            check(r#"{"id":1,"method":"ping"}"#),
            Err((
                Some("1".into()),
                "`jsonrpc` is missing; it must be \"2.0\"".into()
            ))
        );
        assert_eq!(
            check(r#"{"jsonrpc":"1.0","id":"x","method":"ping"}"#),
            Err((
                Some("\"x\"".into()),
                "`jsonrpc` must be \"2.0\", not \"1.0\"".into()
            ))
        );
        for id in ["null", "1.5", "true", "{}", "[1]", "18446744073709551616"] {
            let (answer, message) =
                check(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#)).unwrap_err();
            assert_eq!(answer, None, "{id}");
            assert!(
                message.starts_with("the request id must be a string or an integer"),
                "{message}"
            );
        }
        assert_eq!(
            check(r#"{"jsonrpc":"2.0","id":2,"method":7}"#),
            Err((Some("2".into()), "`method` must be a string, not 7".into()))
        );
        assert_eq!(
            check(r#"{"jsonrpc":"2.0","id":2,"method":"x","params":[1]}"#),
            Err((
                Some("2".into()),
                "`params` must be an object, not an array".into()
            ))
        );
    }

    #[test]
    fn reads_call_params_with_the_envelope_when_the_method_comes_first() {
        let first =
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}}"#;
        let envelope: Envelope<'_> = serde_json::from_str(first).unwrap();
        let Some(Params::Call(call)) = envelope.params else {
            panic!("tools/call params were not read in the envelope's pass");
        };
        assert_eq!(call.check().unwrap().name, "add");

        let last = r#"{"params":{"name":"add"},"jsonrpc":"2.0","id":1,"method":"tools/call"}"#;
        let envelope: Envelope<'_> = serde_json::from_str(last).unwrap();
        assert!(matches!(envelope.params, Some(Params::Raw(_))));

        for (params, kind) in [
            ("[1,[2]]", "an array"),
            ("\"x\"", "a string"),
            ("null", "null"),
            ("2.5", "a number"),
        ] {
            let json = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{params}}}"#);
            assert_eq!(
                check(&json),
                Err((
                    Some("1".into()),
                    format!("`params` must be an object, not {kind}")
                )),
            );
        }
    }

    #[test]
    fn a_member_given_twice_is_refused() {
        for json in [
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{},"params":{}}"#,
        ] {
            assert!(serde_json::from_str::<Envelope<'_>>(json).is_err(), "{json}");
        }
    }

    #[test]
    fn responses_echo_the_id_bytes() {
        let id: &RawValue = serde_json::from_str(r#""caf\u00e9""#).unwrap();
        let mut out = Vec::new();
        write_result(&mut out, id, &serde_json::json!({}));
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"jsonrpc":"2.0","id":"caf\u00e9","result":{}}"#
        );
    }
}
