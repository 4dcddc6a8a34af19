//! What differs between the capability macros, `#[tool]`, `#[prompt]`, `#[resource]` and
//! `#[method]` (an extension's custom method): the
//! keys their attribute accepts, the words of their messages, and the runtime items their
//! expansion names. The pipeline (`attr`, `model`, `check`, `expand`) is one for all and asks
//! its [`Kind`] wherever they part.

use crate::list::ListKind;
use proc_macro2::TokenStream;
use quote::quote;

/// The kind of item a capability macro makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Tool,
    Prompt,
    Resource,
    Method,
}

/// Every key a capability attribute may hold, in the order error messages list them.
pub(crate) const ALL_KEYS: &[&str] = &[
    "uri",
    "name",
    "title",
    "description",
    "mime_type",
    "size",
    "annotations",
    "icons",
    "meta",
    "cache",
    "scopes",
    "task",
    "result_budget",
    "group",
    "search_hint",
    "always_load",
    "max_result_chars",
    "app",
    "visibility",
];

/// Every kind, in the order messages list them.
pub(crate) const ALL_KINDS: [Kind; 4] = [Kind::Tool, Kind::Prompt, Kind::Resource, Kind::Method];

const KEY_VALUE: &str = "`key = value`";
const TOOL_LIST: ListKind = ListKind {
    scope: "#[tool(...)]",
    entry: KEY_VALUE,
};
const PROMPT_LIST: ListKind = ListKind {
    scope: "#[prompt(...)]",
    entry: KEY_VALUE,
};
const RESOURCE_LIST: ListKind = ListKind {
    scope: "#[resource(...)]",
    entry: KEY_VALUE,
};
const METHOD_LIST: ListKind = ListKind {
    scope: "#[method(...)]",
    entry: KEY_VALUE,
};

impl Kind {
    /// `"tool"`: the noun of messages, the attribute's name and the infix of a method's
    /// hidden builder (`__mcp_tool_<fn>`).
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Kind::Tool => "tool",
            Kind::Prompt => "prompt",
            Kind::Resource => "resource",
            Kind::Method => "method",
        }
    }

    /// The attribute's argument list, for messages about its entries.
    pub(crate) fn list(self) -> &'static ListKind {
        match self {
            Kind::Tool => &TOOL_LIST,
            Kind::Prompt => &PROMPT_LIST,
            Kind::Resource => &RESOURCE_LIST,
            Kind::Method => &METHOD_LIST,
        }
    }

    /// The keys the attribute accepts, in the order error messages list them.
    pub(crate) fn keys(self) -> &'static [&'static str] {
        match self {
            Kind::Tool => &[
                "name",
                "title",
                "description",
                "annotations",
                "icons",
                "meta",
                "scopes",
                "task",
                "result_budget",
                "group",
                "search_hint",
                "always_load",
                "max_result_chars",
                "app",
                "visibility",
            ],
            Kind::Prompt => &["name", "title", "description", "icons", "meta"],
            Kind::Resource => &[
                "uri",
                "name",
                "title",
                "description",
                "mime_type",
                "size",
                "annotations",
                "icons",
                "meta",
                "cache",
                "app",
            ],
            Kind::Method => &["name"],
        }
    }

    /// How the fn is written, for the message when the attribute is on something else.
    pub(crate) fn example(self) -> &'static str {
        match self {
            Kind::Tool => "#[tool] async fn name(arg: Type) -> Output { ... }",
            Kind::Prompt => "#[prompt] fn name(arg: String) -> String { ... }",
            Kind::Resource => {
                "#[resource(uri = \"scheme://path/{id}\")] async fn name(id: String) -> String { ... }"
            }
            Kind::Method => {
                "#[method(name = \"vendor/name\")] async fn name(arg: Type) -> Json<Output> { ... }"
            }
        }
    }

    /// Why the fn and its parameters must have concrete types.
    pub(crate) fn why_concrete(self) -> &'static str {
        match self {
            Kind::Tool => "its input schema is built from concrete parameter types",
            Kind::Prompt => "its arguments are parsed into concrete parameter types",
            Kind::Resource => "the variables of its URI are parsed into concrete parameter types",
            Kind::Method => "its params are decoded into concrete parameter types",
        }
    }

    /// Why a parameter cannot be `impl Trait`.
    pub(crate) fn why_param_concrete(self) -> &'static str {
        match self {
            Kind::Tool => "its schema is built from a concrete type",
            Kind::Prompt => "its argument is parsed into a concrete type",
            Kind::Resource => "its variable is parsed into a concrete type",
            Kind::Method => "its param is decoded into a concrete type",
        }
    }

    /// Why the return type cannot be `impl Trait`.
    pub(crate) fn why_output_named(self) -> &'static str {
        match self {
            Kind::Tool => "the type decides the output schema and the conversion",
            Kind::Prompt => "the type decides how it converts into the prompt's messages",
            Kind::Resource => "the type decides how it converts into the resource's contents",
            Kind::Method => "the type decides how it converts into the answer's result",
        }
    }

    /// Who reads the description, and the doc comment that would give one.
    pub(crate) fn why_described(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Kind::Tool => (
                "models choose tools by it",
                "say what the tool does, for the model that will choose it",
                "/// Says what the tool does.",
            ),
            Kind::Prompt => (
                "clients show it to the people choosing a prompt",
                "say what the prompt is for, for the people who will choose it",
                "/// Says what the prompt is for.",
            ),
            Kind::Resource => (
                "clients and models choose resources by it",
                "say what the resource holds, for those who will choose it",
                "/// Says what the resource holds.",
            ),
            Kind::Method => (
                "it documents the method",
                "say what the method does",
                "/// Says what the method does.",
            ),
        }
    }

    /// The trait the struct beside a free fn implements (`ToolFn`), its constructor
    /// (`tool`) and what that returns (`Tool`).
    pub(crate) fn trait_path(self) -> TokenStream {
        match self {
            Kind::Tool => quote!(::mcp_toolkit::tool::ToolFn),
            Kind::Prompt => quote!(::mcp_toolkit::prompt::PromptFn),
            Kind::Resource => quote!(::mcp_toolkit::resource::ResourceFn),
            Kind::Method => quote!(::mcp_toolkit::extension::MethodFn),
        }
    }

    pub(crate) fn product(self) -> TokenStream {
        match self {
            Kind::Tool => quote!(::mcp_toolkit::Tool),
            Kind::Prompt => quote!(::mcp_toolkit::prompt::Prompt),
            Kind::Resource => quote!(::mcp_toolkit::resource::Resource),
            Kind::Method => quote!(::mcp_toolkit::extension::Method),
        }
    }

    /// The runtime's conversion of return type `output`, built from the conversion its trait
    /// names (`<R as IntoCallToolResult>::into_call_tool_result`): a type that does not
    /// convert fails the trait's own bound, with its message alone.
    pub(crate) fn ret(self, output: &TokenStream) -> TokenStream {
        match self {
            Kind::Tool => quote! {
                ::mcp_toolkit::__private::Ret::new(
                    <#output as ::mcp_toolkit::IntoCallToolResult>::into_call_tool_result,
                    <#output as ::mcp_toolkit::IntoCallToolResult>::output_schema,
                )
            },
            Kind::Prompt => quote! {
                ::mcp_toolkit::__private::Converter::new(
                    <#output as ::mcp_toolkit::prompt::IntoPromptResult>::into_prompt_result,
                )
            },
            Kind::Resource => quote! {
                ::mcp_toolkit::__private::Converter::new(
                    <#output as ::mcp_toolkit::resource::IntoReadResult>::into_read_result,
                )
            },
            Kind::Method => quote! {
                ::mcp_toolkit::__private::Converter::new(
                    <#output as ::mcp_toolkit::extension::IntoMethodResult>::into_method_result,
                )
            },
        }
    }

    /// The arguments of one call, split by parameter.
    pub(crate) fn arguments(self) -> TokenStream {
        match self {
            Kind::Tool => quote!(::mcp_toolkit::__private::Arguments),
            Kind::Prompt => quote!(::mcp_toolkit::__private::PromptArguments),
            Kind::Resource => quote!(::mcp_toolkit::__private::ResourceArguments),
            Kind::Method => quote!(::mcp_toolkit::__private::MethodArguments),
        }
    }

    /// The work of one call.
    pub(crate) fn invocation(self) -> TokenStream {
        match self {
            Kind::Tool => quote!(::mcp_toolkit::__private::Invocation),
            Kind::Prompt => quote!(::mcp_toolkit::__private::PromptInvocation),
            Kind::Resource => quote!(::mcp_toolkit::__private::ResourceInvocation),
            Kind::Method => quote!(::mcp_toolkit::__private::MethodInvocation),
        }
    }

    /// The invocation's constructor for a sync fn: a tool's runs on the blocking pool, a
    /// prompt's, a resource's and a custom method's at once.
    pub(crate) fn run_sync(self) -> TokenStream {
        match self {
            Kind::Tool => quote!(blocking),
            Kind::Prompt | Kind::Resource | Kind::Method => quote!(now),
        }
    }

    /// The kinds whose attribute accepts `key`, for the message when another kind's has it.
    pub(crate) fn owners_of(key: &str) -> impl Iterator<Item = Kind> + '_ {
        ALL_KINDS
            .into_iter()
            .filter(move |kind| kind.keys().contains(&key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key of [`ALL_KEYS`] a kind does not accept is another kind's key, and each kind
    /// lists its keys in the order of [`ALL_KEYS`].
    #[test]
    fn every_kind_accepts_an_ordered_subset_of_all_keys() {
        for kind in ALL_KINDS {
            let in_all_order: Vec<&str> = ALL_KEYS
                .iter()
                .copied()
                .filter(|key| kind.keys().contains(key))
                .collect();
            assert_eq!(in_all_order, kind.keys(), "{kind:?}");
        }
        // Every key belongs to some kind.
        for key in ALL_KEYS {
            assert!(Kind::owners_of(key).next().is_some(), "{key}");
        }
        assert!(!Kind::Prompt.keys().contains(&"annotations"));
        assert!(Kind::Resource.keys().contains(&"annotations"));
        assert!(!Kind::Tool.keys().contains(&"uri"));
        for key in [
            "scopes",
            "task",
            "result_budget",
            "group",
            "search_hint",
            "always_load",
            "max_result_chars",
        ] {
            assert_eq!(Kind::owners_of(key).collect::<Vec<_>>(), [Kind::Tool], "{key}");
        }
        for key in ["size", "cache"] {
            assert_eq!(
                Kind::owners_of(key).collect::<Vec<_>>(),
                [Kind::Resource],
                "{key}"
            );
        }
    }

    #[test]
    fn each_kind_names_its_attribute() {
        assert_eq!(Kind::Tool.list().scope, "#[tool(...)]");
        assert_eq!(Kind::Prompt.list().scope, "#[prompt(...)]");
        assert!(Kind::Prompt.example().starts_with("#[prompt]"));
        assert_eq!(Kind::Resource.list().scope, "#[resource(...)]");
        assert!(Kind::Resource.example().starts_with("#[resource("));
    }
}
