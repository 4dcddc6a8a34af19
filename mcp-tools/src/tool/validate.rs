//! Checks a tool's structured output against its `outputSchema` before it is sent (feature
//! `validate-output`). The schema is compiled on the tool's first call, not at startup.

use crate::result::CallToolResult;
use jsonschema::Validator;
use serde_json::Value;
use std::sync::OnceLock;

/// How many of a result's mismatches a report names.
const NAMED: usize = 3;

/// A tool's compiled output schema, made when first needed.
#[derive(Default)]
pub(crate) struct OutputValidator {
    compiled: OnceLock<Result<Validator, String>>,
}

/// A copy starts uncompiled: its tool's schema may be about to change.
impl Clone for OutputValidator {
    fn clone(&self) -> Self {
        OutputValidator::default()
    }
}

impl OutputValidator {
    /// Whether `result` keeps the promise `schema` makes. Failed results promise nothing;
    /// a successful one must carry structured content that matches. `Err` says how it does
    /// not, for the server's log.
    pub(crate) fn check(&self, schema: &Value, result: &CallToolResult) -> Result<(), String> {
        if result.is_error() {
            return Ok(());
        }
        let Some(structured) = result.structured_content() else {
            return Err("the tool has an output schema but returned no structured content".into());
        };
        let validator = self
            .compiled
            .get_or_init(|| jsonschema::validator_for(schema).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| format!("the tool's output schema does not compile: {e}"))?;
        let value: Value = serde_json::from_str(structured.get())
            .map_err(|e| format!("the structured content is not JSON: {e}"))?;
        let mut errors = validator.iter_errors(&value);
        let Some(first) = errors.next() else {
            return Ok(());
        };
        let mut named: Vec<String> = std::iter::once(first)
            .chain(errors.by_ref().take(NAMED - 1))
            .map(|error| {
                let at = error.instance_path().as_str();
                let at = if at.is_empty() { "/" } else { at };
                format!("at `{at}`: {error}")
            })
            .collect();
        let more = errors.count();
        if more > 0 {
            named.push(format!("and {more} more"));
        }
        Err(format!(
            "the structured content does not match the tool's output schema: {}",
            named.join("; ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": { "words": { "type": "integer", "minimum": 0 }, "top": { "type": "string" } },
            "required": ["words", "top"]
        })
    }

    #[test]
    fn matching_content_and_failed_results_pass() {
        let validator = OutputValidator::default();
        let good = CallToolResult::structured(&json!({"words": 3, "top": "the"})).unwrap();
        assert_eq!(validator.check(&schema(), &good), Ok(()));
        assert_eq!(
            validator.check(&schema(), &CallToolResult::error("no text")),
            Ok(())
        );
    }

    #[test]
    fn every_mismatch_is_named_with_where_it_is() {
        let validator = OutputValidator::default();
        let bad = CallToolResult::structured(&json!({"words": -1})).unwrap();
        let report = validator.check(&schema(), &bad).unwrap_err();
        assert!(
            report.starts_with("the structured content does not match the tool's output schema: "),
            "{report}"
        );
        assert!(
            report.contains("at `/words`: -1 is less than the minimum of 0"),
            "{report}"
        );
        assert!(
            report.contains("at `/`: \"top\" is a required property"),
            "{report}"
        );
    }

    #[test]
    fn a_result_without_structured_content_breaks_the_promise() {
        let validator = OutputValidator::default();
        let report = validator
            .check(&schema(), &CallToolResult::text("3 words"))
            .unwrap_err();
        assert_eq!(
            report,
            "the tool has an output schema but returned no structured content"
        );
    }
}
