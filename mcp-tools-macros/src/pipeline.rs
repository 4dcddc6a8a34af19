//! The macros' pipelines on `proc_macro2` tokens (serde_derive's `internals/`): parse the
//! attribute and the item into a model that keeps the tokens (`attr`, `model`), check it
//! (`check`), expand it (`expand`), with one [`Ctxt`] collecting every mistake on the way.
//! `lib.rs` only converts tokens; the unit tests below and the bench run these directly.

use crate::check;
use crate::ctxt::Ctxt;
use crate::expand;
use crate::kind::Kind;
use crate::model::CapabilityFn;
use proc_macro2::TokenStream;

/// What a macro produces: the mistakes it reports and the code it emits either way.
pub(crate) struct Expansion {
    pub(crate) errors: Vec<syn::Error>,
    pub(crate) code: TokenStream,
}

impl Expansion {
    fn new(checked: syn::Result<()>, code: TokenStream) -> Expansion {
        let errors = match checked {
            Ok(()) => Vec::new(),
            Err(errors) => errors.into_iter().collect(),
        };
        Expansion { errors, code }
    }

    /// The `compile_error!`s, then the code.
    pub(crate) fn into_tokens(self) -> TokenStream {
        if self.errors.is_empty() {
            return self.code;
        }
        let mut tokens: TokenStream = self.errors.iter().map(syn::Error::to_compile_error).collect();
        tokens.extend(self.code);
        tokens
    }
}

/// `#[tool(args)] input`.
pub(crate) fn tool(args: TokenStream, input: TokenStream) -> Expansion {
    capability(Kind::Tool, args, input)
}

/// `#[prompt(args)] input`.
pub(crate) fn prompt(args: TokenStream, input: TokenStream) -> Expansion {
    capability(Kind::Prompt, args, input)
}

/// `#[resource(args)] input`.
pub(crate) fn resource(args: TokenStream, input: TokenStream) -> Expansion {
    capability(Kind::Resource, args, input)
}

/// `#[method(args)] input`.
pub(crate) fn method(args: TokenStream, input: TokenStream) -> Expansion {
    capability(Kind::Method, args, input)
}

/// The one pipeline of every capability macro: parse, check, expand.
fn capability(kind: Kind, args: TokenStream, input: TokenStream) -> Expansion {
    let mut cx = Ctxt::new();
    let Some(f) = CapabilityFn::parse(&mut cx, kind, args, input.clone()) else {
        // Not a fn: keep the item as written so the rest of the crate still compiles.
        return Expansion::new(cx.check(), input);
    };
    check::check(&mut cx, &f);
    let checked = cx.check();
    let code = expand::expand(&f, checked.is_ok());
    Expansion::new(checked, code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::{ToTokens, quote};
    use std::str::FromStr;

    /// Runs `#[tool(args)] item` from source text, so that spans have locations.
    fn run(args: &str, item: &str) -> Expansion {
        tool(
            TokenStream::from_str(args).expect("args lex"),
            TokenStream::from_str(item).expect("item lexes"),
        )
    }

    /// Runs `#[method(args)] item` from source text.
    fn run_method(args: &str, item: &str) -> Expansion {
        method(
            TokenStream::from_str(args).expect("args lex"),
            TokenStream::from_str(item).expect("item lexes"),
        )
    }

    #[test]
    fn a_method_expands_to_its_builder_and_a_unit_fn_handles_a_notification() {
        let stats = run_method(
            r#"name = "notes/stats""#,
            "/// Counts.\nasync fn stats(notes: State<Notes>) -> Json<u8> { Json(1) }",
        );
        assert!(stats.errors.is_empty(), "{:?}", messages(&stats));
        assert_eq!(
            shape(&stats.code),
            [
                "fn stats",
                "struct stats",
                "impl :: mcp_toolkit :: extension :: MethodFn for stats"
            ]
        );
        let code = stats.code.to_string();
        assert!(code.contains("MethodBuilder :: new (\"notes/stats\")"), "{code}");
        assert!(!code.contains("notification"), "{code}");
        // No doc comment is needed: no client reads a method's description.
        let seen = run_method(r#"name = "notes/seen""#, "fn seen(id: u64) {}");
        assert!(seen.errors.is_empty(), "{:?}", messages(&seen));
        assert!(seen.code.to_string().contains(". notification ()"));
    }

    #[test]
    fn every_method_mistake_arrives_at_once_at_its_token() {
        let expansion = run_method(
            r#"name = "tools/list", task"#,
            "fn all<T>(text: &str, v: T) -> Json<u8> { Json(1) }",
        );
        let messages = messages(&expansion);
        assert_eq!(messages.len(), 4, "{messages:#?}");
        assert_eq!(
            messages[0],
            "`task` is a tool key; `#[method(...)]` accepts `name`"
        );
        assert!(messages[1].starts_with("method name `tools/list` is a method of the protocol"));
        assert!(messages[2].starts_with("a method fn cannot be generic"));
        assert!(messages[3].starts_with("a method parameter must own its value"));
        // Without a name, the fn's name has no vendor prefix: said at the fn's name.
        let unnamed = run_method("", "fn count() -> Json<u8> { Json(1) }");
        assert_eq!(column(&unnamed.errors[0]), 3);
    }

    fn messages(expansion: &Expansion) -> Vec<String> {
        expansion.errors.iter().map(ToString::to_string).collect()
    }

    /// The column (0-based, in its line) where an error starts.
    fn column(error: &syn::Error) -> usize {
        error.span().start().column
    }

    /// The items of the code, without the user's fn: kind and name, in order.
    fn shape(code: &TokenStream) -> Vec<String> {
        let file: syn::File = syn::parse2(code.clone()).expect("the expansion parses as items");
        file.items
            .iter()
            .map(|item| match item {
                syn::Item::Fn(f) => format!("fn {}", f.sig.ident),
                syn::Item::Struct(s) => format!("struct {}", s.ident),
                syn::Item::Impl(i) => format!(
                    "impl {} for {}",
                    i.trait_
                        .as_ref()
                        .map(|(path, _)| path.to_token_stream().to_string())
                        .unwrap_or_default(),
                    i.self_ty.to_token_stream()
                ),
                other => other.to_token_stream().to_string(),
            })
            .collect()
    }

    /// The first item of the code, which must be the user's fn.
    fn user_fn(code: &TokenStream) -> String {
        let file: syn::File = syn::parse2(code.clone()).expect("the expansion parses as items");
        match &file.items[0] {
            syn::Item::Fn(f) => f.to_token_stream().to_string(),
            other => panic!("the first item is not the user's fn: {}", other.to_token_stream()),
        }
    }

    const ADD: &str = r#"
        /// Adds two numbers.
        ///
        /// # Arguments
        /// * `b` - The second
        pub async fn add(
            /// The first
            a: i64,
            #[default(2)]
            b: i64,
        ) -> i64 {
            a + b
        }
    "#;

    #[test]
    fn a_valid_fn_expands_to_its_tool() {
        let expansion = run(r#"annotations(read_only), meta(cost = 3)"#, ADD);
        assert!(expansion.errors.is_empty(), "{:?}", messages(&expansion));
        let code = expansion.code.to_string();
        for expected in [
            r#"const NAME : & 'static str = "add" ;"#,
            r#"ToolBuilder :: new ("add" , "Adds two numbers.")"#,
            r#". title ("Add")"#,
            r#"annotations . read_only_hint = :: core :: option :: Option :: Some (true) ;"#,
            r#". meta ("cost" , & 3)"#,
            r#". param ("a" , :: core :: option :: Option :: Some ("The first") , __mcp_param_0)"#,
            r#". param ("b" , :: core :: option :: Option :: Some ("The second") , __mcp_param_1)"#,
            r#"Slot :: < i64 > :: new ()) . __mcp_plan ()) . with_default"#,
            r#"(&& :: mcp_toolkit :: __private :: Slot :: < i64 > :: new ()) . __mcp_show_default () ,)"#,
            r#":: mcp_toolkit :: __private :: Ret :: new (< i64 as :: mcp_toolkit :: IntoCallToolResult > :: into_call_tool_result , < i64 as :: mcp_toolkit :: IntoCallToolResult > :: output_schema ,)"#,
            r#"const __NAMES : & [& str] = & ["a" , "b"]"#,
            r#"Invocation :: future"#,
            r#". build ("#,
        ] {
            assert!(code.contains(expected), "missing `{expected}` in\n{code}");
        }
        assert!(!code.contains("unreachable_stub"), "{code}");
        assert_eq!(
            shape(&expansion.code),
            [
                "fn add",
                "struct add",
                "impl :: mcp_toolkit :: tool :: ToolFn for add"
            ]
        );
        // The user's fn, as written but for the parameter attributes the macro consumed.
        let expected = TokenStream::from_str(
            "/// Adds two numbers.\n///\n/// # Arguments\n/// * `b` - The second\npub async fn add(a: i64, b: i64,) -> i64 { a + b }",
        )
        .unwrap();
        let expected: syn::ItemFn = syn::parse2(expected).unwrap();
        assert_eq!(user_fn(&expansion.code), expected.to_token_stream().to_string());
    }

    #[test]
    fn every_malformed_value_is_reported_at_once() {
        let args = r#"name = 1, colour = "x""#;
        let expansion = run(args, ADD);
        assert_eq!(
            messages(&expansion),
            [
                "expected a string literal for `name`, such as `name = \"...\"`",
                "unknown key `colour`; expected one of `name`, `title`, `description`, `annotations`, `icons`, `meta`, `scopes`, `task`, `result_budget`, `group`, `search_hint`, `always_load`, `max_result_chars`, `app`, `visibility`",
            ]
        );
        assert_eq!(column(&expansion.errors[0]), args.find('1').unwrap());
        assert_eq!(column(&expansion.errors[1]), args.find("colour").unwrap());
    }

    #[test]
    fn malformed_values_in_nested_lists_are_all_reported() {
        let args =
            r#"annotations(title = 1, read_only = "yes"), icons(icon(src = x, theme = 2)), meta(a, b = 1)"#;
        let expansion = run(args, ADD);
        assert_eq!(
            messages(&expansion),
            [
                "expected a string literal for `title`, such as `title = \"...\"`",
                "expected `read_only`, `read_only = true` or `read_only = false`",
                "expected a string literal for `src`, such as `src = \"...\"`",
                "expected a string literal for `theme`, such as `theme = \"...\"`",
                "expected a value for `a` in `meta(...)`; write `a = value`, where the value serializes to JSON",
            ]
        );
    }

    /// Each duplicate is reported once, at its second occurrence, with its list's name.
    #[test]
    fn duplicates_are_reported_at_the_second_occurrence() {
        let cases = [
            (r#"name = "a", name = "b""#, "name", "#[tool(...)]"),
            (r#"title = "a", title = "b""#, "title", "#[tool(...)]"),
            (
                r#"description = "a", description = "b""#,
                "description",
                "#[tool(...)]",
            ),
            (
                r#"annotations(read_only), annotations(idempotent)"#,
                "annotations",
                "#[tool(...)]",
            ),
            (r#"icons("a"), icons("b")"#, "icons", "#[tool(...)]"),
            (r#"meta(a = 1), meta(b = 2)"#, "meta", "#[tool(...)]"),
            (r#"task, task = "required""#, "task", "#[tool(...)]"),
            (
                r#"annotations(title = "a", title = "b")"#,
                "title",
                "annotations(...)",
            ),
            (
                r#"annotations(read_only, read_only = false)"#,
                "read_only",
                "annotations(...)",
            ),
            (
                r#"annotations(destructive = false, destructive)"#,
                "destructive",
                "annotations(...)",
            ),
            (
                r#"annotations(idempotent, idempotent)"#,
                "idempotent",
                "annotations(...)",
            ),
            (
                r#"annotations(open_world, open_world)"#,
                "open_world",
                "annotations(...)",
            ),
            (r#"icons(icon(src = "a", src = "b"))"#, "src", "icon(...)"),
            (
                r#"icons(icon(src = "a", mime_type = "image/png", mime_type = "image/svg+xml"))"#,
                "mime_type",
                "icon(...)",
            ),
            (
                r#"icons(icon(src = "a", sizes = "48x48", sizes = ["any"]))"#,
                "sizes",
                "icon(...)",
            ),
            (
                r#"icons(icon(src = "a", theme = "dark", theme = "light"))"#,
                "theme",
                "icon(...)",
            ),
            (r#"meta(cost = 1, cost = 2)"#, "cost", "meta(...)"),
        ];
        for (args, key, scope) in cases {
            let expansion = run(args, ADD);
            assert_eq!(
                messages(&expansion),
                [format!("duplicate key `{key}` in `{scope}`; give each key once")],
                "{args}"
            );
            assert_eq!(column(&expansion.errors[0]), args.rfind(key).unwrap(), "{args}");
        }
    }

    /// `task` reaches the builder of every form of tool: async and sync fns, `&self`
    /// methods, tools that take a `Context` and ask.
    #[test]
    fn task_reaches_the_builder_of_every_form_of_tool() {
        let items = [
            ADD,
            "/// Adds.\nfn add(a: i64, b: i64) -> i64 { a + b }",
            "/// Counts.\npub fn count(&self, step: u64) -> u64 { step }",
            "/// Asks.\nasync fn ask(cx: Context) -> Result<String, ToolError> { let _ = cx.elicit::<Confirm>(\"Sure?\").await?; Ok(String::new()) }",
        ];
        let cases = [
            ("task", Some("Optional")),
            (r#"task = "optional""#, Some("Optional")),
            (r#"task = "required""#, Some("Required")),
            (r#"task = "forbidden""#, Some("Forbidden")),
            ("", None),
        ];
        for item in items {
            for (args, variant) in cases {
                let expansion = run(args, item);
                assert!(expansion.errors.is_empty(), "{args}: {:?}", messages(&expansion));
                let code = expansion.code.to_string();
                let task = ". task (:: mcp_toolkit :: tool :: TaskSupport ::";
                match variant {
                    Some(variant) => {
                        let expected = format!("{task} {variant}) . output (__mcp_ret)");
                        assert!(
                            code.contains(&expected),
                            "{args}: missing `{expected}` in\n{code}"
                        );
                    }
                    None => assert!(!code.contains(". task ("), "{code}"),
                }
            }
        }
    }

    #[test]
    fn every_task_mistake_is_reported_at_its_token() {
        let args = r#"task = "always", task = true, task(required), name = 1"#;
        let expansion = run(args, ADD);
        let forms = "expected `task`, `task = \"optional\"`, `task = \"required\"` or `task = \"forbidden\"`";
        assert_eq!(
            messages(&expansion),
            [
                format!("{forms}; `task = true` is written `task`"),
                forms.to_owned(),
                "expected a string literal for `name`, such as `name = \"...\"`".to_owned(),
                "duplicate key `task` in `#[tool(...)]`; give each key once".to_owned(),
                "duplicate key `task` in `#[tool(...)]`; give each key once".to_owned(),
                "unknown task support `always`; expected `optional`, `required` or `forbidden`".to_owned(),
            ]
        );
        let columns: Vec<usize> = expansion.errors.iter().map(column).collect();
        assert_eq!(
            columns,
            [
                args.find("true").unwrap(),
                args.find("(required)").unwrap(),
                args.find('1').unwrap(),
                args.find("task = true").unwrap(),
                args.find("task(").unwrap(),
                args.find("\"always\"").unwrap(),
            ]
        );
        // The error output keeps its shape: the stub stands where the builder would.
        assert!(expansion.code.to_string().contains("unreachable_stub"));
        assert_eq!(shape(&expansion.code), shape(&run("task", ADD).code));
    }

    #[test]
    fn every_result_budget_mistake_is_reported_at_its_number() {
        let args = r#"result_budget = 0, result_budget = -5, result_budget = 100, result_budget = 2048u64, result_budget = "big""#;
        let expansion = run(args, ADD);
        let least = "at least 1024 (`mcp_toolkit::tool::MIN_RESULT_BUDGET`): room for a page and the line that says how to read on";
        assert_eq!(
            messages(&expansion),
            [
                "expected an integer literal for `result_budget` (the most bytes of text a call answers with at once), such as `result_budget = 50_000`".to_owned(),
                "duplicate key `result_budget` in `#[tool(...)]`; give each key once".to_owned(),
                "duplicate key `result_budget` in `#[tool(...)]`; give each key once".to_owned(),
                "duplicate key `result_budget` in `#[tool(...)]`; give each key once".to_owned(),
                "duplicate key `result_budget` in `#[tool(...)]`; give each key once".to_owned(),
                format!("`result_budget = 0` leaves no room for an answer; a budget is {least}"),
                format!("`result_budget = -5` is negative; a budget is a number of bytes, {least}"),
                format!("`result_budget = 100` is too small; a budget is {least}"),
                "`result_budget` is a `usize` of bytes; write it without a suffix or with `usize`".to_owned(),
            ]
        );
        assert!(expansion.code.to_string().contains("unreachable_stub"));
        let fine = run("result_budget = 50_000", ADD);
        assert!(fine.errors.is_empty());
        assert!(fine.code.to_string().contains(". result_budget (50_000)"));
    }

    #[test]
    fn the_hints_for_hosts_reach_the_builder() {
        let args = r#"group = "billing", search_hint = "refund money back", always_load, max_result_chars = 200_000"#;
        let expansion = run(args, ADD);
        assert!(expansion.errors.is_empty(), "{:?}", messages(&expansion));
        let code = expansion.code.to_string();
        let hints = r#". group ("billing") . search_hint ("refund money back") . always_load () . max_result_chars (200_000) . output (__mcp_ret)"#;
        assert!(code.contains(hints), "missing `{hints}` in\n{code}");
        // `always_load = false` says nothing; `always_load = true` is the flag.
        let off = run("always_load = false", ADD).code.to_string();
        assert!(!off.contains("always_load"), "{off}");
        let on = run("always_load = true", ADD).code.to_string();
        assert!(on.contains(". always_load ()"), "{on}");
    }

    #[test]
    fn every_hint_mistake_is_reported_at_its_token() {
        let args = r#"max_result_chars = 0, group = "a b", search_hint = "  ", always_load, always_load, max_result_chars = 600_000, group = "billing.eu", max_result_chars = "big""#;
        let expansion = run(args, ADD);
        let accepted = "write 1 to 500_000 (characters)";
        let group = "a group is 1 to 64 of `A-Z`, `a-z`, `0-9`, `_` and `-`";
        let duplicate = |key: &str| format!("duplicate key `{key}` in `#[tool(...)]`; give each key once");
        assert_eq!(
            messages(&expansion),
            [
                "expected an integer literal for `max_result_chars` (the most characters of a result hosts should accept), such as `max_result_chars = 200_000`".to_owned(),
                duplicate("group"),
                duplicate("always_load"),
                duplicate("max_result_chars"),
                duplicate("max_result_chars"),
                format!("group `a b` contains the character ` ` (a space); {group}"),
                format!("group `billing.eu` contains the character `.`; {group}"),
                "`search_hint` is empty; write the words a search should match, such as `search_hint = \"refund money back chargeback\"`".to_owned(),
                format!("`max_result_chars = 0` leaves no room for a result; {accepted}"),
                format!("`max_result_chars = 600_000` is more than hosts accept; {accepted}"),
            ]
        );
        let columns: Vec<usize> = expansion.errors.iter().map(column).collect();
        assert_eq!(
            columns,
            [
                args.find("\"big\"").unwrap(),
                args.find("group = \"billing.eu\"").unwrap(),
                args.rfind("always_load").unwrap(),
                args.find("max_result_chars = 600_000").unwrap(),
                args.rfind("max_result_chars").unwrap(),
                args.find("\"a b\"").unwrap(),
                args.find("\"billing.eu\"").unwrap(),
                args.find("\"  \"").unwrap(),
                args.find('0').unwrap(),
                args.find("600_000").unwrap(),
            ]
        );
        assert!(expansion.code.to_string().contains("unreachable_stub"));
        assert_eq!(shape(&expansion.code), shape(&run("always_load", ADD).code));
    }

    #[test]
    fn max_result_chars_is_a_usize_from_one_to_what_hosts_accept() {
        let accepted = "write 1 to 500_000 (characters)";
        for (args, message) in [
            ("max_result_chars = 1", None),
            ("max_result_chars = 500_000usize", None),
            (
                "max_result_chars = 500_001",
                Some(format!("`max_result_chars = 500_001` is more than hosts accept; {accepted}")),
            ),
            (
                "max_result_chars = 99999999999999999999999",
                Some(format!(
                    "`max_result_chars = 99999999999999999999999` is more than hosts accept; {accepted}"
                )),
            ),
            (
                "max_result_chars = -5",
                Some(format!("`max_result_chars = -5` is negative; {accepted}")),
            ),
            (
                "max_result_chars = 2000u32",
                Some(
                    "`max_result_chars` is a `usize` of characters; write it without a suffix or with `usize`"
                        .to_owned(),
                ),
            ),
            (
                "max_result_chars = 2.5",
                Some("expected an integer literal for `max_result_chars` (the most characters of a result hosts should accept), such as `max_result_chars = 200_000`".to_owned()),
            ),
        ] {
            let expansion = run(args, ADD);
            assert_eq!(messages(&expansion), Vec::from_iter(message), "{args}");
        }
    }

    #[test]
    fn a_meta_entry_that_repeats_a_hint_is_refused_at_its_key() {
        let args = r#"search_hint = "refund", always_load = false, meta("anthropic/searchHint" = "x", "anthropic/alwaysLoad" = true, "anthropic/maxResultSizeChars" = 10)"#;
        let expansion = run(args, ADD);
        assert_eq!(
            messages(&expansion),
            [
                "`anthropic/searchHint` in `meta(...)` is what `search_hint` sends; give it once, with `search_hint`",
                "`anthropic/alwaysLoad` in `meta(...)` is what `always_load` sends; give it once, with `always_load`",
            ]
        );
        assert_eq!(
            column(&expansion.errors[0]),
            args.find("\"anthropic/searchHint\"").unwrap()
        );
        // Without the attribute's key, the entry is the user's own `_meta`.
        assert!(
            run(r#"meta("anthropic/searchHint" = "x")"#, ADD)
                .errors
                .is_empty()
        );
    }

    #[test]
    fn the_hints_for_hosts_are_a_tools_keys() {
        for key in [
            "group = \"billing\"",
            "search_hint = \"x\"",
            "always_load",
            "max_result_chars = 10",
        ] {
            let name = key.split(' ').next().unwrap();
            let prompt = run_prompt(key, "/// Greets.\nfn greet() -> String { String::new() }");
            assert_eq!(
                messages(&prompt),
                [format!(
                    "`{name}` is a tool key; `#[prompt(...)]` accepts `name`, `title`, `description`, `icons`, `meta`"
                )]
            );
            let resource = run_resource(
                &format!(r#"uri = "docs://readme", {key}"#),
                "/// The README.\nfn readme() -> String { String::new() }",
            );
            assert_eq!(
                messages(&resource),
                [format!(
                    "`{name}` is a tool key; `#[resource(...)]` accepts `uri`, `name`, `title`, `description`, `mime_type`, `size`, `annotations`, `icons`, `meta`, `cache`, `app`"
                )]
            );
        }
    }

    #[test]
    fn an_unknown_task_support_is_quoted_as_written() {
        let args = r#"task = "Required", task = " required""#;
        let expansion = run(args, ADD);
        assert_eq!(
            messages(&expansion),
            [
                "duplicate key `task` in `#[tool(...)]`; give each key once",
                "unknown task support `Required`; expected `optional`, `required` or `forbidden`",
                "unknown task support ` required`; expected `optional`, `required` or `forbidden`",
            ]
        );
        assert_eq!(column(&expansion.errors[1]), args.find("\"Required\"").unwrap());
    }

    #[test]
    fn task_on_a_prompt_or_a_resource_is_a_tools_key() {
        let prompt = run_prompt("task", "/// Greets.\nfn greet() -> String { String::new() }");
        assert_eq!(
            messages(&prompt),
            [
                "`task` is a tool key; `#[prompt(...)]` accepts `name`, `title`, `description`, `icons`, `meta`"
            ]
        );
        let resource = run_resource(
            r#"uri = "docs://readme", task = "required""#,
            "/// The README.\nfn readme() -> String { String::new() }",
        );
        assert_eq!(
            messages(&resource),
            [
                "`task` is a tool key; `#[resource(...)]` accepts `uri`, `name`, `title`, `description`, `mime_type`, `size`, `annotations`, `icons`, `meta`, `cache`, `app`"
            ]
        );
    }

    #[test]
    fn a_meta_key_is_the_same_written_as_a_name_or_a_string() {
        let args = r#"meta(cost = 1, "cost" = 2, "com.example/a" = 1, "com.example/a" = 2)"#;
        let expansion = run(args, ADD);
        assert_eq!(
            messages(&expansion),
            [
                "duplicate key `cost` in `meta(...)`; give each key once",
                "duplicate key `com.example/a` in `meta(...)`; give each key once",
            ]
        );
        assert_eq!(column(&expansion.errors[0]), args.find("\"cost\"").unwrap());
        assert_eq!(
            column(&expansion.errors[1]),
            args.rfind("\"com.example/a\"").unwrap()
        );
    }

    #[test]
    fn a_duplicate_default_is_reported_at_the_second() {
        let item = "/// Adds.\nfn add(#[default(1)] #[default(2)] a: i64) -> i64 { a }";
        let expansion = run("", item);
        assert_eq!(
            messages(&expansion),
            ["duplicate `#[default(..)]` on `a`; give one default"]
        );
        let line = item.lines().nth(1).unwrap();
        assert_eq!(column(&expansion.errors[0]), line.rfind("#[default").unwrap());
    }

    #[test]
    fn a_header_reaches_the_builder_after_its_param_with_its_type_checked() {
        let item = r#"
            /// Today's forecast.
            fn forecast(#[header("Region")] region: String, days: Option<u8>) -> String { region }
        "#;
        let expansion = run("", item);
        assert!(expansion.errors.is_empty(), "{:?}", messages(&expansion));
        let code = expansion.code.to_string();
        for expected in [
            r#". param ("region" , :: core :: option :: Option :: None , __mcp_param_0) . header ("Region")"#,
            r#"let () = < String as :: mcp_toolkit :: tool :: HeaderArgument > :: IS ;"#,
        ] {
            assert!(code.contains(expected), "missing `{expected}` in {code}");
        }
        // Only the marked parameter is checked and mirrored; the user's fn loses the attribute.
        assert_eq!(code.matches("HeaderArgument").count(), 1, "{code}");
        assert_eq!(code.matches(". header (").count(), 1, "{code}");
        assert!(
            !user_fn(&expansion.code).contains("header"),
            "{}",
            user_fn(&expansion.code)
        );
    }

    #[test]
    fn every_header_mistake_is_reported_at_its_token() {
        let item = r#"
            /// Copies.
            fn copy(
                #[header("A B")] a: String,
                #[header("Region")] b: String,
                #[header("REGION")] c: String,
                #[header] d: String,
                #[header("E")] #[header("F")] e: String,
            ) -> String { a }
        "#;
        let expansion = run("", item);
        assert_eq!(
            messages(&expansion),
            [
                "header name `A B` contains the character ` ` (a space); a header name is an HTTP token of ASCII letters, digits and ``!#$%&'*+-.^_`|~``",
                "header name `REGION` is already the header of `b` (`Region`): header names are compared ignoring case, so both would be sent as `Mcp-Param-Region`; give each argument its own",
                "expected `#[header(\"Name\")]`: one string literal, the name the argument is sent under as the header `Mcp-Param-Name`",
                "duplicate `#[header(..)]` on `e`; an argument is sent as one header",
            ]
        );
        let line = item.lines().find(|line| line.contains("\"A B\"")).unwrap();
        assert_eq!(column(&expansion.errors[0]), line.find("\"A B\"").unwrap());
        let line = item.lines().find(|line| line.contains("\"REGION\"")).unwrap();
        assert_eq!(column(&expansion.errors[1]), line.find("\"REGION\"").unwrap());
    }

    #[test]
    fn icon_checks_run_on_every_icon() {
        let args = r#"icons(icon(mime_type = "image/png"), icon(src = "a", theme = "dim"))"#;
        let expansion = run(args, ADD);
        assert_eq!(
            messages(&expansion),
            [
                "an icon needs a source: `icon(src = \"https://...\")`",
                "unknown icon theme; expected `\"light\"` or `\"dark\"`",
            ]
        );
        assert_eq!(column(&expansion.errors[0]), args.find("icon(").unwrap());
        assert_eq!(column(&expansion.errors[1]), args.find("\"dim\"").unwrap());
    }

    /// The error output is the normal output with a stub for a constructor: same items, the
    /// user's fn unchanged, and the type checks still there.
    #[test]
    fn the_error_output_has_the_normal_shape() {
        let valid = run("", ADD);
        let broken = run(r#"colour = "red""#, ADD);
        assert_eq!(messages(&broken).len(), 1);
        assert_eq!(shape(&broken.code), shape(&valid.code));
        assert_eq!(user_fn(&broken.code), user_fn(&valid.code));
        let code = broken.code.to_string();
        assert!(
            code.contains("let _ = (__mcp_param_0 , __mcp_param_1 , __mcp_ret ,) ; :: mcp_toolkit :: __private :: unreachable_stub ()"),
            "{code}"
        );
        assert!(!code.contains("ToolBuilder"), "{code}");
        for check in [
            "let __mcp_param_0 = :: mcp_toolkit :: tool :: FromArgument :: parameter ((&& & :: mcp_toolkit :: __private :: Slot :: < i64 > :: new ()) . __mcp_plan ()) ;",
            "let __mcp_param_1 = :: mcp_toolkit :: tool :: FromArgument :: parameter ((&& & :: mcp_toolkit :: __private :: Slot :: < i64 > :: new ()) . __mcp_plan ()) . with_default",
            "let __mcp_ret = :: mcp_toolkit :: __private :: Ret :: new (< i64 as :: mcp_toolkit :: IntoCallToolResult > :: into_call_tool_result ,",
        ] {
            assert!(code.contains(check), "missing `{check}` in\n{code}");
        }
        // Both constructors start with the same checks, token for token.
        let constructor = &code[code.find("fn tool").unwrap()..code.find("let _ = (").unwrap()];
        assert!(
            valid.code.to_string().contains(constructor),
            "the valid constructor does not start with the checks of the error one:\n{constructor}"
        );
    }

    #[test]
    fn a_method_keeps_its_shape_with_and_without_mistakes() {
        let method = |receiver: &str| {
            format!("/// Counts.\npub fn count(&{receiver} self, step: u64) -> u64 {{ step }}")
        };
        let valid = run("", &method(""));
        assert!(valid.errors.is_empty(), "{:?}", messages(&valid));
        assert_eq!(shape(&valid.code), ["fn count", "fn __mcp_tool_count"]);
        assert!(valid.code.to_string().contains(". build_with ("));

        let broken = run("", &method("mut"));
        assert_eq!(
            messages(&broken),
            [
                "a tool method takes `&self`, not `&mut self`: calls run concurrently, so keep what changes behind a `Mutex` or an atomic"
            ]
        );
        assert_eq!(shape(&broken.code), shape(&valid.code));
        assert_eq!(
            column(&broken.errors[0]),
            method("mut").lines().nth(1).unwrap().find("&mut").unwrap()
        );
    }

    #[test]
    fn types_that_cannot_stand_alone_get_no_check() {
        let expansion = run(
            "",
            "/// Echoes.\nfn echo<T>(value: T, text: &str, other: impl Sized, n: u8) -> impl Sized { n }",
        );
        assert_eq!(
            messages(&expansion),
            [
                "a tool fn cannot be generic: its input schema is built from concrete parameter types; use concrete types",
                "a tool parameter must own its value, because arguments are decoded from the request; use `String`",
                "a tool parameter cannot be `impl Trait`: its schema is built from a concrete type",
                "a tool fn cannot return `impl Trait`: the type decides the output schema and the conversion; name the type",
            ]
        );
        let code = expansion.code.to_string();
        assert!(
            code.contains("let __mcp_param_3 = :: mcp_toolkit :: tool :: FromArgument :: parameter ((&& & :: mcp_toolkit :: __private :: Slot :: < u8 >"),
            "{code}"
        );
        for absent in ["__mcp_param_0", "__mcp_param_1", "__mcp_param_2", "__mcp_ret"] {
            assert!(!code.contains(absent), "`{absent}` in {code}");
        }
    }

    #[test]
    fn every_mistake_arrives_at_once() {
        let expansion = run(
            r#"name = "bad name!", colour = "red", task = "always", annotations(title = "a", title = "b")"#,
            "fn measure((x, y): (f64, f64), label: &str) -> f64 { x + y }",
        );
        assert_eq!(
            messages(&expansion),
            [
                "unknown key `colour`; expected one of `name`, `title`, `description`, `annotations`, `icons`, `meta`, `scopes`, `task`, `result_budget`, `group`, `search_hint`, `always_load`, `max_result_chars`, `app`, `visibility`",
                "unknown task support `always`; expected `optional`, `required` or `forbidden`",
                "duplicate key `title` in `annotations(...)`; give each key once",
                "tool name `bad name!` contains the characters ` ` (a space) and `!`; a name may only contain `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`",
                "tool `bad name!` has no description; models choose tools by it\nhelp: add a doc comment above the fn (`/// Says what the tool does.`) or `#[tool(description = \"...\")]`",
                "a tool parameter must be a plain name such as `text: String`, because the name is the argument's name; destructure it in the body",
                "a tool parameter must own its value, because arguments are decoded from the request; use `String`",
            ]
        );
        assert_eq!(user_fn(&expansion.code), {
            let item: syn::ItemFn =
                syn::parse_str("fn measure((x, y): (f64, f64), label: &str) -> f64 { x + y }").unwrap();
            item.to_token_stream().to_string()
        });
    }

    #[test]
    fn a_malformed_description_is_not_also_missing() {
        let expansion = run("description = 3", "fn add(a: i64) -> i64 { a }");
        assert_eq!(
            messages(&expansion),
            ["expected a string literal for `description`, such as `description = \"...\"`"]
        );
    }

    #[test]
    fn not_a_fn_is_kept_as_written() {
        let item = "struct Calculator { precision: u8 }";
        let expansion = run("", item);
        assert_eq!(
            messages(&expansion),
            [
                "`#[tool]` goes on a fn, not on a struct: write `#[tool] async fn name(arg: Type) -> Output { ... }`"
            ]
        );
        assert_eq!(
            expansion.code.to_string(),
            TokenStream::from_str(item).unwrap().to_string()
        );
    }

    /// Runs `#[prompt(args)] item` from source text.
    fn run_prompt(args: &str, item: &str) -> Expansion {
        prompt(
            TokenStream::from_str(args).expect("args lex"),
            TokenStream::from_str(item).expect("item lexes"),
        )
    }

    const REVIEW: &str = r#"
        /// Asks the model to review code.
        fn review_code(
            /// The code to review
            code: String,
            #[default(3)]
            depth: u8,
            cx: Context,
        ) -> String {
            code
        }
    "#;

    #[test]
    fn a_valid_fn_expands_to_its_prompt() {
        let expansion = run_prompt(
            r#"title = "Code review", meta(cost = 3), icons("https://x/a.png")"#,
            REVIEW,
        );
        assert!(expansion.errors.is_empty(), "{:?}", messages(&expansion));
        let code = expansion.code.to_string();
        for expected in [
            r#"const NAME : & 'static str = "review_code" ;"#,
            r#"PromptBuilder :: new ("review_code" , :: core :: option :: Option :: Some ("Asks the model to review code."))"#,
            r#". title ("Code review")"#,
            r#". meta ("cost" , & 3)"#,
            r#". icon (:: mcp_toolkit :: tool :: Icon :: new ("https://x/a.png"))"#,
            r#". param ("code" , :: core :: option :: Option :: Some ("The code to review") , __mcp_param_0)"#,
            r#". param ("depth" , :: core :: option :: Option :: None , __mcp_param_1)"#,
            r#"Slot :: < u8 > :: new ()) . __mcp_plan ()) . with_default"#,
            r#"Slot :: < Context > :: new ()) . __mcp_plan ())"#,
            r#":: mcp_toolkit :: __private :: Converter :: new (< String as :: mcp_toolkit :: prompt :: IntoPromptResult > :: into_prompt_result ,)"#,
            r#"-> :: mcp_toolkit :: __private :: PromptInvocation"#,
            r#":: mcp_toolkit :: __private :: PromptArguments :: parse (__raw , __NAMES)"#,
            r#"const __NAMES : & [& str] = & ["code" , "depth" , "cx"]"#,
            r#":: mcp_toolkit :: __private :: PromptInvocation :: now (move || { __ret . convert (review_code (__mcp_arg_0 , __mcp_arg_1 , __mcp_arg_2)) })"#,
            r#". build ("#,
        ] {
            assert!(code.contains(expected), "missing `{expected}` in\n{code}");
        }
        // What only tools have.
        for absent in [
            ". output (",
            "annotations",
            "asks_form",
            "ToolBuilder",
            "Invocation :: blocking",
            "unreachable_stub",
        ] {
            assert!(!code.contains(absent), "`{absent}` in\n{code}");
        }
        assert_eq!(
            shape(&expansion.code),
            [
                "fn review_code",
                "struct review_code",
                "impl :: mcp_toolkit :: prompt :: PromptFn for review_code"
            ]
        );
    }

    #[test]
    fn an_async_prompt_returns_its_future() {
        let expansion = run_prompt("", "/// Greets.\nasync fn greet() -> &'static str { \"hi\" }");
        assert!(expansion.errors.is_empty(), "{:?}", messages(&expansion));
        let code = expansion.code.to_string();
        assert!(
            code.contains(":: mcp_toolkit :: __private :: PromptInvocation :: future (async move { __ret . convert (greet () . await) })"),
            "{code}"
        );
    }

    /// A prompt says it is a prompt in every message, and its attribute is `#[prompt(...)]`.
    #[test]
    fn every_prompt_mistake_arrives_at_once_in_the_prompts_words() {
        let args = r#"name = "bad name!", annotations(read_only), title = "a", title = "b""#;
        let item = "fn review<T>((a, b): (T, T), text: &str, other: impl Sized) -> impl Sized { text }";
        let expansion = run_prompt(args, item);
        assert_eq!(
            messages(&expansion),
            [
                "`annotations` is a tool and resource key; `#[prompt(...)]` accepts `name`, `title`, `description`, `icons`, `meta`",
                "duplicate key `title` in `#[prompt(...)]`; give each key once",
                "prompt name `bad name!` contains the characters ` ` (a space) and `!`; a name may only contain `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`",
                "a prompt fn cannot be generic: its arguments are parsed into concrete parameter types; use concrete types",
                "prompt `bad name!` has no description; clients show it to the people choosing a prompt\nhelp: add a doc comment above the fn (`/// Says what the prompt is for.`) or `#[prompt(description = \"...\")]`",
                "a prompt parameter must be a plain name such as `text: String`, because the name is the argument's name; destructure it in the body",
                "a prompt parameter must own its value, because arguments are decoded from the request; use `String`",
                "a prompt parameter cannot be `impl Trait`: its argument is parsed into a concrete type",
                "a prompt fn cannot return `impl Trait`: the type decides how it converts into the prompt's messages; name the type",
            ]
        );
        assert_eq!(column(&expansion.errors[0]), args.find("annotations").unwrap());
        assert_eq!(column(&expansion.errors[1]), args.rfind("title").unwrap());
        assert_eq!(column(&expansion.errors[2]), args.find("\"bad").unwrap());
        let code = expansion.code.to_string();
        assert!(
            code.contains(":: mcp_toolkit :: __private :: unreachable_stub ()"),
            "{code}"
        );
        assert!(!code.contains("PromptBuilder"), "{code}");
    }

    #[test]
    fn a_prompt_named_by_its_fn_is_reported_at_the_fn() {
        let item = "/// Greets.\nfn café() -> String { String::new() }";
        let expansion = run_prompt("", item);
        assert_eq!(
            messages(&expansion),
            [
                "prompt name `café` contains the character `é` (U+00E9, not ASCII); a name may only contain `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`\nhelp: keep the fn name and give the prompt another: `#[prompt(name = \"...\")]`"
            ]
        );
    }

    #[test]
    fn an_empty_prompt_description_says_who_reads_it() {
        let expansion = run_prompt(r#"description = " ""#, "fn greet() -> String { String::new() }");
        assert_eq!(
            messages(&expansion),
            ["the description is empty; say what the prompt is for, for the people who will choose it"]
        );
    }

    /// Prompts are free fns: any receiver is refused, at the receiver, and the output keeps
    /// a method's shape so the impl block still compiles.
    #[test]
    fn a_prompt_on_a_method_is_refused_at_its_receiver() {
        for receiver in ["&self", "&mut self", "self", "self: Arc<Self>"] {
            let item = format!("/// Greets.\nfn greet({receiver}, name: String) -> String {{ name }}");
            let expansion = run_prompt("", &item);
            assert_eq!(
                messages(&expansion),
                [
                    "a prompt fn cannot take `self`: prompts are free fns, listed by name in `prompts![...]`; move it out of the impl block and take what it needs as a `State<T>` parameter"
                ],
                "{receiver}"
            );
            let line = item.lines().nth(1).unwrap();
            assert_eq!(
                column(&expansion.errors[0]),
                line.find(receiver).unwrap(),
                "{receiver}"
            );
            assert_eq!(shape(&expansion.code), ["fn greet", "fn __mcp_prompt_greet"]);
            let code = expansion.code.to_string();
            assert!(code.contains("-> :: mcp_toolkit :: prompt :: Prompt"), "{code}");
            assert!(code.contains("unreachable_stub ()"), "{code}");
        }
    }

    #[test]
    fn a_prompt_not_on_a_fn_is_kept_as_written() {
        let item = "struct Review { depth: u8 }";
        let expansion = run_prompt("", item);
        assert_eq!(
            messages(&expansion),
            [
                "`#[prompt]` goes on a fn, not on a struct: write `#[prompt] fn name(arg: String) -> String { ... }`"
            ]
        );
        assert_eq!(
            expansion.code.to_string(),
            TokenStream::from_str(item).unwrap().to_string()
        );
    }

    const PLAN: &str = r#"
        /// Plans a trip.
        fn plan_trip(
            #[complete(cities)]
            city: String,
            #[default("summer".to_owned())]
            #[complete(catalog::seasons)]
            season: String,
            days: u8,
        ) -> String {
            city
        }
    "#;

    /// `#[complete(..)]` is taken off the fn; its path goes through `completer` at the
    /// path, and `.complete(..)` follows the `.param(..)` of its argument.
    #[test]
    fn a_completed_argument_gets_its_fn_after_its_param() {
        let expansion = run_prompt("", PLAN);
        assert!(expansion.errors.is_empty(), "{:?}", messages(&expansion));
        let code = expansion.code.to_string();
        for expected in [
            "let __mcp_complete_0 = :: mcp_toolkit :: completion :: Complete :: erase (cities) ;",
            "let __mcp_complete_1 = :: mcp_toolkit :: completion :: Complete :: erase (catalog :: seasons) ;",
            ":: mcp_toolkit :: completion :: Completable :: check ((&& & :: mcp_toolkit :: __private :: Slot :: < String > :: new ()) . __mcp_plan ()) ;",
            r#". param ("city" , :: core :: option :: Option :: None , __mcp_param_0) . complete ("city" , __mcp_complete_0)"#,
            r#". param ("season" , :: core :: option :: Option :: None , __mcp_param_1) . complete ("season" , __mcp_complete_1)"#,
            r#". param ("days" , :: core :: option :: Option :: None , __mcp_param_2) . build"#,
        ] {
            assert!(code.contains(expected), "missing `{expected}` in\n{code}");
        }
        assert!(!user_fn(&expansion.code).contains("complete"), "{code}");
    }

    /// With other mistakes, the completion fns are still checked, and read by the stub.
    #[test]
    fn completion_fns_are_checked_in_the_error_output() {
        let expansion = run_prompt("colour = 1", PLAN);
        assert_eq!(messages(&expansion).len(), 1);
        let code = expansion.code.to_string();
        assert!(code.contains("erase (cities) ;"), "{code}");
        assert!(
            code.contains("let _ = (__mcp_param_0 , __mcp_param_1 , __mcp_param_2 , __mcp_complete_0 , __mcp_complete_1 , __mcp_ret ,)"),
            "{code}"
        );
    }

    #[test]
    fn every_completion_mistake_arrives_at_once_at_its_attribute() {
        let item = "/// Plans.\nfn plan(\n#[complete] a: String,\n#[complete(x, y)] b: String,\n#[complete(\"x\")] c: String,\n#[complete(x)] #[complete(y)] d: String,\n) -> String { a }";
        let expansion = run_prompt("", item);
        let malformed = "expected `#[complete(path::to::fn)]`: one path to a completion fn, which takes injected values (`State<T>`, `Context`) and then `Partial`, and returns the candidates as `Vec<String>`";
        assert_eq!(
            messages(&expansion),
            [
                malformed,
                malformed,
                malformed,
                "duplicate `#[complete(..)]` on `d`; give one completion fn"
            ]
        );
        assert_eq!(
            expansion
                .errors
                .iter()
                .map(|e| e.span().start().line)
                .collect::<Vec<_>>(),
            [3, 4, 5, 6]
        );
        assert_eq!(column(&expansion.errors[3]), "#[complete(x)] ".len());
        // Only `d`'s first attribute names a fn; it is still checked.
        let code = expansion.code.to_string();
        assert!(
            code.contains("let __mcp_complete_3 = :: mcp_toolkit :: completion :: Complete :: erase (x) ;"),
            "{code}"
        );
        for absent in [
            "__mcp_complete_0",
            "__mcp_complete_1",
            "__mcp_complete_2",
            "erase (y)",
        ] {
            assert!(!code.contains(absent), "`{absent}` in {code}");
        }
    }

    #[test]
    fn a_tool_has_no_completion() {
        let expansion = run(
            "",
            "/// Looks up.\nfn weather(#[complete(cities)] city: String, #[complete] day: u8) -> String { city }",
        );
        assert_eq!(
            messages(&expansion),
            [
                "`#[complete(..)]` is for prompt arguments and resource template variables; tools have no completion",
                "`#[complete(..)]` is for prompt arguments and resource template variables; tools have no completion",
            ]
        );
        let code = expansion.code.to_string();
        assert!(!code.contains("erase") && !code.contains("Completable"), "{code}");
        assert!(!user_fn(&expansion.code).contains("complete"), "{code}");
    }

    /// A tool and a prompt of one fn expand to the same checks: only the runtime items differ.
    #[test]
    fn a_tool_and_a_prompt_share_their_checks() {
        let tool = run("", REVIEW).code.to_string();
        let prompt = run_prompt("", REVIEW).code.to_string();
        let checks = |code: &str| {
            let start = code.find("# [allow (unused_imports)]").unwrap();
            code[start..code.find("let __mcp_ret").unwrap()].to_owned()
        };
        assert!(checks(&tool).contains("Slot :: < Context >"), "{tool}");
        assert_eq!(checks(&tool), checks(&prompt));
    }

    /// Runs `#[resource(args)] item` from source text.
    fn run_resource(args: &str, item: &str) -> Expansion {
        resource(
            TokenStream::from_str(args).expect("args lex"),
            TokenStream::from_str(item).expect("item lexes"),
        )
    }

    const PROFILE: &str = r#"
        /// A user's profile.
        async fn profile(
            /// The user
            user_id: u64,
            fields: Option<String>,
            cx: Context,
        ) -> Result<Json<Profile>, ToolError> {
            todo!()
        }
    "#;

    #[test]
    fn a_valid_fn_expands_to_its_resource() {
        let expansion = run_resource(
            r#"uri = "users://{user_id}/profile{?fields}", mime_type = "application/json", meta(cost = 3)"#,
            PROFILE,
        );
        assert!(expansion.errors.is_empty(), "{:?}", messages(&expansion));
        let code = expansion.code.to_string();
        for expected in [
            r#"const URI : & 'static str = "users://{user_id}/profile{?fields}" ;"#,
            r#"ResourceBuilder :: new ("users://{user_id}/profile{?fields}" , "profile" , :: core :: option :: Option :: Some ("A user's profile.")) . mime_type ("application/json") . title ("Profile")"#,
            r#". meta ("cost" , & 3)"#,
            r#". param ("user_id" , :: core :: option :: Option :: Some ("The user") , __mcp_param_0)"#,
            r#". param ("fields" , :: core :: option :: Option :: None , __mcp_param_1)"#,
            r#"Slot :: < Context > :: new ()) . __mcp_plan ())"#,
            r#":: mcp_toolkit :: __private :: Converter :: new (< Result < Json < Profile > , ToolError > as :: mcp_toolkit :: resource :: IntoReadResult > :: into_read_result ,)"#,
            r#"-> :: mcp_toolkit :: __private :: ResourceInvocation"#,
            r#":: mcp_toolkit :: __private :: ResourceArguments :: parse (__raw , __NAMES)"#,
            r#"const __NAMES : & [& str] = & ["user_id" , "fields" , "cx"]"#,
            r#":: mcp_toolkit :: __private :: ResourceInvocation :: future (async move { __ret . convert (profile (__mcp_arg_0 , __mcp_arg_1 , __mcp_arg_2) . await) })"#,
        ] {
            assert!(code.contains(expected), "missing `{expected}` in\n{code}");
        }
        // `cx` is no variable: its type must be injected, checked at its name; the variables
        // are not checked.
        assert!(
            code.contains("let () = < Context as :: mcp_toolkit :: resource :: Injected > :: IS ;"),
            "{code}"
        );
        assert_eq!(code.matches(":: resource :: Injected >").count(), 1, "{code}");
        for absent in ["annotations", "unreachable_stub", "erase"] {
            assert!(!code.contains(absent), "`{absent}` in\n{code}");
        }
        assert_eq!(
            shape(&expansion.code),
            [
                "fn profile",
                "struct profile",
                "impl :: mcp_toolkit :: resource :: ResourceFn for profile"
            ]
        );
    }

    #[test]
    fn a_sync_resource_reads_at_once() {
        let expansion = run_resource(
            r#"uri = "docs://readme""#,
            "/// The README.\nfn readme() -> String { String::new() }",
        );
        assert!(expansion.errors.is_empty(), "{:?}", messages(&expansion));
        let code = expansion.code.to_string();
        assert!(
            code.contains(":: mcp_toolkit :: __private :: ResourceInvocation :: now (move || { __ret . convert (readme ()) })"),
            "{code}"
        );
        assert!(!code.contains(". mime_type"), "{code}");
    }

    #[test]
    fn a_resources_size_annotations_and_cache_reach_its_builder() {
        let expansion = run_resource(
            r#"uri = "docs://readme", size = 1_024, annotations(audience = ["user", "assistant"], priority = 1, last_modified = "2025-01-12T15:00:58Z"), cache(ttl_ms = 60000, scope = "private")"#,
            "/// The README.\nfn readme() -> String { String::new() }",
        );
        assert!(expansion.errors.is_empty(), "{:?}", messages(&expansion));
        let code = expansion.code.to_string();
        for expected in [
            ". size (1024u64)",
            "< :: mcp_toolkit :: content :: Annotations as :: core :: default :: Default > :: default ()",
            "annotations . audience = :: core :: option :: Option :: Some (:: std :: vec :: Vec :: from ([:: mcp_toolkit :: content :: Role :: User , :: mcp_toolkit :: content :: Role :: Assistant])) ;",
            "annotations . priority = :: core :: option :: Option :: Some (1f64) ;",
            "annotations . last_modified = :: core :: option :: Option :: Some (:: std :: string :: String :: from (\"2025-01-12T15:00:58Z\")) ;",
            ". cache (60000u64 , :: mcp_toolkit :: resource :: CacheScope :: Private)",
        ] {
            assert!(code.contains(expected), "missing `{expected}` in\n{code}");
        }
        // A template may have annotations; what is not given is `None`; a cache hint
        // without a scope is public, without a time is 0.
        let expansion = run_resource(
            r#"uri = "notes://{id}", annotations(priority = 0.25), cache(scope = "public")"#,
            "/// A note.\nfn note(id: u64) -> String { id.to_string() }",
        );
        assert!(expansion.errors.is_empty(), "{:?}", messages(&expansion));
        let code = expansion.code.to_string();
        for expected in [
            "annotations . audience = :: core :: option :: Option :: None ; annotations . priority = :: core :: option :: Option :: Some (0.25f64) ; annotations . last_modified = :: core :: option :: Option :: None ;",
            ". cache (0u64 , :: mcp_toolkit :: resource :: CacheScope :: Public)",
        ] {
            assert!(code.contains(expected), "missing `{expected}` in\n{code}");
        }
        assert!(!code.contains(". size"), "{code}");
        // Empty annotations say nothing.
        let expansion = run_resource(
            r#"uri = "docs://a", annotations()"#,
            "/// A.\nfn a() -> String { String::new() }",
        );
        assert!(expansion.errors.is_empty(), "{:?}", messages(&expansion));
        assert!(!expansion.code.to_string().contains(". annotations"));
    }

    /// Every mistake in the new keys, each at its token, in one compile.
    #[test]
    fn every_resource_hint_mistake_arrives_at_once_at_its_token() {
        let args = r#"uri = "users://{id}", size = 10, annotations(audience = ["user", "model", "user"], priority = 1.5, last_modified = "2025-02-30T00:00:00Z", last_modified = "x"), cache(ttl_ms = 99999999999999999999, scope = "shared"), cache()"#;
        let expansion = run_resource(args, "/// A user.\nfn user(id: u64) -> String { id.to_string() }");
        assert_eq!(
            messages(&expansion),
            [
                "duplicate key `cache` in `#[resource(...)]`; give each key once",
                "duplicate key `last_modified` in `annotations(...)`; give each key once",
                "unknown role `\"model\"` in `audience`; expected `\"user\"` or `\"assistant\"`",
                "`\"user\"` is in `audience` twice; give each role once",
                "`priority = 1.5` is out of range; expected a number from 0 (least important) to 1 (most important)",
                "`last_modified` is not an RFC 3339 date-time such as `\"2025-01-12T15:00:58Z\"`: the day `30` is not from 01 to 28 (month 02 of 2025)",
                "`last_modified` is not an RFC 3339 date-time such as `\"2025-01-12T15:00:58Z\"`: expected 4 digits for the year",
                "`ttl_ms = 99999999999999999999` does not fit in a `u64`",
                "unknown cache scope `\"shared\"`; expected `\"public\"` (any client may share the read) or `\"private\"` (for the caller alone)",
                "`cache(...)` is empty; give `ttl_ms = 60000`, `scope = \"public\"` or `scope = \"private\"`, or both",
                "`size` is for a resource with a fixed URI; the resources of the template `users://{id}` differ, so their size is unknown",
            ]
        );
        let columns: Vec<usize> = expansion.errors.iter().map(column).collect();
        assert_eq!(
            columns,
            [
                args.rfind("cache").unwrap(),
                args.rfind("last_modified").unwrap(),
                args.find("\"model\"").unwrap(),
                args.rfind("\"user\"").unwrap(),
                args.find("1.5").unwrap(),
                args.find("\"2025-02-30").unwrap(),
                args.find("\"x\"").unwrap(),
                args.find("9999").unwrap(),
                args.find("\"shared\"").unwrap(),
                args.rfind("cache").unwrap(),
                args.find("size").unwrap(),
            ]
        );
        let code = expansion.code.to_string();
        assert!(code.contains("unreachable_stub"), "{code}");
        // Suffixes of other types, and an empty audience.
        let expansion = run_resource(
            r#"uri = "docs://a", size = 3i8, annotations(audience = [], priority = -0.5)"#,
            "/// A.\nfn a() -> String { String::new() }",
        );
        assert_eq!(
            messages(&expansion),
            [
                "`size` is a `u64`; write it without a suffix or with `u64`",
                "`audience` is empty; name `\"user\"`, `\"assistant\"` or both, or leave it out",
                "`priority = -0.5` is out of range; expected a number from 0 (least important) to 1 (most important)",
            ]
        );
    }

    /// A fixed URI: every parameter must be injected. Text and numbers never are, which the
    /// macro says itself, at the name, with the URI; another type's check is the compiler's.
    #[test]
    fn a_fixed_uri_checks_that_every_parameter_is_injected() {
        let item = "/// The README.\nfn readme(lang: String, page: std::primitive::u32, cx: Context, who: Who) -> String { lang }";
        let expansion = run_resource(r#"uri = "docs://readme""#, item);
        assert_eq!(
            messages(&expansion),
            [
                "`docs://readme` is a fixed URI, so its fn takes no arguments, and a `String` is not injected\nhelp: to read `lang` from the URI, make it a template such as `docs://readme/{lang}`; or take only injected parameters (`Context`, `State<T>`)",
                "`docs://readme` is a fixed URI, so its fn takes no arguments, and a `std::primitive::u32` is not injected\nhelp: to read `page` from the URI, make it a template such as `docs://readme/{page}`; or take only injected parameters (`Context`, `State<T>`)",
            ]
        );
        let line = item.lines().nth(1).unwrap();
        assert_eq!(column(&expansion.errors[0]), line.find("lang").unwrap());
        assert_eq!(column(&expansion.errors[1]), line.find("page").unwrap());
        let code = expansion.code.to_string();
        for injected in ["Context", "Who"] {
            let check = format!("let () = < {injected} as :: mcp_toolkit :: resource :: Injected > :: IS ;");
            assert!(code.contains(&check), "{code}");
        }
        assert_eq!(code.matches(":: resource :: Injected >").count(), 2, "{code}");
    }

    #[test]
    fn a_template_names_the_parameter_that_is_no_variable() {
        let item = "/// A user.\nfn user(id: String, lang: String) -> String { id }";
        let expansion = run_resource(r#"uri = "users://{id}""#, item);
        assert_eq!(
            messages(&expansion),
            [
                "`lang` is not a variable of `users://{id}`, and a `String` is not injected: a resource template's fn takes the variables of its URI and injected parameters (`Context`, `State<T>`, any `FromContext` type)\nhelp: add `{lang}` to the URI, or remove the parameter"
            ]
        );
        assert!(!expansion.code.to_string().contains(":: resource :: Injected"));
    }

    #[test]
    fn every_template_mistake_is_reported_at_its_text() {
        let args = r#"uri = "a://{x/{}{y""#;
        let expansion = run_resource(args, "/// A.\nfn a(x: String) -> String { x }");
        assert!(expansion.errors.len() >= 2, "{:?}", messages(&expansion));
        for error in &expansion.errors {
            let col = column(error);
            assert!(col > args.find('"').unwrap(), "{col}: {error}");
        }
        // No variable is compared with the parameters of a malformed template.
        assert!(!expansion.code.to_string().contains(":: resource :: Injected"));
        assert!(expansion.code.to_string().contains("unreachable_stub"));
    }

    #[test]
    fn every_variable_mistake_arrives_at_once_at_its_token() {
        let args = r#"uri = "users://{user_id}/{post}{?q,page}""#;
        let item = "/// Posts.\nfn posts(user_id: u64, q: String, #[default(1)] page: u32) -> String { q }";
        let expansion = run_resource(args, item);
        assert_eq!(
            messages(&expansion),
            [
                "the URI has a variable `post`, but the fn has no parameter `post`; its parameters are `user_id`, `q`, `page`\nhelp: add a parameter such as `post: String`, or remove `post` from the URI",
                "`q` is a query variable of the URI, which a client may leave out; make the parameter an `Option<_>` or give it a `#[default(..)]`",
            ]
        );
        assert_eq!(column(&expansion.errors[0]), args.find("post").unwrap());
        let line = item.lines().nth(1).unwrap();
        assert_eq!(column(&expansion.errors[1]), line.find("q: String").unwrap());
    }

    #[test]
    fn a_resource_needs_a_uri_and_a_description_and_no_tool_keys() {
        let expansion = run_resource(
            "annotations(read_only)",
            "fn readme() -> String { String::new() }",
        );
        assert_eq!(
            messages(&expansion),
            [
                "`read_only` is a tool annotation; a resource's `annotations(...)` accepts `audience`, `priority`, `last_modified`",
                "a resource needs a URI: `#[resource(uri = \"docs://readme\")]`, or a template such as `#[resource(uri = \"users://{user_id}/profile\")]` whose variables are the fn's parameters",
                "resource `readme` has no description; clients and models choose resources by it\nhelp: add a doc comment above the fn (`/// Says what the resource holds.`) or `#[resource(description = \"...\")]`",
            ]
        );
        let malformed = run_resource(
            "uri = 3, uri = \"a://b\"",
            "/// R.\nfn readme() -> String { String::new() }",
        );
        assert_eq!(
            messages(&malformed),
            [
                "expected a string literal for `uri`, such as `uri = \"...\"`",
                "duplicate key `uri` in `#[resource(...)]`; give each key once",
            ]
        );
    }

    #[test]
    fn a_resource_on_a_method_is_refused_at_its_receiver() {
        let item = "/// R.\nfn readme(&self) -> String { String::new() }";
        let expansion = run_resource(r#"uri = "docs://readme""#, item);
        assert_eq!(
            messages(&expansion),
            [
                "a resource fn cannot take `self`: resources are free fns, listed by name in `resources![...]`; move it out of the impl block and take what it needs as a `State<T>` parameter"
            ]
        );
        assert_eq!(shape(&expansion.code), ["fn readme", "fn __mcp_resource_readme"]);
        assert!(
            expansion
                .code
                .to_string()
                .contains("-> :: mcp_toolkit :: resource :: Resource")
        );
    }

    /// A template's variable completes as a prompt's argument does: its path coerced to a
    /// `completer` at the path, the injected probe at the attribute, `.complete(..)` after
    /// its `.param(..)`.
    #[test]
    fn a_template_variable_gets_its_fn_after_its_param() {
        let expansion = run_resource(
            r#"uri = "repo://{owner}/{repo}{?branch}""#,
            "/// R.\nfn r(owner: String, #[complete(repos::all)] repo: String, #[complete(branches)] branch: Option<String>, cx: Context) -> String { repo }",
        );
        assert!(expansion.errors.is_empty(), "{:?}", messages(&expansion));
        let code = expansion.code.to_string();
        for expected in [
            "let __mcp_complete_1 = :: mcp_toolkit :: completion :: Complete :: erase (repos :: all) ;",
            "let __mcp_complete_2 = :: mcp_toolkit :: completion :: Complete :: erase (branches) ;",
            ":: mcp_toolkit :: completion :: Completable :: check ((&& & :: mcp_toolkit :: __private :: Slot :: < String > :: new ()) . __mcp_plan ()) ;",
            r#". param ("owner" , :: core :: option :: Option :: None , __mcp_param_0) . param ("repo""#,
            r#". param ("repo" , :: core :: option :: Option :: None , __mcp_param_1) . complete ("repo" , __mcp_complete_1)"#,
            r#". param ("branch" , :: core :: option :: Option :: None , __mcp_param_2) . complete ("branch" , __mcp_complete_2)"#,
            r#". param ("cx" , :: core :: option :: Option :: None , __mcp_param_3) . build"#,
        ] {
            assert!(code.contains(expected), "missing `{expected}` in\n{code}");
        }
        assert!(!user_fn(&expansion.code).contains("complete"), "{code}");
    }

    /// Only a template's variables complete: on another parameter, or on a fixed URI's, the
    /// attribute is refused where it is, saying what the variables are, and nothing of it
    /// is checked further. The malformed and duplicate forms are refused as for prompts.
    #[test]
    fn only_a_template_variable_completes() {
        let item = "/// R.\nfn r(\n#[complete(xs)] x: String,\n#[complete(ys)] cx: Context,\n#[complete] y: String,\n#[complete(a)] #[complete(b)] z: String,\n) -> String { x }";
        let expansion = run_resource(r#"uri = "a://{x}/{y}/{z}""#, item);
        assert_eq!(
            messages(&expansion),
            [
                "`#[complete(..)]` is for the variables of the URI, and `cx` is not one; the variables of `a://{x}/{y}/{z}` are `x`, `y`, `z`",
                "expected `#[complete(path::to::fn)]`: one path to a completion fn, which takes injected values (`State<T>`, `Context`) and then `Partial`, and returns the candidates as `Vec<String>`",
                "duplicate `#[complete(..)]` on `z`; give one completion fn",
            ]
        );
        assert_eq!(
            expansion
                .errors
                .iter()
                .map(|e| e.span().start().line)
                .collect::<Vec<_>>(),
            [4, 5, 6]
        );
        let code = expansion.code.to_string();
        assert!(code.contains("erase (xs) ;"), "{code}");
        assert!(code.contains("erase (a) ;"), "{code}");
        assert!(!code.contains("erase (ys)"), "{code}");

        let fixed = run_resource(
            r#"uri = "docs://readme""#,
            "/// R.\nfn r(#[complete(xs)] cx: Context) -> String { String::new() }",
        );
        assert_eq!(
            messages(&fixed),
            [
                "`#[complete(..)]` is for the variables of a resource template; `docs://readme` is a fixed URI, without variables to complete"
            ]
        );
        assert!(!fixed.code.to_string().contains("erase"));

        // A malformed URI is reported once; its parameters' completions are not judged.
        let malformed = run_resource(
            r#"uri = "a://{x""#,
            "/// R.\nfn r(#[complete(xs)] x: String) -> String { x }",
        );
        assert_eq!(messages(&malformed).len(), 1, "{:?}", messages(&malformed));
        assert!(!messages(&malformed)[0].contains("complete"));
    }

    /// `tools![instance => a]`: the builder of `a`, or, when `a` has no `#[tool]`, the
    /// fallback that yields nothing marked `a`, which `ToolFn::method_tool` refuses at `a`.
    #[test]
    fn a_listed_method_goes_through_tool_fn() {
        let code = crate::expand::method_tools(quote!(instance => count)).to_string();
        for expected in [
            "struct count { }",
            "fn __mcp_tool_count (& self) -> :: mcp_toolkit :: __private :: MethodTool < count >",
            "impl < T : ? :: core :: marker :: Sized > Unmarked for T { }",
            "let built = instance . __mcp_tool_count () ; :: mcp_toolkit :: tool :: ToolFn :: method_tool (built)",
        ] {
            assert!(code.contains(expected), "missing `{expected}` in\n{code}");
        }
        let method = run("", "/// Counts.\npub fn count(&self) -> u64 { 1 }")
            .code
            .to_string();
        assert!(
            method.contains("-> :: mcp_toolkit :: __private :: MethodTool < :: mcp_toolkit :: __private :: Built > { :: mcp_toolkit :: __private :: MethodTool :: built ("),
            "{method}"
        );
    }

    #[test]
    fn errors_come_first_in_the_tokens() {
        let tokens = tool(
            quote!(colour = 1),
            quote!(
                /// Adds.
                fn add(a: i64) -> i64 {
                    a
                }
            ),
        )
        .into_tokens()
        .to_string();
        assert!(tokens.starts_with(":: core :: compile_error !"), "{tokens}");
        assert!(tokens.contains("fn add (a : i64) -> i64 { a }"), "{tokens}");
    }

    const BOARD: &str = r#"
        /// The board.
        fn board() -> &'static str {
            "<!DOCTYPE html>"
        }
    "#;

    #[test]
    fn a_view_reaches_the_builder_and_is_a_view_fn() {
        let args = r#"uri = "ui://notes/board", app(csp(connect_domains = ["https://a.example.com"], frame_domains = ["https://v.example.com"]), permissions(camera, clipboard_write), domain = "d.example.com", prefers_border)"#;
        let expansion = run_resource(args, BOARD);
        assert!(expansion.errors.is_empty(), "{:?}", messages(&expansion));
        let code = expansion.code.to_string();
        for part in [
            r#". connect_domains (["https://a.example.com"])"#,
            r#". frame_domains (["https://v.example.com"])"#,
            ". permission (:: mcp_toolkit :: app :: Permission :: Camera)",
            ". permission (:: mcp_toolkit :: app :: Permission :: ClipboardWrite)",
            r#". domain ("d.example.com")"#,
            ". prefers_border (true)",
            r#"impl :: mcp_toolkit :: app :: ViewFn for board { const URI : & 'static str = "ui://notes/board" ; }"#,
            "< & 'static str as :: mcp_toolkit :: app :: ViewText > :: IS",
        ] {
            assert!(code.contains(part), "missing `{part}` in\n{code}");
        }
        // Without `app`, neither the settings nor the view fn.
        let plain = run_resource(r#"uri = "ui://notes/board""#, BOARD)
            .code
            .to_string();
        assert!(!plain.contains("ViewFn") && !plain.contains(". app ("), "{plain}");
    }

    #[test]
    fn a_tools_link_reaches_the_builder_by_uri_or_by_the_views_fn() {
        let by_uri = run(r#"app = "ui://notes/board", visibility = ["model", "app"]"#, ADD);
        assert!(by_uri.errors.is_empty(), "{:?}", messages(&by_uri));
        let code = by_uri.code.to_string();
        let link = r#". app ("ui://notes/board") . app_visibility (& [:: mcp_toolkit :: app :: Audience :: Model , :: mcp_toolkit :: app :: Audience :: App])"#;
        assert!(code.contains(link), "missing `{link}` in\n{code}");
        let by_fn = run("app = views::board", ADD).code.to_string();
        let link = ". app (< views :: board as :: mcp_toolkit :: app :: ViewFn > :: URI)";
        assert!(by_fn.contains(link), "missing `{link}` in\n{by_fn}");
    }

    #[test]
    fn every_app_mistake_is_reported_at_once() {
        let args = r#"uri = "notes://board", mime_type = "text/html", app(csp(connect_domains = ["https://a/b"]), permissions(camera, camera, webcam), domain = " ")"#;
        let expansion = run_resource(args, BOARD);
        assert_eq!(messages(&expansion).len(), 6, "{:?}", messages(&expansion));
        assert!(expansion.code.to_string().contains("unreachable_stub"));
        let tool = run(
            r#"app = "ui://x/{id}", visibility = ["anyone"], visibility = "app""#,
            ADD,
        );
        assert_eq!(
            messages(&tool),
            [
                "duplicate key `visibility` in `#[tool(...)]`; give each key once",
                "`app = \"ui://x/{id}\"`: a view's URI is fixed, not a template: hosts read it before any call, so it has no `{..}` variables",
                "unknown audience `anyone`; `visibility` takes `\"model\"` (the host lists the tool to its model), `\"app\"` (the server's views may call it) or both, as `[\"model\", \"app\"]`",
            ]
        );
    }
}
