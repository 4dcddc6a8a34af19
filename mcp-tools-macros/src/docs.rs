//! Turns `///` doc comments into the text a model reads.
//!
//! The description of a fn (a tool's, and the prompts' and resources' to come) is its doc
//! comment up to its first argument section (rustdoc's `# Arguments`, Google's `Args:`) or
//! Rust-only section (`# Examples`, `# Panics`, `# Safety`), dedented and trimmed, with
//! soft-wrapped lines joined. The argument section yields one description per parameter.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// What a fn's doc comment says about it and its parameters.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Docs {
    /// The description, or `None` when the comment has no text before its sections.
    pub(crate) description: Option<String>,
    /// `(parameter name, description)` from the argument section, in order.
    pub(crate) arguments: Vec<(String, String)>,
}

/// The raw lines of every `#[doc = "..."]` attribute, in order.
///
/// `#[doc = include_str!(..)]` and other non-literal forms are skipped: their text is not
/// known to a macro.
pub(crate) fn doc_lines(attrs: &[Attribute]) -> Vec<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) = &nv.value
        {
            lines.extend(s.value().lines().map(str::to_owned));
        }
    }
    lines
}

/// The description of a parameter from its own `///` comment.
pub(crate) fn param_description(attrs: &[Attribute]) -> Option<String> {
    let lines = dedent(&doc_lines(attrs));
    non_empty(join_soft_wraps(&lines))
}

/// Splits a fn's doc comment into its description and argument descriptions.
pub(crate) fn item_docs(attrs: &[Attribute]) -> Docs {
    parse_docs(&doc_lines(attrs))
}

fn parse_docs(raw: &[String]) -> Docs {
    let lines = dedent(raw);
    let mut description = Vec::new();
    let mut arguments = Vec::new();
    let mut rest = lines.iter().map(String::as_str).peekable();
    let mut in_fence = false;
    let mut in_description = true;
    while let Some(line) = rest.next() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        if !in_fence {
            let section = section_of(line);
            if section.is_some() {
                in_description = false;
            }
            match section {
                Some(Section::Arguments) => {
                    let mut body = Vec::new();
                    while let Some(next) = rest.peek() {
                        if section_of(next).is_some() {
                            break;
                        }
                        body.push(*next);
                        rest.next();
                    }
                    arguments.extend(parse_argument_list(&body));
                    continue;
                }
                Some(Section::Other) => {
                    // Skip the section's body; an argument section may still follow.
                    while rest.peek().is_some_and(|next| section_of(next).is_none()) {
                        rest.next();
                    }
                    continue;
                }
                None => {}
            }
        }
        if in_description {
            description.push(line.to_owned());
        }
    }
    Docs {
        description: non_empty(join_soft_wraps(&description)),
        arguments,
    }
}

#[derive(Debug, PartialEq)]
enum Section {
    Arguments,
    Other,
}

/// Recognises a section heading: a markdown heading naming a known section, or a Google
/// docstring section line (`Args:`).
fn section_of(line: &str) -> Option<Section> {
    let trimmed = line.trim();
    let heading = if let Some(text) = trimmed.strip_prefix('#') {
        text.trim_start_matches('#').trim()
    } else if let Some(text) = trimmed.strip_suffix(':') {
        // Google style only when unindented, so prose ending in a colon is left alone.
        if line.starts_with(char::is_whitespace) {
            return None;
        }
        text.trim()
    } else {
        return None;
    };
    match heading.to_ascii_lowercase().as_str() {
        "arguments" | "args" | "parameters" | "params" => Some(Section::Arguments),
        "examples" | "example" | "panics" | "safety" | "returns" | "raises" | "errors"
            if trimmed.starts_with('#') || heading.chars().next().is_some_and(char::is_uppercase) =>
        {
            Some(Section::Other)
        }
        _ => None,
    }
}

/// Parses `* `name` - text`, `- name: text`, `name (type): text` entries, with indented
/// continuation lines.
fn parse_argument_list(body: &[&str]) -> Vec<(String, String)> {
    let mut entries: Vec<(String, Vec<String>)> = Vec::new();
    let mut entry_indent = 0;
    for line in body {
        let indent = line.len() - line.trim_start().len();
        let continues = !entries.is_empty() && indent > entry_indent;
        if !continues && let Some((name, text)) = argument_entry(line) {
            entries.push((name, vec![text]));
            entry_indent = indent;
            continue;
        }
        if let Some((_, text)) = entries.last_mut() {
            text.push(line.trim().to_owned());
        }
    }
    entries
        .into_iter()
        .map(|(name, text)| (name, join_soft_wraps(&text)))
        .collect()
}

fn argument_entry(line: &str) -> Option<(String, String)> {
    let mut s = line.trim();
    let bulleted = ["* ", "- ", "+ "].iter().any(|b| s.starts_with(b));
    if bulleted {
        s = s[2..].trim_start();
    }
    let (name, after) = if let Some(quoted) = s.strip_prefix('`') {
        let end = quoted.find('`')?;
        (&quoted[..end], &quoted[end + 1..])
    } else {
        let end = s
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(s.len());
        (&s[..end], &s[end..])
    };
    let name = name.strip_prefix("r#").unwrap_or(name);
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let mut after = after.trim_start();
    // Google style may name a type: `count (int): ...`.
    if after.starts_with('(') {
        after = after[after.find(')')? + 1..].trim_start();
    }
    let text = ["-", ":", "\u{2013}", "\u{2014}"]
        .iter()
        .find_map(|sep| after.strip_prefix(sep))?;
    if !bulleted && after.starts_with('-') {
        // An unbulleted `name - text` is prose, not an entry.
        return None;
    }
    Some((name.to_owned(), text.trim().to_owned()))
}

/// Removes the indentation common to all non-blank lines and trailing whitespace, and drops
/// leading and trailing blank lines.
fn dedent(lines: &[String]) -> Vec<String> {
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out: Vec<String> = lines
        .iter()
        .map(|l| {
            if l.trim().is_empty() {
                String::new()
            } else {
                l[indent..].trim_end().to_owned()
            }
        })
        .collect();
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    let first = out.iter().position(|l| !l.is_empty()).unwrap_or(out.len());
    out.drain(..first);
    out
}

/// Joins soft-wrapped lines of a paragraph with a space. Blank lines separate paragraphs;
/// list items, headings, table rows, code fences and their contents keep their line breaks.
fn join_soft_wraps<S: AsRef<str>>(lines: &[S]) -> String {
    let mut out = String::new();
    let mut in_fence = false;
    let mut previous_blank = true;
    for line in lines {
        let line = line.as_ref();
        let trimmed = line.trim();
        let fence = trimmed.starts_with("```");
        if trimmed.is_empty() && !in_fence {
            if !previous_blank {
                out.push_str("\n\n");
            }
            previous_blank = true;
            continue;
        }
        let keeps_break = in_fence || fence || starts_block(trimmed) || out.ends_with('\\');
        if !previous_blank {
            if keeps_break {
                out.push('\n');
            } else {
                out.push(' ');
            }
        }
        if in_fence {
            out.push_str(line);
        } else {
            out.push_str(trimmed);
        }
        if fence {
            in_fence = !in_fence;
        }
        previous_blank = false;
    }
    out.trim_end().to_owned()
}

fn starts_block(trimmed: &str) -> bool {
    let ordered = trimmed
        .split_once(". ")
        .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    ordered
        || ["- ", "* ", "+ ", "#", "|", ">"]
            .iter()
            .any(|m| trimmed.starts_with(m))
}

fn non_empty(s: String) -> Option<String> {
    if s.is_empty() { None } else { Some(s) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs(text: &str) -> Docs {
        let lines: Vec<String> = text.lines().map(|l| format!(" {l}")).collect();
        parse_docs(&lines)
    }

    fn args(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    }

    #[test]
    fn joins_soft_wrapped_lines_and_keeps_paragraphs() {
        let d = docs("Perform basic\narithmetic on two\nnumbers.\n\nDivision by zero fails.");
        assert_eq!(
            d.description.as_deref(),
            Some("Perform basic arithmetic on two numbers.\n\nDivision by zero fails.")
        );
        assert!(d.arguments.is_empty());
    }

    #[test]
    fn rustdoc_arguments_section_is_split_off() {
        let d = docs(
            "Count the characters and words of a text.\n\n# Arguments\n* `text` - The text to analyze\n* `limit` - At most this\n  many words.",
        );
        assert_eq!(
            d.description.as_deref(),
            Some("Count the characters and words of a text.")
        );
        assert_eq!(
            d.arguments,
            args(&[
                ("text", "The text to analyze"),
                ("limit", "At most this many words.")
            ])
        );
    }

    #[test]
    fn google_args_section_is_split_off() {
        let d = docs(
            "Performs basic math.\nArgs:\n    operation: The operation (add, subtract)\n    a (float): The first number\n        which may wrap.\n    b: The second number\nReturns:\n    The result.",
        );
        assert_eq!(d.description.as_deref(), Some("Performs basic math."));
        assert_eq!(
            d.arguments,
            args(&[
                ("operation", "The operation (add, subtract)"),
                ("a", "The first number which may wrap."),
                ("b", "The second number"),
            ])
        );
    }

    #[test]
    fn examples_are_not_part_of_the_description() {
        let d = docs("Adds.\n\n# Examples\n```\nassert_eq!(add(1, 2), 3);\n```\n\n# Arguments\n- `a`: first");
        assert_eq!(d.description.as_deref(), Some("Adds."));
        assert_eq!(d.arguments, args(&[("a", "first")]));
    }

    #[test]
    fn lists_and_code_keep_their_line_breaks() {
        let d = docs("Modes:\n- fast\n- slow\n\n```\nlet x =\n    1;\n```");
        assert_eq!(
            d.description.as_deref(),
            Some("Modes:\n- fast\n- slow\n\n```\nlet x =\n    1;\n```")
        );
    }

    #[test]
    fn a_heading_inside_a_code_fence_is_not_a_section() {
        let d = docs("Shell:\n```\n# Arguments\n```");
        assert_eq!(d.description.as_deref(), Some("Shell:\n```\n# Arguments\n```"));
        assert!(d.arguments.is_empty());
    }

    #[test]
    fn prose_ending_in_a_colon_is_not_a_section() {
        let d = docs("Returns the sum of:\n  the two numbers.");
        assert_eq!(
            d.description.as_deref(),
            Some("Returns the sum of: the two numbers.")
        );
    }

    #[test]
    fn only_an_arguments_section_means_no_description() {
        let d = docs("# Arguments\n* `a` - first");
        assert_eq!(d.description, None);
        assert_eq!(d.arguments, args(&[("a", "first")]));
    }

    #[test]
    fn raw_identifiers_in_argument_lists_lose_their_prefix() {
        let d = docs("Finds things.\n\n# Arguments\n* `r#type` - The kind");
        assert_eq!(d.arguments, args(&[("type", "The kind")]));
    }

    #[test]
    fn empty_comment_is_no_description() {
        assert_eq!(docs("   \n\n").description, None);
    }
}
