//! The built-in ranker: BM25F over a tool's fields, each weighted (a word of the name counts
//! more than one of a parameter's description), with stems, the everyday synonyms of API
//! words, and forgiveness for a clipped word ("cust", "inv") or a one-letter typo.
//!
//! Everything a search can precompute is computed when the index is built: each term's
//! postings hold the final BM25F weight of the term in each tool, so a search adds floats
//! into a score per tool and keeps the best few. Its scratch space is the thread's own and
//! reused: a search allocates nothing once it has run on its thread.

use super::synonyms::SETS;
use super::text::{Terms, words};
use super::{Hit, Query, Ranker, ToolIndex};
use crate::tool::Tool;
use serde_json::Value;
use std::cell::RefCell;

/// The built-in ranker ([`ToolSearch::bm25`](super::ToolSearch::bm25)): BM25F with field
/// weights, English stems, everyday synonyms, clipped or misspelt words, object ids, and
/// a bonus for the tools whose name a request asks for in full; no model and no network.
///
/// Each of its refinements can be turned off, to measure what it gains:
///
/// ```
/// use mcp_toolkit::discovery::{Bm25, Query, Ranker};
/// use mcp_toolkit::{tool, tools};
///
/// /// Refunds a charge, in full or in part.
/// #[tool]
/// fn create_refund(charge: String) -> String { format!("refunded {charge}") }
///
/// /// Lists the charges of an account.
/// #[tool]
/// fn list_charges() -> String { String::new() }
///
/// let catalogue = tools![create_refund, list_charges];
/// let mut hits = Vec::new();
/// Bm25::new().index(&catalogue).search(&Query::new("give the money back", 5), &mut hits);
/// assert_eq!(catalogue[hits[0].position].name(), "create_refund");
///
/// // Plain BM25 knows no "money back".
/// hits.clear();
/// Bm25::plain().index(&catalogue).search(&Query::new("give the money back", 5), &mut hits);
/// assert!(hits.is_empty());
/// ```
#[derive(Debug, Clone)]
pub struct Bm25 {
    k1: f32,
    b: f32,
    stems: bool,
    synonyms: bool,
    weighted: bool,
    forgiving: bool,
    ids: bool,
    coverage: bool,
}

impl Default for Bm25 {
    fn default() -> Bm25 {
        Bm25::new()
    }
}

/// How much a word counts in each field of a tool, with field weights on.
const NAME: f32 = 3.0;
const HINT: f32 = 2.0;
const TITLE: f32 = 1.0;
const DESCRIPTION: f32 = 1.0;
const GROUP: f32 = 1.0;
const PARAMETER: f32 = 0.5;
/// How much a word of a request's synonyms counts, against its own words' 1.
const SYNONYM: f32 = 0.4;
/// How much a vocabulary word counts that a clipped or misspelt word of a request stands
/// for.
const NEAR: f32 = 0.7;
/// How much a tool's score grows when a request asks for every word of its name (`cancel`
/// and `subscription` of `cancel_subscription`): BM25 weighs a verb shared by many tools
/// little, yet the verb is what tells `list_coupons` from `create_coupon`.
const COVERAGE: f32 = 1.0;
/// How many vocabulary words a clipped word may stand for.
const NEAR_MAX: usize = 4;

/// The fields of a tool, in the order their weights are listed.
const FIELDS: usize = 6;

impl Bm25 {
    /// Every refinement on: the ranker [`ToolSearch::bm25`](super::ToolSearch::bm25) uses.
    pub fn new() -> Bm25 {
        Bm25 {
            k1: 1.2,
            b: 0.75,
            stems: true,
            synonyms: true,
            weighted: true,
            forgiving: true,
            ids: true,
            coverage: true,
        }
    }

    /// Plain BM25 (k1 1.2, b 0.75) over every field alike, exact words only: the baseline
    /// the refinements are measured against.
    pub fn plain() -> Bm25 {
        Bm25 {
            stems: false,
            synonyms: false,
            weighted: false,
            forgiving: false,
            ids: false,
            coverage: false,
            ..Bm25::new()
        }
    }

    /// Whether words are reduced to their stems ("refunding" finds `refund`). On by default.
    pub fn stems(mut self, on: bool) -> Bm25 {
        self.stems = on;
        self
    }

    /// Whether a request's everyday words bring in the API's ("stop" finds `cancel`). On
    /// by default.
    pub fn synonyms(mut self, on: bool) -> Bm25 {
        self.synonyms = on;
        self
    }

    /// Whether a word of a tool's name or hint counts more than one of its description,
    /// and one of its description more than one of a parameter's. On by default.
    pub fn field_weights(mut self, on: bool) -> Bm25 {
        self.weighted = on;
        self
    }

    /// Whether a clipped word ("cust") or a misspelt one ("refnud") of a request stands
    /// for the words of the catalogue it is close to. On by default.
    pub fn forgiving(mut self, on: bool) -> Bm25 {
        self.forgiving = on;
        self
    }

    /// Whether an object's id in a request (`pi_3Kx9`) brings in the kind of object the
    /// catalogue's parameters show such ids for (`` `pi_...` `` in `payment_intent`'s
    /// description). On by default.
    pub fn ids(mut self, on: bool) -> Bm25 {
        self.ids = on;
        self
    }

    /// Whether a tool ranks higher the more of its name's words a request asks for, so
    /// that the verb counts ("every coupon" finds `list_coupons` before `create_coupon`).
    /// On by default.
    pub fn name_coverage(mut self, on: bool) -> Bm25 {
        self.coverage = on;
        self
    }

    fn weights(&self) -> [f32; FIELDS] {
        if self.weighted {
            [NAME, HINT, TITLE, DESCRIPTION, GROUP, PARAMETER]
        } else {
            [1.0; FIELDS]
        }
    }
}

impl Ranker for Bm25 {
    fn index(&self, tools: &[Tool]) -> Box<dyn ToolIndex> {
        Box::new(Index::build(self, tools))
    }
}

/// Terms as this index cuts them: stemmed or not.
struct Cutter {
    terms: Terms,
    stems: bool,
}

impl Cutter {
    fn each(&self, text: &str, word: &mut String, mut each: impl FnMut(&str)) {
        if self.stems {
            self.terms.each(text, word, each);
        } else {
            words(text, word, |w| {
                if self.terms.term(w).is_some() {
                    each(w);
                }
            });
        }
    }

    /// The term of one lowercase word of a request.
    fn term<'w>(&self, word: &'w str) -> Option<std::borrow::Cow<'w, str>> {
        let term = self.terms.term(word)?;
        Some(if self.stems { term } else { word.into() })
    }
}

/// One term's weight in one tool.
#[derive(Clone, Copy)]
struct Posting {
    tool: u32,
    weight: f32,
}

struct Index {
    cutter: Cutter,
    /// Term → its number.
    vocabulary: foldhash::HashMap<Box<str>, u32>,
    /// The terms in order, for the words a clipped word may stand for.
    sorted: Vec<(Box<str>, u32)>,
    /// Each term's postings, by its number.
    postings: Vec<Vec<Posting>>,
    /// A request's word or phrase (terms joined by spaces) → the terms it brings in.
    synonyms: foldhash::HashMap<Box<str>, Vec<u32>>,
    /// The prefix of an object id (`pi` of `pi_3Kx`) → the terms of the parameter whose
    /// description shows ids so (`` `pi_...` `` in `payment_intent`'s): a request that names
    /// an object by its id names its kind.
    prefixes: foldhash::HashMap<Box<str>, Vec<u32>>,
    tools: usize,
    forgiving: bool,
    coverage: bool,
    /// Each tool's name, as terms.
    names: Vec<Vec<u32>>,
}

/// What a search needs besides the index, the thread's own.
#[derive(Default)]
struct Scratch {
    scores: Vec<f32>,
    /// The request's terms: numbers (or `u32::MAX` for a term the catalogue lacks), weights.
    query: Vec<(u32, f32)>,
    /// The request's terms as text, each followed by a space, for phrases.
    text: String,
    /// Where each term of `text` starts.
    starts: Vec<usize>,
    word: String,
    phrase: String,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl Index {
    fn build(options: &Bm25, tools: &[Tool]) -> Index {
        let cutter = Cutter {
            terms: Terms::new(),
            stems: options.stems,
        };
        let weights = options.weights();
        let mut vocabulary: foldhash::HashMap<Box<str>, u32> = Default::default();
        // Per tool, per field: each term's count, and the field's length in terms.
        let mut counts: Vec<[Vec<(u32, f32)>; FIELDS]> = Vec::with_capacity(tools.len());
        let mut lengths: Vec<[f32; FIELDS]> = Vec::with_capacity(tools.len());
        let mut word = String::new();
        let mut names: Vec<Vec<u32>> = Vec::with_capacity(tools.len());
        for tool in tools {
            let mut fields: [Vec<(u32, f32)>; FIELDS] = Default::default();
            let mut length = [0.0; FIELDS];
            for (field, text) in fields_of(tool) {
                cutter.each(&text, &mut word, |term| {
                    let next = vocabulary.len() as u32;
                    let id = *vocabulary.entry(term.into()).or_insert(next);
                    length[field] += 1.0;
                    match fields[field].iter_mut().find(|(t, _)| *t == id) {
                        Some((_, count)) => *count += 1.0,
                        None => fields[field].push((id, 1.0)),
                    }
                });
            }
            names.push(fields[0].iter().map(|&(term, _)| term).collect());
            counts.push(fields);
            lengths.push(length);
        }
        let n = tools.len().max(1) as f32;
        let mut average = [0.0f32; FIELDS];
        for length in &lengths {
            for (sum, l) in average.iter_mut().zip(length) {
                *sum += l / n;
            }
        }
        // BM25F: a term's frequency in a tool is the weighted sum of its frequencies in the
        // fields, each normalised by the field's length against the average.
        let mut postings: Vec<Vec<Posting>> = vec![Vec::new(); vocabulary.len()];
        for (tool, fields) in counts.iter().enumerate() {
            let mut frequencies: Vec<(u32, f32)> = Vec::new();
            for (field, terms) in fields.iter().enumerate() {
                let norm = if average[field] > 0.0 {
                    1.0 - options.b + options.b * lengths[tool][field] / average[field]
                } else {
                    1.0
                };
                for &(term, count) in terms {
                    let add = weights[field] * count / norm;
                    match frequencies.iter_mut().find(|(t, _)| *t == term) {
                        Some((_, f)) => *f += add,
                        None => frequencies.push((term, add)),
                    }
                }
            }
            for (term, frequency) in frequencies {
                postings[term as usize].push(Posting {
                    tool: tool as u32,
                    weight: frequency * (options.k1 + 1.0) / (options.k1 + frequency),
                });
            }
        }
        for list in &mut postings {
            let df = list.len() as f32;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for posting in list.iter_mut() {
                posting.weight *= idf;
            }
        }
        let synonyms = if options.synonyms {
            synonym_table(&cutter, &vocabulary)
        } else {
            Default::default()
        };
        let prefixes = if options.ids {
            id_prefixes(&cutter, &vocabulary, tools)
        } else {
            Default::default()
        };
        let mut sorted: Vec<(Box<str>, u32)> = vocabulary.iter().map(|(t, &id)| (t.clone(), id)).collect();
        sorted.sort();
        Index {
            cutter,
            vocabulary,
            sorted,
            postings,
            synonyms,
            prefixes,
            names,
            tools: tools.len(),
            forgiving: options.forgiving,
            coverage: options.coverage,
        }
    }

    /// Reads a request into `scratch.query`.
    fn read(&self, text: &str, scratch: &mut Scratch) {
        let Scratch {
            query,
            text: terms,
            starts,
            word,
            phrase,
            ..
        } = scratch;
        query.clear();
        terms.clear();
        starts.clear();
        words(text, word, |w| {
            if let Some(term) = self.cutter.term(w) {
                starts.push(terms.len());
                terms.push_str(&term);
                terms.push(' ');
            }
        });
        let term_at = |i: usize| {
            let end = starts.get(i + 1).copied().unwrap_or(terms.len());
            &terms[starts[i]..end - 1]
        };
        for i in 0..starts.len() {
            let term = term_at(i);
            match self.vocabulary.get(term) {
                Some(&id) => add(query, id, 1.0),
                None if self.forgiving => self.near(term, query),
                None => {}
            }
        }
        if !self.prefixes.is_empty() {
            for id in ids(text) {
                if let Some(brought) = self.prefixes.get(id) {
                    for &term in brought {
                        add(query, term, 1.0);
                    }
                }
            }
        }
        if self.synonyms.is_empty() {
            return;
        }
        // Words and phrases of up to three terms bring in their sets' words.
        for len in 1..=3 {
            for first in 0..starts.len().saturating_sub(len - 1) {
                phrase.clear();
                for i in first..first + len {
                    if i > first {
                        phrase.push(' ');
                    }
                    phrase.push_str(term_at(i));
                }
                if let Some(brought) = self.synonyms.get(phrase.as_str()) {
                    for &id in brought {
                        add(query, id, SYNONYM);
                    }
                }
            }
        }
    }

    /// The vocabulary's terms a term it lacks may stand for: those it begins (a clipped
    /// word, of three letters or more), else those one edit away (of five or more).
    fn near(&self, term: &str, query: &mut Vec<(u32, f32)>) {
        if term.len() >= 3 {
            let from = self.sorted.partition_point(|(t, _)| &**t < term);
            let clipped = self.sorted[from..]
                .iter()
                .take_while(|(t, _)| t.starts_with(term))
                .take(NEAR_MAX);
            let mut found = false;
            for &(_, id) in clipped {
                add(query, id, NEAR);
                found = true;
            }
            if found {
                return;
            }
        }
        if term.len() >= 5 {
            for (t, id) in &self.sorted {
                if one_edit_apart(term.as_bytes(), t.as_bytes()) {
                    add(query, *id, NEAR);
                }
            }
        }
    }
}

/// How much of a name (its terms) a query asks for, from 0 to 1: a term brought in by a
/// synonym or an id counts as much as one written, for the verb a request means is as
/// telling as the one it says ("every coupon" asks for `list`).
fn asked(name: &[u32], query: &[(u32, f32)]) -> f32 {
    let asked = name
        .iter()
        .filter(|term| query.iter().any(|(t, _)| t == *term))
        .count();
    asked as f32 / name.len().max(1) as f32
}

/// Adds a term to a query, keeping its greater weight if it is there already.
fn add(query: &mut Vec<(u32, f32)>, id: u32, weight: f32) {
    match query.iter_mut().find(|(t, _)| *t == id) {
        Some((_, w)) => *w = w.max(weight),
        None => query.push((id, weight)),
    }
}

impl ToolIndex for Index {
    fn search(&self, query: &Query<'_>, hits: &mut Vec<Hit>) {
        SCRATCH.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            let scratch = &mut *scratch;
            self.read(query.text(), scratch);
            scratch.scores.clear();
            scratch.scores.resize(self.tools, 0.0);
            for &(term, weight) in &scratch.query {
                for posting in &self.postings[term as usize] {
                    scratch.scores[posting.tool as usize] += weight * posting.weight;
                }
            }
            if self.coverage {
                for (tool, score) in scratch.scores.iter_mut().enumerate() {
                    if *score > 0.0 {
                        *score *= 1.0 + COVERAGE * asked(&self.names[tool], &scratch.query);
                    }
                }
            }
            best(&scratch.scores, query, hits);
        });
    }
}

/// The `query.limit()` best-scored tools the query admits, best first; ties go to the tool
/// registered first.
fn best(scores: &[f32], query: &Query<'_>, hits: &mut Vec<Hit>) {
    let start = hits.len();
    for (position, &score) in scores.iter().enumerate() {
        if score <= 0.0 || !query.admits(position) {
            continue;
        }
        let kept = &hits[start..];
        if kept.len() == query.limit() && kept.last().is_some_and(|last| last.score >= score) {
            continue;
        }
        let at = start + kept.partition_point(|hit| hit.score >= score);
        hits.insert(at, Hit { position, score });
        hits.truncate(start + query.limit());
    }
}

/// Whether two words differ by one letter added, removed, replaced, or two neighbours
/// swapped.
fn one_edit_apart(a: &[u8], b: &[u8]) -> bool {
    if a.len().abs_diff(b.len()) > 1 || a == b {
        return false;
    }
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[prefix..], &b[prefix..]);
    match a.len().cmp(&b.len()) {
        std::cmp::Ordering::Equal => {
            a[1..] == b[1..] || (a.len() >= 2 && a[0] == b[1] && a[1] == b[0] && a[2..] == b[2..])
        }
        std::cmp::Ordering::Less => a == &b[1..],
        std::cmp::Ordering::Greater => &a[1..] == b,
    }
}

/// The texts of a tool's fields, by field number: its name, search hint, title,
/// description, group, and its parameters' names and descriptions.
fn fields_of(tool: &Tool) -> Vec<(usize, String)> {
    let mut fields = vec![(0, tool.name().to_owned())];
    if let Some(hint) = tool.search_hint() {
        fields.push((1, hint.to_owned()));
    }
    // A title made from the name says nothing more.
    if let Some(title) = tool.title()
        && !same_words(title, tool.name())
    {
        fields.push((2, title.to_owned()));
    }
    if let Some(description) = tool.description() {
        fields.push((3, description.to_owned()));
    }
    if let Some(group) = tool.group() {
        fields.push((4, group.to_owned()));
    }
    if let Some(Value::Object(properties)) = tool.input_schema().get("properties") {
        let mut parameters = String::new();
        for (name, schema) in properties {
            parameters.push_str(name);
            parameters.push(' ');
            if let Some(Value::String(doc)) = schema.get("description") {
                parameters.push_str(doc);
                parameters.push(' ');
            }
        }
        fields.push((5, parameters));
    }
    fields
}

fn same_words(a: &str, b: &str) -> bool {
    let mut left = Vec::new();
    let mut right = Vec::new();
    words(a, &mut String::new(), |w| left.push(w.to_owned()));
    words(b, &mut String::new(), |w| right.push(w.to_owned()));
    left == right
}

/// The prefixes of the object ids a text names: `pi` of `pi_3Kx9`, `cs` of
/// `cs_test_a1`: a word of letters, digits and `_` whose part before the first `_` is 2 to
/// 8 lowercase letters and whose rest is not empty.
fn ids(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter_map(|word| {
            let (prefix, rest) = word.split_once('_')?;
            let kind = (2..=8).contains(&prefix.len()) && prefix.bytes().all(|b| b.is_ascii_lowercase());
            (kind && !rest.is_empty()).then_some(prefix)
        })
}

/// What the catalogue says of its ids: each parameter whose description shows an id as
/// `` `pi_...` `` maps the prefix to the terms of its name.
fn id_prefixes(
    cutter: &Cutter,
    vocabulary: &foldhash::HashMap<Box<str>, u32>,
    tools: &[Tool],
) -> foldhash::HashMap<Box<str>, Vec<u32>> {
    let mut prefixes: foldhash::HashMap<Box<str>, Vec<u32>> = Default::default();
    let mut word = String::new();
    for tool in tools {
        let Some(Value::Object(properties)) = tool.input_schema().get("properties") else {
            continue;
        };
        for (name, schema) in properties {
            let Some(Value::String(doc)) = schema.get("description") else {
                continue;
            };
            for (at, _) in doc.match_indices("_...") {
                let start = doc[..at]
                    .rfind(|c: char| !c.is_ascii_lowercase())
                    .map_or(0, |i| i + 1);
                let prefix = &doc[start..at];
                if !(2..=8).contains(&prefix.len()) {
                    continue;
                }
                let terms = prefixes.entry(prefix.into()).or_default();
                cutter.each(name, &mut word, |term| {
                    if let Some(&id) = vocabulary.get(term)
                        && !terms.contains(&id)
                    {
                        terms.push(id);
                    }
                });
            }
        }
    }
    prefixes
}

/// The table of synonyms as this index reads requests: each word or phrase of a set, as
/// terms, → the set's single words the catalogue has.
fn synonym_table(
    cutter: &Cutter,
    vocabulary: &foldhash::HashMap<Box<str>, u32>,
) -> foldhash::HashMap<Box<str>, Vec<u32>> {
    let mut table: foldhash::HashMap<Box<str>, Vec<u32>> = Default::default();
    let mut word = String::new();
    for set in SETS {
        let phrases: Vec<Vec<String>> = set
            .iter()
            .map(|phrase| {
                let mut terms = Vec::new();
                cutter.each(phrase, &mut word, |t| terms.push(t.to_owned()));
                terms
            })
            .filter(|terms| !terms.is_empty())
            .collect();
        // The API's own word or phrase, the set's first, and every single word of it.
        let mut brought: Vec<u32> = Vec::new();
        let canonical = phrases.first().into_iter().flatten();
        let words = phrases.iter().skip(1).filter(|terms| terms.len() == 1).flatten();
        for term in canonical.chain(words) {
            if let Some(&id) = vocabulary.get(term.as_str())
                && !brought.contains(&id)
            {
                brought.push(id);
            }
        }
        if brought.is_empty() {
            continue;
        }
        for terms in &phrases {
            let entry = table.entry(terms.join(" ").into()).or_default();
            for &id in &brought {
                if !entry.contains(&id) {
                    entry.push(id);
                }
            }
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str, description: &str) -> Tool {
        Tool::from_json(name, description, json!({"type": "object"}), |_, _| async { "" }).unwrap()
    }

    fn catalogue() -> Vec<Tool> {
        vec![
            tool("create_refund", "Refunds a charge, in full or in part."),
            tool(
                "cancel_subscription",
                "Cancels a customer's subscription at once or at period end.",
            ),
            tool("list_customers", "Lists the customers, newest first."),
            tool("retrieve_customer", "Retrieves a customer by its id."),
            tool("create_invoice", "Creates a draft invoice for a customer."),
            tool("list_invoices", "Lists the invoices, newest first."),
        ]
    }

    fn top(ranker: &Bm25, text: &str) -> Vec<String> {
        let tools = catalogue();
        let mut hits = Vec::new();
        ranker.index(&tools).search(&Query::new(text, 3), &mut hits);
        hits.iter().map(|h| tools[h.position].name().to_owned()).collect()
    }

    #[test]
    fn exact_words_rank_the_tool_that_has_them_first() {
        assert_eq!(top(&Bm25::new(), "refund a charge")[0], "create_refund");
        assert_eq!(top(&Bm25::plain(), "refund a charge")[0], "create_refund");
        assert_eq!(top(&Bm25::new(), "list invoices")[0], "list_invoices");
    }

    #[test]
    fn stems_synonyms_and_near_words_reach_what_plain_bm25_misses() {
        assert_eq!(top(&Bm25::new(), "refunding")[0], "create_refund");
        assert!(top(&Bm25::plain(), "refunding").is_empty());
        assert_eq!(
            top(&Bm25::new(), "stop the monthly plan")[0],
            "cancel_subscription"
        );
        assert_eq!(top(&Bm25::new(), "look up cust")[0], "retrieve_customer");
        assert_eq!(top(&Bm25::new(), "refnud")[0], "create_refund");
        assert!(top(&Bm25::new().forgiving(false), "refnud").is_empty());
    }

    #[test]
    fn the_query_filter_and_limit_are_kept() {
        let tools = catalogue();
        let index = Bm25::new().index(&tools);
        let mut hits = Vec::new();
        let not_first = |position: usize| position != 0;
        index.search(&Query::new("refund", 3).only(&not_first), &mut hits);
        assert!(hits.iter().all(|h| h.position != 0));
        hits.clear();
        index.search(&Query::new("customer invoice list", 2), &mut hits);
        assert_eq!(hits.len(), 2);
        assert!(hits[0].score >= hits[1].score);
    }

    #[test]
    fn one_edit_is_one_letter_added_removed_replaced_or_swapped() {
        for (a, b) in [
            ("refnd", "refund"),
            ("refund", "refnd"),
            ("refand", "refund"),
            ("refnud", "refund"),
        ] {
            assert!(one_edit_apart(a.as_bytes(), b.as_bytes()), "{a} {b}");
        }
        for (a, b) in [("refund", "refund"), ("rfnd", "refund"), ("abcdef", "abcfed")] {
            assert!(!one_edit_apart(a.as_bytes(), b.as_bytes()), "{a} {b}");
        }
    }

    #[test]
    fn an_empty_catalogue_or_request_finds_nothing() {
        let mut hits = Vec::new();
        Bm25::new().index(&[]).search(&Query::new("refund", 5), &mut hits);
        assert!(hits.is_empty());
        Bm25::new()
            .index(&catalogue())
            .search(&Query::new("  ", 5), &mut hits);
        assert!(hits.is_empty());
    }
}
