//! `#[tool]`, `#[prompt]`, `#[resource]` and `#[method]` mistakes are compile errors at the offending token,
//! saying what is wrong and what is accepted. The cases live in `tests/ui/<topic>/`; a case
//! holds related mistakes, one module each, which one compile reports together, and the
//! `several_mistakes` and `*_all_reported` cases prove that one item's mistakes all arrive at
//! once. `tests/ui/pass` holds forms that must keep compiling. Regenerate the expected output
//! with `TRYBUILD=overwrite cargo test --test compile_errors` and read the diff.

/// The topics of `tests/ui`, each a folder of cases.
const TOPICS: [&str; 13] = [
    "tool_attribute",
    "discovery",
    "apps",
    "parameters",
    "returns",
    "prompt",
    "resource",
    "uri_template",
    "completion",
    "lists",
    "asks",
    "skills",
    "method",
];

#[test]
fn compile_errors() {
    make_oversized_skills();
    copy_skill_fixtures();
    let cases = trybuild::TestCases::new();
    for topic in TOPICS {
        cases.compile_fail(format!("tests/ui/{topic}/*.rs"));
    }
    cases.pass("tests/ui/pass/*.rs");
}

/// The folder `tests/ui/skills/limits.rs` embeds: a skill of 513 files and one of 16 MiB and
/// a few bytes (a sparse file), too large to keep in the repository.
fn make_oversized_skills() {
    let root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("skills-limits");
    let manifest = |name: &str| format!("---\nname: {name}\ndescription: Too large.\n---\n");
    let many = root.join("too-many-files");
    std::fs::create_dir_all(&many).expect("the target's tmp folder is writable");
    std::fs::write(many.join("SKILL.md"), manifest("too-many-files")).expect("writable");
    for i in 1..=512 {
        std::fs::write(many.join(format!("{i:03}.txt")), "").expect("writable");
    }
    let big = root.join("too-many-bytes");
    std::fs::create_dir_all(&big).expect("writable");
    std::fs::write(big.join("SKILL.md"), manifest("too-many-bytes")).expect("writable");
    let data = std::fs::File::create(big.join("data.bin")).expect("writable");
    data.set_len(16 * 1024 * 1024).expect("a sparse file can be made");
}

/// The folders of skills the `tests/ui/skills` cases and `tests/ui/pass/skills.rs` embed
/// (the fixtures, and the examples' skills), copied afresh into the target's `tmp/` folder. trybuild compiles each case in a crate of its own, in
/// `<target>/tests/trybuild/<crate>`, and `skills!` reads a path relative to that crate's
/// `Cargo.toml`: `../../../tmp` is the target's `tmp/` wherever the target folder is
/// (`CARGO_TARGET_DIR` may put it outside this clone), where a path back into the clone
/// would hold only for `target/` inside it. The paths the expected output shows stay the
/// same on every machine.
fn copy_skill_fixtures() {
    fn copy(from: &std::path::Path, to: &std::path::Path) {
        std::fs::create_dir_all(to).expect("the target's tmp folder is writable");
        for entry in std::fs::read_dir(from).expect("the fixtures are readable") {
            let entry = entry.expect("the fixtures are readable");
            let target = to.join(entry.file_name());
            if entry.file_type().expect("the fixtures are readable").is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).expect("the target's tmp folder is writable");
            }
        }
    }
    let clone = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    for (from, to) in [
        ("tests/ui/skills/fixtures", "skills-fixtures"),
        ("examples/skills", "skills-examples/skills"),
        (
            "examples/conformance-skills",
            "skills-examples/conformance-skills",
        ),
    ] {
        let copied = tmp.join(to);
        // A file removed from the clone must not linger in the copy.
        match std::fs::remove_dir_all(&copied) {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => panic!("{} cannot be removed: {error}", copied.display()),
        }
        copy(&clone.join(from), &copied);
    }
}

/// A folder of cases that no topic names would never run.
#[test]
fn every_folder_of_cases_is_run() {
    let ui = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    for entry in std::fs::read_dir(&ui).expect("tests/ui is readable") {
        let path = entry.expect("tests/ui is readable").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        assert!(
            path.is_dir() && (name == "pass" || TOPICS.contains(&name)),
            "{} is not a topic of compile_errors.rs: list it in `TOPICS`",
            path.display()
        );
    }
}

/// What a user reads names only what a user can name: no `__` item (the expansions' own, or
/// `mcp_toolkit::__private`'s) appears in any expected message, note or label, and no list
/// of types is cut short (`and 133 others`). The source lines rustc quotes from the user's
/// own file (numbered, in trybuild's output) may hold anything.
#[test]
fn no_message_names_a_hidden_item() {
    let ui = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    let mut found = Vec::new();
    for topic in TOPICS {
        let folder = ui.join(topic);
        for entry in std::fs::read_dir(&folder).expect("tests/ui is readable") {
            let path = entry.expect("tests/ui is readable").path();
            if path.extension().is_none_or(|ext| ext != "stderr") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a .stderr is readable");
            for (number, line) in text.lines().enumerate() {
                if !quotes_the_users_source(line) && (names_a_hidden_item(line) || cuts_a_list_short(line)) {
                    found.push(format!("{}:{}: {line}", path.display(), number + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "messages that name hidden items:\n{}",
        found.join("\n")
    );
}

/// A line of the user's source as rustc quotes it: `12 |     code`.
fn quotes_the_users_source(line: &str) -> bool {
    let line = line.trim_start();
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && line[digits..].trim_start().starts_with('|')
}

/// Whether `line` holds a name that starts with `__`, such as `__private` (and not the
/// `|__^` of a span drawn over several lines).
fn names_a_hidden_item(line: &str) -> bool {
    line.as_bytes()
        .windows(3)
        .any(|w| w[0] == b'_' && w[1] == b'_' && w[2].is_ascii_alphabetic())
}

/// The last line of a list of types rustc cut short: `and $N others`.
fn cuts_a_list_short(line: &str) -> bool {
    let line = line.trim();
    line.starts_with("and ") && line.ends_with(" others")
}

#[test]
fn a_hidden_name_is_told_from_a_drawn_span() {
    assert!(names_a_hidden_item(
        "note: required by a bound in `mcp_toolkit::__private::entry`"
    ));
    assert!(names_a_hidden_item(
        "   = help: the trait `__McpInjected1` is not implemented"
    ));
    assert!(!names_a_hidden_item("   | |__________^"));
    assert!(quotes_the_users_source("16 |         point: Point,"));
    assert!(!quotes_the_users_source(
        "   |     fn __mcp_param(&self) -> Param<T>"
    ));
    assert!(cuts_a_list_short("           and $N others"));
}
