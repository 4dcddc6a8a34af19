//! Result budgets: a tool's answer larger than its budget is not sent whole. Its text is
//! cut into pages, which are written to the task store (under
//! [`RESULT_ID_PREFIX`](crate::task::RESULT_ID_PREFIX), with a time to live, bound to the
//! caller); the client gets the first page, a `resource_link` to the whole result and one
//! line saying how to read on. Every later page is read as the resource
//! `mcp-result://{id}/{page}`, or through the `read_result` tool the framework lists while
//! this instance has spilled results, so that any instance sharing the store serves it.

use crate::content::{Content, ResourceContents, ResourceLink};
use crate::context::Principal;
use crate::engine::state::core::Engine;
pub(crate) use crate::engine::state::spill_record::READ_RESULT;
use crate::engine::state::spill_record::{PageRecord, page_line, page_uri, record_id};
use crate::engine::wire::rounds::Finished;
use crate::result::CallToolResult;
use crate::task::{StoredTask, now_ms};
use crate::tool::Tool;
use std::future::Future;
use std::ops::Range;
use std::pin::Pin;
use std::sync::OnceLock;

/// The smallest page, whatever the budget leaves once the line that says how to read on
/// is counted: room for a few characters of any width.
const MIN_PAGE: usize = 64;

/// What a budget counts of a result: the UTF-8 bytes of its text blocks, the base64 of its
/// images and audio, the text or base64 of its embedded resources, and its structured
/// content serialized when it has no text block (a client then shows the JSON). A
/// resource link counts nothing: it is a pointer, not contents.
pub(crate) fn measure(result: &CallToolResult) -> usize {
    let mut bytes = 0;
    let mut texts = 0;
    for block in result.content() {
        bytes += match block {
            Content::Text(text) => {
                texts += 1;
                text.text.len()
            }
            Content::Image(image) => image.data.len(),
            Content::Audio(audio) => audio.data.len(),
            Content::Resource(embedded) => match &embedded.resource {
                ResourceContents::Text { text, .. } => text.len(),
                ResourceContents::Blob { blob, .. } => blob.len(),
            },
            Content::ResourceLink(_) => 0,
        };
    }
    if texts == 0
        && let Some(structured) = result.structured_content()
    {
        bytes += structured.get().len();
    }
    bytes
}

/// The text a result over its budget is paged as, and whether structured content is left
/// out: its text blocks joined by a line break, or (with none) its structured content
/// serialized. `None` for a result that is not text alone (an image cannot be paged) and
/// for an error, which is sent as it is.
fn pageable(result: &CallToolResult) -> Option<(String, bool)> {
    if result.is_error() {
        return None;
    }
    let texts: Option<Vec<&str>> = result.content().iter().map(Content::as_text).collect();
    let texts = texts?;
    let structured = result.structured_content();
    match (texts.is_empty(), structured) {
        (true, Some(structured)) => Some((structured.get().to_owned(), true)),
        (true, None) => None,
        (false, structured) => Some((texts.join("\n"), structured.is_some())),
    }
}

/// Where a page that starts at `start` ends, holding at most `capacity` bytes: at a char
/// boundary, after the last line break when there is one in its second half.
fn page_end(text: &str, start: usize, capacity: usize) -> usize {
    let rest = &text[start..];
    if rest.len() <= capacity {
        return text.len();
    }
    let mut end = capacity;
    while !rest.is_char_boundary(end) {
        end -= 1;
    }
    if end == 0 {
        // A capacity under one char's width still moves on by one char.
        end = rest.chars().next().map_or(rest.len(), char::len_utf8);
    }
    if let Some(newline) = rest[..end].rfind('\n')
        && newline + 1 >= end / 2
    {
        end = newline + 1;
    }
    start + end
}

/// Cuts `text` into pages: the first of at most `first` bytes, the others of at most
/// `rest`. Every page holds at least one char; pages concatenated are `text`.
pub(crate) fn split(text: &str, first: usize, rest: usize) -> Vec<Range<usize>> {
    let mut pages = Vec::new();
    let mut start = 0;
    let mut capacity = first;
    while start < text.len() {
        let end = page_end(text, start, capacity);
        pages.push(start..end);
        start = end;
        capacity = rest;
    }
    if pages.is_empty() {
        pages.push(0..0);
    }
    pages
}

/// A number as wide as any page number of a text of `bytes` bytes can be.
fn widest(bytes: usize) -> usize {
    let digits = bytes.max(1).ilog10() + 1;
    10usize.saturating_pow(digits).saturating_sub(1)
}

/// The line after page 1: what the result is, and how to read on.
fn first_line(id: &str, bytes: usize, budget: usize, pages: usize, structured: bool) -> String {
    let left_out = if structured {
        " Its structuredContent is left out of this answer: read the pages for all of it."
    } else {
        ""
    };
    format!(
        "[This result is {bytes} bytes of text, more than the {budget} this tool answers with \
         at once, so it comes in {pages} pages; this is page 1.{left_out} Read page 2 with the \
         tool `{READ_RESULT}` and arguments {{\"id\": \"{id}\", \"page\": 2}}, or as the resource \
         {uri}.]",
        uri = page_uri(id, 2),
    )
}

/// The link to the whole result.
fn link(id: &str, bytes: usize, pages: usize) -> ResourceLink {
    let mut link = ResourceLink::new(page_uri(id, 1), format!("result-{id}"));
    link.title = Some("The whole result".to_owned());
    link.description = Some(format!(
        "{bytes} bytes of text in {pages} pages: {} to {}",
        page_uri(id, 1),
        page_uri(id, pages)
    ));
    link.mime_type = Some("text/plain".to_owned());
    link
}

/// The bytes a link counts against the first page's budget: what a model reads of it.
fn link_bytes(link: &ResourceLink) -> usize {
    link.uri.len()
        + link.name.len()
        + link.title.as_ref().map_or(0, String::len)
        + link.description.as_ref().map_or(0, String::len)
}

/// Why a result could not be spilled (it is then sent whole).
#[derive(Debug, thiserror::Error)]
enum SpillFailed {
    #[error("no randomness for the result's id")]
    NoId,
    #[error(transparent)]
    Store(crate::task::StoreError),
}

/// Pages an answer over its budget (`Engine::spill_over_budget`), borrowing the engine.
type Spill = for<'a> fn(
    &'a Engine,
    &'a Tool,
    Finished,
    Option<&'a Principal>,
) -> Pin<Box<dyn Future<Output = Finished> + Send + 'a>>;

/// Spilling, once a budget was set: installed by [`link_spilling`], which only the budget
/// setters call (`Server::result_budget`, `ToolBuilder::result_budget`,
/// `Tool::with_result_budget` and their `max_result_chars` siblings, defined in
/// `methods::tools` for that reason), so that a server without
/// budgets links neither the spilling nor the page resource (listed only on a server with
/// budgets: `state::spill_record::page_resource`). `read_result` stays in every server: a store shared
/// with other instances may hold their pages.
static LINKED: OnceLock<Spill> = OnceLock::new();

/// Installs the spilling of answers over their budgets.
pub(crate) fn link_spilling() {
    LINKED.get_or_init(|| {
        |engine, tool, finished, caller| Box::pin(engine.spill_over_budget(tool, finished, caller))
    });
    crate::engine::state::spill_record::link_pages();
}

impl Engine {
    /// The budget a call of `tool` answers within, if any.
    fn budget_of(&self, tool: &Tool) -> Option<usize> {
        if tool.name() == READ_RESULT {
            return None;
        }
        tool.result_budget().or(self.spills.options.budget)
    }

    /// Whether a call's answer is over its tool's budget and can be paged.
    pub(crate) fn over_budget(&self, tool: &Tool, finished: &Finished) -> bool {
        let Finished::Complete(result) = finished else {
            return false;
        };
        self.budget_of(tool)
            .is_some_and(|budget| measure(result) > budget)
    }

    /// A call's answer within its tool's budget: a result over it becomes its first page,
    /// the rest written to the store for `caller`. A result that cannot be paged (not
    /// text, an error, larger than the most spilled), or that the store would not take, is
    /// left whole.
    pub(crate) async fn within_budget(
        &self,
        tool: &Tool,
        finished: Finished,
        caller: Option<&Principal>,
    ) -> Finished {
        match LINKED.get() {
            Some(spill) => spill(self, tool, finished, caller).await,
            // No budget was set anywhere, so no answer is over one.
            None => finished,
        }
    }

    /// What `within_budget` does once spilling is linked.
    async fn spill_over_budget(
        &self,
        tool: &Tool,
        finished: Finished,
        caller: Option<&Principal>,
    ) -> Finished {
        let (Finished::Complete(result), Some(budget)) = (&finished, self.budget_of(tool)) else {
            return finished;
        };
        if measure(result) <= budget {
            return finished;
        }
        let Some((text, structured)) = pageable(result) else {
            tracing::warn!(
                tool = tool.name(),
                "a result over its budget is not text alone; sent whole"
            );
            return finished;
        };
        if text.len() > self.spills.options.max_spilled_bytes {
            tracing::warn!(
                tool = tool.name(),
                bytes = text.len(),
                limit = self.spills.options.max_spilled_bytes,
                "a result is larger than the most spilled; sent whole"
            );
            return finished;
        }
        match self.spill(&text, structured, budget, caller).await {
            Ok(mut first) => {
                if let Some(meta) = result.meta() {
                    for (key, value) in meta {
                        first = first.with_meta(key.clone(), value.clone());
                    }
                }
                Finished::Complete(first)
            }
            Err(error) => {
                tracing::warn!(tool = tool.name(), %error, "could not spill a result; sent whole");
                finished
            }
        }
    }

    /// Writes `text`'s pages to the store and makes the first page's answer.
    async fn spill(
        &self,
        text: &str,
        structured: bool,
        budget: usize,
        caller: Option<&Principal>,
    ) -> Result<CallToolResult, SpillFailed> {
        let id = self.tasks.new_id().map_err(|_| SpillFailed::NoId)?;
        let bytes = text.len();
        let widest = widest(bytes);
        let line = first_line(&id, bytes, budget, widest, structured);
        let first_room = budget.saturating_sub(line.len() + link_bytes(&link(&id, bytes, widest)));
        let rest_room = budget.saturating_sub(page_line(&id, widest - 1, widest).len());
        let pages = split(text, first_room.max(MIN_PAGE), rest_room.max(MIN_PAGE));
        let count = pages.len();
        let expires_at =
            now_ms().saturating_add(crate::engine::state::task_record::millis(self.spills.options.ttl));
        let owner = caller.map(|p| p.subject.clone());
        for (n, range) in pages.iter().enumerate() {
            let record = PageRecord {
                owner: owner.clone(),
                page: n + 1,
                pages: count,
                text: text[range.clone()].to_owned(),
            };
            // Plain data: it always serializes.
            let data = serde_json::to_string(&record).unwrap_or_default();
            self.tasks
                .store()
                .create(StoredTask::new(record_id(&id, n + 1), 1, expires_at, data))
                .await
                .map_err(SpillFailed::Store)?;
        }
        self.spills.keep_listed(expires_at);
        tracing::debug!(bytes, pages = count, "spilled a result over its budget");
        Ok(CallToolResult::new(vec![
            Content::text(&text[pages[0].clone()]),
            Content::ResourceLink(link(&id, bytes, count)),
            Content::text(first_line(&id, bytes, budget, count, structured)),
        ]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pages_of(text: &str, first: usize, rest: usize) -> Vec<&str> {
        split(text, first, rest).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn pages_concatenated_are_the_text_and_none_is_over_its_room() {
        let text = "alpha beta gamma\n".repeat(100);
        let pages = pages_of(&text, 100, 60);
        assert_eq!(pages.concat(), text);
        assert!(pages[0].len() <= 100);
        assert!(pages[1..].iter().all(|p| p.len() <= 60));
    }

    #[test]
    fn a_page_ends_after_a_line_break_in_its_second_half() {
        let text = "0123456789\nabcdefghij\nklmnopqrst\n";
        assert_eq!(
            pages_of(text, 30, 30),
            ["0123456789\nabcdefghij\n", "klmnopqrst\n"]
        );
        // A line break early in the page is passed over: the page is not halved for it.
        let text = "ab\ncdefghijklmnopqrstuvwxyz";
        assert_eq!(pages_of(text, 10, 10)[0], "ab\ncdefghi");
    }

    #[test]
    fn pages_split_multibyte_text_at_char_boundaries() {
        let text = "é".repeat(10) + &"日本".repeat(10) + &"🦀".repeat(10);
        for room in 1..12 {
            let pages = pages_of(&text, room, room);
            assert_eq!(pages.concat(), text, "room {room}");
            for page in &pages {
                // Under one char's width, a page still takes one char.
                assert!(page.len() <= room.max(4), "room {room}: {page:?}");
                assert!(!page.is_empty());
            }
        }
    }

    #[test]
    fn a_text_of_exactly_the_room_is_one_page() {
        let text = "x".repeat(64);
        assert_eq!(pages_of(&text, 64, 10), [text.as_str()]);
        assert_eq!(pages_of(&text, 63, 10).len(), 2);
        assert_eq!(pages_of("", 10, 10), [""]);
    }

    #[test]
    fn the_budget_counts_text_base64_and_structured_content_without_text() {
        let text = CallToolResult::new(vec![Content::text("héllo"), Content::text("abc")]);
        assert_eq!(measure(&text), 9);
        let image = CallToolResult::new(vec![Content::image_base64("QUJD", "image/png")]);
        assert_eq!(measure(&image), 4);
        let link = CallToolResult::new(vec![Content::resource_link("file:///a", "a")]);
        assert_eq!(measure(&link), 0);
        let structured = CallToolResult::structured(&json!({"a": 1})).unwrap();
        // A structured result mirrors its JSON as text: counted once.
        assert_eq!(
            measure(&structured),
            structured.content()[0].as_text().unwrap().len()
        );
    }

    #[test]
    fn only_text_results_that_are_no_error_are_paged() {
        assert_eq!(
            pageable(&CallToolResult::text("a")),
            Some(("a".to_owned(), false))
        );
        let two = CallToolResult::new(vec![Content::text("a"), Content::text("b")]);
        assert_eq!(pageable(&two), Some(("a\nb".to_owned(), false)));
        assert_eq!(pageable(&CallToolResult::error("a")), None);
        let image = CallToolResult::new(vec![
            Content::text("a"),
            Content::image_base64("QQ==", "image/png"),
        ]);
        assert_eq!(pageable(&image), None);
        let structured = CallToolResult::structured(&json!({"a": 1})).unwrap();
        assert_eq!(pageable(&structured).map(|(_, s)| s), Some(true));
    }

    #[test]
    fn the_widest_page_number_has_as_many_digits_as_any() {
        assert_eq!(widest(5), 9);
        assert_eq!(widest(10), 99);
        assert_eq!(widest(5_000_000), 9_999_999);
    }
}
