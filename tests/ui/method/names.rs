// Names a custom method cannot have: one of the protocol's, one without a vendor prefix
// (written or taken from the fn), and one given twice in `methods![...]`.
// One module per mistake; one compile reports them all.

mod core_method_names {
    use mcp_toolkit::{method, Json};

    /// Calls a tool.
    #[method(name = "tools/call")]
    fn call() -> Json<u8> {
        Json(1)
    }

    /// Starts a session.
    #[method(name = "initialize")]
    fn initialize() -> Json<u8> {
        Json(1)
    }

    /// Reports progress.
    #[method(name = "notifications/progress")]
    fn progress() {}
}

mod name_without_a_prefix {
    use mcp_toolkit::{method, Json};

    /// Counts the notes.
    #[method(name = "stats")]
    fn stats() -> Json<u8> {
        Json(1)
    }

    /// Counts the notes, named by its fn.
    #[method]
    fn count() -> Json<u8> {
        Json(1)
    }
}

mod name_twice_in_methods {
    use mcp_toolkit::{method, methods, Json};

    /// Counts.
    #[method(name = "com.example/count")]
    fn count() -> Json<u8> {
        Json(1)
    }

    /// Counts again.
    #[method(name = "com.example/count")]
    fn again() -> Json<u8> {
        Json(2)
    }

    pub fn main() {
        let _ = methods![count, again];
    }
}

fn main() {}
