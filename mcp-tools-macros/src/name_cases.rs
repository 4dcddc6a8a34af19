// The tool-name rule as a table of cases, tested against both implementations of it: the
// compile-time check of `#[tool]` (`name.rs`) and `mcp_toolkit::validate_tool_name` (its unit
// tests `include!` this file, from this crate's directory; only under `cfg(test)`, so the
// published crates do not need it). Plain `//` comments: `include!` takes items only.
//
// `(name, None)` is a valid name. `(name, Some(culprit))` is an invalid one, and `culprit` is
// text both error messages must contain: the offending characters, or what else is wrong.

const NAME_CASES: &[(&str, Option<&str>)] = &[
    // The examples of the specification.
    ("getUser", None),
    ("DATA_EXPORT_v2", None),
    ("admin.tools.list", None),
    // The shortest, every allowed character, and the longest.
    ("a", None),
    ("0", None),
    ("_", None),
    ("az-AZ_09.", None),
    (concat!("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"), None),
    // Too short, too long.
    ("", Some("empty")),
    (concat!("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "x"), Some("129 characters long")),
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
    // A bad character is reported before the length.
    (concat!("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "!"), Some("`!`")),
];
