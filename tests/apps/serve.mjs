// The two origins of a web host of MCP Apps, for tests/apps/test.mjs (or by hand:
// `node serve.mjs http://127.0.0.1:PORT/mcp` prints the host page's address).
//
// - the host, on http://127.0.0.1:HOST_PORT: the host page, its bundle (build/host.js), and
//   `/mcp` passed through to the MCP server, so the page's requests stay same-origin;
// - the sandbox proxy, on http://localhost:SANDBOX_PORT: another origin, as the spec asks.
import { createServer, request } from "node:http";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));

function listen(server, port = 0) {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server.address().port));
  });
}

function serveFile(res, file, type) {
  readFile(join(here, file)).then(
    (body) => {
      res.writeHead(200, { "content-type": type, "cache-control": "no-store" });
      res.end(body);
    },
    () => {
      res.writeHead(404).end();
    },
  );
}

// Streams both ways (the server may answer a POST with an event stream, and hold a GET one).
function passThrough(req, res, target) {
  const upstream = request(
    target,
    { method: req.method, headers: { ...req.headers, host: target.host } },
    (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("error", (error) => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
    res.end(`the MCP server did not answer: ${error.message}`);
  });
  req.pipe(upstream);
}

/** Starts both servers; `mcpUrl` is the MCP server's Streamable HTTP endpoint. */
export async function startServers(mcpUrl) {
  const target = new URL(mcpUrl);
  const host = createServer((req, res) => {
    const path = new URL(req.url, "http://host").pathname;
    if (path === "/mcp") return passThrough(req, res, target);
    if (req.method !== "GET") return res.writeHead(405).end();
    if (path === "/") return serveFile(res, "host.html", "text/html; charset=utf-8");
    if (path === "/host.js") return serveFile(res, "build/host.js", "text/javascript; charset=utf-8");
    if (path === "/favicon.ico") return res.writeHead(204).end();
    res.writeHead(404).end();
  });
  const sandbox = createServer((req, res) => {
    const path = new URL(req.url, "http://sandbox").pathname;
    if (req.method === "GET" && path === "/sandbox.html") {
      return serveFile(res, "sandbox.html", "text/html; charset=utf-8");
    }
    res.writeHead(404).end();
  });
  const hostPort = await listen(host);
  const sandboxPort = await listen(sandbox);
  const hostOrigin = `http://127.0.0.1:${hostPort}`;
  const sandboxUrl = `http://localhost:${sandboxPort}/sandbox.html`;
  return {
    hostOrigin,
    sandboxUrl,
    pageUrl: `${hostOrigin}/?sandbox=${encodeURIComponent(sandboxUrl)}`,
    close() {
      for (const server of [host, sandbox]) {
        server.closeAllConnections();
        server.close();
      }
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const servers = await startServers(process.argv[2] ?? "http://127.0.0.1:8080/mcp");
  console.log(servers.pageUrl);
}
