// Interop checks of our example servers with @modelcontextprotocol/client 2.x.
//   node client-v2.mjs --server calculator|text_analyzer|notes|payments (--stdio BINARY | --http URL) [--mode legacy|auto|pin]
//     [--reader-token TOKEN --admin-token TOKEN]
// The mode defaults to $MODE, else "auto" (probe server/discover: 2026-07-28 with our servers);
// "pin" speaks 2026-07-28 without a probe, "legacy" uses the initialize handshake.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { LEGACY, MODERN, cli, main, notesHandlers, paymentsHandlers, runChecks, runNotesChecks, runPaymentsChecks } from "./checks.mjs";

const args = cli(["legacy", "auto", "pin"], process.env.MODE || "auto", ["calculator", "text_analyzer", "notes", "payments"]);
// The notes server's tools ask the client (sampling, elicitation, roots), the payments server's
// create_refund asks to confirm (elicitation): declare the capabilities and answer with handlers.
const notes = args.server === "notes" ? notesHandlers() : undefined;
const payments = args.server === "payments" ? paymentsHandlers() : undefined;

/** A connected client; over HTTP with `token`, it sends `Authorization: Bearer TOKEN`. */
async function connect(token) {
  const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
  const transport = args.http
    ? new StreamableHTTPClientTransport(new URL(args.http), { requestInit: { headers } })
    : new StdioClientTransport({ command: args.stdio, args: args["server-arg"] ?? [] });
  const mode = args.mode === "pin" ? { pin: MODERN } : args.mode;
  const capabilities = notes ? { sampling: {}, elicitation: { form: {} }, roots: {} } : payments ? { elicitation: { form: {} } } : {};
  const client = new Client({ name: "mcp-toolkit-interop", version: "1.0.0" }, { versionNegotiation: { mode }, capabilities });
  if (notes) {
    client.setRequestHandler("sampling/createMessage", notes.sampling);
    client.setRequestHandler("elicitation/create", notes.elicitation);
    client.setRequestHandler("roots/list", notes.roots);
    // Legacy sessions' resource updates, and those of a 2026-07-28 listen stream.
    client.setNotificationHandler("notifications/resources/updated", notes.updated);
  }
  if (payments) client.setRequestHandler("elicitation/create", payments.elicitation);
  await client.connect(transport);
  return client;
}

await main(async () => {
  // Over HTTP the payments server takes demo tokens (PAYMENTS_TOKENS): the session's own may pay out.
  const client = await connect(args["admin-token"]);
  try {
    const version = client.getNegotiatedProtocolVersion();
    console.log(`@modelcontextprotocol/client, mode ${args.mode}, era ${client.getProtocolEra()}, negotiated protocol version ${version}`);
    const expected = args.mode === "legacy" ? LEGACY : MODERN;
    if (notes) {
      await runNotesChecks(client, version, expected, notes);
    } else if (payments) {
      const tokens = args.http && args["reader-token"] && args["admin-token"];
      const scopes = tokens ? { connect, readerToken: args["reader-token"], adminToken: args["admin-token"] } : undefined;
      await runPaymentsChecks(client, version, expected, payments, scopes);
    } else {
      await runChecks(client, args.server, version, expected);
    }
  } finally {
    await client.close();
  }
});
