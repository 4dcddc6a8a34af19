//! URI templates (RFC 6570, levels 1 to 4): parsing, and matching a concrete URI back to the
//! values of the template's variables. The macros parse a resource's `uri` at compile time;
//! the runtime matches the URIs clients read against it.
//!
//! # Matching
//!
//! [`Template::match_uri`] reads a URI from left to right, one template part at a time.
//! Literal text must appear exactly as written in the template (byte for byte; a non-ASCII
//! literal may also appear percent-encoded). Each expression reads a run of the characters its
//! operator can produce, then hands over to the next part:
//!
//! | operator | reads                                    | raw characters in a value            |
//! |----------|------------------------------------------|--------------------------------------|
//! | `{x}`    | `value`, `a,b` (a list)                  | unreserved, `%XX`                    |
//! | `{+x}`   | `value`                                  | unreserved, reserved, `%XX`          |
//! | `{#x}`   | `#value`                                 | unreserved, reserved, `%XX`          |
//! | `{.x}`   | `.value`, `.a.b` for `{.x*}`             | unreserved, `%XX`                    |
//! | `{/x}`   | `/value`, `/a/b` for `{/x*}`             | unreserved, `%XX`                    |
//! | `{;x}`   | `;x=value` or `;x` (empty value)         | unreserved, `%XX`                    |
//! | `{?x,y}` | `?x=1&y=2`, in any order, each optional  | what RFC 3986 allows in a query      |
//! | `{&x}`   | `&x=1`, in any order, each optional      | what RFC 3986 allows in a query      |
//!
//! Non-ASCII characters (RFC 3987's `ucschar` and `iprivate`) are accepted raw in every value
//! as well as percent-encoded. Within an expression, variables are separated by the
//! operator's separator (`,` for `{x,y}`, `{+x,y}`, `{#x,y}`; `.`, `/`, `;` and `&` for the
//! others).
//!
//! Where an expression ends: when several ends are possible, `{+x}`, `{#x}` and the query
//! expressions try the longest text first, every other expression the shortest first (so an
//! expression followed by a literal stops at the literal's first occurrence); if the rest of
//! the template then fails to match, the next candidate is tried (backtracking). A `{+x}` or
//! `{#x}` value never contains a raw `?` when the template has a query part (`?` literal,
//! `{?...}` or `{&...}`) after it, nor a raw `#` when a fragment part follows: then
//! `file:///{+path}{?q}` reads `file:///a?q=1` as `path = "a"`, `q = "1"`.
//!
//! Values:
//! - An expression that reads no text at all leaves every one of its variables
//!   [`Value::Missing`]: RFC 6570 expands an undefined variable, and for `{x}` and `{+x}` an
//!   empty one too, to nothing, so `users:///profile` gives `user_id` as `Missing`.
//! - Each value is percent-decoded; one that is not UTF-8 once decoded is no match.
//! - Outside `{+x}` and `{#x}` a `,` is never part of a string (RFC 6570 encodes it as `%2C`),
//!   so a raw `,` there makes the value a [`Value::List`] (`{x}` reads `a,b` as the list `a`,
//!   `b`). In `{+x}` and `{#x}` a non-exploded value is always a string, commas included.
//! - An exploded variable (`{/x*}`, `{?x*}`, ...) is always a list.
//! - Path safety: a value of `{x}`, `{.x}`, `{/x}` or `{;x}` (or an item of one) never
//!   contains `/` or `\` once decoded, and is never `.` or `..`; a value of `{+x}` or `{#x}`
//!   never has a `..` segment (between `/` or `\`), decoded or not. A URI that would give such
//!   a value does not match. Query values are not checked.
//! - `{x:3}` reads at most 3 characters (decoded), and gives those: the rest of the value was
//!   never in the URI.
//! - Query and `;` parameters may come in any order; a name the expression does not list, or
//!   a non-exploded name given twice, is no match. `?x` without `=` reads as an empty value.
//!
//! Limits:
//! - Positional expressions cannot say which variables were undefined: when `{x,y}` reads one
//!   value, it is `x`'s, and `y` is `Missing`. When there are more pieces than variables, the
//!   first exploded variable takes the extra ones; with no exploded variable it is no match.
//! - A non-exploded list of one item reads as a string (`{?x}` gives `x=a` as `"a"`), and in
//!   `{+x}` and `{#x}` every non-exploded value reads as a string.
//! - Several values in one `{+x,y}` are split at every `,`, so a value containing a `,` is
//!   misread. `{.x}` alone reads `.a.b` as `a.b`, but `{.x,y}` splits at every `.`.
//! - Templates that RFC 6570 expands ambiguously (`{x}{y}`, `up{+path}{var}`) match, but
//!   not necessarily with the values that were expanded: the rule above decides.
//! - Matching gives up (no match) after a work budget of about a million bytes examined plus
//!   16 per byte of the URI, so that a hostile URI cannot make a template with adjacent
//!   expressions backtrack for long. Ordinary templates use a small fraction of it.
//! - Percent-encoding is compared as written in literals: `%2f` in a URI does not match `%2F`
//!   in a template.

use std::collections::HashSet;
use std::fmt;

/// A parsed RFC 6570 URI template: literal text and expressions, levels 1 to 4.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// The literals and expressions, in the order written.
    parts: Vec<Part>,
}

/// One piece of a template, in the order it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Part {
    /// Text copied as it is, such as `users://` (percent-encoded triplets kept as written).
    Literal(String),
    /// A `{...}` expression.
    Expression(Expression),
}

/// A `{...}` expression: an operator and the variables it expands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Expression {
    /// How the values are written: the character before the first value, the separator, and
    /// whether names are written too.
    pub(crate) operator: Operator,
    /// The variables, in the order they appear; never empty.
    pub(crate) variables: Vec<VarSpec>,
}

/// The operator of an expression, which decides how its values are written into the URI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operator {
    /// `{x}`: values joined by `,`, every reserved character percent-encoded.
    Simple,
    /// `{+x}`: like `{x}`, but reserved characters such as `/` are kept.
    Reserved,
    /// `{#x}`: `#` then the values joined by `,`, reserved characters kept.
    Fragment,
    /// `{.x}`: each value after a `.`.
    Label,
    /// `{/x}`: each value after a `/`, one path segment each.
    Path,
    /// `{;x}`: each value as `;name=value`, or `;name` when it is empty.
    PathParam,
    /// `{?x}`: `?name=value`, the next ones after `&`.
    Query,
    /// `{&x}`: each value as `&name=value`, continuing a query already started.
    QueryContinuation,
}

/// A variable of an expression, with its modifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarSpec {
    /// The name as written in the template (percent-encoded bytes and `.` included).
    pub name: String,
    /// `{x:3}`: at most this many characters of the value are written (1 to 9999).
    pub prefix: Option<u16>,
    /// `{x*}`: each item of a list is written as a value of its own.
    pub explode: bool,
    /// The byte offset of the name in the template text.
    pub offset: usize,
}

/// A mistake in a template's text: where it is, and a message that says what is wrong and
/// what is accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    /// The byte offset in the template text where the mistake starts.
    pub offset: usize,
    /// The length in bytes of the text at fault (at least 1).
    pub len: usize,
    /// What is wrong, then what is accepted.
    pub message: String,
}

/// The value of a variable, as [`Template::match_uri`] reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A single string, percent-decoded.
    String(String),
    /// A list of strings: an exploded variable, or a value written with `,` between items.
    List(Vec<String>),
    /// No value: the variable is not in the URI.
    Missing,
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TemplateError {}

impl Operator {
    /// The operator written as `op` after `{`, if it is one of RFC 6570's.
    fn from_char(op: char) -> Option<Operator> {
        Some(match op {
            '+' => Operator::Reserved,
            '#' => Operator::Fragment,
            '.' => Operator::Label,
            '/' => Operator::Path,
            ';' => Operator::PathParam,
            '?' => Operator::Query,
            '&' => Operator::QueryContinuation,
            _ => return None,
        })
    }

    /// The character written before the first defined value, if any.
    fn first(self) -> Option<char> {
        match self {
            Operator::Simple | Operator::Reserved => None,
            Operator::Fragment => Some('#'),
            Operator::Label => Some('.'),
            Operator::Path => Some('/'),
            Operator::PathParam => Some(';'),
            Operator::Query => Some('?'),
            Operator::QueryContinuation => Some('&'),
        }
    }

    /// The character written between two values.
    fn separator(self) -> char {
        match self {
            Operator::Simple | Operator::Reserved | Operator::Fragment => ',',
            Operator::Label => '.',
            Operator::Path => '/',
            Operator::PathParam => ';',
            Operator::Query | Operator::QueryContinuation => '&',
        }
    }

    /// Whether each value is written as `name=value`.
    fn named(self) -> bool {
        matches!(
            self,
            Operator::PathParam | Operator::Query | Operator::QueryContinuation
        )
    }

    /// Whether reserved characters (and percent-encoded triplets) in a value are kept as they
    /// are instead of being percent-encoded.
    fn allows_reserved(self) -> bool {
        matches!(self, Operator::Reserved | Operator::Fragment)
    }

    /// Whether the operator reads query parameters (`?` or `&`).
    fn is_query(self) -> bool {
        matches!(self, Operator::Query | Operator::QueryContinuation)
    }
}

impl Template {
    /// Parses a template, reporting every mistake in it at once, in the order of the text.
    pub fn parse(text: &str) -> Result<Template, Vec<TemplateError>> {
        let mut parser = Parser {
            text,
            parts: Vec::new(),
            errors: Vec::new(),
            names: HashSet::new(),
        };
        parser.run();
        if parser.errors.is_empty() {
            Ok(Template { parts: parser.parts })
        } else {
            Err(parser.errors)
        }
    }

    /// Every variable of the template, in the order they appear.
    pub fn variables(&self) -> impl Iterator<Item = &VarSpec> {
        self.parts.iter().flat_map(|part| match part {
            Part::Literal(_) => [].iter(),
            Part::Expression(expression) => expression.variables.iter(),
        })
    }

    /// Whether the template has at least one expression (otherwise it is a plain URI).
    pub fn is_template(&self) -> bool {
        self.parts.iter().any(|part| matches!(part, Part::Expression(_)))
    }

    /// Whether the variable `name` sits in a `{?...}` or `{&...}` expression, which makes it
    /// optional by nature: a URI can leave it out and still match.
    pub fn is_query(&self, name: &str) -> bool {
        self.parts.iter().any(|part| match part {
            Part::Literal(_) => false,
            Part::Expression(expression) => {
                expression.operator.is_query() && expression.variables.iter().any(|var| var.name == name)
            }
        })
    }

    /// Matches `uri` against the template and gives the value of every variable, in the
    /// order of [`Template::variables`], percent-decoded; `None` when the URI does not match.
    /// The rules and their limits are described at the top of this module.
    pub fn match_uri(&self, uri: &str) -> Option<Vec<(String, Value)>> {
        let units = self.units();
        let matcher = Matcher { uri, units: &units };
        let mut state = MatchState {
            failed: HashSet::new(),
            budget: MATCH_BUDGET + MATCH_BUDGET_PER_BYTE.saturating_mul(uri.len()),
            bound: Vec::new(),
        };
        if !matcher.run(0, 0, &mut state) {
            return None;
        }
        let mut values: Vec<(String, Value)> = self
            .variables()
            .map(|var| (var.name.clone(), Value::Missing))
            .collect();
        for (index, value) in state.bound {
            values[index].1 = value;
        }
        Some(values)
    }

    /// The template as the matcher reads it: literals, and expressions where a query
    /// expression absorbs the `{&...}` expressions right after it.
    fn units(&self) -> Vec<Unit<'_>> {
        let mut units: Vec<Unit<'_>> = Vec::new();
        let mut index = 0;
        for part in &self.parts {
            match part {
                Part::Literal(text) => {
                    let mut encoded = String::new();
                    push_literal(&mut encoded, text);
                    let encoded = (encoded != *text).then_some(encoded);
                    units.push(Unit::Literal { text, encoded });
                }
                Part::Expression(expression) => {
                    let variables: Vec<(usize, &VarSpec)> = expression
                        .variables
                        .iter()
                        .enumerate()
                        .map(|(k, var)| (index + k, var))
                        .collect();
                    index += variables.len();
                    if expression.operator == Operator::QueryContinuation
                        && let Some(Unit::Expression(previous)) = units.last_mut()
                        && previous.operator.is_query()
                    {
                        previous.variables.extend(variables);
                        continue;
                    }
                    units.push(Unit::Expression(ExpressionUnit {
                        operator: expression.operator,
                        variables,
                        stop_at_query: false,
                        stop_at_fragment: false,
                    }));
                }
            }
        }
        // Walk backwards to learn, for each expression, what the template has after it.
        let (mut query_after, mut fragment_after) = (false, false);
        for unit in units.iter_mut().rev() {
            match unit {
                Unit::Literal { text, .. } => {
                    query_after |= text.contains('?');
                    fragment_after |= text.contains('#');
                }
                Unit::Expression(expression) => {
                    expression.stop_at_query = query_after;
                    expression.stop_at_fragment = fragment_after;
                    query_after |= expression.operator.is_query();
                    fragment_after |= expression.operator == Operator::Fragment;
                }
            }
        }
        units
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing (RFC 6570 section 2)

/// The state of one parse: what was read so far and every mistake found.
struct Parser<'t> {
    /// The template text.
    text: &'t str,
    /// The parts read so far.
    parts: Vec<Part>,
    /// The mistakes found so far, in the order of the text.
    errors: Vec<TemplateError>,
    /// The variable names seen so far, to find one named twice.
    names: HashSet<&'t str>,
}

/// The operators RFC 6570 lists, for error messages.
const OPERATORS: &str = "`+`, `#`, `.`, `/`, `;`, `?`, `&`";
/// What a variable name is made of, for error messages.
const NAME_CHARS: &str =
    "a name is letters, digits, `_` and percent-encoded bytes, with single `.` between them";
/// What a prefix is, for error messages.
const PREFIX_RANGE: &str = "a prefix is a number from 1 to 9999, as in `{name:3}`";

impl<'t> Parser<'t> {
    /// Reads the whole template.
    fn run(&mut self) {
        let text = self.text;
        let bytes = text.as_bytes();
        let mut literal = String::new();
        let mut at = 0;
        while let Some(c) = text[at..].chars().next() {
            match c {
                '{' => {
                    if !literal.is_empty() {
                        self.parts.push(Part::Literal(std::mem::take(&mut literal)));
                    }
                    let rest = &text[at + 1..];
                    match rest.find(['{', '}']) {
                        Some(len) if rest.as_bytes()[len] == b'}' => {
                            self.expression(at, at + 1 + len);
                            at += len + 2;
                        }
                        next => {
                            self.error(at, 1, "unclosed `{`; an expression ends with `}`, as in `{name}`");
                            // Skip what was meant as the expression, up to the next `{`.
                            at += next.map_or(text.len() - at, |len| len + 1);
                        }
                    }
                }
                '}' => {
                    self.error(at, 1, "unmatched `}`; a `}` closes an expression opened with `{`, and a literal `}` is written `%7D`");
                    at += 1;
                }
                '%' => {
                    if is_pct_at(bytes, at) {
                        literal.push_str(&text[at..at + 3]);
                        at += 3;
                    } else {
                        self.error(
                            at,
                            1,
                            "`%` is not followed by two hex digits; a literal `%` is written `%25`",
                        );
                        at += 1;
                    }
                }
                c if is_literal_char(c) => {
                    literal.push(c);
                    at += c.len_utf8();
                }
                c => {
                    let mut encoded = String::new();
                    push_encoded(&mut encoded, c.encode_utf8(&mut [0; 4]), false);
                    let message = format!(
                        "invalid character {} in the template; outside `{{}}` it is written percent-encoded, as `{encoded}`",
                        describe(c)
                    );
                    self.error(at, c.len_utf8(), message);
                    at += c.len_utf8();
                }
            }
        }
        if !literal.is_empty() {
            self.parts.push(Part::Literal(literal));
        }
    }

    /// Reads the expression between the `{` at `open` and the `}` at `close`.
    fn expression(&mut self, open: usize, close: usize) {
        let text = self.text;
        let whole = close + 1 - open;
        let mut start = open + 1;
        let mut operator = Operator::Simple;
        if let Some(c) = text[start..close].chars().next() {
            if let Some(op) = Operator::from_char(c) {
                operator = op;
                start += 1;
            } else if matches!(c, '=' | ',' | '!' | '@' | '|') {
                let message =
                    format!("the operator `{c}` is reserved by RFC 6570; the operators are {OPERATORS}");
                self.error(start, 1, message);
                start += 1;
                if start == close {
                    return;
                }
            }
        }
        if start == close {
            let message = format!(
                "empty expression `{}`; an expression names at least one variable, as in `{{name}}`",
                &text[open..=close]
            );
            self.error(open, whole, message);
            return;
        }
        let mut variables = Vec::new();
        let mut from = start;
        for spec in text[start..close].split(',') {
            if let Some(var) = self.varspec(spec, from) {
                variables.push(var);
            }
            from += spec.len() + 1;
        }
        self.parts
            .push(Part::Expression(Expression { operator, variables }));
    }

    /// Reads one variable with its modifier, written `spec` at byte `offset`.
    fn varspec(&mut self, spec: &'t str, offset: usize) -> Option<VarSpec> {
        let name_len = spec.find([':', '*']).unwrap_or(spec.len());
        let (name, modifier) = spec.split_at(name_len);
        if name.is_empty() {
            // Point at what stands where the name should be: `,`, `}`, `:` or `*`.
            self.error(
                offset,
                1,
                "missing variable name; an expression lists names separated by `,`, as in `{x,y}`",
            );
            return None;
        }
        let mut valid = self.check_name(name, offset);
        let mut prefix = None;
        let mut explode = false;
        let modifier_at = offset + name_len;
        if modifier == "*" {
            explode = true;
        } else if modifier.starts_with("*:") || (modifier.starts_with(':') && modifier.ends_with('*')) {
            let message = format!(
                "variable `{name}` has both a prefix and `*`; a variable takes one modifier, a prefix such as `:3` or `*`"
            );
            self.error(modifier_at, modifier.len(), message);
            valid = false;
        } else if let Some(digits) = modifier.strip_prefix(':') {
            let message = if digits.is_empty() {
                Some(format!("missing prefix length after `{name}:`; {PREFIX_RANGE}"))
            } else if !digits.bytes().all(|b| b.is_ascii_digit()) {
                Some(format!("prefix `:{digits}` is not a number; {PREFIX_RANGE}"))
            } else if digits.len() > 4 || digits.bytes().all(|b| b == b'0') {
                Some(format!("prefix `:{digits}` is out of range; {PREFIX_RANGE}"))
            } else if digits.starts_with('0') {
                Some(format!("prefix `:{digits}` starts with `0`; {PREFIX_RANGE}"))
            } else {
                prefix = digits.parse::<u16>().ok();
                None
            };
            if let Some(message) = message {
                self.error(modifier_at, modifier.len(), message);
                valid = false;
            }
        } else if !modifier.is_empty() {
            let message = format!(
                "unexpected `{modifier}` after variable `{name}`; a variable ends with a prefix such as `:3`, or with `*`"
            );
            self.error(modifier_at, modifier.len(), message);
            valid = false;
        }
        if valid && !self.names.insert(name) {
            let message = format!("variable `{name}` appears twice; a variable appears once in a template");
            self.error(offset, name.len(), message);
            valid = false;
        }
        valid.then(|| VarSpec {
            name: name.to_owned(),
            prefix,
            explode,
            offset,
        })
    }

    /// Checks the characters of a variable name written at byte `offset`, reporting the first
    /// mistake; says whether the name is valid.
    fn check_name(&mut self, name: &str, offset: usize) -> bool {
        let bytes = name.as_bytes();
        let mut at = 0;
        let mut after_char = false;
        while let Some(c) = name[at..].chars().next() {
            if c.is_ascii_alphanumeric() || c == '_' {
                after_char = true;
                at += 1;
            } else if c == '%' {
                if !is_pct_at(bytes, at) {
                    let end = name[at..]
                        .char_indices()
                        .nth(3)
                        .map_or(name.len(), |(len, _)| at + len);
                    let message = format!(
                        "invalid percent-encoding `{}` in variable name `{name}`; a `%` is followed by two hex digits",
                        &name[at..end]
                    );
                    self.error(offset + at, end - at, message);
                    return false;
                }
                after_char = true;
                at += 3;
            } else if c == '.' {
                let next_is_char = name[at + 1..]
                    .chars()
                    .next()
                    .is_some_and(|next| next.is_ascii_alphanumeric() || next == '_' || next == '%');
                if !after_char || !next_is_char {
                    let message = format!(
                        "misplaced `.` in variable name `{name}`; a `.` goes between two name characters, as in `user.id`"
                    );
                    self.error(offset + at, 1, message);
                    return false;
                }
                after_char = false;
                at += 1;
            } else {
                let message = format!(
                    "invalid character {} in variable name `{name}`; {NAME_CHARS}",
                    describe(c)
                );
                self.error(offset + at, c.len_utf8(), message);
                return false;
            }
        }
        true
    }

    /// Records a mistake.
    fn error(&mut self, offset: usize, len: usize, message: impl Into<String>) {
        self.errors.push(TemplateError {
            offset,
            len,
            message: message.into(),
        });
    }
}

/// A character as an error message shows it: in backticks, or named when backticks would
/// not show it.
fn describe(c: char) -> String {
    match c {
        ' ' => "` ` (a space)".to_owned(),
        '`' => "`` ` ``".to_owned(),
        c if c.is_control() || c.is_whitespace() || (!c.is_ascii() && !is_iri_char(c)) => {
            format!("U+{:04X}", u32::from(c))
        }
        c => format!("`{c}`"),
    }
}

/// Whether `c` may appear as itself in a template's literal text (RFC 6570 `literals`,
/// minus `%`, which is checked with the two hex digits that follow it).
fn is_literal_char(c: char) -> bool {
    match c {
        '\u{21}' | '\u{23}'..='\u{24}' | '\u{26}' | '\u{28}'..='\u{3B}' | '\u{3D}' => true,
        '\u{3F}'..='\u{5B}' | '\u{5D}' | '\u{5F}' | '\u{61}'..='\u{7A}' | '\u{7E}' => true,
        c => !c.is_ascii() && is_iri_char(c),
    }
}

/// Whether a non-ASCII character is one RFC 3987 allows in an IRI (`ucschar` or
/// `iprivate`).
fn is_iri_char(c: char) -> bool {
    let code = u32::from(c);
    match code {
        0xA0..=0xD7FF | 0xE000..=0xFDCF | 0xFDF0..=0xFFEF => true,
        // Planes 1 to 16 without their last two code points; plane 14 starts at E1000.
        0x1_0000.. => (code & 0xFFFF) <= 0xFFFD && !(0xE_0000..0xE_1000).contains(&code),
        _ => false,
    }
}

/// Whether `bytes[at]` starts a percent-encoded triplet (`%` and two hex digits).
fn is_pct_at(bytes: &[u8], at: usize) -> bool {
    bytes.get(at) == Some(&b'%')
        && bytes.get(at + 1).is_some_and(u8::is_ascii_hexdigit)
        && bytes.get(at + 2).is_some_and(u8::is_ascii_hexdigit)
}

/// RFC 3986 `unreserved`: letters, digits, `-`, `.`, `_`, `~`.
fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// RFC 3986 `reserved`: `gen-delims` and `sub-delims`.
fn is_reserved(b: u8) -> bool {
    matches!(
        b,
        b':' | b'/'
            | b'?'
            | b'#'
            | b'['
            | b']'
            | b'@'
            | b'!'
            | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b'+'
            | b','
            | b';'
            | b'='
    )
}

// ---------------------------------------------------------------------------------------------
// Expansion (RFC 6570 section 3)

/// Uppercase hex digits, for percent-encoding.
const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `%XX` for one byte.
fn push_pct(out: &mut String, b: u8) {
    out.push('%');
    out.push(char::from(HEX[usize::from(b >> 4)]));
    out.push(char::from(HEX[usize::from(b & 0xF)]));
}

/// Appends literal text: ASCII as it is (the parser allowed it), anything else
/// percent-encoded as UTF-8.
fn push_literal(out: &mut String, text: &str) {
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            for &b in c.encode_utf8(&mut [0; 4]).as_bytes() {
                push_pct(out, b);
            }
        }
    }
}

/// Appends a value, percent-encoding what the operator does not allow: unreserved characters
/// always pass, reserved ones and existing `%XX` triplets only when `allow_reserved`.
fn push_encoded(out: &mut String, text: &str, allow_reserved: bool) {
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let b = bytes[at];
        if is_unreserved(b) || (allow_reserved && is_reserved(b)) {
            out.push(char::from(b));
            at += 1;
        } else if allow_reserved && is_pct_at(bytes, at) {
            out.push_str(&text[at..at + 3]);
            at += 3;
        } else {
            push_pct(out, b);
            at += 1;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Matching

/// The fixed part of the work budget of one match, in bytes examined.
const MATCH_BUDGET: usize = 1 << 20;
/// The part of the work budget that grows with the URI, per byte of it.
const MATCH_BUDGET_PER_BYTE: usize = 16;

/// A part of the template as the matcher reads it.
enum Unit<'t> {
    /// Literal text.
    Literal {
        /// The text as written in the template.
        text: &'t str,
        /// Its percent-encoded form, when that differs (non-ASCII text).
        encoded: Option<String>,
    },
    /// An expression, or a query expression with the `{&...}` ones that follow it.
    Expression(ExpressionUnit<'t>),
}

/// An expression as the matcher reads it.
struct ExpressionUnit<'t> {
    /// The operator (of the first expression, for a query with its `{&...}`).
    operator: Operator,
    /// The variables with their index among all the template's variables.
    variables: Vec<(usize, &'t VarSpec)>,
    /// A raw `?` ends a `{+x}` or `{#x}` value: the template has a query part after it.
    stop_at_query: bool,
    /// A raw `#` ends a `{+x}` or `{#x}` value: the template has a fragment part after it.
    stop_at_fragment: bool,
}

/// What does not change during one match.
struct Matcher<'m, 't> {
    /// The URI being matched.
    uri: &'m str,
    /// The template, as the matcher reads it.
    units: &'m [Unit<'t>],
}

/// What changes during one match.
struct MatchState {
    /// `(unit, position)` pairs known not to lead to a match.
    failed: HashSet<(usize, usize)>,
    /// The bytes that may still be examined before giving up.
    budget: usize,
    /// The values read so far, by variable index; truncated when backtracking.
    bound: Vec<(usize, Value)>,
}

impl MatchState {
    /// Takes `cost` from the budget; says whether there was enough.
    fn spend(&mut self, cost: usize) -> bool {
        match self.budget.checked_sub(cost) {
            Some(rest) => {
                self.budget = rest;
                true
            }
            None => {
                self.budget = 0;
                false
            }
        }
    }
}

impl ExpressionUnit<'_> {
    /// Whether `c` may appear in the raw text of this expression, separators included.
    fn allows(&self, c: char) -> bool {
        if !c.is_ascii() {
            return is_iri_char(c);
        }
        let b = c as u8;
        if is_unreserved(b) || b == b'%' || b == b',' {
            return true;
        }
        match self.operator {
            Operator::Simple | Operator::Label => false,
            Operator::Path => b == b'/',
            Operator::PathParam => b == b';' || b == b'=',
            Operator::Query | Operator::QueryContinuation => {
                is_reserved(b) && !matches!(b, b'#' | b'[' | b']')
            }
            Operator::Reserved | Operator::Fragment => {
                is_reserved(b) && !(self.stop_at_query && b == b'?') && !(self.stop_at_fragment && b == b'#')
            }
        }
    }

    /// Whether longer texts are tried first.
    fn greedy(&self) -> bool {
        self.operator.allows_reserved() || self.operator.is_query()
    }
}

impl Matcher<'_, '_> {
    /// Matches the units from `unit` on against the URI from byte `at` on.
    fn run(&self, unit: usize, at: usize, state: &mut MatchState) -> bool {
        let Some(current) = self.units.get(unit) else {
            return at == self.uri.len();
        };
        if state.budget == 0 || state.failed.contains(&(unit, at)) {
            return false;
        }
        let matched = match current {
            Unit::Literal { text, encoded } => {
                state.spend(text.len())
                    && self
                        .literal_len(text, encoded.as_deref(), at)
                        .is_some_and(|len| self.run(unit + 1, at + len, state))
            }
            Unit::Expression(expression) => self.run_expression(unit, expression, at, state),
        };
        if !matched {
            state.failed.insert((unit, at));
        }
        matched
    }

    /// Tries each place where the expression could end, in order of preference.
    fn run_expression(
        &self,
        unit: usize,
        expression: &ExpressionUnit<'_>,
        at: usize,
        state: &mut MatchState,
    ) -> bool {
        let uri = self.uri;
        let window = self.window_end(expression, at);
        if !state.spend(window - at + 1) {
            return false;
        }
        let mut ends: Vec<usize> = match self.units.get(unit + 1) {
            None => (window == uri.len()).then_some(window).into_iter().collect(),
            Some(Unit::Literal { text, encoded }) => (at..=window)
                .filter(|&end| {
                    uri.is_char_boundary(end) && self.literal_len(text, encoded.as_deref(), end).is_some()
                })
                .collect(),
            Some(Unit::Expression(_)) => (at..=window).filter(|&end| uri.is_char_boundary(end)).collect(),
        };
        if expression.greedy() {
            ends.reverse();
        }
        for end in ends {
            if !state.spend(end - at + 1) {
                return false;
            }
            let Some(values) = read_expression(expression, &uri[at..end]) else {
                continue;
            };
            let mark = state.bound.len();
            state.bound.extend(values);
            if self.run(unit + 1, end, state) {
                return true;
            }
            state.bound.truncate(mark);
        }
        false
    }

    /// The furthest byte the expression's text can reach from `at`: after its first
    /// character (if the operator has one and it is there), every allowed character.
    fn window_end(&self, expression: &ExpressionUnit<'_>, at: usize) -> usize {
        let rest = &self.uri[at..];
        let start = match expression.operator.first() {
            Some(first) if rest.starts_with(first) => 1,
            Some(_) => return at,
            None => 0,
        };
        let len = rest[start..]
            .find(|c| !expression.allows(c))
            .unwrap_or(rest.len() - start);
        at + start + len
    }

    /// The length of the literal if the URI has it at byte `at`, as written or encoded.
    fn literal_len(&self, text: &str, encoded: Option<&str>, at: usize) -> Option<usize> {
        let rest = &self.uri[at..];
        if rest.starts_with(text) {
            Some(text.len())
        } else {
            encoded.filter(|encoded| rest.starts_with(encoded)).map(str::len)
        }
    }
}

/// Reads the values of an expression from its raw `text`; `None` if the text is not one
/// this expression can produce.
fn read_expression(expression: &ExpressionUnit<'_>, text: &str) -> Option<Vec<(usize, Value)>> {
    if text.is_empty() {
        return Some(
            expression
                .variables
                .iter()
                .map(|&(index, _)| (index, Value::Missing))
                .collect(),
        );
    }
    let operator = expression.operator;
    let body = match operator.first() {
        Some(first) => text.strip_prefix(first)?,
        None => text,
    };
    if operator.named() {
        read_named(expression, body)
    } else {
        read_positional(expression, body)
    }
}

/// Reads the values of `{x}`, `{+x}`, `{#x}`, `{.x}` and `{/x}`, whose values are told apart
/// by their position.
fn read_positional(expression: &ExpressionUnit<'_>, body: &str) -> Option<Vec<(usize, Value)>> {
    let operator = expression.operator;
    let separator = operator.separator();
    if let [(index, var)] = expression.variables[..] {
        let value = if var.explode {
            Value::List(read_list(operator, body.split(separator))?)
        } else if operator == Operator::Path && body.contains('/') {
            return None;
        } else {
            read_value(operator, var, body)?
        };
        return Some(vec![(index, value)]);
    }
    let pieces: Vec<&str> = body.split(separator).collect();
    let variables = &expression.variables;
    let exploded = variables.iter().position(|(_, var)| var.explode);
    if pieces.len() > variables.len() && exploded.is_none() {
        return None;
    }
    let extra = pieces.len().saturating_sub(variables.len());
    let mut values = Vec::with_capacity(variables.len());
    let mut next = 0;
    for (k, &(index, var)) in variables.iter().enumerate() {
        if next >= pieces.len() {
            values.push((index, Value::Missing));
            continue;
        }
        let take = if exploded == Some(k) { 1 + extra } else { 1 };
        let taken = &pieces[next..next + take];
        next += take;
        let value = if var.explode {
            Value::List(read_list(operator, taken.iter().copied())?)
        } else {
            read_value(operator, var, taken[0])?
        };
        values.push((index, value));
    }
    Some(values)
}

/// Reads the values of `{;x}`, `{?x}` and `{&x}` (with the `{&...}` that follow a query),
/// whose values are told apart by their names, in any order.
fn read_named(expression: &ExpressionUnit<'_>, body: &str) -> Option<Vec<(usize, Value)>> {
    let operator = expression.operator;
    let variables = &expression.variables;
    let mut found: Vec<Option<Value>> = vec![None; variables.len()];
    for parameter in body.split(operator.separator()) {
        let (name, raw) = parameter.split_once('=').unwrap_or((parameter, ""));
        if name.is_empty() {
            return None;
        }
        let k = variables.iter().position(|(_, var)| same_name(&var.name, name))?;
        let var = variables[k].1;
        if var.explode {
            let items = read_list(operator, raw.split(','))?;
            match &mut found[k] {
                Some(Value::List(list)) => list.extend(items),
                slot => *slot = Some(Value::List(items)),
            }
        } else if found[k].is_some() {
            return None;
        } else {
            found[k] = Some(read_value(operator, var, raw)?);
        }
    }
    Some(
        variables
            .iter()
            .zip(found)
            .map(|(&(index, _), value)| (index, value.unwrap_or(Value::Missing)))
            .collect(),
    )
}

/// Whether a parameter name read from a URI names the template variable `name`.
fn same_name(name: &str, raw: &str) -> bool {
    name == raw || percent_decode(raw).is_some_and(|raw| percent_decode(name).is_some_and(|name| name == raw))
}

/// Reads the value of a non-exploded variable from its raw text.
fn read_value(operator: Operator, var: &VarSpec, raw: &str) -> Option<Value> {
    if !operator.allows_reserved() && raw.contains(',') {
        // A raw `,` joins the items of a list; a prefix never applies to a list.
        return if var.prefix.is_some() {
            None
        } else {
            read_list(operator, raw.split(',')).map(Value::List)
        };
    }
    let text = read_item(operator, raw)?;
    if var
        .prefix
        .is_some_and(|max| text.chars().count() > usize::from(max))
    {
        return None;
    }
    Some(Value::String(text))
}

/// Reads the items of a list from their raw text; outside `{+x}` and `{#x}`, an item never
/// has a raw `,`.
fn read_list<'u>(operator: Operator, raws: impl Iterator<Item = &'u str>) -> Option<Vec<String>> {
    raws.map(|raw| {
        if !operator.allows_reserved() && raw.contains(',') {
            None
        } else {
            read_item(operator, raw)
        }
    })
    .collect()
}

/// Decodes one string value and checks it is safe to use as a path segment (or, for `{+x}`
/// and `{#x}`, as a relative path without `..`).
fn read_item(operator: Operator, raw: &str) -> Option<String> {
    let text = percent_decode(raw)?;
    let safe = match operator {
        Operator::Query | Operator::QueryContinuation => true,
        Operator::Reserved | Operator::Fragment => !text.split(['/', '\\']).any(|segment| segment == ".."),
        _ => !text.contains(['/', '\\']) && text != "." && text != "..",
    };
    safe.then_some(text)
}

/// Decodes `%XX` triplets; `None` for a `%` without two hex digits or bytes that are not
/// UTF-8.
fn percent_decode(raw: &str) -> Option<String> {
    if !raw.contains('%') {
        return Some(raw.to_owned());
    }
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            if !is_pct_at(bytes, at) {
                return None;
            }
            out.push(hex_value(bytes[at + 1]) * 16 + hex_value(bytes[at + 2]));
            at += 3;
        } else {
            out.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The value of a hex digit (the caller checked it is one).
fn hex_value(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        b'A'..=b'F' => b - b'A' + 10,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Value {
        Value::String(text.to_owned())
    }

    fn list(items: &[&str]) -> Value {
        Value::List(items.iter().map(|item| (*item).to_owned()).collect())
    }

    fn parse(text: &str) -> Template {
        Template::parse(text).unwrap_or_else(|errors| panic!("`{text}` does not parse: {errors:?}"))
    }

    /// RFC 6570 expansion (section 3.2), the oracle the matching tests check against: a URI
    /// expanded from values must match back to them. Neither crate expands templates, so it
    /// lives here. A variable missing from `values`, [`Value::Missing`] and an empty list are
    /// undefined; a prefix modifier does not apply to a list (RFC 6570 leaves that case to the
    /// implementation): the list is written whole.
    trait Expand {
        fn expand(&self, values: &[(&str, Value)]) -> String;
    }

    impl Expand for Template {
        fn expand(&self, values: &[(&str, Value)]) -> String {
            let mut out = String::new();
            for part in &self.parts {
                match part {
                    Part::Literal(text) => push_literal(&mut out, text),
                    Part::Expression(expression) => expand_expression(expression, &mut out, values),
                }
            }
            out
        }
    }

    /// Appends the expansion of one expression to `out` (RFC 6570 section 3.2.1).
    fn expand_expression(expression: &Expression, out: &mut String, values: &[(&str, Value)]) {
        let operator = expression.operator;
        let allow_reserved = operator.allows_reserved();
        // What follows the name of an empty value in a named expression.
        let if_empty = if operator.is_query() { "=" } else { "" };
        let mut first = true;
        for var in &expression.variables {
            let value = values
                .iter()
                .find(|(name, _)| *name == var.name)
                .map(|(_, value)| value);
            let value = match value {
                None | Some(Value::Missing) => continue,
                Some(Value::List(items)) if items.is_empty() => continue,
                Some(value) => value,
            };
            if first {
                out.extend(operator.first());
                first = false;
            } else {
                out.push(operator.separator());
            }
            match value {
                Value::String(text) => {
                    if operator.named() {
                        out.push_str(&var.name);
                        if text.is_empty() {
                            out.push_str(if_empty);
                            continue;
                        }
                        out.push('=');
                    }
                    let end = var
                        .prefix
                        .map_or(text.len(), |max| prefix_end(text, max, allow_reserved));
                    push_encoded(out, &text[..end], allow_reserved);
                }
                Value::List(items) if var.explode => {
                    for (k, item) in items.iter().enumerate() {
                        if k > 0 {
                            out.push(operator.separator());
                        }
                        if operator.named() {
                            out.push_str(&var.name);
                            if item.is_empty() {
                                out.push_str(if_empty);
                                continue;
                            }
                            out.push('=');
                        }
                        push_encoded(out, item, allow_reserved);
                    }
                }
                Value::List(items) => {
                    if operator.named() {
                        out.push_str(&var.name);
                        out.push('=');
                    }
                    for (k, item) in items.iter().enumerate() {
                        if k > 0 {
                            out.push(',');
                        }
                        push_encoded(out, item, allow_reserved);
                    }
                }
                Value::Missing => {}
            }
        }
    }

    /// The byte length of the first `max` characters of `text`; with `allow_reserved`, a
    /// `%XX` triplet counts as one character, so that it is never split.
    fn prefix_end(text: &str, max: u16, allow_reserved: bool) -> usize {
        let bytes = text.as_bytes();
        let mut at = 0;
        for _ in 0..max {
            if at >= text.len() {
                break;
            }
            if allow_reserved && is_pct_at(bytes, at) {
                at += 3;
            } else {
                at += text[at..].chars().next().map_or(1, char::len_utf8);
            }
        }
        at
    }

    fn matched(template: &str, uri: &str) -> Option<Vec<(String, Value)>> {
        parse(template).match_uri(uri)
    }

    fn values(pairs: &[(&str, Value)]) -> Vec<(String, Value)> {
        pairs
            .iter()
            .map(|(name, value)| ((*name).to_owned(), value.clone()))
            .collect()
    }

    /// The variables of RFC 6570's examples (sections 1.2 and 3.2), without the associative
    /// arrays `keys` and `empty_keys`, which this module does not support. `who2` and `var2`
    /// stand in for the second `who` and `var` of `{.who,who}`, `{/who,who}` and
    /// `{/var:1,var}`, since a variable appears once in our templates.
    fn rfc_values() -> Vec<(&'static str, Value)> {
        vec![
            ("count", list(&["one", "two", "three"])),
            ("dom", list(&["example", "com"])),
            ("dub", s("me/too")),
            ("hello", s("Hello World!")),
            ("half", s("50%")),
            ("var", s("value")),
            ("var2", s("value")),
            ("who", s("fred")),
            ("who2", s("fred")),
            ("base", s("http://example.com/home/")),
            ("path", s("/foo/bar")),
            ("list", list(&["red", "green", "blue"])),
            ("v", s("6")),
            ("x", s("1024")),
            ("y", s("768")),
            ("empty", s("")),
            ("undef", Value::Missing),
        ]
    }

    /// Every example of RFC 6570 section 1.2 (levels 1 to 4) and section 3.2, with its
    /// expected expansion, except those that use an associative array.
    const RFC_EXAMPLES: &[(&str, &str)] = &[
        // 1.2, level 1
        ("{var}", "value"),
        ("{hello}", "Hello%20World%21"),
        // 1.2, level 2
        ("{+var}", "value"),
        ("{+hello}", "Hello%20World!"),
        ("{+path}/here", "/foo/bar/here"),
        ("here?ref={+path}", "here?ref=/foo/bar"),
        ("X{#var}", "X#value"),
        ("X{#hello}", "X#Hello%20World!"),
        // 1.2, level 3
        ("map?{x,y}", "map?1024,768"),
        ("{x,hello,y}", "1024,Hello%20World%21,768"),
        ("{+x,hello,y}", "1024,Hello%20World!,768"),
        ("{+path,x}/here", "/foo/bar,1024/here"),
        ("{#x,hello,y}", "#1024,Hello%20World!,768"),
        ("{#path,x}/here", "#/foo/bar,1024/here"),
        ("X{.var}", "X.value"),
        ("X{.x,y}", "X.1024.768"),
        ("{/var}", "/value"),
        ("{/var,x}/here", "/value/1024/here"),
        ("{;x,y}", ";x=1024;y=768"),
        ("{;x,y,empty}", ";x=1024;y=768;empty"),
        ("{?x,y}", "?x=1024&y=768"),
        ("{?x,y,empty}", "?x=1024&y=768&empty="),
        ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
        ("{&x,y,empty}", "&x=1024&y=768&empty="),
        // 1.2, level 4
        ("{var:3}", "val"),
        ("{var:30}", "value"),
        ("{list}", "red,green,blue"),
        ("{list*}", "red,green,blue"),
        ("{+path:6}/here", "/foo/b/here"),
        ("{+list}", "red,green,blue"),
        ("{+list*}", "red,green,blue"),
        ("{#path:6}/here", "#/foo/b/here"),
        ("{#list}", "#red,green,blue"),
        ("{#list*}", "#red,green,blue"),
        ("X{.var:3}", "X.val"),
        ("X{.list}", "X.red,green,blue"),
        ("X{.list*}", "X.red.green.blue"),
        ("{/var:1,var2}", "/v/value"),
        ("{/list}", "/red,green,blue"),
        ("{/list*}", "/red/green/blue"),
        ("{/list*,path:4}", "/red/green/blue/%2Ffoo"),
        ("{;hello:5}", ";hello=Hello"),
        ("{;list}", ";list=red,green,blue"),
        ("{;list*}", ";list=red;list=green;list=blue"),
        ("{?var:3}", "?var=val"),
        ("{?list}", "?list=red,green,blue"),
        ("{?list*}", "?list=red&list=green&list=blue"),
        ("{&var:3}", "&var=val"),
        ("{&list}", "&list=red,green,blue"),
        ("{&list*}", "&list=red&list=green&list=blue"),
        // 3.2.1, variable expansion
        ("{count}", "one,two,three"),
        ("{count*}", "one,two,three"),
        ("{/count}", "/one,two,three"),
        ("{/count*}", "/one/two/three"),
        ("{;count}", ";count=one,two,three"),
        ("{;count*}", ";count=one;count=two;count=three"),
        ("{?count}", "?count=one,two,three"),
        ("{?count*}", "?count=one&count=two&count=three"),
        ("{&count*}", "&count=one&count=two&count=three"),
        // 3.2.2, simple string expansion
        ("{half}", "50%25"),
        ("O{empty}X", "OX"),
        ("O{undef}X", "OX"),
        ("{x,y}", "1024,768"),
        ("?{x,empty}", "?1024,"),
        ("?{x,undef}", "?1024"),
        ("?{undef,y}", "?768"),
        // 3.2.3, reserved expansion
        ("{+half}", "50%25"),
        ("{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"),
        ("{+base}index", "http://example.com/home/index"),
        ("O{+empty}X", "OX"),
        ("O{+undef}X", "OX"),
        ("up{+path}{var}/here", "up/foo/barvalue/here"),
        // 3.2.4, fragment expansion
        ("{#var}", "#value"),
        ("{#hello}", "#Hello%20World!"),
        ("{#half}", "#50%25"),
        ("foo{#empty}", "foo#"),
        ("foo{#undef}", "foo"),
        // 3.2.5, label expansion
        ("{.who}", ".fred"),
        ("{.who,who2}", ".fred.fred"),
        ("{.half,who}", ".50%25.fred"),
        ("www{.dom*}", "www.example.com"),
        ("X{.empty}", "X."),
        ("X{.undef}", "X"),
        // 3.2.6, path segment expansion
        ("{/who}", "/fred"),
        ("{/who,who2}", "/fred/fred"),
        ("{/half,who}", "/50%25/fred"),
        ("{/who,dub}", "/fred/me%2Ftoo"),
        ("{/var,empty}", "/value/"),
        ("{/var,undef}", "/value"),
        // 3.2.7, path-style parameter expansion
        ("{;who}", ";who=fred"),
        ("{;half}", ";half=50%25"),
        ("{;empty}", ";empty"),
        ("{;v,empty,who}", ";v=6;empty;who=fred"),
        ("{;v,bar,who}", ";v=6;who=fred"),
        ("{;x,y,undef}", ";x=1024;y=768"),
        // 3.2.8, form-style query expansion
        ("{?who}", "?who=fred"),
        ("{?half}", "?half=50%25"),
        ("{?x,y,undef}", "?x=1024&y=768"),
        // 3.2.9, form-style query continuation
        ("{&who}", "&who=fred"),
        ("{&half}", "&half=50%25"),
        ("{&x,y,undef}", "&x=1024&y=768"),
    ];

    /// RFC examples whose URI does not give back the values it was expanded from; each one
    /// has its own test below.
    const NOT_ROUND_TRIPS: &[&str] = &[
        "O{empty}X",
        "O{+empty}X",
        "?{undef,y}",
        "{+list}",
        "{#list}",
        "up{+path}{var}/here",
        "{/list*,path:4}",
        "{/who,dub}",
        "{base}index",
    ];

    #[test]
    fn expands_every_rfc_example() {
        let values = rfc_values();
        for (template, expected) in RFC_EXAMPLES {
            assert_eq!(
                parse(template).expand(&values),
                *expected,
                "expanding `{template}`"
            );
        }
    }

    #[test]
    fn matching_an_rfc_expansion_gives_back_its_values() {
        let all = rfc_values();
        let mut checked = 0;
        for (template_text, uri) in RFC_EXAMPLES {
            if NOT_ROUND_TRIPS.contains(template_text) {
                continue;
            }
            let template = parse(template_text);
            let expected: Vec<(String, Value)> = template
                .variables()
                .map(|var| {
                    let value = all
                        .iter()
                        .find(|(name, _)| *name == var.name)
                        .map_or(Value::Missing, |(_, v)| v.clone());
                    // What a prefix leaves of a string is all the URI has of it.
                    let value = match (value, var.prefix) {
                        (Value::String(text), Some(max)) => {
                            Value::String(text.chars().take(usize::from(max)).collect())
                        }
                        (value, _) => value,
                    };
                    (var.name.clone(), value)
                })
                .collect();
            assert_eq!(
                template.match_uri(uri),
                Some(expected),
                "matching `{uri}` against `{template_text}`"
            );
            checked += 1;
        }
        assert_eq!(checked, RFC_EXAMPLES.len() - NOT_ROUND_TRIPS.len());
    }

    #[test]
    fn an_empty_simple_or_reserved_value_reads_as_missing() {
        assert_eq!(
            matched("O{empty}X", "OX"),
            Some(values(&[("empty", Value::Missing)]))
        );
        assert_eq!(
            matched("O{+empty}X", "OX"),
            Some(values(&[("empty", Value::Missing)]))
        );
    }

    #[test]
    fn an_undefined_variable_before_a_defined_one_cannot_be_told_apart() {
        assert_eq!(
            matched("?{undef,y}", "?768"),
            Some(values(&[("undef", s("768")), ("y", Value::Missing)]))
        );
    }

    #[test]
    fn a_reserved_value_with_commas_is_a_string() {
        assert_eq!(
            matched("{+list}", "red,green,blue"),
            Some(values(&[("list", s("red,green,blue"))]))
        );
        assert_eq!(
            matched("{#list}", "#red,green,blue"),
            Some(values(&[("list", s("red,green,blue"))]))
        );
        assert_eq!(
            matched("{+list*}", "red,green,blue"),
            Some(values(&[("list", list(&["red", "green", "blue"]))]))
        );
    }

    #[test]
    fn adjacent_expressions_follow_the_preference_rule() {
        // `{+path}` tries the longest text first; `{var}` is then left with nothing.
        assert_eq!(
            matched("up{+path}{var}/here", "up/foo/barvalue/here"),
            Some(values(&[("path", s("/foo/barvalue")), ("var", Value::Missing)]))
        );
        // `{x}` tries the shortest text first.
        assert_eq!(
            matched("{x}{y}", "abc"),
            Some(values(&[("x", Value::Missing), ("y", s("abc"))]))
        );
    }

    #[test]
    fn a_value_that_decodes_to_a_slash_is_refused_even_in_rfc_examples() {
        assert_eq!(matched("{/who,dub}", "/fred/me%2Ftoo"), None);
        assert_eq!(matched("{/list*,path:4}", "/red/green/blue/%2Ffoo"), None);
        assert_eq!(
            matched("{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"),
            None
        );
    }

    #[test]
    fn repeated_variables_of_rfc_examples_are_refused() {
        for template in ["{.who,who}", "{/who,who}", "{/var:1,var}"] {
            let errors = Template::parse(template).unwrap_err();
            assert_eq!(errors.len(), 1, "{template}");
            assert!(
                errors[0]
                    .message
                    .ends_with("a variable appears once in a template"),
                "{template}"
            );
        }
    }

    #[test]
    fn a_prefix_limits_what_a_variable_reads() {
        assert_eq!(matched("{var:3}", "val"), Some(values(&[("var", s("val"))])));
        assert_eq!(matched("{var:3}", "valu"), None);
        // Characters, not bytes, and decoded.
        assert_eq!(
            matched("{var:3}", "%C3%A9t%C3%A9"),
            Some(values(&[("var", s("été"))]))
        );
        assert_eq!(matched("{var:3}", "a,b"), None);
    }

    #[test]
    fn expansion_edge_cases() {
        let template = parse("{var:3}{+half:2}{?list:2}");
        let expanded = template.expand(&[
            ("var", s("été")),
            ("half", s("%20ab")),
            ("list", list(&["a", "b"])),
        ]);
        // A prefix counts characters, a `%XX` triplet of `{+x}` as one, and not lists.
        assert_eq!(expanded, "%C3%A9t%C3%A9%20a?list=a,b");
        assert_eq!(
            parse("{;list*}").expand(&[("list", list(&["a", ""]))]),
            ";list=a;list"
        );
        assert_eq!(
            parse("{?list*}").expand(&[("list", list(&["a", ""]))]),
            "?list=a&list="
        );
        assert_eq!(parse("x{list}y").expand(&[("list", list(&[]))]), "xy");
        assert_eq!(parse("x{?a,b}").expand(&[]), "x");
        assert_eq!(
            parse("notes://café/{id}").expand(&[("id", s("1"))]),
            "notes://caf%C3%A9/1"
        );
    }

    // --- MCP-typical templates ---

    #[test]
    fn user_profile() {
        let template = parse("users://{user_id}/profile");
        assert_eq!(
            template.match_uri("users://42/profile"),
            Some(values(&[("user_id", s("42"))]))
        );
        assert_eq!(
            template.match_uri("users://a%20b/profile"),
            Some(values(&[("user_id", s("a b"))]))
        );
        assert_eq!(
            template.match_uri("users://jürgen/profile"),
            Some(values(&[("user_id", s("jürgen"))]))
        );
        assert_eq!(
            template.match_uri("users:///profile"),
            Some(values(&[("user_id", Value::Missing)]))
        );
        assert_eq!(template.match_uri("users://42/profile/"), None);
        assert_eq!(template.match_uri("users://42/settings"), None);
        assert_eq!(template.match_uri("users://42?x=1/profile"), None);
        assert_eq!(template.match_uri("users://4#2/profile"), None);
        assert_eq!(template.match_uri("users://a@b/profile"), None);
        assert!(template.is_template());
        assert!(!template.is_query("user_id"));
        assert_eq!(
            template.variables().map(|var| var.offset).collect::<Vec<_>>(),
            [9]
        );
    }

    #[test]
    fn a_simple_value_never_leaves_its_segment() {
        let template = parse("users://{id}/profile");
        for uri in [
            "users://../profile",
            "users://./profile",
            "users://%2E%2E/profile",
            "users://.%2e/profile",
            "users://a%2Fb/profile",
            "users://a%2fb/profile",
            "users://a%5Cb/profile",
            "users://a/b/profile",
            "users://a/../profile",
        ] {
            assert_eq!(template.match_uri(uri), None, "{uri}");
        }
        assert_eq!(
            template.match_uri("users://..a/profile"),
            Some(values(&[("id", s("..a"))]))
        );
        // The same holds for each item of a list and for path segments.
        assert_eq!(template.match_uri("users://a,../profile"), None);
        assert_eq!(matched("api://v1{/segments*}", "api://v1/a/../b"), None);
        assert_eq!(matched("api://v1{/segments*}", "api://v1/a/%2E%2E/b"), None);
        assert_eq!(matched("api://v1{/segment}", "api://v1/.."), None);
        assert_eq!(matched("x{;p}", "x;p=.."), None);
    }

    #[test]
    fn file_path() {
        let template = parse("file:///{+path}");
        assert_eq!(
            template.match_uri("file:///docs/readme.md"),
            Some(values(&[("path", s("docs/readme.md"))]))
        );
        assert_eq!(
            template.match_uri("file:///my%20file.txt"),
            Some(values(&[("path", s("my file.txt"))]))
        );
        assert_eq!(
            template.match_uri("file:///a?b=c#d"),
            Some(values(&[("path", s("a?b=c#d"))]))
        );
        assert_eq!(
            template.match_uri("file:///a/..b/c."),
            Some(values(&[("path", s("a/..b/c."))]))
        );
        assert_eq!(
            template.match_uri("file:///"),
            Some(values(&[("path", Value::Missing)]))
        );
        for uri in [
            "file:///../etc/passwd",
            "file:///a/../../etc",
            "file:///a/%2e%2E/b",
            "file:///a%2F..%2Fb",
            "file:///..",
            "file:///a\\..",
            "file:///a%5C..%5Cb",
            "file:///%FF",
            "file:///a%zz",
            "file:///a b",
            "file://x",
        ] {
            assert_eq!(template.match_uri(uri), None, "{uri}");
        }
    }

    #[test]
    fn a_reserved_value_stops_before_a_query_or_fragment_that_follows() {
        assert_eq!(
            matched("file:///{+path}{?q}", "file:///a/b?q=1"),
            Some(values(&[("path", s("a/b")), ("q", s("1"))]))
        );
        assert_eq!(
            matched("file:///{+path}{#section}", "file:///a/b#c"),
            Some(values(&[("path", s("a/b")), ("section", s("c"))]))
        );
        assert_eq!(
            matched("file:///{+path}?raw", "file:///a/b?raw"),
            Some(values(&[("path", s("a/b"))]))
        );
    }

    #[test]
    fn issues_with_query() {
        let template = parse("repo://{owner}/{repo}/issues{?state,labels}");
        let base = [("owner", s("o")), ("repo", s("r"))];
        let with = |state: Value, labels: Value| {
            let mut all = values(&base);
            all.extend(values(&[("state", state), ("labels", labels)]));
            Some(all)
        };
        assert_eq!(
            template.match_uri("repo://o/r/issues"),
            with(Value::Missing, Value::Missing)
        );
        assert_eq!(
            template.match_uri("repo://o/r/issues?state=open"),
            with(s("open"), Value::Missing)
        );
        assert_eq!(
            template.match_uri("repo://o/r/issues?labels=bug"),
            with(Value::Missing, s("bug"))
        );
        assert_eq!(
            template.match_uri("repo://o/r/issues?labels=bug,ui&state=open"),
            with(s("open"), list(&["bug", "ui"]))
        );
        assert_eq!(
            template.match_uri("repo://o/r/issues?state=&labels"),
            with(s(""), s(""))
        );
        assert_eq!(
            template.match_uri("repo://o/r/issues?state=a%26b%3Dc"),
            with(s("a&b=c"), Value::Missing)
        );
        // Query values are read leniently: anything RFC 3986 allows in a query.
        assert_eq!(
            template.match_uri("repo://o/r/issues?state=a/b:c@d"),
            with(s("a/b:c@d"), Value::Missing)
        );
        for uri in [
            "repo://o/r/issues?",
            "repo://o/r/issues?page=2",
            "repo://o/r/issues?state=open&page=2",
            "repo://o/r/issues?state=open&state=closed",
            "repo://o/r/issues?state=open&&labels=a",
            "repo://o/r/issues?=open",
            "repo://o/r/issues?state=%FF",
            "repo://o/r/issues#top",
            "repo://o/r/issues/?state=open",
        ] {
            assert_eq!(template.match_uri(uri), None, "{uri}");
        }
        assert!(template.is_query("state"));
        assert!(template.is_query("labels"));
        assert!(!template.is_query("owner"));
        assert!(!template.is_query("nothing"));
        let expanded = template.expand(&[("owner", s("o")), ("repo", s("r")), ("labels", list(&["a", "b"]))]);
        assert_eq!(expanded, "repo://o/r/issues?labels=a,b");
    }

    #[test]
    fn query_continuation_joins_the_query_before_it() {
        let template = parse("search{?q}{&page,lang}");
        assert_eq!(
            template.match_uri("search?lang=en&q=rust&page=2"),
            Some(values(&[("q", s("rust")), ("page", s("2")), ("lang", s("en"))]))
        );
        assert_eq!(
            template.match_uri("search"),
            Some(values(&[
                ("q", Value::Missing),
                ("page", Value::Missing),
                ("lang", Value::Missing)
            ]))
        );
        let fixed = parse("search?fixed=yes{&x,y}");
        assert_eq!(
            fixed.match_uri("search?fixed=yes&y=2&x=1"),
            Some(values(&[("x", s("1")), ("y", s("2"))]))
        );
        assert_eq!(
            fixed.match_uri("search?fixed=yes"),
            Some(values(&[("x", Value::Missing), ("y", Value::Missing)]))
        );
        assert_eq!(fixed.match_uri("search?x=1&fixed=yes"), None);
        assert!(fixed.is_query("y"));
    }

    #[test]
    fn exploded_query_and_parameters() {
        assert_eq!(
            matched("x{?tag*}", "x?tag=a&tag=b"),
            Some(values(&[("tag", list(&["a", "b"]))]))
        );
        assert_eq!(
            matched("x{?tag*,n}", "x?tag=a&n=1&tag=b"),
            Some(values(&[("tag", list(&["a", "b"])), ("n", s("1"))]))
        );
        assert_eq!(
            matched("x{;a,b}", "x;b=2;a"),
            Some(values(&[("a", s("")), ("b", s("2"))]))
        );
        assert_eq!(matched("x{;a}", "x;c=2"), None);
    }

    #[test]
    fn docs_with_fragment() {
        let expected = Some(values(&[
            ("section", s("guide")),
            ("page", s("intro")),
            ("anchor", s("setup")),
        ]));
        assert_eq!(
            matched("docs://{section}/{page}#{anchor}", "docs://guide/intro#setup"),
            expected
        );
        assert_eq!(
            matched("docs://{section}/{page}{#anchor}", "docs://guide/intro#setup"),
            expected
        );
        assert_eq!(
            matched("docs://{section}/{page}{#anchor}", "docs://guide/intro"),
            Some(values(&[
                ("section", s("guide")),
                ("page", s("intro")),
                ("anchor", Value::Missing)
            ]))
        );
        assert_eq!(
            matched("docs://{section}/{page}#{anchor}", "docs://guide/intro"),
            None
        );
        assert_eq!(
            matched("docs://{section}/{page}{#anchor}", "docs://guide/intro#a/b"),
            Some(values(&[
                ("section", s("guide")),
                ("page", s("intro")),
                ("anchor", s("a/b")),
            ]))
        );
    }

    #[test]
    fn exploded_path_segments() {
        let template = parse("api://v1{/segments*}");
        assert_eq!(
            template.match_uri("api://v1/a/b/c"),
            Some(values(&[("segments", list(&["a", "b", "c"]))]))
        );
        assert_eq!(
            template.match_uri("api://v1/a"),
            Some(values(&[("segments", list(&["a"]))]))
        );
        assert_eq!(
            template.match_uri("api://v1"),
            Some(values(&[("segments", Value::Missing)]))
        );
        assert_eq!(template.match_uri("api://v1/a%2Fb"), None);
        assert_eq!(template.match_uri("api://v1/a,b"), None);
        assert_eq!(template.match_uri("api://v2/a"), None);
        let expanded = template.expand(&[("segments", list(&["a b", "c"]))]);
        assert_eq!(expanded, "api://v1/a%20b/c");
        assert_eq!(
            template.match_uri(&expanded),
            Some(values(&[("segments", list(&["a b", "c"]))]))
        );
    }

    /// A small deterministic generator, so that the round trip below needs no dependency.
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 33) as usize) % n
        }

        /// A non-empty string from `alphabet`, never `.` or `..`.
        fn text(&mut self, alphabet: &[char]) -> String {
            loop {
                let len = 1 + self.below(6);
                let text: String = (0..len).map(|_| alphabet[self.below(alphabet.len())]).collect();
                if text != "." && text != ".." {
                    return text;
                }
            }
        }
    }

    #[test]
    fn random_values_round_trip_through_mcp_templates() {
        // Everything but `/` and `\` (refused in a segment) and `%` (kept as is by `{+x}`).
        let any: Vec<char> = "aZ9-._~ !\"#$&'()*+,:;<=>?@[]^`{|}é€😀".chars().collect();
        let mut random = Lcg(7);
        for _ in 0..500 {
            let id = random.text(&any);
            let template = parse("users://{id}/profile");
            let uri = template.expand(&[("id", Value::String(id.clone()))]);
            assert_eq!(template.match_uri(&uri), Some(values(&[("id", s(&id))])), "{uri}");

            // A list of one item reads as a string: nothing in `labels=a` tells them apart.
            let count = [0, 2, 3][random.below(3)];
            let labels: Vec<String> = (0..count).map(|_| random.text(&any)).collect();
            let state = if random.below(2) == 0 {
                Value::Missing
            } else {
                Value::String(random.text(&any))
            };
            let labels = if labels.is_empty() {
                Value::Missing
            } else {
                Value::List(labels)
            };
            let template = parse("repo://{owner}/{repo}/issues{?state,labels}");
            let given = [
                ("owner", s("o")),
                ("repo", s("r")),
                ("state", state),
                ("labels", labels),
            ];
            let uri = template.expand(&given);
            assert_eq!(template.match_uri(&uri), Some(values(&given)), "{uri}");

            let segments: Vec<String> = (0..1 + random.below(3)).map(|_| random.text(&any)).collect();
            let template = parse("api://v1{/segments*}");
            let given = [("segments", Value::List(segments))];
            let uri = template.expand(&given);
            assert_eq!(template.match_uri(&uri), Some(values(&given)), "{uri}");

            let path: Vec<String> = (0..1 + random.below(3)).map(|_| random.text(&any)).collect();
            let path = path.join("/");
            let template = parse("file:///{+path}");
            let uri = template.expand(&[("path", Value::String(path.clone()))]);
            assert_eq!(
                template.match_uri(&uri),
                Some(values(&[("path", s(&path))])),
                "{uri}"
            );

            let anchor = random.text(&any);
            let template = parse("docs://{section}/{page}{#anchor}");
            let given = [
                ("section", s("guide")),
                ("page", s("intro")),
                ("anchor", Value::String(anchor)),
            ];
            let uri = template.expand(&given);
            assert_eq!(template.match_uri(&uri), Some(values(&given)), "{uri}");
        }
    }

    #[test]
    fn ambiguous_templates() {
        // Shortest first: a simple value ends at the first `.`.
        assert_eq!(
            matched("file://{name}.{ext}", "file://archive.tar.gz"),
            Some(values(&[("name", s("archive")), ("ext", s("tar.gz"))]))
        );
        // Longest first: a reserved value ends at the last `/`.
        assert_eq!(
            matched("{+a}/{+b}", "x/y/z"),
            Some(values(&[("a", s("x/y")), ("b", s("z"))]))
        );
        // A simple value cannot hold a `/`, so the reserved one after it takes the rest.
        assert_eq!(
            matched("{a}/{+b}", "x/y/z"),
            Some(values(&[("a", s("x")), ("b", s("y/z"))]))
        );
        // Backtracking: the exploded segments give back what `{y}` needs.
        assert_eq!(
            matched("{/x*}/{y}", "/a/b/c"),
            Some(values(&[("x", list(&["a", "b"])), ("y", s("c"))]))
        );
        // A label alone keeps its dots; several labels split at each one.
        assert_eq!(matched("X{.v}", "X.a.b"), Some(values(&[("v", s("a.b"))])));
        assert_eq!(
            matched("X{.v,w}", "X.a.b"),
            Some(values(&[("v", s("a")), ("w", s("b"))]))
        );
        assert_eq!(matched("X{.v,w}", "X.a.b.c"), None);
        assert_eq!(
            matched("X{.v*,w}", "X.a.b.c"),
            Some(values(&[("v", list(&["a", "b"])), ("w", s("c"))]))
        );
        assert_eq!(matched("{x,y}", "1,2,3"), None);
        assert_eq!(
            matched("{x*,y}", "1,2,3"),
            Some(values(&[("x", list(&["1", "2"])), ("y", s("3"))]))
        );
    }

    #[test]
    fn literals_match_exactly() {
        let template = parse("notes://café/{id}");
        assert_eq!(
            template.match_uri("notes://café/1"),
            Some(values(&[("id", s("1"))]))
        );
        assert_eq!(
            template.match_uri("notes://caf%C3%A9/1"),
            Some(values(&[("id", s("1"))]))
        );
        assert_eq!(template.match_uri("notes://cafe/1"), None);
        let plain = parse("config://app%20settings");
        assert!(!plain.is_template());
        assert_eq!(plain.match_uri("config://app%20settings"), Some(Vec::new()));
        assert_eq!(plain.match_uri("config://app%20settings/"), None);
        assert_eq!(parse("").match_uri(""), Some(Vec::new()));
    }

    #[test]
    fn invalid_utf8_after_decoding_is_no_match() {
        assert_eq!(matched("users://{id}/profile", "users://%FF/profile"), None);
        assert_eq!(matched("users://{id}/profile", "users://%C3/profile"), None);
        assert_eq!(matched("x{?q}", "x?q=%C3%28"), None);
        assert_eq!(matched("users://{id}/profile", "users://%G1/profile"), None);
    }

    #[test]
    fn a_hostile_uri_gives_up_quickly() {
        let template = parse("{+a}{+b}{+c}{+d}{+e}!");
        let uri = "x".repeat(20_000);
        let start = std::time::Instant::now();
        assert_eq!(template.match_uri(&uri), None);
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
        // A long URI with an ordinary template is still matched.
        let long = format!("file:///{}", "a/".repeat(50_000));
        assert!(parse("file:///{+path}").match_uri(&long).is_some());
    }

    #[test]
    fn parse_keeps_parts_and_modifiers() {
        let template = parse("a{b}{+c:12,d*}%41");
        assert_eq!(
            template.parts,
            [
                Part::Literal("a".to_owned()),
                Part::Expression(Expression {
                    operator: Operator::Simple,
                    variables: vec![VarSpec {
                        name: "b".to_owned(),
                        prefix: None,
                        explode: false,
                        offset: 2
                    }],
                }),
                Part::Expression(Expression {
                    operator: Operator::Reserved,
                    variables: vec![
                        VarSpec {
                            name: "c".to_owned(),
                            prefix: Some(12),
                            explode: false,
                            offset: 6
                        },
                        VarSpec {
                            name: "d".to_owned(),
                            prefix: None,
                            explode: true,
                            offset: 11
                        },
                    ],
                }),
                Part::Literal("%41".to_owned()),
            ]
        );
        for (text, operator) in [
            ("{x}", Operator::Simple),
            ("{+x}", Operator::Reserved),
            ("{#x}", Operator::Fragment),
            ("{.x}", Operator::Label),
            ("{/x}", Operator::Path),
            ("{;x}", Operator::PathParam),
            ("{?x}", Operator::Query),
            ("{&x}", Operator::QueryContinuation),
        ] {
            let template = parse(text);
            let Part::Expression(expression) = &template.parts[0] else {
                panic!("{text}")
            };
            assert_eq!(expression.operator, operator, "{text}");
        }
        let names: Vec<_> = parse("{a.b,c_1,%41B,x:9999}")
            .variables()
            .map(|var| var.name.clone())
            .collect();
        assert_eq!(names, ["a.b", "c_1", "%41B", "x"]);
    }

    // --- parse errors ---

    fn error(text: &str) -> (usize, usize, String) {
        let errors = Template::parse(text).expect_err(text);
        assert_eq!(errors.len(), 1, "`{text}` gives {errors:?}");
        let TemplateError { offset, len, message } = errors.into_iter().next().unwrap();
        (offset, len, message)
    }

    fn expect(text: &str, offset: usize, len: usize, message: &str) {
        assert_eq!(error(text), (offset, len, message.to_owned()), "`{text}`");
    }

    #[test]
    fn unclosed_and_unmatched_braces() {
        expect(
            "users://{id/profile",
            8,
            1,
            "unclosed `{`; an expression ends with `}`, as in `{name}`",
        );
        expect(
            "a{b{c}",
            1,
            1,
            "unclosed `{`; an expression ends with `}`, as in `{name}`",
        );
        expect(
            "a}b",
            1,
            1,
            "unmatched `}`; a `}` closes an expression opened with `{`, and a literal `}` is written `%7D`",
        );
    }

    #[test]
    fn empty_expressions() {
        expect(
            "{}",
            0,
            2,
            "empty expression `{}`; an expression names at least one variable, as in `{name}`",
        );
        expect(
            "x{+}",
            1,
            3,
            "empty expression `{+}`; an expression names at least one variable, as in `{name}`",
        );
    }

    #[test]
    fn reserved_operators() {
        for op in ['=', ',', '!', '@', '|'] {
            expect(
                &format!("x{{{op}y}}"),
                2,
                1,
                &format!(
                    "the operator `{op}` is reserved by RFC 6570; the operators are `+`, `#`, `.`, `/`, `;`, `?`, `&`"
                ),
            );
        }
        expect(
            "{=}",
            1,
            1,
            "the operator `=` is reserved by RFC 6570; the operators are `+`, `#`, `.`, `/`, `;`, `?`, `&`",
        );
    }

    #[test]
    fn bad_variable_names() {
        let allowed =
            "a name is letters, digits, `_` and percent-encoded bytes, with single `.` between them";
        expect(
            "{user-id}",
            5,
            1,
            &format!("invalid character `-` in variable name `user-id`; {allowed}"),
        );
        expect(
            "{a b}",
            2,
            1,
            &format!("invalid character ` ` (a space) in variable name `a b`; {allowed}"),
        );
        expect(
            "{é}",
            1,
            2,
            &format!("invalid character `é` in variable name `é`; {allowed}"),
        );
        expect(
            "{-x}",
            1,
            1,
            &format!("invalid character `-` in variable name `-x`; {allowed}"),
        );
        let misplaced = "a `.` goes between two name characters, as in `user.id`";
        expect(
            "{a..b}",
            2,
            1,
            &format!("misplaced `.` in variable name `a..b`; {misplaced}"),
        );
        expect(
            "{.a.}",
            3,
            1,
            &format!("misplaced `.` in variable name `a.`; {misplaced}"),
        );
        expect(
            "{a.}",
            2,
            1,
            &format!("misplaced `.` in variable name `a.`; {misplaced}"),
        );
        expect(
            "{a%zz}",
            2,
            3,
            "invalid percent-encoding `%zz` in variable name `a%zz`; a `%` is followed by two hex digits",
        );
        expect(
            "{a%4}",
            2,
            2,
            "invalid percent-encoding `%4` in variable name `a%4`; a `%` is followed by two hex digits",
        );
        let missing = "missing variable name; an expression lists names separated by `,`, as in `{x,y}`";
        expect("{a,,b}", 3, 1, missing);
        expect("{a,}", 3, 1, missing);
        expect("{:3}", 1, 1, missing);
        expect("{?*}", 2, 1, missing);
    }

    #[test]
    fn bad_prefixes_and_modifiers() {
        let range = "a prefix is a number from 1 to 9999, as in `{name:3}`";
        expect("{x:0}", 2, 2, &format!("prefix `:0` is out of range; {range}"));
        expect(
            "{x:10000}",
            2,
            6,
            &format!("prefix `:10000` is out of range; {range}"),
        );
        expect(
            "{x:abc}",
            2,
            4,
            &format!("prefix `:abc` is not a number; {range}"),
        );
        expect("{x:-1}", 2, 3, &format!("prefix `:-1` is not a number; {range}"));
        expect("{x:03}", 2, 3, &format!("prefix `:03` starts with `0`; {range}"));
        expect(
            "{x:}",
            2,
            1,
            &format!("missing prefix length after `x:`; {range}"),
        );
        let both = "variable `x` has both a prefix and `*`; a variable takes one modifier, a prefix such as `:3` or `*`";
        expect("{x:3*}", 2, 3, both);
        expect("{x*:3}", 2, 3, both);
        expect(
            "{x*y}",
            2,
            2,
            "unexpected `*y` after variable `x`; a variable ends with a prefix such as `:3`, or with `*`",
        );
        expect(
            "{x**}",
            2,
            2,
            "unexpected `**` after variable `x`; a variable ends with a prefix such as `:3`, or with `*`",
        );
    }

    #[test]
    fn a_variable_named_twice() {
        let twice = "variable `x` appears twice; a variable appears once in a template";
        expect("{x}/{x}", 5, 1, twice);
        expect("{x,y:2,x*}", 7, 1, twice);
        expect("{x}{?x}", 5, 1, twice);
    }

    #[test]
    fn bad_literal_characters() {
        for (c, encoded) in [
            ('<', "%3C"),
            ('>', "%3E"),
            ('\\', "%5C"),
            ('^', "%5E"),
            ('|', "%7C"),
            ('"', "%22"),
            ('\'', "%27"),
        ] {
            expect(
                &format!("a{c}b"),
                1,
                1,
                &format!(
                    "invalid character `{c}` in the template; outside `{{}}` it is written percent-encoded, as `{encoded}`"
                ),
            );
        }
        expect(
            "a`b",
            1,
            1,
            "invalid character `` ` `` in the template; outside `{}` it is written percent-encoded, as `%60`",
        );
        expect(
            "a b",
            1,
            1,
            "invalid character ` ` (a space) in the template; outside `{}` it is written percent-encoded, as `%20`",
        );
        expect(
            "a\tb",
            1,
            1,
            "invalid character U+0009 in the template; outside `{}` it is written percent-encoded, as `%09`",
        );
        expect(
            "a\u{FFFE}",
            1,
            3,
            "invalid character U+FFFE in the template; outside `{}` it is written percent-encoded, as `%EF%BF%BE`",
        );
        expect(
            "a%zz",
            1,
            1,
            "`%` is not followed by two hex digits; a literal `%` is written `%25`",
        );
        expect(
            "a%4",
            1,
            1,
            "`%` is not followed by two hex digits; a literal `%` is written `%25`",
        );
        assert!(Template::parse("users://jürgen/{id}?a=b&c=%2F#x!$()*+,;=:@[]~").is_ok());
    }

    #[test]
    fn every_error_at_once() {
        let text = "a b{=x}{user-id}{}}{w:0}{v:3*}{u}{u}/{t";
        let errors = Template::parse(text).unwrap_err();
        let found: Vec<(usize, usize)> = errors.iter().map(|error| (error.offset, error.len)).collect();
        assert_eq!(
            found,
            [
                (1, 1),
                (4, 1),
                (12, 1),
                (16, 2),
                (18, 1),
                (21, 2),
                (26, 3),
                (34, 1),
                (37, 1)
            ]
        );
        let starts: Vec<&str> = errors
            .iter()
            .map(|error| error.message.split(';').next().unwrap())
            .collect();
        assert_eq!(
            starts,
            [
                "invalid character ` ` (a space) in the template",
                "the operator `=` is reserved by RFC 6570",
                "invalid character `-` in variable name `user-id`",
                "empty expression `{}`",
                "unmatched `}`",
                "prefix `:0` is out of range",
                "variable `v` has both a prefix and `*`",
                "variable `u` appears twice",
                "unclosed `{`",
            ]
        );
        assert_eq!(errors[0].to_string(), errors[0].message);
    }
}
