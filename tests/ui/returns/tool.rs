// What a tool cannot return.
// One module per mistake; one compile reports them all.

mod return_impl_trait {
    use mcp_toolkit::tool;

    /// Greets someone.
    #[tool]
    fn greet(name: String) -> impl std::fmt::Display {
        format!("Hello, {name}!")
    }
}

mod return_not_a_result {
    use mcp_toolkit::tool;

    struct Report {
        lines: usize,
    }

    /// Reports on a text.
    #[tool]
    fn report(text: String) -> Report {
        Report { lines: text.lines().count() }
    }
}

mod return_json_without_schema {
    use mcp_toolkit::{Json, tool};

    #[derive(serde::Serialize)]
    struct Report {
        lines: usize,
    }

    /// Reports on a text.
    #[tool]
    fn report(text: String) -> Json<Report> {
        Json(Report { lines: text.lines().count() })
    }
}

mod return_json_not_serializable {
    use mcp_toolkit::{Json, ToolError, tool};

    #[derive(schemars::JsonSchema)]
    struct Report {
        lines: usize,
    }

    /// Reports on a text.
    #[tool]
    fn report(text: String) -> Result<Json<Report>, ToolError> {
        Ok(Json(Report { lines: text.lines().count() }))
    }
}

fn main() {}
