// The tasks MCP App (issue 37 item 2) in chromium, inside a host page built from the ext-apps SDK's host-side
// code (test/browser/mcp-app-host/host.mjs: AppBridge, PostMessageTransport, the 2.x client), against a
// `wrangler dev` started here: the host reads ui://tasks/app.html through list_tasks's link and renders it in a
// sandboxed iframe; the app shows a task made over REST, takes the host's theme variables, completes the task
// through the bridge (complete_task), and REST sees it completed; served as for a tasks:read grant, its write
// controls are disabled with the reason. The app's own CSP must hold: no violation.
// Run: node test/browser/mcp-app.mjs (npm run assets first). Screenshot: artifacts/browser/mcp-app.png.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { accountWithKey } from "../support/accounts.mjs";
import { root, startWranglerDev, until } from "../support/wrangler-dev.mjs";

const shots = process.env.SHOTS_DIR ?? join(root, "artifacts", "browser");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

async function rest(base, key, path, init = {}) {
  const response = await fetch(`${base}/api/v1${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
  });
  assert(response.ok, `${init.method ?? "GET"} ${path}: ${response.status} ${await response.clone().text()}`);
  return response.json();
}

let server;
let browser;

async function main() {
  await mkdir(shots, { recursive: true });
  const { outputFiles } = await build({
    absWorkingDir: root,
    entryPoints: ["test/browser/mcp-app-host/host.mjs"],
    bundle: true,
    write: false,
    format: "esm",
    target: "es2022",
    platform: "browser",
    logLevel: "warning",
  });
  const hostScript = outputFiles[0].text;
  server = await startWranglerDev();
  const { base } = server;
  const { key } = await accountWithKey(server, { prefix: "mcp-app" });
  const made = await rest(base, key, "/tasks", { method: "POST", body: JSON.stringify({ title: "Buy milk" }) });
  const taskId = (made.task ?? made).id;

  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
  page.setDefaultTimeout(15_000);
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(e.message));
  // The host page, on the Worker's own origin (so /mcp's Origin check passes as for any same-site page).
  const hostUrl = `${base}/__test/mcp-app-host.html`;
  let host = { base, key };
  await page.route(`${hostUrl}*`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><title>Test host</title><body><script>window.HOST=${JSON.stringify(host)}</script><script type="module">${hostScript}</script></body>`,
    }),
  );
  const app = page.frameLocator('iframe[title="Tasks app"]');

  // As a tasks:read grant gets it: the task shows, every write control is disabled, and the reason is said.
  host = { base, key, readOnly: true };
  await page.goto(hostUrl);
  await page.waitForFunction(() => window.hostReady === true);
  const readOnlyBox = app.getByRole("checkbox", { name: "Done: Buy milk" });
  await readOnlyBox.waitFor();
  assert(await readOnlyBox.isDisabled(), "a read-only app's checkbox is disabled");
  assert(await app.getByRole("button", { name: "Add" }).isDisabled(), "a read-only app's Add is disabled");
  assert(await app.getByRole("button", { name: "Edit" }).isDisabled(), "a read-only app's Edit is disabled");
  await app.getByRole("note").filter({ hasText: "may read tasks but not change them" }).waitFor();

  host = { base, key };
  await page.goto(hostUrl);
  await page.waitForFunction(() => window.hostReady === true);
  const box = app.getByRole("checkbox", { name: "Done: Buy milk" });
  await box.waitFor();
  assert(await box.isEnabled(), "an API key's app may write");

  // The host's theme variable reached the view.
  const background = await app.locator("html").evaluate((el) => getComputedStyle(el).backgroundColor);
  assert(background === "rgb(1, 2, 3)", `host background variable not applied: ${background}`);

  await box.check();
  await until(async () => {
    const task = await rest(base, key, `/tasks/${taskId}`);
    return (task.task ?? task).completed === true;
  }, "REST does not see the task completed from the app");
  // The app re-read the listing: the completed task leaves the open list.
  await app.getByText("No tasks here.").waitFor();
  await page.screenshot({ path: join(shots, "mcp-app.png"), fullPage: true });

  const csp = problems.filter((p) => /Content Security Policy|Refused to/.test(p));
  assert(csp.length === 0, `CSP violations: ${csp.join("\n")}`);
  // The 2.x client opens the standalone GET stream after initialize; /mcp answers 405 (no stream: docs/mcp.md).
  const unexpected = problems.filter((p) => !p.includes("status of 405"));
  assert(unexpected.length === 0, `console errors: ${unexpected.join("\n")}`);
  console.log("mcp-app: rendered in an AppBridge host, completed a task from the app, seen over REST");
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await browser?.close();
  await server?.stop();
}
