//! Splits an attribute's argument list (`key = value, flag, key(...)`) into entries, for
//! every macro of the crate and every nested list (`annotations(...)`, `meta(...)`).
//!
//! The list is cut at its top-level commas first, so a malformed entry is recorded in the
//! [`Ctxt`] and skipped up to the next comma: parsing never stops at the first mistake. What a
//! value must be is for the caller to say, on the value's own tokens. A caller records what
//! was written in [`Field`]s, every occurrence of a key with its tokens, for the check phase.

use crate::ctxt::Ctxt;
use proc_macro2::{Delimiter, Group, Ident, Spacing, TokenStream, TokenTree};
use quote::ToTokens;
use syn::LitStr;

/// A key as written: an identifier, or a string where a list takes arbitrary keys
/// (`meta("com.example/key" = 1)`) or bare strings (`icons("https://...")`).
#[derive(Clone)]
pub(crate) enum Key {
    Ident(Ident),
    Str(LitStr),
}

impl Key {
    /// The key's text, without `r#` or quotes: what duplicates are compared by.
    pub(crate) fn name(&self) -> String {
        match self {
            Key::Ident(ident) => {
                let name = ident.to_string();
                name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
            }
            Key::Str(lit) => lit.value(),
        }
    }
}

impl ToTokens for Key {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Key::Ident(ident) => ident.to_tokens(tokens),
            Key::Str(lit) => lit.to_tokens(tokens),
        }
    }
}

/// What follows a key.
pub(crate) enum Value {
    /// Nothing: `read_only`.
    Flag,
    /// `= tokens`: everything up to the next top-level comma, unparsed.
    Eq(TokenStream),
    /// `(...)`: a nested list.
    List(Group),
}

/// One `key`, `key = value` or `key(...)` of a list.
pub(crate) struct Entry {
    pub(crate) key: Key,
    pub(crate) value: Value,
}

impl Entry {
    /// The tokens of the value, or of the key when there is no value: where a message about
    /// the value goes.
    pub(crate) fn value_tokens(&self) -> TokenStream {
        match &self.value {
            Value::Flag => self.key.to_token_stream(),
            Value::Eq(tokens) => tokens.clone(),
            Value::List(group) => group.to_token_stream(),
        }
    }

    /// The key and its value: where a message about the whole entry goes.
    pub(crate) fn tokens(&self) -> TokenStream {
        let mut tokens = self.key.to_token_stream();
        if !matches!(self.value, Value::Flag) {
            tokens.extend(self.value_tokens());
        }
        tokens
    }
}

/// A list's name and what its entries look like, for messages.
pub(crate) struct ListKind {
    /// `#[tool(...)]`, `meta(...)`.
    pub(crate) scope: &'static str,
    /// What an entry is, after "expected": "`key = value`".
    pub(crate) entry: &'static str,
}

/// Every occurrence of one key in one list, in the order written.
pub(crate) struct Field<T> {
    pub(crate) occurrences: Vec<Occurrence<T>>,
}

/// One occurrence of a key: its tokens, and its value when the value was well-formed (a
/// malformed one has been reported already).
pub(crate) struct Occurrence<T> {
    pub(crate) key: Key,
    pub(crate) value: Option<T>,
}

impl<T> Default for Field<T> {
    fn default() -> Self {
        Field {
            occurrences: Vec::new(),
        }
    }
}

impl<T> Field<T> {
    pub(crate) fn push(&mut self, key: &Key, value: Option<T>) {
        self.occurrences.push(Occurrence {
            key: key.clone(),
            value,
        });
    }

    /// The value to expand: the first well-formed one. A second occurrence is an error the
    /// check phase reports, so which one wins never reaches a compiled crate.
    pub(crate) fn get(&self) -> Option<&T> {
        self.occurrences.iter().find_map(|o| o.value.as_ref())
    }

    /// Every well-formed value, for checks that look inside each occurrence.
    pub(crate) fn values(&self) -> impl Iterator<Item = &T> {
        self.occurrences.iter().filter_map(|o| o.value.as_ref())
    }
}

/// Parses `tokens` as a comma-separated list of entries. Every segment that is not an entry
/// is recorded in `cx`, and parsing goes on after the next comma.
pub(crate) fn parse_list(cx: &mut Ctxt, tokens: TokenStream, kind: &ListKind) -> Vec<Entry> {
    let scope = kind.scope;
    let mut entries = Vec::new();
    let mut segment: Vec<TokenTree> = Vec::new();
    for token in tokens {
        match &token {
            TokenTree::Punct(p) if p.as_char() == ',' => {
                if segment.is_empty() {
                    cx.error_at(
                        p.span(),
                        format!("expected a key before `,` in `{scope}`; separate entries with one comma"),
                    );
                } else if let Some(entry) = parse_entry(cx, std::mem::take(&mut segment), kind) {
                    entries.push(entry);
                }
            }
            _ => segment.push(token),
        }
    }
    if !segment.is_empty()
        && let Some(entry) = parse_entry(cx, segment, kind)
    {
        entries.push(entry);
    }
    entries
}

fn parse_entry(cx: &mut Ctxt, segment: Vec<TokenTree>, kind: &ListKind) -> Option<Entry> {
    let mut tokens = segment.into_iter();
    let first = tokens.next()?;
    let key = match &first {
        TokenTree::Ident(ident) => Key::Ident(ident.clone()),
        TokenTree::Literal(_) => match syn::parse2::<LitStr>(first.to_token_stream()) {
            Ok(lit) => Key::Str(lit),
            Err(_) => {
                cx.error_spanned_by(&first, expected_entry(&first, kind));
                return None;
            }
        },
        // A key produced by a `macro_rules!` fragment arrives wrapped in an invisible group.
        TokenTree::Group(group) if group.delimiter() == Delimiter::None => {
            let mut inner: Vec<TokenTree> = group.stream().into_iter().collect();
            inner.extend(tokens);
            return parse_entry(cx, inner, kind);
        }
        _ => {
            cx.error_spanned_by(&first, expected_entry(&first, kind));
            return None;
        }
    };
    let rest: Vec<TokenTree> = tokens.collect();
    let value = match rest.first() {
        None => Value::Flag,
        // `=`, but not `==` or `=>`. The spacing alone does not tell: the lexer also joins
        // `=` to a following `,` (`name =, ...`) or `-` (`name=-1`).
        Some(TokenTree::Punct(eq))
            if eq.as_char() == '='
                && !(eq.spacing() == Spacing::Joint
                    && matches!(rest.get(1), Some(TokenTree::Punct(next)) if matches!(next.as_char(), '=' | '>'))) =>
        {
            if rest.len() == 1 {
                cx.error_at(eq.span(), format!("expected a value after `{} =`", key.name()));
                return None;
            }
            Value::Eq(rest[1..].iter().cloned().collect())
        }
        Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Parenthesis && rest.len() == 1 => {
            Value::List(group.clone())
        }
        Some(_) => {
            let unexpected: TokenStream = rest.iter().cloned().collect();
            let name = key.name();
            cx.error_spanned_by(
                &unexpected,
                format!(
                    "unexpected `{}` after `{name}`; write `{name} = value`, `{name}(...)` or `{name}` alone",
                    shorten(&unexpected.to_string())
                ),
            );
            return None;
        }
    };
    Some(Entry { key, value })
}

fn expected_entry(found: &TokenTree, kind: &ListKind) -> String {
    format!(
        "expected {} in `{}`, found `{}`",
        kind.entry,
        kind.scope,
        shorten(&found.to_string())
    )
}

/// Source text for a message, cut short when long.
pub(crate) fn shorten(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{} ...", &text[..end]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn parse(tokens: TokenStream) -> (Vec<Entry>, Vec<String>) {
        let mut cx = Ctxt::new();
        let kind = ListKind {
            scope: "#[tool(...)]",
            entry: "`key = value`",
        };
        let entries = parse_list(&mut cx, tokens, &kind);
        let errors = match cx.check() {
            Ok(()) => Vec::new(),
            Err(errors) => errors.into_iter().map(|e| e.to_string()).collect(),
        };
        (entries, errors)
    }

    fn shape(entry: &Entry) -> String {
        match &entry.value {
            Value::Flag => entry.key.name(),
            Value::Eq(tokens) => format!("{} = {tokens}", entry.key.name()),
            Value::List(group) => format!("{}{group}", entry.key.name()),
        }
    }

    #[test]
    fn splits_at_top_level_commas_only() {
        let (entries, errors) = parse(quote! {
            a = [1, 2], b(c, d = 3), "e/f" = f(1, 2), g, r#type = 1,
        });
        assert!(errors.is_empty(), "{errors:?}");
        let shapes: Vec<String> = entries.iter().map(shape).collect();
        assert_eq!(
            shapes,
            ["a = [1 , 2]", "b(c , d = 3)", "e/f = f (1 , 2)", "g", "type = 1"]
        );
    }

    #[test]
    fn a_malformed_entry_is_reported_and_skipped() {
        let (entries, errors) = parse(quote! { 1 = 2, a "x", b =, , c = 1 });
        assert_eq!(
            errors,
            [
                "expected `key = value` in `#[tool(...)]`, found `1`",
                "unexpected `\"x\"` after `a`; write `a = value`, `a(...)` or `a` alone",
                "expected a value after `b =`",
                "expected a key before `,` in `#[tool(...)]`; separate entries with one comma",
            ]
        );
        let shapes: Vec<String> = entries.iter().map(shape).collect();
        assert_eq!(shapes, ["c = 1"]);
    }

    /// Lexed as the compiler lexes attributes: `=` is joint with the punctuation after it.
    #[test]
    fn joint_equals_signs_are_read_as_the_compiler_lexes_them() {
        let lexed = |text: &str| parse(text.parse::<TokenStream>().unwrap());
        let (entries, errors) = lexed("a =, b=-1, c => 1, d == 2");
        let shapes: Vec<String> = entries.iter().map(shape).collect();
        assert_eq!(shapes, ["b = - 1"]);
        assert_eq!(
            errors,
            [
                "expected a value after `a =`",
                "unexpected `=> 1` after `c`; write `c = value`, `c(...)` or `c` alone",
                "unexpected `== 2` after `d`; write `d = value`, `d(...)` or `d` alone",
            ]
        );
    }

    #[test]
    fn arrows_and_comparisons_are_not_values() {
        let (entries, errors) = parse(quote! { a => 1, b == 2 });
        assert_eq!(entries.len(), 0);
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].starts_with("unexpected `=> 1` after `a`"), "{errors:?}");
    }
}
