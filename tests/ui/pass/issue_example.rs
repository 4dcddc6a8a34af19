//! The code of the issue that specified `#[tool]`, verbatim in shape.
use mcp_toolkit::{Json, ToolError, tool, tools};

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Operation {
    Add,
    Subtract,
    Multiply,
    Divide,
}

/// Perform basic arithmetic on two numbers.
#[tool(annotations(read_only, idempotent))]
async fn calculator(
    /// The operation to perform
    operation: Operation,
    /// The first operand
    a: f64,
    /// The second operand
    b: f64,
) -> Result<f64, ToolError> {
    match operation {
        Operation::Add => Ok(a + b),
        Operation::Subtract => Ok(a - b),
        Operation::Multiply => Ok(a * b),
        Operation::Divide if b == 0.0 => Err(ToolError::new("division by zero")),
        Operation::Divide => Ok(a / b),
    }
}

#[derive(serde::Serialize, schemars::JsonSchema)]
struct TextStats {
    characters: usize,
    words: usize,
}

/// Count the characters and words of a text.
///
/// # Arguments
/// * `text` - The text to analyze
#[tool(name = "text_analyzer")]
fn analyze(text: String) -> Json<TextStats> {
    Json(TextStats { characters: text.chars().count(), words: text.split_whitespace().count() })
}

fn main() {
    let tools = tools![calculator, analyze];
    assert_eq!(tools.len(), 2);
}
