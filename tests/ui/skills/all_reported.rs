//! Every mistake in a folder of skills arrives in one compile, each naming its file: a
//! `SKILL.md` outside any skill's folder, a bad name, a misnamed folder, a missing
//! description, a reserved metadata key and a file name no URI can hold.

fn main() {
    let _ = mcp_toolkit::skills!("../../../tmp/skills-fixtures/everything");
}
