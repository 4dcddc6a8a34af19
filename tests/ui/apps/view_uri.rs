use mcp_toolkit::resource;

mod not_ui {
    use super::*;

    /// A board that is not a `ui://` resource.
    #[resource(uri = "notes://board", app)]
    fn board() -> &'static str {
        "<!DOCTYPE html>"
    }
}

mod template {
    use super::*;

    /// One board per team.
    #[resource(uri = "ui://boards/{team}", app)]
    fn board(team: String) -> String {
        team
    }
}

mod mime_type {
    use super::*;

    /// A board with a MIME type of its own.
    #[resource(uri = "ui://notes/board", mime_type = "text/html", app(prefers_border))]
    fn board() -> &'static str {
        "<!DOCTYPE html>"
    }
}

mod app_value {
    use super::*;

    /// A board whose `app` is a string.
    #[resource(uri = "ui://notes/board", app = "yes")]
    fn board() -> &'static str {
        "<!DOCTYPE html>"
    }
}

fn main() {}
