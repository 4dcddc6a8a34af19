//! Elicitation forms: the restricted JSON Schema a client renders as a form
//! (`ElicitRequestFormParams.requestedSchema`), made from a Rust type's schemars schema,
//! and the checks on the content the user sends back.
//!
//! A form is flat. Each field is one of the spec's `PrimitiveSchemaDefinition`s:
//!
//! | Rust field                                  | form field                                     |
//! |---------------------------------------------|------------------------------------------------|
//! | `String`, `char`                            | `StringSchema`                                 |
//! | `f32`, `f64`                                | `NumberSchema`, `"type": "number"`             |
//! | `u8` … `i128`, `usize`, `isize`             | `NumberSchema`, `"type": "integer"`            |
//! | `bool`                                      | `BooleanSchema`                                |
//! | unit-only enum                              | `UntitledSingleSelectEnumSchema`               |
//! | unit-only enum, a variant documented        | `TitledSingleSelectEnumSchema`                 |
//! | `Vec`, `HashSet`, `BTreeSet` of such enums  | `UntitledMultiSelectEnumSchema` or `Titled…`   |
//! | `Option<X>`                                 | X, not required                                |
//!
//! A field's doc comment is its description; a field without one takes its type's (an
//! enum's doc comment, say). `#[schemars(title = ..)]` is its title, `#[serde(default)]`
//! its default, and `rename`, `rename_all` its name.
//!
//! Where the spec leaves a choice, this module takes the one below.
//!
//! - **Keywords outside the subset are dropped, not refused**: a string `format` other
//!   than `email`, `uri`, `date` and `date-time` (`uuid`, `ipv4`, …), `pattern`,
//!   `uniqueItems`, `exclusiveMinimum`, `multipleOf` and the like. The form then asks for
//!   less than the type's schema says; the content is still decoded into the type, which
//!   enforces what serde enforces.
//! - **A default the field would reject is dropped**: `null` (from `Option`), or a value
//!   outside the field's own bounds, such as `0` for a field whose minimum is `1`.
//! - **Choices keep schemars' order**: when some variants of an enum are documented,
//!   schemars lists the undocumented ones first, in one group; the form lists them so.
//! - **A choice's label** is the variant's `#[schemars(title = …)]`, else its doc
//!   comment, else its name as sent.
//! - **Content values may not be `null`**: `ElicitResult.content` holds strings, integers,
//!   booleans and lists of strings. A field the user left empty is absent, not `null`.
//! - **A number field takes any JSON number**, though `ElicitResult.content` lists only
//!   integers: `NumberSchema` allows `"type": "number"`, whose answers are not all whole.

use mcp_toolkit_core::date_time;
use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::any::TypeId;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock, RwLock};

/// What a form field may be, said in every refusal of a field.
const ACCEPTED: &str = "a form field must be a string, number, integer, boolean, or an enum of strings \
                        (single, or a Vec of them for multi-select)";

/// The string `format`s a form may carry (`StringSchema.format`).
const FORM_FORMATS: &[&str] = &["email", "uri", "date", "date-time"];

/// Why a type cannot be asked for as a form.
///
/// It names the first field that cannot be a form field, in declaration order; once that
/// field is fixed, the next one (if any) is reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FormError {
    /// The field that cannot be a form field, by its name on the wire (after `rename`);
    /// `None` when the type as a whole cannot be a form.
    pub(crate) field: Option<String>,
    /// What is wrong, then what is accepted.
    pub(crate) reason: String,
}

impl fmt::Display for FormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "field `{field}`: {}", self.reason),
            None => f.write_str(&self.reason),
        }
    }
}

impl std::error::Error for FormError {}

/// Content that does not fit the form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ContentError {
    /// The field whose value does not fit, by its name in the content (a path such as
    /// `tags[1]` when decoding fails inside a list); `None` when the content as a whole
    /// does not fit.
    pub(crate) field: Option<String>,
    /// What was expected, then what was received.
    pub(crate) reason: String,
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "field `{field}`: {}", self.reason),
            None => f.write_str(&self.reason),
        }
    }
}

impl std::error::Error for ContentError {}

/// The `requestedSchema` of a form asking for a `T`, or why a `T` cannot be a form.
///
/// The schema is generated as for a tool's arguments (JSON Schema 2020-12, subschemas
/// inlined, no `$schema`, what `T` accepts when deserialized), then passed to
/// [`restrict`].
pub(crate) fn requested_schema<T: JsonSchema>() -> Result<Value, FormError> {
    let generator = SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .for_deserialize()
        .into_generator();
    restrict(generator.into_root_schema_for::<T>().as_value())
}

/// [`requested_schema`], made once per type and kept: an ask sends the same form every
/// time, and generating it costs more than the rest of a round.
pub(crate) fn requested_schema_of<T: JsonSchema + 'static>() -> Result<Arc<Value>, FormError> {
    type Forms = RwLock<HashMap<TypeId, Result<Arc<Value>, FormError>>>;
    static FORMS: OnceLock<Forms> = OnceLock::new();
    let forms = FORMS.get_or_init(Forms::default);
    let key = TypeId::of::<T>();
    if let Some(made) = forms.read().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return made.clone();
    }
    let made = requested_schema::<T>().map(Arc::new);
    let mut forms = forms.write().unwrap_or_else(|e| e.into_inner());
    forms.entry(key).or_insert(made).clone()
}

/// Turns a struct's JSON Schema into a form's `requestedSchema`:
/// `{"type": "object", "properties": {..}, "required": [..]}`, properties in the order
/// given, `required` left out when empty. The struct's own title and description are
/// left out: the form's message says what it is for.
pub(crate) fn restrict(schema: &Value) -> Result<Value, FormError> {
    let kind = Kind::of(schema);
    let root = match (&kind, schema) {
        (Kind::Struct, Value::Object(root)) => root,
        (Kind::Map, Value::Object(root)) if root.contains_key("properties") => {
            return Err(FormError {
                field: None,
                reason: "a form must be a struct with named fields only, but this struct also takes \
                         keys of any name (a `#[serde(flatten)]` map)"
                    .into(),
            });
        }
        _ => {
            return Err(FormError {
                field: None,
                reason: format!(
                    "a form must be a struct with named fields, but this type is {}",
                    kind.singular()
                ),
            });
        }
    };
    let no_properties = Map::new();
    let properties = match root.get("properties") {
        Some(Value::Object(properties)) => properties,
        _ => &no_properties,
    };
    let required: Vec<&str> = root
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();

    let mut fields = Map::new();
    for (name, schema) in properties {
        let field = form_field(schema).map_err(|reason| FormError {
            field: Some(name.clone()),
            reason,
        })?;
        fields.insert(name.clone(), Value::Object(field));
    }
    // In property order, each name once (`#[serde(flatten)]` can repeat one).
    let required: Vec<Value> = properties
        .keys()
        .filter(|name| required.contains(&name.as_str()))
        .map(|name| Value::String(name.clone()))
        .collect();

    let mut form = Map::new();
    form.insert("type".into(), "object".into());
    form.insert("properties".into(), Value::Object(fields));
    if !required.is_empty() {
        form.insert("required".into(), Value::Array(required));
    }
    Ok(Value::Object(form))
}

/// Checks the `content` of an accepted `ElicitResult` against the `requestedSchema` it
/// answers: an object holding every required field, each present field fitting its
/// schema. Fields the form does not ask for are ignored: a client may add its own.
/// Fields are checked in form order, and the first that does not fit is reported.
pub(crate) fn check_content(requested: &Value, content: &Value) -> Result<(), ContentError> {
    let Value::Object(values) = content else {
        return Err(ContentError {
            field: None,
            reason: format!(
                "expected the content to be an object of field values, received {}",
                received(content)
            ),
        });
    };
    let required: Vec<&str> = requested
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let no_properties = Map::new();
    let properties = requested
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&no_properties);
    for (name, field) in properties {
        let unfit = |reason| ContentError {
            field: Some(name.clone()),
            reason,
        };
        match values.get(name) {
            Some(value) => match field {
                Value::Object(field) => check_value(field, value).map_err(unfit)?,
                _ => {
                    return Err(unfit(
                        "the form gives this field no schema to check against".into(),
                    ));
                }
            },
            None if required.contains(&name.as_str()) => {
                return Err(unfit("missing, but the form requires it".into()));
            }
            None => {}
        }
    }
    Ok(())
}

/// Decodes checked content into a `T`, naming the field that does not decode.
///
/// A whole number sent as a float (`5.0`) is first made an integer (`5`), as
/// [`check_content`] accepts it for an integer field and serde would not decode it into
/// one. With `#[serde(deny_unknown_fields)]` on `T`, a field the client added and the
/// form did not ask for fails here.
pub(crate) fn decode<T: DeserializeOwned>(mut content: Value) -> Result<T, ContentError> {
    if let Value::Object(values) = &mut content {
        values.values_mut().for_each(whole_float_to_integer);
    }
    serde_path_to_error::deserialize(content).map_err(|error| {
        let field = error.path().iter().next().map(|_| error.path().to_string());
        ContentError {
            field,
            reason: error.into_inner().to_string(),
        }
    })
}

/// Replaces a float with no fraction, small enough to be exact (below 2^53), by the
/// same integer.
fn whole_float_to_integer(value: &mut Value) {
    /// 2^53: beyond it, not every integer is a float.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if let Some(float) = value.as_f64().filter(|_| value.is_f64())
        && float.fract() == 0.0
        && float.abs() < EXACT
    {
        // Exact: the float is a whole number of magnitude below 2^53.
        *value = Value::from(float as i64);
    }
}

/// What a schema describes, as far as a form cares.
enum Kind {
    /// `true` or `{}`: any JSON value (`serde_json::Value`).
    Any,
    /// `false`: no value at all.
    Nothing,
    /// `"type": "null"`: `()`, a unit struct.
    Null,
    /// `"type": "string"` without a fixed set of values.
    String,
    /// `"type": "number"`.
    Number,
    /// `"type": "integer"`.
    Integer,
    /// `"type": "boolean"`.
    Boolean,
    /// A fixed set of strings: a unit-only enum.
    Choices(Vec<Choice>),
    /// A fixed set of values, not all of them strings.
    OtherEnum,
    /// `oneOf` whose branches are not all strings: an enum with data-carrying variants.
    DataEnum,
    /// `anyOf`: an untagged enum, say.
    Union,
    /// `allOf`.
    Combined,
    /// `$ref`: left by a type that contains itself.
    Recursive,
    /// An object with named properties.
    Struct,
    /// An object with keys of any name.
    Map,
    /// An array of fixed length whose items have their own schemas.
    Tuple,
    /// An array whose items share one schema, of this kind.
    List(Box<Kind>),
    /// `"type": [..]` naming several types.
    Several,
    /// Anything else.
    Unknown,
}

/// One value of a fixed set of strings, with its label if it has one: a select's option,
/// as the form offers it and as the command line's terminal asks for it.
pub(crate) struct Choice {
    /// The value sent.
    pub(crate) value: String,
    /// The label shown, if the schema gives one.
    pub(crate) title: Option<String>,
}

impl Kind {
    /// The kind of `schema`.
    fn of(schema: &Value) -> Kind {
        let map = match schema {
            Value::Bool(true) => return Kind::Any,
            Value::Bool(false) => return Kind::Nothing,
            Value::Object(map) => map,
            _ => return Kind::Unknown,
        };
        if map.contains_key("$ref") {
            return Kind::Recursive;
        }
        if let Some(choices) = choices(map) {
            return Kind::Choices(choices);
        }
        if map.contains_key("enum") || map.contains_key("const") {
            return Kind::OtherEnum;
        }
        if map.contains_key("oneOf") {
            return Kind::DataEnum;
        }
        if map.contains_key("anyOf") {
            return Kind::Union;
        }
        if map.contains_key("allOf") {
            return Kind::Combined;
        }
        match map.get("type") {
            Some(Value::String(name)) => match name.as_str() {
                "string" => Kind::String,
                "number" => Kind::Number,
                "integer" => Kind::Integer,
                "boolean" => Kind::Boolean,
                "null" => Kind::Null,
                "object" => {
                    let open = |key| map.get(key).is_some_and(|extra| *extra != Value::Bool(false));
                    if open("additionalProperties") || open("patternProperties") {
                        Kind::Map
                    } else {
                        Kind::Struct
                    }
                }
                "array" if map.contains_key("prefixItems") => Kind::Tuple,
                "array" => Kind::List(Box::new(map.get("items").map_or(Kind::Any, Kind::of))),
                _ => Kind::Unknown,
            },
            Some(Value::Array(_)) => Kind::Several,
            Some(_) => Kind::Unknown,
            None => Kind::Any,
        }
    }

    /// One of this kind, as a noun phrase: "a nested struct".
    fn singular(&self) -> String {
        match self {
            Kind::Any => "an arbitrary JSON value (`serde_json::Value`)".into(),
            Kind::Nothing => "a type with no values".into(),
            Kind::Null => "null (`()` or a unit struct)".into(),
            Kind::String => "a string".into(),
            Kind::Number => "a number".into(),
            Kind::Integer => "an integer".into(),
            Kind::Boolean => "a boolean".into(),
            Kind::Choices(_) => "an enum of strings".into(),
            Kind::OtherEnum => "an enum of values that are not all strings".into(),
            Kind::DataEnum => "an enum with data-carrying variants".into(),
            Kind::Union => "a choice between several shapes (an untagged enum)".into(),
            Kind::Combined => "a combination of schemas (`allOf`)".into(),
            Kind::Recursive => "a recursive type".into(),
            Kind::Struct => "a nested struct".into(),
            Kind::Map => "a map".into(),
            Kind::Tuple => "a tuple".into(),
            Kind::List(items) => format!("a list of {}", items.plural()),
            Kind::Several => "a value of several types".into(),
            Kind::Unknown => "a schema outside the form subset".into(),
        }
    }

    /// Several of this kind, as a noun phrase: "nested structs".
    fn plural(&self) -> String {
        match self {
            Kind::Any => "arbitrary JSON values".into(),
            Kind::Nothing => "types with no values".into(),
            Kind::Null => "nulls".into(),
            Kind::String => "free-text strings".into(),
            Kind::Number => "numbers".into(),
            Kind::Integer => "integers".into(),
            Kind::Boolean => "booleans".into(),
            Kind::Choices(_) => "enums of strings".into(),
            Kind::OtherEnum => "enums of values that are not all strings".into(),
            Kind::DataEnum => "enums with data-carrying variants".into(),
            Kind::Union => "untagged enums".into(),
            Kind::Combined => "combinations of schemas (`allOf`)".into(),
            Kind::Recursive => "recursive types".into(),
            Kind::Struct => "structs".into(),
            Kind::Map => "maps".into(),
            Kind::Tuple => "tuples".into(),
            Kind::List(_) => "lists".into(),
            Kind::Several => "values of several types".into(),
            Kind::Unknown => "values outside the form subset".into(),
        }
    }
}

/// The choices of a schema that is a fixed set of strings, in every spelling a form or a
/// client uses: `enum` (labelled by the legacy `enumNames` when it gives one string per
/// value), `const`, or `oneOf`/`anyOf` whose branches each are a `const` (labelled by its
/// `title`, else its `description`) or such a set themselves. `None` for any other schema.
pub(crate) fn choices(map: &Map<String, Value>) -> Option<Vec<Choice>> {
    if map.get("type").is_some_and(|name| name != "string") {
        return None;
    }
    if let Some(values) = map.get("enum") {
        let values = values.as_array()?;
        let names = map
            .get("enumNames")
            .and_then(Value::as_array)
            .filter(|names| names.len() == values.len() && names.iter().all(Value::is_string));
        let choice = |(at, value): (usize, &Value)| {
            Some(Choice {
                value: value.as_str()?.to_owned(),
                title: names.and_then(|names| names[at].as_str()).map(str::to_owned),
            })
        };
        return values.iter().enumerate().map(choice).collect();
    }
    if let Some(value) = map.get("const") {
        let value = value.as_str()?.to_owned();
        return Some(vec![Choice { value, title: None }]);
    }
    let branches = ["oneOf", "anyOf"].iter().find_map(|key| map.get(*key))?;
    let mut choices = Vec::new();
    for branch in branches.as_array()? {
        let branch = branch.as_object()?;
        if let Some(value) = branch.get("const") {
            if branch.get("type").is_some_and(|name| name != "string") {
                return None;
            }
            let label = branch.get("title").or_else(|| branch.get("description"));
            choices.push(Choice {
                value: value.as_str()?.to_owned(),
                title: label.and_then(Value::as_str).map(str::to_owned),
            });
        } else {
            choices.extend(self::choices(branch)?);
        }
    }
    Some(choices)
}

/// Whether `schema` allows only `null`.
fn is_null(schema: &Value) -> bool {
    schema.get("type").is_some_and(|name| name == "null")
        || schema.get("const").is_some_and(Value::is_null)
        || schema
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|values| values.iter().all(Value::is_null))
}

/// `schema` without the `null` that `Option` adds: from `"type": [X, "null"]` (and an
/// `enum` listing `null`), or from an `anyOf` or `oneOf` branch. A single branch left is
/// merged into the outer schema, whose own keywords (the field's description, its
/// default) win.
fn without_null(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut map = map.clone();
    if let Some(Value::Array(types)) = map.get_mut("type")
        && types.len() > 1
    {
        types.retain(|name| name != "null");
        if let [only] = types.as_slice() {
            let only = only.clone();
            map.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(values)) = map.get_mut("enum")
        && values.iter().any(|value| !value.is_null())
    {
        values.retain(|value| !value.is_null());
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = map.get_mut(key) else {
            continue;
        };
        let before = branches.len();
        branches.retain(|branch| !is_null(branch));
        if branches.len() < before
            && let [Value::Object(only)] = branches.as_slice()
        {
            let only = only.clone();
            map.remove(key);
            for (keyword, value) in only {
                map.entry(keyword).or_insert(value);
            }
        }
    }
    Value::Object(map)
}

/// The `PrimitiveSchemaDefinition` for one field, or why it cannot be one.
fn form_field(schema: &Value) -> Result<Map<String, Value>, String> {
    let schema = without_null(schema);
    let kind = Kind::of(&schema);
    let refuse = |kind: &Kind| format!("{} cannot be a form field; {ACCEPTED}", kind.singular());
    let Value::Object(map) = &schema else {
        return Err(refuse(&kind));
    };
    let mut field = Map::new();
    let copy = |field: &mut Map<String, Value>, keywords: &[&str], fits: fn(&Value) -> bool| {
        for &keyword in keywords {
            if let Some(value) = map.get(keyword).filter(|value| fits(value)) {
                field.insert(keyword.into(), value.clone());
            }
        }
    };
    let type_name = match &kind {
        Kind::String | Kind::Choices(_) => "string",
        Kind::Number => "number",
        Kind::Integer => "integer",
        Kind::Boolean => "boolean",
        Kind::List(items) if matches!(**items, Kind::Choices(_)) => "array",
        _ => return Err(refuse(&kind)),
    };
    field.insert("type".into(), type_name.into());
    copy(&mut field, &["title", "description"], Value::is_string);
    match &kind {
        Kind::String => {
            copy(&mut field, &["minLength", "maxLength"], Value::is_u64);
            copy(&mut field, &["format"], |format| {
                format
                    .as_str()
                    .is_some_and(|format| FORM_FORMATS.contains(&format))
            });
        }
        Kind::Number | Kind::Integer => copy(&mut field, &["minimum", "maximum"], Value::is_number),
        // An `enum` labelled by the deprecated `enumNames`, one per choice
        // (`#[schemars(extend("enumNames" = [..]))]`), stays so, for clients that read them.
        Kind::Choices(choices) if map.contains_key("enumNames") && map.contains_key("enum") => {
            let values = choices.iter().map(|choice| Value::from(choice.value.as_str()));
            let names = choices.iter().map(|choice| Value::from(choice.title.as_deref()));
            field.insert("enum".into(), values.collect());
            if choices.iter().all(|choice| choice.title.is_some()) {
                field.insert("enumNames".into(), names.collect());
            }
        }
        Kind::Choices(choices) => {
            let (keyword, options) = options(choices, "oneOf");
            field.insert(keyword.into(), options);
        }
        Kind::List(items) => {
            if let Kind::Choices(choices) = &**items {
                let (keyword, options) = options(choices, "anyOf");
                let mut items = Map::new();
                if keyword == "enum" {
                    items.insert("type".into(), "string".into());
                }
                items.insert(keyword.into(), options);
                field.insert("items".into(), Value::Object(items));
            }
            copy(&mut field, &["minItems", "maxItems"], Value::is_u64);
        }
        _ => {}
    }
    if let Some(default) = map.get("default")
        && check_value(&field, default).is_ok()
    {
        field.insert("default".into(), default.clone());
    }
    Ok(field)
}

/// The choices as the form lists them: `("enum", ["a", ..])` when none has a label, else
/// `(titled, [{"const": "a", "title": ..}, ..])`, a choice without a label titled with
/// its value.
fn options(choices: &[Choice], titled: &'static str) -> (&'static str, Value) {
    if choices.iter().all(|choice| choice.title.is_none()) {
        let values = choices.iter().map(|choice| Value::from(choice.value.as_str()));
        return ("enum", values.collect());
    }
    let options = choices.iter().map(|choice| {
        let title = choice.title.as_deref().unwrap_or(&choice.value);
        serde_json::json!({ "const": choice.value, "title": title })
    });
    (titled, options.collect())
}

/// Checks one value against the form field it answers.
fn check_value(field: &Map<String, Value>, value: &Value) -> Result<(), String> {
    match field.get("type").and_then(Value::as_str) {
        Some("string") => check_string(field, value),
        Some("number") => check_number(field, value, "a number"),
        Some("integer") => check_number(field, value, "an integer"),
        Some("boolean") if value.is_boolean() => Ok(()),
        Some("boolean") => Err(format!("expected a boolean, received {}", received(value))),
        Some("array") => check_list(field, value),
        // A select that names no type is a string select still.
        None if choices(field).is_some() => check_string(field, value),
        _ => Err("the form gives this field no type to check against".into()),
    }
}

/// Checks a string field's value: a choice, or a string within the field's length and
/// format.
fn check_string(field: &Map<String, Value>, value: &Value) -> Result<(), String> {
    if ["enum", "oneOf", "anyOf", "const"]
        .iter()
        .any(|key| field.contains_key(*key))
    {
        let choices = choices(field).unwrap_or_default();
        return match value.as_str() {
            Some(text) if choices.iter().any(|choice| choice.value == text) => Ok(()),
            _ => Err(format!(
                "expected one of {}, received {}",
                listed(&choices),
                received(value)
            )),
        };
    }
    let Some(text) = value.as_str() else {
        return Err(format!("expected a string, received {}", received(value)));
    };
    let length = text.chars().count() as u64;
    if let Some(min) = field.get("minLength").and_then(Value::as_u64)
        && length < min
    {
        return Err(format!(
            "expected at least {}, received {length}",
            counted(min, "character")
        ));
    }
    if let Some(max) = field.get("maxLength").and_then(Value::as_u64)
        && length > max
    {
        return Err(format!(
            "expected at most {}, received {length}",
            counted(max, "character")
        ));
    }
    let (fits, expected) = match field.get("format").and_then(Value::as_str) {
        Some("email") => (is_email(text), "an email address (text@text)"),
        Some("uri") => (is_uri(text), "a URI with a scheme (such as `https:`)"),
        Some("date") => (date_time::check_date(text).is_ok(), "a date as YYYY-MM-DD"),
        Some("date-time") => (
            date_time::check(text).is_ok(),
            "an RFC 3339 date-time (such as 2025-01-31T09:30:00Z)",
        ),
        _ => (true, ""),
    };
    if !fits {
        return Err(format!("expected {expected}, received {}", received(value)));
    }
    Ok(())
}

/// Checks a number or integer field's value against its type and bounds. `what` is "a
/// number" or "an integer".
fn check_number(field: &Map<String, Value>, value: &Value, what: &str) -> Result<(), String> {
    let Some(number) = value.as_f64() else {
        return Err(format!("expected {what}, received {}", received(value)));
    };
    let whole = value.is_i64() || value.is_u64() || number.fract() == 0.0;
    if what == "an integer" && !whole {
        return Err(format!("expected {what}, received {}", received(value)));
    }
    if let Some(min) = field.get("minimum").and_then(Value::as_f64)
        && number < min
    {
        return Err(format!(
            "expected {what} of at least {}, received {}",
            field["minimum"],
            received(value)
        ));
    }
    if let Some(max) = field.get("maximum").and_then(Value::as_f64)
        && number > max
    {
        return Err(format!(
            "expected {what} of at most {}, received {}",
            field["maximum"],
            received(value)
        ));
    }
    Ok(())
}

/// Checks a multi-select field's value: a list of its choices, as many as it allows.
fn check_list(field: &Map<String, Value>, value: &Value) -> Result<(), String> {
    let choices = field
        .get("items")
        .and_then(Value::as_object)
        .and_then(choices)
        .unwrap_or_default();
    let Some(values) = value.as_array() else {
        return Err(format!(
            "expected a list of choices from {}, received {}",
            listed(&choices),
            received(value)
        ));
    };
    for (index, item) in values.iter().enumerate() {
        let member = item
            .as_str()
            .is_some_and(|text| choices.iter().any(|choice| choice.value == text));
        if !member {
            return Err(format!(
                "expected each item to be one of {}, but item {index} is {}",
                listed(&choices),
                received(item)
            ));
        }
    }
    let count = values.len() as u64;
    if let Some(min) = field.get("minItems").and_then(Value::as_u64)
        && count < min
    {
        return Err(format!(
            "expected at least {}, received {count}",
            counted(min, "choice")
        ));
    }
    if let Some(max) = field.get("maxItems").and_then(Value::as_u64)
        && count > max
    {
        return Err(format!(
            "expected at most {}, received {count}",
            counted(max, "choice")
        ));
    }
    Ok(())
}

/// The choices' values, quoted and separated by commas: `"a", "b"`.
fn listed(choices: &[Choice]) -> String {
    let quoted: Vec<String> = choices
        .iter()
        .map(|choice| Value::from(choice.value.as_str()).to_string())
        .collect();
    quoted.join(", ")
}

/// `n` and the noun, plural unless `n` is 1: "1 choice", "2 choices".
fn counted(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A received value, described for a message: "the number 5", "the string \"x\"" (a
/// long string cut, as argument errors cut it: the client chose its length).
fn received(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(flag) => format!("the boolean {flag}"),
        Value::Number(number) => format!("the number {number}"),
        Value::String(_) => crate::protocol::arguments::describe_value(value),
        Value::Array(items) => format!("a list of {}", counted(items.len() as u64, "item")),
        Value::Object(_) => "an object".into(),
    }
}

/// Whether `text` looks like an email address: one `@`, with text on both sides.
fn is_email(text: &str) -> bool {
    text.split_once('@')
        .is_some_and(|(local, domain)| !local.is_empty() && !domain.is_empty() && !domain.contains('@'))
}

/// Whether `text` starts with a URI scheme and its colon: a letter, then letters,
/// digits, `+`, `-` or `.`, then `:` (RFC 3986, section 3.1).
fn is_uri(text: &str) -> bool {
    text.split_once(':').is_some_and(|(scheme, _)| {
        let mut chars = scheme.chars();
        chars.next().is_some_and(|first| first.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};
    use serde_json::json;
    use std::collections::{BTreeSet, HashMap};
    use std::path::PathBuf;
    use std::sync::OnceLock;

    /// The revisions whose `ElicitRequestFormParams` every form must fit.
    const REVISIONS: &[&str] = &["2025-11-25", "2026-07-28"];

    /// `$MCP_SPEC_DIR`, or the `shared/spec` folder beside the repository.
    fn spec_dir() -> PathBuf {
        match std::env::var_os("MCP_SPEC_DIR") {
            Some(dir) => PathBuf::from(dir),
            None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/spec"),
        }
    }

    /// The official schemas found, by revision; none when the spec folder is absent.
    fn spec_schemas() -> &'static [(&'static str, Value)] {
        static SCHEMAS: OnceLock<Vec<(&'static str, Value)>> = OnceLock::new();
        SCHEMAS.get_or_init(|| {
            REVISIONS
                .iter()
                .filter_map(|revision| {
                    let path = spec_dir().join(revision).join("schema.json");
                    // CI (`MCP_SPEC_REQUIRED=1`) must validate; elsewhere the schemas are optional.
                    let required = std::env::var_os("MCP_SPEC_REQUIRED").is_some_and(|v| v == "1");
                    let text = match std::fs::read_to_string(&path) {
                        Ok(text) => text,
                        Err(error) if required => panic!("no official schema at {}: {error}", path.display()),
                        Err(_) => return None,
                    };
                    Some((
                        *revision,
                        serde_json::from_str(&text).expect("the official schema is JSON"),
                    ))
                })
                .collect()
        })
    }

    /// The errors `value` has as a `definition` of each revision found.
    fn spec_errors(definition: &str, value: &Value) -> Vec<String> {
        let mut errors = Vec::new();
        for (revision, schema) in spec_schemas() {
            let mut root = schema.clone();
            root["$ref"] = json!(format!("#/$defs/{definition}"));
            let validator = jsonschema::validator_for(&root).expect("the official schema compiles");
            for error in validator.iter_errors(value) {
                errors.push(format!("{revision}: {error} at {}", error.instance_path()));
            }
        }
        errors
    }

    /// Asserts that `requested` is a valid `requestedSchema` in each revision found.
    fn assert_spec_form(requested: &Value) {
        let params = json!({"message": "Fill this in", "mode": "form", "requestedSchema": requested});
        let errors = spec_errors("ElicitRequestFormParams", &params);
        assert!(
            errors.is_empty(),
            "not a valid form:\n{}\n{requested:#}",
            errors.join("\n")
        );
    }

    /// Asserts that `content` is valid `ElicitResult.content` in each revision found.
    fn assert_spec_content(content: &Value) {
        let result = json!({"action": "accept", "content": content});
        let errors = spec_errors("ElicitResult", &result);
        assert!(
            errors.is_empty(),
            "not valid content:\n{}\n{content:#}",
            errors.join("\n")
        );
    }

    /// `T`'s form, checked against the official schemas.
    fn form<T: JsonSchema>() -> Value {
        let requested = requested_schema::<T>().unwrap_or_else(|error| panic!("not a form: {error}"));
        assert_spec_form(&requested);
        requested
    }

    /// Why `T` is not a form, as displayed.
    fn refusal<T: JsonSchema>() -> String {
        match requested_schema::<T>() {
            Ok(requested) => panic!("unexpectedly a form: {requested:#}"),
            Err(error) => error.to_string(),
        }
    }

    /// Why `content` does not fit `T`'s form, as displayed.
    fn content_error<T: JsonSchema>(content: Value) -> String {
        let requested = form::<T>();
        match check_content(&requested, &content) {
            Ok(()) => panic!("unexpectedly fits: {content}"),
            Err(error) => error.to_string(),
        }
    }

    /// The brief's example: where a book should go.
    #[derive(Deserialize, JsonSchema, Debug, PartialEq)]
    struct Shipping {
        /// Street and number
        street: String,
        /// Express delivery
        #[serde(default)]
        express: bool,
    }

    #[test]
    fn shipping_form_is_exact() {
        let requested = form::<Shipping>();
        assert_eq!(
            requested.to_string(),
            r#"{"type":"object","properties":{"street":{"type":"string","description":"Street and number"},"express":{"type":"boolean","description":"Express delivery","default":false}},"required":["street"]}"#
        );
    }

    #[test]
    fn shipping_content_checks_and_decodes() {
        let requested = form::<Shipping>();
        let content = json!({"street": "1 Main St", "express": true});
        assert_spec_content(&content);
        assert_eq!(check_content(&requested, &content), Ok(()));
        assert_eq!(
            decode::<Shipping>(content),
            Ok(Shipping {
                street: "1 Main St".into(),
                express: true,
            })
        );
        let content = json!({"street": "1 Main St"});
        assert_eq!(check_content(&requested, &content), Ok(()));
        assert_eq!(
            decode::<Shipping>(content),
            Ok(Shipping {
                street: "1 Main St".into(),
                express: false,
            })
        );
    }

    /// The doc comment of [`Colour`], which a field of that type without a doc comment of its own
    /// takes as its description.
    const COLOUR: &str = "A colour, with no labels.";

    /// The doc comment of [`Speed`].
    const SPEED: &str = "A delivery speed, some variants labelled.";

    /// A colour, with no labels.
    #[derive(Deserialize, Serialize, JsonSchema, Debug, PartialEq, Eq, PartialOrd, Ord)]
    enum Colour {
        Red,
        Green,
        Blue,
    }

    /// A delivery speed, some variants labelled.
    #[derive(Deserialize, Serialize, JsonSchema, Debug, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Speed {
        /// Standard post
        Standard,
        #[schemars(title = "Express (next day)")]
        Express,
        Pickup,
    }

    /// Fields that may be left empty.
    #[derive(Deserialize, JsonSchema, Debug, PartialEq)]
    struct Optional {
        nickname: Option<String>,
        age: Option<u32>,
        colour: Option<Colour>,
        /// How fast
        speed: Option<Speed>,
        name: String,
    }

    #[test]
    fn option_fields_are_their_inner_type_and_not_required() {
        assert_eq!(
            form::<Optional>(),
            json!({
                "type": "object",
                "properties": {
                    "nickname": {"type": "string"},
                    "age": {"type": "integer", "minimum": 0},
                    "colour": {"type": "string", "description": COLOUR, "enum": ["Red", "Green", "Blue"]},
                    "speed": {"type": "string", "description": "How fast", "oneOf": [
                        {"const": "pickup", "title": "pickup"},
                        {"const": "standard", "title": "Standard post"},
                        {"const": "express", "title": "Express (next day)"},
                    ]},
                    "name": {"type": "string"},
                },
                "required": ["name"],
            })
        );
    }

    #[test]
    fn option_fields_decode_absent_as_none() {
        let requested = form::<Optional>();
        let content = json!({"name": "Ann"});
        assert_eq!(check_content(&requested, &content), Ok(()));
        assert_eq!(
            decode::<Optional>(content),
            Ok(Optional {
                nickname: None,
                age: None,
                colour: None,
                speed: None,
                name: "Ann".into(),
            })
        );
        let content = json!({"name": "Ann", "age": 7, "colour": "Blue", "speed": "express"});
        assert_spec_content(&content);
        assert_eq!(check_content(&requested, &content), Ok(()));
        let decoded = decode::<Optional>(content).expect("decodes");
        assert_eq!(
            (decoded.age, decoded.colour, decoded.speed),
            (Some(7), Some(Colour::Blue), Some(Speed::Express))
        );
    }

    fn default_city() -> String {
        "Lyon".into()
    }
    fn default_copies() -> u32 {
        2
    }
    fn default_colour() -> Colour {
        Colour::Green
    }
    fn default_speed() -> Speed {
        Speed::Express
    }
    fn default_colours() -> Vec<Colour> {
        vec![Colour::Red, Colour::Blue]
    }
    fn default_nickname() -> Option<String> {
        Some("Bee".into())
    }

    /// Fields with defaults.
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Defaults {
        #[serde(default)]
        gift: bool,
        #[serde(default = "default_city")]
        city: String,
        #[serde(default = "default_copies")]
        copies: u32,
        #[serde(default)]
        weight: f64,
        #[serde(default = "default_colour")]
        colour: Colour,
        #[serde(default = "default_speed")]
        speed: Speed,
        #[serde(default = "default_colours")]
        colours: Vec<Colour>,
        #[serde(default)]
        note: Option<String>,
        #[serde(default = "default_nickname")]
        nickname: Option<String>,
    }

    #[test]
    fn serde_defaults_become_form_defaults() {
        assert_eq!(
            form::<Defaults>(),
            json!({
                "type": "object",
                "properties": {
                    "gift": {"type": "boolean", "default": false},
                    "city": {"type": "string", "default": "Lyon"},
                    "copies": {"type": "integer", "minimum": 0, "default": 2},
                    "weight": {"type": "number", "default": 0.0},
                    "colour": {"type": "string", "description": COLOUR, "enum": ["Red", "Green", "Blue"],
                               "default": "Green"},
                    "speed": {"type": "string", "description": SPEED, "oneOf": [
                        {"const": "pickup", "title": "pickup"},
                        {"const": "standard", "title": "Standard post"},
                        {"const": "express", "title": "Express (next day)"},
                    ], "default": "express"},
                    "colours": {
                        "type": "array",
                        "items": {"type": "string", "enum": ["Red", "Green", "Blue"]},
                        "default": ["Red", "Blue"],
                    },
                    "note": {"type": "string"},
                    "nickname": {"type": "string", "default": "Bee"},
                },
            })
        );
    }

    /// A default outside the field's own bounds.
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct UnfitDefaults {
        #[serde(default)]
        #[schemars(range(min = 1, max = 10))]
        rating: u8,
        #[serde(default)]
        #[schemars(length(min = 1))]
        name: String,
    }

    #[test]
    fn a_default_the_field_rejects_is_dropped() {
        assert_eq!(
            form::<UnfitDefaults>(),
            json!({
                "type": "object",
                "properties": {
                    "rating": {"type": "integer", "minimum": 1, "maximum": 10},
                    "name": {"type": "string", "minLength": 1},
                },
            })
        );
    }

    /// Names as sent differ from the Rust names.
    #[derive(Deserialize, JsonSchema, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct Renamed {
        first_name: String,
        #[serde(rename = "family")]
        last_name: String,
    }

    #[test]
    fn serde_renames_name_the_fields() {
        let requested = form::<Renamed>();
        assert_eq!(
            requested,
            json!({
                "type": "object",
                "properties": {"firstName": {"type": "string"}, "family": {"type": "string"}},
                "required": ["firstName", "family"],
            })
        );
        assert_eq!(
            check_content(&requested, &json!({"firstName": "Ann"})),
            Err(ContentError {
                field: Some("family".into()),
                reason: "missing, but the form requires it".into(),
            })
        );
    }

    /// Fields in an order that is not alphabetical.
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Ordered {
        zebra: String,
        apple: bool,
        mango: f32,
    }

    #[test]
    fn fields_keep_declaration_order() {
        let requested = form::<Ordered>();
        let names: Vec<&String> = requested["properties"]
            .as_object()
            .expect("properties")
            .keys()
            .collect();
        assert_eq!(names, ["zebra", "apple", "mango"]);
        assert_eq!(requested["required"], json!(["zebra", "apple", "mango"]));
    }

    /// Single-select enums.
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Selects {
        colour: Colour,
        /// Delivery
        speed: Speed,
    }

    #[test]
    fn unit_enums_become_single_selects() {
        assert_eq!(
            form::<Selects>().to_string(),
            json!({
                "type": "object",
                "properties": {
                    "colour": {"type": "string", "description": COLOUR, "enum": ["Red", "Green", "Blue"]},
                    "speed": {"type": "string", "description": "Delivery", "oneOf": [
                        {"const": "pickup", "title": "pickup"},
                        {"const": "standard", "title": "Standard post"},
                        {"const": "express", "title": "Express (next day)"},
                    ]},
                },
                "required": ["colour", "speed"],
            })
            .to_string()
        );
    }

    // Choices labelled the deprecated way, once right and once with a label missing.
    #[derive(Deserialize, JsonSchema)]
    #[schemars(extend("enumNames" = ["Small", "Large"]))]
    enum Labelled {
        S,
        L,
    }

    #[derive(Deserialize, JsonSchema)]
    #[schemars(extend("enumNames" = ["Small"]))]
    enum Mislabelled {
        S,
        L,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)] // only its form is looked at
    struct Sizes {
        labelled: Labelled,
        mislabelled: Mislabelled,
    }

    #[test]
    fn enum_names_are_kept_when_there_is_one_per_choice() {
        assert_eq!(
            form::<Sizes>().to_string(),
            json!({
                "type": "object",
                "properties": {
                    "labelled": {"type": "string", "enum": ["S", "L"], "enumNames": ["Small", "Large"]},
                    "mislabelled": {"type": "string", "enum": ["S", "L"]},
                },
                "required": ["labelled", "mislabelled"],
            })
            .to_string()
        );
    }

    /// Multi-select enums.
    #[derive(Deserialize, JsonSchema, Debug, PartialEq)]
    struct Multi {
        /// Pick one or two
        #[schemars(length(min = 1, max = 2))]
        speeds: Vec<Speed>,
        colours: Vec<Colour>,
        set: BTreeSet<Colour>,
        maybe: Option<Vec<Colour>>,
    }

    #[test]
    fn lists_and_sets_of_unit_enums_become_multi_selects() {
        let untitled = json!({"type": "string", "enum": ["Red", "Green", "Blue"]});
        assert_eq!(
            form::<Multi>(),
            json!({
                "type": "object",
                "properties": {
                    "speeds": {
                        "type": "array",
                        "description": "Pick one or two",
                        "items": {"anyOf": [
                            {"const": "pickup", "title": "pickup"},
                            {"const": "standard", "title": "Standard post"},
                            {"const": "express", "title": "Express (next day)"},
                        ]},
                        "minItems": 1,
                        "maxItems": 2,
                    },
                    "colours": {"type": "array", "items": untitled},
                    "set": {"type": "array", "items": untitled},
                    "maybe": {"type": "array", "items": untitled},
                },
                "required": ["speeds", "colours", "set"],
            })
        );
    }

    #[test]
    fn multi_select_content_is_checked_and_decoded() {
        let requested = form::<Multi>();
        let good = json!({"speeds": ["express"], "colours": [], "set": ["Red", "Blue"]});
        assert_spec_content(&good);
        assert_eq!(check_content(&requested, &good), Ok(()));
        let decoded = decode::<Multi>(good).expect("decodes");
        assert_eq!(decoded.speeds, [Speed::Express]);
        assert_eq!(decoded.set, BTreeSet::from([Colour::Red, Colour::Blue]));

        let error = |content: Value| check_content(&requested, &content).unwrap_err().to_string();
        assert_eq!(
            error(json!({"speeds": [], "colours": [], "set": []})),
            "field `speeds`: expected at least 1 choice, received 0"
        );
        assert_eq!(
            error(json!({"speeds": ["pickup", "standard", "express"], "colours": [], "set": []})),
            "field `speeds`: expected at most 2 choices, received 3"
        );
        assert_eq!(
            error(json!({"speeds": ["fast"], "colours": [], "set": []})),
            "field `speeds`: expected each item to be one of \"pickup\", \"standard\", \"express\", \
             but item 0 is the string \"fast\""
        );
        assert_eq!(
            error(json!({"speeds": ["pickup"], "colours": "Red", "set": []})),
            "field `colours`: expected a list of choices from \"Red\", \"Green\", \"Blue\", \
             received the string \"Red\""
        );
        assert_eq!(
            error(json!({"speeds": ["pickup"], "colours": [], "set": [], "maybe": ["Red", 3]})),
            "field `maybe`: expected each item to be one of \"Red\", \"Green\", \"Blue\", \
             but item 1 is the number 3"
        );
    }

    /// Numbers, with and without bounds.
    #[derive(Deserialize, JsonSchema, Debug, PartialEq)]
    struct Numbers {
        /// Stars
        #[schemars(range(min = 1, max = 10))]
        rating: i32,
        count: u64,
        small: i8,
        ratio: f64,
        #[schemars(range(min = 0.5))]
        weight: f32,
    }

    #[test]
    fn numbers_keep_bounds_and_drop_rust_formats() {
        assert_eq!(
            form::<Numbers>(),
            json!({
                "type": "object",
                "properties": {
                    "rating": {"type": "integer", "description": "Stars", "minimum": 1, "maximum": 10},
                    "count": {"type": "integer", "minimum": 0},
                    "small": {"type": "integer", "minimum": -128, "maximum": 127},
                    "ratio": {"type": "number"},
                    "weight": {"type": "number", "minimum": 0.5},
                },
                "required": ["rating", "count", "small", "ratio", "weight"],
            })
        );
    }

    #[test]
    fn number_content_is_checked_and_decoded() {
        let requested = form::<Numbers>();
        let good = json!({"rating": 10, "count": 0, "small": -5, "ratio": 0.25, "weight": 1});
        assert_eq!(check_content(&requested, &good), Ok(()));
        assert_eq!(
            decode::<Numbers>(good),
            Ok(Numbers {
                rating: 10,
                count: 0,
                small: -5,
                ratio: 0.25,
                weight: 1.0,
            })
        );
        // A whole number sent as a float fits an integer field, and decodes.
        let whole = json!({"rating": 3.0, "count": 0, "small": 0, "ratio": 1, "weight": 1});
        assert_eq!(check_content(&requested, &whole), Ok(()));
        assert_eq!(decode::<Numbers>(whole).map(|n| n.rating), Ok(3));

        let error = |content: Value| check_content(&requested, &content).unwrap_err().to_string();
        let with = |key: &str, value: Value| {
            let mut content = json!({"rating": 5, "count": 0, "small": 0, "ratio": 1, "weight": 1});
            content[key] = value;
            content
        };
        assert_eq!(
            error(with("rating", json!(0))),
            "field `rating`: expected an integer of at least 1, received the number 0"
        );
        assert_eq!(
            error(with("rating", json!(11))),
            "field `rating`: expected an integer of at most 10, received the number 11"
        );
        assert_eq!(
            error(with("rating", json!(2.5))),
            "field `rating`: expected an integer, received the number 2.5"
        );
        assert_eq!(
            error(with("count", json!("7"))),
            "field `count`: expected an integer, received the string \"7\""
        );
        assert_eq!(
            error(with("ratio", json!(true))),
            "field `ratio`: expected a number, received the boolean true"
        );
        assert_eq!(
            error(with("weight", json!(0.25))),
            "field `weight`: expected a number of at least 0.5, received the number 0.25"
        );
    }

    /// Strings with lengths, titles and formats.
    #[derive(Deserialize, JsonSchema, Debug, PartialEq)]
    struct Strings {
        #[schemars(title = "Full name", length(min = 2, max = 5))]
        name: String,
        #[schemars(email)]
        email: String,
        #[schemars(url)]
        homepage: String,
        #[schemars(extend("format" = "date"))]
        birthday: String,
        #[schemars(extend("format" = "date-time"))]
        meeting: String,
        #[schemars(extend("format" = "uuid"))]
        id: String,
        #[schemars(regex(pattern = "^[A-Z]+$"))]
        code: String,
        initial: char,
    }

    #[test]
    fn strings_keep_title_lengths_and_spec_formats() {
        assert_eq!(
            form::<Strings>(),
            json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string", "title": "Full name", "minLength": 2, "maxLength": 5},
                    "email": {"type": "string", "format": "email"},
                    "homepage": {"type": "string", "format": "uri"},
                    "birthday": {"type": "string", "format": "date"},
                    "meeting": {"type": "string", "format": "date-time"},
                    "id": {"type": "string"},
                    "code": {"type": "string"},
                    "initial": {"type": "string", "minLength": 1, "maxLength": 1},
                },
                "required": ["name", "email", "homepage", "birthday", "meeting", "id", "code", "initial"],
            })
        );
    }

    #[test]
    fn string_content_is_checked() {
        let requested = form::<Strings>();
        let good = json!({
            "name": "Zoë",
            "email": "ann@example.org",
            "homepage": "https://example.org",
            "birthday": "2000-02-29",
            "meeting": "2025-01-31T09:30:00.5+01:00",
            "id": "anything",
            "code": "not checked",
            "initial": "é",
        });
        assert_spec_content(&good);
        assert_eq!(check_content(&requested, &good), Ok(()));
        assert!(decode::<Strings>(good).is_ok());

        let error = |key: &str, value: Value| {
            let mut content = good_strings();
            content[key] = value;
            check_content(&requested, &content).unwrap_err().to_string()
        };
        assert_eq!(
            error("name", json!(5)),
            "field `name`: expected a string, received the number 5"
        );
        assert_eq!(
            error("name", json!("A")),
            "field `name`: expected at least 2 characters, received 1"
        );
        assert_eq!(
            error("name", json!("Ann Lee")),
            "field `name`: expected at most 5 characters, received 7"
        );
        assert_eq!(
            error("initial", json!("ab")),
            "field `initial`: expected at most 1 character, received 2"
        );
        assert_eq!(
            error("email", json!("ann.example.org")),
            "field `email`: expected an email address (text@text), received the string \"ann.example.org\""
        );
        assert_eq!(
            error("homepage", json!("example.org")),
            "field `homepage`: expected a URI with a scheme (such as `https:`), \
             received the string \"example.org\""
        );
        assert_eq!(
            error("birthday", json!("2001-02-29")),
            "field `birthday`: expected a date as YYYY-MM-DD, received the string \"2001-02-29\""
        );
        assert_eq!(
            error("meeting", json!("2025-01-31 09:30")),
            "field `meeting`: expected an RFC 3339 date-time (such as 2025-01-31T09:30:00Z), \
             received the string \"2025-01-31 09:30\""
        );
        assert_eq!(
            error("name", Value::Null),
            "field `name`: expected a string, received null"
        );
    }

    /// Content that fits the form of [`Strings`].
    fn good_strings() -> Value {
        json!({
            "name": "Ann",
            "email": "ann@example.org",
            "homepage": "mailto:ann@example.org",
            "birthday": "2024-12-31",
            "meeting": "2025-01-31T09:30:00Z",
            "id": "x",
            "code": "x",
            "initial": "a",
        })
    }

    #[test]
    fn formats_are_checked_loosely_but_exactly_as_documented() {
        for email in ["a@b", "ann@example.org", "a b@c"] {
            assert!(is_email(email), "{email}");
        }
        for email in ["", "@b", "a@", "a@b@c", "ab"] {
            assert!(!is_email(email), "{email}");
        }
        for uri in ["https://x", "urn:isbn:1", "a+b.c-d:", "x:"] {
            assert!(is_uri(uri), "{uri}");
        }
        for uri in ["", "//x", "1a:b", "a b:c", ":x", "example.org"] {
            assert!(!is_uri(uri), "{uri}");
        }
    }

    /// An empty form: a yes with no fields.
    #[derive(Deserialize, JsonSchema)]
    struct Nothing {}

    /// A form that rejects fields it does not ask for.
    #[derive(Deserialize, JsonSchema, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Strict {
        name: String,
    }

    /// Fields of a flattened struct.
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Address {
        city: String,
    }

    /// A struct holding a flattened struct.
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Flattened {
        name: String,
        #[serde(flatten)]
        address: Address,
    }

    #[test]
    fn structs_of_any_number_of_fields_are_forms() {
        assert_eq!(form::<Nothing>(), json!({"type": "object", "properties": {}}));
        assert_eq!(
            form::<Strict>(),
            json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]})
        );
        assert_eq!(
            form::<Flattened>(),
            json!({
                "type": "object",
                "properties": {"name": {"type": "string"}, "city": {"type": "string"}},
                "required": ["name", "city"],
            })
        );
    }

    #[test]
    fn extra_content_fields_are_ignored_by_the_check() {
        let requested = form::<Strict>();
        let content = json!({"name": "Ann", "client_note": "x"});
        assert_eq!(check_content(&requested, &content), Ok(()));
        // `deny_unknown_fields` is the type's own choice: decoding then names the extra field.
        let error = decode::<Strict>(content).unwrap_err();
        assert_eq!(error.field.as_deref(), Some("client_note"));
        assert_eq!(error.reason, "unknown field `client_note`, expected `name`");
    }

    #[test]
    fn content_must_be_an_object() {
        let requested = form::<Shipping>();
        assert_eq!(
            check_content(&requested, &json!(["1 Main St"])),
            Err(ContentError {
                field: None,
                reason: "expected the content to be an object of field values, received a list of 1 item"
                    .into(),
            })
        );
        assert_eq!(
            check_content(&requested, &json!({})).unwrap_err().to_string(),
            "field `street`: missing, but the form requires it"
        );
    }

    #[test]
    fn single_select_content_is_checked() {
        let requested = form::<Selects>();
        assert_eq!(
            check_content(&requested, &json!({"colour": "Red", "speed": "pickup"})),
            Ok(())
        );
        assert_eq!(
            content_error::<Selects>(json!({"colour": "red", "speed": "pickup"})),
            "field `colour`: expected one of \"Red\", \"Green\", \"Blue\", received the string \"red\""
        );
        assert_eq!(
            content_error::<Selects>(json!({"colour": "Red", "speed": 1})),
            "field `speed`: expected one of \"pickup\", \"standard\", \"express\", received the number 1"
        );
        assert_eq!(
            content_error::<Shipping>(json!({"street": "x", "express": "yes"})),
            "field `express`: expected a boolean, received the string \"yes\""
        );
    }

    #[test]
    fn decode_names_the_field() {
        assert_eq!(
            decode::<Shipping>(json!({"street": 5})),
            Err(ContentError {
                field: Some("street".into()),
                reason: "invalid type: integer `5`, expected a string".into(),
            })
        );
        assert_eq!(
            decode::<Multi>(json!({"speeds": ["pickup", "fast"], "colours": [], "set": []}))
                .unwrap_err()
                .to_string(),
            "field `speeds[1]`: unknown variant `fast`, expected one of `standard`, `express`, `pickup`"
        );
        assert_eq!(
            decode::<Numbers>(json!({"rating": 1, "count": -1, "small": 0, "ratio": 1, "weight": 1}))
                .unwrap_err()
                .to_string(),
            "field `count`: invalid value: integer `-1`, expected u64"
        );
        assert_eq!(
            decode::<Shipping>(json!({})).unwrap_err().to_string(),
            "missing field `street`"
        );
    }

    #[test]
    fn whole_floats_become_integers_and_others_stay() {
        let mut values = [
            json!(3.0),
            json!(-2.0),
            json!(2.5),
            json!(1e300),
            json!("3.0"),
            json!(4),
        ];
        values.iter_mut().for_each(whole_float_to_integer);
        assert_eq!(
            values,
            [
                json!(3),
                json!(-2),
                json!(2.5),
                json!(1e300),
                json!("3.0"),
                json!(4)
            ]
        );
        assert!(values[0].is_i64());
    }

    /// A struct to nest.
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Point {
        x: i32,
        y: i32,
    }

    /// An enum with data.
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    enum Shape {
        Dot,
        Circle(f64),
    }

    /// An untagged enum.
    #[derive(Deserialize, JsonSchema)]
    #[serde(untagged)]
    #[allow(dead_code)]
    enum Loose {
        Text(String),
        Count(u32),
    }

    /// A type that contains itself.
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Node {
        name: String,
        next: Option<Box<Node>>,
    }

    /// One struct per refused field, the field named `bad`, after a good field.
    macro_rules! bad_field {
        ($name:ident, $ty:ty) => {
            #[derive(Deserialize, JsonSchema)]
            #[allow(dead_code)]
            struct $name {
                good: String,
                bad: $ty,
            }
        };
    }
    bad_field!(NestedStruct, Point);
    bad_field!(MapField, HashMap<String, String>);
    bad_field!(ListOfStructs, Vec<Point>);
    bad_field!(ListOfStrings, Vec<String>);
    bad_field!(ListOfNumbers, Vec<f64>);
    bad_field!(ListOfLists, Vec<Vec<Colour>>);
    bad_field!(TupleField, (String, u32));
    bad_field!(DataEnum, Shape);
    bad_field!(UntaggedEnum, Loose);
    bad_field!(AnyValue, Value);
    bad_field!(UnitField, ());
    bad_field!(OptionalStruct, Option<Point>);

    #[test]
    fn fields_that_cannot_be_form_fields_are_refused_by_name() {
        let accepted = "a form field must be a string, number, integer, boolean, or an enum of strings \
                        (single, or a Vec of them for multi-select)";
        let cases = [
            (refusal::<NestedStruct>(), "a nested struct"),
            (refusal::<MapField>(), "a map"),
            (refusal::<ListOfStructs>(), "a list of structs"),
            (refusal::<ListOfStrings>(), "a list of free-text strings"),
            (refusal::<ListOfNumbers>(), "a list of numbers"),
            (refusal::<ListOfLists>(), "a list of lists"),
            (refusal::<TupleField>(), "a tuple"),
            (refusal::<DataEnum>(), "an enum with data-carrying variants"),
            (
                refusal::<UntaggedEnum>(),
                "a choice between several shapes (an untagged enum)",
            ),
            (
                refusal::<AnyValue>(),
                "an arbitrary JSON value (`serde_json::Value`)",
            ),
            (refusal::<UnitField>(), "null (`()` or a unit struct)"),
            (refusal::<OptionalStruct>(), "a nested struct"),
        ];
        for (message, what) in cases {
            assert_eq!(
                message,
                format!("field `bad`: {what} cannot be a form field; {accepted}")
            );
        }
        assert_eq!(
            requested_schema::<NestedStruct>().unwrap_err().field.as_deref(),
            Some("bad")
        );
        assert_eq!(
            refusal::<Node>(),
            format!("field `next`: a recursive type cannot be a form field; {accepted}")
        );
    }

    #[test]
    fn enums_of_values_other_than_strings_are_refused() {
        let schema = json!({
            "type": "object",
            "properties": {"level": {"type": "integer", "enum": [1, 2, 3]}},
        });
        assert_eq!(
            restrict(&schema),
            Err(FormError {
                field: Some("level".into()),
                reason: "an enum of values that are not all strings cannot be a form field; a form field \
                         must be a string, number, integer, boolean, or an enum of strings (single, or a \
                         Vec of them for multi-select)"
                    .into(),
            })
        );
    }

    /// Two fields that cannot be form fields.
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct TwoBad {
        name: String,
        first: Vec<Point>,
        second: HashMap<String, u8>,
    }

    #[test]
    fn only_the_first_bad_field_is_reported() {
        let error = requested_schema::<TwoBad>().unwrap_err();
        assert_eq!(error.field.as_deref(), Some("first"));
        assert!(!error.reason.contains("second"), "{error}");
    }

    /// A newtype.
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Name(String);

    /// A tuple struct.
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Pair(String, u32);

    /// A unit struct.
    #[derive(Deserialize, JsonSchema)]
    struct Unit;

    /// A struct that takes keys of any name beside its own.
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Open {
        name: String,
        #[serde(flatten)]
        rest: HashMap<String, String>,
    }

    #[test]
    fn types_that_are_not_structs_of_named_fields_are_refused() {
        let not_a_struct =
            |what: &str| format!("a form must be a struct with named fields, but this type is {what}");
        assert_eq!(refusal::<Colour>(), not_a_struct("an enum of strings"));
        assert_eq!(
            refusal::<Shape>(),
            not_a_struct("an enum with data-carrying variants")
        );
        assert_eq!(refusal::<Name>(), not_a_struct("a string"));
        assert_eq!(refusal::<Pair>(), not_a_struct("a tuple"));
        assert_eq!(refusal::<Unit>(), not_a_struct("null (`()` or a unit struct)"));
        assert_eq!(refusal::<HashMap<String, String>>(), not_a_struct("a map"));
        assert_eq!(
            refusal::<Value>(),
            not_a_struct("an arbitrary JSON value (`serde_json::Value`)")
        );
        assert_eq!(
            refusal::<Vec<Colour>>(),
            not_a_struct("a list of enums of strings")
        );
        assert_eq!(
            requested_schema::<Open>(),
            Err(FormError {
                field: None,
                reason: "a form must be a struct with named fields only, but this struct also takes keys \
                         of any name (a `#[serde(flatten)]` map)"
                    .into(),
            })
        );
    }

    #[test]
    fn restrict_drops_what_the_form_does_not_carry() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Order",
            "description": "An order",
            "type": "object",
            "properties": {
                "n": {"type": "integer", "format": "uint32", "minimum": 0, "exclusiveMaximum": 9,
                      "multipleOf": 3, "examples": [3]},
                "tags": {"type": "array", "uniqueItems": true, "items": {"enum": ["a", "b"]}},
                "when": {"type": ["string", "null"], "format": "date", "default": null},
            },
            "required": ["n", "n"],
            "additionalProperties": false,
        });
        let requested = restrict(&schema).expect("a form");
        assert_spec_form(&requested);
        assert_eq!(
            requested,
            json!({
                "type": "object",
                "properties": {
                    "n": {"type": "integer", "minimum": 0},
                    "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
                    "when": {"type": "string", "format": "date"},
                },
                "required": ["n"],
            })
        );
    }

    #[test]
    fn the_spec_check_catches_a_form_outside_the_subset() {
        if spec_schemas().is_empty() {
            return;
        }
        let nested = json!({
            "message": "m",
            "requestedSchema": {"type": "object", "properties": {"p": {"type": "object"}}},
        });
        assert!(!spec_errors("ElicitRequestFormParams", &nested).is_empty());
    }

    #[test]
    fn a_schema_the_check_does_not_know_fails_the_check() {
        let requested = json!({"type": "object", "properties": {"p": {"type": "object"}}});
        assert_eq!(
            check_content(&requested, &json!({"p": {}}))
                .unwrap_err()
                .to_string(),
            "field `p`: the form gives this field no type to check against"
        );
    }
}
