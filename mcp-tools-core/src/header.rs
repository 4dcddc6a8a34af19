//! The rule of revision 2026-07-28 for the name of a header a tool parameter is mirrored
//! into (its `x-mcp-header` annotation, sent as `Mcp-Param-{name}`): not empty, an HTTP
//! field-name token (RFC 9110, section 5.1: `1*tchar`, which leaves out control
//! characters, spaces, `:` and anything not ASCII), and, among one tool's parameters,
//! unique ignoring case. `#[tool]` checks it at compile time; the runtime checks tools
//! built from data, and the server refuses to start with a tool that breaks it.

use std::fmt;

/// What the header names start with: a parameter named `Region` travels as
/// `Mcp-Param-Region`.
pub const PREFIX: &str = "Mcp-Param-";

/// The characters a token may hold besides letters and digits, as the errors list them.
const ALLOWED: &str = "ASCII letters, digits and ``!#$%&'*+-.^_`|~``";

/// Why a header name breaks the rule. Its text starts with "header name".
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeaderNameError {
    /// The name is the empty string.
    Empty,
    /// The name has characters that are not `tchar`s.
    Characters {
        /// The name.
        name: String,
        /// Each offending character once, in the order they first appear.
        characters: Vec<char>,
    },
}

/// Checks a header name: one or more `tchar`s (RFC 9110, section 5.1).
///
/// ```
/// use mcp_toolkit_core::header::check;
///
/// assert!(check("Region").is_ok());
/// assert!(check("X_Tenant.v2").is_ok());
/// assert!(check("").is_err());
/// assert!(check("Tenant Id").is_err());
/// assert!(check("a:b").is_err());
/// ```
pub fn check(name: &str) -> Result<(), HeaderNameError> {
    if name.is_empty() {
        return Err(HeaderNameError::Empty);
    }
    let mut characters: Vec<char> = Vec::new();
    for c in name.chars() {
        if !is_tchar(c) && !characters.contains(&c) {
            characters.push(c);
        }
    }
    if characters.is_empty() {
        Ok(())
    } else {
        Err(HeaderNameError::Characters {
            name: name.to_owned(),
            characters,
        })
    }
}

/// Whether two header names are one: HTTP field names are case-insensitive.
///
/// ```
/// assert!(mcp_toolkit_core::header::same("Region", "REGION"));
/// assert!(!mcp_toolkit_core::header::same("Region", "Regions"));
/// ```
pub fn same(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

/// `tchar` of RFC 9110, section 5.6.2.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            '!' | '#' | '$' | '%' | '&' | '\'' | '*' | '+' | '-' | '.' | '^' | '_' | '`' | '|' | '~'
        )
}

impl fmt::Display for HeaderNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderNameError::Empty => write!(
                f,
                "header name is empty; a header name is an HTTP token of one or more {ALLOWED}"
            ),
            HeaderNameError::Characters { name, characters } => {
                let listed: Vec<String> = characters.iter().map(|&c| crate::name::describe(c)).collect();
                let (noun, list) = match listed.split_last() {
                    Some((last, [])) => ("character", last.clone()),
                    Some((last, init)) => ("characters", format!("{} and {last}", init.join(", "))),
                    None => ("characters", String::new()),
                };
                write!(
                    f,
                    "header name `{}` contains the {noun} {list}; a header name is an HTTP token of {ALLOWED}",
                    name.escape_debug()
                )
            }
        }
    }
}

impl std::error::Error for HeaderNameError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_pass_and_everything_else_is_named() {
        for name in ["Region", "a", "0", "X-Tenant_Id.v2", "!#$%&'*+-.^_`|~"] {
            assert_eq!(check(name), Ok(()), "{name:?}");
        }
        let cases = [
            (
                "",
                "header name is empty; a header name is an HTTP token of one or more ASCII letters, digits and ``!#$%&'*+-.^_`|~``",
            ),
            (
                "Tenant Id",
                "header name `Tenant Id` contains the character ` ` (a space); a header name is an HTTP token of ASCII letters, digits and ``!#$%&'*+-.^_`|~``",
            ),
            (
                "a:b",
                "header name `a:b` contains the character `:`; a header name is an HTTP token of ASCII letters, digits and ``!#$%&'*+-.^_`|~``",
            ),
            (
                "a\r\nb",
                "header name `a\\r\\nb` contains the characters U+000D (a control character) and U+000A (a control character); a header name is an HTTP token of ASCII letters, digits and ``!#$%&'*+-.^_`|~``",
            ),
            (
                "Région",
                "header name `Région` contains the character `é` (U+00E9, not ASCII); a header name is an HTTP token of ASCII letters, digits and ``!#$%&'*+-.^_`|~``",
            ),
            (
                "a(b)\"c\"",
                "header name `a(b)\\\"c\\\"` contains the characters `(`, `)` and `\"`; a header name is an HTTP token of ASCII letters, digits and ``!#$%&'*+-.^_`|~``",
            ),
        ];
        for (name, expected) in cases {
            assert_eq!(check(name).unwrap_err().to_string(), expected, "{name:?}");
        }
        for separator in "(),/:;<=>?@[\\]{}\" \t".chars() {
            assert!(check(&format!("a{separator}b")).is_err(), "{separator:?}");
        }
    }

    #[test]
    fn names_are_compared_ignoring_case() {
        assert!(same("Region", "region"));
        assert!(same("X-ID", "x-id"));
        assert!(!same("Region", "Regio"));
        // Only ASCII folds: a token is ASCII.
        assert!(!same("K", "\u{212A}"));
    }
}
