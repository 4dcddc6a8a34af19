//! Parses the arguments of `#[tool(...)]` into [`ToolAttr`], keeping the tokens for spans.
//!
//! Unknown keys and repeated keys are recorded in the [`Ctxt`] and parsing goes on, so every
//! mistake in one attribute is reported together.

use crate::ctxt::Ctxt;
use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::parse::{ParseStream, Parser};
use syn::{Expr, ExprArray, ExprLit, Ident, Lit, LitBool, LitStr, Token};

/// The keys `#[tool(...)]` accepts, in the order the error message lists them.
const TOOL_KEYS: &[&str] = &["name", "title", "description", "annotations", "icons", "meta"];
const ANNOTATION_KEYS: &[&str] = &["read_only", "destructive", "idempotent", "open_world", "title"];
const ICON_KEYS: &[&str] = &["src", "mime_type", "sizes", "theme"];

#[derive(Default)]
pub(crate) struct ToolAttr {
    pub(crate) name: Option<LitStr>,
    pub(crate) title: Option<LitStr>,
    pub(crate) description: Option<LitStr>,
    pub(crate) annotations: Annotations,
    pub(crate) icons: Vec<Icon>,
    pub(crate) meta: Vec<MetaEntry>,
}

#[derive(Default)]
pub(crate) struct Annotations {
    pub(crate) title: Option<LitStr>,
    pub(crate) read_only: Option<bool>,
    pub(crate) destructive: Option<bool>,
    pub(crate) idempotent: Option<bool>,
    pub(crate) open_world: Option<bool>,
}

pub(crate) struct Icon {
    pub(crate) src: LitStr,
    pub(crate) mime_type: Option<LitStr>,
    pub(crate) sizes: Vec<LitStr>,
    pub(crate) theme: Option<LitStr>,
}

pub(crate) struct MetaEntry {
    pub(crate) key: String,
    pub(crate) value: Expr,
}

/// Parses the attribute's arguments; every problem goes into `cx`.
pub(crate) fn parse_tool_attr(cx: &mut Ctxt, args: TokenStream) -> ToolAttr {
    let mut attr = ToolAttr::default();
    let mut seen = Vec::new();
    let parser = syn::meta::parser(|meta| {
        let Some(key) = meta.path.get_ident().map(Ident::to_string) else {
            cx.error_spanned_by(&meta.path, unknown_key_message("", TOOL_KEYS));
            return skip_value(&meta);
        };
        if seen.contains(&key) {
            cx.error_spanned_by(&meta.path, format!("duplicate key `{key}`"));
            return skip_value(&meta);
        }
        seen.push(key.clone());
        match key.as_str() {
            "name" => attr.name = Some(meta.value()?.parse()?),
            "title" => attr.title = Some(meta.value()?.parse()?),
            "description" => attr.description = Some(meta.value()?.parse()?),
            "annotations" => {
                if !meta.input.peek(syn::token::Paren) {
                    return Err(meta.error(
                        "expected a list: `annotations(read_only, destructive, idempotent, open_world)`",
                    ));
                }
                meta.parse_nested_meta(|inner| parse_annotation(cx, &mut attr.annotations, inner))?;
            }
            "icons" => {
                let content;
                syn::parenthesized!(content in meta.input);
                attr.icons = parse_icons(cx, &content)?;
            }
            "meta" => {
                let content;
                syn::parenthesized!(content in meta.input);
                attr.meta = parse_meta_entries(&content)?;
            }
            other => {
                cx.error_spanned_by(&meta.path, unknown_key_message(other, TOOL_KEYS));
                return skip_value(&meta);
            }
        }
        Ok(())
    });
    if let Err(error) = parser.parse2(args) {
        cx.syn_error(error);
    }
    attr
}

fn parse_annotation(cx: &mut Ctxt, annotations: &mut Annotations, meta: ParseNestedMeta) -> syn::Result<()> {
    let key = meta.path.get_ident().map(Ident::to_string).unwrap_or_default();
    let flag = match key.as_str() {
        "read_only" => &mut annotations.read_only,
        "destructive" => &mut annotations.destructive,
        "idempotent" => &mut annotations.idempotent,
        "open_world" => &mut annotations.open_world,
        "title" => {
            annotations.title = Some(meta.value()?.parse()?);
            return Ok(());
        }
        other => {
            cx.error_spanned_by(&meta.path, unknown_key_message(other, ANNOTATION_KEYS));
            return skip_value(&meta);
        }
    };
    if flag.is_some() {
        cx.error_spanned_by(&meta.path, format!("duplicate annotation `{key}`"));
    }
    *flag = Some(if meta.input.peek(Token![=]) {
        meta.value()?.parse::<LitBool>()?.value
    } else {
        true
    });
    Ok(())
}

/// `icons("https://…/a.png", icon(src = "…", mime_type = "image/svg+xml", sizes = ["any"], theme = "dark"))`
fn parse_icons(cx: &mut Ctxt, input: ParseStream) -> syn::Result<Vec<Icon>> {
    let mut icons = Vec::new();
    while !input.is_empty() {
        if input.peek(LitStr) {
            icons.push(Icon {
                src: input.parse()?,
                mime_type: None,
                sizes: Vec::new(),
                theme: None,
            });
        } else {
            let ident: Ident = input.parse()?;
            if ident != "icon" {
                return Err(syn::Error::new(
                    ident.span(),
                    "expected an icon: a source string such as `\"https://example.com/icon.png\"` or `icon(src = \"...\", mime_type = \"...\", sizes = [\"48x48\"], theme = \"light\")`",
                ));
            }
            let content;
            syn::parenthesized!(content in input);
            icons.push(parse_icon(cx, ident.span(), &content)?);
        }
        if input.is_empty() {
            break;
        }
        input.parse::<Token![,]>()?;
    }
    Ok(icons)
}

fn parse_icon(cx: &mut Ctxt, span: Span, input: ParseStream) -> syn::Result<Icon> {
    let mut src = None;
    let mut mime_type = None;
    let mut sizes = Vec::new();
    let mut theme = None;
    syn::meta::parser(|meta| {
        let key = meta.path.get_ident().map(Ident::to_string).unwrap_or_default();
        match key.as_str() {
            "src" => src = Some(meta.value()?.parse::<LitStr>()?),
            "mime_type" => mime_type = Some(meta.value()?.parse::<LitStr>()?),
            "theme" => {
                let value: LitStr = meta.value()?.parse()?;
                if !matches!(value.value().as_str(), "light" | "dark") {
                    cx.error_spanned_by(&value, "unknown icon theme; expected `\"light\"` or `\"dark\"`");
                }
                theme = Some(value);
            }
            "sizes" => {
                let value = meta.value()?;
                if value.peek(LitStr) {
                    sizes.push(value.parse()?);
                } else {
                    let array: ExprArray = value.parse()?;
                    for elem in array.elems {
                        match elem {
                            Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => sizes.push(s),
                            other => cx.error_spanned_by(
                                other,
                                "expected a size string such as `\"48x48\"` or `\"any\"`",
                            ),
                        }
                    }
                }
            }
            other => {
                cx.error_spanned_by(&meta.path, unknown_key_message(other, ICON_KEYS));
                return skip_value(&meta);
            }
        }
        Ok(())
    })
    .parse2(input.parse::<TokenStream>()?)?;
    let Some(src) = src else {
        return Err(syn::Error::new(
            span,
            "an icon needs a source: `icon(src = \"https://...\")`",
        ));
    };
    Ok(Icon {
        src,
        mime_type,
        sizes,
        theme,
    })
}

/// `meta(key = value, "com.example/key" = value)`: values are any expression that
/// serializes to JSON.
fn parse_meta_entries(input: ParseStream) -> syn::Result<Vec<MetaEntry>> {
    let mut entries = Vec::new();
    while !input.is_empty() {
        let key = if input.peek(LitStr) {
            input.parse::<LitStr>()?.value()
        } else {
            input.call(<Ident as syn::ext::IdentExt>::parse_any)?.to_string()
        };
        input.parse::<Token![=]>()?;
        let value: Expr = input.parse()?;
        entries.push(MetaEntry { key, value });
        if input.is_empty() {
            break;
        }
        input.parse::<Token![,]>()?;
    }
    Ok(entries)
}

/// Consumes whatever follows an unknown key so parsing can go on to the next one.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        let _content;
        syn::parenthesized!(_content in meta.input);
        _content.parse::<TokenStream>()?;
    }
    Ok(())
}

fn unknown_key_message(key: &str, accepted: &[&str]) -> String {
    let list = accepted
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if key.is_empty() {
        format!("unknown key; expected one of {list}")
    } else {
        format!("unknown key `{key}`; expected one of {list}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn parse(tokens: TokenStream) -> (ToolAttr, Vec<String>) {
        let mut cx = Ctxt::default();
        let attr = parse_tool_attr(&mut cx, tokens);
        let errors = cx.into_compile_errors().to_string();
        let messages = errors
            .split("compile_error !")
            .skip(1)
            .map(|s| s.trim().to_owned())
            .collect();
        (attr, messages)
    }

    #[test]
    fn reads_every_key() {
        let (attr, errors) = parse(quote! {
            name = "text_analyzer", title = "Text", description = "Counts.",
            annotations(read_only, destructive = false, title = "T"),
            icons("https://x/a.png", icon(src = "data:x", mime_type = "image/png", sizes = ["48x48", "any"], theme = "dark")),
            meta(priority = 3, "com.example/flag" = true)
        });
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(attr.name.unwrap().value(), "text_analyzer");
        assert_eq!(attr.annotations.read_only, Some(true));
        assert_eq!(attr.annotations.destructive, Some(false));
        assert_eq!(attr.annotations.idempotent, None);
        assert_eq!(attr.icons.len(), 2);
        assert_eq!(attr.icons[1].sizes.len(), 2);
        let keys: Vec<_> = attr.meta.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys, ["priority", "com.example/flag"]);
    }

    #[test]
    fn reports_every_unknown_key() {
        let (attr, errors) = parse(quote! { nmae = "x", title = "T", annotations(readonly), colour(red) });
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(errors[0].contains("unknown key `nmae`"));
        assert!(errors[1].contains("unknown key `readonly`"));
        assert!(errors[2].contains("unknown key `colour`"));
        assert_eq!(attr.title.unwrap().value(), "T");
    }

    #[test]
    fn reports_duplicates() {
        let (_, errors) = parse(quote! { name = "a", name = "b" });
        assert_eq!(errors.len(), 1);
        assert!(errors[0].contains("duplicate key `name`"));
    }
}
