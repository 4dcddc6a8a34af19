//! A skill of 513 files and one of more than 16 MiB. Their folders are too large to keep in
//! the repository: `tests/compile_errors.rs` makes them (the big file sparse) in the
//! target's `tmp/` folder, which is `../../../tmp` from the crate trybuild compiles.

fn main() {
    let _ = mcp_toolkit::skills!("../../../tmp/skills-limits");
}
