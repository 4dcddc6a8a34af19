//! `#[tool]` and `#[prompt]` mistakes are compile errors at the offending token, saying what
//! is wrong and what is accepted. Each case in `tests/ui` holds one mistake (the prompt's
//! are `prompt_*` and `*_prompt*`); `several_mistakes` proves they all arrive in one compile. Regenerate with `TRYBUILD=overwrite` and read the diff.

#[test]
fn compile_errors() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
    cases.pass("tests/ui/pass/*.rs");
}
