//! A resource's URI: the `uri = "..."` literal parsed as an RFC 6570 template at compile
//! time (by `mcp-toolkit-core`, whose templates the runtime matches URIs with), and the spans of its
//! pieces inside the literal, so a mistake in a template is underlined where it is.

use mcp_toolkit_core::uri_template::{Template, TemplateError};
use proc_macro2::Span;
use syn::LitStr;

/// The URI as written, and what parsing its text gave.
pub(crate) struct ResourceUri<'a> {
    pub(crate) lit: &'a LitStr,
    pub(crate) parsed: Result<Template, Vec<TemplateError>>,
}

impl<'a> ResourceUri<'a> {
    pub(crate) fn parse(lit: &'a LitStr) -> ResourceUri<'a> {
        ResourceUri {
            lit,
            parsed: Template::parse(&lit.value()),
        }
    }

    /// The span of the bytes `offset..offset + len` of the URI's value: inside the literal
    /// where the compiler can say (`Literal::subspan`, for a literal without escapes), else
    /// the whole literal.
    pub(crate) fn span(&self, offset: usize, len: usize) -> Span {
        let token = self.lit.token();
        let text = token.to_string();
        let start = if text.starts_with('"') {
            // An escape makes the value's offsets differ from the source's.
            (!text.contains('\\')).then_some(1)
        } else if let Some(rest) = text.strip_prefix('r') {
            let hashes = rest.len() - rest.trim_start_matches('#').len();
            Some(hashes + 2)
        } else {
            None
        };
        start
            .and_then(|start| token.subspan(start + offset..start + offset + len.max(1)))
            .unwrap_or_else(|| self.lit.span())
    }
}

/// Whether a type is written `Option<_>` (with any path to it): the syntactic test of an
/// optional value, for the variables a URI may leave out.
pub(crate) fn is_option(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Path(path) if path.qself.is_none() => path.path.segments.last().is_some_and(|last| {
            last.ident == "Option" && matches!(last.arguments, syn::PathArguments::AngleBracketed(_))
        }),
        syn::Type::Group(group) => is_option(&group.elem),
        syn::Type::Paren(paren) => is_option(&paren.elem),
        _ => false,
    }
}

/// Whether a type is written as text, a number, `bool` or `char` (`String`, `u32`,
/// `std::string::String`): a type that no crate but the standard library's could make
/// injected (`FromContext` is foreign to it, and the type is too), so a resource's parameter
/// of such a type that is no variable of its URI is a mistake the macro can name without
/// asking the compiler.
pub(crate) fn is_plain_data(ty: &syn::Type) -> bool {
    const PLAIN: &[&str] = &[
        "String", "bool", "char", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
        "i128", "isize", "f32", "f64",
    ];
    match ty {
        syn::Type::Path(path) if path.qself.is_none() => {
            let segments: Vec<String> = path.path.segments.iter().map(|s| s.ident.to_string()).collect();
            let plain = path.path.segments.iter().all(|s| s.arguments.is_none());
            let name = segments.last().map(String::as_str).unwrap_or_default();
            plain
                && PLAIN.contains(&name)
                && match segments.len() {
                    1 => true,
                    // `std::string::String`, `alloc::string::String`, `core::primitive::u32`.
                    _ => matches!(segments[0].as_str(), "std" | "alloc" | "core"),
                }
        }
        syn::Type::Group(group) => is_plain_data(&group.elem),
        syn::Type::Paren(paren) => is_plain_data(&paren.elem),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn lit(source: &str) -> LitStr {
        let tokens = proc_macro2::TokenStream::from_str(source).unwrap();
        syn::parse2(tokens).unwrap()
    }

    fn columns(span: Span) -> (usize, usize) {
        (span.start().column, span.end().column)
    }

    #[test]
    fn a_piece_of_a_plain_literal_has_its_own_span() {
        let lit = lit(r#""users://{user_id}/profile""#);
        let uri = ResourceUri::parse(&lit);
        assert!(uri.parsed.is_ok());
        // `user_id` is bytes 9..16 of the value, 10..17 of the source.
        assert_eq!(columns(uri.span(9, 7)), (10, 17));
    }

    #[test]
    fn a_raw_literal_counts_its_hashes() {
        let lit = lit(r###"r#"a://{x}"#"###);
        let uri = ResourceUri::parse(&lit);
        assert_eq!(columns(uri.span(5, 1)), (8, 9));
    }

    #[test]
    fn an_escape_gives_the_whole_literal() {
        let source = r#""a://\u{78}/{x}""#;
        let lit = lit(source);
        let uri = ResourceUri::parse(&lit);
        assert_eq!(columns(uri.span(7, 1)), (0, source.len()));
    }

    #[test]
    fn options_are_recognized_by_their_last_segment() {
        for (ty, option) in [
            ("Option<u64>", true),
            ("std::option::Option<String>", true),
            ("::core::option::Option<String>", true),
            ("u64", false),
            ("Option", false),
            ("Vec<Option<u8>>", false),
            ("&Option<u8>", false),
        ] {
            let ty: syn::Type = syn::parse_str(ty).unwrap();
            assert_eq!(
                is_option(&ty),
                option,
                "{}",
                quote::ToTokens::to_token_stream(&ty)
            );
        }
    }
}
