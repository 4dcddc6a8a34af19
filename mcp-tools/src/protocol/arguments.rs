//! The wire form of a call's `arguments`: an object's members, each left as its slice of
//! the request until the parameter it belongs to decodes it.

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

/// A call's `arguments` as they arrived: an object's entries, each value left as its slice
/// of the request until the parameter it belongs to decodes it.
///
/// It is read in the same pass as the rest of the request, so a large argument is scanned
/// once before its parameter decodes it.
#[derive(Clone)]
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct RawArguments<'a>(Received<'a>);

/// What a call's `arguments` were.
#[derive(Clone)]
pub(crate) enum Received<'a> {
    /// No `arguments`, or `null`.
    Nothing,
    Object(Vec<(Cow<'a, str>, &'a RawValue)>),
    /// Anything else, kept to say what it was.
    Other(Value),
}

impl<'a> RawArguments<'a> {
    /// Reads the arguments from a JSON text.
    pub fn from_json(text: &'a str) -> serde_json::Result<RawArguments<'a>> {
        serde_json::from_str(text)
    }

    /// What arrived, for the tool's parameters to take apart.
    pub(crate) fn into_received(self) -> Received<'a> {
        self.0
    }

    /// The argument named `key`, as sent (the first, if it is given twice); `None` when
    /// there is none or the arguments are no object.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn get(&self, key: &str) -> Option<&'a RawValue> {
        match &self.0 {
            Received::Object(entries) => entries.iter().find(|(name, _)| name == key).map(|(_, raw)| *raw),
            Received::Nothing | Received::Other(_) => None,
        }
    }

    /// The names of the arguments, as sent (none when the arguments are no object).
    pub(crate) fn keys(&self) -> impl Iterator<Item = &str> {
        let entries = match &self.0 {
            Received::Object(entries) => &entries[..],
            Received::Nothing | Received::Other(_) => &[],
        };
        entries.iter().map(|(name, _)| &**name)
    }

    /// Takes the member `key` out (every occurrence; the first is returned): a custom
    /// method's params hold `_meta` and the round's members beside its arguments.
    pub(crate) fn remove(&mut self, key: &str) -> Option<&'a RawValue> {
        let Received::Object(entries) = &mut self.0 else {
            return None;
        };
        let first = entries.iter().find(|(name, _)| name == key).map(|(_, raw)| *raw);
        if first.is_some() {
            entries.retain(|(name, _)| name != key);
        }
        first
    }

    /// The arguments in one canonical form (members sorted by key at every level, no
    /// spaces), so two encodings of the same arguments compare equal.
    pub(crate) fn canonical(&self) -> String {
        let value = match &self.0 {
            Received::Nothing => Value::Object(serde_json::Map::new()),
            Received::Object(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(key, raw)| {
                        let value = serde_json::from_str(raw.get()).unwrap_or(Value::Null);
                        (key.clone().into_owned(), value)
                    })
                    .collect(),
            ),
            Received::Other(value) => value.clone(),
        };
        canonical_json(&value)
    }

    /// The arguments as a JSON object: `Err` describes what came instead.
    pub(crate) fn into_map(self) -> Result<serde_json::Map<String, Value>, String> {
        match self.0 {
            Received::Nothing => Ok(serde_json::Map::new()),
            Received::Object(entries) => entries
                .into_iter()
                .map(|(key, raw)| {
                    serde_json::from_str(raw.get())
                        .map(|value| (key.into_owned(), value))
                        .map_err(|e| e.to_string())
                })
                .collect(),
            Received::Other(value) => Err(describe_value(&value)),
        }
    }
}

impl Default for RawArguments<'_> {
    fn default() -> Self {
        RawArguments(Received::Nothing)
    }
}

impl<'de: 'a, 'a> de::Deserialize<'de> for RawArguments<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ArgumentsVisitor)
    }
}

struct ArgumentsVisitor;

impl ArgumentsVisitor {
    fn other<'de, E>(value: impl Into<Value>) -> Result<RawArguments<'de>, E> {
        Ok(RawArguments(Received::Other(value.into())))
    }
}

impl<'de> Visitor<'de> for ArgumentsVisitor {
    type Value = RawArguments<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(RawArguments(Received::Nothing))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(4));
        while let Some(key) = map.next_key::<Key<'de>>()? {
            entries.push((key.0, map.next_value::<&'de RawValue>()?));
        }
        Ok(RawArguments(Received::Object(entries)))
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Self::other(Value::deserialize(de::value::SeqAccessDeserializer::new(seq))?)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Self::other(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Self::other(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Self::other(v)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Self::other(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Self::other(v)
    }
}

/// An object key, borrowed unless it has escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// JSON in one canonical form: object members sorted by key, no spaces, numbers as
/// serde_json prints them. Two texts of one value (members reordered, spaced differently)
/// give the same form, so a client that re-encodes its arguments still matches its state.
pub(crate) fn canonical_json(value: &Value) -> String {
    fn write(value: &Value, out: &mut String) {
        match value {
            Value::Object(map) => {
                let mut members: Vec<(&String, &Value)> = map.iter().collect();
                members.sort_by_key(|(key, _)| *key);
                out.push('{');
                for (at, (key, value)) in members.into_iter().enumerate() {
                    if at > 0 {
                        out.push(',');
                    }
                    out.push_str(&Value::String(key.clone()).to_string());
                    out.push(':');
                    write(value, out);
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (at, item) in items.iter().enumerate() {
                    if at > 0 {
                        out.push(',');
                    }
                    write(item, out);
                }
                out.push(']');
            }
            scalar => out.push_str(&scalar.to_string()),
        }
    }
    let mut out = String::new();
    write(value, &mut out);
    out
}

/// How many characters of a client's text a message quotes back: the client chose its
/// length.
pub(crate) const QUOTED_CHARS: usize = 40;

/// The first `limit` characters of `text`, when it has more: what a message quotes of
/// client text it cuts.
pub(crate) fn cut(text: &str, limit: usize) -> Option<&str> {
    text.char_indices().nth(limit).map(|(end, _)| &text[..end])
}

/// How many characters of a name, a URI, an id or a method a message quotes back: more
/// than any the server serves, and far less than a client may send.
pub(crate) const QUOTED_NAME_CHARS: usize = 200;

/// `text` as a message quotes it: whole, or its first `limit` characters and `…` when it
/// has more (see [`cut`]).
pub(crate) fn clip(text: &str, limit: usize) -> Cow<'_, str> {
    match cut(text, limit) {
        Some(head) => Cow::Owned(format!("{head}…")),
        None => Cow::Borrowed(text),
    }
}

/// A serde message with each client value it quotes cut after `limit` characters (see
/// [`cut`]): serde repeats a string it could not decode whole (`invalid type: string
/// "…"`, escaped as Rust's `{:?}`), and so a variant or field name it does not know
/// (``unknown variant `…`, expected …``).
pub(crate) fn clip_quoted(message: &str, limit: usize) -> Cow<'_, str> {
    let mut spans = Vec::new();
    for opening in ["unknown variant `", "unknown field `"] {
        if let Some(at) = message.find(opening) {
            let start = at + opening.len();
            // The name ends where serde's own words start again: the last of these.
            let end = ["`, expected", "`, there are no"]
                .iter()
                .filter_map(|closing| message[start..].rfind(closing))
                .max()
                .map_or(message.len(), |end| start + end);
            spans.push((start, end));
        }
    }
    if spans.is_empty() {
        let mut chars = message.char_indices();
        while let Some((at, c)) = chars.next() {
            if c != '"' {
                continue;
            }
            let mut end = message.len();
            let mut escaped = false;
            for (at, c) in chars.by_ref() {
                match c {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => {
                        end = at;
                        break;
                    }
                    _ => escaped = false,
                }
            }
            spans.push((at + 1, end));
        }
    }
    let mut out = String::new();
    let mut copied = 0;
    for (start, end) in spans {
        if let Some(head) = cut(&message[start..end], limit) {
            out.push_str(&message[copied..start]);
            out.push_str(head);
            out.push('…');
            copied = end;
        }
    }
    if copied == 0 {
        return Cow::Borrowed(message);
    }
    out.push_str(&message[copied..]);
    Cow::Owned(out)
}

/// What a client sent, in words: `the string "x"`, `the number 1.5`, `an array`.
pub(crate) fn describe_value(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => match cut(s, QUOTED_CHARS) {
            Some(head) => format!("the string {head:?}…"),
            None => format!("the string {s:?}"),
        },
        Value::Array(items) if items.is_empty() => "an empty array".to_owned(),
        Value::Array(_) => "an array".to_owned(),
        Value::Object(map) if map.is_empty() => "an empty object".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_quotes_at_most_a_limit_of_a_client_value() {
        assert_eq!(clip("short", 10), "short");
        assert_eq!(clip("ééééé", 3), "ééé…");
        let long = "a".repeat(100_000);
        // serde's message, without its ` at line 1 column N`.
        let unplaced = |error: serde_json::Error| {
            let message = error.to_string();
            message[..message.rfind(" at line ").unwrap()].to_owned()
        };
        let decoded = |json: String| {
            unplaced(serde_json::from_str::<std::collections::BTreeMap<String, u8>>(&json).unwrap_err())
        };
        // A string serde could not decode, escaped; what follows it is kept.
        let quoted = format!("{{\"k\": \"\\\"{long}\"}}");
        let message = decoded(quoted);
        assert_eq!(
            clip_quoted(&message, 5),
            "invalid type: string \"\\\"aaa…\", expected u8"
        );
        #[derive(Debug, serde::Deserialize)]
        #[serde(rename_all = "lowercase")]
        enum Level {
            Info,
        }
        let unknown =
            unplaced(serde_json::from_str::<Level>(&format!("\"{long}`, expected x\"")).unwrap_err());
        assert_eq!(
            clip_quoted(&unknown, 5),
            "unknown variant `aaaaa…`, expected `info`"
        );
        let short = "unknown variant `debug`, expected `info`";
        assert!(matches!(clip_quoted(short, 40), Cow::Borrowed(same) if same == short));
        assert_eq!(clip_quoted("missing field `name`", 2), "missing field `name`");
    }

    #[test]
    fn canonical_form_ignores_member_order_and_spacing() {
        let a = RawArguments::from_json(r#"{"b": [1, {"y": 2, "x": 1}], "a": "é"}"#).unwrap();
        let b = RawArguments::from_json(r#"{"a":"é","b":[1,{"x":1,"y":2}]}"#).unwrap();
        assert_eq!(a.canonical(), b.canonical());
        assert_eq!(a.canonical(), r#"{"a":"é","b":[1,{"x":1,"y":2}]}"#);
        assert_eq!(RawArguments::from_json("null").unwrap().canonical(), "{}");
    }
}
