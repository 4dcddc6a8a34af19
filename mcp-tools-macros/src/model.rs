//! The small AST of one `#[tool]`, `#[prompt]` or `#[resource]` fn: what the attribute, the doc comment and
//! the signature say, as written, with the original tokens kept for spans. Nothing here judges: the check
//! phase (`check.rs`) does, and expansion reads the same model.

use crate::attr::{CapabilityAttr, parse_attr};
use crate::ctxt::Ctxt;
use crate::docs::{self, Docs};
use crate::kind::Kind;
use crate::name::title_from_name;
use crate::uri::ResourceUri;
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, FnArg, Ident, ItemFn, LitStr, Pat, Path, ReturnType, Type};

/// One `#[tool]`, `#[prompt]` or `#[resource]` function.
pub(crate) struct CapabilityFn {
    /// What the macro makes of it.
    pub(crate) kind: Kind,
    /// The user's fn, with the attributes the macro consumed removed from its parameters
    /// (the compiler rejects `///` there); otherwise unchanged.
    pub(crate) item: ItemFn,
    pub(crate) attr: CapabilityAttr,
    /// What the fn's own doc comment says.
    pub(crate) docs: Docs,
    /// The parameters other than `self`, in order.
    pub(crate) params: Vec<Param>,
}

pub(crate) struct Param {
    /// The pattern as written; a parameter must be a plain name.
    pub(crate) pat: Pat,
    pub(crate) ty: Type,
    /// The parameter's own `///` comment.
    pub(crate) doc: Option<String>,
    /// Every `#[default(..)]` as written, with its value when it parsed.
    pub(crate) defaults: Vec<(Attribute, Option<Expr>)>,
    /// Every `#[complete(..)]` as written, with its fn's path when it is one path.
    pub(crate) completes: Vec<(Attribute, Option<Path>)>,
    /// Every `#[header(..)]` as written, with its name when it is one string literal.
    pub(crate) headers: Vec<(Attribute, Option<LitStr>)>,
}

/// Where the name comes from.
pub(crate) enum NameSource<'a> {
    /// `#[tool(name = "...")]`, `#[prompt(name = "...")]`.
    Attr(&'a LitStr),
    /// The fn's identifier.
    Ident(&'a Ident),
}

impl CapabilityFn {
    /// Parses the attribute and the fn into the model of a `kind`. Problems of form go into
    /// `cx`; `None` when the item is not a fn (also recorded).
    pub(crate) fn parse(
        cx: &mut Ctxt,
        kind: Kind,
        args: TokenStream,
        input: TokenStream,
    ) -> Option<CapabilityFn> {
        let attr = parse_attr(cx, kind, args);
        let mut item: ItemFn = match syn::parse2(input.clone()) {
            Ok(item) => item,
            Err(_) => {
                not_a_fn(cx, kind, input);
                return None;
            }
        };
        let docs = docs::item_docs(&item.attrs);
        let mut params = Vec::new();
        for input in item.sig.inputs.iter_mut() {
            if let FnArg::Typed(typed) = input {
                let doc = docs::param_description(&typed.attrs);
                let defaults = take_defaults(cx, &mut typed.attrs);
                let completes = take_completes(&mut typed.attrs);
                let headers = take_headers(&mut typed.attrs);
                typed.attrs.retain(|a| !a.path().is_ident("doc"));
                params.push(Param {
                    pat: (*typed.pat).clone(),
                    ty: (*typed.ty).clone(),
                    doc,
                    defaults,
                    completes,
                    headers,
                });
            }
        }
        Some(CapabilityFn {
            kind,
            item,
            attr,
            docs,
            params,
        })
    }

    pub(crate) fn name_source(&self) -> NameSource<'_> {
        match self.attr.name.get() {
            Some(lit) => NameSource::Attr(lit),
            None => NameSource::Ident(&self.item.sig.ident),
        }
    }

    /// The name clients see.
    pub(crate) fn name(&self) -> String {
        match self.name_source() {
            NameSource::Attr(lit) => lit.value(),
            NameSource::Ident(ident) => unraw(ident),
        }
    }

    pub(crate) fn title(&self) -> String {
        match self.attr.title.get() {
            Some(lit) => lit.value(),
            None => title_from_name(&self.name()),
        }
    }

    /// `description = "..."` in the attribute, else the doc comment's description. An explicit
    /// attribute always beats the comment.
    pub(crate) fn description(&self) -> Option<String> {
        match self.attr.description.get() {
            Some(lit) => Some(lit.value().trim().to_owned()),
            None => self.docs.description.clone(),
        }
    }

    /// A parameter's own `///` comment, else its entry in the fn's argument section.
    pub(crate) fn param_description(&self, param: &Param) -> Option<String> {
        let name = param.name()?;
        param.doc.clone().or_else(|| {
            self.docs
                .arguments
                .iter()
                .find(|(arg, _)| *arg == name)
                .map(|(_, text)| text.clone())
        })
    }

    /// A resource's URI, when `uri = "..."` was given (the first, if repeated), parsed.
    pub(crate) fn resource_uri(&self) -> Option<ResourceUri<'_>> {
        self.attr.uri.get().map(ResourceUri::parse)
    }

    /// The variables of a resource's URI template, in order: `None` for a tool, a prompt,
    /// or a resource whose URI is missing or malformed (the check phase reports those);
    /// empty for a fixed URI.
    pub(crate) fn uri_variables(&self) -> Option<Vec<String>> {
        if self.kind != Kind::Resource {
            return None;
        }
        let template = self.resource_uri()?.parsed.ok()?;
        Some(template.variables().map(|var| var.name.clone()).collect())
    }

    /// Whether the `#[complete(..)]` of `param` is where one may be: on a prompt's
    /// parameter (that it is an argument, not injected, only its type says: the expansion
    /// checks it), or on a resource template's variable; never on a tool's.
    pub(crate) fn may_complete(&self, param: &Param) -> bool {
        match self.kind {
            Kind::Tool | Kind::Method => false,
            Kind::Prompt => true,
            Kind::Resource => self
                .uri_variables()
                .zip(param.name())
                .is_some_and(|(variables, name)| variables.contains(&name)),
        }
    }

    /// A method: the fn takes `self` in some form, so it sits in an impl block, where only
    /// associated items may be emitted beside it.
    pub(crate) fn is_method(&self) -> bool {
        self.item.sig.receiver().is_some()
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

    /// Whether a parameter's type can be named outside the fn: no borrow, no `impl Trait`,
    /// no generic parameter of the fn. Only such types get a type check of their own; the
    /// others are mistakes the check phase reports.
    pub(crate) fn param_stands_alone(&self, param: &Param) -> bool {
        !matches!(param.ty, Type::Reference(_)) && self.stands_alone(&param.ty)
    }

    /// Whether the return type can be named outside the fn (a borrow can: its lifetime is
    /// inferred where it is named).
    pub(crate) fn output_stands_alone(&self) -> bool {
        match &self.item.sig.output {
            ReturnType::Default => true,
            ReturnType::Type(_, ty) => self.stands_alone(ty),
        }
    }

    fn stands_alone(&self, ty: &Type) -> bool {
        let generics: Vec<String> = self
            .item
            .sig
            .generics
            .params
            .iter()
            .map(|p| match p {
                syn::GenericParam::Type(t) => t.ident.to_string(),
                syn::GenericParam::Lifetime(l) => l.lifetime.ident.to_string(),
                syn::GenericParam::Const(c) => c.ident.to_string(),
            })
            .collect();
        !contains_impl_trait(ty) && !mentions_any(ty, &generics)
    }
}

impl Param {
    /// The plain name, when the pattern is one.
    pub(crate) fn ident(&self) -> Option<&Ident> {
        match &self.pat {
            Pat::Ident(pat) if pat.subpat.is_none() => Some(&pat.ident),
            _ => None,
        }
    }

    /// The argument name clients send (the ident without `r#`).
    pub(crate) fn name(&self) -> Option<String> {
        self.ident().map(unraw)
    }

    /// The default value: the first well-formed `#[default(..)]`.
    pub(crate) fn default(&self) -> Option<&Expr> {
        self.defaults.iter().find_map(|(_, expr)| expr.as_ref())
    }

    /// The header the argument is mirrored into: the first `#[header("...")]`, when it is
    /// one string literal.
    pub(crate) fn header(&self) -> Option<&LitStr> {
        self.headers.iter().find_map(|(_, name)| name.as_ref())
    }

    /// The completion fn: the first `#[complete(..)]`, when it is one path.
    pub(crate) fn completer(&self) -> Option<(&Attribute, &Path)> {
        let (attr, path) = self.completes.first()?;
        Some((attr, path.as_ref()?))
    }
}

/// Removes every `#[default(..)]` from a parameter and returns them as written.
fn take_defaults(cx: &mut Ctxt, attrs: &mut Vec<Attribute>) -> Vec<(Attribute, Option<Expr>)> {
    let mut defaults = Vec::new();
    attrs.retain(|attr| {
        if !attr.path().is_ident("default") {
            return true;
        }
        let expr = match attr.parse_args::<Expr>() {
            Ok(expr) => Some(expr),
            Err(_) => {
                cx.error_spanned_by(
                    attr,
                    "expected `#[default(value)]`, such as `#[default(10)]` or `#[default(\"en\".to_string())]`",
                );
                None
            }
        };
        defaults.push((attr.clone(), expr));
        false
    });
    defaults
}

/// Removes every `#[complete(..)]` from a parameter and returns them as written, with the
/// path they hold when they hold exactly one; the check phase judges the rest.
fn take_completes(attrs: &mut Vec<Attribute>) -> Vec<(Attribute, Option<Path>)> {
    let mut completes = Vec::new();
    attrs.retain(|attr| {
        if !attr.path().is_ident("complete") {
            return true;
        }
        completes.push((attr.clone(), attr.parse_args::<Path>().ok()));
        false
    });
    completes
}

/// Removes every `#[header(..)]` from a parameter and returns them as written, with the
/// name they hold when they hold one string literal; the check phase judges the rest.
fn take_headers(attrs: &mut Vec<Attribute>) -> Vec<(Attribute, Option<LitStr>)> {
    let mut headers = Vec::new();
    attrs.retain(|attr| {
        if !attr.path().is_ident("header") {
            return true;
        }
        headers.push((attr.clone(), attr.parse_args::<LitStr>().ok()));
        false
    });
    headers
}

pub(crate) fn contains_impl_trait(ty: &Type) -> bool {
    fn walk(stream: TokenStream) -> bool {
        stream.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => i == "impl",
            proc_macro2::TokenTree::Group(g) => walk(g.stream()),
            _ => false,
        })
    }
    walk(ty.to_token_stream())
}

fn mentions_any(ty: &Type, names: &[String]) -> bool {
    fn walk(stream: TokenStream, names: &[String]) -> bool {
        stream.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => names.iter().any(|n| i == n),
            proc_macro2::TokenTree::Group(g) => walk(g.stream(), names),
            _ => false,
        })
    }
    !names.is_empty() && walk(ty.to_token_stream(), names)
}

pub(crate) fn unraw(ident: &Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

/// Says what the attribute goes on, at the item it was put on.
fn not_a_fn(cx: &mut Ctxt, kind: Kind, input: TokenStream) {
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
        format!(
            "`#[{}]` goes on a fn, not on {what}: write `{}`",
            kind.noun(),
            kind.example()
        ),
    );
}
