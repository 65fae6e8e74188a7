// A minimal MCP Apps host made of the SDK's own host-side code (ext-apps AppBridge + the 2.x MCP client),
// as the ext-apps basic-host does: connect, follow list_tasks's `_meta.ui.resourceUri`, read the resource,
// render it in a sandboxed iframe, hand it the tool result, and let the bridge forward the view's tool calls
// to the server. Bundled by test/browser/mcp-app.mjs; `window.HOST` carries the Worker's origin and a key.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppBridge, getToolUiResourceUri, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

// window.HOST: { base, key, readOnly? }. `readOnly` serves the page as the server does for a tasks:read grant
// (test/mcp/app.test.ts checks the server's side). The host sets window.hostReady once the view has its result.
const { base, key, readOnly } = window.HOST;
const client = new Client({ name: "test-host", version: "1.0.0" });
await client.connect(
  new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  }),
);
const { tools } = await client.listTools();
const uri = getToolUiResourceUri(tools.find((tool) => tool.name === "list_tasks"));
if (!uri) throw new Error("list_tasks links no UI resource");
const { contents } = await client.readResource({ uri });
const served = contents[0].text;
const html = readOnly
  ? served.replace('name="tasks-access" content="write"', 'name="tasks-access" content="read"')
  : served;
const result = await client.callTool({ name: "list_tasks", arguments: {} });

const bridge = new AppBridge(
  client,
  { name: "test-host", version: "1.0.0" },
  { serverTools: {}, logging: {} },
  {
    hostContext: {
      theme: "dark",
      styles: { variables: { "--color-background-primary": "rgb(1, 2, 3)" } },
    },
  },
);
bridge.oninitialized = async () => {
  await bridge.sendToolInput({ arguments: {} });
  await bridge.sendToolResult(result);
  window.hostReady = true;
};

const iframe = document.createElement("iframe");
iframe.title = "Tasks app";
iframe.sandbox.add("allow-scripts", "allow-forms");
iframe.style.cssText = "width: 100%; height: 480px; border: 0";
document.body.append(iframe);
await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
iframe.srcdoc = html;
