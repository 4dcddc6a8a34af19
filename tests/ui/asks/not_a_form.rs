use mcp_toolkit::ask::Elicitation;
use mcp_toolkit::{tool, Context, ToolError};

/// Has no schema: the form's fields cannot be described.
#[derive(serde::Deserialize)]
struct NoSchema {
    address: String,
}

/// Cannot be decoded from the user's answer.
#[derive(schemars::JsonSchema)]
struct NoDeserialize {
    address: String,
}

/// Asks for a form whose type has no schema.
#[tool]
async fn ship(cx: Context) -> Result<String, ToolError> {
    match cx.elicit::<NoSchema>("Where to?").await? {
        Elicitation::Accept(form) => Ok(form.address),
        _ => Ok("not shipped".to_owned()),
    }
}

/// Asks for a form whose type cannot be decoded.
#[tool]
async fn deliver(cx: Context) -> Result<String, ToolError> {
    match cx.elicit::<NoDeserialize>("Where to?").await? {
        Elicitation::Accept(form) => Ok(form.address),
        _ => Ok("not delivered".to_owned()),
    }
}

fn main() {}
