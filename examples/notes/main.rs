//! A notes server: the framework's whole surface in one realistic server.
//!
//! - shared state (`State<Notes>`) that every tool reads and changes;
//! - structured output (`Json<T>`) with an output schema;
//! - progress from a tool that works through every note;
//! - annotations: read-only searches, a destructive delete;
//! - a tool added and removed while serving: `restore_note` exists only while the trash
//!   holds something, and clients are told with `notifications/tools/list_changed`;
//! - tools that ask the client: `clear_notes` asks the user to confirm (a form),
//!   `suggest_title` asks the client's model, `export_notes` asks for the folders the
//!   client shares. In revision 2026-07-28 such a tool runs again from the top once the
//!   client has answered, so each counts or reads before it asks and changes nothing
//!   until after.
//! - a task: `archive_notes` copies every note slowly; a client that declares the tasks
//!   extension is answered at once with a task it polls (`tasks/get`), whose status says
//!   how far the archive got, and which it may cancel (`tasks/cancel`);
//! - prompts: `review_note` asks the model to review one note, with an optional focus
//!   (arguments arrive as strings: `"id": "3"`, `"focus": "tone"`); `digest` lists the
//!   latest notes and starts the model's answer.
//! - resources: `notes://all` reads every note as a Markdown list (as `export_notes`
//!   writes it), for the user to read (`annotations(audience = ["user"])`), and the
//!   template `notes://{id}` one note as JSON (an unknown id is "not found", as
//!   `ResourceError::not_found` says; so is `review_note` of an unknown id).
//!   Every tool that changes notes announces the URIs whose contents changed
//!   (`notes://all`, `notes://3`), so clients subscribed to them hear
//!   `notifications/resources/updated` and read them again; as they change at any call,
//!   they declare no cache time, and a read in 2026-07-28 says `ttlMs: 0`.
//! - a skill (`examples/skills/notes-workflow/`, embedded with `skills!`): when to search,
//!   add and export notes, for the model to load when the user's request calls for it
//!   (`skills/list`, then `resources/read` of `skill://notes-workflow/SKILL.md`).
//! - an extension of its own (SEP-3371): `com.example/notes-stats` with the custom method
//!   `notes/stats` (how many notes there are, and how many are in the trash), declared in
//!   `server/discover`;
//! - an MCP Apps view (`io.modelcontextprotocol/ui`): the board `ui://notes/board`
//!   (`examples/notes/board.html`, one self-contained HTML file) shows every note as a
//!   card with a box to add one, in hosts that render apps. `list_notes` is linked to it;
//!   `board_add` is what the board calls to add a note, kept from the model
//!   (`visibility = "app"`). Both answer the notes as `structuredContent` for the board
//!   and as a list in text for the model and for hosts without apps.
//! - middleware: `Audit` logs one line per exchange with target `audit` (the method, what
//!   it names, the caller, how it ended, how many messages the server sent, how long it
//!   took): `RUST_LOG=audit=info cargo run --bin notes`.
//!
//! ```text
//! cargo run --bin notes                           # stdio, as clients launch it
//! cargo run --bin notes -- --http 127.0.0.1:8080  # Streamable HTTP
//! cargo run --bin notes -- tools                  # the tool definitions
//! cargo run --bin notes -- prompts                # the prompt definitions
//! cargo run --bin notes -- resources              # the resources and templates
//! cargo run --bin notes -- read notes://all       # read one
//! ```

#[path = "../common/mod.rs"]
mod common;

use mcp_toolkit::ask::RootError;
use mcp_toolkit::extension::Extension;
use mcp_toolkit::middleware::{Exchange, Middleware, Outcome};
use mcp_toolkit::{
    CallToolResult, Context, Json, Server, State, ToolError, method, methods, prompt, prompt::PromptError,
    prompt::PromptMessage, prompts, registry::ResourceRegistry, registry::ToolRegistry, resource,
    resource::ResourceError, resources, skills, tool, tools,
};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// A note.
#[derive(Clone, serde::Serialize, schemars::JsonSchema)]
struct Note {
    /// Its id, given when it was added.
    id: u64,
    /// A short title.
    title: String,
    /// The text.
    body: String,
    /// Tags for finding it again.
    tags: Vec<String>,
}

/// The notes that matched a search.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Found {
    /// The matching notes, newest first.
    notes: Vec<Note>,
    /// How many matched before the limit.
    total: usize,
}

/// What summarizing found.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Summary {
    /// Notes in all.
    notes: usize,
    /// Words in all bodies.
    words: usize,
    /// Each tag with how many notes carry it.
    tags: BTreeMap<String, usize>,
}

/// What a review of a note looks at.
#[derive(Clone, Copy, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Focus {
    /// Is it easy to follow?
    Clarity,
    /// Could it say the same in fewer words?
    Brevity,
    /// Does it sound right?
    Tone,
}

/// Every note, and the trash.
#[derive(Default)]
struct Notes {
    inner: Mutex<Store>,
}

#[derive(Default)]
struct Store {
    next_id: u64,
    notes: BTreeMap<u64, Note>,
    trash: BTreeMap<u64, Note>,
}

impl Notes {
    fn store(&self) -> std::sync::MutexGuard<'_, Store> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Store {
    /// Every note as a Markdown list under a heading, oldest first: what `export_notes`
    /// writes and `notes://all` reads.
    fn markdown(&self) -> String {
        let mut markdown = String::from("# Notes\n\n");
        for note in self.notes.values() {
            markdown.push_str(&markdown_line(note));
        }
        markdown
    }
}

/// Tells the clients subscribed to them that `notes://all` and the notes `ids` changed
/// (the list first, then each note): `notifications/resources/updated`, after which they
/// read them again.
fn announce_changes(resources: &ResourceRegistry, ids: impl IntoIterator<Item = u64>) {
    resources.notify_updated("notes://all");
    for id in ids {
        resources.notify_updated(&format!("notes://{id}"));
    }
}

/// Add a note.
#[tool]
fn add_note(
    /// A short title
    title: String,
    /// The text of the note
    body: String,
    /// Tags for finding it again
    #[default(Vec::new())]
    tags: Vec<String>,
    notes: State<Notes>,
    resources: ResourceRegistry,
) -> Result<Json<Note>, ToolError> {
    if title.trim().is_empty() {
        return Err(ToolError::new("`title` must not be empty"));
    }
    let note = {
        let mut store = notes.store();
        store.next_id += 1;
        let note = Note {
            id: store.next_id,
            title,
            body,
            tags,
        };
        store.notes.insert(note.id, note.clone());
        note
    };
    announce_changes(&resources, [note.id]);
    Ok(Json(note))
}

/// What the board renders: every note, oldest first.
#[derive(serde::Serialize)]
struct Board<'a> {
    notes: Vec<&'a Note>,
}

/// Every note for the board (`structuredContent.notes`) and as a list in text, for the
/// model and for hosts that show no apps.
fn board_result(store: &Store, said: &str) -> Result<CallToolResult, ToolError> {
    let mut text = match store.notes.len() {
        1 => format!("{said}1 note"),
        n => format!("{said}{n} notes"),
    };
    for note in store.notes.values() {
        text.push_str(&format!("\n- #{} {}", note.id, note.title));
    }
    let board = Board {
        notes: store.notes.values().collect(),
    };
    CallToolResult::structured_with_text(&board, text).map_err(|e| ToolError::internal(e.to_string()))
}

/// The notes board: every note as a card, and a box to add one.
#[resource(uri = "ui://notes/board", app(csp(connect_domains = ["https://api.example.com"]), prefers_border))]
fn board() -> &'static str {
    include_str!("board.html")
}

/// List every note, oldest first; shown on the notes board in hosts that render apps.
#[tool(app = board, annotations(read_only, open_world = false))]
fn list_notes(notes: State<Notes>) -> Result<CallToolResult, ToolError> {
    board_result(&notes.store(), "")
}

/// Add a note from the board, with a title only; not offered to the model, which has
/// `add_note`.
#[tool(app = board, visibility = "app", annotations(open_world = false))]
fn board_add(
    /// The new note's title
    title: String,
    notes: State<Notes>,
    resources: ResourceRegistry,
) -> Result<CallToolResult, ToolError> {
    let title = title.trim();
    if title.is_empty() {
        return Err(ToolError::new("`title` must not be empty"));
    }
    let mut store = notes.store();
    store.next_id += 1;
    let id = store.next_id;
    let note = Note {
        id,
        title: title.to_owned(),
        body: String::new(),
        tags: Vec::new(),
    };
    store.notes.insert(id, note);
    let result = board_result(&store, &format!("added note #{id}; "));
    drop(store);
    announce_changes(&resources, [id]);
    result
}

/// Find notes whose title or text contains some words, newest first.
///
/// # Arguments
/// * `query` - Words to look for (all must appear, any case); empty matches every note
/// * `tag` - Only notes with this tag
/// * `limit` - At most this many notes
#[tool(annotations(read_only, idempotent, open_world = false))]
fn search_notes(
    query: String,
    tag: Option<String>,
    #[default(10)] limit: usize,
    notes: State<Notes>,
) -> Json<Found> {
    let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    let store = notes.store();
    let matching: Vec<&Note> = store
        .notes
        .values()
        .rev()
        .filter(|note| tag.as_ref().is_none_or(|t| note.tags.contains(t)))
        .filter(|note| {
            let text = format!("{} {}", note.title, note.body).to_lowercase();
            words.iter().all(|word| text.contains(word.as_str()))
        })
        .collect();
    Json(Found {
        total: matching.len(),
        notes: matching.into_iter().take(limit).cloned().collect(),
    })
}

/// Move a note to the trash; `restore_note` brings it back.
#[tool(annotations(destructive, idempotent = false, open_world = false))]
fn delete_note(
    /// The note's id
    id: u64,
    notes: State<Notes>,
    registry: ToolRegistry,
    resources: ResourceRegistry,
) -> Result<String, ToolError> {
    let title = {
        let mut store = notes.store();
        let note = store
            .notes
            .remove(&id)
            .ok_or_else(|| ToolError::new(format!("there is no note {id}")))?;
        let title = note.title.clone();
        store.trash.insert(id, note);
        title
    };
    announce_changes(&resources, [id]);
    if registry.get("restore_note").is_none() {
        // Something to restore now: offer the tool (clients hear of it).
        for tool in tools![restore_note] {
            let _ = registry.add(tool);
        }
    }
    Ok(format!("moved note {id} (\"{title}\") to the trash"))
}

/// Bring a note back from the trash.
#[tool(annotations(idempotent = false, open_world = false))]
fn restore_note(
    /// The note's id
    id: u64,
    notes: State<Notes>,
    registry: ToolRegistry,
    resources: ResourceRegistry,
) -> Result<Json<Note>, ToolError> {
    let (note, trash_is_empty) = {
        let mut store = notes.store();
        let note = store
            .trash
            .remove(&id)
            .ok_or_else(|| ToolError::new(format!("note {id} is not in the trash")))?;
        store.notes.insert(id, note.clone());
        (note, store.trash.is_empty())
    };
    announce_changes(&resources, [id]);
    if trash_is_empty {
        // Nothing left to restore: withdraw the tool.
        registry.remove("restore_note");
    }
    Ok(Json(note))
}

/// Count the notes, their words and their tags, reporting progress note by note.
#[tool(annotations(read_only, open_world = false))]
async fn summarize_notes(notes: State<Notes>, cx: Context) -> Json<Summary> {
    let all: Vec<Note> = notes.store().notes.values().cloned().collect();
    let total = all.len();
    let mut summary = Summary {
        notes: total,
        words: 0,
        tags: BTreeMap::new(),
    };
    for (done, note) in all.iter().enumerate() {
        summary.words += note.body.split_whitespace().count();
        for tag in &note.tags {
            *summary.tags.entry(tag.clone()).or_default() += 1;
        }
        cx.report_progress((done + 1) as f64, Some(total as f64), Some(&note.title));
        tokio::task::yield_now().await;
    }
    Json(summary)
}

/// Delete every note, after asking the user to confirm. Unlike `delete_note`, this does
/// not use the trash: the notes cannot be restored. Nothing is deleted unless the user
/// says yes.
#[tool(annotations(destructive, idempotent, open_world = false))]
async fn clear_notes(
    notes: State<Notes>,
    resources: ResourceRegistry,
    cx: Context,
) -> Result<String, ToolError> {
    // Count before asking, change nothing until answered: in revision 2026-07-28 the tool
    // runs again from the top once the user has answered.
    let count = notes.store().notes.len();
    if count == 0 {
        return Ok("there are no notes to delete".to_owned());
    }
    let message = format!("Delete all {count} notes? This cannot be undone.");
    if !cx.confirm(message).await? {
        return Ok(format!("kept {count} notes"));
    }
    let deleted = std::mem::take(&mut notes.store().notes);
    announce_changes(&resources, deleted.keys().copied());
    Ok(format!("deleted {} notes", deleted.len()))
}

/// Suggest a title for a note, asked of the client's model. The note is not changed:
/// pass the title to `add_note` to use it.
#[tool(annotations(read_only, open_world = false))]
async fn suggest_title(
    /// The note's id
    id: u64,
    notes: State<Notes>,
    cx: Context,
) -> Result<String, ToolError> {
    let text = match notes.store().notes.get(&id) {
        Some(note) => note.body.clone(),
        None => return Err(ToolError::new(format!("there is no note {id}"))),
    };
    let answer = cx
        .sample(format!(
            "Suggest a title of at most six words for this note:\n\n{text}"
        ))
        .system_prompt("You name notes. Answer with the title only.")
        .max_tokens(30)
        .await?;
    let title = answer.text().map(|text| text.trim().to_owned());
    match title {
        Some(title) if !title.is_empty() => Ok(format!("suggested title for note {id}: {title}")),
        _ => Err(ToolError::new("the model gave no text to take a title from")),
    }
}

/// Write every note to `notes.md` in the first folder the client shares with the server
/// (its first `file://` root): a Markdown list, one line per note, oldest first. An
/// existing `notes.md` there is replaced.
#[tool(annotations(destructive, idempotent, open_world = false))]
async fn export_notes(notes: State<Notes>, cx: Context) -> Result<String, ToolError> {
    let roots = cx.list_roots().await?;
    // The roots come from the client: `Root::write_file` refuses one that could lead out
    // of the folder it names, and replaces a symlink at `notes.md` instead of following it.
    let Some(root) = roots
        .iter()
        .find(|root| !matches!(root.path(), Err(RootError::NotAFileUri)))
    else {
        return Err(ToolError::new(
            "the client shares no file:// root to export to; share a folder with the server",
        ));
    };
    let (count, markdown) = {
        let store = notes.store();
        (store.notes.len(), store.markdown())
    };
    let file = root
        .write_file("notes.md", markdown)
        .map_err(|error| match error {
            RootError::Io { path, source } => {
                ToolError::internal(format!("could not write {}: {source}", path.display()))
            }
            refused => ToolError::new(format!("the first file:// root cannot be exported to: {refused}")),
        })?;
    Ok(format!("exported {count} notes to {}", file.display()))
}

/// Copy every note, one at a time, to the archive: a slow store that takes a while per
/// note, so a client that declares the tasks extension gets a task it can poll (and
/// cancel) while the archive runs, with a status saying how far it got. Returns the
/// archive's Markdown.
#[tool(task, annotations(read_only, open_world = false))]
async fn archive_notes(notes: State<Notes>, cx: Context) -> Json<Archive> {
    // A snapshot: notes added while archiving are left for the next archive.
    let all: Vec<Note> = notes.store().notes.values().cloned().collect();
    let mut markdown = String::new();
    for (done, note) in all.iter().enumerate() {
        cx.set_status(format!("archived {done} of {} notes", all.len()));
        tokio::time::sleep(ARCHIVE_PACE).await;
        markdown.push_str(&markdown_line(note));
    }
    Json(Archive {
        notes: all.len(),
        markdown,
    })
}

/// How long the archive takes per note.
const ARCHIVE_PACE: std::time::Duration = std::time::Duration::from_millis(250);

/// What `archive_notes` archived.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Archive {
    /// How many notes.
    notes: usize,
    /// The notes as a Markdown list, oldest first.
    markdown: String,
}

/// Every note as one Markdown document, oldest first: a heading per note, its whole text
/// and its tags. A long document is answered a page of 1 KiB at a time; the answer says
/// how to read the next page.
#[tool(result_budget = 1024, annotations(read_only, open_world = false))]
fn export_markdown(notes: State<Notes>) -> String {
    let store = notes.store();
    let mut markdown = String::from("# Notes\n");
    for note in store.notes.values() {
        markdown.push_str(&format!("\n## {}\n\n{}\n", note.title, note.body));
        if !note.tags.is_empty() {
            markdown.push_str(&format!("\nTags: {}\n", note.tags.join(", ")));
        }
    }
    markdown
}

/// A note as one line of a Markdown list: `- title: text (tags: a, b)`.
fn markdown_line(note: &Note) -> String {
    let text = note.body.lines().collect::<Vec<_>>().join(" ");
    let mut line = format!("- {}: {text}", note.title);
    if !note.tags.is_empty() {
        line.push_str(&format!(" (tags: {})", note.tags.join(", ")));
    }
    line.push('\n');
    line
}

/// Every note as a Markdown list, oldest first, one line per note: what `export_notes`
/// writes to `notes.md`.
#[resource(uri = "notes://all", mime_type = "text/markdown", annotations(audience = ["user"]))]
fn all_notes(notes: State<Notes>) -> String {
    notes.store().markdown()
}

/// One note, with its title, text and tags.
#[resource(uri = "notes://{id}", mime_type = "application/json")]
fn note(
    /// The note's id
    id: u64,
    notes: State<Notes>,
) -> Result<Json<Note>, ResourceError> {
    let store = notes.store();
    let note = store
        .notes
        .get(&id)
        .ok_or_else(|| ResourceError::not_found(format!("there is no note {id}")))?;
    Ok(Json(note.clone()))
}

/// Ask for a review of a note: what works, and what to change.
#[prompt]
fn review_note(
    /// The note's id
    id: u64,
    /// What to look at: `clarity`, `brevity` or `tone`; everything when not given
    focus: Option<Focus>,
    notes: State<Notes>,
) -> Result<String, PromptError> {
    let store = notes.store();
    let Some(note) = store.notes.get(&id) else {
        return Err(PromptError::not_found(format!("there is no note {id}")));
    };
    let ask = match focus {
        None => "Review this note: say what works, and suggest what to change.",
        Some(Focus::Clarity) => {
            "Review this note for clarity: point out anything hard to follow, and suggest clearer wording."
        }
        Some(Focus::Brevity) => {
            "Review this note for brevity: point out what could be cut or said in fewer words."
        }
        Some(Focus::Tone) => {
            "Review this note for tone: say how it sounds, and suggest rewording where it sounds wrong."
        }
    };
    Ok(format!("{ask}\n\n# {}\n\n{}", note.title, note.body))
}

/// Start a digest of the latest notes: they are listed for the model, which sums them up.
#[prompt]
fn digest(
    /// How many of the latest notes to include
    #[default(10)]
    limit: u32,
    notes: State<Notes>,
) -> Vec<PromptMessage> {
    let store = notes.store();
    let skip = store.notes.len().saturating_sub(limit as usize);
    let listed: String = store.notes.values().skip(skip).map(markdown_line).collect();
    let listed = if listed.is_empty() {
        "(there are no notes yet)"
    } else {
        listed.trim_end()
    };
    vec![
        PromptMessage::user(format!(
            "Write a short digest of my latest notes, oldest first: what they are about, grouped \
             by topic, and anything in them that needs doing.\n\n{listed}"
        )),
        PromptMessage::assistant("Here is your digest:"),
    ]
}

/// What `notes/stats` answers.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Stats {
    /// How many notes there are.
    notes: usize,
    /// How many are in the trash.
    trashed: usize,
}

/// How many notes there are, and how many are in the trash.
#[method(name = "notes/stats")]
async fn stats(notes: State<Notes>) -> Result<Json<Stats>, ToolError> {
    let store = notes.store();
    Ok(Json(Stats {
        notes: store.notes.len(),
        trashed: store.trash.len(),
    }))
}

/// Logs one event per exchange with target `audit`: the method, what it names, who called
/// (when authenticated), how it ended (`ok`, `error`, `input_required`, `task`,
/// `cancelled`), how many messages the server sent in it (the answer included) and how long
/// it took. `RUST_LOG=audit=info` shows them.
struct Audit;

impl Middleware for Audit {
    fn on_end(&self, exchange: &Exchange, outcome: Outcome) {
        tracing::info!(
            target: "audit",
            method = exchange.method(),
            name = exchange.name(),
            principal = exchange.principal().map(|p| p.subject.as_str()),
            outcome = outcome.as_str(),
            messages = exchange.messages(),
            duration_ms = u64::try_from(exchange.elapsed().as_millis()).unwrap_or(u64::MAX),
            "exchange"
        );
    }
}

// One thread for tasks is plenty: stdio serves one client, and its reader answers most
// calls on a thread of its own.
#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let served = Server::new("notes", env!("CARGO_PKG_VERSION"))
        .title("Notes")
        .instructions("Search before adding, so notes are not duplicated. Deleted notes can be restored with `restore_note` while they are in the trash.")
        .state(Notes::default())
        .tools(tools![
            add_note,
            search_notes,
            delete_note,
            summarize_notes,
            clear_notes,
            suggest_title,
            export_notes,
            archive_notes,
            export_markdown,
            list_notes,
            board_add
        ])
        .prompts(prompts![review_note, digest])
        .resources(resources![all_notes, note, board])
        .skills(skills!("examples/skills"))
        .extension(Extension::new("com.example/notes-stats").methods(methods![stats]))
        .middleware(Audit)
        .run()
        .await;
    common::exit(served)
}
