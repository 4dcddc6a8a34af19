//! Collects every mistake in one macro input so they are all reported in one compile
//! (serde_derive's `Ctxt`). Shared by every macro of the crate.

use quote::ToTokens;
use std::fmt::Display;

/// An error sink that is drained once, by [`Ctxt::check`], at the end of the checks.
pub(crate) struct Ctxt {
    /// `None` once checked; dropping an unchecked `Ctxt` is a bug in the macro.
    errors: Option<Vec<syn::Error>>,
}

impl Ctxt {
    pub(crate) fn new() -> Ctxt {
        Ctxt {
            errors: Some(Vec::new()),
        }
    }

    /// Records an error spanning the given tokens.
    pub(crate) fn error_spanned_by<T: ToTokens, M: Display>(&mut self, tokens: T, message: M) {
        self.push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records an error at a span.
    pub(crate) fn error_at<M: Display>(&mut self, span: proc_macro2::Span, message: M) {
        self.push(syn::Error::new(span, message));
    }

    fn push(&mut self, error: syn::Error) {
        self.errors
            .as_mut()
            .expect("`Ctxt` used after `check`")
            .push(error);
    }

    /// Ends the collection: every recorded error, combined in the order recorded.
    pub(crate) fn check(mut self) -> syn::Result<()> {
        let mut errors = self.errors.take().expect("`Ctxt` checked twice").into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        combined.extend(errors);
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if self.errors.is_some() && !std::thread::panicking() {
            panic!("a `Ctxt` was dropped without `check`: its errors would be lost");
        }
    }
}
