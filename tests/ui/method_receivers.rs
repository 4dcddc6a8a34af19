use mcp_toolkit::tool;

struct Counter {
    count: u64,
}

impl Counter {
    /// Counts up.
    #[tool]
    fn bump(&mut self) -> u64 {
        self.count += 1;
        self.count
    }

    /// Gives the counter away.
    #[tool]
    fn consume(self) -> u64 {
        self.count
    }

    /// Needs the box.
    #[tool]
    fn boxed(self: Box<Self>) -> u64 {
        self.count
    }
}

fn main() {}
