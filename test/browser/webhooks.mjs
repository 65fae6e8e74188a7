// Browser test of the account page's webhooks (issue 35 items 9 and 16): add a webhook from the page, see
// each one's deliveries and retries, disable, enable, rotate its secret, delete it after a confirmation that
// names it. Every visible control of the section is clicked by its accessible name and its effect checked
// (on the page and over the API); in each main state no two visible buttons or links overlap, and axe-core
// finds no WCAG 2.1 AA violation. Real `wrangler dev` (WEBHOOKS_ALLOW_LOOPBACK=on) and Debian chromium; the
// receivers are a small Node HTTP server on 127.0.0.1. Run: npm run test:browser.
// Screenshots: artifacts/browser/webhooks-*.png (SHOTS_DIR to put them elsewhere).
import { createServer } from "node:http";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { axeViolations } from "../support/axe.mjs";
import { chromium } from "playwright-core";
import { accountWithKey } from "../support/accounts.mjs";
import { root, startWranglerDev, until, usePageSession } from "../support/wrangler-dev.mjs";

const shots = process.env.SHOTS_DIR ?? join(root, "artifacts", "browser");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** Two receivers: /ok answers 200, /fail 500 (so a retry waits). */
function startReceivers() {
  const received = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received.push(req.url);
      res.writeHead(req.url === "/ok" ? 200 : 500).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ received, port: server.address().port, server })),
  );
}

/** Pairs of visible buttons and links in `scope` whose boxes overlap (by more than a pixel each way). */
const overlaps = (page, scope) =>
  page.evaluate((selector) => {
    const controls = [...document.querySelector(selector).querySelectorAll("button, a[href], summary")]
      .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden")
      .map((el) => ({ name: (el.textContent ?? "").trim().replace(/\s+/g, " "), box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 1 && box.height > 1);
    const found = [];
    for (const [i, a] of controls.entries())
      for (const b of controls.slice(i + 1)) {
        const x = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
        const y = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
        if (x > 1 && y > 1) found.push(`"${a.name}" and "${b.name}"`);
      }
    return { count: controls.length, found };
  }, scope);

let receivers;
let server;
let browser;

async function main() {
  await mkdir(shots, { recursive: true });
  receivers = await startReceivers();
  server = await startWranglerDev({ vars: { RATE_LIMITS: "off", WEBHOOKS_ALLOW_LOOPBACK: "on" } });
  const { base } = server;
  const user = await accountWithKey(server, { prefix: "hooks" });
  const api = async (path, init = {}) => {
    const res = await fetch(`${base}/api/v1${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${user.key}`, "Content-Type": "application/json" },
    });
    return res.status === 204 ? null : res.json();
  };
  const hooks = async () => (await api("/webhooks")).data;
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "en-US", timezoneId: "UTC" });
  page.setDefaultTimeout(10_000);
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on(
    "console",
    (message) => message.type() === "error" && !/status of 4\d\d/.test(message.text()) && errors.push(message.text()),
  );
  const section = page.locator("#calendar-feed");
  const button = (name) => section.getByRole("button", { name, exact: true });
  const item = (name) => section.locator("li.webhook", { has: page.getByRole("heading", { name, exact: true }) });
  const shot = (name) => page.screenshot({ path: join(shots, `hooks35-${name}.png`), fullPage: false });
  const sectionShot = (name) => section.screenshot({ path: join(shots, `hooks35-${name}.png`) });
  const noOverlap = async (state) => {
    const { count, found } = await overlaps(page, "#calendar-feed");
    assert(count >= 2, `${state}: only ${count} controls found: the check would prove nothing`);
    assert(found.length === 0, `${state}: overlapping controls: ${found.join("; ")}`);
  };
  const axe = async (state) => {
    const { found } = await axeViolations(page);
    assert(found.length === 0, `axe, ${state}: ${found.join("; ")}`);
  };

  await page.goto(`${base}/`);
  await usePageSession(page.context(), base, user.session);
  await page.reload();
  await button("Add webhook").waitFor();
  await section.scrollIntoViewIfNeeded();
  assert(await section.getByText("No webhooks yet.").isVisible(), "the empty state is not shown");
  await noOverlap("empty");
  await axe("empty");
  await sectionShot("01-empty");

  // A refused address: the field says why, in one sentence (issue 35 item 7).
  await section.getByLabel("URL").fill("http://example.com/hook");
  await button("Add webhook").click();
  const urlError = section.locator("#webhook-url-error");
  await urlError.waitFor();
  assert((await urlError.textContent()) === "The URL must use https.", `refusal: ${await urlError.textContent()}`);
  await axe("refused address");

  // Add two webhooks: each shows its secret once, named; "I have saved the secret" removes it.
  const secrets = {};
  for (const [path, description] of [
    ["/ok", "Healthy receiver"],
    ["/fail", "Failing receiver"],
  ]) {
    await section.getByLabel("URL").fill(`http://127.0.0.1:${receivers.port}${path}`);
    await section.getByLabel("Description (optional)").fill(description);
    await button("Add webhook").click();
    const title = section.getByRole("heading", { name: `Signing secret for “${description}”` });
    await title.waitFor();
    secrets[description] = await section.locator("#webhook-secret-value").inputValue();
    assert(secrets[description].startsWith("whsec_"), "no secret shown");
    if (path === "/ok") {
      await noOverlap("secret shown");
      await axe("secret shown");
      await sectionShot("02-secret-shown");
      await button("Copy secret").click();
    }
    await button("I have saved the secret").click();
    assert(!(await section.locator("#webhook-secret-value").count()), "the secret stays in the DOM");
  }
  assert((await hooks()).length === 2, "the API does not list the two webhooks");

  // An event: delivered to one, failed and waiting for its retry at the other.
  await api("/tasks", { method: "POST", body: JSON.stringify({ title: "Ping the receivers" }) });
  await until(async () => receivers.received.length >= 2, "the receivers got no event", 20_000, 200);
  await until(
    async () => {
      await page.reload();
      // The list renders after the page's own requests answer: count in it, not in the page before it is there.
      await item("Failing receiver").locator(".webhook__deliveries").waitFor();
      return (await item("Failing receiver").locator(".webhook__pending li").count()) === 1;
    },
    "the page shows no delivery",
    20_000,
    500,
  );
  const healthy = item("Healthy receiver");
  const failing = item("Failing receiver");
  assert(/Delivered \(HTTP 200\)/.test(await healthy.locator("table").textContent()), "no delivered row");
  assert(/HTTP 500/.test(await failing.locator("table").textContent()), "no failed row");
  assert(/task\.created: retry \d+ at/.test(await failing.locator(".webhook__pending").textContent()), "no retry");
  await section.scrollIntoViewIfNeeded();
  await noOverlap("two webhooks with deliveries");
  await axe("two webhooks with deliveries");
  await sectionShot("03-deliveries");

  // Disable disables (it once deleted), Enable enables; the focus ring is on the button focused.
  await button("Disable webhook Healthy receiver").focus();
  const focusBox = await button("Disable webhook Healthy receiver").boundingBox();
  const deleteBox = await button("Delete webhook Healthy receiver").boundingBox();
  assert(
    focusBox.x + focusBox.width <= deleteBox.x || focusBox.y + focusBox.height <= deleteBox.y,
    "Disable under Delete",
  );
  await button("Disable webhook Healthy receiver").click();
  await button("Enable webhook Healthy receiver").waitFor();
  assert((await hooks()).find((h) => h.description === "Healthy receiver")?.enabled === false, "not disabled");
  assert(/Disabled/.test(await item("Healthy receiver").textContent()), "the page does not say Disabled");
  await noOverlap("one disabled");
  await axe("one disabled");
  await sectionShot("04-disabled");
  await button("Enable webhook Healthy receiver").click();
  await button("Disable webhook Healthy receiver").waitFor();
  assert((await hooks()).find((h) => h.description === "Healthy receiver")?.enabled === true, "not enabled");

  // Rotate: a new secret, shown once; the old one still signs for 24 h, which the item says.
  await button("Rotate secret webhook Healthy receiver").click();
  await section.getByRole("heading", { name: "New signing secret for “Healthy receiver”" }).waitFor();
  const rotated = await section.locator("#webhook-secret-value").inputValue();
  assert(rotated.startsWith("whsec_") && rotated !== secrets["Healthy receiver"], "no new secret");
  assert(/previous secret still signs/.test(await healthy.textContent()), "the overlap is not shown");
  await button("I have saved the secret").click();

  // Delete asks first, naming the webhook; Cancel keeps it, "Delete webhook" deletes it.
  await button("Delete webhook Failing receiver").click();
  const dialog = page.getByRole("dialog", { name: "Delete this webhook?" });
  await dialog.waitFor();
  assert(/Failing receiver/.test(await dialog.textContent()), "the dialog does not name the webhook");
  assert(/\/fail/.test(await dialog.textContent()), "the dialog does not show its URL");
  await axe("delete dialog");
  await shot("05-delete-dialog");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  assert((await hooks()).length === 2, "Cancel deleted the webhook");
  await button("Delete webhook Failing receiver").click();
  await dialog.getByRole("button", { name: "Delete webhook" }).click();
  await until(async () => (await section.locator("li.webhook").count()) === 1, "the deleted webhook stays listed");
  assert((await hooks()).map((h) => h.description).join() === "Healthy receiver", "the wrong webhook was deleted");

  // A phone's width: still nothing on top of anything.
  await page.setViewportSize({ width: 390, height: 844 });
  await section.scrollIntoViewIfNeeded();
  await noOverlap("390 px");
  await axe("390 px");
  await sectionShot("06-narrow");
  assert(errors.length === 0, `console errors: ${errors.join("; ")}`);
  return true;
}

let ok = false;
try {
  ok = await main();
  console.log("ok - the account page's webhooks");
} catch (error) {
  console.error(error?.stack ?? error);
} finally {
  await browser?.close().catch(() => undefined);
  await server?.stop();
  receivers?.server.close();
}
process.exit(ok ? 0 : 1);
