// End-to-end test of the account page in a real browser (Debian chromium driven by playwright-core)
// against a `wrangler dev` started here with its own port, inspector port and D1 state.
// Run: npm run test:browser. Screenshots: artifacts/browser/NN-step.png (not committed).
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { grantMax, newCredentials } from "../support/accounts.mjs";
import { pageSession, root, startWranglerDev, until } from "../support/wrangler-dev.mjs";

const artifacts = join(root, "artifacts", "browser");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const credentials = newCredentials("e2e");
const { email } = credentials;
// The password step changes it.
let { password } = credentials;
const wide = { width: 1280, height: 900 };
// A local app's OAuth callback (loopback, as RFC 8252 allows); the browser test intercepts it.
const OAUTH_REDIRECT = "http://localhost:9/callback";

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const text = async (page, selector) => ((await page.locator(selector).textContent()) ?? "").trim();
const visible = (page, selector) => page.locator(selector).isVisible();
const focusedId = (page) => page.evaluate(() => document.activeElement?.id ?? "");

let server;
let browser;

async function main() {
  await mkdir(artifacts, { recursive: true });
  server = await startWranglerDev();
  const { base } = server;
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
  const context = await browser.newContext({ viewport: wide, locale: "en-US", timezoneId: "UTC" });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const consoleErrors = [];
  page.on("console", (message) => message.type() === "error" && consoleErrors.push(message.text()));
  page.on("pageerror", (error) => consoleErrors.push(error.message));

  const shot = (name, options = {}) =>
    page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true, ...options });
  let key;
  let keyId;
  const tasksWith = (bearer) => fetch(`${base}/api/v1/tasks`, { headers: { Authorization: `Bearer ${bearer}` } });
  const mcpWith = (bearer) =>
    fetch(`${base}/mcp`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${bearer}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
  const oauth = {};

  const steps = [
    [
      "signs up",
      "01-signed-up",
      async () => {
        const response = await page.goto(`${base}/`);
        const headers = response.headers();
        const csp = headers["content-security-policy"] ?? "";
        assert(
          /script-src 'self'/.test(csp) && !csp.includes("unsafe-inline"),
          `CSP must allow only self scripts, got: ${csp}`,
        );
        assert(csp.includes("frame-ancestors 'none'"), "CSP must forbid framing");
        assert(headers["x-content-type-options"] === "nosniff", "X-Content-Type-Options: nosniff missing");
        assert(headers["referrer-policy"], "Referrer-Policy missing");
        await page.locator("#sign-up-form").waitFor();
        // Errors are shown next to the fields, and focus moves to the first one.
        const form = page.locator("#sign-up-form");
        await form.getByLabel("Email").fill("not-an-email");
        await form.getByLabel("Password").fill("short");
        await form.getByRole("button", { name: "Create account" }).click();
        await page.locator("#sign-up-email-error").waitFor();
        assert(
          (await text(page, "#sign-up-password-error")).includes("at least 10 characters"),
          "password error not shown",
        );
        assert((await focusedId(page)) === "sign-up-email", "focus did not move to the first invalid field");
        await shot("01a-sign-up-errors");
        await form.getByLabel("Email").fill(email);
        await form.getByLabel("Password").fill(password);
        await form.getByRole("button", { name: "Create account" }).click();
        await page.locator("#signed-in").waitFor();
        assert((await text(page, "#session-email")) === email, "signed-in email not shown");
        assert(page.url() === `${base}/`, `the URL changed: ${page.url()}`);
        const stored = await pageSession(context);
        assert(stored && !page.url().includes(stored), "the session must be in its cookie, not the URL");
        const cookie = (await context.cookies()).find((c) => c.name === "todo_session");
        assert(cookie.httpOnly && cookie.sameSite === "Lax" && cookie.path === "/", "session cookie flags");
        assert((await page.evaluate(() => sessionStorage.length)) === 0, "nothing in sessionStorage");
        assert(!(await page.evaluate(() => document.cookie)).includes(stored), "the page's scripts cannot read it");
      },
    ],
    [
      "sees Free",
      "02-free",
      async () => {
        assert((await text(page, "#plan-badge")) === "Free", "plan badge should say Free");
        assert(await visible(page, "#max-needed"), "the 'task access needs Max' notice is not visible");
        assert((await text(page, "#max-needed")).includes("Task access needs Max"), "notice wording");
        assert(
          await page.getByRole("button", { name: "Create key" }).isVisible(),
          "keys must be creatable without Max",
        );
      },
    ],
    [
      "is granted Max through the admin route",
      "03-granted-max",
      async () => {
        const account = await grantMax(server, email);
        assert(account.membership.plan === "max" && account.membership.active, "membership not active Max");
      },
    ],
    [
      "reloads and sees Max",
      "04-max",
      async () => {
        await page.reload();
        await until(async () => (await text(page, "#plan-badge")) === "Max", "plan badge should say Max after reload");
        assert((await text(page, "#plan-detail")).startsWith("Active until"), "the end date of Max is not shown");
        // Issue 35 item 15: a Max account sees its billing; an operator's grant says so, with its end.
        await page.locator("#billing-plan").waitFor();
        const billing = await text(page, "#billing-plan");
        assert(/granted by the service operator.*It ends on \w/.test(billing), `billing: ${billing}`);
        // And /favicon.ico is a real icon, for whatever asks for it by convention.
        const icon = await fetch(`${base}/favicon.ico`);
        const bytes = Buffer.from(await icon.arrayBuffer());
        assert(icon.status === 200 && /icon/.test(icon.headers.get("content-type")), `favicon: ${icon.status}`);
        assert(bytes.readUInt32LE(0) === 0x10000 && bytes.includes(Buffer.from("\x89PNG", "latin1")), "not an ICO");
        assert(!(await visible(page, "#max-needed")), "the 'needs Max' notice should be gone");
        // Keyboard: the first stops are the skip link, the home link, Your tasks, Sign out, the time zone, then the AI
        // connection section.
        await page.evaluate(() => document.activeElement?.blur());
        await page.mouse.click(1, 300); // a neutral spot, so Tab starts from the top of the document
        const order = [];
        for (let i = 0; i < 9; i++) {
          await page.keyboard.press("Tab");
          order.push(
            await page.evaluate(() => {
              const el = document.activeElement;
              return el?.id || el?.textContent?.trim() || el?.tagName;
            }),
          );
          if (i === 0) await shot("04c-skip-link-focus", { fullPage: false });
        }
        const expected = [
          "Skip to main content",
          "Todo & Calendars",
          "Your tasks",
          "sign-out",
          // The account's time zone (issue 30), set with a list and a button.
          "time-zone",
          "Save time zone",
          "skill file (SKILL.md)",
          "mcp-url",
          "Copy MCP URL",
        ];
        assert(JSON.stringify(order) === JSON.stringify(expected), `unexpected tab order: ${order.join(" → ")}`);
        const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
        assert(outline !== "none", "the focused element has no visible outline");
        // Narrow screen: nothing wider than the viewport.
        await page.setViewportSize({ width: 390, height: 844 });
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        await shot("04b-max-390px");
        await page.setViewportSize(wide);
        assert(overflow <= 0, `the page scrolls sideways at 390px by ${overflow}px`);
      },
    ],
    [
      "creates a key and reads it from the page",
      "05-key-created",
      async () => {
        // Keyboard only: type a name and press Enter.
        await page.getByLabel("Key name").focus();
        await page.keyboard.type("e2e agent");
        await page.keyboard.press("Enter");
        await page.locator("#new-key-value").waitFor();
        key = await page.locator("#new-key-value").inputValue();
        assert(/^todo_live_[0-9a-f]{32}[0-9A-Za-z]{60}$/.test(key), `unexpected key format: ${key}`);
        assert((await focusedId(page)) === "new-key-title", "focus should move to the new key panel");
        assert(
          (await text(page, "#new-key-slot")).includes("you will not see this key again"),
          "one-time warning missing",
        );
        await page.getByRole("button", { name: "Copy key" }).click();
        await until(
          async () => (await page.evaluate(() => navigator.clipboard.readText())) === key,
          "Copy key did not put the key on the clipboard",
        );
        const snippet = await text(page, "#snippet-mcp-json");
        assert(
          snippet.includes(`${base}/mcp`) && snippet.includes(`Bearer ${key}`),
          "MCP snippet lacks the URL or the key",
        );
        keyId = await page.locator("#key-list li").first().getAttribute("data-key-id");
        assert(keyId, "the new key is not in the list");
        assert((await text(page, "#key-list")).includes("e2e agent"), "key name missing from the list");
      },
    ],
    [
      "uses that key for GET /api/v1/tasks (200)",
      "06-key-used",
      async () => {
        const response = await tasksWith(key);
        const body = await response.text();
        assert(response.status === 200, `GET /api/v1/tasks answered ${response.status}: ${body}`);
        assert(Array.isArray(JSON.parse(body).data), "task collection without data");
        await page.getByRole("button", { name: "I have saved my key" }).click();
        assert((await focusedId(page)) === "key-name", "focus should return to the key name field");
        assert(!(await page.content()).includes(key), "the key is still in the DOM after closing the panel");
        // Last used is recorded just after the response; reload until the list shows it.
        await until(async () => {
          await page.reload();
          await page.locator(`li[data-key-id="${keyId}"]`).waitFor();
          return !(await text(page, `li[data-key-id="${keyId}"]`)).includes("Never");
        }, "the key list does not show when the key was last used");
      },
    ],
    [
      "revokes it in the page",
      "07-revoked",
      async () => {
        // Keyboard only: Enter on Revoke, the dialog opens on Cancel, Tab to confirm.
        await page.locator(`li[data-key-id="${keyId}"] button`).focus();
        await page.keyboard.press("Enter");
        await page.locator("#revoke-dialog[open]").waitFor();
        assert((await focusedId(page)) === "revoke-cancel", "the dialog should open with focus on Cancel");
        assert((await text(page, "#revoke-name")) === "e2e agent", "the dialog does not name the key");
        await shot("07a-confirm-revoke", { fullPage: false });
        await page.keyboard.press("Tab");
        assert((await focusedId(page)) === "revoke-confirm", "Tab should reach the confirm button");
        await page.keyboard.press("Enter");
        await page.locator("#revoke-dialog").waitFor({ state: "hidden" });
        await until(
          async () => (await page.locator(`#key-list li[data-key-id="${keyId}"]`).count()) === 0,
          "revoked key still listed as active",
        );
        assert(await visible(page, "#keys-empty"), "the empty-list message should show");
        await page.locator("#inactive-keys summary").click();
        assert(
          (await text(page, `#inactive-key-list li[data-key-id="${keyId}"]`)).includes("Revoked"),
          "revoked key not marked",
        );
      },
    ],
    [
      "gets 401 with it",
      "08-revoked-key-401",
      async () => {
        const response = await tasksWith(key);
        assert(response.status === 401, `GET /api/v1/tasks with a revoked key answered ${response.status}`);
        assert(
          (response.headers.get("content-type") ?? "").includes("application/problem+json"),
          "401 is not problem+json",
        );
        // Sign out, then back in: the membership is still Max.
        await page.getByRole("button", { name: "Sign out", exact: true }).click();
        await page.locator("#sign-in-form").waitFor();
        assert((await pageSession(context)) === null, "sign-out left the token behind");
        await shot("08b-signed-out");
        // A wrong password shows the server's message in the form.
        const form = page.locator("#sign-in-form");
        await form.getByLabel("Email").fill(email);
        await form.getByLabel("Password").fill("wrong-password");
        await form.getByRole("button", { name: "Sign in", exact: true }).click();
        await until(
          async () => (await text(page, "#sign-in-form .form-error")).includes("Email or password is incorrect"),
          "wrong password: no error shown",
        );
        await shot("08c-wrong-password");
        // The browser logs the expected 401 of that attempt; anything else is still an error.
        const unexpected = consoleErrors.filter((message) => !/status of 401/.test(message));
        assert(unexpected.length === 0, `browser console errors: ${unexpected.join(" | ")}`);
        consoleErrors.length = 0;
        await form.getByLabel("Password").fill(password);
        await form.getByRole("button", { name: "Sign in", exact: true }).click();
        await until(async () => (await text(page, "#plan-badge")) === "Max", "signing in again should show Max");
      },
    ],
    [
      "downloads the export and checks its JSON",
      "09-exported",
      async () => {
        // A task to find in the export, written with a fresh key through the API (once step 8's sign-in has landed).
        await page.locator("#signed-in").waitFor();
        await until(async () => (await pageSession(context)) !== null, "no session after signing in again");
        const token = await pageSession(context);
        const created = await (
          await fetch(`${base}/account/api-keys`, {
            method: "POST",
            headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
            body: JSON.stringify({ name: "export check" }),
          })
        ).json();
        const task = await (
          await fetch(`${base}/api/v1/tasks`, {
            method: "POST",
            headers: { Authorization: `Bearer ${created.key}`, "Content-Type": "application/json" },
            body: JSON.stringify({ title: "Exported task" }),
          })
        ).json();
        await page.reload();
        await page.locator("#export-button").waitFor();
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          page.getByRole("button", { name: "Download your data" }).click(),
        ]);
        assert(
          /^todo-export-\d{4}-\d\d-\d\d\.json$/.test(download.suggestedFilename()),
          `unexpected file name ${download.suggestedFilename()}`,
        );
        const exported = JSON.parse(await readFile(await download.path(), "utf8"));
        assert(exported.account?.email === email, "the export does not hold the account's email");
        assert(exported.membership?.plan === "max", "the export does not hold the membership");
        assert(task.id, `the task was not created: ${JSON.stringify(task)}`);
        assert(
          exported.tasks?.some((t) => t.id === task.id && t.title === "Exported task"),
          `the export lacks the task: ${JSON.stringify(exported.tasks)}`,
        );
        const keyIds = (exported.apiKeys ?? []).map((k) => k.id);
        assert(keyIds.includes(keyId) && keyIds.includes(created.id), "the export lacks the keys");
        assert(!JSON.stringify(exported).includes(created.key), "the export holds a key's secret");
      },
    ],
    [
      "connects an app over OAuth: signed out, it signs in on the authorize page and allows",
      "09b-oauth-allowed",
      async () => {
        // What a hosted agent does: register, then send the person to the authorize URL.
        const registered = await (
          await fetch(`${base}/oauth/register`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({
              client_name: "E2E Agent",
              redirect_uris: [OAUTH_REDIRECT],
              token_endpoint_auth_method: "none",
            }),
          })
        ).json();
        assert(registered.client_id, `registration failed: ${JSON.stringify(registered)}`);
        oauth.clientId = registered.client_id;
        const verifier = randomBytes(32).toString("base64url");
        const url = new URL(`${base}/oauth/authorize`);
        for (const [name, value] of Object.entries({
          response_type: "code",
          client_id: oauth.clientId,
          redirect_uri: OAUTH_REDIRECT,
          code_challenge: createHash("sha256").update(verifier).digest("base64url"),
          code_challenge_method: "S256",
          state: "e2e-state",
          resource: `${base}/mcp`,
        }))
          url.searchParams.set(name, value);
        // A browser that is signed out everywhere.
        const fresh = await browser.newContext({ viewport: wide, locale: "en-US", timezoneId: "UTC" });
        const agent = await fresh.newPage();
        agent.setDefaultTimeout(10_000);
        agent.on("pageerror", (error) => consoleErrors.push(error.message));
        // The client's redirect URI: the browser arrives there with the code.
        const arrived = new Promise((resolve) =>
          agent.route(`${OAUTH_REDIRECT}**`, (route) => {
            resolve(new URL(route.request().url()));
            return route.fulfill({ status: 200, contentType: "text/plain", body: "back at the app" });
          }),
        );
        const response = await agent.goto(url.href);
        const csp = response.headers()["content-security-policy"] ?? "";
        assert(csp.includes("frame-ancestors 'none'"), `the authorize page may be framed: ${csp}`);
        assert((await text(agent, "#client-name")) === "E2E Agent", "the sign-in page does not name the client");
        await agent.getByLabel("Email").fill(email);
        await agent.getByLabel("Password").fill(password);
        await agent.screenshot({ path: join(artifacts, "09b1-authorize-sign-in.png"), fullPage: true });
        await agent.getByRole("button", { name: "Sign in" }).click();
        await agent.getByRole("button", { name: "Allow" }).waitFor();
        assert((await text(agent, "#client-name")) === "E2E Agent", "the consent page does not name the client");
        assert(
          (await text(agent, "#redirect-host")) === "localhost",
          "the consent page does not show the redirect host",
        );
        await agent.screenshot({ path: join(artifacts, "09b2-authorize-consent.png"), fullPage: true });
        await agent.getByRole("button", { name: "Allow" }).click();
        const back = await arrived;
        assert(back.searchParams.get("state") === "e2e-state", `state not returned: ${back}`);
        assert(back.searchParams.get("iss") === base, `iss not returned: ${back}`);
        await fresh.close();
        const tokens = await (
          await fetch(`${base}/oauth/token`, {
            method: "POST",
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({
              grant_type: "authorization_code",
              code: back.searchParams.get("code") ?? "",
              client_id: oauth.clientId,
              redirect_uri: OAUTH_REDIRECT,
              code_verifier: verifier,
              resource: `${base}/mcp`,
            }),
          })
        ).json();
        assert(tokens.access_token, `no access token: ${JSON.stringify(tokens)}`);
        oauth.accessToken = tokens.access_token;
        const listed = await mcpWith(oauth.accessToken);
        assert(listed.status === 200, `tools/list with the OAuth token answered ${listed.status}`);
      },
    ],
    [
      "revokes the connection on the account page; the next MCP call with its token is 401",
      "09c-oauth-revoked",
      async () => {
        await page.reload();
        await page.locator("#connection-list li").first().waitFor();
        assert((await text(page, "#connection-list .key__name")) === "E2E Agent", "the connected app is not listed");
        await shot("09c1-connected-apps");
        await page.getByRole("button", { name: "Revoke E2E Agent" }).click();
        await until(async () => !(await visible(page, "#connection-list li")), "the connection is still listed");
        assert(await visible(page, "#connections-empty"), "no 'No connected apps' after revoking");
        const refused = await mcpWith(oauth.accessToken);
        assert(refused.status === 401, `tools/list after revocation answered ${refused.status}`);
        assert(
          (refused.headers.get("www-authenticate") ?? "").includes("resource_metadata="),
          "the 401 does not name the resource metadata",
        );
      },
    ],
    [
      "sees its sessions and changes the password",
      "10-password-changed",
      async () => {
        // Password checks share the email's sign-in budget (5 a minute), and steps 8 to 11 need 7:
        // wait for the next clock-aligned window, which gives steps 10 and 11 their own 5.
        await new Promise((resolve) => setTimeout(resolve, 60_500 - (Date.now() % 60_000)));
        await until(
          async () => (await text(page, "#session-list")).includes("This device"),
          "the session list does not mark this device",
        );
        const newPassword = `${password}-renewed`;
        // Keyboard only: fill both fields and press Enter.
        await page.locator("#current-password").focus();
        await page.keyboard.type(password);
        await page.locator("#password-form").getByLabel("New password").focus();
        await page.keyboard.type(newPassword);
        await page.keyboard.press("Enter");
        await until(
          async () => (await text(page, "#password-status")).includes("Password changed"),
          "no confirmation of the password change",
        );
        assert(
          (await text(page, "#password-form")).includes("API keys keep working"),
          "the page does not say the keys keep working",
        );
        await shot("10a-password-changed");
        await page.getByRole("button", { name: "Sign out", exact: true }).click();
        const form = page.locator("#sign-in-form");
        await form.getByLabel("Email").fill(email);
        await form.getByLabel("Password").fill(newPassword);
        await form.getByRole("button", { name: "Sign in", exact: true }).click();
        await page.locator("#signed-in").waitFor();
        await until(async () => (await pageSession(context)) !== null, "signing in with the new password failed");
        password = newPassword;
      },
    ],
    [
      "deletes the account, and signing in fails",
      "11-deleted",
      async () => {
        await page.getByRole("button", { name: "Delete account…" }).click();
        await page.locator("#delete-dialog[open]").waitFor();
        assert((await focusedId(page)) === "delete-password", "the dialog should open with focus on the password");
        const losses = await text(page, "#delete-losses");
        assert(
          losses.includes(email) && losses.includes("tasks") && losses.includes("API key"),
          `the dialog does not name what will be lost: ${losses}`,
        );
        await shot("11a-confirm-delete", { fullPage: false });
        // A wrong password keeps the dialog open with its error, and the tab signed in.
        await page.keyboard.type("not the password");
        await page.keyboard.press("Enter");
        await until(
          async () => (await text(page, "#delete-password-error")).includes("incorrect"),
          "wrong password: no error in the dialog",
        );
        assert(await visible(page, "#delete-dialog"), "the dialog closed after a wrong password");
        consoleErrors.splice(
          0,
          consoleErrors.length,
          ...consoleErrors.filter((message) => !/status of 401/.test(message)),
        );
        await page.locator("#delete-password").fill(password);
        await page.getByRole("button", { name: "Delete my account" }).click();
        await page.locator("#sign-in-form").waitFor();
        assert((await text(page, "#notice")).includes("deleted"), "no notice that the account was deleted");
        assert((await pageSession(context)) === null, "deletion left the token behind");
        const form = page.locator("#sign-in-form");
        await form.getByLabel("Email").fill(email);
        await form.getByLabel("Password").fill(password);
        await form.getByRole("button", { name: "Sign in", exact: true }).click();
        await until(
          async () => (await text(page, "#sign-in-form .form-error")).includes("Email or password is incorrect"),
          "signing in after deletion did not fail",
        );
        consoleErrors.splice(
          0,
          consoleErrors.length,
          ...consoleErrors.filter((message) => !/status of 401/.test(message)),
        );
      },
    ],
  ];

  let passed = 0;
  let failed = 0;
  for (const [index, [name, file, body]] of steps.entries()) {
    try {
      await body();
      assert(consoleErrors.length === 0, `browser console errors: ${consoleErrors.join(" | ")}`);
      await shot(file);
      passed++;
      console.log(`ok ${index + 1} - ${name}`);
    } catch (error) {
      failed++;
      console.log(`not ok ${index + 1} - ${name}\n  ${String(error?.stack ?? error).replaceAll("\n", "\n  ")}`);
      await shot(`${file}-FAILED`).catch(() => undefined);
      break;
    }
  }
  const notRun = steps.length - passed - failed;
  console.log(`Screenshots: ${artifacts}`);
  console.log(`${passed} passed, ${failed} failed${notRun ? `, ${notRun} not run` : ""}`);
  return failed === 0 && notRun === 0;
}

let ok = false;
try {
  ok = await main();
} catch (error) {
  console.error(error?.stack ?? error);
} finally {
  await browser?.close().catch(() => undefined);
  await server?.stop();
}
process.exit(ok ? 0 : 1);
