//! Completion (`completion/complete`): how an argument completes as the user types it, for
//! a prompt's arguments and a resource template's variables alike. An argument whose type
//! is an enum of strings completes from its values; one with `#[complete(..)]`, from its
//! [`Completer`]. [`Completions`] holds one capability's; the capability says which names
//! are its arguments, and this module does the rest: candidates, filtering, the cap.

use crate::tool::param::{Kind, Param};
use schemars::SchemaGenerator;
use serde_json::{Map, Value};

/// A completion fn: the partial value and the arguments already given, in; candidates out.
pub type Completer = fn(&str, &Map<String, Value>) -> Vec<String>;

/// The most values a completion answers with, as the protocol allows.
const MOST_COMPLETIONS: usize = 100;

/// How an argument completes.
#[derive(Clone)]
enum Completion {
    /// The values an enum-typed argument takes.
    Choices(Vec<String>),
    /// A fn of the partial value and the arguments already given.
    With(Completer),
}

/// What a completion found: the values to show (at most 100), how many matched in all,
/// and whether there are more than shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Completed {
    pub(crate) values: Vec<String>,
    pub(crate) total: usize,
    pub(crate) has_more: bool,
}

/// How each argument of one prompt or resource template completes, by name. An argument
/// not in it has no candidates.
#[derive(Clone, Default)]
pub(crate) struct Completions {
    by_name: Vec<(String, Completion)>,
}

impl Completions {
    /// Completes `argument` from its partial `value`, given the other arguments. The
    /// candidates that start with `value` come first, then those that contain it elsewhere,
    /// ignoring case; at most 100 of them, with how many matched in all. An argument with
    /// no choices and no completion fn has none.
    pub(crate) fn complete(&self, argument: &str, value: &str, given: &Map<String, Value>) -> Completed {
        let candidates = match self.by_name.iter().find(|(name, _)| name == argument) {
            Some((_, Completion::Choices(choices))) => choices.clone(),
            Some((_, Completion::With(complete))) => complete(value, given),
            None => Vec::new(),
        };
        let needle = value.to_lowercase();
        let (mut first, mut then) = (Vec::new(), Vec::new());
        for candidate in candidates {
            let lower = candidate.to_lowercase();
            if lower.starts_with(&needle) {
                first.push(candidate);
            } else if lower.contains(&needle) {
                then.push(candidate);
            }
        }
        first.append(&mut then);
        let total = first.len();
        first.truncate(MOST_COMPLETIONS);
        Completed {
            has_more: total > first.len(),
            total,
            values: first,
        }
    }
}

/// Gathers a capability's completions while its builder reads its parameters.
#[derive(Default)]
pub(crate) struct CompletionsBuilder {
    by_name: Vec<(String, Completion)>,
    /// Made for the first argument, to read enum values from its schema.
    schemas: Option<SchemaGenerator>,
}

impl CompletionsBuilder {
    /// Reads parameter `name`: an argument whose type is an enum of strings completes from
    /// its values; anything else (another type, an injected parameter) from nothing, unless
    /// [`complete`](Self::complete) gives it a fn.
    pub(crate) fn param<T>(&mut self, name: &str, param: &Param<T>) {
        let Kind::Argument(argument) = &param.kind else {
            return;
        };
        let schemas = self
            .schemas
            .get_or_insert_with(crate::tool::schema::input_generator);
        let choices = choices((argument.schema)(schemas).as_value());
        if !choices.is_empty() {
            self.by_name.push((name.to_owned(), Completion::Choices(choices)));
        }
    }

    /// Completes argument `name` with `complete`, in place of the choices of its type.
    pub(crate) fn complete(&mut self, name: &str, complete: Completer) {
        self.by_name.retain(|(argument, _)| argument != name);
        self.by_name.push((name.to_owned(), Completion::With(complete)));
    }

    /// The completions gathered.
    pub(crate) fn build(self) -> Completions {
        Completions {
            by_name: self.by_name,
        }
    }
}

/// The values of an enum's schema (`enum`, or `oneOf`/`anyOf` of `const`s), strings only,
/// in order; none for a schema that is not an enum of strings.
fn choices(schema: &Value) -> Vec<String> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
    }
    ["oneOf", "anyOf"]
        .iter()
        .filter_map(|key| schema.get(*key).and_then(Value::as_array))
        .flatten()
        .flat_map(|variant| match variant.get("const") {
            Some(Value::String(value)) => vec![value.clone()],
            _ => choices(variant),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_enum_schema_gives_its_values_in_order() {
        assert_eq!(
            choices(&json!({"type": "string", "enum": ["b", "a"]})),
            ["b", "a"]
        );
        let titled = json!({"oneOf": [{"const": "x", "title": "X"}, {"const": "y"}]});
        assert_eq!(choices(&titled), ["x", "y"]);
        let optional = json!({"anyOf": [{"type": "string", "enum": ["on", "off"]}, {"type": "null"}]});
        assert_eq!(choices(&optional), ["on", "off"]);
        assert!(choices(&json!({"type": "string"})).is_empty());
        assert!(choices(&json!({"type": "integer", "enum": [1, 2]})).is_empty());
    }

    fn words(_typed: &str, given: &Map<String, Value>) -> Vec<String> {
        let mut words: Vec<String> = ["Alpha", "beta", "Gamma", "alphabet"].map(str::to_owned).to_vec();
        if let Some(Value::String(extra)) = given.get("extra") {
            words.push(extra.clone());
        }
        words
    }

    fn completions() -> Completions {
        let mut builder = CompletionsBuilder::default();
        builder.by_name.push((
            "level".to_owned(),
            Completion::Choices(vec!["low".to_owned(), "high".to_owned()]),
        ));
        builder.complete("word", words);
        builder.build()
    }

    #[test]
    fn prefixes_come_first_then_the_rest_that_contain_the_value_ignoring_case() {
        let completed = completions().complete("word", "A", &Map::new());
        assert_eq!(
            completed,
            Completed {
                values: ["Alpha", "alphabet", "beta", "Gamma"].map(str::to_owned).to_vec(),
                total: 4,
                has_more: false,
            }
        );
        let given = json!({"extra": "Delta"});
        let with_extra = completions().complete("word", "del", given.as_object().unwrap());
        assert_eq!(with_extra.values, ["Delta"]);
        assert_eq!(completions().complete("level", "H", &Map::new()).values, ["high"]);
    }

    #[test]
    fn an_argument_without_completion_has_no_candidates() {
        let none = completions().complete("other", "", &Map::new());
        assert_eq!((none.values.len(), none.total, none.has_more), (0, 0, false));
    }

    #[test]
    fn a_fn_replaces_the_choices_of_its_type() {
        let mut builder = CompletionsBuilder::default();
        builder
            .by_name
            .push(("word".to_owned(), Completion::Choices(vec!["zeta".to_owned()])));
        builder.complete("word", words);
        assert_eq!(builder.build().complete("word", "z", &Map::new()).total, 0);
    }

    #[test]
    fn at_most_100_values_are_kept_with_the_total() {
        fn many(_typed: &str, _given: &Map<String, Value>) -> Vec<String> {
            (0..250).map(|i| format!("v{i}")).collect()
        }
        let mut builder = CompletionsBuilder::default();
        builder.complete("n", many);
        let completed = builder.build().complete("n", "", &Map::new());
        assert_eq!(
            (completed.values.len(), completed.total, completed.has_more),
            (100, 250, true)
        );
        assert_eq!(completed.values[99], "v99");
    }
}
