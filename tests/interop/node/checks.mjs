// The checks shared by client-v1.mjs and client-v2.mjs: the same cases and output as
// ../python/client.py. Each client connects with its SDK and hands the connected client here.
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

/** Parses `--server S (--stdio BINARY [--server-arg ARG]... | --http URL) [--mode M]`; exits with usage on error. */
export function cli(modes, defaultMode) {
  const usage = `usage: ${process.argv[1]} --server calculator|text_analyzer (--stdio BINARY [--server-arg ARG]... | --http URL) [--mode ${modes.join("|")}]`;
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        server: { type: "string" },
        stdio: { type: "string" },
        "server-arg": { type: "string", multiple: true },
        http: { type: "string" },
        mode: { type: "string" },
      },
    }));
  } catch (e) {
    console.error(`${e.message}\n${usage}`);
    process.exit(2);
  }
  values.mode ??= defaultMode;
  if (!(values.server in CASES) || !values.stdio === !values.http || !modes.includes(values.mode)) {
    console.error(usage);
    process.exit(2);
  }
  return values;
}

const texts = (result) => result.content.filter((c) => c.type === "text").map((c) => c.text);

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
