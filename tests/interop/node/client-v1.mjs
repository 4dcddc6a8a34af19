// Interop checks of our example servers with @modelcontextprotocol/sdk 1.x (initialize handshake only).
//   node client-v1.mjs --server calculator|text_analyzer|notes|payments (--stdio BINARY | --http URL) [--mode legacy]
//     [--reader-token TOKEN --admin-token TOKEN]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { LEGACY, cli, main, notesHandlers, paymentsHandlers, runChecks, runNotesChecks, runPaymentsChecks } from "./checks.mjs";

const args = cli(["legacy"], "legacy", ["calculator", "text_analyzer", "notes", "payments"]);
// The notes server's tools ask the client (sampling, elicitation, roots), the payments server's
// create_refund asks to confirm (elicitation): declare the capabilities and answer with handlers
// (1.x names each message by its schema).
const notes = args.server === "notes" ? notesHandlers() : undefined;
const payments = args.server === "payments" ? paymentsHandlers() : undefined;

/** A connected client and the negotiated version; over HTTP with `token`, it sends
 * `Authorization: Bearer TOKEN`. */
async function connect(token) {
  const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
  const transport = args.http
    ? new StreamableHTTPClientTransport(new URL(args.http), { requestInit: { headers } })
    : new StdioClientTransport({ command: args.stdio, args: args["server-arg"] ?? [] });
  // The 1.x Client keeps the negotiated version to itself: read it off the initialize result.
  // (Client.connect chains a handler that is already set on the transport.)
  let version;
  transport.onmessage = (message) => {
    version ??= message.result?.protocolVersion;
  };
  const capabilities = notes ? { sampling: {}, elicitation: { form: {} }, roots: {} } : payments ? { elicitation: { form: {} } } : {};
  const client = new Client({ name: "mcp-toolkit-interop", version: "1.0.0" }, { capabilities });
  if (notes) {
    client.setRequestHandler(CreateMessageRequestSchema, notes.sampling);
    client.setRequestHandler(ElicitRequestSchema, notes.elicitation);
    client.setRequestHandler(ListRootsRequestSchema, notes.roots);
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, notes.updated);
  }
  if (payments) client.setRequestHandler(ElicitRequestSchema, payments.elicitation);
  await client.connect(transport);
  return [client, version];
}

await main(async () => {
  // Over HTTP the payments server takes demo tokens (PAYMENTS_TOKENS): the session's own may pay out.
  const [client, version] = await connect(args["admin-token"]);
  try {
    console.log(`@modelcontextprotocol/sdk, mode legacy, negotiated protocol version ${version}`);
    if (notes) {
      await runNotesChecks(client, version, LEGACY, notes);
    } else if (payments) {
      const tokens = args.http && args["reader-token"] && args["admin-token"];
      const connectWith = async (token) => (await connect(token))[0];
      const scopes = tokens ? { connect: connectWith, readerToken: args["reader-token"], adminToken: args["admin-token"] } : undefined;
      await runPaymentsChecks(client, version, LEGACY, payments, scopes);
    } else {
      await runChecks(client, args.server, version, LEGACY);
    }
  } finally {
    await client.close();
  }
});
