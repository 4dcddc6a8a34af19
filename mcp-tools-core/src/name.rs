//! The name rule of the MCP specification (its tool names, from revision 2025-11-25 on): a
//! name has 1 to 128 characters, each of `A-Z a-z 0-9 _ - .`. `#[tool]` and `#[prompt]` check it
//! at compile time; `mcp_toolkit::tool::validate_tool_name` checks tools built from data.
//!
//! Beside it, the rule of a tool's group (`#[tool(group = "billing")]`, `Tool::with_group`):
//! a word like a name, without dots, of 1 to 64 characters ([`check_group`]).

use std::fmt;

/// The longest name the specification allows, in characters.
pub const MAX_LEN: usize = 128;

/// The characters a name may hold, as the errors list them.
const ALLOWED: &str = "`A-Z`, `a-z`, `0-9`, `_`, `-` and `.`";

/// Why a name breaks the rule. Its text starts with "name", to follow the kind of thing
/// named: "tool name is empty; ...", "prompt name \`a b\` contains the character ...".
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NameError {
    /// The name is the empty string.
    Empty,
    /// The name has characters outside `A-Z a-z 0-9 _ - .`.
    Characters {
        /// The name.
        name: String,
        /// Each offending character once, in the order they first appear.
        characters: Vec<char>,
    },
    /// The name is longer than [`MAX_LEN`] characters.
    TooLong {
        /// Its length in characters.
        len: usize,
    },
}

/// Checks a name: 1 to [`MAX_LEN`] characters, each of `A-Z a-z 0-9 _ - .`. A bad character
/// is reported before a bad length.
pub fn check(name: &str) -> Result<(), NameError> {
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    let characters = outside(name, is_name_char);
    if !characters.is_empty() {
        return Err(NameError::Characters {
            name: name.to_owned(),
            characters,
        });
    }
    let len = name.chars().count();
    if len > MAX_LEN {
        return Err(NameError::TooLong { len });
    }
    Ok(())
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// Each character of `text` that `allowed` refuses, once, in the order they first appear.
fn outside(text: &str, allowed: fn(char) -> bool) -> Vec<char> {
    let mut characters: Vec<char> = Vec::new();
    for c in text.chars() {
        if !allowed(c) && !characters.contains(&c) {
            characters.push(c);
        }
    }
    characters
}

/// `character` and `` `/` ``, or `characters` and `` `/`, `?` and ` ` (a space) ``.
fn listed(characters: &[char]) -> (&'static str, String) {
    let described: Vec<String> = characters.iter().map(|&c| describe(c)).collect();
    match described.split_last() {
        Some((last, [])) => ("character", last.clone()),
        Some((last, init)) => ("characters", format!("{} and {last}", init.join(", "))),
        None => ("characters", String::new()),
    }
}

/// A character as an error names it: `` `/` ``, `` ` ` (a space) ``, `a tab`, its code point
/// when it cannot be seen.
pub(crate) fn describe(c: char) -> String {
    match c {
        ' ' => "` ` (a space)".to_owned(),
        '\t' => "a tab".to_owned(),
        c if c.is_ascii_graphic() => format!("`{c}`"),
        c if c.is_ascii() => format!("U+{:04X} (a control character)", c as u32),
        c => format!("`{c}` (U+{:04X}, not ASCII)", c as u32),
    }
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameError::Empty => write!(
                f,
                "name is empty; a name has 1 to {MAX_LEN} characters from {ALLOWED}"
            ),
            NameError::Characters { name, characters } => {
                let (noun, list) = listed(characters);
                write!(
                    f,
                    "name `{name}` contains the {noun} {list}; a name may only contain {ALLOWED}"
                )
            }
            NameError::TooLong { len } => write!(
                f,
                "name is {len} characters long; a name has at most {MAX_LEN} characters"
            ),
        }
    }
}

impl std::error::Error for NameError {}

/// The longest group, in characters.
pub const MAX_GROUP_LEN: usize = 64;

/// The characters a group may hold, as the errors list them.
const GROUP_ALLOWED: &str = "`A-Z`, `a-z`, `0-9`, `_` and `-`";

/// Why a tool's group breaks the rule. Its text starts with "group".
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GroupError {
    /// The group is the empty string.
    Empty,
    /// The group has characters outside `A-Z a-z 0-9 _ -`.
    Characters {
        /// The group.
        group: String,
        /// Each offending character once, in the order they first appear.
        characters: Vec<char>,
    },
    /// The group is longer than [`MAX_GROUP_LEN`] characters.
    TooLong {
        /// Its length in characters.
        len: usize,
    },
}

/// Checks a tool's group: 1 to [`MAX_GROUP_LEN`] characters, each of `A-Z a-z 0-9 _ -` (a
/// name's characters without the dot). A bad character is reported before a bad length.
///
/// ```
/// use mcp_toolkit_core::name::check_group;
///
/// assert!(check_group("billing").is_ok());
/// assert!(check_group("customer-support_v2").is_ok());
/// assert_eq!(
///     check_group("a b").unwrap_err().to_string(),
///     "group `a b` contains the character ` ` (a space); a group is 1 to 64 of `A-Z`, `a-z`, `0-9`, `_` and `-`"
/// );
/// ```
pub fn check_group(group: &str) -> Result<(), GroupError> {
    if group.is_empty() {
        return Err(GroupError::Empty);
    }
    let characters = outside(group, is_group_char);
    if !characters.is_empty() {
        return Err(GroupError::Characters {
            group: group.to_owned(),
            characters,
        });
    }
    let len = group.chars().count();
    if len > MAX_GROUP_LEN {
        return Err(GroupError::TooLong { len });
    }
    Ok(())
}

fn is_group_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-')
}

impl fmt::Display for GroupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GroupError::Empty => write!(
                f,
                "group is empty; a group is 1 to {MAX_GROUP_LEN} of {GROUP_ALLOWED}"
            ),
            GroupError::Characters { group, characters } => {
                let (noun, list) = listed(characters);
                write!(
                    f,
                    "group `{}` contains the {noun} {list}; a group is 1 to {MAX_GROUP_LEN} of {GROUP_ALLOWED}",
                    group.escape_debug()
                )
            }
            GroupError::TooLong { len } => write!(
                f,
                "group is {len} characters long; a group is 1 to {MAX_GROUP_LEN} of {GROUP_ALLOWED}"
            ),
        }
    }
}

impl std::error::Error for GroupError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(name, None)` is a valid name; `(name, Some(culprit))` an invalid one, whose error
    /// contains `culprit`: the offending characters, or what else is wrong.
    const CASES: &[(&str, Option<&str>)] = &[
        // The examples of the specification.
        ("getUser", None),
        ("DATA_EXPORT_v2", None),
        ("admin.tools.list", None),
        // The shortest, every allowed character, and the longest.
        ("a", None),
        ("0", None),
        ("_", None),
        ("az-AZ_09.", None),
        // Too short.
        ("", Some("empty")),
        // Characters outside `A-Z a-z 0-9 _ - .`, each named.
        ("my tool", Some("` ` (a space)")),
        (" lead", Some("` ` (a space)")),
        ("a,b", Some("`,`")),
        ("math/add", Some("`/`")),
        ("add@v2", Some("`@`")),
        ("a:b", Some("`:`")),
        ("a/b@c", Some("the characters `/` and `@`")),
        ("a/b/c", Some("the character `/`")),
        ("bad name!", Some("the characters ` ` (a space) and `!`")),
        ("café", Some("U+00E9")),
        ("日本", Some("U+65E5")),
    ];

    #[test]
    fn follows_the_cases() {
        for &(name, culprit) in CASES {
            match (check(name), culprit) {
                (Ok(()), None) => {}
                (Err(error), Some(culprit)) => {
                    let error = error.to_string();
                    assert!(error.contains(culprit), "{name:?}: {error}");
                    assert!(error.starts_with("name "), "{name:?}: {error}");
                }
                (result, _) => panic!("{name:?}: {result:?}, expected {culprit:?}"),
            }
        }
    }

    #[test]
    fn the_length_is_counted_in_characters() {
        assert_eq!(check(&"x".repeat(MAX_LEN)), Ok(()));
        assert_eq!(
            check(&"x".repeat(MAX_LEN + 1)),
            Err(NameError::TooLong { len: MAX_LEN + 1 })
        );
        // A bad character is reported before the length.
        let long = format!("{}!", "x".repeat(MAX_LEN));
        assert_eq!(
            check(&long),
            Err(NameError::Characters {
                name: long.clone(),
                characters: vec!['!'],
            })
        );
    }

    #[test]
    fn says_what_is_allowed() {
        let cases = [
            (
                "",
                "name is empty; a name has 1 to 128 characters from `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`",
            ),
            (
                "my tool",
                "name `my tool` contains the character ` ` (a space); a name may only contain `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`",
            ),
            (
                "a/b@c/",
                "name `a/b@c/` contains the characters `/` and `@`; a name may only contain `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`",
            ),
            (
                "a\tb\u{7}-",
                "name `a\tb\u{7}-` contains the characters a tab and U+0007 (a control character); a name may only contain `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`",
            ),
            (
                "a b,c:d",
                "name `a b,c:d` contains the characters ` ` (a space), `,` and `:`; a name may only contain `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`",
            ),
            (
                "café",
                "name `café` contains the character `é` (U+00E9, not ASCII); a name may only contain `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`",
            ),
        ];
        for (name, expected) in cases {
            assert_eq!(check(name).unwrap_err().to_string(), expected);
        }
        assert_eq!(
            check(&"x".repeat(129)).unwrap_err().to_string(),
            "name is 129 characters long; a name has at most 128 characters"
        );
    }

    #[test]
    fn a_group_is_a_name_without_dots_of_at_most_64_characters() {
        for group in [
            "billing",
            "a",
            "0",
            "_",
            "-",
            "az-AZ_09",
            &"x".repeat(MAX_GROUP_LEN),
        ] {
            assert_eq!(check_group(group), Ok(()), "{group:?}");
        }
        let allowed = "a group is 1 to 64 of `A-Z`, `a-z`, `0-9`, `_` and `-`";
        let cases = [
            ("", format!("group is empty; {allowed}")),
            (
                "a b",
                format!("group `a b` contains the character ` ` (a space); {allowed}"),
            ),
            (
                "billing.eu",
                format!("group `billing.eu` contains the character `.`; {allowed}"),
            ),
            (
                "a/b c",
                format!("group `a/b c` contains the characters `/` and ` ` (a space); {allowed}"),
            ),
            (
                "caf\u{e9}",
                format!("group `caf\u{e9}` contains the character `\u{e9}` (U+00E9, not ASCII); {allowed}"),
            ),
            (
                "a\nb",
                format!("group `a\\nb` contains the character U+000A (a control character); {allowed}"),
            ),
            (&"x".repeat(65), format!("group is 65 characters long; {allowed}")),
        ];
        for (group, expected) in cases {
            assert_eq!(check_group(group).unwrap_err().to_string(), expected, "{group:?}");
        }
        // A bad character is reported before the length.
        let long = format!("{}.", "x".repeat(MAX_GROUP_LEN));
        assert!(matches!(check_group(&long), Err(GroupError::Characters { .. })));
    }
}
