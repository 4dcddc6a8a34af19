// The notes board in a real host in a real browser: headless Chromium opens host.html (the
// ext-apps package's AppBridge and the official TypeScript client), which renders the view of
// the `notes` example through a sandbox proxy on another origin, under the CSP built from the
// view's `_meta.ui.csp`.
//
//   node test.mjs PATH/TO/notes      (tests/apps/run.sh builds build/host.js first)
//
// Environment: APPS_OUT (where the screenshot and logs go; default a new temporary folder),
// CHROMIUM (default /usr/bin/chromium), APPS_TIMEOUT_MS (the whole run; default 120000).
// Prints one line per check and ends with "N passed, M failed"; exits 1 on any failure.
import { spawn } from "node:child_process";
import { createServer, createConnection } from "node:net";
import { createServer as createHttpServer } from "node:http";
import { mkdtempSync, mkdirSync, createWriteStream, statSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startServers } from "./serve.mjs";

const notesBin = process.argv[2];
if (!notesBin) {
  console.error("usage: node test.mjs PATH/TO/notes");
  process.exit(2);
}
const out = process.env.APPS_OUT || mkdtempSync(join(tmpdir(), "mcp-apps-"));
mkdirSync(out, { recursive: true });
const chromium = process.env.CHROMIUM || "/usr/bin/chromium";
const deadline = Number(process.env.APPS_TIMEOUT_MS || 120000);
// As on this project's machines (no network but the package registries): no background
// traffic, no first-run work. A fresh profile every run.
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const MIME = "text/html;profile=mcp-app";
const BOARD = "ui://notes/board";

let passed = 0;
let failed = 0;
function check(name, ok, detail = "") {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "PASS" : "FAIL"} ${name}${ok || !detail ? "" : `: ${detail}`}`);
}

const cleanups = [];
async function finish(code) {
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch {
      // already gone
    }
  }
  console.log(`apps: ${passed} passed, ${failed} failed`);
  process.exit(code ?? (failed === 0 && passed > 0 ? 0 : 1));
}
setTimeout(() => {
  check(`the run finished within ${deadline} ms`, false, "timed out");
  finish(1);
}, deadline);

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
async function waitPort(port, ms = 10000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const open = await new Promise((resolve) => {
      const socket = createConnection({ port, host: "127.0.0.1" }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`);
}

// A live server outside every CSP: it counts what reaches it.
async function startProbe() {
  const hits = [];
  const server = createHttpServer((req, res) => {
    hits.push(req.url);
    res.writeHead(200, { "access-control-allow-origin": "*", "content-type": "text/plain" });
    res.end("probe");
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${port}/probe`, hits };
}

async function mcpClient(url) {
  const client = new Client({ name: "apps-test-seeder", version: "0.1.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  cleanups.push(() => client.close());
  return client;
}

function hostState(page) {
  return page.evaluate(() => JSON.parse(JSON.stringify(window.__host)));
}
// Opens the host page and waits until the view has had its tool's input and result, and has
// listed the notes through the host itself.
async function openHost(page, url, sandboxUrl) {
  await page.goto(url, { waitUntil: "load" });
  await page.waitForFunction(
    () => {
      const host = window.__host;
      if (!host) return false;
      if (host.stage === "failed") return true;
      return host.stage === "ready" && host.calls.some((c) => c.name === "list_notes" && c.isError === false);
    },
    { timeout: 20000 },
  );
  const state = await hostState(page);
  if (state.stage === "failed") throw new Error(`the host failed: ${state.error}`);
  const view = page.frames().find((f) => f.url() === "about:srcdoc" && f.parentFrame()?.url().startsWith(sandboxUrl));
  if (!view) throw new Error(`no view frame; frames: ${page.frames().map((f) => f.url()).join(", ")}`);
  const sandbox = view.parentFrame();
  return { state, view, sandbox };
}
const cardTitles = (view) =>
  view.$$eval("[data-note-id]", (cards) => cards.map((c) => c.querySelector("h2")?.textContent));

async function main() {
  // The notes server, empty at start.
  const port = await freePort();
  const notesLog = createWriteStream(join(out, "notes.stderr"));
  const notes = spawn(notesBin, ["--http", `127.0.0.1:${port}`], { stdio: ["ignore", "ignore", "pipe"] });
  notes.stderr.pipe(notesLog);
  cleanups.push(() => notes.kill("SIGTERM"));
  notes.once("exit", (code, signal) => {
    if (signal !== "SIGTERM") console.error(`notes exited early (${code ?? signal}); see ${out}/notes.stderr`);
  });
  await waitPort(port);
  const mcpUrl = `http://127.0.0.1:${port}/mcp`;

  const servers = await startServers(mcpUrl);
  cleanups.push(() => servers.close());
  const probe = await startProbe();

  const profile = mkdtempSync(join(tmpdir(), "mcp-apps-chromium-"));
  cleanups.push(() => rmSync(profile, { recursive: true, force: true }));
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    userDataDir: profile,
    args: FLAGS,
    protocolTimeout: 30000,
  });
  cleanups.push(() => browser.close());
  const page = await browser.newPage();
  await page.setViewport({ width: 720, height: 640 });
  const console_ = createWriteStream(join(out, "console.log"));
  page.on("console", (m) => console_.write(`[${m.type()}] ${m.text()}\n`));
  page.on("pageerror", (e) => console_.write(`[pageerror] ${e.message}\n`));

  // 1. An empty server: the host finds the view, the board shows its empty state.
  let { state, view, sandbox } = await openHost(page, servers.pageUrl, servers.sandboxUrl);
  const ext = state.serverExtension;
  check(
    "host: the server declares io.modelcontextprotocol/ui with text/html;profile=mcp-app",
    Array.isArray(ext?.mimeTypes) && ext.mimeTypes.includes(MIME),
    JSON.stringify(ext),
  );
  check(
    `host: list_notes links ${BOARD}, read with MIME type ${MIME} and _meta.ui.csp`,
    state.resource?.uri === BOARD &&
      state.resource?.mimeType === MIME &&
      Array.isArray(state.resource?.ui?.csp?.connectDomains),
    JSON.stringify(state.resource),
  );
  check(
    "host: board_add (visibility app) is kept from the model and offered to the view",
    !state.modelTools.includes("board_add") &&
      state.modelTools.includes("list_notes") &&
      state.appTools.includes("board_add"),
    `model: ${state.modelTools}; app: ${state.appTools}`,
  );
  const empty = await view.evaluate(() => ({
    cards: document.querySelectorAll("[data-note-id]").length,
    shown: !document.getElementById("empty").hidden,
  }));
  check("board: an empty server shows the empty state", empty.cards === 0 && empty.shown, JSON.stringify(empty));
  const background = await view.evaluate(() => getComputedStyle(document.body).backgroundColor);
  check(
    "board: takes the host's theme variables",
    background === state.theme["--color-background-primary"],
    `background ${background}`,
  );

  // 2. Two notes added by another client: the board lists them as cards.
  const seeder = await mcpClient(mcpUrl);
  const seeded = [
    { title: "Buy milk", body: "Two litres, semi-skimmed.", tags: ["home"] },
    { title: "Write the report", body: "Due on Friday.", tags: ["work", "urgent"] },
  ];
  for (const note of seeded) {
    const added = await seeder.callTool({ name: "add_note", arguments: note });
    if (added.isError) throw new Error(`add_note failed: ${JSON.stringify(added.content)}`);
  }
  ({ state, view, sandbox } = await openHost(page, servers.pageUrl, servers.sandboxUrl));
  await view.waitForFunction(() => document.querySelectorAll("[data-note-id]").length >= 2, { timeout: 10000 });
  const titles = await cardTitles(view);
  check(
    "board: lists the server's notes as cards",
    JSON.stringify(titles) === JSON.stringify(seeded.map((n) => n.title)),
    JSON.stringify(titles),
  );

  // 3. A note added through the board's box.
  const title = "Water the plants";
  const before = state.calls.length;
  await view.type("#title", title);
  await view.click("#add-button");
  await view.waitForFunction(
    (t) => [...document.querySelectorAll("[data-note-id] h2")].some((h) => h.textContent === t),
    { timeout: 10000 },
    title,
  );
  state = await hostState(page);
  const adds = state.calls.slice(before).filter((c) => c.name === "board_add");
  check(
    "board: its box calls board_add through the host",
    adds.length === 1 && adds[0].arguments.title === title && adds[0].isError === false,
    JSON.stringify(state.calls.slice(before)),
  );
  const after = await cardTitles(view);
  check(
    "board: the new card appears after the others",
    JSON.stringify(after) === JSON.stringify([...seeded.map((n) => n.title), title]),
    JSON.stringify(after),
  );
  const listed = await seeder.callTool({ name: "list_notes", arguments: {} });
  const serverTitles = (listed.structuredContent?.notes ?? []).map((n) => n.title);
  check("server: holds the note added from the board", serverTitles.includes(title), JSON.stringify(serverTitles));

  // 4. The host refuses a view's call of a tool it does not offer to apps.
  const refusal = await view.evaluate(
    () =>
      new Promise((resolve) => {
        const id = "refusal-probe";
        const onMessage = (event) => {
          if (event.data?.id !== id) return;
          window.removeEventListener("message", onMessage);
          resolve(event.data);
        };
        window.addEventListener("message", onMessage);
        window.parent.postMessage(
          { jsonrpc: "2.0", id, method: "tools/call", params: { name: "not_offered_to_apps", arguments: {} } },
          "*",
        );
        setTimeout(() => resolve({ timedOut: true }), 5000);
      }),
  );
  state = await hostState(page);
  check(
    "host: refuses the view's tools/call of a tool not offered to apps, and never forwards it",
    refusal.error !== undefined &&
      state.rejected.includes("not_offered_to_apps") &&
      !state.calls.some((c) => c.name === "not_offered_to_apps"),
    JSON.stringify(refusal),
  );

  // 5. The CSP: a request to an origin outside `connectDomains` never leaves the view.
  const blocked = await view.evaluate(
    (url) =>
      new Promise((resolve) => {
        const violations = [];
        document.addEventListener("securitypolicyviolation", (e) =>
          violations.push({ directive: e.effectiveDirective, blocked: e.blockedURI, policy: e.originalPolicy }),
        );
        fetch(url).then(
          () => "answered",
          (error) => `failed: ${error.message}`,
        ).then((outcome) => setTimeout(() => resolve({ outcome, violations }), 300));
      }),
    probe.url,
  );
  const violation = blocked.violations.find((v) => v.directive === "connect-src");
  check(
    "view: a fetch outside its CSP fails, is reported as a connect-src violation, and reaches nobody",
    blocked.outcome.startsWith("failed") && violation !== undefined && probe.hits.length === 0,
    `${JSON.stringify(blocked)}; probe hits: ${probe.hits.length}`,
  );
  check(
    "view: its CSP is built from _meta.ui.csp (connect-src 'self' and the declared domains; frame-src 'none')",
    violation !== undefined &&
      violation.policy.includes(`connect-src 'self' ${state.resource.ui.csp.connectDomains.join(" ")}`) &&
      violation.policy.includes("default-src 'none'") &&
      violation.policy.includes("frame-src 'none'") &&
      violation.policy.includes("object-src 'none'"),
    violation?.policy,
  );
  // The same request from the sandbox proxy (no CSP) reaches the probe: it was the view's
  // policy that stopped it, not a dead server.
  const control = await sandbox.evaluate(
    (url) => fetch(url, { mode: "no-cors" }).then(() => "answered", (error) => `failed: ${error.message}`),
    `${probe.url}?from=sandbox`,
  );
  check(
    "sandbox proxy: the same request without the view's CSP reaches the live probe",
    control === "answered" && probe.hits.length === 1,
    `${control}; probe hits: ${JSON.stringify(probe.hits)}`,
  );

  // 6. Size, screenshot, teardown.
  state = await hostState(page);
  const frameHeight = await page.$eval("#view iframe", (f) => f.getBoundingClientRect().height);
  const lastSize = state.sizes.at(-1);
  check(
    "view: reports its size, and the host sizes the frame to it",
    lastSize !== undefined && Math.abs(frameHeight - Math.min(lastSize.height, 800)) <= 2,
    `sizes ${JSON.stringify(state.sizes)}; frame ${frameHeight}`,
  );
  const screenshot = join(out, "board.png");
  await page.screenshot({ path: screenshot, fullPage: true });
  const size = statSync(screenshot, { throwIfNoEntry: false })?.size ?? 0;
  check(`screenshot saved: ${screenshot}`, size > 0, `${size} bytes`);
  const teardown = await page.evaluate(() =>
    Promise.race([
      window.__host.teardown().then((answer) => ({ answer })),
      new Promise((resolve) => setTimeout(() => resolve({ timedOut: true }), 5000)),
    ]),
  );
  check("view: answers ui/resource-teardown", teardown.answer !== undefined, JSON.stringify(teardown));
}

console.log(`apps: output in ${out}`);
main().then(
  () => finish(),
  (error) => {
    check("the run completed", false, error?.stack ?? String(error));
    finish(1);
  },
);
