//! The small AST of one `#[tool]` fn: what the attribute, the doc comment and the signature
//! say, checked, with the original tokens kept for spans.

use crate::attr::{ToolAttr, parse_tool_attr};
use crate::ctxt::Ctxt;
use crate::docs;
use crate::name::{check_tool_name, title_from_name};
use proc_macro2::{Span, TokenStream};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, FnArg, Ident, ItemFn, Pat, ReturnType, Type};

/// One `#[tool]` function, ready to expand.
pub(crate) struct ToolFn {
    /// The user's fn, with the attributes the macro consumed removed from its parameters.
    pub(crate) item: ItemFn,
    pub(crate) attr: ToolAttr,
    /// The name clients see.
    pub(crate) name: String,
    pub(crate) title: String,
    /// `None` only when that is an error, already reported.
    pub(crate) description: Option<String>,
    pub(crate) params: Vec<Param>,
    /// `true` when the signature is fit to generate a handler for (no generics, receivers
    /// other than `&self`, or patterns). Type checks still run when it is not.
    pub(crate) callable: bool,
    /// A method taking `&self`: the tool is built from an instance (`Arc<Self>`).
    pub(crate) method: bool,
}

pub(crate) struct Param {
    /// The argument name clients send (the ident without `r#`).
    pub(crate) name: String,
    pub(crate) ty: Type,
    pub(crate) description: Option<String>,
    pub(crate) default: Option<Expr>,
    /// The type can be checked on its own (no `impl Trait`, no generic parameter).
    pub(crate) checkable: bool,
}

impl ToolFn {
    /// Parses and checks the attribute and the fn; problems go into `cx`.
    pub(crate) fn from_input(cx: &mut Ctxt, args: TokenStream, input: TokenStream) -> Option<ToolFn> {
        let attr = parse_tool_attr(cx, args);
        let mut item: ItemFn = match syn::parse2(input.clone()) {
            Ok(item) => item,
            Err(_) => {
                not_a_fn(cx, input);
                return None;
            }
        };
        let sig = &item.sig;
        let mut callable = true;

        let name = match &attr.name {
            Some(lit) => {
                let name = lit.value();
                if let Err(message) = check_tool_name(&name) {
                    cx.error_spanned_by(lit, message);
                }
                name
            }
            None => {
                let name = unraw(&sig.ident);
                if let Err(message) = check_tool_name(&name) {
                    cx.error_at(
                        sig.ident.span(),
                        format!("{message}\nhelp: keep the fn name and give the tool another: `#[tool(name = \"...\")]`"),
                    );
                }
                name
            }
        };

        if !sig.generics.params.is_empty() {
            cx.error_spanned_by(
                &sig.generics,
                "a tool fn cannot be generic: its input schema is built from concrete parameter types; use concrete types",
            );
            callable = false;
        }
        if let Some(clause) = &sig.generics.where_clause {
            cx.error_spanned_by(
                clause,
                "a tool fn cannot have a `where` clause; use concrete types",
            );
            callable = false;
        }
        if let syn::Safety::Unsafe(token) = &sig.safety {
            cx.error_spanned_by(token, "a tool fn cannot be `unsafe`: clients call it with arguments nobody has checked for its safety contract");
            callable = false;
        }
        if let Some(abi) = &sig.abi {
            cx.error_spanned_by(abi, "a tool fn cannot have an `extern` ABI");
            callable = false;
        }
        if let Some(variadic) = &sig.variadic {
            cx.error_spanned_by(variadic, "a tool fn cannot be variadic");
            callable = false;
        }

        let docs = docs::tool_docs(&item.attrs);
        let description = match (&attr.description, docs.description) {
            (Some(lit), _) if lit.value().trim().is_empty() => {
                cx.error_spanned_by(
                    lit,
                    "the description is empty; say what the tool does, for the model that will choose it",
                );
                None
            }
            (Some(lit), _) => Some(lit.value().trim().to_owned()),
            (None, Some(text)) => Some(text),
            (None, None) => {
                cx.error_at(
                    sig.ident.span(),
                    format!(
                        "tool `{name}` has no description; models choose tools by it\nhelp: add a doc comment above the fn (`/// Says what the tool does.`) or `#[tool(description = \"...\")]`"
                    ),
                );
                None
            }
        };

        let mut params = Vec::new();
        let mut method = false;
        let generic_names: Vec<String> = sig.generics.type_params().map(|p| p.ident.to_string()).collect();
        for input in item.sig.inputs.iter_mut() {
            let typed = match input {
                FnArg::Receiver(receiver) => {
                    match &receiver.kind {
                        syn::ReceiverKind::Reference(_, _, None) => method = true,
                        syn::ReceiverKind::Reference(_, _, Some(_)) => {
                            cx.error_spanned_by(
                                &*receiver,
                                "a tool method takes `&self`, not `&mut self`: calls run concurrently, so keep what changes behind a `Mutex` or an atomic",
                            );
                            callable = false;
                        }
                        _ => {
                            cx.error_spanned_by(
                                &*receiver,
                                "a tool method takes `&self`: the tool is built from an `Arc` of the instance and each call borrows it",
                            );
                            callable = false;
                        }
                    }
                    continue;
                }
                FnArg::Typed(typed) => typed,
            };
            let ident = match &*typed.pat {
                Pat::Ident(pat) if pat.subpat.is_none() => Some(pat.ident.clone()),
                other => {
                    cx.error_spanned_by(
                        other,
                        "a tool parameter must be a plain name such as `text: String`, because the name is the argument's name; destructure it in the body",
                    );
                    callable = false;
                    None
                }
            };
            let (description, default) = take_param_attrs(cx, &mut typed.attrs);
            let checkable = check_param_type(cx, &typed.ty, &generic_names);
            params.push(Param {
                name: ident.as_ref().map(unraw).unwrap_or_default(),
                ty: (*typed.ty).clone(),
                description,
                default,
                checkable,
            });
        }

        for (arg, text) in docs.arguments {
            match params.iter_mut().find(|p| p.name == arg) {
                Some(param) => {
                    if param.description.is_none() {
                        param.description = Some(text);
                    }
                }
                None => {
                    let known: Vec<String> = params.iter().map(|p| format!("`{}`", p.name)).collect();
                    cx.error_at(
                        doc_span(&item.attrs).unwrap_or_else(|| item.sig.ident.span()),
                        format!(
                            "the doc comment describes an argument `{arg}`, but the fn has no such parameter; its parameters are {}",
                            if known.is_empty() { "none".to_owned() } else { known.join(", ") }
                        ),
                    );
                }
            }
        }

        let title = attr
            .title
            .as_ref()
            .map(|t| t.value())
            .unwrap_or_else(|| title_from_name(&name));
        Some(ToolFn {
            item,
            attr,
            name,
            title,
            description,
            params,
            callable,
            method,
        })
    }

    /// The return type as written, `()` when there is none.
    pub(crate) fn output_type(&self) -> Type {
        match &self.item.sig.output {
            ReturnType::Default => syn::parse_quote!(()),
            ReturnType::Type(_, ty) => (**ty).clone(),
        }
    }

    pub(crate) fn output_span(&self) -> Span {
        match &self.item.sig.output {
            ReturnType::Default => self.item.sig.ident.span(),
            ReturnType::Type(_, ty) => ty.span(),
        }
    }

    pub(crate) fn output_checkable(&self) -> bool {
        let generic_names: Vec<String> = self
            .item
            .sig
            .generics
            .type_params()
            .map(|p| p.ident.to_string())
            .collect();
        match &self.item.sig.output {
            ReturnType::Default => true,
            ReturnType::Type(_, ty) => !contains_impl_trait(ty) && !mentions_any(ty, &generic_names),
        }
    }
}

/// Removes `///` and `#[default(..)]` from a parameter (the compiler rejects doc comments on
/// parameters) and returns what they said.
fn take_param_attrs(cx: &mut Ctxt, attrs: &mut Vec<Attribute>) -> (Option<String>, Option<Expr>) {
    let description = docs::param_description(attrs);
    let mut default = None;
    for attr in attrs.iter() {
        if attr.path().is_ident("default") {
            match attr.parse_args::<Expr>() {
                Ok(expr) if default.is_none() => default = Some(expr),
                Ok(_) => cx.error_spanned_by(attr, "duplicate `#[default(..)]`"),
                Err(_) => cx.error_spanned_by(
                    attr,
                    "expected `#[default(value)]`, such as `#[default(10)]` or `#[default(\"en\".to_string())]`",
                ),
            }
        }
    }
    attrs.retain(|a| !a.path().is_ident("doc") && !a.path().is_ident("default"));
    (description, default)
}

/// Rejects parameter types no client can send, at the type. Returns whether the type can be
/// checked by the compiler on its own.
fn check_param_type(cx: &mut Ctxt, ty: &Type, generic_names: &[String]) -> bool {
    if let Type::Reference(reference) = ty {
        let owned = match &*reference.elem {
            Type::Path(p) if p.path.is_ident("str") => "String".to_owned(),
            Type::Slice(slice) => format!("Vec<{}>", quote::ToTokens::to_token_stream(&slice.elem)),
            other => quote::ToTokens::to_token_stream(other).to_string(),
        };
        cx.error_spanned_by(
            ty,
            format!("a tool parameter must own its value, because arguments are decoded from the request; use `{owned}`"),
        );
        return false;
    }
    if contains_impl_trait(ty) {
        cx.error_spanned_by(
            ty,
            "a tool parameter cannot be `impl Trait`: its schema is built from a concrete type",
        );
        return false;
    }
    !mentions_any(ty, generic_names)
}

fn contains_impl_trait(ty: &Type) -> bool {
    quote::ToTokens::to_token_stream(ty)
        .into_iter()
        .any(|t| matches!(t, proc_macro2::TokenTree::Ident(i) if i == "impl"))
}

fn mentions_any(ty: &Type, names: &[String]) -> bool {
    fn walk(stream: TokenStream, names: &[String]) -> bool {
        stream.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => names.iter().any(|n| i == n),
            proc_macro2::TokenTree::Group(g) => walk(g.stream(), names),
            _ => false,
        })
    }
    !names.is_empty() && walk(quote::ToTokens::to_token_stream(ty), names)
}

fn doc_span(attrs: &[Attribute]) -> Option<Span> {
    attrs.iter().find(|a| a.path().is_ident("doc")).map(Spanned::span)
}

fn unraw(ident: &Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

/// Says what `#[tool]` goes on, at the item it was put on.
fn not_a_fn(cx: &mut Ctxt, input: TokenStream) {
    let item: Result<syn::Item, _> = syn::parse2(input.clone());
    let (what, span) = match &item {
        Ok(syn::Item::Struct(s)) => ("a struct", s.ident.span()),
        Ok(syn::Item::Enum(e)) => ("an enum", e.ident.span()),
        Ok(syn::Item::Const(c)) => ("a const", c.ident.span()),
        Ok(syn::Item::Static(s)) => ("a static", s.ident.span()),
        Ok(syn::Item::Impl(i)) => ("an impl block", i.impl_token.span),
        Ok(syn::Item::Trait(t)) => ("a trait", t.ident.span()),
        Ok(syn::Item::Mod(m)) => ("a module", m.ident.span()),
        Ok(syn::Item::Type(t)) => ("a type alias", t.ident.span()),
        _ => ("this item", input.span()),
    };
    cx.error_at(
        span,
        format!("`#[tool]` goes on a fn, not on {what}: write `#[tool] async fn name(arg: Type) -> Output {{ ... }}`"),
    );
}
