//! Decoding a call's arguments object into a tool's parameters.
//!
//! Each argument is decoded from its own slice of the request (a borrowed `RawValue`), so
//! nothing is copied that only passes through. Every problem is collected, and the error
//! result names each argument, what was expected and what was received, in words a model
//! can act on: no Rust type names, no library URLs.

use super::Invocation;
use super::param::{Kind, LocateFn, Param, SchemaFn};
use super::schema;
use crate::context::Context;
use crate::protocol::arguments::{
    QUOTED_NAME_CHARS, RawArguments, Received, clip, clip_quoted, describe_value,
};
use crate::result::CallToolResult;
use serde_json::Value;
use serde_json::value::RawValue;
use std::fmt::Write as _;

/// The arguments of one call, split by parameter.
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct Arguments<'a> {
    names: &'static [&'static str],
    /// By parameter: the value given for it, and whether it is an argument (not injected).
    slots: Vec<(Option<&'a RawValue>, bool)>,
    unknown: Vec<String>,
    errors: Vec<String>,
    /// An injected parameter that failed with an internal error: its name and the detail,
    /// which is the server's to log and no client's to read.
    internal: Option<(&'static str, String)>,
    /// Whose arguments these are.
    of: Of,
}

/// Whose arguments are decoded: a tool's (and a custom method's params) are JSON values; a
/// prompt's are all strings on the wire, and a parameter that is not a string reads the
/// string's text as JSON (`"3"` is 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Of {
    Tool,
    Prompt,
    Method,
}

impl Of {
    fn noun(self) -> &'static str {
        match self {
            Of::Tool => "tool",
            Of::Prompt => "prompt",
            Of::Method => "method",
        }
    }
}

/// Why a call's arguments were refused: every problem, for the client; or an injected
/// parameter's internal error, for the server's log.
pub(crate) enum Refusal {
    Problems(String),
    Internal(String),
}

impl<'a> Arguments<'a> {
    /// Matches a call's arguments to the tool's parameters; anything but an object (or
    /// nothing, or `null`) fails the call.
    pub fn parse(raw: RawArguments<'a>, names: &'static [&'static str]) -> Result<Arguments<'a>, Invocation> {
        Arguments::split(raw, names, Of::Tool)
            .map_err(|problem| Invocation::Ready(CallToolResult::error(problem)))
    }

    /// Matches arguments to parameters; `Err` says why they are not an object.
    pub(crate) fn split(
        raw: RawArguments<'a>,
        names: &'static [&'static str],
        of: Of,
    ) -> Result<Arguments<'a>, String> {
        let mut args = Arguments {
            names,
            // Not `vec![..; n]`: an all-zero element makes that a `calloc`, which glibc
            // serves five times slower than `malloc` for a few slots.
            slots: std::iter::repeat_n((None, false), names.len()).collect(),
            unknown: Vec::new(),
            errors: Vec::new(),
            internal: None,
            of,
        };
        let entries = match raw.into_received() {
            Received::Nothing => return Ok(args),
            Received::Object(entries) => entries,
            Received::Other(value) => {
                let example = names
                    .iter()
                    .map(|n| format!("\"{n}\": ..."))
                    .collect::<Vec<_>>()
                    .join(", ");
                return Err(format!(
                    "the arguments must be a JSON object such as {{{example}}}; received {}",
                    describe_value(&value)
                ));
            }
        };
        for (key, value) in entries {
            match names.iter().position(|n| *n == key) {
                Some(index) if args.slots[index].0.is_some() => {
                    args.errors
                        .push(format!("argument `{key}` is given twice; give it once"));
                }
                Some(index) => args.slots[index].0 = Some(value),
                None => args.unknown.push(key.into_owned()),
            }
        }
        Ok(args)
    }

    /// Fills parameter `index`; `None` when that failed (the reason is kept for the error).
    ///
    /// Only what needs `T` is here; the rest is in the methods below, which are not generic,
    /// so a server crate compiles little for each of its parameter types.
    pub fn take<T>(&mut self, index: usize, param: Param<T>, cx: &Context) -> Option<T> {
        match param.kind {
            Kind::Injected { extract, .. } => extract(cx)
                .map_err(|error| self.injected_failed(index, error))
                .ok(),
            Kind::Argument(argument) => match self.argument(index) {
                Some(raw) => match (argument.decode)(raw.get()) {
                    Ok(value) => Some(value),
                    Err(error) => self
                        .reread(raw, cx)
                        .and_then(|text| (argument.decode)(&text).ok())
                        .or_else(|| {
                            self.refused(index, raw, argument.schema, argument.locate, &error);
                            None
                        }),
                },
                None => match argument.absent {
                    Some(absent) => Some(absent()),
                    None => {
                        self.missing(index, argument.schema);
                        None
                    }
                },
            },
        }
    }

    /// Parameter `index` is an argument: what was given for it.
    fn argument(&mut self, index: usize) -> Option<&'a RawValue> {
        let (given, is_argument) = &mut self.slots[index];
        *is_argument = true;
        *given
    }

    /// An injected parameter failed.
    fn injected_failed(&mut self, index: usize, error: crate::error::ToolError) {
        if error.is_internal() {
            self.internal
                .get_or_insert((self.names[index], error.message().to_owned()));
        } else {
            self.errors.push(error.message().to_owned());
        }
    }

    /// The text to decode again when an argument's parameter refused it: with lenient
    /// arguments, a string holding a JSON object or array; for a prompt (whose arguments are
    /// all strings on the wire), any string, so `"3"` reads as a number and `"true"` as a
    /// boolean. `None` when there is nothing to try.
    fn reread(&self, raw: &RawValue, cx: &Context) -> Option<String> {
        if !raw.get().starts_with('"') {
            return None;
        }
        let text: String = serde_json::from_str(raw.get()).ok()?;
        let holds_json = matches!(text.trim_start().as_bytes().first(), Some(b'{' | b'['));
        (self.of == Of::Prompt || (cx.lenient_arguments() && holds_json)).then_some(text)
    }

    /// Argument `index` was refused by its parameter: says why.
    fn refused(
        &mut self,
        index: usize,
        raw: &RawValue,
        schema: SchemaFn,
        locate: LocateFn,
        error: &serde_json::Error,
    ) {
        let problem = describe_decode_error(self.names[index], raw, schema, locate, error);
        self.errors.push(problem);
    }

    /// Required argument `index` was left out: says what it takes.
    fn missing(&mut self, index: usize, schema: SchemaFn) {
        let expected = describe_schema(&argument_schema(schema), None, 0);
        let name = self.names[index];
        self.errors
            .push(format!("argument `{name}` is missing: expected {expected}"));
    }

    /// Checks for arguments no parameter took; `Err` when anything failed.
    pub fn finish(&mut self) -> Result<(), Rejected> {
        let mut unknown = std::mem::take(&mut self.unknown);
        for (index, (slot, is_argument)) in self.slots.iter().enumerate() {
            // A key named like an injected parameter is not an argument either.
            if slot.is_some() && !is_argument {
                unknown.push(self.names[index].to_owned());
            }
        }
        if !unknown.is_empty() {
            let accepted: Vec<String> = self
                .names
                .iter()
                .zip(&self.slots)
                .filter(|(_, (_, is_argument))| *is_argument)
                .map(|(name, _)| format!("`{name}`"))
                .collect();
            let accepted = if accepted.is_empty() {
                format!("this {} takes no arguments", self.of.noun())
            } else {
                format!("the accepted arguments are {}", accepted.join(", "))
            };
            for name in unknown {
                let name = clip(&name, QUOTED_NAME_CHARS);
                self.errors
                    .push(format!("argument `{name}` is not accepted; {accepted}"));
            }
        }
        if self.errors.is_empty() && self.internal.is_none() {
            Ok(())
        } else {
            Err(Rejected)
        }
    }

    /// The failed call's result: every problem, one per line; or, when an injected
    /// parameter failed with an internal error, that error (masked for the client and
    /// logged, as every internal error is).
    pub fn into_failure(self) -> Invocation {
        Invocation::Ready(match self.into_refusal() {
            Refusal::Internal(detail) => CallToolResult::internal(detail),
            Refusal::Problems(message) => CallToolResult::error(message),
        })
    }

    /// Why the arguments were refused.
    pub(crate) fn into_refusal(self) -> Refusal {
        if let Some((param, detail)) = self.internal {
            return Refusal::Internal(format!("filling in parameter `{param}` failed: {detail}"));
        }
        Refusal::Problems(match self.errors.as_slice() {
            [] => "internal error".to_owned(),
            [one] => one.clone(),
            many => format!("{} problems with the arguments:\n{}", many.len(), many.join("\n")),
        })
    }
}

/// Some argument was bad; [`Arguments::into_failure`] says which.
#[derive(Debug)]
pub struct Rejected;

// What follows takes the parameter's functions rather than its `Argument<T>`: not being
// generic, it is compiled once here, not for every parameter type in every server crate.

fn argument_schema(schema: SchemaFn) -> Value {
    let mut generator = schema::input_generator();
    let mut value = schema(&mut generator).to_value();
    schema::tidy(&mut value);
    if let (Some(defs), Value::Object(map)) = (schema::take_defs(&mut generator), &mut value) {
        map.insert("$defs".into(), Value::Object(defs));
    }
    value
}

/// `argument `a`: expected a number, received the string "x"`, with a path into nested
/// values (`argument `filter.tags[1]`: ...`).
fn describe_decode_error(
    name: &str,
    raw: &RawValue,
    schema: SchemaFn,
    locate: LocateFn,
    error: &serde_json::Error,
) -> String {
    let root = argument_schema(schema);
    // A value too deep to read whole is described by its kind.
    let value: Value =
        serde_json::from_str(raw.get()).unwrap_or_else(|_| match raw.get().as_bytes().first() {
            Some(b'[') => Value::Array(vec![Value::Null]),
            Some(b'{') => Value::Object(serde_json::Map::from_iter([(String::new(), Value::Null)])),
            _ => Value::Null,
        });
    let (path, message) = match locate(raw.get()) {
        Some(located) => (
            located.path().iter().cloned().collect::<Vec<_>>(),
            strip_position(&located.inner().to_string()),
        ),
        None => (Vec::new(), strip_position(&error.to_string())),
    };
    let mut label = name.to_owned();
    let mut schema = Some(&root);
    let mut at = Some(&value);
    for segment in &path {
        use serde_path_to_error::Segment;
        match segment {
            Segment::Map { key } => {
                let _ = write!(label, ".{key}");
                schema = schema.and_then(|s| property_schema(s, &root, key));
                at = at.and_then(|v| v.get(key));
            }
            Segment::Seq { index } => {
                let _ = write!(label, "[{index}]");
                schema = schema.and_then(|s| resolve(s, &root).get("items"));
                at = at.and_then(|v| v.get(index));
            }
            Segment::Enum { .. } | Segment::Unknown => {}
        }
    }
    let label = clip(&label, QUOTED_NAME_CHARS);
    // serde's wording for "this is the wrong kind of value"; serde_json says a bare
    // `expected value` when an enum is given something that is not a string or object.
    let is_type_mismatch = [
        "invalid type:",
        "invalid value:",
        "unknown variant",
        "invalid length",
        "expected value",
    ]
    .iter()
    .any(|p| message.starts_with(p));
    if let (true, Some(schema), Some(at)) = (is_type_mismatch, schema, at) {
        let expected = describe_schema(schema, Some(&root), 0);
        return format!(
            "argument `{label}`: expected {expected}, received {}",
            describe_value(at)
        );
    }
    if let Some(field) = message
        .strip_prefix("missing field `")
        .and_then(|m| m.strip_suffix('`'))
    {
        let expected = schema
            .and_then(|s| property_schema(s, &root, field))
            .map(|s| format!(": expected {}", describe_schema(s, Some(&root), 0)))
            .unwrap_or_default();
        return format!("argument `{label}` is missing the field `{field}`{expected}");
    }
    format!("argument `{label}`: {message}")
}

/// serde_json appends ` at line 1 column 7`; the position in a one-argument slice means
/// nothing to a model. A value of the client's that serde quotes is cut.
fn strip_position(message: &str) -> String {
    let message = message
        .rfind(" at line ")
        .map_or(message, |index| &message[..index]);
    clip_quoted(message, QUOTED_NAME_CHARS).into_owned()
}

fn resolve<'s>(schema: &'s Value, root: &'s Value) -> &'s Value {
    let target = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"))
        .and_then(|name| root.get("$defs")?.get(name));
    target.unwrap_or(schema)
}

fn property_schema<'s>(schema: &'s Value, root: &'s Value, key: &str) -> Option<&'s Value> {
    let schema = resolve(schema, root);
    if let Some(found) = schema.get("properties").and_then(|p| p.get(key)) {
        return Some(found);
    }
    ["oneOf", "anyOf", "allOf"].iter().find_map(|k| {
        schema
            .get(*k)?
            .as_array()?
            .iter()
            .find_map(|alt| property_schema(alt, root, key))
    })
}

/// What a schema accepts, in words: `a number`, `one of "add", "subtract"`,
/// `an integer from 0 to 255`, `an array of strings`.
pub(crate) fn describe_schema(schema: &Value, root: Option<&Value>, depth: usize) -> String {
    let schema = match root {
        Some(root) => resolve(schema, root),
        None => schema,
    };
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return one_of(values);
    }
    if let Some(value) = schema.get("const") {
        return format!("the value {value}");
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(alternatives) = schema.get(key).and_then(Value::as_array) {
            let consts: Option<Vec<Value>> = alternatives.iter().map(|a| a.get("const").cloned()).collect();
            if let Some(consts) = consts {
                return one_of(&consts);
            }
            let mut described: Vec<String> = Vec::new();
            for alternative in alternatives {
                let text = describe_schema(alternative, root, depth + 1);
                if !described.contains(&text) {
                    described.push(text);
                }
            }
            return described.join(" or ");
        }
    }
    match schema.get("type") {
        Some(Value::String(t)) => describe_type(t, schema, root, depth),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .map(|t| describe_type(t, schema, root, depth))
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "any JSON value".to_owned(),
    }
}

fn describe_type(t: &str, schema: &Value, root: Option<&Value>, depth: usize) -> String {
    match t {
        "string" => match schema.get("format").and_then(Value::as_str) {
            Some(format) => format!("a string in `{format}` format"),
            None => "a string".to_owned(),
        },
        "integer" => format!("an integer{}", range(schema)),
        "number" => format!("a number{}", range(schema)),
        "boolean" => "true or false".to_owned(),
        "null" => "null".to_owned(),
        "array" => match schema.get("items") {
            Some(items) if depth < 2 => {
                format!("an array of {}", plural(&describe_schema(items, root, depth + 1)))
            }
            _ => "an array".to_owned(),
        },
        "object" => match schema.get("properties").and_then(Value::as_object) {
            Some(props) if !props.is_empty() => {
                let fields: Vec<String> = props.keys().map(|k| format!("`{k}`")).collect();
                format!("an object with the fields {}", fields.join(", "))
            }
            _ => "an object".to_owned(),
        },
        other => format!("a value of type `{other}`"),
    }
}

fn range(schema: &Value) -> String {
    let min = schema.get("minimum").or_else(|| schema.get("exclusiveMinimum"));
    let max = schema.get("maximum").or_else(|| schema.get("exclusiveMaximum"));
    match (min, max) {
        (Some(min), Some(max)) => format!(" from {min} to {max}"),
        (Some(min), None) => format!(" of at least {min}"),
        (None, Some(max)) => format!(" of at most {max}"),
        (None, None) => String::new(),
    }
}

fn one_of(values: &[Value]) -> String {
    let listed: Vec<String> = values.iter().map(Value::to_string).collect();
    match listed.as_slice() {
        [one] => format!("the value {one}"),
        _ => format!("one of {}", listed.join(", ")),
    }
}

/// `a string` → `strings`, for `an array of strings`.
fn plural(described: &str) -> String {
    let bare = described
        .strip_prefix("an ")
        .or_else(|| described.strip_prefix("a "));
    match bare {
        Some(rest) => match rest.split_once(' ') {
            Some((noun, tail)) => format!("{noun}s {tail}"),
            None => format!("{rest}s"),
        },
        None => format!("values that are {described}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn describes_schemas_in_words() {
        let cases = [
            (json!({"type": "number"}), "a number"),
            (
                json!({"type": "integer", "minimum": 0, "maximum": 255}),
                "an integer from 0 to 255",
            ),
            (
                json!({"type": "integer", "minimum": 0}),
                "an integer of at least 0",
            ),
            (
                json!({"type": "string", "enum": ["add", "subtract"]}),
                "one of \"add\", \"subtract\"",
            ),
            (json!({"type": ["string", "null"]}), "a string or null"),
            (
                json!({"type": "array", "items": {"type": "string"}}),
                "an array of strings",
            ),
            (
                json!({"type": "array", "items": {"type": "integer", "minimum": 0}}),
                "an array of integers of at least 0",
            ),
            (
                json!({"oneOf": [{"const": "a"}, {"const": "b"}]}),
                "one of \"a\", \"b\"",
            ),
            (
                json!({"type": "object", "properties": {"x": {}, "y": {}}}),
                "an object with the fields `x`, `y`",
            ),
            (json!({"type": "boolean"}), "true or false"),
            (json!(true), "any JSON value"),
        ];
        for (schema, expected) in cases {
            assert_eq!(describe_schema(&schema, None, 0), expected, "{schema}");
        }
    }

    #[test]
    fn describes_values_in_words() {
        assert_eq!(describe_value(&json!("x")), "the string \"x\"");
        assert_eq!(describe_value(&json!(1.5)), "the number 1.5");
        assert_eq!(describe_value(&json!([1])), "an array");
        assert_eq!(describe_value(&json!({})), "an empty object");
        assert_eq!(
            describe_value(&json!("a".repeat(50))),
            format!("the string \"{}\"…", "a".repeat(40))
        );
    }

    #[test]
    fn strips_positions() {
        assert_eq!(
            strip_position("invalid type: string \"x\", expected f64 at line 1 column 3"),
            "invalid type: string \"x\", expected f64"
        );
        assert_eq!(strip_position("custom"), "custom");
    }
}
