// Interop checks of our example servers with @modelcontextprotocol/client 2.x.
//   node client-v2.mjs --server calculator|text_analyzer|notes (--stdio BINARY | --http URL) [--mode legacy|auto|pin]
// The mode defaults to $MODE, else "auto" (probe server/discover: 2026-07-28 with our servers);
// "pin" speaks 2026-07-28 without a probe, "legacy" uses the initialize handshake.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { LEGACY, MODERN, cli, main, notesHandlers, runChecks, runNotesChecks } from "./checks.mjs";

const args = cli(["legacy", "auto", "pin"], process.env.MODE || "auto", ["calculator", "text_analyzer", "notes"]);
await main(async () => {
  const transport = args.http
    ? new StreamableHTTPClientTransport(new URL(args.http))
    : new StdioClientTransport({ command: args.stdio, args: args["server-arg"] ?? [] });
  const mode = args.mode === "pin" ? { pin: MODERN } : args.mode;
  // The notes server's tools ask the client: declare the capabilities and answer with handlers.
  const notes = args.server === "notes" ? notesHandlers() : undefined;
  const capabilities = notes ? { sampling: {}, elicitation: { form: {} }, roots: {} } : {};
  const client = new Client({ name: "mcp-toolkit-interop", version: "1.0.0" }, { versionNegotiation: { mode }, capabilities });
  if (notes) {
    client.setRequestHandler("sampling/createMessage", notes.sampling);
    client.setRequestHandler("elicitation/create", notes.elicitation);
    client.setRequestHandler("roots/list", notes.roots);
    // Legacy sessions' resource updates, and those of a 2026-07-28 listen stream.
    client.setNotificationHandler("notifications/resources/updated", notes.updated);
  }
  await client.connect(transport);
  try {
    const version = client.getNegotiatedProtocolVersion();
    console.log(`@modelcontextprotocol/client, mode ${args.mode}, era ${client.getProtocolEra()}, negotiated protocol version ${version}`);
    const expected = args.mode === "legacy" ? LEGACY : MODERN;
    await (notes ? runNotesChecks(client, version, expected, notes) : runChecks(client, args.server, version, expected));
  } finally {
    await client.close();
  }
});
