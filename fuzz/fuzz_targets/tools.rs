//! The tools both targets serve: an enum, numbers, optional and defaulted parameters,
//! nested and recursive structures, structured output, a sync tool.

use mcp_toolkit::{Json, ToolError, tool};
use std::collections::HashMap;

#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    Add,
    Divide,
}

/// Arithmetic.
#[tool]
pub async fn calculator(operation: Operation, a: f64, b: f64) -> Result<f64, ToolError> {
    match operation {
        Operation::Add => Ok(a + b),
        Operation::Divide if b == 0.0 => Err(ToolError::new("division by zero")),
        Operation::Divide => Ok(a / b),
    }
}

#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
pub struct Filter {
    pub tags: Vec<String>,
    pub limit: Option<u8>,
    pub nested: Option<Box<Filter>>,
}

/// Echoes a filter back as structured output.
#[tool]
pub async fn search(
    query: String,
    filter: Option<Filter>,
    #[default(10)] page: u32,
    extra: HashMap<String, i64>,
) -> Json<(String, Option<Filter>, u32, usize)> {
    Json((query, filter, page, extra.len()))
}

/// A sync tool.
#[tool]
pub fn count(text: String) -> usize {
    text.split_whitespace().count()
}
