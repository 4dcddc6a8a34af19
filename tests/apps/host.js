// A web host of MCP Apps, as small as the spec allows: it connects to an MCP server with the
// official TypeScript client, finds the view linked to `list_notes`, and renders it through a
// sandbox proxy on another origin with the ext-apps package's host side (`AppBridge`).
// What it saw and did is kept in `window.__host` for tests/apps/test.mjs to read.
//
// Query parameters: `sandbox` (the sandbox proxy page, on another origin), `tool` (the tool
// whose view to show, default `list_notes`). The MCP endpoint is this origin's `/mcp`.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  AppBridge,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
  getToolUiResourceUri,
} from "@modelcontextprotocol/ext-apps/app-bridge";

const UI_EXTENSION = "io.modelcontextprotocol/ui";
const query = new URLSearchParams(location.search);
const toolName = query.get("tool") || "list_notes";
// Distinct colours, so a test can see the view took the host's theme.
const THEME = {
  "--color-background-primary": "rgb(250, 247, 238)",
  "--color-text-primary": "rgb(32, 33, 36)",
};

const state = {
  stage: "starting",
  theme: THEME,
  error: null,
  serverExtension: null, // the server's `io.modelcontextprotocol/ui` declaration
  modelTools: [], // what this host would offer its model
  appTools: [], // what the view may call
  resource: null, // { uri, mimeType, ui }
  calls: [], // the view's `tools/call`s forwarded to the server: { name, arguments, isError }
  rejected: [], // the view's `tools/call`s refused here
  sizes: [], // `ui/notifications/size-changed` from the view
  log: [],
  teardown: null,
};
window.__host = state;

function log(line) {
  state.log.push(line);
  console.log(`[host] ${line}`);
  document.getElementById("log").textContent += `${line}\n`;
}

// `_meta.ui.visibility`; both when absent (MCP Apps, "Visibility").
function visibility(tool) {
  const declared = tool._meta?.ui?.visibility;
  return Array.isArray(declared) ? declared : ["model", "app"];
}

function decodeHtml(content) {
  if (typeof content.text === "string") return content.text;
  const bytes = Uint8Array.from(atob(content.blob), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

async function main() {
  const client = new Client(
    { name: "mcp-toolkit-apps-host", version: "0.1.0" },
    { capabilities: { extensions: { [UI_EXTENSION]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.href)));
  state.serverExtension = client.getServerCapabilities()?.extensions?.[UI_EXTENSION] ?? null;
  log(`connected to ${client.getServerVersion()?.name}; ${UI_EXTENSION}: ${JSON.stringify(state.serverExtension)}`);

  const { tools } = await client.listTools();
  state.modelTools = tools.filter((t) => visibility(t).includes("model")).map((t) => t.name);
  const appTools = new Map(tools.filter((t) => visibility(t).includes("app")).map((t) => [t.name, t]));
  state.appTools = [...appTools.keys()];
  const tool = tools.find((t) => t.name === toolName);
  if (!tool) throw new Error(`the server lists no tool \`${toolName}\``);
  const uri = getToolUiResourceUri(tool);
  if (!uri) throw new Error(`\`${toolName}\` names no view in \`_meta.ui.resourceUri\``);

  const { contents } = await client.readResource({ uri });
  const content = contents.find((c) => c.uri === uri) ?? contents[0];
  const ui = content?._meta?.ui ?? {};
  state.resource = { uri, mimeType: content?.mimeType, ui };
  if (content?.mimeType !== RESOURCE_MIME_TYPE) {
    throw new Error(`\`${uri}\` has MIME type \`${content?.mimeType}\`; expected \`${RESOURCE_MIME_TYPE}\``);
  }
  const html = decodeHtml(content);
  // Audit trail: what the view may reach.
  log(`view ${uri}: ${html.length} characters, _meta.ui ${JSON.stringify(ui)}`);

  // The tool runs while the view loads; the view hears its input and result once initialized.
  const args = {};
  const result = client.callTool({ name: toolName, arguments: args });

  const frame = document.createElement("iframe");
  frame.title = uri;
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
  if (ui.prefersBorder) frame.classList.add("bordered");
  document.getElementById("view").append(frame);

  const bridge = new AppBridge(
    null,
    { name: "mcp-toolkit-apps-host", version: "0.1.0" },
    { serverTools: {}, logging: {}, sandbox: { csp: ui.csp ?? {}, permissions: ui.permissions ?? {} } },
    {
      hostContext: {
        theme: "light",
        platform: "web",
        displayMode: "inline",
        availableDisplayModes: ["inline"],
        containerDimensions: { width: 640, maxHeight: 800 },
        styles: { variables: THEME },
        toolInfo: { tool },
      },
    },
  );
  // A view may call only tools whose visibility includes "app" (MCP Apps, "Visibility").
  bridge.oncalltool = async (params) => {
    if (!appTools.has(params.name)) {
      state.rejected.push(params.name);
      log(`refused the view's tools/call of ${params.name}`);
      throw new Error(`tool \`${params.name}\` is not available to apps`);
    }
    const call = { name: params.name, arguments: params.arguments ?? {}, isError: null };
    state.calls.push(call);
    log(`view called ${params.name} ${JSON.stringify(call.arguments)}`);
    const answer = await client.callTool({ name: params.name, arguments: params.arguments });
    call.isError = Boolean(answer.isError);
    return answer;
  };
  bridge.onsizechange = ({ width, height }) => {
    state.sizes.push({ width, height });
    if (height != null) frame.style.height = `${Math.min(height, 800)}px`;
  };
  bridge.onloggingmessage = (params) => log(`view log (${params.level}): ${JSON.stringify(params.data)}`);
  bridge.onsandboxready = () => {
    log("sandbox proxy ready");
    bridge.sendSandboxResourceReady({ html, csp: ui.csp, permissions: ui.permissions });
  };
  bridge.oninitialized = async () => {
    log(`view initialized: ${JSON.stringify(bridge.getAppVersion())}`);
    try {
      await bridge.sendToolInput({ arguments: args });
      await bridge.sendToolResult(await result);
      state.stage = "ready";
      log(`sent ${toolName}'s input and result`);
    } catch (error) {
      fail(error);
    }
  };
  state.teardown = async () => {
    const answer = await bridge.teardownResource({ reason: "the test is done" });
    frame.remove();
    return answer;
  };

  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  const sandbox = new URL(query.get("sandbox"));
  sandbox.searchParams.set("host", location.origin);
  frame.src = sandbox.href;
}

function fail(error) {
  state.stage = "failed";
  state.error = String(error?.stack ?? error);
  log(`error: ${state.error}`);
}

main().catch(fail);
