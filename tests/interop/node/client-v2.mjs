// Interop checks of our example servers with @modelcontextprotocol/client 2.x.
//   node client-v2.mjs --server calculator|text_analyzer (--stdio BINARY | --http URL) [--mode legacy|auto|pin]
// The mode defaults to $MODE, else "auto" (probe server/discover: 2026-07-28 with our servers);
// "pin" speaks 2026-07-28 without a probe, "legacy" uses the initialize handshake.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { LEGACY, MODERN, cli, main, runChecks } from "./checks.mjs";

const args = cli(["legacy", "auto", "pin"], process.env.MODE || "auto");
await main(async () => {
  const transport = args.http
    ? new StreamableHTTPClientTransport(new URL(args.http))
    : new StdioClientTransport({ command: args.stdio, args: args["server-arg"] ?? [] });
  const mode = args.mode === "pin" ? { pin: MODERN } : args.mode;
  const client = new Client({ name: "mcp-tools-interop", version: "1.0.0" }, { versionNegotiation: { mode } });
  await client.connect(transport);
  try {
    const version = client.getNegotiatedProtocolVersion();
    console.log(`@modelcontextprotocol/client, mode ${args.mode}, era ${client.getProtocolEra()}, negotiated protocol version ${version}`);
    await runChecks(client, args.server, version, args.mode === "legacy" ? LEGACY : MODERN);
  } finally {
    await client.close();
  }
});
