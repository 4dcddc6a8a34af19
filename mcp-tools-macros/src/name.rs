//! The name rule of the MCP specification, checked at compile time, and the title a name
//! implies.
//!
//! The runtime crate holds the same rule for tools built from data
//! (`mcp_toolkit::validate_tool_name`); both are tested against one table of cases,
//! `name_cases.rs`, so they cannot drift.

/// The longest name the specification allows.
pub(crate) const MAX_NAME_LEN: usize = 128;

/// Checks the name of a `kind` (`"tool"`): 1 to 128 characters, each of
/// `A-Z a-z 0-9 _ - .`.
///
/// The error says what is wrong and what is allowed; every offending character is named.
pub(crate) fn check_name(kind: &str, name: &str) -> Result<(), String> {
    const ALLOWED: &str = "`A-Z`, `a-z`, `0-9`, `_`, `-` and `.`";
    if name.is_empty() {
        return Err(format!(
            "{kind} name is empty; a name has 1 to {MAX_NAME_LEN} characters from {ALLOWED}"
        ));
    }
    let mut bad: Vec<char> = Vec::new();
    for c in name.chars() {
        if !is_name_char(c) && !bad.contains(&c) {
            bad.push(c);
        }
    }
    if !bad.is_empty() {
        let listed: Vec<String> = bad.iter().map(|&c| describe_char(c)).collect();
        let (noun, list) = match listed.as_slice() {
            [one] => ("character", one.clone()),
            [init @ .., last] => ("characters", format!("{} and {last}", init.join(", "))),
            [] => unreachable!("`bad` is not empty"),
        };
        return Err(format!(
            "{kind} name `{name}` contains the {noun} {list}; a name may only contain {ALLOWED}"
        ));
    }
    let len = name.chars().count();
    if len > MAX_NAME_LEN {
        return Err(format!(
            "{kind} name is {len} characters long; a name has at most {MAX_NAME_LEN} characters"
        ));
    }
    Ok(())
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

fn describe_char(c: char) -> String {
    match c {
        ' ' => "` ` (a space)".to_owned(),
        '\t' => "a tab".to_owned(),
        c if c.is_ascii_graphic() => format!("`{c}`"),
        c if c.is_ascii() => format!("U+{:04X} (a control character)", c as u32),
        c => format!("`{c}` (U+{:04X}, not ASCII)", c as u32),
    }
}

/// A human title from a tool name: `text_analyzer` → `Text Analyzer`,
/// `getWeather` → `Get Weather`, `admin.tools.list` → `Admin Tools List`.
pub(crate) fn title_from_name(name: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut previous: Option<char> = None;
    for c in name.chars() {
        if matches!(c, '_' | '-' | '.' | ' ') {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous = None;
            continue;
        }
        let camel_boundary =
            previous.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit()) && c.is_ascii_uppercase();
        if camel_boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        current.push(c);
        previous = Some(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
        .iter()
        .map(|w| {
            let mut chars = w.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    include!("name_cases.rs");

    #[test]
    fn follows_the_shared_cases() {
        for &(name, culprit) in NAME_CASES {
            match (check_name("tool", name), culprit) {
                (Ok(()), None) => {}
                (Err(error), Some(culprit)) => {
                    assert!(error.contains(culprit), "{name:?}: {error}");
                    assert!(error.contains("name"), "{name:?}: {error}");
                }
                (result, _) => panic!("{name:?}: {result:?}, expected {culprit:?}"),
            }
        }
    }

    #[test]
    fn says_what_is_allowed() {
        let cases = [
            (
                "",
                "tool name is empty; a name has 1 to 128 characters from `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`",
            ),
            (
                "my tool",
                "tool name `my tool` contains the character ` ` (a space); a name may only contain `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`",
            ),
            (
                "a/b@c",
                "tool name `a/b@c` contains the characters `/` and `@`; a name may only contain `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`",
            ),
            (
                "a\tb\u{7}",
                "tool name `a\tb\u{7}` contains the characters a tab and U+0007 (a control character); a name may only contain `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`",
            ),
            (
                "café",
                "tool name `café` contains the character `é` (U+00E9, not ASCII); a name may only contain `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`",
            ),
        ];
        for (name, expected) in cases {
            assert_eq!(check_name("tool", name).unwrap_err(), expected);
        }
        assert_eq!(
            check_name("tool", &"x".repeat(129)).unwrap_err(),
            "tool name is 129 characters long; a name has at most 128 characters"
        );
    }

    #[test]
    fn titles() {
        assert_eq!(title_from_name("text_analyzer"), "Text Analyzer");
        assert_eq!(title_from_name("calculator"), "Calculator");
        assert_eq!(title_from_name("getWeather"), "Get Weather");
        assert_eq!(title_from_name("admin.tools.list"), "Admin Tools List");
        assert_eq!(title_from_name("DATA_EXPORT_v2"), "DATA EXPORT V2");
        assert_eq!(title_from_name("get-user-by-id"), "Get User By Id");
    }
}
