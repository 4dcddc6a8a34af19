// Interop checks of our example servers with @modelcontextprotocol/sdk 1.x (initialize handshake only).
//   node client-v1.mjs --server calculator|text_analyzer|notes (--stdio BINARY | --http URL) [--mode legacy]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { LEGACY, cli, main, notesHandlers, runChecks, runNotesChecks } from "./checks.mjs";

const args = cli(["legacy"], "legacy", ["calculator", "text_analyzer", "notes"]);
await main(async () => {
  const transport = args.http
    ? new StreamableHTTPClientTransport(new URL(args.http))
    : new StdioClientTransport({ command: args.stdio, args: args["server-arg"] ?? [] });
  // The 1.x Client keeps the negotiated version to itself: read it off the initialize result.
  // (Client.connect chains a handler that is already set on the transport.)
  let version;
  transport.onmessage = (message) => {
    version ??= message.result?.protocolVersion;
  };
  // The notes server's tools ask the client: declare the capabilities and answer with handlers
  // (1.x names each message by its schema).
  const notes = args.server === "notes" ? notesHandlers() : undefined;
  const capabilities = notes ? { sampling: {}, elicitation: { form: {} }, roots: {} } : {};
  const client = new Client({ name: "mcp-toolkit-interop", version: "1.0.0" }, { capabilities });
  if (notes) {
    client.setRequestHandler(CreateMessageRequestSchema, notes.sampling);
    client.setRequestHandler(ElicitRequestSchema, notes.elicitation);
    client.setRequestHandler(ListRootsRequestSchema, notes.roots);
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, notes.updated);
  }
  await client.connect(transport);
  try {
    console.log(`@modelcontextprotocol/sdk, mode legacy, negotiated protocol version ${version}`);
    await (notes ? runNotesChecks(client, version, LEGACY, notes) : runChecks(client, args.server, version, LEGACY));
  } finally {
    await client.close();
  }
});
