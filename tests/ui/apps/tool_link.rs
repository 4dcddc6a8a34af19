use mcp_toolkit::{resource, tool};

/// The notes, as Markdown: a resource but not a view.
#[resource(uri = "notes://all")]
fn all_notes() -> &'static str {
    "# Notes"
}

mod not_ui {
    use super::*;

    /// Lists the notes on a web page.
    #[tool(app = "https://example.com/board")]
    fn list_notes() -> &'static str {
        ""
    }
}

mod template {
    use super::*;

    /// Lists a team's notes.
    #[tool(app = "ui://boards/{team}")]
    fn list_notes(team: String) -> String {
        team
    }
}

mod not_a_view {
    use super::*;

    /// Lists the notes in a resource that is no view.
    #[tool(app = all_notes)]
    fn list_notes() -> &'static str {
        ""
    }
}

mod number {
    use super::*;

    /// Lists the notes in view number three.
    #[tool(app = 3)]
    fn list_notes() -> &'static str {
        ""
    }
}

mod visibility {
    use super::*;

    /// Adds a note from the board.
    #[tool(app = "ui://notes/board", visibility = ["app", "user", "app"])]
    fn board_add(title: String) -> String {
        title
    }

    /// Adds a note from nowhere.
    #[tool(app = "ui://notes/board", visibility = [])]
    fn nowhere_add(title: String) -> String {
        title
    }

    /// Adds a note, said twice.
    #[tool(app = "ui://notes/board", visibility = app, meta(ui = 1, "ui/resourceUri" = "ui://x/y"))]
    fn twice_add(title: String) -> String {
        title
    }
}

fn main() {}
