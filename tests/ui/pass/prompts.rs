//! Every form of `#[prompt]`: sync and async fns, optional and defaulted arguments, injected
//! parameters, every return type, and the attribute's keys.
use mcp_toolkit::content::Role;
use mcp_toolkit::protocol::ProtocolVersion;
use mcp_toolkit::{Content, Context, prompt::GetPromptResult, prompt::PromptMessage, State, ToolError, prompt, prompts};
use std::borrow::Cow;

struct Style {
    tone: &'static str,
}

/// Asks the model to review code.
#[prompt]
fn review_code(
    /// The code to review
    code: String,
    /// The language it is written in
    language: Option<String>,
) -> String {
    format!(
        "Review this {} code:\n\n{code}",
        language.as_deref().unwrap_or("source")
    )
}

/// Asks for a summary of at most some words.
///
/// # Arguments
/// * `words` - The most words to use
#[prompt(
    name = "summary",
    title = "Summary",
    icons("https://example.com/summary.png"),
    meta(cost = 1)
)]
async fn summarize(
    text: String,
    #[default(100)] words: u32,
    style: State<Style>,
    cx: Context,
) -> Vec<PromptMessage> {
    let _ = cx.request_id();
    vec![
        PromptMessage::user(format!(
            "Summarize in at most {words} words, {}:\n\n{text}",
            style.tone
        )),
        PromptMessage::assistant("Here is the summary:"),
    ]
}

/// Greets.
#[prompt]
fn greeting() -> &'static str {
    "Hello!"
}

/// Greets, borrowed or owned.
#[prompt]
fn cow_greeting() -> Cow<'static, str> {
    Cow::Borrowed("Hello!")
}

/// Shows a picture.
#[prompt]
fn picture() -> PromptMessage {
    PromptMessage::new(Role::User, Content::image_base64("iVBORw==", "image/png"))
}

/// Plays a sound and embeds a file.
#[prompt]
async fn media() -> Vec<PromptMessage> {
    vec![
        PromptMessage::new(Role::User, Content::audio_base64("UklGRg==", "audio/wav")),
        PromptMessage::new(
            Role::Assistant,
            Content::embedded_text("file:///notes.md", None, "# Notes"),
        ),
    ]
}

/// A whole result.
#[prompt(description = "Builds the whole result.")]
fn whole(#[default("en".to_string())] locale: String) -> GetPromptResult {
    GetPromptResult::new(vec![PromptMessage::user(locale)]).with_description("in a locale")
}

/// May fail.
#[prompt]
async fn fallible(r#type: String) -> Result<String, ToolError> {
    if r#type.is_empty() {
        return Err(ToolError::new("`type` must not be empty"));
    }
    Ok(r#type)
}

/// May fail with text.
#[prompt]
fn fallible_messages(count: Option<u8>) -> Result<Vec<PromptMessage>, String> {
    match count {
        Some(n) => Ok((0..n).map(|i| PromptMessage::user(i.to_string())).collect()),
        None => Err("give a count".to_owned()),
    }
}

mod nested {
    use mcp_toolkit::prompt;

    /// Lives in a module.
    #[prompt]
    pub fn elsewhere() -> String {
        String::new()
    }
}

fn main() {
    let prompts = prompts![
        review_code,
        summarize,
        greeting,
        cow_greeting,
        picture,
        media,
        whole,
        fallible,
        fallible_messages,
        nested::elsewhere,
    ];
    let names: Vec<&str> = prompts.iter().map(|p| p.name()).collect();
    assert_eq!(
        names,
        [
            "review_code",
            "summary",
            "greeting",
            "cow_greeting",
            "picture",
            "media",
            "whole",
            "fallible",
            "fallible_messages",
            "elsewhere"
        ]
    );
    let summary = prompts[1].definition(ProtocolVersion::LATEST);
    assert_eq!(summary["title"], "Summary");
    assert_eq!(
        summary["description"],
        "Asks for a summary of at most some words."
    );
    assert_eq!(summary["icons"][0]["src"], "https://example.com/summary.png");
    assert_eq!(summary["_meta"]["cost"], 1);
    assert_eq!(
        summary["arguments"],
        serde_json::json!([
            {"name": "text", "required": true},
            {"name": "words", "description": "The most words to use", "required": false}
        ])
    );
    assert_eq!(prompts[7].arguments()[0].name, "type");
    assert_eq!(prompts[2].title(), Some("Greeting"));

    // The fns are untouched.
    assert_eq!(greeting(), "Hello!");
    assert!(review_code("x".into(), None).contains("source code"));
}
