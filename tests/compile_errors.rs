//! `#[tool]`, `#[prompt]` and `#[resource]` mistakes are compile errors at the offending token,
//! saying what is wrong and what is accepted. The cases live in `tests/ui/<topic>/`; a case
//! holds related mistakes, one module each, which one compile reports together, and the
//! `several_mistakes` and `*_all_reported` cases prove that one item's mistakes all arrive at
//! once. `tests/ui/pass` holds forms that must keep compiling. Regenerate the expected output
//! with `TRYBUILD=overwrite cargo test --test compile_errors` and read the diff.

/// The topics of `tests/ui`, each a folder of cases.
const TOPICS: [&str; 8] = [
    "tool_attribute",
    "parameters",
    "returns",
    "prompt",
    "resource",
    "uri_template",
    "completion",
    "lists",
];

#[test]
fn compile_errors() {
    let cases = trybuild::TestCases::new();
    for topic in TOPICS {
        cases.compile_fail(format!("tests/ui/{topic}/*.rs"));
    }
    cases.pass("tests/ui/pass/*.rs");
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
