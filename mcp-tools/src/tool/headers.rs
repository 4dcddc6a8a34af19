//! Parameters mirrored into HTTP headers (revision 2026-07-28): a property of the input
//! schema annotated `"x-mcp-header": "Region"` is also sent by clients as the header
//! `Mcp-Param-Region`, so that proxies can route on it without reading the body. The
//! annotations are read from the schema itself, whoever wrote it (`#[header("Region")]`,
//! [`Tool::with_header`](crate::Tool::with_header), a schema given to
//! [`Tool::from_json`](crate::Tool::from_json)), and checked here against every rule of the
//! specification; the HTTP transport checks the headers of each call against them.

use crate::error::HeaderError;
use serde_json::{Map, Value};

/// The schema keyword.
pub(crate) const ANNOTATION: &str = "x-mcp-header";

/// One parameter mirrored into a header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HeaderParam {
    /// The property's path from the root, `properties` key by key.
    pub(crate) path: Vec<String>,
    /// The header's name as the whole header name is written: `Mcp-Param-Region`.
    pub(crate) label: String,
    /// The same, lowercased, as HTTP field names are compared: `mcp-param-region`.
    pub(crate) key: String,
}

impl HeaderParam {
    /// The property's path, as messages name it: `region`, `target.region`.
    pub(crate) fn property(&self) -> String {
        self.path.join(".")
    }
}

/// Reads the header parameters of an input schema, checking each rule: an annotation is a
/// string and a header name (`mcp_toolkit_core::header`), sits on a property reachable from
/// the root through `properties` alone, whose type is a string, an integer or a boolean; no
/// two name one header, ignoring case.
pub(crate) fn scan(schema: &Map<String, Value>) -> Result<Vec<HeaderParam>, HeaderError> {
    let mut found = Vec::new();
    let mut pointer = String::new();
    walk(schema, &mut pointer, Some(&mut Vec::new()), &mut found)?;
    Ok(found)
}

/// Keywords whose value is a map of schemas.
const SCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

/// Keywords whose value is a schema or an array of schemas.
const SCHEMA_VALUES: &[&str] = &[
    "items",
    "prefixItems",
    "additionalItems",
    "contains",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
];

/// Visits one schema at `pointer`; `path` is its property path when it is reachable through
/// `properties` alone (empty for the root).
fn walk(
    schema: &Map<String, Value>,
    pointer: &mut String,
    path: Option<&mut Vec<String>>,
    found: &mut Vec<HeaderParam>,
) -> Result<(), HeaderError> {
    let mut path = path;
    if let Some(value) = schema.get(ANNOTATION) {
        match path.as_deref() {
            Some(path) if !path.is_empty() => {
                let param = param(schema, value, path, found)?;
                found.push(param);
            }
            _ => {
                return Err(HeaderError::Unreachable {
                    pointer: format!("{pointer}/{ANNOTATION}"),
                });
            }
        }
    }
    for (keyword, value) in schema {
        let len = pointer.len();
        if SCHEMA_MAPS.contains(&keyword.as_str()) {
            let Value::Object(members) = value else { continue };
            for (name, member) in members {
                let Value::Object(member) = member else { continue };
                let inner = pointer.len();
                pointer.push('/');
                push_escaped(pointer, keyword);
                pointer.push('/');
                push_escaped(pointer, name);
                match (&mut path, keyword.as_str()) {
                    (Some(path), "properties") => {
                        path.push(name.clone());
                        let walked = walk(member, pointer, Some(&mut **path), found);
                        path.pop();
                        walked?;
                    }
                    _ => walk(member, pointer, None, found)?,
                }
                pointer.truncate(inner);
            }
        } else if SCHEMA_VALUES.contains(&keyword.as_str()) {
            pointer.push('/');
            push_escaped(pointer, keyword);
            match value {
                Value::Object(member) => walk(member, pointer, None, found)?,
                Value::Array(members) => {
                    for (index, member) in members.iter().enumerate() {
                        let Value::Object(member) = member else { continue };
                        let inner = pointer.len();
                        pointer.push_str(&format!("/{index}"));
                        walk(member, pointer, None, found)?;
                        pointer.truncate(inner);
                    }
                }
                _ => {}
            }
        }
        pointer.truncate(len);
    }
    Ok(())
}

/// A JSON pointer's reference token (RFC 6901: `~` as `~0`, `/` as `~1`).
fn push_escaped(pointer: &mut String, token: &str) {
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// The header parameter of an annotated property, once its annotation, its type and its
/// name's uniqueness are checked.
fn param(
    schema: &Map<String, Value>,
    annotation: &Value,
    path: &[String],
    found: &[HeaderParam],
) -> Result<HeaderParam, HeaderError> {
    let property = path.join(".");
    let Value::String(name) = annotation else {
        return Err(HeaderError::NotAName {
            property,
            value: annotation.clone(),
        });
    };
    mcp_toolkit_core::header::check(name).map_err(|error| HeaderError::Name {
        property: property.clone(),
        error,
    })?;
    if !carried(schema.get("type")) {
        return Err(HeaderError::Type {
            property,
            found: schema
                .get("type")
                .map_or_else(|| "none".to_owned(), Value::to_string),
        });
    }
    let label = format!("{}{name}", mcp_toolkit_core::header::PREFIX);
    if let Some(first) = found
        .iter()
        .find(|other| mcp_toolkit_core::header::same(&other.label, &label))
    {
        return Err(HeaderError::Duplicate {
            first: first.property(),
            second: property,
            name: name.clone(),
        });
    }
    Ok(HeaderParam {
        path: path.to_vec(),
        key: label.to_ascii_lowercase(),
        label,
    })
}

/// Whether a `type` is one a header carries: `"string"`, `"integer"` or `"boolean"`,
/// alone or beside `"null"`.
fn carried(kind: Option<&Value>) -> bool {
    let primitive = |kind: &str| matches!(kind, "string" | "integer" | "boolean");
    match kind {
        Some(Value::String(kind)) => primitive(kind),
        Some(Value::Array(kinds)) => {
            let mut others = kinds.iter().filter(|kind| kind.as_str() != Some("null"));
            matches!(
                (others.next(), others.next()),
                (Some(Value::String(kind)), None) if primitive(kind)
            )
        }
        _ => false,
    }
}

/// A type a tool parameter marked `#[header("...")]` may have: one a client can mirror into
/// an HTTP header. Those are text (`String`), integers (`i8` to `i64`, `u8` to `u64`,
/// `isize`, `usize`) and `bool`, and an `Option` of one, for an optional argument. Numbers
/// with a fraction, lists and structs cannot be headers.
///
/// `#[tool]` checks it at the parameter's type, so an alias of one of these types works:
///
/// ```
/// use mcp_toolkit::tool;
///
/// type Region = String;
///
/// /// Today's forecast.
/// #[tool]
/// async fn forecast(
///     /// The region, also sent as the `Mcp-Param-Region` header
///     #[header("Region")] region: Region,
///     /// How many days ahead
///     #[header("Days")] days: Option<u8>,
/// ) -> String {
///     format!("{region}, in {} days: sunny", days.unwrap_or(0))
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be sent as a header",
    label = "not a string, an integer or a boolean",
    note = "a `#[header(\"...\")]` parameter is an argument of type `String`, an integer (`i8` to `i64`, `u8` to `u64`), `bool`, or an `Option` of one: the types a client can mirror into an `Mcp-Param-*` header",
    note = "injected parameters (`Context`, `State<T>`) are not arguments, so they cannot be headers either"
)]
pub trait HeaderArgument {
    /// Generated code reads it to check the bound, at the parameter's type.
    #[doc(hidden)]
    const IS: ();
}

/// The types of [`HeaderArgument`], listed apart so that an error names that trait alone,
/// with its message, rather than every type that implements it.
pub trait HeaderType {}

#[diagnostic::do_not_recommend]
impl<T: HeaderType> HeaderArgument for T {
    const IS: () = ();
}

macro_rules! header_types {
    ($($ty:ty),* $(,)?) => {
        $(
            impl HeaderType for $ty {}
            impl HeaderType for Option<$ty> {}
        )*
    };
}

header_types!(
    String,
    Box<str>,
    std::sync::Arc<str>,
    std::borrow::Cow<'static, str>,
    i8,
    i16,
    i32,
    i64,
    isize,
    u8,
    u16,
    u32,
    u64,
    usize,
    bool,
);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn scanned(schema: Value) -> Result<Vec<HeaderParam>, HeaderError> {
        match schema {
            Value::Object(map) => scan(&map),
            _ => unreachable!("an object schema"),
        }
    }

    #[test]
    fn finds_each_annotated_property_by_its_path() {
        let found = scanned(json!({
            "type": "object",
            "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"},
                "days": {"type": ["integer", "null"], "x-mcp-header": "Days"},
                "target": {"type": "object", "properties": {
                    "dry_run": {"type": "boolean", "x-mcp-header": "Dry-Run"},
                    "x-mcp-header": {"type": "string"}
                }},
                "plain": {"type": "string", "default": {"x-mcp-header": "data, not an annotation"}}
            }
        }))
        .unwrap();
        let found: Vec<(String, &str, &str)> = found
            .iter()
            .map(|p| (p.property(), p.label.as_str(), p.key.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                ("region".to_owned(), "Mcp-Param-Region", "mcp-param-region"),
                ("days".to_owned(), "Mcp-Param-Days", "mcp-param-days"),
                (
                    "target.dry_run".to_owned(),
                    "Mcp-Param-Dry-Run",
                    "mcp-param-dry-run"
                ),
            ]
        );
        assert_eq!(scanned(json!({"type": "object"})), Ok(Vec::new()));
    }

    #[test]
    fn refuses_what_a_client_must_reject() {
        let of = |property: Value| {
            scanned(json!({"type": "object", "properties": {"p": property, "q": {"type": "string", "x-mcp-header": "Q"}}}))
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            of(json!({"type": "number", "x-mcp-header": "P"})),
            "property `p` has an `x-mcp-header` but its type is \"number\"; a header carries a `\"string\"`, an `\"integer\"` or a `\"boolean\"` (and `\"null\"` beside one)"
        );
        for kind in [
            json!(["string", "integer"]),
            json!("object"),
            json!(["null"]),
            json!("array"),
        ] {
            assert!(matches!(
                scanned(json!({"type": "object", "properties": {"p": {"type": kind, "x-mcp-header": "P"}}})),
                Err(HeaderError::Type { .. })
            ));
        }
        assert!(of(json!({"x-mcp-header": "P", "enum": ["a"]})).contains("its type is none"));
        assert_eq!(
            of(json!({"type": "string", "x-mcp-header": "Tenant Id"})),
            "the `x-mcp-header` of property `p`: header name `Tenant Id` contains the character ` ` (a space); a header name is an HTTP token of ASCII letters, digits and ``!#$%&'*+-.^_`|~``"
        );
        assert!(of(json!({"type": "string", "x-mcp-header": ""})).contains("header name is empty"));
        assert_eq!(
            of(json!({"type": "string", "x-mcp-header": 7})),
            "the `x-mcp-header` of property `p` is `7`, not a string; it names the header, such as `\"Region\"` for `Mcp-Param-Region`"
        );
        assert_eq!(
            of(json!({"type": "string", "x-mcp-header": "q"})),
            "properties `p` and `q` are both sent as the header `Mcp-Param-Q` (header names are compared ignoring case); give each its own name"
        );
    }

    #[test]
    fn refuses_annotations_off_the_properties_chain() {
        let cases = [
            (json!({"type": "object", "x-mcp-header": "Root"}), "/x-mcp-header"),
            (
                json!({"type": "object", "properties": {"list": {"type": "array", "items": {"type": "string", "x-mcp-header": "Item"}}}}),
                "/properties/list/items/x-mcp-header",
            ),
            (
                json!({"type": "object", "properties": {"p": {"anyOf": [{"type": "string"}, {"type": "integer", "x-mcp-header": "P"}]}}}),
                "/properties/p/anyOf/1/x-mcp-header",
            ),
            (
                json!({"type": "object", "$defs": {"a/b": {"type": "string", "x-mcp-header": "Def"}}}),
                "/$defs/a~1b/x-mcp-header",
            ),
            (
                json!({"type": "object", "properties": {"o": {"additionalProperties": {"properties": {"z": {"type": "string", "x-mcp-header": "Z"}}}}}}),
                "/properties/o/additionalProperties/properties/z/x-mcp-header",
            ),
        ];
        for (schema, pointer) in cases {
            assert_eq!(
                scanned(schema),
                Err(HeaderError::Unreachable {
                    pointer: pointer.to_owned()
                })
            );
        }
    }
}
