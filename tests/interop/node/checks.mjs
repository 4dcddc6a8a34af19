// The checks shared by client-v1.mjs and client-v2.mjs: the same cases and output as
// ../python/client.py. Each client connects with its SDK and hands the connected client here.
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual, parseArgs } from "node:util";

export const MODERN = "2026-07-28";
export const LEGACY = "2025-11-25"; // the newest handshake revision; both SDK lines offer it in initialize

// Per server: the tool names, calls with their expected text (not errors), and calls that must
// give a result with isError true: [arguments, exact text] or [arguments, text prefix + "..."].
const CASES = {
  calculator: {
    tools: ["calculator"],
    ok: [
      [{ operation: "add", a: 0.5, b: 2 }, "2.5"],
      [{ operation: "subtract", a: 10, b: 4 }, "6"],
      [{ operation: "multiply", a: 6, b: 7 }, "42"],
      [{ operation: "divide", a: 1, b: 4 }, "0.25"],
    ],
    error: [
      [{ operation: "divide", a: 1, b: 0 }, "cannot divide by zero: `b` must be a non-zero number"],
      [{ operation: "add", a: "x", b: 2 }, 'argument `a`: expected a number, received the string "x"'],
      [{ operation: "power", a: 2, b: 3 }, "argument `..."],
      [{ operation: "add", a: 1 }, "argument `..."],
    ],
  },
  text_analyzer: {
    tools: ["text_analyzer"],
    ok: [
      [{ text: "héllo big  world" }, { characters: 16, words: 3 }],
      [{ text: "" }, { characters: 0, words: 0 }],
    ],
    error: [
      [{}, "argument `..."],
      [{ text: 5 }, "argument `..."],
    ],
  },
};

let passed = 0;
let failed = 0;

export function check(name, ok, detail = "") {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}: ${detail}`);
  }
}

/** Parses `--server S (--stdio BINARY [--server-arg ARG]... | --http URL) [--mode M]
 * [--reader-token T --admin-token T]` (the payments server's demo bearer tokens, over HTTP);
 * exits with usage on error. */
export function cli(modes, defaultMode, servers = Object.keys(CASES)) {
  const usage = `usage: ${process.argv[1]} --server ${servers.join("|")} (--stdio BINARY [--server-arg ARG]... | --http URL) [--mode ${modes.join("|")}] [--reader-token TOKEN --admin-token TOKEN]`;
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        server: { type: "string" },
        stdio: { type: "string" },
        "server-arg": { type: "string", multiple: true },
        http: { type: "string" },
        mode: { type: "string" },
        "reader-token": { type: "string" },
        "admin-token": { type: "string" },
      },
    }));
  } catch (e) {
    console.error(`${e.message}\n${usage}`);
    process.exit(2);
  }
  values.mode ??= defaultMode;
  if (!servers.includes(values.server) || !values.stdio === !values.http || !modes.includes(values.mode)) {
    console.error(usage);
    process.exit(2);
  }
  return values;
}

const texts = (result) => result.content.filter((c) => c.type === "text").map((c) => c.text);
/** A JSON-RPC error's message as the server sent it (the 1.x McpError prefixes `MCP error CODE: `). */
const errorMessage = (e) => e.message?.replace(/^MCP error -?\d+: /, "");

/** Runs every check against a connected SDK client (v1 or v2: same listTools/callTool API). */
export async function runChecks(client, server, version, expectedVersion) {
  const cases = CASES[server];
  check("protocol version", version === expectedVersion, `${version}, expected ${expectedVersion}`);
  const structured = version >= "2025-06-18";

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  check("tools/list names", isDeepStrictEqual(names, cases.tools), `${JSON.stringify(names)}, expected ${JSON.stringify(cases.tools)}`);
  for (const t of tools) {
    check(`${t.name}: description`, Boolean(t.description), JSON.stringify(t.description));
    check(`${t.name}: inputSchema`, t.inputSchema?.type === "object", JSON.stringify(t.inputSchema));
    if (server === "text_analyzer" && structured) {
      const props = t.outputSchema?.properties ?? {};
      const ok = t.outputSchema?.type === "object" && ["characters", "words"].every((k) => props[k]?.type === "integer");
      check(`${t.name}: outputSchema`, ok, JSON.stringify(t.outputSchema));
    }
  }

  const tool = cases.tools[0];
  for (const [args, want] of cases.ok) {
    const name = `${tool} ${JSON.stringify(args)}`;
    const res = await client.callTool({ name: tool, arguments: args });
    const got = texts(res);
    const wantText = typeof want === "string" ? want : JSON.stringify(want);
    check(name, !res.isError && isDeepStrictEqual(got, [wantText]), `isError=${res.isError}, text=${JSON.stringify(got)}, expected ${JSON.stringify(wantText)}`);
    if (typeof want === "object" && structured) {
      check(`${name}: structuredContent`, isDeepStrictEqual(res.structuredContent, want), `${JSON.stringify(res.structuredContent)}, expected ${JSON.stringify(want)}`);
    }
  }

  for (const [args, want] of cases.error) {
    const res = await client.callTool({ name: tool, arguments: args });
    const got = texts(res);
    const text = got.length === 1 ? got[0] : undefined;
    const match = text !== undefined && (want.endsWith("...") ? text.startsWith(want.slice(0, -3)) : text === want);
    check(`${tool} ${JSON.stringify(args)} -> isError`, res.isError === true && match, `isError=${res.isError}, text=${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }

  try {
    const res = await client.callTool({ name: "no_such_tool", arguments: {} });
    check("unknown tool raises", false, `no exception, result ${JSON.stringify(res)}`);
  } catch (e) {
    check("unknown tool raises", e.code === -32602 && /Unknown tool/.test(e.message), `${e.name}: code=${e.code}, message=${JSON.stringify(e.message)}`);
  }
}

/** Runs `body`, records an exception as a failed check, prints the summary and exits. */
export async function main(body) {
  try {
    await body();
  } catch (e) {
    check("session", false, `${e?.name}: ${e?.message ?? e}`);
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

// The notes server's tools that ask (elicitation, sampling, roots), answered by the client's
// handlers: legacy servers send real requests, 2026-07-28 ones answer `input_required` and the
// SDK retries with the answers. `notesHandlers()` makes the handlers (and records what they
// were asked, and the resource updates heard); `runNotesChecks` drives the tools once they are
// registered, gets the server's prompts (`review_note`, `digest`), reads its resources
// (`notes://all`, `notes://{id}`), subscribes to `notes://all` while adding a note, and checks the
// MCP Apps board (`checkApps`).
const NOTES_TOOLS = ["clear_notes", "suggest_title", "export_notes"];
const TITLE = "Ownership in Rust"; // what the sampling handler's "model" answers (with spaces to trim)
const SYSTEM_PROMPT = "You name notes. Answer with the title only.";
const REVIEW_TONE = "Review this note for tone: say how it sounds, and suggest rewording where it sounds wrong.";
const DIGEST_ASK = "Write a short digest of my latest notes, oldest first: what they are about, grouped by topic, " +
  "and anything in them that needs doing.";

/** A note as `export_notes` and `digest` list it: `- title: text (tags: a, b)`. */
const noteLine = (n) => `- ${n.title}: ${n.body.split("\n").join(" ")}` + (n.tags.length ? ` (tags: ${n.tags.join(", ")})` : "");
/** What `notes://all` reads (and `export_notes` writes): a heading, one line per note by id. */
const markdown = (notes) => ["# Notes", ""].concat([...notes].sort((a, b) => a.id - b.id).map(noteLine)).join("\n") + "\n";
const messages = (result) => result.messages.map((m) => [m.role, m.content.type, m.content.text]);

/** The notes server's prompts: the definitions, a review of `note`, the digest of `notes`
 * (every note there is), and an unknown note's error. */
async function checkPrompts(client, note, notes) {
  const { prompts } = await client.listPrompts();
  const names = prompts.map((p) => p.name);
  check("prompts/list names", isDeepStrictEqual(names, ["review_note", "digest"]), JSON.stringify(names));
  const args = Object.fromEntries(prompts.map((p) => [p.name, (p.arguments ?? []).map((a) => [a.name, a.required])]));
  let want = { review_note: [["id", true], ["focus", false]], digest: [["limit", false]] };
  check("prompts/list arguments (name, required)", isDeepStrictEqual(args, want), `${JSON.stringify(args)}, expected ${JSON.stringify(want)}`);

  // Arguments are strings on the wire; the server parses the id and the focus.
  let res = await client.getPrompt({ name: "review_note", arguments: { id: String(note.id), focus: "tone" } });
  want = [["user", "text", `${REVIEW_TONE}\n\n# ${note.title}\n\n${note.body}`]];
  check("prompts/get review_note, focus tone", isDeepStrictEqual(messages(res), want), `${JSON.stringify(messages(res))}, expected ${JSON.stringify(want)}`);

  const latest = [...notes].sort((a, b) => a.id - b.id).slice(-10); // `limit` defaults to 10
  // The listing's end is trimmed: a note without a body (as `board_add` makes) ends in ": ".
  const listed = latest.map(noteLine).join("\n").trimEnd() || "(there are no notes yet)";
  res = await client.getPrompt({ name: "digest", arguments: {} });
  want = [["user", "text", `${DIGEST_ASK}\n\n${listed}`], ["assistant", "text", "Here is your digest:"]];
  check("prompts/get digest (the latest notes, then the assistant's start)", isDeepStrictEqual(messages(res), want),
    `${JSON.stringify(messages(res))}, expected ${JSON.stringify(want)}`);

  try {
    res = await client.getPrompt({ name: "review_note", arguments: { id: "999999" } });
    check("prompts/get review_note unknown id raises", false, `no exception, result ${JSON.stringify(res)}`);
  } catch (e) {
    check("prompts/get review_note unknown id raises", e.code === -32602 && errorMessage(e) === "there is no note 999999",
      `${e.name}: code=${e.code}, message=${JSON.stringify(e.message)}`);
  }
}

/** The notes server's resources: the definitions, `notes://all` (every note there is), one note
 * by its id, and an unknown note's error. */
async function checkResources(client, version, note, notes) {
  const { resources } = await client.listResources();
  let got = resources.map((r) => [r.uri, r.name, r.mimeType]);
  let want = [
    ["notes://all", "all_notes", "text/markdown"],
    ["ui://notes/board", "board", "text/html;profile=mcp-app"],
    ["skill://notes-workflow/SKILL.md", "notes-workflow", "text/markdown"],
    ["skill://notes-workflow/references/tagging.md", "tagging.md", "text/markdown"],
  ];
  check("resources/list", isDeepStrictEqual(got, want), `${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  // The notes skill's files are ordinary resources to a client that knows no skills.
  const skill = (await client.readResource({ uri: "skill://notes-workflow/SKILL.md" })).contents;
  const manifest = skill.length === 1 ? skill[0].text ?? "" : "";
  check("resources/read skill://notes-workflow/SKILL.md (its frontmatter, then the body)",
    manifest.startsWith("---\nname: notes-workflow\n") && manifest.includes("search_notes"),
    JSON.stringify(skill).slice(0, 300));
  const { resourceTemplates } = await client.listResourceTemplates();
  got = resourceTemplates.map((t) => [t.uriTemplate, t.name, t.mimeType]);
  want = [["notes://{id}", "note", "application/json"], ["mcp-result://{id}/{page}", "result_page", "text/plain"]];
  check("resources/templates/list", isDeepStrictEqual(got, want), `${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);

  let { contents } = await client.readResource({ uri: "notes://all" });
  got = contents.map((c) => [c.uri, c.mimeType, c.text]);
  want = [["notes://all", "text/markdown", markdown(notes)]];
  check("resources/read notes://all (every note as Markdown)", isDeepStrictEqual(got, want), `${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  const uri = `notes://${note.id}`;
  ({ contents } = await client.readResource({ uri }));
  got = contents.map((c) => [c.uri, c.mimeType, JSON.parse(c.text ?? "null")]);
  want = [[uri, "application/json", note]];
  check(`resources/read ${uri} (the added note as JSON)`, isDeepStrictEqual(got, want), `${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  try {
    const res = await client.readResource({ uri: "notes://999999" });
    check("resources/read notes://999999 raises", false, `no exception, result ${JSON.stringify(res)}`);
  } catch (e) {
    // Resource not found, with the URI in `data`: -32602 in 2026-07-28, -32002 before. The
    // TypeScript SDK 2.x reads a -32002 carrying `data.uri` back as its ResourceNotFoundError,
    // whose code is -32602 in every revision.
    const want = version === MODERN ? -32602 : -32002;
    const readBack = e.constructor?.mcpBrand === "mcp.ResourceNotFoundError" ? -32602 : want;
    const code = e.code === want || e.code === readBack;
    check("resources/read notes://999999 raises",
      code && e.data?.uri === "notes://999999" && errorMessage(e) === "there is no note 999999",
      `${e.name}: code=${e.code}, message=${JSON.stringify(e.message)}, data=${JSON.stringify(e.data)}`);
  }
}

// MCP Apps (extension `io.modelcontextprotocol/ui`): the notes board, a `ui://` view that
// `list_notes` and `board_add` link to.
const APPS = "io.modelcontextprotocol/ui";
const BOARD_URI = "ui://notes/board";
const BOARD_MIME = "text/html;profile=mcp-app";
const BOARD_UI = { csp: { connectDomains: ["https://api.example.com"] }, prefersBorder: true };

/** The MCP Apps extension as the SDK sees it: declared in the capabilities (the SDK's
 * `getServerCapabilities()`, from `initialize` or `server/discover`, which 2.x sends pinned too;
 * both lines' schemas have `extensions`), linked from the tools' `_meta`, the view listed and read with its MIME type and
 * `_meta.ui`, and `board_add` adding a note that `list_notes` then lists (`structuredContent.notes`).
 * Tools, resources and contents keep `_meta` as sent. */
async function checkApps(client, version) {
  const extension = client.getServerCapabilities()?.extensions?.[APPS];
  const source = version === MODERN ? "server/discover" : "initialize";
  check(`${source} capabilities.extensions["${APPS}"] names ${BOARD_MIME}`,
    Array.isArray(extension?.mimeTypes) && extension.mimeTypes.includes(BOARD_MIME), JSON.stringify(extension));

  const { tools } = await client.listTools();
  for (const [name, want] of [["list_notes", { resourceUri: BOARD_URI }], ["board_add", { resourceUri: BOARD_URI, visibility: ["app"] }]]) {
    const tool = tools.find((t) => t.name === name);
    const meta = tool?._meta ?? {};
    check(`tools/list ${name}: _meta.ui.resourceUri and _meta["ui/resourceUri"] are ${BOARD_URI}`,
      meta.ui?.resourceUri === BOARD_URI && meta["ui/resourceUri"] === BOARD_URI, `${name} listed: ${Boolean(tool)}, _meta ${JSON.stringify(meta)}`);
    check(`tools/list ${name}: _meta.ui is ${JSON.stringify(want)}`, isDeepStrictEqual(meta.ui, want), JSON.stringify(meta.ui));
  }

  const { resources } = await client.listResources();
  let got = resources.filter((r) => r.uri === BOARD_URI).map((r) => [r.mimeType, r._meta?.ui]);
  let want = [[BOARD_MIME, BOARD_UI]];
  check(`resources/list ${BOARD_URI}: ${BOARD_MIME} and _meta.ui`, isDeepStrictEqual(got, want), `${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  const { contents } = await client.readResource({ uri: BOARD_URI });
  got = contents.map((c) => [c.uri, c.mimeType, c._meta?.ui]);
  want = [[BOARD_URI, BOARD_MIME, BOARD_UI]];
  check(`resources/read ${BOARD_URI}: one content, ${BOARD_MIME} and _meta.ui`, isDeepStrictEqual(got, want), `${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  const html = contents[0]?.text;
  check(`resources/read ${BOARD_URI}: an HTML document`, typeof html === "string" && html.trimStart().toLowerCase().startsWith("<!doctype html>"),
    JSON.stringify(html)?.slice(0, 200));

  const title = `from the board ${randomUUID().slice(0, 8)}`; // runs over HTTP share a server
  let res = await client.callTool({ name: "board_add", arguments: { title } });
  const added = (res.structuredContent?.notes ?? []).filter((n) => n.title === title);
  check("board_add: structuredContent.notes has the new note", !res.isError && added.length === 1,
    `${JSON.stringify(texts(res))}, structuredContent ${JSON.stringify(res.structuredContent)}`);
  res = await client.callTool({ name: "list_notes", arguments: {} });
  check("list_notes then lists it", !res.isError && added.length > 0 && (res.structuredContent?.notes ?? []).some((n) => isDeepStrictEqual(n, added[0])),
    `${JSON.stringify(texts(res))}, structuredContent ${JSON.stringify(res.structuredContent)}`);
}

/** Calls `add_note` while subscribed to `notes://all`, and checks that the server tells of the
 * change: `resources/subscribe` and the `notifications/resources/updated` handler in legacy
 * sessions; a `subscriptions/listen` stream (2.x `client.listen`), whose notifications reach the
 * same handler, in 2026-07-28. Returns the call's result. */
async function addNoteWatched(client, version, { nextUpdate }, args) {
  let subscription;
  if (version === MODERN) {
    subscription = await client.listen({ resourceSubscriptions: ["notes://all"] });
    const honored = subscription.honoredFilter.resourceSubscriptions;
    check("subscriptions/listen acknowledges notes://all", isDeepStrictEqual(honored, ["notes://all"]), JSON.stringify(honored));
  } else {
    await client.subscribeResource({ uri: "notes://all" });
  }
  try {
    const res = await client.callTool({ name: "add_note", arguments: args });
    const uri = await nextUpdate().catch((e) => e.message);
    check("notifications/resources/updated notes://all after add_note", uri === "notes://all", JSON.stringify(uri));
    return res;
  } finally {
    await (subscription ? subscription.close() : client.unsubscribeResource({ uri: "notes://all" }));
  }
}

export function notesHandlers() {
  const asked = { sampling: [], elicitation: [], roots: 0 };
  const heard = []; // the URIs of `notifications/resources/updated` not yet waited for
  let wake = () => {};
  const answers = ["decline", "accept"]; // clear_notes: declined first, then accepted
  const folder = mkdtempSync(join(tmpdir(), "mcp-notes-"));
  return {
    asked,
    folder,
    sampling: async (request) => {
      asked.sampling.push(request.params);
      return { role: "assistant", model: "interop-model", content: { type: "text", text: `  ${TITLE}\n` } };
    },
    elicitation: async (request) => {
      asked.elicitation.push(request.params);
      const action = answers.shift() ?? "cancel";
      return action === "accept" ? { action, content: { confirm: true } } : { action };
    },
    roots: async () => {
      asked.roots++;
      return { roots: [{ uri: pathToFileURL(folder).href, name: "export" }] };
    },
    updated: (notification) => {
      heard.push(notification.params.uri);
      wake();
    },
    /** The URI of the next resource update, waiting up to 10 s for it. */
    nextUpdate: () =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no notifications/resources/updated in 10 s")), 10_000);
        wake = () => {
          wake = () => {};
          clearTimeout(timer);
          resolve(heard.shift());
        };
        if (heard.length) wake();
      }),
  };
}

/** Notes long enough that `export_markdown` (a budget of 1 KiB) answers in pages. */
const LONG_NOTES = [
  ["Rust traits", "Traits define shared behaviour. A trait object erases the type behind a pointer;\ngenerics keep it and monomorphize. Prefer generics on hot paths.", ["rust"]],
  ["Groceries", "eggs, rice, green tea, oat milk, two lemons, a loaf of rye, butter, black pepper,\ntomatoes (the small ones), basil, olive oil, sea salt, coffee beans", []],
  ["Déjà vu — café", "Naïve questions are welcome: «pourquoi?» leads to better design. 日本語のメモも\nここに書く。Emoji travel too: 🦀📚☕. Pages cut between characters.", ["unicode"]],
  ["Trip", "Train at 07:42 from platform 3; change at Lyon; arrive 12:15. Hotel on rue Victor\nHugo, check-in from 15:00. Dinner booked at 20:00 near the river.", ["travel", "plans"]],
];

/** What `export_markdown` answers: a heading, then each note by id with its text and tags. */
const exportMarkdown = (notes) =>
  "# Notes\n" + [...notes].sort((a, b) => a.id - b.id)
    .map((n) => `\n## ${n.title}\n\n${n.body}\n` + (n.tags.length ? `\nTags: ${n.tags.join(", ")}\n` : "")).join("");

/** `export_markdown` over its budget: the first page, a link to the whole result and the line
 * that says how to read on; then every other page, as resources (`resources/read`) and through
 * the `read_result` tool, each way making the whole export. */
async function checkSpilled(client, version) {
  // Twice: some 1.7 KB, two pages or more.
  for (const [title, body, tags] of [...LONG_NOTES, ...LONG_NOTES]) {
    await client.callTool({ name: "add_note", arguments: { title, body, tags } });
  }
  const found = await client.callTool({ name: "search_notes", arguments: { query: "", limit: 1000 } });
  const whole = exportMarkdown(JSON.parse(texts(found)[0]).notes);
  const res = await client.callTool({ name: "export_markdown", arguments: {} });
  const [first, link, line] = res.content;
  const kinds = res.content.map((c) => c.type);
  check("export_markdown over its budget: a page, a link, a line", isDeepStrictEqual(kinds, ["text", "resource_link", "text"]) && !res.isError,
    JSON.stringify(res.content));
  const id = link?.uri?.match(/^mcp-result:\/\/(.+)\/1$/)?.[1];
  const pages = Number(link?.description?.match(/ in (\d+) pages/)?.[1]);
  check("export_markdown: the link is to the whole result, page 1 of several", id !== undefined && pages >= 2,
    JSON.stringify(link));
  check("export_markdown: the line says how to read on",
    line?.text?.includes(`read_result\` and arguments {"id": "${id}", "page": 2}`) && line.text.includes(`mcp-result://${id}/2`),
    JSON.stringify(line));
  check("export_markdown: the first page within 1 KiB", first.text.length + line.text.length <= 1024 && whole.startsWith(first.text),
    JSON.stringify(first.text));
  let asResources = first.text;
  for (let page = 2; page <= pages; page++) {
    const { contents } = await client.readResource({ uri: `mcp-result://${id}/${page}` });
    asResources += contents[0].text;
    const next = page < pages ? `mcp-result://${id}/${page + 1}` : undefined;
    check(`resources/read page ${page}: then the next page's URI`, contents[1]?.text === next && (next === undefined || contents[1].mimeType === "text/uri-list"),
      JSON.stringify(contents.slice(1)));
  }
  check("the pages read as resources are the whole export", asResources === whole, JSON.stringify(asResources));
  // A 2026-07-28 client keeps a tools/list for its `ttlMs` (and hears of changes only on a
  // listen stream): `read_result` is called all the same, as the server serves it listed or not.
  if (version !== MODERN) {
    const { tools } = await client.listTools();
    check("tools/list has read_result once a result spilled", tools.some((t) => t.name === "read_result"), JSON.stringify(tools.map((t) => t.name)));
  }
  let throughTool = first.text;
  for (let page = 2; page <= pages; page++) {
    const read = await client.callTool({ name: "read_result", arguments: { id, page } });
    throughTool += read.content[0].text;
  }
  check("the pages read through read_result are the whole export", throughTool === whole, JSON.stringify(throughTool));
}

export async function runNotesChecks(client, version, expectedVersion, handlers) {
  const { asked, folder } = handlers;
  try {
    check("protocol version", version === expectedVersion, `${version}, expected ${expectedVersion}`);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    check("tools/list has the tools that ask", NOTES_TOOLS.every((n) => names.includes(n)), JSON.stringify(names));

    const body = "Each value has one owner; borrowing lends it without moving it.";
    let res = await addNoteWatched(client, version, handlers, { title: "draft", body, tags: ["rust"] });
    const note = JSON.parse(texts(res)[0] ?? "{}");
    check("add_note", !res.isError && note.body === body, JSON.stringify(texts(res)));

    await checkApps(client, version);

    // The server's state is per process: over HTTP, earlier runs may have left notes.
    const found = await client.callTool({ name: "search_notes", arguments: { query: "", limit: 1000 } });
    const notes = JSON.parse(texts(found)[0]).notes;
    const count = notes.length;

    await checkPrompts(client, note, notes);
    await checkResources(client, version, note, notes);

    // suggest_title: sampling, with the exact request.
    res = await client.callTool({ name: "suggest_title", arguments: { id: note.id } });
    let want = `suggested title for note ${note.id}: ${TITLE}`;
    check("suggest_title: the model's text, trimmed", !res.isError && isDeepStrictEqual(texts(res), [want]), `isError=${res.isError}, text=${JSON.stringify(texts(res))}, expected ${JSON.stringify(want)}`);
    const params = asked.sampling.at(-1);
    const expected = {
      messages: [{ role: "user", content: { type: "text", text: `Suggest a title of at most six words for this note:\n\n${body}` } }],
      maxTokens: 30,
      systemPrompt: SYSTEM_PROMPT,
    };
    const { _meta, ...sent } = params ?? {};
    check("suggest_title: sampling request (messages, systemPrompt, maxTokens)", isDeepStrictEqual(sent, expected), JSON.stringify(params));
    res = await client.callTool({ name: "suggest_title", arguments: { id: 999999 } });
    check("suggest_title unknown id -> isError", res.isError === true && isDeepStrictEqual(texts(res), ["there is no note 999999"]), JSON.stringify(texts(res)));

    // export_notes: roots, then a file in the shared folder.
    res = await client.callTool({ name: "export_notes", arguments: {} });
    const path = join(folder, "notes.md");
    want = `exported ${count} notes to ${path}`;
    check("export_notes: answer", isDeepStrictEqual(texts(res), [want]), `${JSON.stringify(texts(res))}, expected ${JSON.stringify(want)}`);
    check("export_notes: roots/list asked", asked.roots >= 1, `${asked.roots} times`);
    const written = existsSync(path) ? readFileSync(path, "utf8") : undefined;
    check("export_notes: notes.md", written === markdown(notes), JSON.stringify(written));

    // clear_notes: a form; declined keeps every note, accepted deletes them.
    res = await client.callTool({ name: "clear_notes", arguments: {} });
    check("clear_notes declined", isDeepStrictEqual(texts(res), [`kept ${count} notes`]), JSON.stringify(texts(res)));
    const form = asked.elicitation[0];
    const schema = form?.requestedSchema ?? {};
    const formOk = form?.message === `Delete all ${count} notes? This cannot be undone.` &&
      schema.properties?.confirm?.type === "boolean" && schema.properties?.confirm?.default === true;
    check("clear_notes: elicitation request (message, requestedSchema)", formOk, JSON.stringify(form));
    res = await client.callTool({ name: "clear_notes", arguments: {} });
    check("clear_notes accepted", isDeepStrictEqual(texts(res), [`deleted ${count} notes`]), JSON.stringify(texts(res)));
    const after = await client.callTool({ name: "search_notes", arguments: { query: "" } });
    const total = JSON.parse(texts(after)[0]).total;
    check("search_notes finds nothing after clear_notes", total === 0, `total ${total}`);
    res = await client.callTool({ name: "clear_notes", arguments: {} });
    check("clear_notes with no notes asks nothing", isDeepStrictEqual(texts(res), ["there are no notes to delete"]) && asked.elicitation.length === 2,
      `${JSON.stringify(texts(res))}, ${asked.elicitation.length} forms`);

    await checkSpilled(client, version);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

// The payments example: some 220 tools behind tool search. `tools/list` names the tools marked
// `always_load` and two the framework adds, `search_tools` (a query in the user's words, the best
// tools first, whole definitions) and `call_tool` (runs one of the tools found, as a `tools/call`
// of it would: elicitation, tasks and paged results included). `paymentsHandlers()` answers
// `create_refund`'s question (declined first, then confirmed); `runPaymentsChecks` drives the
// rest, and over HTTP `connect(token)` opens a session with another bearer token.
const SEARCH_TOOLS = "search_tools";
const CALL_TOOL = "call_tool";
const ALWAYS_LOAD = "anthropic/alwaysLoad"; // the definition's `_meta` key of `#[tool(always_load)]`
const UNLISTED = ["create_refund", "cancel_subscription", "create_report_run", "list_balance_transactions", "create_payout"];
/** What a user says, and the tool search must offer for it. */
const SEARCHES = [
  ["give the customer her money back", "create_refund"],
  ["stop charging them every month", "cancel_subscription"],
  ["build the monthly report", "create_report_run"],
  ["list every movement of money in the account", "list_balance_transactions"],
];
const PAYOUT_QUERY = "pay out the balance to the bank";
const BALANCE_PAGE_CHARS = 4000; // list_balance_transactions' `max_result_chars`

/** `search_tools` with this query: [the result, the names of the tools found]. */
async function search(client, query, more = {}) {
  const res = await client.callTool({ name: SEARCH_TOOLS, arguments: { query, ...more } });
  const found = res.structuredContent?.tools;
  return [res, Array.isArray(found) ? found.map((t) => t.name) : undefined];
}
/** `call_tool` naming a tool of the catalogue. */
const call = (client, name, args) => client.callTool({ name: CALL_TOOL, arguments: { name, arguments: args } });
const firstText = (res) => texts(res)[0] ?? "";
/** The JSON object a tool answered, or {} when it answered an error or something else. */
const answer = (res) => {
  try {
    return res.isError ? {} : JSON.parse(firstText(res));
  } catch {
    return {};
  }
};

/** `search_tools`' answer: `want` among the tools, each a whole definition, and the text that
 * lists them, a line each, best first. */
function checkSearch(res, names, query, want) {
  check(`search_tools ${JSON.stringify(query)} finds ${want}`, !res.isError && names?.includes(want),
    `isError=${res.isError}, tools ${JSON.stringify(names)}`);
  const entry = res.structuredContent?.tools?.find((t) => t.name === want) ?? {};
  check(`search_tools ${JSON.stringify(query)}: ${want}'s definition, with its inputSchema`,
    Boolean(entry.description) && entry.inputSchema?.type === "object", JSON.stringify(entry).slice(0, 400));
  const lines = firstText(res).split("\n");
  const listed = lines.map((line) => line.match(/^- (\w+)\(.*\): .+/)?.[1]).filter(Boolean);
  check(`search_tools ${JSON.stringify(query)}: the text lists the tools found, best first`,
    lines[0].startsWith("Call one with `call_tool`") && isDeepStrictEqual(listed, names),
    `${JSON.stringify(texts(res))}, expected a line for each of ${JSON.stringify(names)}`);
}

/** `tools/list` with tool search on, the two framework tools' schemas, and searches in the
 * user's words. */
async function checkDiscovery(client) {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  check("tools/list has search_tools and call_tool", names.includes(SEARCH_TOOLS) && names.includes(CALL_TOOL), JSON.stringify(names));
  const preloaded = tools.filter((t) => t._meta?.[ALWAYS_LOAD] === true).map((t) => t.name);
  const others = names.filter((n) => ![SEARCH_TOOLS, CALL_TOOL, "read_result", ...preloaded].includes(n));
  check("tools/list: besides those two, only tools marked always_load", preloaded.length > 0 && others.length === 0,
    `always_load ${JSON.stringify(preloaded)}, others ${JSON.stringify(others)}`);
  const hidden = UNLISTED.filter((n) => names.includes(n));
  check("tools/list: not the whole catalogue", names.length < 20 && hidden.length === 0, `${names.length} tools, ${JSON.stringify(hidden)}`);

  const schemaOf = (name) => tools.find((t) => t.name === name)?.inputSchema ?? {};
  let props = schemaOf(SEARCH_TOOLS).properties ?? {};
  check("search_tools: query (a required string), limit, group (an enum of the groups)",
    props.query?.type === "string" && "limit" in props && isDeepStrictEqual(schemaOf(SEARCH_TOOLS).required, ["query"]) &&
    Array.isArray(props.group?.enum) && props.group.enum.includes("refunds"), JSON.stringify(schemaOf(SEARCH_TOOLS)));
  props = schemaOf(CALL_TOOL).properties ?? {};
  check("call_tool: name (a string) and arguments (an object)",
    props.name?.type === "string" && props.arguments?.type === "object", JSON.stringify(schemaOf(CALL_TOOL)));

  for (const [query, want] of SEARCHES) {
    const [res, found] = await search(client, query);
    checkSearch(res, found, query, want);
  }
  let [res, found] = await search(client, "refund a charge", { group: "refunds", limit: 3 });
  check("search_tools in group refunds, limit 3: refund tools only, at most 3",
    found?.length > 0 && found.length <= 3 && found.every((n) => n.includes("refund")), JSON.stringify(found));
  [res, found] = await search(client, "zqxv wvut");
  check("search_tools with no match: no tools, not an error", !res.isError && isDeepStrictEqual(found, []),
    `isError=${res.isError}, ${JSON.stringify(res.structuredContent)}`);
}

/** `create_refund` through `call_tool`, over 10,000 cents: the user is asked to confirm
 * (declined: nothing is refunded; accepted: the refund). */
async function checkRefund(client, asked) {
  let res = await call(client, "create_charge", { amount: 25000, customer: "cus_8Kd2", source: "pm_4242", description: "interop refund" });
  const charge = answer(res);
  check("call_tool create_charge: a charge to refund", String(charge.id).startsWith("ch_"), JSON.stringify(texts(res)));
  const args = { charge: charge.id, amount: 20000 };
  res = await call(client, "create_refund", args);
  check("call_tool create_refund 20000, the user declines: nothing refunded",
    res.isError === true && firstText(res).startsWith("nothing was refunded"), JSON.stringify(texts(res)));
  const form = asked[0];
  check("create_refund: the elicitation names the charge, with a boolean confirm",
    form?.message?.includes(charge.id) && form.requestedSchema?.properties?.confirm?.type === "boolean", JSON.stringify(form));
  res = await call(client, "create_refund", args);
  const refund = answer(res);
  check("call_tool create_refund 20000, the user confirms: refunded",
    String(refund.id).startsWith("re_") && refund.amount === 20000 && refund.charge === charge.id && refund.status === "succeeded",
    `isError=${res.isError}, ${JSON.stringify(texts(res))}`);
  check("create_refund asked twice (once a call)", asked.length === 2, `${asked.length} forms`);
}

/** `create_report_run`, a task tool, through `call_tool`: a client without the tasks extension
 * gets the answer of a plain call. */
async function checkReport(client) {
  const res = await call(client, "create_report_run", { report_type: "balance.summary.1" });
  const run = answer(res);
  check("call_tool create_report_run: the report run, answered as a plain call",
    String(run.id).startsWith("frr_") && run.report_type === "balance.summary.1" && run.status === "succeeded",
    `isError=${res.isError}, ${JSON.stringify(texts(res))}`);
}

/** `list_balance_transactions` through `call_tool`: over its 4000 characters, the first page, a
 * link and the line saying how to read on; the other pages through `call_tool` naming
 * `read_result`, and as resources. */
async function checkPaged(client) {
  const res = await call(client, "list_balance_transactions", {});
  const kinds = res.content.map((c) => c.type);
  const paged = isDeepStrictEqual(kinds, ["text", "resource_link", "text"]);
  check("call_tool list_balance_transactions: a page, a link, a line", paged && !res.isError, JSON.stringify(res.content).slice(0, 600));
  if (!paged) return;
  const [first, link, line] = res.content;
  const id = link.uri?.match(/^mcp-result:\/\/(.+)\/1$/)?.[1];
  const pages = Number(link.description?.match(/ in (\d+) pages/)?.[1] ?? 0);
  check("list_balance_transactions: the link is to page 1 of several", id !== undefined && pages >= 2, JSON.stringify(link));
  check("list_balance_transactions: the line says how to read on",
    line.text.includes(`read_result\` and arguments {"id": "${id}", "page": 2}`) && line.text.includes(`mcp-result://${id}/2`),
    JSON.stringify(line.text));
  // Characters, as the hint counts them (a string's length counts UTF-16 units: never fewer).
  check("list_balance_transactions: the first page and the line within 4000 characters",
    [...first.text].length + [...line.text].length <= BALANCE_PAGE_CHARS, `${first.text.length} + ${line.text.length}`);
  let throughTool = first.text;
  let asResources = first.text;
  for (let page = 2; page <= pages; page++) {
    const read = await call(client, "read_result", { id, page });
    throughTool += read.isError ? `<error ${JSON.stringify(texts(read))}>` : firstText(read);
    const { contents } = await client.readResource({ uri: `mcp-result://${id}/${page}` });
    asResources += contents[0].text;
  }
  check("call_tool read_result reads the pages that resources/read reads",
    throughTool === asResources && throughTool.length > BALANCE_PAGE_CHARS, JSON.stringify(throughTool.slice(-300)));
  const head = firstText(await call(client, "list_balance_transactions", { limit: 3 }));
  check("the pages are the listing: it starts with the 3 newest lines",
    head.split("\n").filter(Boolean).length === 3 && throughTool.startsWith(head), `${JSON.stringify(head)} vs ${JSON.stringify(throughTool.slice(0, 400))}`);
}

async function checkUnknown(client) {
  const res = await call(client, "create_refnd", { charge: "ch_3Lx1" });
  const text = firstText(res);
  check("call_tool with an unknown name: a tool error that suggests names",
    res.isError === true && text.startsWith("no tool `create_refnd` is offered; did you mean `create_refund`") &&
    text.endsWith("Find tools with `search_tools`."), `isError=${res.isError}, ${JSON.stringify(texts(res))}`);
}

/** Over HTTP, with `ScopePolicy::Hide`: a token without `payouts:write` never finds
 * `create_payout` (nor is it suggested, nor run); one with it does. */
async function checkScopes(connect, readerToken, adminToken) {
  let client = await connect(readerToken);
  try {
    let [res, found] = await search(client, PAYOUT_QUERY);
    check(`reader: search_tools ${JSON.stringify(PAYOUT_QUERY)} never offers create_payout`,
      !res.isError && Array.isArray(found) && !found.includes("create_payout"), JSON.stringify(found));
    [res, found] = await search(client, "create_payout");
    check("reader: nor when searched by its name", Array.isArray(found) && !found.includes("create_payout"), JSON.stringify(found));
    res = await call(client, "create_payout", { amount: 100 });
    const text = firstText(res);
    check("reader: call_tool create_payout is refused as no tool offered, suggesting others",
      res.isError === true && text.startsWith("no tool `create_payout` is offered") &&
      !text.split("offered").slice(1).join("offered").includes("`create_payout`"), JSON.stringify(texts(res)));
  } finally {
    await client.close();
  }
  client = await connect(adminToken);
  try {
    const [, found] = await search(client, PAYOUT_QUERY);
    check(`admin: search_tools ${JSON.stringify(PAYOUT_QUERY)} offers create_payout`, found?.includes("create_payout"), JSON.stringify(found));
  } finally {
    await client.close();
  }
}

export function paymentsHandlers() {
  const asked = [];
  const answers = ["decline", "accept"]; // create_refund: declined first, then confirmed
  return {
    asked,
    elicitation: async (request) => {
      asked.push(request.params);
      const action = answers.shift() ?? "cancel";
      return action === "accept" ? { action, content: { confirm: true } } : { action };
    },
  };
}

/** `scopes`: over HTTP, `{ connect, readerToken, adminToken }`, where `connect(token)` gives a
 * new connected client sending that bearer token; else undefined (over stdio there is no
 * principal), and the scope checks are skipped. */
export async function runPaymentsChecks(client, version, expectedVersion, handlers, scopes) {
  check("protocol version", version === expectedVersion, `${version}, expected ${expectedVersion}`);
  await checkDiscovery(client);
  await checkRefund(client, handlers.asked);
  await checkReport(client);
  await checkPaged(client);
  await checkUnknown(client);
  if (scopes) {
    await checkScopes(scopes.connect, scopes.readerToken, scopes.adminToken);
  } else {
    console.log("skip scopes: over stdio there is no principal (and over HTTP, pass --reader-token and --admin-token)");
  }
}
