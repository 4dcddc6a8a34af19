// Items `#[tool]` does not go on.
// One module per mistake; one compile reports them all.

mod not_a_fn {
    use mcp_toolkit::tool;

    /// A calculator.
    #[tool]
    struct Calculator {
        precision: u8,
    }

    pub fn main() {
        let _ = Calculator { precision: 2 }.precision;
    }
}

mod generic_fn {
    use mcp_toolkit::tool;

    /// Echoes a value.
    #[tool]
    fn echo<T: serde::de::DeserializeOwned + schemars::JsonSchema>(value: T) -> String {
        let _ = value;
        String::new()
    }
}

mod method_receivers {
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
}

fn main() {}
