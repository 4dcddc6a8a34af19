//! `skills!("dir")`: reads the folder of skills below the crate's `Cargo.toml` at compile
//! time with the runtime's own reader (`mcp_toolkit_core::skill::scan`), so every rule is
//! checked before the server is built, and embeds each file with `include_bytes!` of its
//! absolute path (cargo then rebuilds when a file changes), with its digest, size and MIME
//! type computed here.

use mcp_toolkit_core::skill::{Problem, Tree, scan};
use proc_macro2::TokenStream;
use quote::quote;
use std::path::Path;

/// The expansion of `skills!(...)`, for the crate whose `Cargo.toml` is in
/// `CARGO_MANIFEST_DIR`; on errors, the errors and no skills, so the expression still has
/// its type and nothing else fails because of them.
pub(crate) fn skills(input: TokenStream) -> TokenStream {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default();
    expand_in(input, Path::new(&manifest_dir)).unwrap_or_else(|error| {
        let errors = error.to_compile_error();
        quote! {{
            #errors
            ::mcp_toolkit::__private::skills(&[], &[])
        }}
    })
}

/// The expansion for a crate in `manifest_dir`.
fn expand_in(input: TokenStream, manifest_dir: &Path) -> Result<TokenStream, syn::Error> {
    let literal: syn::LitStr = syn::parse2(input).map_err(|error| {
        syn::Error::new(
            error.span(),
            "expected the path of a folder of skills as a string, relative to the crate's `Cargo.toml`: `skills!(\"skills\")`",
        )
    })?;
    let tree = scan(&manifest_dir.join(literal.value())).map_err(|problems| {
        let mut errors = problems
            .iter()
            .map(|problem| syn::Error::new(literal.span(), shown(problem, manifest_dir)));
        let mut all = errors
            .next()
            .unwrap_or_else(|| syn::Error::new(literal.span(), "the folder of skills cannot be read"));
        errors.for_each(|error| all.combine(error));
        all
    })?;
    expand(&tree, &literal)
}

/// A problem, its path shown from the crate's folder.
fn shown(problem: &Problem, manifest_dir: &Path) -> String {
    let path = problem.path.strip_prefix(manifest_dir).unwrap_or(&problem.path);
    format!("`{}`: {}", path.display(), problem.message)
}

fn expand(tree: &Tree, literal: &syn::LitStr) -> Result<TokenStream, syn::Error> {
    let mut files = Vec::with_capacity(tree.files.len());
    for file in &tree.files {
        let Some(source) = file.source.to_str() else {
            let message = format!(
                "`{}`: the path is not UTF-8; it cannot be embedded",
                file.source.display()
            );
            return Err(syn::Error::new(literal.span(), message));
        };
        let (path, digest, mime_type) = (&file.path, &file.digest, file.mime_type);
        files.push(quote! {
            (#path, ::core::include_bytes!(#source) as &[u8], #digest, #mime_type)
        });
    }
    let skills = tree.skills.iter().map(|skill| {
        let path = &skill.path;
        let frontmatter = serde_json::Value::Object(skill.frontmatter.clone()).to_string();
        let indices = &skill.files;
        quote! { (#path, #frontmatter, &[#(#indices),*]) }
    });
    Ok(quote! {
        ::mcp_toolkit::__private::skills(&[#(#files),*], &[#(#skills),*])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
        let root = std::env::temp_dir().join(format!("mcp-macro-skills-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (path, text) in files {
            let path = root.join("skills").join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        root
    }

    #[test]
    fn a_folder_expands_to_its_files_and_skills() {
        let root = folder("good", &[("a/SKILL.md", "---\nname: a\ndescription: d\n---\n")]);
        let tokens = expand_in(quote!("skills"), &root).unwrap().to_string();
        assert!(
            tokens.contains(":: mcp_toolkit :: __private :: skills"),
            "{tokens}"
        );
        assert!(tokens.contains("\"a/SKILL.md\""), "{tokens}");
        assert!(tokens.contains("include_bytes !"), "{tokens}");
        assert!(
            tokens.contains(r#""{\"name\":\"a\",\"description\":\"d\"}""#),
            "{tokens}"
        );
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn every_problem_is_an_error_at_the_path() {
        let root = folder(
            "bad",
            &[
                ("a/SKILL.md", "---\nname: b\n---\n"),
                ("c/SKILL.md", "no frontmatter"),
            ],
        );
        let error = expand_in(quote!("skills"), &root).unwrap_err();
        let messages: Vec<String> = error.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(
            messages,
            [
                "`skills/a/SKILL.md`: `name` is `b` but the skill's folder is `a`; they must be the same",
                "`skills/a/SKILL.md`: the frontmatter has no `description`; it needs `name` and `description`",
                "`skills/c/SKILL.md`: `SKILL.md` does not begin with YAML frontmatter: its first line must be `---`",
            ]
        );
        let not_a_path = expand_in(quote!(skills), &root).unwrap_err().to_string();
        assert!(not_a_path.starts_with("expected the path of a folder of skills"));
        let _ = std::fs::remove_dir_all(root);
    }
}
