//! The first stage of ranking: text becomes terms. A text is cut into words (at anything not
//! a letter or a digit, and inside `camelCase`), lowercased, stripped of the words every
//! request has ("the", "please", "my"), and each word is reduced to its English stem
//! (Snowball's Porter2: "refunding", "refunds" and "refunded" are all `refund`).

use rust_stemmers::{Algorithm, Stemmer};
use std::borrow::Cow;

/// Cuts texts into terms. One per index: the stemmer is a table, cheap to hold.
pub(crate) struct Terms {
    stemmer: Stemmer,
}

impl Terms {
    pub(crate) fn new() -> Terms {
        Terms {
            stemmer: Stemmer::create(Algorithm::English),
        }
    }

    /// Calls `each` with every term of `text`, in order. `word` is scratch space, kept
    /// between calls so that cutting allocates nothing once it has grown.
    pub(crate) fn each(&self, text: &str, word: &mut String, mut each: impl FnMut(&str)) {
        words(text, word, |w| {
            if let Some(term) = self.term(w) {
                each(&term);
            }
        });
    }

    /// The term a lowercase word stands for: its stem, or `None` for a word too common to
    /// tell tools apart.
    pub(crate) fn term<'w>(&self, word: &'w str) -> Option<Cow<'w, str>> {
        if word.len() < 2 && !word.bytes().all(|b| b.is_ascii_digit()) || is_stopword(word) {
            return None;
        }
        Some(self.stemmer.stem(word))
    }
}

/// Calls `each` with every word of `text`, lowercased: runs of letters and digits, also cut
/// where a lowercase letter meets an uppercase one (`listInvoices` is `list`,
/// `invoices`).
pub(crate) fn words(text: &str, word: &mut String, mut each: impl FnMut(&str)) {
    word.clear();
    let mut after_lower = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && after_lower && !word.is_empty() {
                each(word);
                word.clear();
            }
            after_lower = c.is_lowercase();
            word.extend(c.to_lowercase());
        } else {
            if !word.is_empty() {
                each(word);
                word.clear();
            }
            after_lower = false;
        }
    }
    if !word.is_empty() {
        each(word);
        word.clear();
    }
}

/// Words that say nothing about which tool is meant: articles, pronouns, politeness, the
/// auxiliaries of a request. Verbs and nouns of APIs ("get", "all", "new") are kept.
fn is_stopword(word: &str) -> bool {
    const STOPWORDS: &[&str] = &[
        "a", "about", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by", "can", "could",
        "did", "do", "does", "for", "from", "had", "has", "have", "he", "her", "here", "him", "his", "i",
        "if", "in", "into", "is", "it", "its", "just", "let", "lets", "me", "might", "my", "of", "on", "or",
        "our", "ours", "please", "pls", "she", "should", "so", "some", "that", "the", "their", "them",
        "then", "there", "these", "they", "this", "those", "to", "us", "was", "we", "were", "will", "with",
        "would", "you", "your",
    ];
    STOPWORDS.binary_search(&word).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        Terms::new().each(text, &mut String::new(), |t| out.push(t.to_owned()));
        out
    }

    #[test]
    fn names_and_camel_case_are_cut_into_words() {
        let mut out = Vec::new();
        words(
            "create_refund listInvoices HTTPServer v2",
            &mut String::new(),
            |w| out.push(w.to_owned()),
        );
        assert_eq!(out, ["create", "refund", "list", "invoices", "httpserver", "v2"]);
    }

    #[test]
    fn words_are_stemmed_and_common_words_dropped() {
        assert_eq!(
            terms("Please refund the customers' charges for me"),
            ["refund", "custom", "charg"]
        );
        assert_eq!(
            terms("refunding refunded refunds"),
            ["refund", "refund", "refund"]
        );
        assert_eq!(terms("cus_8Kd2 and 5 x"), ["cus", "8kd2", "5"]);
    }

    #[test]
    fn the_stopword_list_is_sorted_for_its_search() {
        for word in ["the", "a", "your", "please", "with"] {
            assert!(is_stopword(word), "{word}");
        }
        for word in ["get", "all", "new", "list", "who"] {
            assert!(!is_stopword(word), "{word}");
        }
    }
}
