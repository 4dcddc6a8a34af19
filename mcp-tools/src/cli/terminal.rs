//! The client of the command line's `call`: what answers a tool that asks when it runs
//! outside the protocol.
//!
//! | the tool asks | the command line |
//! |---|---|
//! | a form ([`Context::elicit`](crate::Context::elicit)) | prompts on the terminal, field by field |
//! | a URL ([`Context::elicit_url`](crate::Context::elicit_url)) | prints it, and asks whether the user will open it |
//! | the roots ([`Context::list_roots`](crate::Context::list_roots)) | the current directory, as one `file://` root |
//! | the model ([`Context::sample`](crate::Context::sample)) | cannot: it has no model, and does not declare `sampling` |
//!
//! It declares `elicitation` (forms and URLs) only when a person can answer: when standard
//! input and standard error are both terminals. Prompts go to standard error, so standard
//! output carries the result's JSON alone. Otherwise (input from a pipe or a file, say)
//! elicitation is not declared either: the tool's ask fails with
//! [`AskError::MissingCapability`](crate::ask::AskError::MissingCapability), and the tool's own
//! handling of that (or the error) applies. `call` then notes on standard error why
//! ([`Terminal::missing_note`]).
//!
//! The prompting itself is [`answer_elicitation`]: a function of the request and of the
//! lines to read and write, so it runs without a terminal in the tests.

use crate::context::{ClientChannel, Notification};
use crate::error::{ClientCapability, ClientRequestError};
use crate::form::{self, Choice};
use crate::protocol::ErrorCode;
use serde_json::{Map, Value, json};
use std::future::Future;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;

/// The command line as the client of one `call`.
pub(super) struct Terminal {
    /// Whether a person can answer: standard input and standard error are terminals.
    interactive: bool,
}

impl Terminal {
    /// The terminal this process runs in, if any: prompts need standard input and standard
    /// error to be terminals.
    pub(super) fn detect() -> Terminal {
        Terminal {
            interactive: io::stdin().is_terminal() && io::stderr().is_terminal(),
        }
    }

    /// The client a call outside the protocol gets: this terminal as its channel, and the
    /// capabilities it declares.
    pub(super) fn local_client(self: &Arc<Self>) -> (Arc<dyn ClientChannel>, Value) {
        (Arc::clone(self) as Arc<dyn ClientChannel>, self.capabilities())
    }

    /// The capabilities it declares: `roots` always; `elicitation` (forms and URLs) when a
    /// person can answer; `sampling` never.
    fn capabilities(&self) -> Value {
        if self.interactive {
            json!({ "elicitation": { "form": {}, "url": {} }, "roots": {} })
        } else {
            json!({ "roots": {} })
        }
    }

    /// What to say on standard error when the tool `tool` failed for want of `capability`.
    pub(super) fn missing_note(&self, tool: &str, capability: ClientCapability) -> String {
        let why = match capability {
            ClientCapability::Sampling | ClientCapability::SamplingTools => {
                "which the command line cannot offer (it has no model to ask); call it from an MCP client"
            }
            ClientCapability::ElicitationForm | ClientCapability::ElicitationUrl if !self.interactive => {
                "which the command line offers only when standard input and standard error are a \
                 terminal, to prompt on; run the command in one, or call the tool from an MCP client"
            }
            _ => "which the command line does not offer; call it from an MCP client",
        };
        format!("note: `{tool}` needs the client capability `{capability}`, {why}")
    }
}

impl ClientChannel for Terminal {
    /// Nothing to do: a call outside the protocol asks for no log messages and no progress,
    /// so its tool sends none.
    fn notify(&self, _notification: Notification) {}

    fn request(
        &self,
        method: &str,
        params: Value,
        _key: Option<&str>,
        _check: crate::context::Check,
    ) -> Pin<Box<dyn Future<Output = Result<Value, ClientRequestError>> + Send>> {
        let mode = params.get("mode").and_then(Value::as_str).unwrap_or("form");
        match method {
            "elicitation/create" if self.interactive && matches!(mode, "form" | "url") => {
                Box::pin(prompt(params))
            }
            "roots/list" => Box::pin(std::future::ready(roots())),
            _ => Box::pin(std::future::ready(Err(ClientRequestError::Refused {
                code: ErrorCode::METHOD_NOT_FOUND,
                message: format!("the command line does not answer `{method}`"),
                data: None,
            }))),
        }
    }
}

/// Prompts for an elicitation on the terminal, off the runtime's threads.
///
/// Reading standard input blocks, so it happens on a thread of its own, which holds
/// standard input for the whole form (two asks at once prompt one after the other). It is
/// a plain thread rather than `tokio::task::spawn_blocking`: a runtime waits for its
/// blocking tasks when it shuts down, and a call that runs out of time while the user has
/// not answered would leave the process waiting for a line nobody is asked for any more.
/// A plain thread ends with the process.
async fn prompt(params: Value) -> Result<Value, ClientRequestError> {
    let (answered, answer) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("mcp-toolkit-terminal".into())
        .spawn(move || {
            let mut input = io::stdin().lock();
            // Standard error is written line by line, not held: anything else the process
            // says meanwhile (a log line) still gets out.
            let mut output = io::stderr();
            answered
                .send(answer_elicitation(&params, &mut input, &mut output))
                .ok();
        })
        .map_err(unreadable)?;
    answer
        .await
        .map_err(|_| ClientRequestError::Closed)?
        .map_err(unreadable)
}

/// The error for a terminal that could not be read or written.
fn unreadable(error: io::Error) -> ClientRequestError {
    ClientRequestError::Refused {
        code: ErrorCode::INTERNAL_ERROR,
        message: format!("the terminal could not be used: {error}"),
        data: None,
    }
}

/// The answer to `roots/list`: the current directory, as one `file://` root named after
/// its last component.
fn roots() -> Result<Value, ClientRequestError> {
    let dir = std::env::current_dir().map_err(|error| ClientRequestError::Refused {
        code: ErrorCode::INTERNAL_ERROR,
        message: format!("the current directory is unknown: {error}"),
        data: None,
    })?;
    let mut root = json!({ "uri": file_uri(&dir) });
    if let Some(name) = dir.file_name() {
        root["name"] = name.to_string_lossy().into();
    }
    Ok(json!({ "roots": [root] }))
}

/// The `file://` URI of an absolute path: `/home/ada/my notes` is
/// `file:///home/ada/my%20notes`. Every byte but the URI's unreserved characters
/// (`A-Z a-z 0-9 - . _ ~`) and the separators is percent-encoded, so spaces, `%`, `#`, `?`
/// and non-ASCII (as UTF-8) arrive intact. On Windows, `C:\Users\ada` is
/// `file:///C:/Users/ada`.
fn file_uri(path: &Path) -> String {
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = {
        let text = path.to_string_lossy().replace('\\', "/");
        let text = if text.starts_with('/') {
            text
        } else {
            format!("/{text}")
        };
        text.into_bytes()
    };
    let mut uri = String::from("file://");
    for byte in bytes {
        let keep = byte.is_ascii_alphanumeric()
            || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/')
            || (cfg!(not(unix)) && byte == b':');
        if keep {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri
}

/// Answers an `elicitation/create` request's `params` with an `ElicitResult`: the form
/// (`requestedSchema`, field by field) or the URL it asks about, prompted for on `output`,
/// the answers read a line at a time from `input`.
///
/// First the message, and whether to fill the form at all: `[Y]es` (Enter), `[n]o`
/// (decline) or `[c]ancel`. Then each field in order: its title or name, description, what
/// it accepts (its choices numbered), and what an empty line does (take the default, leave
/// an optional field out). A line that does not fit is asked again, saying what is
/// accepted. The end of input (Ctrl-D) at any point cancels.
fn answer_elicitation(
    params: &Value,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> io::Result<Value> {
    let message = params.get("message").and_then(Value::as_str).unwrap_or_default();
    writeln!(output, "{message}")?;
    if params.get("mode").and_then(Value::as_str) == Some("url") {
        let url = params.get("url").and_then(Value::as_str).unwrap_or_default();
        writeln!(output, "  {url}")?;
        let action = decide(input, output, "Open this URL? [Y]es, [n]o (decline), [c]ancel: ")?;
        if action == Action::Accept {
            writeln!(output, "Open it in your browser to go on.")?;
        }
        return Ok(json!({ "action": action.as_str() }));
    }
    let requested = params.get("requestedSchema").unwrap_or(&Value::Null);
    let action = decide(
        input,
        output,
        "Fill in the form? [Y]es, [n]o (decline), [c]ancel: ",
    )?;
    if action != Action::Accept {
        return Ok(json!({ "action": action.as_str() }));
    }
    let required: Vec<&str> = requested
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut content = Map::new();
    let fields = requested.get("properties").and_then(Value::as_object);
    for (name, field) in fields.into_iter().flatten() {
        let Some(field) = field.as_object() else {
            continue;
        };
        let field = Field::new(name, field, required.contains(&name.as_str()));
        match field.ask(input, output)? {
            Asked::Value(value) => {
                content.insert(name.clone(), value);
            }
            Asked::Skipped => {}
            Asked::Ended => return Ok(json!({ "action": "cancel" })),
        }
    }
    Ok(json!({ "action": "accept", "content": content }))
}

/// What the user did with the form or URL as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Accept,
    Decline,
    Cancel,
}

impl Action {
    fn as_str(self) -> &'static str {
        match self {
            Action::Accept => "accept",
            Action::Decline => "decline",
            Action::Cancel => "cancel",
        }
    }
}

/// Asks `question` until the answer is yes (or an empty line), no or cancel; the end of
/// input is cancel.
fn decide(input: &mut impl BufRead, output: &mut impl Write, question: &str) -> io::Result<Action> {
    loop {
        write!(output, "{question}")?;
        output.flush()?;
        let Some(line) = read_line(input)? else {
            writeln!(output)?;
            return Ok(Action::Cancel);
        };
        match line.to_lowercase().as_str() {
            "" | "y" | "yes" => return Ok(Action::Accept),
            "n" | "no" => return Ok(Action::Decline),
            "c" | "cancel" => return Ok(Action::Cancel),
            _ => writeln!(output, "  answer y (yes), n (no: decline) or c (cancel)")?,
        }
    }
}

/// A line of input without its line ending and surrounding blanks; `None` at the end of
/// input.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    Ok(Some(line.trim().to_owned()))
}

/// A field's answer.
enum Asked {
    Value(Value),
    /// An optional field left empty, without a default.
    Skipped,
    /// The end of input: the form is cancelled.
    Ended,
}

/// What a field takes, as the prompt reads it.
enum Kind {
    Boolean,
    Integer,
    Number,
    Text,
    One(Vec<Choice>),
    Many(Vec<Choice>),
    /// A type outside the form subset: taken as text, unchecked.
    Unknown,
}

/// One field of the form, as prompted for.
struct Field<'a> {
    name: &'a str,
    schema: &'a Map<String, Value>,
    required: bool,
    kind: Kind,
}

impl<'a> Field<'a> {
    fn new(name: &'a str, schema: &'a Map<String, Value>, required: bool) -> Field<'a> {
        let kind = match schema.get("type").and_then(Value::as_str) {
            Some("boolean") => Kind::Boolean,
            Some("integer") => Kind::Integer,
            Some("number") => Kind::Number,
            Some("string") => form::choices(schema).map_or(Kind::Text, Kind::One),
            Some("array") => {
                let items = schema.get("items").and_then(Value::as_object);
                items.and_then(form::choices).map_or(Kind::Unknown, Kind::Many)
            }
            // A select whose schema names no type is a select still.
            None => form::choices(schema).map_or(Kind::Unknown, Kind::One),
            _ => Kind::Unknown,
        };
        Field {
            name,
            schema,
            required,
            kind,
        }
    }

    /// Prompts for the field until its answer fits.
    fn ask(&self, input: &mut impl BufRead, output: &mut impl Write) -> io::Result<Asked> {
        self.describe(output)?;
        let default = self.schema.get("default");
        loop {
            write!(output, "> ")?;
            output.flush()?;
            let Some(line) = read_line(input)? else {
                writeln!(output)?;
                return Ok(Asked::Ended);
            };
            let value = match (line.is_empty(), default) {
                (true, Some(default)) => return Ok(Asked::Value(default.clone())),
                (true, None) if !self.required => return Ok(Asked::Skipped),
                // A required text without a default may be empty, if its length allows.
                (true, None) if !matches!(self.kind, Kind::Text | Kind::Unknown) => {
                    writeln!(output, "  an answer is required: {}", self.accepted())?;
                    continue;
                }
                _ => self.parse(&line),
            };
            match value.and_then(|value| self.check(value)) {
                Ok(value) => return Ok(Asked::Value(value)),
                Err(problem) => writeln!(output, "  {problem}")?,
            }
        }
    }

    /// Prints the field: its label, what it accepts, its choices, what an empty line does.
    fn describe(&self, output: &mut impl Write) -> io::Result<()> {
        let text = |key: &str| self.schema.get(key).and_then(Value::as_str);
        writeln!(output)?;
        let mut label = text("title").unwrap_or(self.name).to_owned();
        if let Some(description) = text("description") {
            label.push_str(" — ");
            label.push_str(description);
        }
        if self.required && self.schema.get("default").is_none() {
            label.push_str(" (required)");
        }
        writeln!(output, "{label}")?;
        writeln!(output, "  {}", self.accepted())?;
        if let Kind::One(choices) | Kind::Many(choices) = &self.kind {
            for (number, choice) in choices.iter().enumerate() {
                match &choice.title {
                    Some(title) if *title != choice.value => {
                        writeln!(output, "    {}) {} — {title}", number + 1, choice.value)?;
                    }
                    _ => writeln!(output, "    {}) {}", number + 1, choice.value)?,
                }
            }
        }
        match self.schema.get("default") {
            Some(default) => writeln!(output, "  Enter for the default: {}", self.shown(default))?,
            None if !self.required => writeln!(output, "  Enter to leave it out")?,
            None => {}
        }
        Ok(())
    }

    /// What the field accepts, in words.
    fn accepted(&self) -> String {
        let number = |key: &str| {
            self.schema
                .get(key)
                .filter(|v| v.is_number())
                .map(Value::to_string)
        };
        let count = |key: &str| self.schema.get(key).and_then(Value::as_u64);
        let bounds = |what: &str| match (number("minimum"), number("maximum")) {
            (Some(min), Some(max)) => format!("{what} from {min} to {max}"),
            (Some(min), None) => format!("{what} of at least {min}"),
            (None, Some(max)) => format!("{what} of at most {max}"),
            (None, None) => what.to_owned(),
        };
        match &self.kind {
            Kind::Boolean => "yes or no (y/n, yes/no, true/false)".into(),
            Kind::Integer => bounds("a whole number"),
            Kind::Number => bounds("a number"),
            Kind::Text => {
                let what = match self.schema.get("format").and_then(Value::as_str) {
                    Some("email") => "an email address",
                    Some("uri") => "a URI (such as https://example.com)",
                    Some("date") => "a date (YYYY-MM-DD)",
                    Some("date-time") => "a date and time (such as 2025-01-31T09:30:00Z)",
                    _ => "text",
                };
                match (count("minLength"), count("maxLength")) {
                    (Some(min), Some(max)) => format!("{what} of {min} to {max} characters"),
                    (Some(min), None) => format!("{what} of at least {}", characters(min)),
                    (None, Some(max)) => format!("{what} of at most {}", characters(max)),
                    (None, None) => what.to_owned(),
                }
            }
            Kind::One(_) => "one of these, by number or value:".into(),
            Kind::Many(_) => {
                let how_many = match (count("minItems"), count("maxItems")) {
                    (Some(min), Some(max)) => format!("{min} to {max} of these"),
                    (Some(min), None) => format!("at least {min} of these"),
                    (None, Some(max)) => format!("at most {max} of these"),
                    (None, None) => "any of these".into(),
                };
                let none = if count("minItems").unwrap_or(0) == 0 {
                    " (`-` for none)"
                } else {
                    ""
                };
                format!("{how_many}, by numbers or values separated by commas{none}:")
            }
            Kind::Unknown => "text".into(),
        }
    }

    /// A value as the user would type it: a choice, `yes`, `3`, `"Paris"`.
    fn shown(&self, value: &Value) -> String {
        match value {
            Value::Bool(true) => "yes".into(),
            Value::Bool(false) => "no".into(),
            Value::String(text) if matches!(self.kind, Kind::One(_)) => text.clone(),
            Value::Array(items) => {
                let items: Vec<String> = items
                    .iter()
                    .map(|item| item.as_str().map_or_else(|| item.to_string(), str::to_owned))
                    .collect();
                if items.is_empty() {
                    "none".into()
                } else {
                    items.join(", ")
                }
            }
            other => other.to_string(),
        }
    }

    /// The value a line means, or what is wrong with it.
    fn parse(&self, line: &str) -> Result<Value, String> {
        let unfit = |what: &str| format!("expected {what}, received `{line}`");
        match &self.kind {
            Kind::Boolean => match line.to_lowercase().as_str() {
                "y" | "yes" | "true" => Ok(Value::Bool(true)),
                "n" | "no" | "false" => Ok(Value::Bool(false)),
                _ => Err(unfit("y or n, yes or no, true or false")),
            },
            Kind::Integer => match (line.parse::<i64>(), line.parse::<u64>()) {
                (Ok(number), _) => Ok(number.into()),
                (_, Ok(number)) => Ok(number.into()),
                _ => Err(unfit("a whole number, such as 42")),
            },
            Kind::Number => {
                if let Ok(number) = line.parse::<i64>() {
                    return Ok(number.into());
                }
                line.parse::<f64>()
                    .ok()
                    .and_then(serde_json::Number::from_f64)
                    .map(Value::Number)
                    .ok_or_else(|| unfit("a number, such as 42 or 2.5"))
            }
            Kind::Text | Kind::Unknown => Ok(Value::String(line.to_owned())),
            Kind::One(choices) => pick(choices, line).map(Value::from),
            Kind::Many(choices) => {
                if line == "-" && !choices.iter().any(|choice| choice.value == "-") {
                    return Ok(json!([]));
                }
                let mut picked: Vec<Value> = Vec::new();
                for part in line.split(',').map(str::trim).filter(|part| !part.is_empty()) {
                    let value = Value::from(pick(choices, part)?);
                    if !picked.contains(&value) {
                        picked.push(value);
                    }
                }
                Ok(Value::Array(picked))
            }
        }
    }

    /// The value, if it fits the field as the tool will check it; else what is wrong.
    fn check(&self, value: Value) -> Result<Value, String> {
        if matches!(self.kind, Kind::Unknown) {
            return Ok(value);
        }
        let form = json!({ "type": "object", "properties": { self.name: self.schema } });
        let content = json!({ self.name: value });
        match form::check_content(&form, &content) {
            Ok(()) => Ok(value),
            Err(error) => Err(error.reason),
        }
    }
}

/// "1 character", "5 characters".
fn characters(n: u64) -> String {
    if n == 1 {
        "1 character".into()
    } else {
        format!("{n} characters")
    }
}

/// The choice `text` names: its number, its value, or (ignoring case) its one value or
/// title that matches.
fn pick<'c>(choices: &'c [Choice], text: &str) -> Result<&'c str, String> {
    if let Ok(number) = text.parse::<usize>()
        && let Some(choice) = number.checked_sub(1).and_then(|at| choices.get(at))
    {
        return Ok(&choice.value);
    }
    if let Some(choice) = choices.iter().find(|choice| choice.value == text) {
        return Ok(&choice.value);
    }
    let lower = text.to_lowercase();
    let mut matching = choices.iter().filter(|choice| {
        choice.value.to_lowercase() == lower
            || choice
                .title
                .as_ref()
                .is_some_and(|title| title.to_lowercase() == lower)
    });
    if let (Some(choice), None) = (matching.next(), matching.next()) {
        return Ok(&choice.value);
    }
    let values: Vec<String> = choices
        .iter()
        .map(|choice| Value::from(choice.value.as_str()).to_string())
        .collect();
    Err(format!(
        "expected a number from 1 to {} or one of {}, received `{text}`",
        choices.len(),
        values.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// Answers `params` with the lines of `typed`: the `ElicitResult`, and what was printed.
    fn answered(params: &Value, typed: &str) -> (Value, String) {
        let mut output = Vec::new();
        let result = answer_elicitation(params, &mut Cursor::new(typed.as_bytes()), &mut output).unwrap();
        (result, String::from_utf8(output).unwrap())
    }

    fn form(schema: Value) -> Value {
        json!({ "message": "Tell me", "requestedSchema": schema })
    }

    /// A form with a field of every kind, as `form.rs` makes them.
    fn every_kind() -> Value {
        form(json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "title": "Name", "description": "Your name", "minLength": 1, "maxLength": 10},
                "email": {"type": "string", "format": "email"},
                "age": {"type": "integer", "minimum": 0, "maximum": 150},
                "height": {"type": "number"},
                "subscribe": {"type": "boolean"},
                "size": {"type": "string", "enum": ["small", "large"]},
                "speed": {"type": "string", "oneOf": [
                    {"const": "express", "title": "Express delivery"},
                    {"const": "standard", "title": "standard"}
                ]},
                "colours": {"type": "array", "items": {"anyOf": [
                    {"const": "red", "title": "Red"},
                    {"const": "green", "title": "Green"},
                    {"const": "blue", "title": "Blue"}
                ]}, "minItems": 1},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}
            },
            "required": ["name", "email", "age", "height", "subscribe", "size", "speed", "colours", "tags"]
        }))
    }

    #[test]
    fn every_kind_of_field_is_answered() {
        let typed = "\nAda\nada@example.com\n36\n1.75\ny\n2\nExpress delivery\n3, red,3\n-\n";
        let (result, printed) = answered(&every_kind(), typed);
        assert_eq!(
            result,
            json!({"action": "accept", "content": {
                "name": "Ada", "email": "ada@example.com", "age": 36, "height": 1.75,
                "subscribe": true, "size": "large", "speed": "express",
                "colours": ["blue", "red"], "tags": []
            }})
        );
        for expected in [
            "Tell me\nFill in the form? [Y]es, [n]o (decline), [c]ancel: ",
            "\nName — Your name (required)\n  text of 1 to 10 characters\n> ",
            "\nemail (required)\n  an email address\n> ",
            "  a whole number from 0 to 150\n",
            "  a number\n",
            "  yes or no (y/n, yes/no, true/false)\n",
            "  one of these, by number or value:\n    1) small\n    2) large\n",
            "    1) express — Express delivery\n    2) standard\n",
            "  at least 1 of these, by numbers or values separated by commas:\n    1) red — Red\n",
            "  any of these, by numbers or values separated by commas (`-` for none):\n    1) a\n",
        ] {
            assert!(printed.contains(expected), "{expected:?} not in:\n{printed}");
        }
    }

    #[test]
    fn other_spellings_are_taken() {
        let schema = form(json!({
            "type": "object",
            "properties": {
                "a": {"type": "boolean"}, "b": {"type": "boolean"}, "c": {"type": "boolean"},
                "n": {"type": "number"}, "i": {"type": "integer"},
                "legacy": {"type": "string", "enum": ["x1", "x2"], "enumNames": ["First", "Second"]},
                "t": {"type": "string", "title": "Title only"}
            },
            "required": ["a", "b", "c", "n", "i", "legacy", "t"]
        }));
        let (result, printed) = answered(
            &schema,
            "YES\nyes\nfalse\nNo\n-3\n18446744073709551615\nsecond\n  padded  \n",
        );
        assert_eq!(
            result["content"],
            json!({"a": true, "b": false, "c": false, "n": -3, "i": 18446744073709551615_u64,
                   "legacy": "x2", "t": "padded"})
        );
        assert!(printed.contains("    2) x2 — Second\n"), "{printed}");
        assert!(printed.contains("\nTitle only (required)\n  text\n"), "{printed}");
    }

    /// The terminal reads a select as the form's checks do (one model, `form::choices`):
    /// a select without a `type`, options labelled by `description` alone, and a
    /// multi-select whose items are `anyOf`; what it sends passes the form's own check.
    #[test]
    fn selects_are_read_as_the_form_reads_them() {
        let requested = json!({
            "type": "object",
            "properties": {
                "size": {"oneOf": [{"const": "s", "description": "Small"}, {"const": "l", "description": "Large"}]},
                "tags": {"type": "array", "items": {"anyOf": [{"const": "red", "title": "Red"}, {"const": "blue", "title": "Blue"}]}}
            },
            "required": ["size", "tags"]
        });
        let (result, printed) = answered(&form(requested.clone()), "y\nlarge\nblue, 1\n");
        assert_eq!(
            result["content"],
            json!({"size": "l", "tags": ["blue", "red"]}),
            "{result} {printed}"
        );
        assert!(printed.contains("    2) l — Large\n"), "{printed}");
        assert!(printed.contains("    1) red — Red\n"), "{printed}");
        assert!(form::check_content(&requested, &result["content"]).is_ok());
        let refused = form::check_content(&requested, &json!({"size": "m", "tags": []}));
        assert!(refused.unwrap_err().reason.contains(r#""s", "l""#));
    }

    #[test]
    fn empty_lines_take_defaults_or_leave_optional_fields_out() {
        let schema = form(json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "default": "Paris"},
                "copies": {"type": "integer", "minimum": 1, "default": 2},
                "gift": {"type": "boolean", "default": false},
                "speed": {"type": "string", "enum": ["slow", "fast"], "default": "fast"},
                "colours": {"type": "array", "items": {"type": "string", "enum": ["red", "blue"]}, "default": ["red"]},
                "nickname": {"type": "string"},
                "rating": {"type": "integer"},
                "note": {"type": "string"}
            },
            "required": ["city", "note"]
        }));
        let (result, printed) = answered(&schema, "y\n\n\n\n\n\n\n\n\n");
        assert_eq!(
            result,
            json!({"action": "accept", "content": {
                "city": "Paris", "copies": 2, "gift": false, "speed": "fast", "colours": ["red"], "note": ""
            }})
        );
        for expected in [
            "\ncity\n  text\n  Enter for the default: \"Paris\"\n> ",
            "  Enter for the default: 2\n",
            "  Enter for the default: no\n",
            "  Enter for the default: fast\n",
            "  Enter for the default: red\n",
            "\nnickname\n  text\n  Enter to leave it out\n> ",
            "\nnote (required)\n  text\n> ",
        ] {
            assert!(printed.contains(expected), "{expected:?} not in:\n{printed}");
        }
    }

    #[test]
    fn bad_input_is_asked_again_saying_what_is_accepted() {
        let schema = form(json!({
            "type": "object",
            "properties": {
                "flag": {"type": "boolean"},
                "age": {"type": "integer", "minimum": 1, "maximum": 10},
                "ratio": {"type": "number", "maximum": 1},
                "size": {"type": "string", "enum": ["small", "large"]},
                "colours": {"type": "array", "items": {"type": "string", "enum": ["red", "blue"]}, "maxItems": 1},
                "name": {"type": "string", "minLength": 2, "maxLength": 3},
                "email": {"type": "string", "format": "email"}
            },
            "required": ["flag", "age", "ratio", "size", "colours", "name", "email"]
        }));
        // The first `maybe` and empty line answer whether to fill the form (empty is yes);
        // then each field's wrong answers come before its right one.
        let typed = "maybe\n\n\
                     maybe\n\ny\n\
                     abc\n2.5\n0\n11\n5\n\
                     NaN\n1.5\n0.5\n\
                     3\nmedium\nsmall\n\
                     red,green\n0\nred,blue\n2\n\
                     a\nabcd\nabc\n\
                     nope\na@b\n";
        let (result, printed) = answered(&schema, typed);
        assert_eq!(
            result["content"],
            json!({"flag": true, "age": 5, "ratio": 0.5, "size": "small", "colours": ["blue"],
                   "name": "abc", "email": "a@b"})
        );
        for expected in [
            "  answer y (yes), n (no: decline) or c (cancel)\n",
            "  expected y or n, yes or no, true or false, received `maybe`\n",
            "  an answer is required: yes or no (y/n, yes/no, true/false)\n",
            "  expected a whole number, such as 42, received `abc`\n",
            "  expected a whole number, such as 42, received `2.5`\n",
            "  expected an integer of at least 1, received the number 0\n",
            "  expected an integer of at most 10, received the number 11\n",
            "  expected a number, such as 42 or 2.5, received `NaN`\n",
            "  expected a number of at most 1, received the number 1.5\n",
            "  expected a number from 1 to 2 or one of \"small\", \"large\", received `3`\n",
            "received `medium`\n",
            "  expected a number from 1 to 2 or one of \"red\", \"blue\", received `green`\n",
            "received `0`\n",
            "  expected at most 1 choice, received 2\n",
            "  expected at least 2 characters, received 1\n",
            "  expected at most 3 characters, received 4\n",
            "  expected an email address (text@text), received the string \"nope\"\n",
        ] {
            assert!(printed.contains(expected), "{expected:?} not in:\n{printed}");
        }
    }

    #[test]
    fn decline_cancel_and_the_end_of_input() {
        let schema = every_kind();
        assert_eq!(answered(&schema, "n\n").0, json!({"action": "decline"}));
        assert_eq!(answered(&schema, "No\n").0, json!({"action": "decline"}));
        assert_eq!(answered(&schema, "c\n").0, json!({"action": "cancel"}));
        assert_eq!(answered(&schema, "cancel\n").0, json!({"action": "cancel"}));
        // Ctrl-D: at the first question, and in the middle of the form.
        assert_eq!(answered(&schema, "").0, json!({"action": "cancel"}));
        assert_eq!(
            answered(&schema, "y\nAda\nada@example.com\n").0,
            json!({"action": "cancel"})
        );
        // A last line without its line ending is still a line; the end of input follows.
        assert_eq!(
            answered(&schema, "y\nAda\nada@example.com").0,
            json!({"action": "cancel"})
        );
        // The end of input while a field is asked again.
        let (result, printed) = answered(&schema, "y\nAda\nnot an address\n");
        assert_eq!(result, json!({"action": "cancel"}));
        assert!(
            printed.ends_with("received the string \"not an address\"\n> \n"),
            "{printed}"
        );
    }

    #[test]
    fn an_empty_form_is_accepted_empty() {
        let schema = form(json!({"type": "object", "properties": {}}));
        assert_eq!(
            answered(&schema, "\n").0,
            json!({"action": "accept", "content": {}})
        );
    }

    #[test]
    fn a_form_made_from_a_type_decodes_into_it() {
        #[derive(serde::Deserialize, schemars::JsonSchema, Debug, PartialEq)]
        #[serde(rename_all = "lowercase")]
        enum Speed {
            /// Overnight
            Express,
            Standard,
        }
        #[derive(serde::Deserialize, schemars::JsonSchema, Debug, PartialEq)]
        struct Order {
            /// How many
            #[schemars(range(min = 1))]
            copies: u32,
            /// How fast
            speed: Speed,
            /// Wrapped?
            #[serde(default)]
            gift: bool,
            /// Others to tell
            cc: Option<String>,
            /// Extras
            extras: Vec<Speed>,
        }
        let requested = form::requested_schema::<Order>().unwrap();
        let params = json!({ "message": "Order", "requestedSchema": requested });
        // Schemars lists the undocumented variant first.
        let (result, printed) = answered(&params, "y\n0\n3\noops\n2\n\n\nstandard, 2\n");
        assert_eq!(result["action"], "accept");
        let order: Order = form::decode(result["content"].clone()).unwrap();
        assert_eq!(
            order,
            Order {
                copies: 3,
                speed: Speed::Express,
                gift: false,
                cc: None,
                extras: vec![Speed::Standard, Speed::Express],
            }
        );
        for expected in [
            "\ncopies — How many (required)\n  a whole number of at least 1\n> ",
            "  expected an integer of at least 1, received the number 0\n",
            "\nspeed — How fast (required)\n  one of these, by number or value:\n    1) standard\n    2) express — Overnight\n> ",
            "\ngift — Wrapped?\n  yes or no (y/n, yes/no, true/false)\n  Enter for the default: no\n> ",
            "\ncc — Others to tell\n  text\n  Enter to leave it out\n> ",
            "\nextras — Extras (required)\n  any of these, by numbers or values separated by commas (`-` for none):\n",
        ] {
            assert!(printed.contains(expected), "{expected:?} not in:\n{printed}");
        }
    }

    #[test]
    fn a_url_is_shown_and_opened_or_not() {
        let params = json!({"mode": "url", "message": "Sign in", "url": "https://example.com/auth?state=7"});
        let (result, printed) = answered(&params, "\n");
        assert_eq!(result, json!({"action": "accept"}));
        assert_eq!(
            printed,
            "Sign in\n  https://example.com/auth?state=7\nOpen this URL? [Y]es, [n]o (decline), [c]ancel: \
             Open it in your browser to go on.\n"
        );
        assert_eq!(answered(&params, "n\n").0, json!({"action": "decline"}));
        assert_eq!(answered(&params, "").0, json!({"action": "cancel"}));
    }

    #[cfg(unix)]
    #[test]
    fn the_root_is_the_current_directory_percent_encoded() {
        let path = Path::new("/home/ada/my notes/café #1?%");
        let uri = file_uri(path);
        assert_eq!(uri, "file:///home/ada/my%20notes/caf%C3%A9%20%231%3F%25");
        let root = crate::ask::Root {
            uri,
            name: None,
            meta: None,
        };
        assert_eq!(root.path().ok().as_deref(), Some(path));

        let answer = roots().unwrap();
        let dir = std::env::current_dir().unwrap();
        assert_eq!(answer["roots"][0]["uri"], file_uri(&dir));
        assert_eq!(
            answer["roots"][0]["name"],
            dir.file_name().unwrap().to_string_lossy().as_ref()
        );
    }

    #[test]
    fn what_it_declares_and_what_it_says_when_that_is_not_enough() {
        let piped = Terminal { interactive: false };
        let person = Terminal { interactive: true };
        assert_eq!(piped.capabilities(), json!({"roots": {}}));
        assert_eq!(
            person.capabilities(),
            json!({"elicitation": {"form": {}, "url": {}}, "roots": {}})
        );
        assert_eq!(
            piped.missing_note("suggest_title", ClientCapability::Sampling),
            "note: `suggest_title` needs the client capability `sampling`, which the command line \
             cannot offer (it has no model to ask); call it from an MCP client"
        );
        assert_eq!(
            person.missing_note("ask", ClientCapability::SamplingTools),
            "note: `ask` needs the client capability `sampling.tools`, which the command line \
             cannot offer (it has no model to ask); call it from an MCP client"
        );
        assert_eq!(
            piped.missing_note("clear_notes", ClientCapability::ElicitationForm),
            "note: `clear_notes` needs the client capability `elicitation.form`, which the command \
             line offers only when standard input and standard error are a terminal, to prompt on; \
             run the command in one, or call the tool from an MCP client"
        );
    }

    #[tokio::test(flavor = "current_thread")]
    async fn without_a_terminal_only_roots_are_answered() {
        let piped = Terminal { interactive: false };
        let refused = piped
            .request(
                "elicitation/create",
                every_kind(),
                None,
                crate::context::any_result,
            )
            .await;
        assert!(
            matches!(&refused, Err(ClientRequestError::Refused { code: ErrorCode::METHOD_NOT_FOUND, message, .. })
                if message == "the command line does not answer `elicitation/create`"),
            "{refused:?}"
        );
        let sampling = piped
            .request(
                "sampling/createMessage",
                json!({}),
                None,
                crate::context::any_result,
            )
            .await;
        assert!(matches!(
            sampling,
            Err(ClientRequestError::Refused {
                code: ErrorCode::METHOD_NOT_FOUND,
                ..
            })
        ));
        let roots = piped
            .request("roots/list", json!({}), None, crate::context::any_result)
            .await
            .unwrap();
        assert_eq!(roots["roots"].as_array().map(Vec::len), Some(1));
    }
}
