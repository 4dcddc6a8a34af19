//! The forms a tool's body asks for: every `elicit::<T>` in it, so the server can check
//! when it starts that each `T` is a form the protocol can carry.

use proc_macro2::{TokenStream, TokenTree};
use syn::Type;

/// The types named by `elicit::<T>` (a method call with a turbofish) anywhere in `body`,
/// each once, in the order they first appear. Calls whose type is inferred
/// (`let x: Elicitation<T> = cx.elicit(..)`) name no type and are not found; the ask still
/// checks its type when it runs.
pub(crate) fn forms_asked(body: TokenStream) -> Vec<Type> {
    let mut found: Vec<Type> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    walk(body, &mut |ty| {
        let text = quote::ToTokens::to_token_stream(&ty).to_string();
        if !seen.contains(&text) {
            seen.push(text);
            found.push(ty);
        }
    });
    found
}

fn walk(tokens: TokenStream, found: &mut dyn FnMut(Type)) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    for (at, token) in tokens.iter().enumerate() {
        match token {
            TokenTree::Group(group) => walk(group.stream(), found),
            TokenTree::Ident(ident) if ident == "elicit" => {
                if let Some(ty) = turbofish(&tokens[at + 1..]) {
                    found(ty);
                }
            }
            _ => {}
        }
    }
}

/// The type of `::<T>` at the start of `rest`, when it is one.
fn turbofish(rest: &[TokenTree]) -> Option<Type> {
    let punct = |at: usize, ch: char| matches!(rest.get(at), Some(TokenTree::Punct(p)) if p.as_char() == ch);
    if !(punct(0, ':') && punct(1, ':') && punct(2, '<')) {
        return None;
    }
    let mut depth = 1;
    let mut inner = TokenStream::new();
    for token in &rest[3..] {
        match token {
            TokenTree::Punct(p) if p.as_char() == '<' => depth += 1,
            TokenTree::Punct(p) if p.as_char() == '>' => {
                depth -= 1;
                if depth == 0 {
                    return syn::parse2(inner).ok();
                }
            }
            _ => {}
        }
        inner.extend([token.clone()]);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn names(body: TokenStream) -> Vec<String> {
        forms_asked(body)
            .iter()
            .map(|ty| quote::ToTokens::to_token_stream(ty).to_string())
            .collect()
    }

    #[test]
    fn finds_each_form_once_wherever_it_is_asked() {
        let body = quote! {{
            let a = cx.elicit::<Shipping>("where?").await?;
            if x { let b = ctx.elicit::<forms::Billing<u8>>("pay?").key("b").await?; }
            let c = cx.elicit::<Shipping>("again?").await?;
            let (d, e) = tokio::join!(cx.elicit::<Vec<Choice>>("m"), other());
        }};
        assert_eq!(
            names(body),
            ["Shipping", "forms :: Billing < u8 >", "Vec < Choice >"]
        );
    }

    #[test]
    fn ignores_what_is_not_a_turbofish_elicit() {
        let body = quote! {{
            let a: Elicitation<Shipping> = cx.elicit("inferred").await?;
            let elicit = 3;
            let b = cx.elicit_url("https://x", "m").await?;
            let c = elicit::<>;
        }};
        assert!(names(body).is_empty());
    }
}
