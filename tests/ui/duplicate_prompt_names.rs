use mcp_toolkit::{prompt, prompts};

/// Asks for a summary.
#[prompt(name = "summary")]
fn summarize(text: String) -> String {
    format!("Summarize:\n\n{text}")
}

/// Also asks for a summary.
#[prompt]
fn summary(text: String) -> String {
    format!("Summarize briefly:\n\n{text}")
}

fn main() {
    let _ = prompts![summarize, summary];
}
