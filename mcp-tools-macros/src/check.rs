//! The check phase (serde_derive's `internals/check.rs`): every rule a `#[tool]` must follow,
//! judged on the parsed model, each mistake recorded at its culprit. Parsing only says what
//! was written; this is the one place that says what is wrong with it.

use crate::attr::{Annotations, Icon, MetaEntry, ToolAttr};
use crate::ctxt::Ctxt;
use crate::list::{Field, Key};
use crate::model::{NameSource, Param, ToolFn, contains_impl_trait};
use crate::name::check_name;
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{FnArg, ReceiverKind, ReturnType, Signature, Type};

/// Runs every check of a tool. The order is the order the errors are reported in.
pub(crate) fn check_tool(cx: &mut Ctxt, tool: &ToolFn) {
    check_tool_attr(cx, &tool.attr);
    check_tool_name(cx, tool);
    check_signature(cx, &tool.item.sig, "tool");
    check_description(cx, tool);
    check_inputs(cx, tool);
    check_output(cx, tool);
    check_doc_arguments(cx, tool);
}

/// Reports every occurrence of a key after its first, at that occurrence's key.
pub(crate) fn no_duplicates<T>(cx: &mut Ctxt, field: &Field<T>, scope: &str) {
    for occurrence in field.occurrences.iter().skip(1) {
        cx.error_spanned_by(&occurrence.key, duplicate_key(&occurrence.key, scope));
    }
}

/// Reports every key of a free-form list (`meta(...)`) equal to an earlier one.
pub(crate) fn no_duplicate_keys<'a>(cx: &mut Ctxt, keys: impl IntoIterator<Item = &'a Key>, scope: &str) {
    let mut seen: Vec<String> = Vec::new();
    for key in keys {
        let name = key.name();
        if seen.contains(&name) {
            cx.error_spanned_by(key, duplicate_key(key, scope));
        } else {
            seen.push(name);
        }
    }
}

fn duplicate_key(key: &Key, scope: &str) -> String {
    format!("duplicate key `{}` in `{scope}`; give each key once", key.name())
}

fn check_tool_attr(cx: &mut Ctxt, attr: &ToolAttr) {
    const SCOPE: &str = "#[tool(...)]";
    no_duplicates(cx, &attr.name, SCOPE);
    no_duplicates(cx, &attr.title, SCOPE);
    no_duplicates(cx, &attr.description, SCOPE);
    no_duplicates(cx, &attr.annotations, SCOPE);
    no_duplicates(cx, &attr.icons, SCOPE);
    no_duplicates(cx, &attr.meta, SCOPE);
    for annotations in attr.annotations.values() {
        check_annotations(cx, annotations);
    }
    for icon in attr.icons.values().flatten() {
        check_icon(cx, icon);
    }
    for entries in attr.meta.values() {
        no_duplicate_keys(cx, entries.iter().map(|e: &MetaEntry| &e.key), "meta(...)");
    }
}

fn check_annotations(cx: &mut Ctxt, annotations: &Annotations) {
    const SCOPE: &str = "annotations(...)";
    no_duplicates(cx, &annotations.read_only, SCOPE);
    no_duplicates(cx, &annotations.destructive, SCOPE);
    no_duplicates(cx, &annotations.idempotent, SCOPE);
    no_duplicates(cx, &annotations.open_world, SCOPE);
    no_duplicates(cx, &annotations.title, SCOPE);
}

fn check_icon(cx: &mut Ctxt, icon: &Icon) {
    const SCOPE: &str = "icon(...)";
    no_duplicates(cx, &icon.src, SCOPE);
    no_duplicates(cx, &icon.mime_type, SCOPE);
    no_duplicates(cx, &icon.sizes, SCOPE);
    no_duplicates(cx, &icon.theme, SCOPE);
    if icon.src.occurrences.is_empty() {
        cx.error_spanned_by(
            &icon.written,
            "an icon needs a source: `icon(src = \"https://...\")`",
        );
    }
    for theme in icon.theme.values() {
        if !matches!(theme.value().as_str(), "light" | "dark") {
            cx.error_spanned_by(theme, "unknown icon theme; expected `\"light\"` or `\"dark\"`");
        }
    }
}

/// The name rule of the specification, at the `"..."` literal, or at the fn's name when
/// the name comes from it.
fn check_tool_name(cx: &mut Ctxt, tool: &ToolFn) {
    let Err(message) = check_name("tool", &tool.name()) else {
        return;
    };
    match tool.name_source() {
        NameSource::Attr(lit) => cx.error_spanned_by(lit, message),
        NameSource::Ident(ident) => cx.error_at(
            ident.span(),
            format!("{message}\nhelp: keep the fn name and give the tool another: `#[tool(name = \"...\")]`"),
        ),
    }
}

/// What a fn the macro turns into a `kind` (`"tool"`) cannot be.
pub(crate) fn check_signature(cx: &mut Ctxt, sig: &Signature, kind: &str) {
    if !sig.generics.params.is_empty() {
        cx.error_spanned_by(
            &sig.generics,
            format!("a {kind} fn cannot be generic: its input schema is built from concrete parameter types; use concrete types"),
        );
    }
    if let Some(clause) = &sig.generics.where_clause {
        cx.error_spanned_by(
            clause,
            format!("a {kind} fn cannot have a `where` clause; use concrete types"),
        );
    }
    if let syn::Safety::Unsafe(token) = &sig.safety {
        cx.error_spanned_by(
            token,
            format!("a {kind} fn cannot be `unsafe`: clients call it with arguments nobody has checked for its safety contract"),
        );
    }
    if let Some(abi) = &sig.abi {
        cx.error_spanned_by(abi, format!("a {kind} fn cannot have an `extern` ABI"));
    }
    if let Some(variadic) = &sig.variadic {
        cx.error_spanned_by(variadic, format!("a {kind} fn cannot be variadic"));
    }
}

fn check_description(cx: &mut Ctxt, tool: &ToolFn) {
    match tool.attr.description.get() {
        Some(lit) if lit.value().trim().is_empty() => cx.error_spanned_by(
            lit,
            "the description is empty; say what the tool does, for the model that will choose it",
        ),
        Some(_) => {}
        // A malformed `description = ..` has been reported; do not say it is missing too.
        None if !tool.attr.description.occurrences.is_empty() => {}
        None if tool.docs.description.is_some() => {}
        None => cx.error_at(
            tool.item.sig.ident.span(),
            format!(
                "tool `{}` has no description; models choose tools by it\nhelp: add a doc comment above the fn (`/// Says what the tool does.`) or `#[tool(description = \"...\")]`",
                tool.name()
            ),
        ),
    }
}

/// The receiver and the parameters, in the order written.
fn check_inputs(cx: &mut Ctxt, tool: &ToolFn) {
    let mut params = tool.params.iter();
    for input in &tool.item.sig.inputs {
        match input {
            FnArg::Receiver(receiver) => match &receiver.kind {
                ReceiverKind::Reference(_, _, None) => {}
                ReceiverKind::Reference(_, _, Some(_)) => cx.error_spanned_by(
                    receiver,
                    "a tool method takes `&self`, not `&mut self`: calls run concurrently, so keep what changes behind a `Mutex` or an atomic",
                ),
                _ => cx.error_spanned_by(
                    receiver,
                    "a tool method takes `&self`: the tool is built from an `Arc` of the instance and each call borrows it",
                ),
            },
            FnArg::Typed(_) => {
                if let Some(param) = params.next() {
                    check_param(cx, param);
                }
            }
        }
    }
}

fn check_param(cx: &mut Ctxt, param: &Param) {
    if param.ident().is_none() {
        cx.error_spanned_by(
            &param.pat,
            "a tool parameter must be a plain name such as `text: String`, because the name is the argument's name; destructure it in the body",
        );
    }
    check_param_type(cx, &param.ty);
    let mut defaults = param.defaults.iter().map(|(attr, _)| attr);
    if defaults.next().is_some() {
        for duplicate in defaults {
            cx.error_spanned_by(duplicate, duplicate_default(param));
        }
    }
}

fn duplicate_default(param: &Param) -> String {
    match param.name() {
        Some(name) => format!("duplicate `#[default(..)]` on `{name}`; give one default"),
        None => "duplicate `#[default(..)]`; give one default".to_owned(),
    }
}

/// Rejects parameter types no client can send, at the type. Whether the compiler can decode
/// the rest is the spanned per-parameter check of the expansion.
fn check_param_type(cx: &mut Ctxt, ty: &Type) {
    if let Type::Reference(reference) = ty {
        let owned = match &*reference.elem {
            Type::Path(p) if p.path.is_ident("str") => "String".to_owned(),
            Type::Slice(slice) => format!("Vec<{}>", slice.elem.to_token_stream()),
            other => other.to_token_stream().to_string(),
        };
        cx.error_spanned_by(
            ty,
            format!("a tool parameter must own its value, because arguments are decoded from the request; use `{owned}`"),
        );
    } else if contains_impl_trait(ty) {
        cx.error_spanned_by(
            ty,
            "a tool parameter cannot be `impl Trait`: its schema is built from a concrete type",
        );
    }
}

fn check_output(cx: &mut Ctxt, tool: &ToolFn) {
    if let ReturnType::Type(_, ty) = &tool.item.sig.output
        && contains_impl_trait(ty)
    {
        cx.error_spanned_by(
            ty,
            "a tool fn cannot return `impl Trait`: the type decides the output schema and the conversion; name the type",
        );
    }
}

/// Every argument the doc comment's argument section names is a parameter.
fn check_doc_arguments(cx: &mut Ctxt, tool: &ToolFn) {
    let names: Vec<String> = tool.params.iter().filter_map(Param::name).collect();
    for (arg, _) in &tool.docs.arguments {
        if names.contains(arg) {
            continue;
        }
        let known: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        let span = tool
            .item
            .attrs
            .iter()
            .find(|a| a.path().is_ident("doc"))
            .map_or_else(|| tool.item.sig.ident.span(), Spanned::span);
        cx.error_at(
            span,
            format!(
                "the doc comment describes an argument `{arg}`, but the fn has no such parameter; its parameters are {}",
                if known.is_empty() { "none".to_owned() } else { known.join(", ") }
            ),
        );
    }
}
