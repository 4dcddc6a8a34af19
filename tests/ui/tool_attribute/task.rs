// Mistakes in `task` of `#[tool(...)]`.
// One module per mistake; one compile reports them all.

mod unknown_task_support {
    use mcp_toolkit::tool;

    /// Re-indexes everything.
    #[tool(task = "always")]
    async fn reindex() -> &'static str {
        "done"
    }
}

mod task_support_capitalized {
    use mcp_toolkit::tool;

    /// Re-indexes everything.
    #[tool(task = "Required")]
    async fn reindex() -> &'static str {
        "done"
    }
}

mod task_as_true {
    use mcp_toolkit::tool;

    /// Builds the report.
    #[tool(task = true)]
    async fn build_report() -> &'static str {
        "report"
    }
}

mod task_as_false {
    use mcp_toolkit::tool;

    /// Builds the report.
    #[tool(task = false)]
    async fn build_report() -> &'static str {
        "report"
    }
}

mod task_as_list {
    use mcp_toolkit::tool;

    /// Builds the report.
    #[tool(task(required))]
    async fn build_report() -> &'static str {
        "report"
    }
}

mod task_as_identifier {
    use mcp_toolkit::tool;

    /// Builds the report.
    #[tool(task = required)]
    async fn build_report() -> &'static str {
        "report"
    }
}

mod duplicate_task {
    use mcp_toolkit::tool;

    /// Builds the report.
    #[tool(task, name = "report", task = "required")]
    async fn build_report() -> &'static str {
        "report"
    }
}

mod unknown_task_support_on_method {
    use mcp_toolkit::tool;

    struct Crawler;

    impl Crawler {
        /// Crawls the site.
        #[tool(task = "sometimes")]
        fn crawl(&self, site: String) -> String {
            site
        }
    }
}

fn main() {}
