//! The check phase (serde_derive's `internals/check.rs`): every rule a `#[tool]`, a
//! `#[prompt]` or a `#[resource]` must follow, judged on the parsed model, each mistake recorded at its
//! culprit. Parsing only says what was written; this is the one place that says what is
//! wrong with it.

use crate::attr::{
    Annotations, AppLink, AppView, Cache, CapabilityAttr, Icon, MetaEntry, ResourceAnnotations, Task,
    TaskSupport,
};
use crate::ctxt::Ctxt;
use crate::kind::Kind;
use crate::list::{Field, Key};
use crate::model::{CapabilityFn, NameSource, Param, contains_impl_trait};
use crate::uri::{ResourceUri, is_option, is_plain_data};
use mcp_toolkit_core::uri_template::Template;
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{FnArg, LitInt, ReceiverKind, ReturnType, Signature, Type};

/// Runs every check of a tool, a prompt or a resource. The order is the order the errors
/// are reported in.
pub(crate) fn check(cx: &mut Ctxt, f: &CapabilityFn) {
    check_attr(cx, f.kind, &f.attr);
    check_uri(cx, f);
    check_app(cx, f);
    check_name_of(cx, f);
    check_signature(cx, &f.item.sig, f.kind);
    check_description(cx, f);
    check_inputs(cx, f);
    check_headers(cx, f);
    check_output(cx, f);
    check_doc_arguments(cx, f);
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

fn check_attr(cx: &mut Ctxt, kind: Kind, attr: &CapabilityAttr) {
    let scope = kind.list().scope;
    no_duplicates(cx, &attr.uri, scope);
    no_duplicates(cx, &attr.name, scope);
    no_duplicates(cx, &attr.title, scope);
    no_duplicates(cx, &attr.description, scope);
    no_duplicates(cx, &attr.mime_type, scope);
    no_duplicates(cx, &attr.size, scope);
    no_duplicates(cx, &attr.annotations, scope);
    no_duplicates(cx, &attr.resource_annotations, scope);
    no_duplicates(cx, &attr.icons, scope);
    no_duplicates(cx, &attr.meta, scope);
    no_duplicates(cx, &attr.cache, scope);
    no_duplicates(cx, &attr.scopes, scope);
    no_duplicates(cx, &attr.task, scope);
    no_duplicates(cx, &attr.result_budget, scope);
    no_duplicates(cx, &attr.group, scope);
    no_duplicates(cx, &attr.search_hint, scope);
    no_duplicates(cx, &attr.always_load, scope);
    no_duplicates(cx, &attr.max_result_chars, scope);
    for budget in attr.result_budget.values() {
        check_budget(cx, budget);
    }
    for group in attr.group.values() {
        if let Err(error) = mcp_toolkit_core::name::check_group(&group.value()) {
            cx.error_spanned_by(group, error);
        }
    }
    for hint in attr.search_hint.values() {
        if hint.value().trim().is_empty() {
            cx.error_spanned_by(
                hint,
                "`search_hint` is empty; write the words a search should match, such as `search_hint = \"refund money back chargeback\"`",
            );
        }
    }
    for chars in attr.max_result_chars.values() {
        check_result_chars(cx, chars);
    }
    for task in attr.task.values() {
        check_task(cx, task);
    }
    for scopes in attr.scopes.values() {
        check_scopes(cx, scopes);
    }
    for size in attr.size.values() {
        check_u64(cx, "size", size);
    }
    for annotations in attr.annotations.values() {
        check_annotations(cx, annotations);
    }
    for annotations in attr.resource_annotations.values() {
        check_resource_annotations(cx, annotations);
    }
    for cache in attr.cache.values() {
        check_cache(cx, cache);
    }
    for icon in attr.icons.values().flatten() {
        check_icon(cx, icon);
    }
    for entries in attr.meta.values() {
        no_duplicate_keys(cx, entries.iter().map(|e: &MetaEntry| &e.key), "meta(...)");
        no_hint_in_meta(cx, attr, entries);
    }
}

/// A `meta(...)` entry under the `_meta` key of a hint key the attribute also has
/// (`search_hint` and `meta("anthropic/searchHint" = ..)`), at the entry's key: the two
/// would say one thing twice.
fn no_hint_in_meta(cx: &mut Ctxt, attr: &CapabilityAttr, entries: &[MetaEntry]) {
    use mcp_toolkit_core::hint::{ALWAYS_LOAD, MAX_RESULT_SIZE_CHARS, SEARCH_HINT};
    let hints = [
        (
            SEARCH_HINT,
            "search_hint",
            attr.search_hint.occurrences.is_empty(),
        ),
        (
            ALWAYS_LOAD,
            "always_load",
            attr.always_load.occurrences.is_empty(),
        ),
        (
            MAX_RESULT_SIZE_CHARS,
            "max_result_chars",
            attr.max_result_chars.occurrences.is_empty(),
        ),
    ];
    for entry in entries {
        let name = entry.key.name();
        if let Some((meta_key, hint, _)) = hints
            .iter()
            .find(|(meta_key, _, absent)| !absent && name == *meta_key)
        {
            cx.error_spanned_by(
                &entry.key,
                format!("`{meta_key}` in `meta(...)` is what `{hint}` sends; give it once, with `{hint}`"),
            );
        }
    }
}

/// A tool's scopes: each a scope token (RFC 6749, section 3.3: not empty, no spaces, no
/// `"` or a backslash, as it goes into a quoted `WWW-Authenticate` parameter), each given once.
fn check_scopes(cx: &mut Ctxt, scopes: &[syn::LitStr]) {
    let mut seen: Vec<String> = Vec::new();
    for scope in scopes {
        let value = scope.value();
        if value.is_empty() {
            cx.error_spanned_by(
                scope,
                "a scope cannot be empty; write the scope a token must hold, such as `\"notes:write\"`",
            );
        } else if !value
            .bytes()
            .all(|b| b == 0x21 || (0x23..=0x5B).contains(&b) || (0x5D..=0x7E).contains(&b))
        {
            cx.error_spanned_by(
                scope,
                format!(
                    "`{}` is not a scope: a scope is printable ASCII without spaces, `\"` or `\\`; list several as `scopes(\"a\", \"b\")`",
                    value.escape_debug()
                ),
            );
        } else if seen.contains(&value) {
            cx.error_spanned_by(
                scope,
                format!("the scope `{value}` is listed twice; give each scope once"),
            );
        } else {
            seen.push(value);
        }
    }
}

/// `task = "..."` names a support the runtime has, at the string.
fn check_task(cx: &mut Ctxt, task: &Task) {
    let Task::Named(lit) = task else { return };
    if task.support().is_some() {
        return;
    }
    let [(a, _), (b, _), (c, _)] = TaskSupport::NAMED;
    cx.error_spanned_by(
        lit,
        format!(
            "unknown task support `{}`; expected `{a}`, `{b}` or `{c}`",
            lit.value().escape_debug()
        ),
    );
}

fn check_annotations(cx: &mut Ctxt, annotations: &Annotations) {
    const SCOPE: &str = "annotations(...)";
    no_duplicates(cx, &annotations.read_only, SCOPE);
    no_duplicates(cx, &annotations.destructive, SCOPE);
    no_duplicates(cx, &annotations.idempotent, SCOPE);
    no_duplicates(cx, &annotations.open_world, SCOPE);
    no_duplicates(cx, &annotations.title, SCOPE);
}

/// A resource's hints: each role once, and only `user` or `assistant`; a priority from 0
/// to 1; a last modification as an RFC 3339 date-time.
fn check_resource_annotations(cx: &mut Ctxt, annotations: &ResourceAnnotations) {
    const SCOPE: &str = "annotations(...)";
    no_duplicates(cx, &annotations.audience, SCOPE);
    no_duplicates(cx, &annotations.priority, SCOPE);
    no_duplicates(cx, &annotations.last_modified, SCOPE);
    for occurrence in &annotations.audience.occurrences {
        let Some(roles) = &occurrence.value else { continue };
        if roles.is_empty() {
            cx.error_spanned_by(
                &occurrence.key,
                "`audience` is empty; name `\"user\"`, `\"assistant\"` or both, or leave it out",
            );
        }
        let mut seen = Vec::new();
        for role in roles {
            let value = role.value();
            if !matches!(value.as_str(), "user" | "assistant") {
                cx.error_spanned_by(
                    role,
                    format!("unknown role `{value:?}` in `audience`; expected `\"user\"` or `\"assistant\"`"),
                );
            } else if seen.contains(&value) {
                cx.error_spanned_by(
                    role,
                    format!("`{value:?}` is in `audience` twice; give each role once"),
                );
            } else {
                seen.push(value);
            }
        }
    }
    for priority in annotations.priority.values() {
        if !(0.0..=1.0).contains(&priority.value) {
            cx.error_spanned_by(
                &priority.tokens,
                format!(
                    "`priority = {}` is out of range; expected a number from 0 (least important) to 1 (most important)",
                    priority.value
                ),
            );
        }
    }
    for last_modified in annotations.last_modified.values() {
        if let Err(why) = mcp_toolkit_core::date_time::check(&last_modified.value()) {
            cx.error_spanned_by(
                last_modified,
                format!(
                    "`last_modified` is not an RFC 3339 date-time such as `\"2025-01-12T15:00:58Z\"`: {why}"
                ),
            );
        }
    }
}

/// A resource's read hints: something given, a `u64` of milliseconds, a known scope.
fn check_cache(cx: &mut Ctxt, cache: &Cache) {
    const SCOPE: &str = "cache(...)";
    no_duplicates(cx, &cache.ttl_ms, SCOPE);
    no_duplicates(cx, &cache.scope, SCOPE);
    if cache.empty {
        cx.error_spanned_by(
            &cache.written,
            "`cache(...)` is empty; give `ttl_ms = 60000`, `scope = \"public\"` or `scope = \"private\"`, or both",
        );
    }
    for ttl_ms in cache.ttl_ms.values() {
        check_u64(cx, "ttl_ms", ttl_ms);
    }
    for scope in cache.scope.values() {
        if !matches!(scope.value().as_str(), "public" | "private") {
            cx.error_spanned_by(
                scope,
                format!(
                    "unknown cache scope `{:?}`; expected `\"public\"` (any client may share the read) or `\"private\"` (for the caller alone)",
                    scope.value()
                ),
            );
        }
    }
}

/// `result_budget = ...` is a `usize` of at least `MIN_RESULT_BUDGET` bytes, at the number.
fn check_budget(cx: &mut Ctxt, lit: &LitInt) {
    const LEAST: u64 = 1024;
    let least = "at least 1024 (`mcp_toolkit::tool::MIN_RESULT_BUDGET`): room for a page and the line that says how to read on";
    if !matches!(lit.suffix(), "" | "usize") {
        cx.error_spanned_by(
            lit,
            "`result_budget` is a `usize` of bytes; write it without a suffix or with `usize`",
        );
    } else if lit.base10_digits().starts_with('-') {
        cx.error_spanned_by(
            lit,
            format!("`result_budget = {lit}` is negative; a budget is a number of bytes, {least}"),
        );
    } else {
        match lit.base10_parse::<u64>() {
            Ok(0) => cx.error_spanned_by(
                lit,
                format!("`result_budget = 0` leaves no room for an answer; a budget is {least}"),
            ),
            Ok(bytes) if bytes < LEAST => cx.error_spanned_by(
                lit,
                format!("`result_budget = {lit}` is too small; a budget is {least}"),
            ),
            Ok(bytes) if usize::try_from(bytes).is_ok() => {}
            _ => cx.error_spanned_by(lit, format!("`result_budget = {lit}` does not fit in a `usize`")),
        }
    }
}

/// `max_result_chars = ...` is a `usize` from 1 to what hosts accept, at the number.
fn check_result_chars(cx: &mut Ctxt, lit: &LitInt) {
    use mcp_toolkit_core::hint::MAX_RESULT_CHARS;
    let accepted = format!(
        "write 1 to {} (characters)",
        with_underscores(MAX_RESULT_CHARS as u64)
    );
    if !matches!(lit.suffix(), "" | "usize") {
        cx.error_spanned_by(
            lit,
            "`max_result_chars` is a `usize` of characters; write it without a suffix or with `usize`",
        );
    } else if lit.base10_digits().starts_with('-') {
        cx.error_spanned_by(lit, format!("`max_result_chars = {lit}` is negative; {accepted}"));
    } else {
        match lit.base10_parse::<u64>() {
            Ok(0) => cx.error_spanned_by(
                lit,
                format!("`max_result_chars = 0` leaves no room for a result; {accepted}"),
            ),
            Ok(chars) if chars <= MAX_RESULT_CHARS as u64 => {}
            _ => cx.error_spanned_by(
                lit,
                format!("`max_result_chars = {lit}` is more than hosts accept; {accepted}"),
            ),
        }
    }
}

/// `500000` as `500_000`: a number as a Rust literal groups its digits.
fn with_underscores(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('_');
        }
        out.push(c);
    }
    out
}

/// An integer literal that must be a `u64`: in range, without another type's suffix.
fn check_u64(cx: &mut Ctxt, key: &str, lit: &LitInt) {
    if !matches!(lit.suffix(), "" | "u64") {
        cx.error_spanned_by(
            lit,
            format!("`{key}` is a `u64`; write it without a suffix or with `u64`"),
        );
    } else if lit.base10_parse::<u64>().is_err() {
        cx.error_spanned_by(lit, format!("`{key} = {lit}` does not fit in a `u64`"));
    }
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

/// A resource's URI: there is one; as a template, it parses (each RFC 6570 mistake at its
/// text), each of its variables is a parameter (at the variable), and each query variable,
/// which a URI may leave out, is an `Option<_>` or has a default (at the parameter). A
/// parameter which is no variable must be injected: one written as text or a number is not
/// (at its name); of another, only its type says, and the expansion checks it.
fn check_uri(cx: &mut Ctxt, f: &CapabilityFn) {
    if f.kind != Kind::Resource {
        return;
    }
    let Some(uri) = f.resource_uri() else {
        // A malformed `uri = ..` has been reported; do not say it is missing too.
        if f.attr.uri.occurrences.is_empty() {
            cx.error_at(
                proc_macro2::Span::call_site(),
                "a resource needs a URI: `#[resource(uri = \"docs://readme\")]`, or a template such as `#[resource(uri = \"users://{user_id}/profile\")]` whose variables are the fn's parameters",
            );
        }
        return;
    };
    let template = match &uri.parsed {
        Ok(template) => template,
        Err(errors) => {
            for error in errors {
                cx.error_at(uri.span(error.offset, error.len), &error.message);
            }
            return;
        }
    };
    if template.is_template()
        && let Some(size) = f.attr.size.occurrences.first()
    {
        cx.error_spanned_by(
            &size.key,
            format!(
                "`size` is for a resource with a fixed URI; the resources of the template `{}` differ, so their size is unknown",
                uri.lit.value()
            ),
        );
    }
    check_variables(cx, f, &uri, template);
}

fn check_variables(cx: &mut Ctxt, f: &CapabilityFn, uri: &ResourceUri<'_>, template: &Template) {
    let names: Vec<String> = f.params.iter().filter_map(Param::name).collect();
    for var in template.variables() {
        let Some(param) = f
            .params
            .iter()
            .find(|p| p.name().as_deref() == Some(var.name.as_str()))
        else {
            let known: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            cx.error_at(
                uri.span(var.offset, var.name.len()),
                format!(
                    "the URI has a variable `{0}`, but the fn has no parameter `{0}`; its parameters are {1}\nhelp: add a parameter such as `{0}: String`, or remove `{0}` from the URI",
                    var.name,
                    if known.is_empty() { "none".to_owned() } else { known.join(", ") }
                ),
            );
            continue;
        };
        if template.is_query(&var.name) && !is_option(&param.ty) && param.default().is_none() {
            let mut written = param.pat.to_token_stream();
            written.extend(param.ty.to_token_stream());
            cx.error_spanned_by(
                written,
                format!(
                    "`{0}` is a query variable of the URI, which a client may leave out; make the parameter an `Option<_>` or give it a `#[default(..)]`",
                    var.name
                ),
            );
        }
    }
    // A parameter that is no variable is injected, which text or a number never is.
    for param in &f.params {
        let (Some(ident), Some(name)) = (param.ident(), param.name()) else {
            continue;
        };
        if !is_plain_data(&param.ty) || template.variables().any(|var| var.name == name) {
            continue;
        }
        let (uri, ty) = (
            uri.lit.value(),
            param.ty.to_token_stream().to_string().replace(' ', ""),
        );
        let message = if template.is_template() {
            format!(
                "`{name}` is not a variable of `{uri}`, and a `{ty}` is not injected: a resource template's fn takes the variables of its URI and injected parameters (`Context`, `State<T>`, any `FromContext` type)\nhelp: add `{{{name}}}` to the URI, or remove the parameter"
            )
        } else {
            format!(
                "`{uri}` is a fixed URI, so its fn takes no arguments, and a `{ty}` is not injected\nhelp: to read `{name}` from the URI, make it a template such as `{uri}/{{{name}}}`; or take only injected parameters (`Context`, `State<T>`)"
            )
        };
        cx.error_spanned_by(ident, message);
    }
}

/// The name rule of the specification, at the `"..."` literal, or at the fn's name when
/// the name comes from it.
fn check_name_of(cx: &mut Ctxt, f: &CapabilityFn) {
    let noun = f.kind.noun();
    if f.kind == Kind::Method {
        let Err(error) = mcp_toolkit_core::method::check(&f.name()) else {
            return;
        };
        let message = format!("method {error}");
        match f.name_source() {
            NameSource::Attr(lit) => cx.error_spanned_by(lit, message),
            NameSource::Ident(ident) => cx.error_at(
                ident.span(),
                format!("{message}\nhelp: name the method: `#[method(name = \"vendor/name\")]`"),
            ),
        }
        return;
    }
    let Err(error) = mcp_toolkit_core::name::check(&f.name()) else {
        return;
    };
    let message = format!("{noun} {error}");
    match f.name_source() {
        NameSource::Attr(lit) => cx.error_spanned_by(lit, message),
        NameSource::Ident(ident) => cx.error_at(
            ident.span(),
            format!(
                "{message}\nhelp: keep the fn name and give the {noun} another: `#[{noun}(name = \"...\")]`"
            ),
        ),
    }
}

/// What a fn the macro turns into a `kind` cannot be.
pub(crate) fn check_signature(cx: &mut Ctxt, sig: &Signature, kind: Kind) {
    let (why_concrete, kind) = (kind.why_concrete(), kind.noun());
    if !sig.generics.params.is_empty() {
        cx.error_spanned_by(
            &sig.generics,
            format!("a {kind} fn cannot be generic: {why_concrete}; use concrete types"),
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

fn check_description(cx: &mut Ctxt, f: &CapabilityFn) {
    if f.kind == Kind::Method {
        // A method's doc comment documents the fn; no client reads a description.
        return;
    }
    let (who_reads, say_what, comment) = f.kind.why_described();
    let noun = f.kind.noun();
    match f.attr.description.get() {
        Some(lit) if lit.value().trim().is_empty() => {
            cx.error_spanned_by(lit, format!("the description is empty; {say_what}"))
        }
        Some(_) => {}
        // A malformed `description = ..` has been reported; do not say it is missing too.
        None if !f.attr.description.occurrences.is_empty() => {}
        None if f.docs.description.is_some() => {}
        None => cx.error_at(
            f.item.sig.ident.span(),
            format!(
                "{noun} `{}` has no description; {who_reads}\nhelp: add a doc comment above the fn (`{comment}`) or `#[{noun}(description = \"...\")]`",
                f.name()
            ),
        ),
    }
}

/// The receiver and the parameters, in the order written.
fn check_inputs(cx: &mut Ctxt, f: &CapabilityFn) {
    let mut params = f.params.iter();
    for input in &f.item.sig.inputs {
        match input {
            FnArg::Receiver(receiver) if f.kind != Kind::Tool => cx.error_spanned_by(
                receiver,
                format!(
                    "a {0} fn cannot take `self`: {0}s are free fns, listed by name in `{0}s![...]`; move it out of the impl block and take what it needs as a `State<T>` parameter",
                    f.kind.noun()
                ),
            ),
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
                    check_param(cx, f.kind, param);
                    check_completes(cx, f, param);
                }
            }
        }
    }
}

fn check_param(cx: &mut Ctxt, kind: Kind, param: &Param) {
    if param.ident().is_none() {
        cx.error_spanned_by(
            &param.pat,
            format!(
                "a {} parameter must be a plain name such as `text: String`, because the name is the argument's name; destructure it in the body",
                kind.noun()
            ),
        );
    }
    check_param_type(cx, kind, &param.ty);
    let mut defaults = param.defaults.iter().map(|(attr, _)| attr);
    if defaults.next().is_some() {
        for duplicate in defaults {
            cx.error_spanned_by(duplicate, duplicate_default(param));
        }
    }
}

/// `#[header("Name")]`: on a tool's parameter, once, holding one string literal that is an
/// HTTP token (`mcp_toolkit_core::header`), unique among the tool's header names ignoring
/// case. That the parameter's type can be a header (and is not injected) only the type
/// says: the expansion checks it, at the type.
fn check_headers(cx: &mut Ctxt, f: &CapabilityFn) {
    let mut seen: Vec<(String, String)> = Vec::new();
    for param in &f.params {
        for (index, (attr, name)) in param.headers.iter().enumerate() {
            if f.kind != Kind::Tool {
                cx.error_spanned_by(
                    attr,
                    format!(
                        "`#[header(..)]` is for tool parameters, which clients mirror into `Mcp-Param-*` headers; a {} has none",
                        f.kind.noun()
                    ),
                );
                continue;
            }
            if index > 0 {
                let message = match param.name() {
                    Some(arg) => {
                        format!("duplicate `#[header(..)]` on `{arg}`; an argument is sent as one header")
                    }
                    None => "duplicate `#[header(..)]`; an argument is sent as one header".to_owned(),
                };
                cx.error_spanned_by(attr, message);
                continue;
            }
            let Some(name) = name else {
                cx.error_spanned_by(
                    attr,
                    "expected `#[header(\"Name\")]`: one string literal, the name the argument is sent under as the header `Mcp-Param-Name`",
                );
                continue;
            };
            let value = name.value();
            if let Err(error) = mcp_toolkit_core::header::check(&value) {
                cx.error_spanned_by(name, error);
                continue;
            }
            let arg = param.name().unwrap_or_default();
            if let Some((taken, other)) = seen
                .iter()
                .find(|(taken, _)| mcp_toolkit_core::header::same(taken, &value))
            {
                cx.error_spanned_by(
                    name,
                    format!(
                        "header name `{value}` is already the header of `{other}` (`{taken}`): header names are compared ignoring case, so both would be sent as `Mcp-Param-{taken}`; give each argument its own"
                    ),
                );
                continue;
            }
            seen.push((value, arg));
        }
    }
}

/// `#[complete(..)]`: on a prompt's argument or a resource template's variable, once,
/// holding one path to a fn. Whether a prompt's parameter is injected rather than an
/// argument only its type says: the expansion checks that, at the attribute.
fn check_completes(cx: &mut Ctxt, f: &CapabilityFn, param: &Param) {
    for (index, (attr, path)) in param.completes.iter().enumerate() {
        if let Some(misplaced) = misplaced_complete(f, param) {
            cx.error_spanned_by(attr, misplaced);
        } else if index > 0 {
            cx.error_spanned_by(attr, duplicate_complete(param));
        } else if path.is_none() {
            cx.error_spanned_by(
                attr,
                "expected `#[complete(path::to::fn)]`: one path to a completion fn, which takes injected values (`State<T>`, `Context`) and then `Partial`, and returns the candidates as `Vec<String>`",
            );
        }
    }
}

/// Why `param` may not have a `#[complete(..)]`, if it may not: a tool's parameter, a
/// resource's that is no variable of its URI. Nothing is said of a resource whose URI is
/// missing or malformed: that is reported, and there are no variables to compare with.
fn misplaced_complete(f: &CapabilityFn, param: &Param) -> Option<String> {
    if f.may_complete(param) {
        return None;
    }
    match f.kind {
        Kind::Prompt => None,
        Kind::Method => Some(
            "`#[complete(..)]` is for prompt arguments and resource template variables; methods have no completion"
                .to_owned(),
        ),
        Kind::Tool => Some(
            "`#[complete(..)]` is for prompt arguments and resource template variables; tools have no completion"
                .to_owned(),
        ),
        Kind::Resource => {
            let variables = f.uri_variables()?;
            let uri = f.attr.uri.get().map(syn::LitStr::value).unwrap_or_default();
            if variables.is_empty() {
                return Some(format!(
                    "`#[complete(..)]` is for the variables of a resource template; `{uri}` is a fixed URI, without variables to complete"
                ));
            }
            // A pattern that is no plain name has been reported.
            let name = param.name()?;
            let known: Vec<String> = variables.iter().map(|v| format!("`{v}`")).collect();
            Some(format!(
                "`#[complete(..)]` is for the variables of the URI, and `{name}` is not one; the variables of `{uri}` are {}",
                known.join(", ")
            ))
        }
    }
}

fn duplicate_complete(param: &Param) -> String {
    match param.name() {
        Some(name) => format!("duplicate `#[complete(..)]` on `{name}`; give one completion fn"),
        None => "duplicate `#[complete(..)]`; give one completion fn".to_owned(),
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
fn check_param_type(cx: &mut Ctxt, kind: Kind, ty: &Type) {
    let noun = kind.noun();
    if let Type::Reference(reference) = ty {
        let owned = match &*reference.elem {
            Type::Path(p) if p.path.is_ident("str") => "String".to_owned(),
            Type::Slice(slice) => format!("Vec<{}>", slice.elem.to_token_stream()),
            other => other.to_token_stream().to_string(),
        };
        cx.error_spanned_by(
            ty,
            format!("a {noun} parameter must own its value, because arguments are decoded from the request; use `{owned}`"),
        );
    } else if contains_impl_trait(ty) {
        cx.error_spanned_by(
            ty,
            format!(
                "a {noun} parameter cannot be `impl Trait`: {}",
                kind.why_param_concrete()
            ),
        );
    }
}

fn check_output(cx: &mut Ctxt, f: &CapabilityFn) {
    if let ReturnType::Type(_, ty) = &f.item.sig.output
        && contains_impl_trait(ty)
    {
        cx.error_spanned_by(
            ty,
            format!(
                "a {} fn cannot return `impl Trait`: {}; name the type",
                f.kind.noun(),
                f.kind.why_output_named()
            ),
        );
    }
}

/// Every argument the doc comment's argument section names is a parameter.
fn check_doc_arguments(cx: &mut Ctxt, f: &CapabilityFn) {
    let names: Vec<String> = f.params.iter().filter_map(Param::name).collect();
    for (arg, _) in &f.docs.arguments {
        if names.contains(arg) {
            continue;
        }
        let known: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        let span = f
            .item
            .attrs
            .iter()
            .find(|a| a.path().is_ident("doc"))
            .map_or_else(|| f.item.sig.ident.span(), Spanned::span);
        cx.error_at(
            span,
            format!(
                "the doc comment describes an argument `{arg}`, but the fn has no such parameter; its parameters are {}",
                if known.is_empty() { "none".to_owned() } else { known.join(", ") }
            ),
        );
    }
}

/// The rules of MCP Apps: a view (`#[resource(app(..))]`) has a fixed `ui://` URI, origins
/// in its CSP, known permissions, no MIME type of its own and a fn that returns text; a
/// tool's `app = ".."` is such a URI, and its `visibility` names `"model"` and `"app"`, each
/// once; `meta(...)` does not say again what these send.
fn check_app(cx: &mut Ctxt, f: &CapabilityFn) {
    let attr = &f.attr;
    let scope = f.kind.list().scope;
    no_duplicates(cx, &attr.app_link, scope);
    no_duplicates(cx, &attr.visibility, scope);
    no_duplicates(cx, &attr.app_view, scope);
    if let Some(AppLink::Uri(uri)) = attr.app_link.get()
        && let Err(error) = mcp_toolkit_core::app::check_view_uri(&uri.value())
    {
        cx.error_spanned_by(uri, format!("`app = {:?}`: {error}", uri.value()));
    }
    for words in attr.visibility.values() {
        check_visibility(cx, attr, words);
    }
    for view in attr.app_view.values() {
        check_view(cx, f, view);
    }
    for entries in attr.meta.values() {
        for entry in entries {
            let name = entry.key.name();
            let sent_by = match name.as_str() {
                "ui" if !attr.app_view.occurrences.is_empty() => "app(...)",
                "ui" if !attr.app_link.occurrences.is_empty() => "app = ..",
                "ui" if !attr.visibility.occurrences.is_empty() => "visibility = ..",
                "ui/resourceUri" if !attr.app_link.occurrences.is_empty() => "app = ..",
                _ => continue,
            };
            cx.error_spanned_by(
                &entry.key,
                format!("`{name}` in `meta(...)` is what `{sent_by}` sends; give it once, with `{sent_by}`"),
            );
        }
    }
}

/// `visibility = "app"` or `["model", "app"]`: known words, each once, at least one.
fn check_visibility(cx: &mut Ctxt, attr: &CapabilityAttr, words: &[syn::LitStr]) {
    use mcp_toolkit_core::app::AUDIENCES;
    let accepted = "`visibility` takes `\"model\"` (the host lists the tool to its model), `\"app\"` (the server's views may call it) or both, as `[\"model\", \"app\"]`";
    if words.is_empty()
        && let Some(first) = attr.visibility.occurrences.first()
    {
        cx.error_spanned_by(
            &first.key,
            format!("`visibility = []` hides the tool from everyone; {accepted}"),
        );
    }
    let mut seen: Vec<String> = Vec::new();
    for word in words {
        let value = word.value();
        if !AUDIENCES.contains(&value.as_str()) {
            cx.error_spanned_by(
                word,
                format!("unknown audience `{}`; {accepted}", value.escape_debug()),
            );
        } else if seen.contains(&value) {
            cx.error_spanned_by(
                word,
                format!("`{value}` is listed twice; give each audience once"),
            );
        } else {
            seen.push(value);
        }
    }
}

/// A view's settings, each mistake at its token: the URI, each origin, each permission,
/// the domain, and a MIME type given beside it.
fn check_view(cx: &mut Ctxt, f: &CapabilityFn, view: &AppView) {
    let scope = "app(...)";
    no_duplicates(cx, &view.csp, scope);
    no_duplicates(cx, &view.permissions, scope);
    no_duplicates(cx, &view.domain, scope);
    no_duplicates(cx, &view.prefers_border, scope);
    if let Some(uri) = f.attr.uri.get()
        && let Err(error) = mcp_toolkit_core::app::check_view_uri(&uri.value())
    {
        cx.error_spanned_by(
            uri,
            format!("`{}` cannot be a view (`app`): {error}", uri.value()),
        );
    }
    for mime in &f.attr.mime_type.occurrences {
        cx.error_spanned_by(
            &mime.key,
            format!(
                "a view is served as `{}`, which `app` sets; remove `mime_type`",
                mcp_toolkit_core::app::MIME_TYPE
            ),
        );
    }
    for directives in view.csp.values() {
        no_duplicate_keys(cx, directives.iter().map(|(key, _)| key), "csp(...)");
        for origin in directives.iter().flat_map(|(_, origins)| origins) {
            if let Err(error) = mcp_toolkit_core::app::check_origin(&origin.value()) {
                cx.error_spanned_by(origin, error);
            }
        }
    }
    for permissions in view.permissions.values() {
        no_duplicate_keys(cx, permissions, "permissions(...)");
        for permission in permissions {
            if mcp_toolkit_core::app::permission_key(&permission.name()).is_none() {
                let accepted: Vec<String> = mcp_toolkit_core::app::PERMISSIONS
                    .iter()
                    .map(|(name, _)| format!("`{name}`"))
                    .collect();
                cx.error_spanned_by(
                    permission,
                    format!(
                        "unknown permission `{}`; a view may ask for {}",
                        permission.name(),
                        accepted.join(", ")
                    ),
                );
            }
        }
    }
    for domain in view.domain.values() {
        let value = domain.value();
        if value.trim().is_empty() || value.contains(char::is_whitespace) {
            cx.error_spanned_by(
                domain,
                "`domain` is the dedicated origin a host gives the view, in the form it documents, such as `domain = \"a904794854a047f6.claudemcpcontent.com\"`; it cannot be empty or hold white space",
            );
        }
    }
    if let ReturnType::Default = f.item.sig.output {
        cx.error_spanned_by(
            &f.item.sig.ident,
            "a view's fn returns its HTML as text: `String`, `&'static str`, or a `Result` of one",
        );
    }
}
