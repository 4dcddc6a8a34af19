//! The two tools' own work, shared by both peers (included with `#[path]`) and written as
//! in `examples/calculator.rs` and `examples/text_analyzer.rs`, so that every server spends
//! the same time in the tool itself.

/// The four operations of `calculator`.
#[derive(Clone, Copy, Debug)]
pub enum Operation {
    Add,
    Subtract,
    Multiply,
    Divide,
}

impl Operation {
    /// The operation named `name` on the wire (`add`, `subtract`, `multiply`, `divide`).
    #[allow(dead_code)] // the floor parses names itself; rmcp-peer goes through serde
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "add" => Some(Self::Add),
            "subtract" => Some(Self::Subtract),
            "multiply" => Some(Self::Multiply),
            "divide" => Some(Self::Divide),
            _ => None,
        }
    }
}

/// `calculator`: the result, or the message of the tool error.
pub fn calculate(operation: Operation, a: f64, b: f64) -> Result<f64, &'static str> {
    match operation {
        Operation::Add => Ok(a + b),
        Operation::Subtract => Ok(a - b),
        Operation::Multiply => Ok(a * b),
        Operation::Divide if b == 0.0 => Err("cannot divide by zero: `b` must be a non-zero number"),
        Operation::Divide => Ok(a / b),
    }
}

/// `text_analyzer`: (characters, words) of `text`.
pub fn analyze(text: &str) -> (usize, usize) {
    (text.chars().count(), text.split_whitespace().count())
}
