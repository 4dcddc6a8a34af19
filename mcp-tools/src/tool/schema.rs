//! JSON Schemas for tools, shaped for the models that read them: inline, no titles, no
//! Rust-specific formats, `$defs` only where a type is recursive.

use schemars::generate::SchemaSettings;
use schemars::{Schema, SchemaGenerator};
use serde_json::{Map, Value, json};

/// The `format` values JSON Schema defines; others (`int32`, `double`, `uint8`, …) are
/// Rust-specific noise to a model and are dropped.
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// A generator for argument schemas: what a type accepts when deserialized.
pub(crate) fn input_generator() -> SchemaGenerator {
    settings().for_deserialize().into_generator()
}

/// A generator for output schemas: what a type produces when serialized.
pub(crate) fn output_generator() -> SchemaGenerator {
    settings().for_serialize().into_generator()
}

fn settings() -> SchemaSettings {
    SchemaSettings::draft2020_12().with(|s| {
        s.inline_subschemas = true;
        s.meta_schema = None;
    })
}

/// Removes `title`s and non-standard `format`s everywhere in a schema.
pub(crate) fn tidy(value: &mut Value) {
    match value {
        Value::Object(map) => {
            let is_schema_with_title = map.get("title").is_some_and(Value::is_string);
            if is_schema_with_title {
                map.remove("title");
            }
            if map
                .get("format")
                .and_then(Value::as_str)
                .is_some_and(|f| !STANDARD_FORMATS.contains(&f))
            {
                map.remove("format");
            }
            for (key, child) in map.iter_mut() {
                // `properties` and `$defs` map names to schemas: a property may be called
                // `title` or `format`, so descend into its schema, not treat it as a keyword.
                if matches!(
                    key.as_str(),
                    "properties" | "$defs" | "patternProperties" | "dependentSchemas"
                ) {
                    if let Value::Object(named) = child {
                        named.values_mut().for_each(tidy);
                    }
                } else if !matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                    tidy(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(tidy),
        _ => {}
    }
}

/// Takes the generator's definitions (left only by recursive types), tidied.
pub(crate) fn take_defs(generator: &mut SchemaGenerator) -> Option<Map<String, Value>> {
    let mut defs = generator.take_definitions(true);
    if defs.is_empty() {
        return None;
    }
    defs.values_mut().for_each(tidy);
    Some(defs)
}

/// One property of an input schema.
pub(crate) struct Property {
    pub(crate) name: &'static str,
    pub(crate) schema: Value,
    pub(crate) description: Option<&'static str>,
    pub(crate) default: Option<Value>,
    pub(crate) required: bool,
}

/// `{"type":"object","properties":{..},"required":[..],"additionalProperties":false}`,
/// properties in parameter order.
pub(crate) fn object_schema(
    properties: Vec<Property>,
    defs: Option<Map<String, Value>>,
) -> Map<String, Value> {
    let mut root = Map::new();
    root.insert("type".into(), json!("object"));
    let required: Vec<Value> = properties
        .iter()
        .filter(|p| p.required)
        .map(|p| json!(p.name))
        .collect();
    if !properties.is_empty() {
        let mut props = Map::new();
        for property in properties {
            let mut schema = property.schema;
            if let Value::Object(map) = &mut schema {
                if let Some(description) = property.description {
                    map.insert("description".into(), json!(description));
                }
                if let Some(default) = property.default {
                    map.insert("default".into(), default);
                }
            }
            props.insert(property.name.into(), schema);
        }
        root.insert("properties".into(), Value::Object(props));
    }
    if !required.is_empty() {
        root.insert("required".into(), Value::Array(required));
    }
    root.insert("additionalProperties".into(), json!(false));
    if let Some(defs) = defs {
        root.insert("$defs".into(), Value::Object(defs));
    }
    root
}

/// An output schema, tidied, with any `$defs` at its root.
pub(crate) fn output_schema(schema: Schema, generator: &mut SchemaGenerator) -> Value {
    let mut value = schema.to_value();
    tidy(&mut value);
    if let (Some(defs), Value::Object(map)) = (take_defs(generator), &mut value) {
        map.insert("$defs".into(), Value::Object(defs));
    }
    value
}

/// Whether a schema describes only JSON objects (`"type": "object"`).
pub(crate) fn is_object_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// Wraps a non-object output schema as `{"result": schema}`, for the revisions that need an
/// object; `$defs` move to the new root so references still resolve.
pub(crate) fn wrap_output_schema(schema: &Value) -> Value {
    let mut inner = schema.clone();
    let defs = inner.as_object_mut().and_then(|m| m.remove("$defs"));
    let mut wrapped = json!({
        "type": "object",
        "properties": { "result": inner },
        "required": ["result"],
    });
    if let Some(defs) = defs {
        wrapped["$defs"] = defs;
    }
    wrapped
}
