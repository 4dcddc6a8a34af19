//! A tool in the formats of model APIs: OpenAI's function calling and Anthropic's tool use.

use super::Tool;
use crate::error::ExportError;
use serde_json::{Map, Value, json};

/// A model API's rule for tool names: 1 to 64 of `A-Z a-z 0-9 _ -` (OpenAI and Anthropic
/// alike; MCP also allows `.` and up to 128).
fn fits_model_apis(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

impl Tool {
    /// The tool as an OpenAI function-calling definition:
    /// `{"type": "function", "function": {"name", "description", "parameters"}}`.
    ///
    /// `Err` names the rule when the tool's name does not fit the API's (MCP allows `.`
    /// and longer names; OpenAI does not).
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let function = tools![add][0].to_openai().unwrap();
    /// assert_eq!(function["type"], "function");
    /// assert_eq!(function["function"]["name"], "add");
    /// assert_eq!(function["function"]["parameters"]["required"], serde_json::json!(["a", "b"]));
    /// ```
    pub fn to_openai(&self) -> Result<Value, ExportError> {
        let function = self.api_definition("parameters")?;
        Ok(json!({ "type": "function", "function": function }))
    }

    /// The tool as an Anthropic tool definition: `{"name", "description", "input_schema"}`.
    ///
    /// `Err` names the rule when the tool's name does not fit the API's.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools};
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let definition = tools![add][0].to_anthropic().unwrap();
    /// assert_eq!(definition["name"], "add");
    /// assert_eq!(definition["description"], "Adds two numbers.");
    /// assert_eq!(definition["input_schema"]["type"], "object");
    /// ```
    pub fn to_anthropic(&self) -> Result<Value, ExportError> {
        self.api_definition("input_schema").map(Value::Object)
    }

    /// The name, description and input schema (under `schema_key`) as the model APIs take
    /// them; `Err` when the name breaks their rules.
    fn api_definition(&self, schema_key: &str) -> Result<Map<String, Value>, ExportError> {
        if !fits_model_apis(self.name()) {
            return Err(ExportError::NameNotAllowed(self.name().to_owned()));
        }
        let mut definition = Map::new();
        definition.insert("name".into(), self.name().into());
        if let Some(description) = self.description() {
            definition.insert("description".into(), description.into());
        }
        definition.insert(schema_key.into(), Value::Object(self.input_schema().clone()));
        Ok(definition)
    }
}
