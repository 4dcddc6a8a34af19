use mcp_toolkit::resource;

mod bytes {
    use super::*;

    /// A board sent as bytes.
    #[resource(uri = "ui://notes/board", app)]
    fn board() -> Vec<u8> {
        b"<!DOCTYPE html>".to_vec()
    }
}

mod number {
    use super::*;

    /// A board that is a number.
    #[resource(uri = "ui://notes/count", app)]
    fn board() -> Result<u32, std::io::Error> {
        Ok(3)
    }
}

mod nothing {
    use super::*;

    /// A board that returns nothing.
    #[resource(uri = "ui://notes/empty", app)]
    fn board() {}
}

fn main() {}
