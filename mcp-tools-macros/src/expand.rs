//! Turns a checked [`ToolFn`] into tokens.
//!
//! The user's fn is emitted as written (minus the parameter attributes the macro consumed),
//! so it stays callable from their own tests. Beside it, in the type namespace, a braced
//! struct with the fn's name implements `ToolFn`, which `tools![...]` uses. All generated
//! code names things through `::mcp_tools::__private`, never the user's imports.

use crate::model::{Param, ToolFn};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

/// The full expansion of a tool with no mistakes.
pub(crate) fn expand(tool: &ToolFn) -> TokenStream {
    if tool.method {
        return expand_method(tool, build_tool(tool));
    }
    let item = &tool.item;
    let ident = &item.sig.ident;
    let vis = &item.vis;
    let name = &tool.name;
    let build = build_tool(tool);
    quote! {
        #item

        #[allow(non_camel_case_types, dead_code)]
        #[doc(hidden)]
        #vis struct #ident {}

        impl ::mcp_tools::__private::ToolFn for #ident {
            const NAME: &'static str = #name;

            fn tool() -> ::mcp_tools::Tool {
                #build
            }
        }
    }
}

/// A `&self` method: the method as written and, beside it in the impl, a hidden associated
/// fn that builds the tool from an `Arc` of the instance (`tools![instance => method]`).
fn expand_method(tool: &ToolFn, build: TokenStream) -> TokenStream {
    let item = &tool.item;
    let vis = &item.vis;
    let builder = method_builder(&item.sig.ident);
    quote! {
        #item

        #[doc(hidden)]
        #[allow(non_snake_case)]
        #vis fn #builder(self: &::std::sync::Arc<Self>) -> ::mcp_tools::Tool {
            #build
        }
    }
}

/// `instance => a, b` to `vec![instance.__mcp_tool_a(), instance.__mcp_tool_b()]`, each call
/// spanned at the method's name so a method without `#[tool]` is reported there.
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
                let builder = method_builder(method);
                let builder = syn::Ident::new(&builder.to_string(), method.span());
                quote_spanned! {method.span()=> #instance.#builder() }
            });
            quote! { ::std::vec![#(#calls),*] }
        }
        Err(error) => error.to_compile_error(),
    }
}

/// The hidden associated fn that builds a method's tool.
pub(crate) fn method_builder(ident: &syn::Ident) -> syn::Ident {
    let name = ident.to_string();
    format_ident!("__mcp_tool_{}", name.strip_prefix("r#").unwrap_or(&name))
}

/// What is emitted beside the errors: the user's fn, a stub the rest of the crate can name,
/// and the type checks that can still run, so one mistake does not hide or cascade into
/// others.
pub(crate) fn expand_stub(tool: Option<&ToolFn>) -> TokenStream {
    let Some(tool) = tool else {
        return TokenStream::new();
    };
    if tool.method || has_receiver(tool) {
        let checks = stub_checks(tool);
        return expand_method(
            tool,
            quote! {
                #checks
                ::mcp_tools::__private::unreachable_stub()
            },
        );
    }
    let item = &tool.item;
    let ident = &item.sig.ident;
    let vis = &item.vis;
    let name = &tool.name;
    let checks = stub_checks(tool);
    quote! {
        #item

        #[allow(non_camel_case_types, dead_code)]
        #[doc(hidden)]
        #vis struct #ident {}

        impl ::mcp_tools::__private::ToolFn for #ident {
            const NAME: &'static str = #name;

            fn tool() -> ::mcp_tools::Tool {
                #checks
                ::mcp_tools::__private::unreachable_stub()
            }
        }
    }
}

/// The type checks of the parameters and the return type that can run on their own.
fn stub_checks(tool: &ToolFn) -> TokenStream {
    let param_checks = tool
        .params
        .iter()
        .filter(|p| p.checkable)
        .map(|p| param_kind(p, false));
    let output_check = tool.output_checkable().then(|| {
        let output = tool.output_type();
        quote_spanned! {tool.output_span()=>
            let _ = ::mcp_tools::__private::ret::<#output>();
        }
    });
    quote! {
        #[allow(unused_imports)]
        use ::mcp_tools::__private::{InjectedProbe as _, OptionalProbe as _, RequiredProbe as _};
        #( let _ = #param_checks; )*
        #output_check
    }
}

/// Whether the fn has any `self` parameter, right or wrong: it is then inside an impl block,
/// where only associated items may be emitted.
fn has_receiver(tool: &ToolFn) -> bool {
    tool.item
        .sig
        .inputs
        .iter()
        .any(|input| matches!(input, syn::FnArg::Receiver(_)))
}

fn build_tool(tool: &ToolFn) -> TokenStream {
    let name = &tool.name;
    let description = tool.description.as_deref().unwrap_or_default();
    let title = &tool.title;
    let output = tool.output_type();
    let output_span = tool.output_span();

    let annotations = annotations(tool);
    let icons = tool.attr.icons.iter().map(|icon| {
        let src = &icon.src;
        let mime = icon.mime_type.iter();
        let sizes = &icon.sizes;
        let theme = icon.theme.iter();
        quote! {
            .icon(::mcp_tools::Icon::new(#src)
                #( .with_mime_type(#mime) )*
                #( .with_size(#sizes) )*
                #( .with_theme(#theme) )*)
        }
    });
    let meta = tool.attr.meta.iter().map(|entry| {
        let key = &entry.key;
        let value = &entry.value;
        quote_spanned! {value.span()=> .meta(#key, &#value) }
    });
    let params = tool.params.iter().map(|p| {
        let arg_name = &p.name;
        let description = match &p.description {
            Some(d) => quote!(::core::option::Option::Some(#d)),
            None => quote!(::core::option::Option::None),
        };
        let kind = param_kind(p, true);
        quote! { .param(#arg_name, #description, #kind) }
    });
    let output_schema = quote_spanned! {output_span=> .output(::mcp_tools::__private::ret::<#output>()) };
    let handler = handler(tool);

    quote! {
        #[allow(unused_imports)]
        use ::mcp_tools::__private::{InjectedProbe as _, OptionalProbe as _, RequiredProbe as _};
        ::mcp_tools::__private::ToolBuilder::new(#name, #description)
            .title(#title)
            #annotations
            #( #icons )*
            #( #meta )*
            #( #params )*
            #output_schema
            #handler
    }
}

fn annotations(tool: &ToolFn) -> Option<TokenStream> {
    let a = &tool.attr.annotations;
    let flag = |value: Option<bool>| match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    };
    if a.title.is_none()
        && a.read_only.is_none()
        && a.destructive.is_none()
        && a.idempotent.is_none()
        && a.open_world.is_none()
    {
        return None;
    }
    let title = match &a.title {
        Some(t) => quote!(::core::option::Option::Some(::std::string::String::from(#t))),
        None => quote!(::core::option::Option::None),
    };
    let (read_only, destructive, idempotent, open_world) = (
        flag(a.read_only),
        flag(a.destructive),
        flag(a.idempotent),
        flag(a.open_world),
    );
    Some(quote! {
        .annotations(::mcp_tools::ToolAnnotations {
            title: #title,
            read_only_hint: #read_only,
            destructive_hint: #destructive,
            idempotent_hint: #idempotent,
            open_world_hint: #open_world,
        })
    })
}

/// The expression that tells, by the parameter's type alone, whether it is injected
/// (`Context`, `State<T>`, anything `FromContext`), an optional argument (`Option<T>`) or a
/// required one. It is spanned at the type, so a type that is none of these is reported
/// there.
fn param_kind(p: &Param, with_default: bool) -> TokenStream {
    let ty = &p.ty;
    let default = match (&p.default, with_default) {
        (Some(expr), true) => {
            // `#[default(Vec::new())]` is what users write; the closure around it is ours.
            quote_spanned! {expr.span()=> .with_default({
                #[allow(clippy::redundant_closure)]
                let default = || #expr;
                default
            }) }
        }
        _ => TokenStream::new(),
    };
    quote_spanned! {ty.span()=>
        (&&&::mcp_tools::__private::Slot::<#ty>::new()).__mcp_param() #default
    }
}

/// `.build(handler)`, where the handler decodes the arguments and calls the user's fn:
/// `fn(&Context, RawArguments<'_>) -> Invocation`; for a method, `.build_with(closure)`
/// where the closure holds the instance.
fn handler(tool: &ToolFn) -> TokenStream {
    let ident = &tool.item.sig.ident;
    let names = tool.params.iter().map(|p| &p.name);
    let vars: Vec<_> = (0..tool.params.len())
        .map(|i| format_ident!("__mcp_arg_{}", i))
        .collect();
    let takes = tool.params.iter().enumerate().map(|(index, p)| {
        let var = &vars[index];
        let kind = param_kind(p, true);
        quote! { let #var = __args.take(#index, #kind, __cx); }
    });
    let output = tool.output_type();
    let ret = quote_spanned! {tool.output_span()=> ::mcp_tools::__private::ret::<#output>() };
    let (callee, this) = if tool.method {
        (
            quote! { __this.#ident },
            quote! { let __this = ::std::sync::Arc::clone(&__instance); },
        )
    } else {
        (quote! { #ident }, TokenStream::new())
    };
    let call = if tool.item.sig.asyncness.is_some() {
        let span = tool.item.sig.asyncness.span();
        quote_spanned! {span=>
            let __ret = #ret;
            #this
            ::mcp_tools::__private::Invocation::future(async move {
                __ret.convert(#callee(#(#vars),*).await)
            })
        }
    } else {
        let span = tool.item.sig.fn_token.span();
        quote_spanned! {span=>
            let __ret = #ret;
            #this
            ::mcp_tools::__private::Invocation::blocking(move || {
                __ret.convert(#callee(#(#vars),*))
            })
        }
    };
    let closure = quote! {
        move |__cx: &::mcp_tools::Context,
         __raw: ::mcp_tools::__private::RawArguments<'_>|
         -> ::mcp_tools::__private::Invocation {
            #[allow(unused_imports)]
            use ::mcp_tools::__private::{InjectedProbe as _, OptionalProbe as _, RequiredProbe as _};
            const __NAMES: &[&str] = &[#(#names),*];
            let mut __args = match ::mcp_tools::__private::Arguments::parse(__raw, __NAMES) {
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
    if tool.method {
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
