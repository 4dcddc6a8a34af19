//! Parses the arguments of `#[tool(...)]`, `#[prompt(...)]` and `#[resource(...)]` into [`CapabilityAttr`]: what
//! was written, every occurrence of every key with its tokens, for the check phase
//! (`check.rs`) to judge.
//!
//! Parsing never stops: an unknown key or a value of the wrong form is recorded in the
//! [`Ctxt`] and parsing goes on with the next entry, so every mistake in one attribute is
//! reported together. Repeated keys are not parsing's business: they are all kept, and the
//! check phase reports them.

use crate::ctxt::Ctxt;
use crate::kind::{ALL_KEYS, Kind};
use crate::list::{Entry, Field, Key, ListKind, Value, parse_list, shorten};
use proc_macro2::TokenStream;
use syn::{Expr, ExprArray, ExprLit, Lit, LitBool, LitInt, LitStr, UnOp};

const ANNOTATION_KEYS: &[&str] = &["read_only", "destructive", "idempotent", "open_world", "title"];
const RESOURCE_ANNOTATION_KEYS: &[&str] = &["audience", "priority", "last_modified"];
const CACHE_KEYS: &[&str] = &["ttl_ms", "scope"];
const ICON_KEYS: &[&str] = &["src", "mime_type", "sizes", "theme"];
const APP_KEYS: &[&str] = &["csp", "permissions", "domain", "prefers_border"];
/// The directives of `csp(...)`, each a list of origins.
pub(crate) const CSP_KEYS: &[&str] = &[
    "connect_domains",
    "resource_domains",
    "frame_domains",
    "base_uri_domains",
];

const KEY_VALUE: &str = "`key = value`";
const ANNOTATIONS: ListKind = ListKind {
    scope: "annotations(...)",
    entry: "a hint such as `read_only` or `title = \"...\"`",
};
const RESOURCE_ANNOTATIONS: ListKind = ListKind {
    scope: "annotations(...)",
    entry: "a hint such as `audience = [\"user\"]` or `priority = 0.5`",
};
const CACHE: ListKind = ListKind {
    scope: "cache(...)",
    entry: KEY_VALUE,
};
const ICONS: ListKind = ListKind {
    scope: "icons(...)",
    entry: AN_ICON,
};
const ICON: ListKind = ListKind {
    scope: "icon(...)",
    entry: KEY_VALUE,
};
const META: ListKind = ListKind {
    scope: "meta(...)",
    entry: "`key = value` or `\"key\" = value`",
};
const APP: ListKind = ListKind {
    scope: "app(...)",
    entry: "a setting such as `csp(connect_domains = [\"https://api.example.com\"])`, `permissions(camera)`, `domain = \"...\"` or `prefers_border`",
};
const CSP: ListKind = ListKind {
    scope: "csp(...)",
    entry: "a directive such as `connect_domains = [\"https://api.example.com\"]`",
};
const PERMISSIONS: ListKind = ListKind {
    scope: "permissions(...)",
    entry: "a permission such as `camera` or `clipboard_write`",
};
const AN_ICON: &str = "an icon: a source string such as `\"https://example.com/icon.png\"` or `icon(src = \"...\", mime_type = \"...\", sizes = [\"48x48\"], theme = \"light\")`";

/// What `#[tool(...)]`, `#[prompt(...)]` or `#[resource(...)]` says. Each holds only the
/// keys of its kind: `annotations` a tool's (`annotations`) or a resource's
/// (`resource_annotations`), `uri`, `mime_type`, `size` and `cache` only a resource's.
#[derive(Default)]
pub(crate) struct CapabilityAttr {
    pub(crate) uri: Field<LitStr>,
    pub(crate) name: Field<LitStr>,
    pub(crate) title: Field<LitStr>,
    pub(crate) description: Field<LitStr>,
    pub(crate) mime_type: Field<LitStr>,
    /// `size = 1024`: a fixed resource's length in bytes.
    pub(crate) size: Field<LitInt>,
    pub(crate) annotations: Field<Annotations>,
    /// A resource's `annotations(audience = [..], priority = .., last_modified = "..")`.
    pub(crate) resource_annotations: Field<ResourceAnnotations>,
    pub(crate) icons: Field<Vec<Icon>>,
    pub(crate) meta: Field<Vec<MetaEntry>>,
    /// A resource's `cache(ttl_ms = .., scope = "..")`.
    pub(crate) cache: Field<Cache>,
    /// A tool's `scopes("notes:write", ...)`: the OAuth scopes a caller's token must hold.
    pub(crate) scopes: Field<Vec<LitStr>>,
    /// A tool's `task` or `task = "..."`: whether its calls may run as tasks.
    pub(crate) task: Field<Task>,
    /// A tool's `result_budget = 50_000`: the most bytes of text a call answers with at once.
    pub(crate) result_budget: Field<LitInt>,
    /// A tool's `group = "billing"`: the group the server may sort its tools by.
    pub(crate) group: Field<LitStr>,
    /// A tool's `search_hint = "..."`: the words a host's tool search should match.
    pub(crate) search_hint: Field<LitStr>,
    /// A tool's `always_load` (or `always_load = true`): hosts load it up front.
    pub(crate) always_load: Field<bool>,
    /// A tool's `max_result_chars = 200_000`: the most characters of a result hosts should
    /// accept, a result budget too.
    pub(crate) max_result_chars: Field<LitInt>,
    /// A tool's `app = "ui://..."` (or `app = board`, a view's fn): the view its results
    /// are shown in.
    pub(crate) app_link: Field<AppLink>,
    /// A tool's `visibility = "app"` or `visibility = ["model", "app"]`: who may see it.
    pub(crate) visibility: Field<Vec<LitStr>>,
    /// A resource's `app` or `app(...)`: it is an MCP Apps view.
    pub(crate) app_view: Field<AppView>,
}

/// A tool's `app = ..`: the view's URI, or the name of its fn.
pub(crate) enum AppLink {
    Uri(LitStr),
    Fn(syn::Path),
}

/// A resource's `app` or `app(csp(..), permissions(..), domain = "..", prefers_border)`.
pub(crate) struct AppView {
    /// Each directive of `csp(...)` written, with its origins.
    pub(crate) csp: Field<Vec<(Key, Vec<LitStr>)>>,
    /// The permissions as written (identifiers); which they are is the check phase's.
    pub(crate) permissions: Field<Vec<Key>>,
    pub(crate) domain: Field<LitStr>,
    pub(crate) prefers_border: Field<bool>,
}

/// A tool's `task` or `task = "required"`, as written; which support a string names is the
/// check phase's to judge.
pub(crate) enum Task {
    /// `task` alone: calls may run as tasks (`optional`).
    Flag,
    /// `task = "..."`: the name as written.
    Named(LitStr),
}

impl Task {
    /// The support it says; `None` for a string that names none (the check phase reports it).
    pub(crate) fn support(&self) -> Option<TaskSupport> {
        match self {
            Task::Flag => Some(TaskSupport::Optional),
            Task::Named(lit) => TaskSupport::named(&lit.value()),
        }
    }
}

/// The runtime's `TaskSupport`, by the names `task = "..."` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TaskSupport {
    Optional,
    Required,
    Forbidden,
}

impl TaskSupport {
    /// Every support with its name, in the order messages list them.
    pub(crate) const NAMED: [(&'static str, TaskSupport); 3] = [
        ("optional", TaskSupport::Optional),
        ("required", TaskSupport::Required),
        ("forbidden", TaskSupport::Forbidden),
    ];

    /// The support `name` names, if any: exactly as listed, in lowercase.
    pub(crate) fn named(name: &str) -> Option<TaskSupport> {
        TaskSupport::NAMED
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, support)| *support)
    }
}

#[derive(Default)]
pub(crate) struct Annotations {
    pub(crate) title: Field<LitStr>,
    pub(crate) read_only: Field<bool>,
    pub(crate) destructive: Field<bool>,
    pub(crate) idempotent: Field<bool>,
    pub(crate) open_world: Field<bool>,
}

/// A resource's `annotations(...)`: hints to the client about its contents.
#[derive(Default)]
pub(crate) struct ResourceAnnotations {
    /// The roles as written; which they are is the check phase's.
    pub(crate) audience: Field<Vec<LitStr>>,
    pub(crate) priority: Field<Number>,
    pub(crate) last_modified: Field<LitStr>,
}

/// A number literal, perhaps negated (`0.5`, `1`, `-0.1`): its tokens and its value.
pub(crate) struct Number {
    pub(crate) tokens: TokenStream,
    pub(crate) value: f64,
}

/// A resource's `cache(ttl_ms = 60000, scope = "private")`: the hints of its reads.
pub(crate) struct Cache {
    /// The `cache` keyword: where an empty list is reported.
    pub(crate) written: Key,
    /// Nothing was written between the parentheses (an entry that is no key is not
    /// nothing: it has been reported).
    pub(crate) empty: bool,
    pub(crate) ttl_ms: Field<LitInt>,
    pub(crate) scope: Field<LitStr>,
}

/// `"https://..."` (a source alone) or `icon(src = .., mime_type = .., sizes = .., theme = ..)`.
pub(crate) struct Icon {
    /// The string or the `icon` keyword: where a missing source is reported.
    pub(crate) written: Key,
    pub(crate) src: Field<LitStr>,
    pub(crate) mime_type: Field<LitStr>,
    pub(crate) sizes: Field<Vec<LitStr>>,
    pub(crate) theme: Field<LitStr>,
}

/// One `key = value` of `meta(...)`: the key as written (an identifier or a string) and the
/// value, any expression that serializes to JSON.
pub(crate) struct MetaEntry {
    pub(crate) key: Key,
    pub(crate) value: Option<Expr>,
}

/// Parses the arguments of a `kind`'s attribute; every problem goes into `cx`.
pub(crate) fn parse_attr(cx: &mut Ctxt, kind: Kind, args: TokenStream) -> CapabilityAttr {
    let mut attr = CapabilityAttr::default();
    for entry in parse_list(cx, args, kind.list()) {
        let key = &entry.key;
        match known(key, ALL_KEYS) {
            Some(other) if !kind.keys().contains(&other) => {
                cx.error_spanned_by(key, foreign_key_message(other, kind));
            }
            Some("uri") => attr.uri.push(key, string(cx, &entry)),
            Some("mime_type") => attr.mime_type.push(key, string(cx, &entry)),
            Some("name") => attr.name.push(key, string(cx, &entry)),
            Some("title") => attr.title.push(key, string(cx, &entry)),
            Some("description") => attr.description.push(key, string(cx, &entry)),
            Some("size") => attr
                .size
                .push(key, integer(cx, &entry, "the contents' length in bytes", "1024")),
            Some("annotations") if kind == Kind::Resource => {
                let example = "annotations(audience = [\"user\"], priority = 0.5)";
                let value = list(cx, &entry, example).map(|tokens| parse_resource_annotations(cx, tokens));
                attr.resource_annotations.push(key, value);
            }
            Some("cache") => {
                let value = list(cx, &entry, "cache(ttl_ms = 60000, scope = \"public\")")
                    .map(|tokens| parse_cache(cx, key, tokens));
                attr.cache.push(key, value);
            }
            Some("annotations") => {
                let value = list(cx, &entry, "annotations(read_only, idempotent)")
                    .map(|tokens| parse_annotations(cx, tokens));
                attr.annotations.push(key, value);
            }
            Some("icons") => {
                let value = list(cx, &entry, "icons(\"https://example.com/icon.png\")")
                    .map(|tokens| parse_icons(cx, tokens));
                attr.icons.push(key, value);
            }
            Some("meta") => {
                let value = list(cx, &entry, "meta(priority = 3)").map(|tokens| parse_meta(cx, tokens));
                attr.meta.push(key, value);
            }
            Some("scopes") => {
                let value =
                    list(cx, &entry, "scopes(\"notes:write\")").map(|tokens| parse_scopes(cx, tokens));
                attr.scopes.push(key, value);
            }
            Some("task") => attr.task.push(key, task(cx, &entry)),
            Some("result_budget") => attr.result_budget.push(
                key,
                integer(
                    cx,
                    &entry,
                    "the most bytes of text a call answers with at once",
                    "50_000",
                ),
            ),
            Some("group") => attr.group.push(key, string(cx, &entry)),
            Some("search_hint") => attr.search_hint.push(key, string(cx, &entry)),
            Some("always_load") => attr.always_load.push(key, flag(cx, &entry)),
            Some("app") if kind == Kind::Resource => {
                let view = match &entry.value {
                    Value::Flag => Some(AppView::new()),
                    Value::List(group) => Some(parse_app(cx, group.stream())),
                    Value::Eq(_) => {
                        cx.error_spanned_by(
                            entry.value_tokens(),
                            "expected `app` or a list of the view's settings, such as `app(csp(connect_domains = [\"https://api.example.com\"]), prefers_border)`",
                        );
                        None
                    }
                };
                attr.app_view.push(key, view);
            }
            Some("app") => attr.app_link.push(key, app_link(cx, &entry)),
            Some("visibility") => attr.visibility.push(key, visibility(cx, &entry)),
            Some("max_result_chars") => attr.max_result_chars.push(
                key,
                integer(
                    cx,
                    &entry,
                    "the most characters of a result hosts should accept",
                    "200_000",
                ),
            ),
            _ => {
                let mut message = unknown_key_message(key, kind.list(), kind.keys());
                if let (Key::Str(lit), Value::Flag) = (key, &entry.value) {
                    message.push_str(&format!(
                        "; to name the {}, write `name = {}`",
                        kind.noun(),
                        quote::ToTokens::to_token_stream(lit)
                    ));
                }
                cx.error_spanned_by(key, message);
            }
        }
    }
    attr
}

fn parse_annotations(cx: &mut Ctxt, tokens: TokenStream) -> Annotations {
    let mut annotations = Annotations::default();
    for entry in parse_list(cx, tokens, &ANNOTATIONS) {
        let key = &entry.key;
        match known(key, ANNOTATION_KEYS) {
            Some("title") => annotations.title.push(key, string(cx, &entry)),
            Some("read_only") => annotations.read_only.push(key, flag(cx, &entry)),
            Some("destructive") => annotations.destructive.push(key, flag(cx, &entry)),
            Some("idempotent") => annotations.idempotent.push(key, flag(cx, &entry)),
            Some("open_world") => annotations.open_world.push(key, flag(cx, &entry)),
            _ => match known(key, RESOURCE_ANNOTATION_KEYS) {
                Some(other) => cx.error_spanned_by(
                    key,
                    format!(
                        "`{other}` is a resource annotation; a tool's `annotations(...)` accepts {}",
                        listed(ANNOTATION_KEYS)
                    ),
                ),
                None => cx.error_spanned_by(key, unknown_key_message(key, &ANNOTATIONS, ANNOTATION_KEYS)),
            },
        }
    }
    annotations
}

/// A resource's `annotations(audience = ["user"], priority = 0.5, last_modified = "...")`.
fn parse_resource_annotations(cx: &mut Ctxt, tokens: TokenStream) -> ResourceAnnotations {
    let mut annotations = ResourceAnnotations::default();
    for entry in parse_list(cx, tokens, &RESOURCE_ANNOTATIONS) {
        let key = &entry.key;
        match known(key, RESOURCE_ANNOTATION_KEYS) {
            Some("audience") => annotations.audience.push(key, audience(cx, &entry)),
            Some("priority") => annotations.priority.push(key, priority(cx, &entry)),
            Some("last_modified") => annotations.last_modified.push(key, string(cx, &entry)),
            _ => match known(key, ANNOTATION_KEYS) {
                Some(other) => {
                    let mut message = format!(
                        "`{other}` is a tool annotation; a resource's `annotations(...)` accepts {}",
                        listed(RESOURCE_ANNOTATION_KEYS)
                    );
                    if other == "title" {
                        message.push_str(
                            "; to title the resource, write `title = \"...\"` in `#[resource(...)]`",
                        );
                    }
                    cx.error_spanned_by(key, message);
                }
                None => cx.error_spanned_by(
                    key,
                    unknown_key_message(key, &RESOURCE_ANNOTATIONS, RESOURCE_ANNOTATION_KEYS),
                ),
            },
        }
    }
    annotations
}

/// `cache(ttl_ms = 60000, scope = "public")`; `written` is the `cache` keyword.
fn parse_cache(cx: &mut Ctxt, written: &Key, tokens: TokenStream) -> Cache {
    let mut cache = Cache {
        written: written.clone(),
        empty: tokens.is_empty(),
        ttl_ms: Field::default(),
        scope: Field::default(),
    };
    for entry in parse_list(cx, tokens, &CACHE) {
        let key = &entry.key;
        match known(key, CACHE_KEYS) {
            Some("ttl_ms") => cache.ttl_ms.push(
                key,
                integer(
                    cx,
                    &entry,
                    "how many milliseconds a client may keep a read",
                    "60000",
                ),
            ),
            Some("scope") => cache.scope.push(key, string(cx, &entry)),
            _ => cx.error_spanned_by(key, unknown_key_message(key, &CACHE, CACHE_KEYS)),
        }
    }
    cache
}

impl AppView {
    fn new() -> AppView {
        AppView {
            csp: Field::default(),
            permissions: Field::default(),
            domain: Field::default(),
            prefers_border: Field::default(),
        }
    }
}

/// `app(csp(connect_domains = [..], ..), permissions(camera, ..), domain = "..", prefers_border)`.
fn parse_app(cx: &mut Ctxt, tokens: TokenStream) -> AppView {
    let mut view = AppView::new();
    for entry in parse_list(cx, tokens, &APP) {
        let key = &entry.key;
        match known(key, APP_KEYS) {
            Some("csp") => {
                let example = "csp(connect_domains = [\"https://api.example.com\"])";
                let value = list(cx, &entry, example).map(|tokens| parse_csp(cx, tokens));
                view.csp.push(key, value);
            }
            Some("permissions") => {
                let value = list(cx, &entry, "permissions(camera, clipboard_write)")
                    .map(|tokens| parse_permissions(cx, tokens));
                view.permissions.push(key, value);
            }
            Some("domain") => view.domain.push(key, string(cx, &entry)),
            Some("prefers_border") => view.prefers_border.push(key, flag(cx, &entry)),
            _ => cx.error_spanned_by(key, unknown_key_message(key, &APP, APP_KEYS)),
        }
    }
    view
}

/// `csp(connect_domains = ["https://.."], resource_domains = [..], ..)`: each directive with
/// its origins, kept as written for the check phase.
fn parse_csp(cx: &mut Ctxt, tokens: TokenStream) -> Vec<(Key, Vec<LitStr>)> {
    let mut directives = Vec::new();
    for entry in parse_list(cx, tokens, &CSP) {
        let key = &entry.key;
        if known(key, CSP_KEYS).is_none() {
            cx.error_spanned_by(key, unknown_key_message(key, &CSP, CSP_KEYS));
            continue;
        }
        if let Some(origins) = strings(cx, &entry, "an origin such as `\"https://api.example.com\"`") {
            directives.push((key.clone(), origins));
        }
    }
    directives
}

/// `permissions(camera, clipboard_write)`: the names as written.
fn parse_permissions(cx: &mut Ctxt, tokens: TokenStream) -> Vec<Key> {
    let mut permissions = Vec::new();
    for entry in parse_list(cx, tokens, &PERMISSIONS) {
        match (&entry.key, &entry.value) {
            (Key::Ident(_), Value::Flag) => permissions.push(entry.key.clone()),
            _ => cx.error_spanned_by(
                entry.tokens(),
                "expected a permission's name, such as `camera` or `clipboard_write`",
            ),
        }
    }
    permissions
}

/// A tool's `app = "ui://.."` or `app = view_fn`.
fn app_link(cx: &mut Ctxt, entry: &Entry) -> Option<AppLink> {
    if let Value::Eq(tokens) = &entry.value {
        if let Ok(lit) = syn::parse2::<LitStr>(tokens.clone()) {
            return Some(AppLink::Uri(lit));
        }
        if let Ok(path) = syn::parse2::<syn::Path>(tokens.clone()) {
            return Some(AppLink::Fn(path));
        }
    }
    cx.error_spanned_by(
        entry.value_tokens(),
        "expected the view's URI or the name of its fn for `app`, such as `app = \"ui://notes/board\"` or `app = board`",
    );
    None
}

/// A tool's `visibility = "app"` or `visibility = ["model", "app"]`: the words as written.
fn visibility(cx: &mut Ctxt, entry: &Entry) -> Option<Vec<LitStr>> {
    strings(cx, entry, "`\"model\"` or `\"app\"`")
}

/// `key = "x"` or `key = ["x", "y"]`: string literals, each a `what`. A bad element is
/// reported on its own and the others are kept.
fn strings(cx: &mut Ctxt, entry: &Entry, what: &str) -> Option<Vec<LitStr>> {
    let key = entry.key.name();
    let whole = format!("expected a string or an array of strings for `{key}`, each {what}");
    string_or_array(cx, entry, &format!("expected {what}"), &whole)
}

/// `key = "x"` or `key = ["x", "y"]`; `element` is said of an element that is no string,
/// `whole` of a value that is neither.
fn string_or_array(cx: &mut Ctxt, entry: &Entry, element: &str, whole: &str) -> Option<Vec<LitStr>> {
    if let Value::Eq(tokens) = &entry.value {
        if let Ok(lit) = syn::parse2::<LitStr>(tokens.clone()) {
            return Some(vec![lit]);
        }
        if let Ok(array) = syn::parse2::<ExprArray>(tokens.clone()) {
            let mut found = Vec::new();
            for elem in array.elems {
                match elem {
                    Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => found.push(s),
                    other => cx.error_spanned_by(other, element),
                }
            }
            return Some(found);
        }
    }
    cx.error_spanned_by(entry.value_tokens(), whole);
    None
}

/// `icons("https://…/a.png", icon(src = "…", mime_type = "image/svg+xml", sizes = ["any"], theme = "dark"))`
fn parse_icons(cx: &mut Ctxt, tokens: TokenStream) -> Vec<Icon> {
    let mut icons = Vec::new();
    for entry in parse_list(cx, tokens, &ICONS) {
        let icon = match (&entry.key, &entry.value) {
            (Key::Str(src), Value::Flag) => {
                let mut icon = Icon::new(&entry.key);
                icon.src.push(&entry.key, Some(src.clone()));
                icon
            }
            (Key::Ident(ident), Value::List(group)) if ident == "icon" => {
                parse_icon(cx, &entry.key, group.stream())
            }
            _ => {
                cx.error_spanned_by(entry.tokens(), format!("expected {AN_ICON}"));
                continue;
            }
        };
        icons.push(icon);
    }
    icons
}

impl Icon {
    fn new(written: &Key) -> Icon {
        Icon {
            written: written.clone(),
            src: Field::default(),
            mime_type: Field::default(),
            sizes: Field::default(),
            theme: Field::default(),
        }
    }
}

fn parse_icon(cx: &mut Ctxt, written: &Key, tokens: TokenStream) -> Icon {
    let mut icon = Icon::new(written);
    for entry in parse_list(cx, tokens, &ICON) {
        let key = &entry.key;
        match known(key, ICON_KEYS) {
            Some("src") => icon.src.push(key, string(cx, &entry)),
            Some("mime_type") => icon.mime_type.push(key, string(cx, &entry)),
            Some("theme") => icon.theme.push(key, string(cx, &entry)),
            Some("sizes") => icon.sizes.push(key, sizes(cx, &entry)),
            _ => cx.error_spanned_by(key, unknown_key_message(key, &ICON, ICON_KEYS)),
        }
    }
    icon
}

/// `meta(key = value, "com.example/key" = value)`: values are any expression that
/// serializes to JSON.
fn parse_meta(cx: &mut Ctxt, tokens: TokenStream) -> Vec<MetaEntry> {
    parse_list(cx, tokens, &META)
        .into_iter()
        .map(|entry| {
            let value = match &entry.value {
                Value::Eq(tokens) => match syn::parse2::<Expr>(tokens.clone()) {
                    Ok(expr) => Some(expr),
                    Err(_) => {
                        cx.error_spanned_by(
                            tokens,
                            format!(
                                "expected an expression for `{}` in `meta(...)`, such as `{0} = 3` or `{0} = \"text\"`",
                                entry.key.name()
                            ),
                        );
                        None
                    }
                },
                Value::Flag | Value::List(_) => {
                    cx.error_spanned_by(
                        entry.value_tokens(),
                        format!(
                            "expected a value for `{}` in `meta(...)`; write `{0} = value`, where the value serializes to JSON",
                            entry.key.name()
                        ),
                    );
                    None
                }
            };
            MetaEntry {
                key: entry.key,
                value,
            }
        })
        .collect()
}

/// `scopes("a", "b")`: string literals, each kept; anything else is reported where it is.
/// Whether each is a scope token, and given once, is the check phase's business.
fn parse_scopes(cx: &mut Ctxt, tokens: TokenStream) -> Vec<LitStr> {
    use syn::parse::Parser;
    let parsed = syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated.parse2(tokens);
    let exprs = match parsed {
        Ok(exprs) => exprs,
        Err(error) => {
            cx.error_at(error.span(), error);
            return Vec::new();
        }
    };
    let mut scopes = Vec::new();
    for expr in exprs {
        match expr {
            Expr::Lit(ExprLit {
                lit: Lit::Str(scope), ..
            }) => scopes.push(scope),
            other => cx.error_spanned_by(other, "expected a scope string such as `\"notes:write\"`"),
        }
    }
    scopes
}

/// The accepted key `key` is, if any. String keys are never accepted here.
fn known(key: &Key, accepted: &[&'static str]) -> Option<&'static str> {
    let Key::Ident(_) = key else { return None };
    let name = key.name();
    accepted.iter().copied().find(|k| *k == name)
}

/// `key = "..."`.
fn string(cx: &mut Ctxt, entry: &Entry) -> Option<LitStr> {
    if let Value::Eq(tokens) = &entry.value
        && let Ok(lit) = syn::parse2::<LitStr>(tokens.clone())
    {
        return Some(lit);
    }
    let key = entry.key.name();
    cx.error_spanned_by(
        entry.value_tokens(),
        format!("expected a string literal for `{key}`, such as `{key} = \"...\"`"),
    );
    None
}

/// `key = 1024`: an integer literal, which is `what`; `example` is a value to show.
fn integer(cx: &mut Ctxt, entry: &Entry, what: &str, example: &str) -> Option<LitInt> {
    if let Value::Eq(tokens) = &entry.value
        && let Ok(lit) = syn::parse2::<LitInt>(tokens.clone())
    {
        return Some(lit);
    }
    let key = entry.key.name();
    cx.error_spanned_by(
        entry.value_tokens(),
        format!("expected an integer literal for `{key}` ({what}), such as `{key} = {example}`"),
    );
    None
}

/// `audience = ["user", "assistant"]`: the strings of the array, a bad element reported on
/// its own and the others kept. Which roles they are is the check phase's.
fn audience(cx: &mut Ctxt, entry: &Entry) -> Option<Vec<LitStr>> {
    if let Value::Eq(tokens) = &entry.value
        && let Ok(array) = syn::parse2::<ExprArray>(tokens.clone())
    {
        let mut roles = Vec::new();
        for elem in array.elems {
            match elem {
                Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => roles.push(s),
                other => cx.error_spanned_by(other, "expected a role: `\"user\"` or `\"assistant\"`"),
            }
        }
        return Some(roles);
    }
    cx.error_spanned_by(
        entry.value_tokens(),
        "expected an array of roles for `audience`, such as `audience = [\"user\", \"assistant\"]`",
    );
    None
}

/// `priority = 0.5`: a number literal, perhaps negated; whether it is in range is the
/// check phase's.
fn priority(cx: &mut Ctxt, entry: &Entry) -> Option<Number> {
    fn number(expr: &Expr) -> Option<f64> {
        match expr {
            Expr::Lit(ExprLit { lit, .. }) => match lit {
                Lit::Float(f) => f.base10_parse().ok(),
                Lit::Int(i) => i.base10_parse().ok(),
                _ => None,
            },
            Expr::Unary(unary) if matches!(unary.op, UnOp::Neg(_)) => number(&unary.expr).map(|v| -v),
            Expr::Group(group) => number(&group.expr),
            _ => None,
        }
    }
    if let Value::Eq(tokens) = &entry.value
        && let Some(value) = syn::parse2::<Expr>(tokens.clone()).ok().as_ref().and_then(number)
    {
        return Some(Number {
            tokens: tokens.clone(),
            value,
        });
    }
    cx.error_spanned_by(
        entry.value_tokens(),
        "expected a number literal from 0 to 1 for `priority`, such as `priority = 0.5`",
    );
    None
}

/// `key`, `key = true` or `key = false`.
fn flag(cx: &mut Ctxt, entry: &Entry) -> Option<bool> {
    match &entry.value {
        Value::Flag => return Some(true),
        Value::Eq(tokens) => {
            if let Ok(lit) = syn::parse2::<LitBool>(tokens.clone()) {
                return Some(lit.value);
            }
        }
        Value::List(_) => {}
    }
    let key = entry.key.name();
    cx.error_spanned_by(
        entry.value_tokens(),
        format!("expected `{key}`, `{key} = true` or `{key} = false`"),
    );
    None
}

/// `task` or `task = "..."`; a boolean is told how it is written.
fn task(cx: &mut Ctxt, entry: &Entry) -> Option<Task> {
    let mut message =
        "expected `task`, `task = \"optional\"`, `task = \"required\"` or `task = \"forbidden\"`".to_owned();
    match &entry.value {
        Value::Flag => return Some(Task::Flag),
        Value::Eq(tokens) => {
            if let Ok(lit) = syn::parse2::<LitStr>(tokens.clone()) {
                return Some(Task::Named(lit));
            }
            if let Ok(lit) = syn::parse2::<LitBool>(tokens.clone()) {
                message.push_str(if lit.value {
                    "; `task = true` is written `task`"
                } else {
                    "; `task = false` is the default: leave `task` out, or write `task = \"forbidden\"`"
                });
            }
        }
        Value::List(_) => {}
    }
    cx.error_spanned_by(entry.value_tokens(), message);
    None
}

/// `key(...)`: the tokens inside the parentheses.
fn list(cx: &mut Ctxt, entry: &Entry, example: &str) -> Option<TokenStream> {
    if let Value::List(group) = &entry.value {
        return Some(group.stream());
    }
    let key = entry.key.name();
    cx.error_spanned_by(
        entry.value_tokens(),
        format!("expected a list for `{key}`, such as `{example}`"),
    );
    None
}

/// `sizes = "48x48"` or `sizes = ["48x48", "any"]`. A bad element is reported on its own
/// and the others are kept.
fn sizes(cx: &mut Ctxt, entry: &Entry) -> Option<Vec<LitStr>> {
    string_or_array(
        cx,
        entry,
        "expected a size string such as `\"48x48\"` or `\"any\"`",
        "expected a size string or an array of them for `sizes`, such as `sizes = [\"48x48\", \"any\"]`",
    )
}

/// A key of other kinds (a tool's `annotations`, a resource's `uri`), in a `kind`'s attribute.
fn foreign_key_message(key: &str, kind: Kind) -> String {
    let owners: Vec<&str> = Kind::owners_of(key).map(Kind::noun).collect();
    format!(
        "`{key}` is a {} key; `{}` accepts {}",
        owners.join(" and "),
        kind.list().scope,
        listed(kind.keys())
    )
}

fn listed(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An identifier that is not one of `accepted`, or a string where only identifiers go.
fn unknown_key_message(key: &Key, kind: &ListKind, accepted: &[&str]) -> String {
    match key {
        Key::Ident(_) => format!(
            "unknown key `{}`; expected one of {}",
            key.name(),
            listed(accepted)
        ),
        Key::Str(lit) => format!(
            "expected {} in `{}`, found `{}`",
            kind.entry,
            kind.scope,
            shorten(&quote::ToTokens::to_token_stream(lit).to_string())
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn parse(tokens: TokenStream) -> (CapabilityAttr, Vec<String>) {
        parse_as(Kind::Tool, tokens)
    }

    fn parse_as(kind: Kind, tokens: TokenStream) -> (CapabilityAttr, Vec<String>) {
        let mut cx = Ctxt::new();
        let attr = parse_attr(&mut cx, kind, tokens);
        let errors = match cx.check() {
            Ok(()) => Vec::new(),
            Err(errors) => errors.into_iter().map(|e| e.to_string()).collect(),
        };
        (attr, errors)
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
        assert_eq!(attr.name.get().unwrap().value(), "text_analyzer");
        let annotations = attr.annotations.get().unwrap();
        assert_eq!(annotations.read_only.get(), Some(&true));
        assert_eq!(annotations.destructive.get(), Some(&false));
        assert_eq!(annotations.idempotent.get(), None);
        let icons = attr.icons.get().unwrap();
        assert_eq!(icons.len(), 2);
        assert_eq!(icons[0].src.get().unwrap().value(), "https://x/a.png");
        assert_eq!(icons[1].sizes.get().unwrap().len(), 2);
        let keys: Vec<_> = attr.meta.get().unwrap().iter().map(|m| m.key.name()).collect();
        assert_eq!(keys, ["priority", "com.example/flag"]);
    }

    #[test]
    fn reports_every_unknown_key() {
        let (attr, errors) = parse(quote! { nmae = "x", title = "T", annotations(readonly), colour(red) });
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(errors[0].starts_with("unknown key `nmae`"));
        assert!(errors[1].starts_with("unknown key `readonly`"));
        assert!(errors[2].starts_with("unknown key `colour`"));
        assert_eq!(attr.title.get().unwrap().value(), "T");
    }

    #[test]
    fn a_string_where_a_key_goes_is_not_an_unknown_key() {
        let (_, errors) = parse(quote! { "add", "title" = "Add", annotations("x") });
        assert_eq!(
            errors,
            [
                "expected `key = value` in `#[tool(...)]`, found `\"add\"`; to name the tool, write `name = \"add\"`",
                "expected `key = value` in `#[tool(...)]`, found `\"title\"`",
                "expected a hint such as `read_only` or `title = \"...\"` in `annotations(...)`, found `\"x\"`",
            ]
        );
    }

    #[test]
    fn a_malformed_value_does_not_stop_parsing() {
        let (attr, errors) = parse(quote! {
            name = 1, title = "T" "U", description = "D",
            annotations(read_only = yes, title = 2, idempotent),
            icons(icon(src = 3, theme = "dark"), 4, "https://x/a.png"),
            meta(a, b = 1)
        });
        assert_eq!(
            errors,
            [
                "expected a string literal for `name`, such as `name = \"...\"`",
                "expected a string literal for `title`, such as `title = \"...\"`",
                "expected `read_only`, `read_only = true` or `read_only = false`",
                "expected a string literal for `title`, such as `title = \"...\"`",
                "expected an icon: a source string such as `\"https://example.com/icon.png\"` or `icon(src = \"...\", mime_type = \"...\", sizes = [\"48x48\"], theme = \"light\")` in `icons(...)`, found `4`",
                "expected a string literal for `src`, such as `src = \"...\"`",
                "expected a value for `a` in `meta(...)`; write `a = value`, where the value serializes to JSON",
            ]
        );
        // The occurrence is kept without its value; the well-formed values around it are kept.
        assert_eq!(attr.name.occurrences.len(), 1);
        assert!(attr.name.get().is_none());
        assert_eq!(attr.description.get().unwrap().value(), "D");
        let annotations = attr.annotations.get().unwrap();
        assert_eq!(annotations.idempotent.get(), Some(&true));
        assert_eq!(annotations.read_only.occurrences.len(), 1);
        let icons = attr.icons.get().unwrap();
        assert_eq!(icons.len(), 2);
        assert_eq!(icons[0].theme.get().unwrap().value(), "dark");
        assert_eq!(attr.meta.get().unwrap().len(), 2);
    }

    #[test]
    fn a_prompt_reads_its_keys_and_refuses_a_tools() {
        let (attr, errors) = parse_as(
            Kind::Prompt,
            quote! {
                name = "review", title = "Review", annotations(read_only), description = "Reviews.",
                icons("https://x/a.png"), meta(cost = 1), colour = "red", "review"
            },
        );
        assert_eq!(
            errors,
            [
                "`annotations` is a tool and resource key; `#[prompt(...)]` accepts `name`, `title`, `description`, `icons`, `meta`",
                "unknown key `colour`; expected one of `name`, `title`, `description`, `icons`, `meta`",
                "expected `key = value` in `#[prompt(...)]`, found `\"review\"`; to name the prompt, write `name = \"review\"`",
            ]
        );
        // The tool's key is not kept; the prompt's keys around it are.
        assert!(attr.annotations.occurrences.is_empty());
        assert_eq!(attr.name.get().unwrap().value(), "review");
        assert_eq!(attr.description.get().unwrap().value(), "Reviews.");
        assert_eq!(attr.icons.get().unwrap().len(), 1);
        assert_eq!(attr.meta.get().unwrap().len(), 1);
    }

    #[test]
    fn a_resource_reads_its_keys_and_refuses_the_others() {
        let (attr, errors) = parse_as(
            Kind::Resource,
            quote! {
                uri = "docs://readme", mime_type = "text/markdown", name = "readme",
                annotations(read_only), icons("https://x/a.png"), meta(cost = 1)
            },
        );
        assert_eq!(
            errors,
            [
                "`read_only` is a tool annotation; a resource's `annotations(...)` accepts `audience`, `priority`, `last_modified`",
            ]
        );
        assert!(attr.annotations.occurrences.is_empty());
        assert_eq!(attr.resource_annotations.occurrences.len(), 1);
        assert_eq!(attr.uri.get().unwrap().value(), "docs://readme");
        assert_eq!(attr.mime_type.get().unwrap().value(), "text/markdown");
        assert_eq!(attr.icons.get().unwrap().len(), 1);

        let (attr, errors) = parse_as(
            Kind::Tool,
            quote! { uri = "docs://readme", mime_type = "text/plain" },
        );
        assert_eq!(
            errors,
            [
                "`uri` is a resource key; `#[tool(...)]` accepts `name`, `title`, `description`, `annotations`, `icons`, `meta`, `scopes`, `task`, `result_budget`, `group`, `search_hint`, `always_load`, `max_result_chars`, `app`, `visibility`",
                "`mime_type` is a resource key; `#[tool(...)]` accepts `name`, `title`, `description`, `annotations`, `icons`, `meta`, `scopes`, `task`, `result_budget`, `group`, `search_hint`, `always_load`, `max_result_chars`, `app`, `visibility`",
            ]
        );
        assert!(attr.uri.occurrences.is_empty());
    }

    #[test]
    fn a_resource_reads_its_size_annotations_and_cache() {
        let (attr, errors) = parse_as(
            Kind::Resource,
            quote! {
                uri = "docs://readme", size = 1_024,
                annotations(audience = ["user", "model"], priority = 1, last_modified = "2025-01-12T15:00:58Z"),
                cache(ttl_ms = 60000, scope = "private")
            },
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(attr.size.get().unwrap().base10_digits(), "1024");
        let annotations = attr.resource_annotations.get().unwrap();
        let audience: Vec<String> = annotations
            .audience
            .get()
            .unwrap()
            .iter()
            .map(LitStr::value)
            .collect();
        assert_eq!(audience, ["user", "model"], "the roles are the check phase's");
        assert_eq!(annotations.priority.get().unwrap().value, 1.0);
        assert_eq!(
            annotations.last_modified.get().unwrap().value(),
            "2025-01-12T15:00:58Z"
        );
        let cache = attr.cache.get().unwrap();
        assert_eq!(cache.ttl_ms.get().unwrap().base10_digits(), "60000");
        assert_eq!(cache.scope.get().unwrap().value(), "private");
        let (attr, errors) = parse_as(Kind::Resource, quote! { annotations(priority = -0.5) });
        assert!(errors.is_empty(), "{errors:?}");
        let annotations = attr.resource_annotations.get().unwrap();
        assert_eq!(annotations.priority.get().unwrap().value, -0.5);
    }

    #[test]
    fn malformed_resource_values_are_each_reported() {
        let (attr, errors) = parse_as(
            Kind::Resource,
            quote! {
                size = "12", size = 1.5,
                annotations(audience = "user", audience = [user, "assistant"], priority = "high", colour = 1, title = "T"),
                cache(ttl = 1, ttl_ms = "1", scope = private), cache = 3
            },
        );
        assert_eq!(
            errors,
            [
                "expected an integer literal for `size` (the contents' length in bytes), such as `size = 1024`",
                "expected an integer literal for `size` (the contents' length in bytes), such as `size = 1024`",
                "expected an array of roles for `audience`, such as `audience = [\"user\", \"assistant\"]`",
                "expected a role: `\"user\"` or `\"assistant\"`",
                "expected a number literal from 0 to 1 for `priority`, such as `priority = 0.5`",
                "unknown key `colour`; expected one of `audience`, `priority`, `last_modified`",
                "`title` is a tool annotation; a resource's `annotations(...)` accepts `audience`, `priority`, `last_modified`; to title the resource, write `title = \"...\"` in `#[resource(...)]`",
                "unknown key `ttl`; expected one of `ttl_ms`, `scope`",
                "expected an integer literal for `ttl_ms` (how many milliseconds a client may keep a read), such as `ttl_ms = 60000`",
                "expected a string literal for `scope`, such as `scope = \"...\"`",
                "expected a list for `cache`, such as `cache(ttl_ms = 60000, scope = \"public\")`",
            ]
        );
        // The well-formed element of the audience is kept.
        let annotations = attr.resource_annotations.get().unwrap();
        assert_eq!(annotations.audience.get().unwrap().len(), 1);
        assert_eq!(attr.cache.occurrences.len(), 2);
    }

    #[test]
    fn a_tool_refuses_a_resources_keys_and_annotations() {
        let (_, errors) = parse(quote! {
            size = 3, cache(ttl_ms = 1), annotations(read_only, audience = ["user"])
        });
        assert_eq!(
            errors,
            [
                "`size` is a resource key; `#[tool(...)]` accepts `name`, `title`, `description`, `annotations`, `icons`, `meta`, `scopes`, `task`, `result_budget`, `group`, `search_hint`, `always_load`, `max_result_chars`, `app`, `visibility`",
                "`cache` is a resource key; `#[tool(...)]` accepts `name`, `title`, `description`, `annotations`, `icons`, `meta`, `scopes`, `task`, `result_budget`, `group`, `search_hint`, `always_load`, `max_result_chars`, `app`, `visibility`",
                "`audience` is a resource annotation; a tool's `annotations(...)` accepts `read_only`, `destructive`, `idempotent`, `open_world`, `title`",
            ]
        );
        let (_, errors) = parse_as(Kind::Prompt, quote! { annotations(priority = 1), size = 1 });
        assert_eq!(
            errors,
            [
                "`annotations` is a tool and resource key; `#[prompt(...)]` accepts `name`, `title`, `description`, `icons`, `meta`",
                "`size` is a resource key; `#[prompt(...)]` accepts `name`, `title`, `description`, `icons`, `meta`",
            ]
        );
    }

    #[test]
    fn a_tool_reads_task_in_every_form() {
        for (args, support) in [
            (quote! { task }, Some(TaskSupport::Optional)),
            (quote! { task = "optional" }, Some(TaskSupport::Optional)),
            (quote! { task = "required" }, Some(TaskSupport::Required)),
            (quote! { task = "forbidden" }, Some(TaskSupport::Forbidden)),
            // A string that names no support is kept: it is the check phase's to report.
            (quote! { task = "always" }, None),
        ] {
            let (attr, errors) = parse(args.clone());
            assert!(errors.is_empty(), "{args}: {errors:?}");
            assert_eq!(attr.task.occurrences.len(), 1, "{args}");
            assert_eq!(attr.task.get().unwrap().support(), support, "{args}");
        }
        let (attr, _) = parse(quote! { name = "a" });
        assert!(attr.task.occurrences.is_empty());
    }

    #[test]
    fn a_task_that_is_no_flag_or_string_is_reported_at_its_value() {
        let (attr, errors) = parse(quote! {
            task = true, task = false, task(required), task = required, task = 1
        });
        let forms = "expected `task`, `task = \"optional\"`, `task = \"required\"` or `task = \"forbidden\"`";
        assert_eq!(
            errors,
            [
                format!("{forms}; `task = true` is written `task`"),
                format!(
                    "{forms}; `task = false` is the default: leave `task` out, or write `task = \"forbidden\"`"
                ),
                forms.to_owned(),
                forms.to_owned(),
                forms.to_owned(),
            ]
        );
        // Each occurrence is kept without its value, for the duplicate check.
        assert_eq!(attr.task.occurrences.len(), 5);
        assert!(attr.task.get().is_none());
    }

    #[test]
    fn task_is_a_tools_key_alone() {
        for kind in [Kind::Prompt, Kind::Resource] {
            let (attr, errors) = parse_as(kind, quote! { task, task = "required" });
            let accepted = listed(kind.keys());
            let message = format!("`task` is a tool key; `{}` accepts {accepted}", kind.list().scope);
            assert_eq!(errors, [message.clone(), message], "{kind:?}");
            assert!(!accepted.contains("task"), "{accepted}");
            assert!(attr.task.occurrences.is_empty());
        }
    }

    #[test]
    fn a_tool_reads_its_hints_for_hosts() {
        let (attr, errors) = parse(quote! {
            group = "billing", search_hint = "refund money back", always_load, max_result_chars = 200_000
        });
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(attr.group.get().unwrap().value(), "billing");
        assert_eq!(attr.search_hint.get().unwrap().value(), "refund money back");
        assert_eq!(attr.always_load.get(), Some(&true));
        assert_eq!(attr.max_result_chars.get().unwrap().base10_digits(), "200000");
        let (attr, errors) = parse(quote! { always_load = false });
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(attr.always_load.get(), Some(&false));
    }

    #[test]
    fn a_hint_of_the_wrong_form_is_reported_at_its_value() {
        let (attr, errors) = parse(quote! {
            group = billing, search_hint(refund), always_load = "yes", max_result_chars = "200k", max_result_chars
        });
        assert_eq!(
            errors,
            [
                "expected a string literal for `group`, such as `group = \"...\"`",
                "expected a string literal for `search_hint`, such as `search_hint = \"...\"`",
                "expected `always_load`, `always_load = true` or `always_load = false`",
                "expected an integer literal for `max_result_chars` (the most characters of a result hosts should accept), such as `max_result_chars = 200_000`",
                "expected an integer literal for `max_result_chars` (the most characters of a result hosts should accept), such as `max_result_chars = 200_000`",
            ]
        );
        // Each occurrence is kept without its value, for the duplicate check.
        assert_eq!(attr.max_result_chars.occurrences.len(), 2);
        assert!(attr.group.get().is_none());
    }

    #[test]
    fn the_hints_for_hosts_are_a_tools_keys_alone() {
        for kind in [Kind::Prompt, Kind::Resource, Kind::Method] {
            let (attr, errors) = parse_as(
                kind,
                quote! { group = "billing", search_hint = "x", always_load, max_result_chars = 10 },
            );
            let accepted = listed(kind.keys());
            let expected: Vec<String> = ["group", "search_hint", "always_load", "max_result_chars"]
                .iter()
                .map(|key| {
                    format!(
                        "`{key}` is a tool key; `{}` accepts {accepted}",
                        kind.list().scope
                    )
                })
                .collect();
            assert_eq!(errors, expected, "{kind:?}");
            assert!(attr.group.occurrences.is_empty() && attr.always_load.occurrences.is_empty());
        }
    }

    #[test]
    fn keeps_every_occurrence_of_a_repeated_key() {
        let (attr, errors) = parse(quote! {
            name = "a", name = "b", annotations(title = "x", title = "y"), annotations(read_only),
            meta(k = 1, "k" = 2)
        });
        assert!(errors.is_empty(), "duplicates are the check phase's: {errors:?}");
        let names: Vec<_> = attr.name.values().map(LitStr::value).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(attr.annotations.occurrences.len(), 2);
        assert_eq!(attr.annotations.get().unwrap().title.occurrences.len(), 2);
        assert_eq!(attr.meta.get().unwrap().len(), 2);
    }
}
