//! Turns a [`CapabilityFn`] into tokens, with or without mistakes, through one [`Skeleton`].
//!
//! The user's fn is emitted as written (minus the parameter attributes the macro consumed),
//! so it stays callable from their own tests. Beside it, in the type namespace, a braced
//! struct with the fn's name implements `ToolFn` (or `PromptFn`), which `tools![...]` (or
//! `prompts![...]`) uses; for a `&self` method, a hidden associated fn builds the tool from
//! an `Arc` of the instance. A tool and a prompt expand alike: only the runtime items they
//! name differ ([`Kind`]), and what only a tool has (annotations, output, forms). The body
//! that builds the tool starts with one spanned type check per parameter and one for the
//! return type; then comes the real builder, or a stub when the macro found mistakes. Only
//! that tail differs between the two outputs, so the error output cannot drift from the
//! normal one, and one mistake does not cascade into errors about missing items.
//!
//! All generated code names things through `::mcp_toolkit::__private`, never the user's
//! imports.

use crate::attr::{AppLink, Task, TaskSupport};
use crate::kind::Kind;
use crate::model::{CapabilityFn, Param};
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, ItemFn, LitStr};

/// What every capability macro (`#[tool]`, `#[prompt]`) emits: the user's fn, and the
/// item that builds the capability from it.
pub(crate) struct Skeleton<'a> {
    /// The user's fn, emitted as it is.
    pub(crate) item: &'a ItemFn,
    /// Names the trait the hidden struct of a free fn implements, its constructor and what
    /// that returns (`ToolFn::tool() -> Tool`), and the hidden builder of a method
    /// (`__mcp_tool_<fn>`).
    pub(crate) kind: Kind,
    /// The trait's items other than the constructor (`const NAME: &'static str = "add";`).
    pub(crate) consts: TokenStream,
    /// The statements both outputs start the constructor with: the spanned type checks.
    pub(crate) checks: TokenStream,
    /// The rest of the constructor.
    pub(crate) body: Body,
}

pub(crate) enum Body {
    /// The real constructor.
    Build(TokenStream),
    /// A stand-in, when the macro has reported mistakes and the crate will not compile; the
    /// expression has the constructor's type and never runs.
    Stub(TokenStream),
}

/// The one shape of the output, with or without mistakes.
pub(crate) fn skeleton(s: Skeleton<'_>) -> TokenStream {
    let Skeleton {
        item,
        kind,
        consts,
        checks,
        body,
    } = s;
    let body = match body {
        Body::Build(tokens) | Body::Stub(tokens) => tokens,
    };
    let (trait_path, product) = (kind.trait_path(), kind.product());
    let constructor = format_ident!("{}", kind.noun());
    let vis = &item.vis;
    let ident = &item.sig.ident;
    if item.sig.receiver().is_some() {
        // A method: only associated items may sit beside it in its impl block.
        let builder = method_builder(kind, ident);
        let built = if kind == Kind::Tool {
            // Marked as built, for `tools![instance => ..]` (see `method_tools`).
            quote! {
                -> ::mcp_toolkit::__private::MethodTool<::mcp_toolkit::__private::Built> {
                    ::mcp_toolkit::__private::MethodTool::built({
                        #checks
                        #body
                    })
                }
            }
        } else {
            quote! {
                -> #product {
                    #checks
                    #body
                }
            }
        };
        quote! {
            #item

            #[doc(hidden)]
            #[allow(non_snake_case)]
            #vis fn #builder(self: &::std::sync::Arc<Self>) #built
        }
    } else {
        quote! {
            #item

            #[allow(non_camel_case_types, dead_code)]
            #[doc(hidden)]
            #vis struct #ident {}

            impl #trait_path for #ident {
                #consts

                fn #constructor() -> #product {
                    #checks
                    #body
                }
            }
        }
    }
}

/// The expansion of a tool or a prompt. With `valid`, the constructor builds it; without,
/// the macro has reported mistakes and the constructor is a stub after the same type checks.
pub(crate) fn expand(f: &CapabilityFn, valid: bool) -> TokenStream {
    let consts = match f.kind {
        Kind::Resource => {
            let uri = f.attr.uri.get().map(LitStr::value).unwrap_or_default();
            quote!(const URI: &'static str = #uri;)
        }
        Kind::Tool | Kind::Prompt | Kind::Method => {
            let name = f.name();
            quote!(const NAME: &'static str = #name;)
        }
    };
    let (checks, checked) = type_checks(f);
    let body = if valid {
        Body::Build(build(f))
    } else {
        Body::Stub(quote! {
            let _ = (#( #checked, )*);
            ::mcp_toolkit::__private::unreachable_stub()
        })
    };
    let mut expanded = skeleton(Skeleton {
        item: &f.item,
        kind: f.kind,
        consts,
        checks,
        body,
    });
    expanded.extend(view_fn(f));
    expanded
}

/// A view's fn (`#[resource(uri = "ui://..", app)]`, not a method) is a `ViewFn`, so a tool
/// can name it (`#[tool(app = board)]`) and be checked at compile time.
fn view_fn(f: &CapabilityFn) -> Option<TokenStream> {
    if f.kind != Kind::Resource || f.attr.app_view.occurrences.is_empty() || f.item.sig.receiver().is_some() {
        return None;
    }
    let ident = &f.item.sig.ident;
    let uri = f.attr.uri.get()?;
    Some(quote! {
        impl ::mcp_toolkit::app::ViewFn for #ident {
            const URI: &'static str = #uri;
        }
    })
}

/// `instance => a, b` to `vec![.., ..]` of the tools `instance.__mcp_tool_a()` and
/// `instance.__mcp_tool_b()` build, each spanned at the method's name. A method without
/// `#[tool]` has no such builder: a trait of the call's own gives every type one, which
/// yields nothing marked with a struct named as the method, and `ToolFn::method_tool`,
/// which takes what a `#[tool]` method yields, says at the name that it is not a tool.
pub(crate) fn method_tools(input: TokenStream) -> TokenStream {
    let parsed = syn::parse::Parser::parse2(
        |stream: syn::parse::ParseStream<'_>| {
            let instance: syn::Ident = stream.parse()?;
            stream.parse::<syn::Token![=>]>()?;
            let methods =
                syn::punctuated::Punctuated::<syn::Ident, syn::Token![,]>::parse_terminated(stream)?;
            Ok((instance, methods))
        },
        input,
    );
    match parsed {
        Ok((instance, methods)) => {
            let calls = methods.iter().map(|method| {
                let builder = method_builder(Kind::Tool, method);
                let builder = syn::Ident::new(&builder.to_string(), method.span());
                // The mark is braced, so that it is only a type, and shadows no value.
                quote_spanned! {method.span()=>
                    {
                        #[allow(non_camel_case_types, dead_code)]
                        struct #method {}
                        #[allow(dead_code)]
                        trait Unmarked {
                            fn #builder(&self) -> ::mcp_toolkit::__private::MethodTool<#method> {
                                ::mcp_toolkit::__private::MethodTool::unmarked()
                            }
                        }
                        impl<T: ?::core::marker::Sized> Unmarked for T {}
                        let built = #instance.#builder();
                        ::mcp_toolkit::tool::ToolFn::method_tool(built)
                    }
                }
            });
            quote! { ::std::vec![#(#calls),*] }
        }
        Err(error) => error.to_compile_error(),
    }
}

/// The hidden associated fn that builds a method's capability: `__mcp_tool_<method>`.
pub(crate) fn method_builder(kind: Kind, ident: &Ident) -> Ident {
    let name = ident.to_string();
    format_ident!(
        "__mcp_{}_{}",
        kind.noun(),
        name.strip_prefix("r#").unwrap_or(&name)
    )
}

/// The variable holding parameter `index`'s checked description.
fn param_var(index: usize) -> Ident {
    format_ident!("__mcp_param_{}", index)
}

/// One check per parameter, at its type: what it is (injected, optional or required
/// argument) and, through the probe's bound, that it can be one at all (`FromArgument`'s
/// message otherwise); its `#[default(..)]`, at the value. Then the return type's
/// conversion, at the return type. Types that cannot be named outside the fn are left out:
/// they are mistakes the check phase has reported. Returns the checks and the variables
/// they bind (`__mcp_param_<index>`, `__mcp_ret`), which the real constructor reads.
fn type_checks(f: &CapabilityFn) -> (TokenStream, Vec<Ident>) {
    let mut checks = quote! {
        #[allow(unused_imports)]
        use ::mcp_toolkit::__private::{
            DefaultShown as _, DefaultUnshown as _, FormAsked as _, FormUnasked as _, InjectedProbe as _,
            OptionalProbe as _, RequiredProbe as _,
        };
    };
    let mut bound = Vec::new();
    for (index, p) in f.params.iter().enumerate() {
        if f.param_stands_alone(p) {
            let var = param_var(index);
            let param = param_expr(p);
            checks.extend(quote! { let #var = #param; });
            bound.push(var);
        }
    }
    checks.extend(completion_checks(f, &mut bound));
    checks.extend(header_checks(f));
    checks.extend(injected_checks(f));
    checks.extend(view_text_check(f));
    if f.output_stands_alone() {
        let var = format_ident!("__mcp_ret");
        let ret = ret_expr(f);
        checks.extend(quote! { let #var = #ret; });
        bound.push(var);
    }
    (checks, bound)
}

/// A view's fn returns text (its HTML): `ViewText`, spanned at the return type, says so
/// there. A return type with `impl Trait` cannot be named, and is left to the runtime.
fn view_text_check(f: &CapabilityFn) -> Option<TokenStream> {
    if f.kind != Kind::Resource || f.attr.app_view.occurrences.is_empty() {
        return None;
    }
    let syn::ReturnType::Type(_, ty) = &f.item.sig.output else {
        return None;
    };
    if crate::model::contains_impl_trait(ty) {
        return None;
    }
    Some(quote_spanned! {ty.span()=>
        let () = <#ty as ::mcp_toolkit::app::ViewText>::IS;
    })
}

/// The variable holding parameter `index`'s completion fn.
fn complete_var(index: usize) -> Ident {
    format_ident!("__mcp_complete_{}", index)
}

/// The checks of the `#[complete(..)]`s of a prompt's parameters and a resource
/// template's variables (elsewhere they are refused, and not checked further). Each path
/// goes through `Complete::erase`, spanned at the path, so a fn that is not a completion fn
/// fails `Complete` there, with its message; the variable (`__mcp_complete_<index>`) goes
/// into `bound`. A parameter whose type the framework injects (`FromContext`) fails
/// `Completable` at its attribute: the parameter's probe says, by the type alone, which type
/// must be completable (the injected type itself; for an argument, one that is).
fn completion_checks(f: &CapabilityFn, bound: &mut Vec<Ident>) -> TokenStream {
    let mut checks = TokenStream::new();
    for (index, p) in f.params.iter().enumerate() {
        let Some((attr, path)) = p.completer().filter(|_| f.may_complete(p)) else {
            continue;
        };
        if f.param_stands_alone(p) {
            let ty = &p.ty;
            checks.extend(quote_spanned! {attr.path().span()=>
                ::mcp_toolkit::completion::Completable::check(
                    (&&&::mcp_toolkit::__private::Slot::<#ty>::new()).__mcp_plan()
                );
            });
        }
        let var = complete_var(index);
        checks.extend(quote_spanned! {path.span()=>
            let #var = ::mcp_toolkit::completion::Complete::erase(#path);
        });
        bound.push(var);
    }
    checks
}

/// The checks that each tool parameter marked `#[header("...")]` has a type a header
/// carries: `HeaderArgument`, spanned at the type (the whole type underlined), whose
/// message says which types those are.
fn header_checks(f: &CapabilityFn) -> TokenStream {
    let mut checks = TokenStream::new();
    if f.kind != Kind::Tool {
        return checks;
    }
    for p in &f.params {
        if p.header().is_none() || !f.param_stands_alone(p) {
            continue;
        }
        let ty = &p.ty;
        let (first, last) = ends(ty.to_token_stream(), ty.span());
        let open = quote_spanned! {first=> < };
        let close = quote_spanned! {last=> as ::mcp_toolkit::tool::HeaderArgument>::IS };
        checks.extend(quote_spanned! {first=>
            let () = #open #ty #close;
        });
    }
    checks
}

/// The checks that a resource's parameters which are not variables of its URI are injected
/// (`Context`, `State<T>`, any `FromContext` type): the type, at the parameter's name, must
/// be `Injected`, whose message says what the parameter may be; text and numbers, which
/// never are, the check phase has reported with the URI and the name. None when the URI is
/// missing or malformed: the check phase has reported it, and there are no variables to
/// compare with.
fn injected_checks(f: &CapabilityFn) -> TokenStream {
    if f.kind != Kind::Resource {
        return TokenStream::new();
    }
    let Some(uri) = f.resource_uri() else {
        return TokenStream::new();
    };
    let Ok(template) = &uri.parsed else {
        return TokenStream::new();
    };
    let mut checks = TokenStream::new();
    for p in &f.params {
        let (Some(ident), Some(name)) = (p.ident(), p.name()) else {
            continue;
        };
        // Text and numbers are never injected: the check phase has said so.
        if !f.param_stands_alone(p)
            || crate::uri::is_plain_data(&p.ty)
            || template.variables().any(|var| var.name == name)
        {
            continue;
        }
        let ty = respanned(p.ty.to_token_stream(), ident.span());
        checks.extend(quote_spanned! {ident.span()=>
            let () = <#ty as ::mcp_toolkit::resource::Injected>::IS;
        });
    }
    checks
}

/// The expression that tells, by the parameter's type alone, whether it is injected
/// (`Context`, `State<T>`, anything `FromContext`), an optional argument (`Option<T>`) or a
/// required one, with its default. It is spanned at the type, so a type that is none of
/// these is reported there. The handler repeats the same tokens; rustc reports the same
/// error at the same place once.
fn param_expr(p: &Param) -> TokenStream {
    let ty = &p.ty;
    let default = p.default().map(|expr| {
        // `#[default(Vec::new())]` is what users write; the closure around it is ours. The
        // default shows in the schema when its type serializes.
        quote_spanned! {expr.span()=> .with_default(
            {
                #[allow(clippy::redundant_closure)]
                let default = || #expr;
                default
            },
            (&&::mcp_toolkit::__private::Slot::<#ty>::new()).__mcp_show_default(),
        ) }
    });
    // The probe opens at the type's first token and closes at its last, so that the
    // compiler underlines the whole type, which a span of its own cannot cover on stable.
    let (first, last) = ends(ty.to_token_stream(), ty.span());
    let receiver = quote_spanned! {first=> (&&&::mcp_toolkit::__private::Slot::<#ty>::new()) };
    let plan = quote_spanned! {last=> .__mcp_plan() };
    quote_spanned! {first=>
        ::mcp_toolkit::tool::FromArgument::parameter(#receiver #plan) #default
    }
}

/// The spans of the first and the last token of `tokens` (`fallback` when there are none).
fn ends(tokens: TokenStream, fallback: Span) -> (Span, Span) {
    let mut tokens = tokens.into_iter();
    let first = tokens.next().map_or(fallback, |token| token.span());
    let last = tokens.last().map_or(first, |token| token.span());
    (first, last)
}

/// The conversion of the return type, spanned at it.
fn ret_expr(f: &CapabilityFn) -> TokenStream {
    let output = f.output_type().to_token_stream();
    respanned(f.kind.ret(&output), f.output_span())
}

/// A path of the runtime with every token at `span`, for a call whose errors belong there.
fn respanned(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            token.set_span(span);
            token
        })
        .collect()
}

/// The real constructor: the definition, then `.build(handler)`. Reads the checks'
/// variables.
fn build(f: &CapabilityFn) -> TokenStream {
    let name = f.name();
    let description = f.description().unwrap_or_default();
    let title = f.title();
    let icons = f.attr.icons.get().into_iter().flatten().filter_map(|icon| {
        let src = icon.src.get()?;
        let mime = icon.mime_type.get().into_iter();
        let sizes = icon.sizes.get().into_iter().flatten();
        // Checked already: `"light"` or `"dark"`.
        let theme = icon
            .theme
            .get()
            .into_iter()
            .map(|theme| match theme.value().as_str() {
                "dark" => quote!(::mcp_toolkit::tool::IconTheme::Dark),
                _ => quote!(::mcp_toolkit::tool::IconTheme::Light),
            });
        Some(quote! {
            .icon(::mcp_toolkit::tool::Icon::new(#src)
                #( .with_mime_type(#mime) )*
                #( .with_size(#sizes) )*
                #( .with_theme(#theme) )*)
        })
    });
    let meta = f.attr.meta.get().into_iter().flatten().filter_map(|entry| {
        let key = entry.key.name();
        let value = entry.value.as_ref()?;
        Some(quote_spanned! {value.span()=> .meta(#key, &#value) })
    });
    let params = f.params.iter().enumerate().map(|(index, p)| {
        let arg_name = p.name().unwrap_or_default();
        let description = match f.param_description(p) {
            Some(d) => quote!(::core::option::Option::Some(#d)),
            None => quote!(::core::option::Option::None),
        };
        let var = param_var(index);
        let complete = (p.completer().is_some() && f.may_complete(p)).then(|| {
            let complete = complete_var(index);
            quote! { .complete(#arg_name, #complete) }
        });
        let header = p
            .header()
            .filter(|_| f.kind == Kind::Tool)
            .map(|name| quote! { .header(#name) });
        quote! { .param(#arg_name, #description, #var) #header #complete }
    });
    if f.kind == Kind::Method {
        // No definition to list: the name, whether it handles a notification, its params.
        let notification = is_unit(&f.item.sig.output).then(|| quote!(.notification()));
        let handler = handler(f);
        return quote! {
            ::mcp_toolkit::__private::MethodBuilder::new(#name)
                #notification
                #( #params )*
                #handler
        };
    }
    let (new, only_tools) = match f.kind {
        Kind::Tool => (
            quote!(::mcp_toolkit::__private::ToolBuilder::new(#name, #description)),
            tool_only(f),
        ),
        Kind::Prompt => (
            quote!(::mcp_toolkit::__private::PromptBuilder::new(#name, ::core::option::Option::Some(#description))),
            TokenStream::new(),
        ),
        Kind::Method => unreachable!("built above"),
        Kind::Resource => {
            let uri = f.attr.uri.get().map(LitStr::value).unwrap_or_default();
            let mime_type = f.attr.mime_type.get().into_iter();
            let hints = resource_hints(f);
            let app = resource_app(f);
            (
                quote! {
                    ::mcp_toolkit::__private::ResourceBuilder::new(#uri, #name, ::core::option::Option::Some(#description))
                        #( .mime_type(#mime_type) )*
                        #hints
                        #app
                },
                TokenStream::new(),
            )
        }
    };
    let handler = handler(f);
    quote! {
        #new
            .title(#title)
            #( #icons )*
            #( #meta )*
            #( #params )*
            #only_tools
            #handler
    }
}

/// Whether a fn returns `()`: nothing written, or `()` itself.
fn is_unit(output: &syn::ReturnType) -> bool {
    match output {
        syn::ReturnType::Default => true,
        syn::ReturnType::Type(_, ty) => matches!(&**ty, syn::Type::Tuple(tuple) if tuple.elems.is_empty()),
    }
}

/// What only a tool's definition has: annotations, the forms its body asks for, its scopes,
/// task support, result budget and hints for hosts, and the output (schema) of its return
/// type.
fn tool_only(tool: &CapabilityFn) -> TokenStream {
    let annotations = annotations(tool);
    let forms = crate::asks::forms_asked(tool.item.block.to_token_stream())
        .into_iter()
        .map(|ty| {
            quote_spanned! {ty.span()=>
                .asks_form::<#ty>((&&::mcp_toolkit::__private::Slot::<#ty>::new()).__mcp_form())
            }
        });
    let scopes = tool.attr.scopes.get().into_iter().flatten();
    // Checked already: a support the runtime has.
    let task = tool.attr.task.get().and_then(Task::support).map(|support| {
        let variant = match support {
            TaskSupport::Optional => quote!(Optional),
            TaskSupport::Required => quote!(Required),
            TaskSupport::Forbidden => quote!(Forbidden),
        };
        quote!(.task(::mcp_toolkit::tool::TaskSupport::#variant))
    });
    // Checked already: a `usize` of at least the least budget.
    let budget = tool
        .attr
        .result_budget
        .get()
        .map(|bytes| quote!(.result_budget(#bytes)));
    let hints = host_hints(tool);
    let app = tool_app(tool);
    quote! {
        #annotations
        #( #forms )*
        #( .scope(#scopes) )*
        #task
        #budget
        #hints
        #app
        .output(__mcp_ret)
    }
}

/// A tool's link to a view and who may see it, checked already. A view named by its fn
/// (`app = board`) is read from the fn's `ViewFn`, spanned at the name: naming anything but
/// a view fails there.
fn tool_app(tool: &CapabilityFn) -> TokenStream {
    let link = tool.attr.app_link.get().map(|link| match link {
        AppLink::Uri(uri) => quote!(.app(#uri)),
        AppLink::Fn(path) => quote_spanned! {path.span()=>
            .app(<#path as ::mcp_toolkit::app::ViewFn>::URI)
        },
    });
    let visibility = tool.attr.visibility.get().map(|words| {
        let audiences = words.iter().map(|word| match word.value().as_str() {
            "model" => quote!(::mcp_toolkit::app::Audience::Model),
            _ => quote!(::mcp_toolkit::app::Audience::App),
        });
        quote!(.app_visibility(&[#(#audiences),*]))
    });
    quote! { #link #visibility }
}

/// A resource's view settings as the `View` `ResourceBuilder::app` takes, checked already.
fn resource_app(resource: &CapabilityFn) -> Option<TokenStream> {
    let view = resource.attr.app_view.get()?;
    let directives = view.csp.get().into_iter().flatten().map(|(key, origins)| {
        let setter = format_ident!("{}", key.name());
        quote!(.#setter([#(#origins),*]))
    });
    let permissions = view.permissions.get().into_iter().flatten().map(|permission| {
        let variant = match permission.name().as_str() {
            "camera" => quote!(Camera),
            "microphone" => quote!(Microphone),
            "geolocation" => quote!(Geolocation),
            _ => quote!(ClipboardWrite),
        };
        quote!(.permission(::mcp_toolkit::app::Permission::#variant))
    });
    let domain = view.domain.get().map(|domain| quote!(.domain(#domain)));
    let border = view
        .prefers_border
        .get()
        .map(|border| quote!(.prefers_border(#border)));
    Some(quote! {
        .app(
            ::mcp_toolkit::app::View::new()
                #( #directives )*
                #( #permissions )*
                #domain
                #border
        )
    })
}

/// The hints for hosts, checked already: a group by the rule, a hint not blank, a number
/// of characters hosts accept. `always_load = false` says nothing.
fn host_hints(tool: &CapabilityFn) -> TokenStream {
    let attr = &tool.attr;
    let group = attr.group.get().map(|group| quote!(.group(#group)));
    let search_hint = attr.search_hint.get().map(|hint| quote!(.search_hint(#hint)));
    let always_load = (attr.always_load.get() == Some(&true)).then(|| quote!(.always_load()));
    let max_result_chars = attr
        .max_result_chars
        .get()
        .map(|chars| quote!(.max_result_chars(#chars)));
    quote! { #group #search_hint #always_load #max_result_chars }
}

fn annotations(tool: &CapabilityFn) -> Option<TokenStream> {
    let a = tool.attr.annotations.get()?;
    if a.title.get().is_none()
        && a.read_only.get().is_none()
        && a.destructive.get().is_none()
        && a.idempotent.get().is_none()
        && a.open_world.get().is_none()
    {
        return None;
    }
    let flag = |value: Option<&bool>| match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    };
    let title = match a.title.get() {
        Some(t) => quote!(::core::option::Option::Some(::std::string::String::from(#t))),
        None => quote!(::core::option::Option::None),
    };
    let (read_only, destructive, idempotent, open_world) = (
        flag(a.read_only.get()),
        flag(a.destructive.get()),
        flag(a.idempotent.get()),
        flag(a.open_world.get()),
    );
    Some(quote! {
        .annotations({
            // Field by field: the type is `#[non_exhaustive]`, so no struct literal.
            let mut annotations = <::mcp_toolkit::tool::ToolAnnotations as ::core::default::Default>::default();
            annotations.title = #title;
            annotations.read_only_hint = #read_only;
            annotations.destructive_hint = #destructive;
            annotations.idempotent_hint = #idempotent;
            annotations.open_world_hint = #open_world;
            annotations
        })
    })
}

/// What only a resource's definition has: its size, its annotations, the cache hints of
/// its reads. Read only from a checked model, so every value is in range.
fn resource_hints(resource: &CapabilityFn) -> TokenStream {
    let attr = &resource.attr;
    let some = |value: TokenStream| quote!(::core::option::Option::Some(#value));
    let none = quote!(::core::option::Option::None);
    let size = attr
        .size
        .get()
        .and_then(|lit| lit.base10_parse::<u64>().ok())
        .map(|size| quote!(.size(#size)));
    let annotations = attr.resource_annotations.get().and_then(|a| {
        let audience = a.audience.get().map(|roles| {
            let roles = roles.iter().map(|role| match role.value().as_str() {
                "user" => quote!(::mcp_toolkit::content::Role::User),
                _ => quote!(::mcp_toolkit::content::Role::Assistant),
            });
            some(quote!(::std::vec::Vec::from([#(#roles),*])))
        });
        let priority = a.priority.get().map(|p| {
            let value = p.value;
            some(quote!(#value))
        });
        let last_modified = a
            .last_modified
            .get()
            .map(|lit| some(quote!(::std::string::String::from(#lit))));
        if audience.is_none() && priority.is_none() && last_modified.is_none() {
            return None;
        }
        let [audience, priority, last_modified] =
            [audience, priority, last_modified].map(|field| field.unwrap_or_else(|| none.clone()));
        Some(quote! {
            .annotations({
                let mut annotations = <::mcp_toolkit::content::Annotations as ::core::default::Default>::default();
                annotations.audience = #audience;
                annotations.priority = #priority;
                annotations.last_modified = #last_modified;
                annotations
            })
        })
    });
    let cache = attr.cache.get().map(|cache| {
        let ttl_ms = cache
            .ttl_ms
            .get()
            .and_then(|lit| lit.base10_parse::<u64>().ok())
            .unwrap_or(0);
        let scope = match cache.scope.get().map(LitStr::value).as_deref() {
            Some("private") => quote!(::mcp_toolkit::resource::CacheScope::Private),
            _ => quote!(::mcp_toolkit::resource::CacheScope::Public),
        };
        quote!(.cache(#ttl_ms, #scope))
    });
    quote! { #size #annotations #cache }
}

/// `.build(handler)`, where the handler decodes the arguments and calls the user's fn:
/// `fn(&Context, RawArguments<'_>) -> Invocation` (`PromptInvocation` for a prompt); for a
/// tool method, `.build_with(closure)` where the closure holds the instance. A fn pointer
/// cannot capture the checks' variables, so the handler describes each parameter again,
/// with the same spanned tokens.
fn handler(f: &CapabilityFn) -> TokenStream {
    let ident = &f.item.sig.ident;
    let method = f.is_method();
    let (arguments, invocation, run_sync) = (f.kind.arguments(), f.kind.invocation(), f.kind.run_sync());
    let names = f.params.iter().map(|p| p.name().unwrap_or_default());
    let vars: Vec<_> = (0..f.params.len())
        .map(|i| format_ident!("__mcp_arg_{}", i))
        .collect();
    let takes = f.params.iter().enumerate().map(|(index, p)| {
        let var = &vars[index];
        let param = param_expr(p);
        quote! { let #var = __args.take(#index, #param, __cx); }
    });
    let ret = ret_expr(f);
    let (callee, this) = if method {
        (
            quote! { __this.#ident },
            quote! { let __this = ::std::sync::Arc::clone(&__instance); },
        )
    } else {
        (quote! { #ident }, TokenStream::new())
    };
    let call = if f.item.sig.asyncness.is_some() {
        let span = f.item.sig.asyncness.span();
        let invocation = respanned(invocation.clone(), span);
        quote_spanned! {span=>
            let __ret = #ret;
            #this
            #invocation::future(async move {
                __ret.convert(#callee(#(#vars),*).await)
            })
        }
    } else {
        let span = f.item.sig.fn_token.span();
        let (invocation, run_sync) = (respanned(invocation.clone(), span), respanned(run_sync, span));
        quote_spanned! {span=>
            let __ret = #ret;
            #this
            #invocation::#run_sync(move || {
                __ret.convert(#callee(#(#vars),*))
            })
        }
    };
    let closure = quote! {
        move |__cx: &::mcp_toolkit::Context,
         __raw: ::mcp_toolkit::__private::RawArguments<'_>|
         -> #invocation {
            const __NAMES: &[&str] = &[#(#names),*];
            let mut __args = match #arguments::parse(__raw, __NAMES) {
                ::core::result::Result::Ok(args) => args,
                ::core::result::Result::Err(failure) => return failure,
            };
            #( #takes )*
            let (#( ::core::option::Option::Some(#vars), )* ::core::result::Result::Ok(())) =
                (#( #vars, )* __args.finish())
            else {
                return __args.into_failure();
            };
            #call
        }
    };
    if method {
        quote! {
            .build_with({
                let __instance = ::std::sync::Arc::clone(self);
                #closure
            })
        }
    } else {
        quote! { .build(#closure) }
    }
}
