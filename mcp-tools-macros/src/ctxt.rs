//! Collects every mistake in one macro input so they are all reported in one compile.

use proc_macro2::TokenStream;
use quote::ToTokens;
use std::fmt::Display;

/// An error sink that is drained once, at the end of the pipeline.
#[derive(Default)]
pub(crate) struct Ctxt {
    errors: Vec<syn::Error>,
}

impl Ctxt {
    /// Records an error spanning the given tokens.
    pub(crate) fn error_spanned_by<T: ToTokens, M: Display>(&mut self, tokens: T, message: M) {
        self.errors
            .push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records an error at a span.
    pub(crate) fn error_at<M: Display>(&mut self, span: proc_macro2::Span, message: M) {
        self.errors.push(syn::Error::new(span, message));
    }

    /// Records an error produced by `syn`.
    pub(crate) fn syn_error(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    pub(crate) fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    /// All recorded errors as `compile_error!` invocations.
    pub(crate) fn into_compile_errors(self) -> TokenStream {
        self.errors.into_iter().map(|e| e.to_compile_error()).collect()
    }
}
